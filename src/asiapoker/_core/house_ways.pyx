# cython: language_level=3
"""The built-in house ways (rule 5).

A way is (kind, first_hand, second_hand, third_hand): kind 0 = priority over those hands,
indexes into (high, medium, low); kind 1 = "classic" (rule 5.4), medium-first over the
allowed settings.  Hands are first sorted by id, so rank groups are runs of positions (the
joker, id 52, ends the aces' run); ALLOWED[run pattern] is the 105-bit set of splits rule
5.4 (a)-(d) allow.
"""

from libc.stdint cimport int32_t, uint8_t, uint64_t

from asiapoker._core.cards cimport NSPLITS, card_t, check_rows, load7, rank_of, sort7
from asiapoker._core.strengths cimport Tables, seven_parts, tables

cdef const Tables* T = tables()

# the built-in ways as (kind, first_hand, second_hand, third_hand), hands numbered 0 high,
# 1 medium, 2 low: the one definition, which asiapoker.house_way reads; ``house_way7``'s
# number for a way is its place here
BUILTIN_WAYS = {"classic": (1, 1, 2, 0), "medium-first": (0, 1, 2, 0),
                "high-first": (0, 0, 1, 2)}
cdef int WAY_CODES[3][4]
for _i, _code in enumerate(BUILTIN_WAYS.values()):
    for _j in range(4):
        WAY_CODES[_i][_j] = _code[_j]

cdef uint64_t ALLOWED[64][2]
cdef uint8_t SPLIT_PART[NSPLITS][7]    # 0 high, 1 medium, 2 low, by position


cdef void build_allowed() noexcept nogil:
    cdef int k, p, code, g, ng, i, nh, nm, big, lower_big
    cdef int start[7]
    cdef int size[7]
    cdef bint ok, same
    for k in range(NSPLITS):
        for p in range(7):
            SPLIT_PART[k][p] = 0
        for p in range(2):
            SPLIT_PART[k][T.pair_pos[T.split_medium[k]][p]] = 1
        SPLIT_PART[k][T.split_low[k]] = 2
    for code in range(64):
        ng = 0
        start[0] = 0
        for p in range(7):
            if p == 0 or (code >> (p - 1)) & 1:
                start[ng] = p
                size[ng] = 0
                ng += 1
            size[ng - 1] += 1
        big = 0
        lower_big = -1
        for g in range(ng):
            if size[g] >= 3:
                big += 1
                if lower_big < 0:
                    lower_big = g
        ALLOWED[code][0] = 0
        ALLOWED[code][1] = 0
        for k in range(NSPLITS):
            ok = True
            for g in range(ng):
                if size[g] < 2 or size[g] >= 5 or (big >= 2 and g == lower_big):
                    continue
                nh = 0
                nm = 0
                same = True
                for i in range(start[g], start[g] + size[g]):
                    nh += SPLIT_PART[k][i] == 0
                    nm += SPLIT_PART[k][i] == 1
                    if SPLIT_PART[k][i] != SPLIT_PART[k][start[g]]:
                        same = False
                if size[g] == 4:
                    ok = ok and (nh == 4 or (nh == 2 and nm == 2))
                else:
                    ok = ok and same
            if ok:
                ALLOWED[code][k >> 6] |= (<uint64_t>1) << (k & 63)


build_allowed()


cdef int choose(const int* c, int a234_low, int kind, int first_hand, int second_hand,
                int third_hand,
                int32_t* hml) noexcept nogil:
    """The house way's split (an index into the splits of ``c``, which is sorted ascending);
    writes its (high, medium, low) strengths to ``hml``.  Ties: the first split in order."""
    cdef int32_t high35[35]
    cdef int32_t medium21[21]
    cdef int32_t low7[7]
    cdef int32_t s[3]
    cdef int k, code = 0, p, best_k = -1, rnd
    cdef uint64_t key, best = 0
    seven_parts(c, a234_low, high35, medium21, low7)
    if kind == 1:
        first_hand = 1
        second_hand = 2
        third_hand = 0
        for p in range(6):
            if rank_of(c[p]) != rank_of(c[p + 1]):
                code |= 1 << p
    for rnd in range(2):
        if rnd == 1 and (kind != 1 or best_k >= 0):
            break
        for k in range(NSPLITS):
            if kind == 1 and rnd == 0 and not (ALLOWED[code][k >> 6] >> (k & 63)) & 1:
                continue
            s[0] = high35[T.split_high[k]]
            s[1] = medium21[T.split_medium[k]]
            s[2] = low7[T.split_low[k]]
            if s[0] > s[1] and s[1] > s[2]:
                key = (((<uint64_t>s[first_hand]) << 40) | ((<uint64_t>s[second_hand]) << 20)
                       | (<uint64_t>s[third_hand]))
                if key > best:
                    best = key
                    best_k = k
    if best_k >= 0:
        hml[0] = high35[T.split_high[best_k]]
        hml[1] = medium21[T.split_medium[best_k]]
        hml[2] = low7[T.split_low[best_k]]
    return best_k


def choose_one(tuple ids, int a234_low, int kind, int first_hand, int second_hand, int third_hand):
    """(split index into the SORTED ids, (h, m, l)) for seven checked ids."""
    cdef int c[7]
    cdef int32_t hml[3]
    cdef int k
    for k in range(7):
        c[k] = ids[k]
    sort7(c)
    k = choose(c, a234_low, kind, first_hand, second_hand, third_hand, hml)
    return k, (hml[0], hml[1], hml[2])


def house_way_kernel(const card_t[:, ::1] hands, int a234_low, int kind, int first_hand,
                     int second_hand, int third_hand,
                     int32_t[:, ::1] out):
    """Fill ``out`` (n x 3) with the house way's (high, medium, low) strengths of n seven-card
    rows; returns the first bad row (nothing trusted in ``out``) or -1."""
    cdef Py_ssize_t i, bad
    cdef int c[7]
    cdef int32_t hml[3]
    if hands.shape[1] != 7 or out.shape[0] != hands.shape[0] or out.shape[1] != 3:
        raise ValueError("asiapoker: house_way_kernel needs n x 7 rows and n x 3 outputs")
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            for i in range(hands.shape[0]):
                load7(&hands[i, 0], c)
                sort7(c)
                choose(c, a234_low, kind, first_hand, second_hand, third_hand, hml)
                out[i, 0] = hml[0]
                out[i, 1] = hml[1]
                out[i, 2] = hml[2]
    return bad


cdef int house_way7(const int* seven, int a234_low, int way, int32_t* hml) noexcept nogil:
    cdef int c[7]
    cdef int k
    for k in range(7):
        c[k] = seven[k]
    sort7(c)
    if way < 0 or way > 2:
        return -1
    return choose(c, a234_low, WAY_CODES[way][0], WAY_CODES[way][1], WAY_CODES[way][2],
                  WAY_CODES[way][3], hml)
