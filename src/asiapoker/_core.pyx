# cython: language_level=3
"""The compiled core of asiapoker: strength tables and the hot loops.

Card ids: ``rank * 4 + suit`` for the 52 ordinary cards (rank 0..12 is 2..A, suit 0..3 is
c, d, h, s) and 52 for the joker.

Strengths share ONE integer scale for 4-, 2- and 1-card hands (rule 2.7/2.8)::

    strength = category << 16 | k1 << 12 | k2 << 8 | k3 << 4 | k4

``category`` is 0 (no pair) .. 9 (four aces); ``k1..k4`` are the defining ranks and then the
kickers, high to low, as rank + 1 (1..13), with 0 for "no card".  A straight or straight flush
stores its place in the straight order (1 = lowest) in ``k1``.  Comparing two strengths as
integers is comparing the hands, whatever their sizes; copies are equal integers.

Nothing here validates its input except the batch kernels, which check every id and every
duplicate before they index a table and report the first bad row to the Python layer.
"""

cimport cython
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint64_t

import numpy as np

cdef enum:
    NOPAIR = 0
    PAIR = 1
    TWOPAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    QUADS = 6
    SFLUSH = 7
    ROYAL = 8
    FOURACES = 9

# the names of the categories, by number (``strength >> 16``): the one definition, which
# asiapoker.CATEGORIES is
CATEGORIES = tuple(name for _, name in sorted({
    NOPAIR: "no pair", PAIR: "pair", TWOPAIR: "two pairs", TRIPS: "three of a kind",
    STRAIGHT: "straight", FLUSH: "flush", QUADS: "four of a kind", SFLUSH: "straight flush",
    ROYAL: "royal flush", FOURACES: "four aces"}.items()))

cdef enum:
    JOKER = 52
    NCARDS = 53
    N4 = 292825
    N2 = 1378
    NSPLITS = 105

ctypedef fused card_t:
    int8_t
    uint8_t
    int16_t
    int32_t
    int64_t

# ---------------------------------------------------------------------------------------------
# tables
# ---------------------------------------------------------------------------------------------

cdef int32_t BINOM[64][8]
cdef int32_t STRENGTH4[2][N4]          # [a234 low?][colex index of 4 sorted ids]
cdef int32_t STRENGTH2[N2]             # colex index of 2 sorted ids
cdef int32_t STRENGTH1[NCARDS]

# The 105 splits of seven positions: high = SUB4[SPLIT_Q[k]], medium = the pair with index
# SPLIT_M[k] (PAIR_POS), low = SPLIT_L[k].  k = 3 * q + j, q the 4-subset in lexicographic
# order, j which of the three remaining positions (ascending) is the low hand.
cdef int SUB4[35][4]
cdef int PAIR_POS[21][2]
cdef int PAIR_IDX[7][7]
cdef int SPLIT_Q[NSPLITS]
cdef int SPLIT_M[NSPLITS]
cdef int SPLIT_L[NSPLITS]


cdef inline int32_t enc(int cat, int k1, int k2, int k3, int k4) noexcept nogil:
    return (cat << 16) | (k1 << 12) | (k2 << 8) | (k3 << 4) | k4


cdef int32_t eval4_plain(int r0, int r1, int r2, int r3,
                         int s0, int s1, int s2, int s3, int a234_low) noexcept nogil:
    """Strength of four cards given ranks 0..12 and suits 0..3 (4 = a suitless ace)."""
    cdef int a[4]
    cdef int i, j, t, idx
    cdef bint flush = s0 == s1 and s1 == s2 and s2 == s3 and s0 < 4
    a[0] = r0; a[1] = r1; a[2] = r2; a[3] = r3
    for i in range(1, 4):           # insertion sort, descending
        t = a[i]
        j = i - 1
        while j >= 0 and a[j] < t:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = t
    if a[0] == a[3]:
        if a[0] == 12:
            return enc(FOURACES, 13, 0, 0, 0)
        return enc(QUADS, a[0] + 1, 0, 0, 0)
    if a[0] > a[1] and a[1] > a[2] and a[2] > a[3]:
        idx = 0
        if a[0] - a[3] == 3:
            if a[0] == 12:
                idx = 11
            elif a234_low:
                idx = a[0] - 1
            else:
                idx = a[0] - 2
        elif a[0] == 12 and a[1] == 2 and a[2] == 1 and a[3] == 0:
            idx = 1 if a234_low else 10
        if idx:
            if flush:
                if idx == 11:
                    return enc(ROYAL, 0, 0, 0, 0)
                return enc(SFLUSH, idx, 0, 0, 0)
            return enc(STRAIGHT, idx, 0, 0, 0)
        if flush:
            return enc(FLUSH, a[0] + 1, a[1] + 1, a[2] + 1, a[3] + 1)
        return enc(NOPAIR, a[0] + 1, a[1] + 1, a[2] + 1, a[3] + 1)
    if a[0] == a[2]:
        return enc(TRIPS, a[0] + 1, a[3] + 1, 0, 0)
    if a[1] == a[3]:
        return enc(TRIPS, a[1] + 1, a[0] + 1, 0, 0)
    if a[0] == a[1] and a[2] == a[3]:
        return enc(TWOPAIR, a[0] + 1, a[2] + 1, 0, 0)
    if a[0] == a[1]:
        return enc(PAIR, a[0] + 1, a[2] + 1, a[3] + 1, 0)
    if a[1] == a[2]:
        return enc(PAIR, a[1] + 1, a[0] + 1, a[3] + 1, 0)
    return enc(PAIR, a[2] + 1, a[0] + 1, a[1] + 1, 0)


cdef int32_t eval4_ids(int a, int b, int c, int d, int a234_low) noexcept nogil:
    """Strength of four distinct ids, sorted ascending (so only ``d`` can be the joker)."""
    cdef int x, cat
    cdef int32_t best, v
    if d != JOKER:
        return eval4_plain(a >> 2, b >> 2, c >> 2, d >> 2, a & 3, b & 3, c & 3, d & 3, a234_low)
    # rule 2.2: the joker is an ace, or any absent card that completes a straight or flush.
    best = eval4_plain(12, a >> 2, b >> 2, c >> 2, 4, a & 3, b & 3, c & 3, a234_low)
    for x in range(52):
        if x == a or x == b or x == c:
            continue
        v = eval4_plain(x >> 2, a >> 2, b >> 2, c >> 2, x & 3, a & 3, b & 3, c & 3, a234_low)
        cat = v >> 16
        if (cat == STRAIGHT or cat == FLUSH or cat == SFLUSH or cat == ROYAL) and v > best:
            best = v
    return best


cdef inline int rank_of(int card) noexcept nogil:
    return 12 if card == JOKER else card >> 2


cdef int32_t eval2_ids(int a, int b) noexcept nogil:
    cdef int ra = rank_of(a), rb = rank_of(b)
    if ra == rb:
        return enc(PAIR, ra + 1, 0, 0, 0)
    if ra < rb:
        ra, rb = rb, ra
    return enc(NOPAIR, ra + 1, rb + 1, 0, 0)


cdef void build_tables() noexcept nogil:
    cdef int n, k, a, b, c, d, i, j, q, x, a234_low
    cdef int rem[3]
    for n in range(64):
        for k in range(8):
            if k == 0:
                BINOM[n][k] = 1
            elif n == 0:
                BINOM[n][k] = 0
            else:
                BINOM[n][k] = BINOM[n - 1][k - 1] + BINOM[n - 1][k]
    for a234_low in range(2):
        i = 0
        for d in range(3, NCARDS):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        STRENGTH4[a234_low][i] = eval4_ids(a, b, c, d, a234_low)
                        i += 1
    i = 0
    for b in range(1, NCARDS):
        for a in range(b):
            STRENGTH2[i] = eval2_ids(a, b)
            i += 1
    for a in range(NCARDS):
        STRENGTH1[a] = enc(NOPAIR, rank_of(a) + 1, 0, 0, 0)
    # split structure
    q = 0
    for a in range(7):
        for b in range(a + 1, 7):
            for c in range(b + 1, 7):
                for d in range(c + 1, 7):
                    SUB4[q][0] = a; SUB4[q][1] = b; SUB4[q][2] = c; SUB4[q][3] = d
                    q += 1
    k = 0
    for a in range(7):
        for b in range(a + 1, 7):
            PAIR_POS[k][0] = a
            PAIR_POS[k][1] = b
            PAIR_IDX[a][b] = k
            PAIR_IDX[b][a] = k
            k += 1
    k = 0
    for q in range(35):
        i = 0
        for x in range(7):
            if x != SUB4[q][0] and x != SUB4[q][1] and x != SUB4[q][2] and x != SUB4[q][3]:
                rem[i] = x
                i += 1
        for j in range(3):
            SPLIT_Q[k] = q
            SPLIT_L[k] = rem[j]
            if j == 0:
                SPLIT_M[k] = PAIR_IDX[rem[1]][rem[2]]
            elif j == 1:
                SPLIT_M[k] = PAIR_IDX[rem[0]][rem[2]]
            else:
                SPLIT_M[k] = PAIR_IDX[rem[0]][rem[1]]
            k += 1


build_tables()

# ---------------------------------------------------------------------------------------------
# lookups (no validation: callers pass distinct ids in 0..52)
# ---------------------------------------------------------------------------------------------

cdef inline void sort2(int* x, int i, int j) noexcept nogil:
    cdef int t
    if x[i] > x[j]:
        t = x[i]; x[i] = x[j]; x[j] = t


cdef inline int32_t lookup4(int a, int b, int c, int d, int a234_low) noexcept nogil:
    cdef int x[4]
    x[0] = a; x[1] = b; x[2] = c; x[3] = d
    sort2(x, 0, 1); sort2(x, 2, 3); sort2(x, 0, 2); sort2(x, 1, 3); sort2(x, 1, 2)
    return STRENGTH4[a234_low][BINOM[x[0]][1] + BINOM[x[1]][2] + BINOM[x[2]][3] + BINOM[x[3]][4]]


cdef inline int32_t lookup2(int a, int b) noexcept nogil:
    if a > b:
        a, b = b, a
    return STRENGTH2[a + BINOM[b][2]]


cdef void seven_parts(const int* c, int a234_low, int32_t* high35, int32_t* medium21,
                      int32_t* low7) noexcept nogil:
    """Strengths of the 35 four-card, 21 two-card and 7 one-card parts of seven cards."""
    cdef int q, i
    for q in range(35):
        high35[q] = lookup4(c[SUB4[q][0]], c[SUB4[q][1]], c[SUB4[q][2]], c[SUB4[q][3]], a234_low)
    for i in range(21):
        medium21[i] = lookup2(c[PAIR_POS[i][0]], c[PAIR_POS[i][1]])
    for i in range(7):
        low7[i] = STRENGTH1[c[i]]


# ---------------------------------------------------------------------------------------------
# Python-facing functions
# ---------------------------------------------------------------------------------------------

def strength(tuple ids, int a234_low):
    """Strength of one 1-, 2- or 4-card hand (ids distinct, in 0..52; checked by the caller)."""
    cdef Py_ssize_t n = len(ids)
    if n == 4:
        return lookup4(ids[0], ids[1], ids[2], ids[3], a234_low)
    if n == 2:
        return lookup2(ids[0], ids[1])
    return STRENGTH1[<int>ids[0]]


def split_strengths(tuple ids, int a234_low):
    """(high, medium, low) strength lists of the 105 splits of seven checked ids."""
    cdef int c[7]
    cdef int32_t hi[NSPLITS]
    cdef int32_t me[NSPLITS]
    cdef int32_t lo[NSPLITS]
    cdef int k
    for k in range(7):
        c[k] = ids[k]
    split_strengths7(c, a234_low, hi, me, lo)
    return [hi[k] for k in range(NSPLITS)], [me[k] for k in range(NSPLITS)], \
        [lo[k] for k in range(NSPLITS)]


def split_positions():
    """The 105 splits as ((high positions), (medium positions), low position)."""
    return tuple(
        ((SUB4[SPLIT_Q[k]][0], SUB4[SPLIT_Q[k]][1], SUB4[SPLIT_Q[k]][2], SUB4[SPLIT_Q[k]][3]),
         (PAIR_POS[SPLIT_M[k]][0], PAIR_POS[SPLIT_M[k]][1]),
         SPLIT_L[k])
        for k in range(NSPLITS)
    )


cdef inline void load7(const card_t* row, int* c) noexcept nogil:
    """Copy a checked seven-card row into ``c``."""
    cdef int k
    for k in range(7):
        c[k] = row[k]


cdef inline Py_ssize_t check_rows(const card_t[:, ::1] hands) noexcept nogil:
    """Index of the first row with an id outside 0..52 or a repeated id; -1 when all are fine."""
    cdef Py_ssize_t i, j
    cdef uint64_t mask, bit
    cdef int64_t v
    for i in range(hands.shape[0]):
        mask = 0
        for j in range(hands.shape[1]):
            v = hands[i, j]
            if v < 0 or v > 52:
                return i
            bit = (<uint64_t>1) << v
            if mask & bit:
                return i
            mask |= bit
    return -1


def strengths_kernel(const card_t[:, ::1] hands, int a234_low, int32_t[::1] out):
    """Fill ``out`` with the strengths of n 1-, 2- or 4-card rows; returns the first bad row
    (nothing written) or -1."""
    cdef Py_ssize_t i, n = hands.shape[0], w = hands.shape[1]
    cdef Py_ssize_t bad
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            if w == 4:
                for i in range(n):
                    out[i] = lookup4(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], a234_low)
            elif w == 2:
                for i in range(n):
                    out[i] = lookup2(hands[i, 0], hands[i, 1])
            else:
                for i in range(n):
                    out[i] = STRENGTH1[hands[i, 0]]
    return bad


def legal_kernel(const card_t[:, ::1] hands, int a234_low, uint8_t[:, ::1] out):
    """Fill ``out`` (n x 105) with the legality of every split of n seven-card rows
    (rule 3.2: high > medium > low); returns the first bad row (nothing written) or -1."""
    cdef Py_ssize_t i, bad
    cdef int k
    cdef int c[7]
    cdef int32_t high35[35]
    cdef int32_t medium21[21]
    cdef int32_t low7[7]
    cdef int32_t m
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            for i in range(hands.shape[0]):
                load7(&hands[i, 0], c)
                seven_parts(c, a234_low, high35, medium21, low7)
                for k in range(NSPLITS):
                    m = medium21[SPLIT_M[k]]
                    out[i, k] = high35[SPLIT_Q[k]] > m and m > low7[SPLIT_L[k]]
    return bad


def split_strengths_kernel(const card_t[:, ::1] hands, int a234_low, int32_t[:, :, ::1] out):
    """Fill ``out`` (n x 105 x 3) with the (high, medium, low) strengths of every split of n
    seven-card rows; returns the first bad row (nothing written) or -1."""
    cdef Py_ssize_t i, bad
    cdef int k
    cdef int c[7]
    cdef int32_t hi[NSPLITS]
    cdef int32_t me[NSPLITS]
    cdef int32_t lo[NSPLITS]
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            for i in range(hands.shape[0]):
                load7(&hands[i, 0], c)
                split_strengths7(c, a234_low, hi, me, lo)
                for k in range(NSPLITS):
                    out[i, k, 0] = hi[k]
                    out[i, k, 1] = me[k]
                    out[i, k, 2] = lo[k]
    return bad


def chosen_kernel(const card_t[:, ::1] hands, const int64_t[::1] splits, int a234_low,
                  int32_t[:, ::1] out):
    """out[i] = the (high, medium, low) strengths of split ``splits[i]`` (SPLIT_POSITIONS
    order) of row i; returns the first bad row (a bad hand, or a split outside 0..104) or
    -1."""
    cdef Py_ssize_t i, bad
    cdef int k, q, m
    cdef int c[7]
    if splits.shape[0] != hands.shape[0] or out.shape[0] != hands.shape[0] or out.shape[1] != 3:
        raise ValueError("asiapoker: chosen_kernel needs one split and one output row a hand")
    with nogil:
        bad = check_rows(hands)
        for i in range(hands.shape[0] if bad < 0 else 0):
            if not 0 <= splits[i] < NSPLITS:
                bad = i
                break
        if bad < 0:
            for i in range(hands.shape[0]):
                load7(&hands[i, 0], c)
                k = splits[i]
                q = SPLIT_Q[k]
                m = SPLIT_M[k]
                out[i, 0] = lookup4(c[SUB4[q][0]], c[SUB4[q][1]], c[SUB4[q][2]], c[SUB4[q][3]],
                                    a234_low)
                out[i, 1] = lookup2(c[PAIR_POS[m][0]], c[PAIR_POS[m][1]])
                out[i, 2] = STRENGTH1[c[SPLIT_L[k]]]
    return bad


def match_split_kernel(const card_t[:, ::1] hands, int a234_low, const int32_t[:, ::1] tri,
                       int16_t[::1] out):
    """out[i] = the first split of row i (in SPLIT_POSITIONS order of the row) whose
    (high, medium, low) strengths are tri[i], or -1 when none is; returns the first bad row
    or -1."""
    cdef Py_ssize_t i, bad
    cdef int k
    cdef int c[7]
    cdef int32_t hi[NSPLITS]
    cdef int32_t me[NSPLITS]
    cdef int32_t lo[NSPLITS]
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            for i in range(hands.shape[0]):
                load7(&hands[i, 0], c)
                split_strengths7(c, a234_low, hi, me, lo)
                out[i] = -1
                for k in range(NSPLITS):
                    if hi[k] == tri[i, 0] and me[k] == tri[i, 1] and lo[k] == tri[i, 2]:
                        out[i] = k
                        break
    return bad


def table_view(int size, int a234_low):
    """A read-only numpy copy of one strength table (4: colex-indexed, 2, or 1)."""
    cdef int32_t[::1] view
    if size == 4:
        view = <int32_t[:N4]>&STRENGTH4[a234_low][0]
    elif size == 2:
        view = <int32_t[:N2]>&STRENGTH2[0]
    else:
        view = <int32_t[:NCARDS]>&STRENGTH1[0]
    arr = np.array(view, dtype=np.int32)
    arr.setflags(write=False)
    return arr


# ---------------------------------------------------------------------------------------------
# house ways (rule 5)
# ---------------------------------------------------------------------------------------------
# A way is (kind, first_hand, second_hand, third_hand): kind 0 = priority over those hands,
# indexes into (high, medium, low); kind 1 = "classic" (rule 5.4), medium-first over the
# allowed settings.
# Hands are first sorted by id, so rank groups are runs of positions (the joker, id 52, ends
# the aces' run); ALLOWED[run pattern] is the 105-bit set of splits rule 5.4 (a)-(d) allow.

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
            SPLIT_PART[k][PAIR_POS[SPLIT_M[k]][p]] = 1
        SPLIT_PART[k][SPLIT_L[k]] = 2
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


cdef inline void sort7(int* c) noexcept nogil:
    cdef int i, j, t
    for i in range(1, 7):
        t = c[i]
        j = i - 1
        while j >= 0 and c[j] > t:
            c[j + 1] = c[j]
            j -= 1
        c[j + 1] = t


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
            s[0] = high35[SPLIT_Q[k]]
            s[1] = medium21[SPLIT_M[k]]
            s[2] = low7[SPLIT_L[k]]
            if s[0] > s[1] and s[1] > s[2]:
                key = (((<uint64_t>s[first_hand]) << 40) | ((<uint64_t>s[second_hand]) << 20)
                       | (<uint64_t>s[third_hand]))
                if key > best:
                    best = key
                    best_k = k
    if best_k >= 0:
        hml[0] = high35[SPLIT_Q[best_k]]
        hml[1] = medium21[SPLIT_M[best_k]]
        hml[2] = low7[SPLIT_L[best_k]]
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


# ---------------------------------------------------------------------------------------------
# the exact solver
# ---------------------------------------------------------------------------------------------
# The dealer's (high, medium, low) strengths depend on its rank multiset alone unless a suit
# holds 4+ of its cards (3+ with the joker).  A DealerModel holds, for one house way and rule
# set, the triple of every rank class and the exact correction of every flush-capable class
# (suit s holds exactly the ranks F, the other cards have ranks O in the other suits); built by
# build_dealer_model below.  For a player hand the dealer's distribution over the triples is
# counted with binomials of the cards left, and the two-of-three counts come from one sweep over the
# triples in high-strength order with 2D prefix sums over (medium, low).

from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

cdef enum:
    NM = 91          # distinct medium strengths
    NL = 13          # distinct low strengths
    CELLS = 92 * 14  # (NM + 1) * (NL + 1)

cdef enum:
    GROWS = 1024     # rows of one rank multiset solved together (a longer run is split)
    GMAXT = 512      # distinct player triples in such a run (at most 2 * 105 occur)
    GMAXS = 128      # distinct suit sets (subsets of at most 7 ranks)
    GHASH = 1024     # open-addressing table of triple keys
    GWORK = (8 * (3 * CELLS + GMAXT + (GMAXS + 2) * GMAXT + GHASH)
             + 2 * (GROWS * 105 + GROWS * 4 + 8192 + GHASH + GHASH))


cdef void answer_on(Py_ssize_t n, const int32_t* th, const int16_t* cell, const int32_t* dist,
                    int nt, const int64_t* qkey, int64_t* out, int64_t* cell_sum,
                    int64_t* below_high, int64_t* all_high) noexcept nogil:
    """DealerModel.answer over ``n`` triples given by their high strengths (ascending) and
    (medium, low) cells."""
    cdef Py_ssize_t p = 0, last = -1
    cdef int j = 0, mi, li
    cdef int64_t h
    memset(cell_sum, 0, CELLS * sizeof(int64_t))
    while j < nt:
        h = qkey[j] >> 12
        while p < n and th[p] < h:
            cell_sum[cell[p]] += dist[p]
            p += 1
        if p != last:                  # below_high is still right when nothing was added
            prefix2d(cell_sum, below_high)
            last = p
        while j < nt and (qkey[j] >> 12) == h:
            mi = (qkey[j] >> 4) & 127
            li = qkey[j] & 15
            out[j] = (below_high[mi * (NL + 1) + NL] + below_high[NM * (NL + 1) + li]
                      - 2 * below_high[mi * (NL + 1) + li])
            j += 1
    while p < n:
        cell_sum[cell[p]] += dist[p]
        p += 1
    prefix2d(cell_sum, all_high)
    for j in range(nt):
        mi = (qkey[j] >> 4) & 127
        li = qkey[j] & 15
        out[j] += all_high[mi * (NL + 1) + li]


cdef int cards_left(const int* removed, int n_removed, int* avail, int* availmask,
                    int64_t* rank_ways, int64_t* offsuit_ways) noexcept nogil:
    """The counts the dealer's hands are made of, from the cards not in ``removed``:
    avail[r] cards of rank r left, availmask[s] the ranks left in suit s,
    rank_ways[r * 5 + k] = C(avail[r], k) and offsuit_ways[s * 52 + r * 4 + k] = C(cards of
    rank r left outside suit s, k) (entry 0 of each is 1: an unused pair).  Returns whether
    the joker is left (1) or removed (0)."""
    cdef int r, s, i, k, dealer_joker = 1
    for r in range(13):
        avail[r] = 4
    for s in range(4):
        availmask[s] = 0x1FFF
    for i in range(n_removed):
        if removed[i] == JOKER:
            dealer_joker = 0
        else:
            avail[removed[i] >> 2] -= 1
            availmask[removed[i] & 3] &= ~(1 << (removed[i] >> 2))
    for r in range(13):
        for k in range(5):
            rank_ways[r * 5 + k] = BINOM[avail[r]][k]
        for s in range(4):
            for k in range(4):
                offsuit_ways[s * 52 + r * 4 + k] = BINOM[avail[r] - ((availmask[s] >> r) & 1)][k]
    rank_ways[0] = 1
    for s in range(4):
        offsuit_ways[s * 52] = 1
    return dealer_joker


cdef inline void add_flushes(const uint8_t* sgo, const int32_t* sgt, Py_ssize_t n0,
                             Py_ssize_t n1, const int64_t* ways, int32_t* dist) noexcept nogil:
    """The single-flush corrections n0..n1-1 of one suit whose available ranks hold their
    flush set: each entry's count, the product of ``ways`` (the off-suit ways) over its
    (rank, count) bytes, added at its true triple and taken from its rank-only one."""
    cdef Py_ssize_t n
    cdef const uint8_t* o
    cdef int64_t cnt
    for n in range(n0, n1):
        o = sgo + 3 * n
        cnt = ways[o[0]] * ways[o[1]] * ways[o[2]]
        if cnt:
            dist[sgt[2 * n]] += <int32_t>cnt
            dist[sgt[2 * n + 1]] -= <int32_t>cnt


cdef class DealerModel:
    """Class tables of one house way and rule set (built by :func:`build_dealer_model`)."""
    cdef readonly int a234_low
    cdef readonly Py_ssize_t n_triples
    cdef int32_t[::1] tr_h
    cdef int16_t[::1] tr_cell        # (medium index + 1) * (NL + 1) + low index + 1
    cdef uint8_t[:, ::1] rk_pairs       # n x 7 (rank, count) as rank * 5 + count, 0 = none
    cdef uint8_t[::1] rk_joker
    cdef int32_t[::1] rk_tid
    cdef uint16_t[::1] sg_f
    cdef uint16_t[::1] sg_ranks         # the ranks an entry names (F and O): for ``holding``
    cdef int32_t[::1] sg_run            # where each run of entries with one F (and joker) starts
    cdef uint8_t[:, ::1] sg_o           # n x 3 (rank, count) as rank * 4 + count, 0 = none
    cdef uint8_t[::1] sg_joker
    cdef int32_t[:, ::1] sg_tid         # n x 2: (+true, -rank-only)
    cdef uint16_t[::1] db_f1
    cdef uint16_t[::1] db_f2
    cdef int32_t[:, ::1] db_tid         # n x 4: (+true, -single1, -single2, +rank-only)
    cdef int32_t[::1] mvals
    cdef int32_t[::1] lvals
    # the two-suit corrections over the triples they touch only (for solve_groups): those
    # triples' high strengths and cells, each entry's four positions among them, and where
    # each run of entries with one F1 starts (entries come F1-major)
    cdef int32_t[::1] du_h
    cdef int16_t[::1] du_cell
    cdef int32_t[:, ::1] db_pos
    cdef int32_t[::1] db_run

    def __init__(self, int a234_low, tr_h, tr_md, tr_ld, rk_pairs, rk_joker, rk_tid,
                 sg_f, sg_o, sg_joker, sg_tid, db_f1, db_f2, db_tid, mvals, lvals):
        self.a234_low = a234_low
        self.n_triples = len(tr_h)
        self.tr_h = tr_h
        self.tr_cell = ((np.asarray(tr_md, dtype=np.int16) + 1) * (NL + 1)
                        + np.asarray(tr_ld, dtype=np.int16) + 1).astype(np.int16)
        self.rk_pairs = rk_pairs
        self.rk_joker = rk_joker
        self.rk_tid = rk_tid
        self.sg_f = sg_f
        o = np.asarray(sg_o, dtype=np.uint16).reshape(-1, 3)
        self.sg_ranks = (np.asarray(sg_f, dtype=np.uint16) | np.bitwise_or.reduce(
            np.where(o != 0, np.left_shift(1, o >> 2), 0), axis=1)).astype(np.uint16)
        fj = np.asarray(sg_f, dtype=np.int64) * 2 + np.asarray(sg_joker, dtype=np.int64)
        starts = np.flatnonzero(np.r_[True, fj[1:] != fj[:len(fj) - 1]]) if len(fj) else []
        self.sg_run = np.r_[starts, len(fj)].astype(np.int32)
        self.sg_o = sg_o
        self.sg_joker = sg_joker
        self.sg_tid = sg_tid
        self.db_f1 = db_f1
        self.db_f2 = db_f2
        self.db_tid = db_tid
        self.mvals = mvals
        self.lvals = lvals
        tids = np.asarray(db_tid, dtype=np.int32).reshape(-1, 4)
        used = np.unique(tids)
        self.du_h = np.ascontiguousarray(np.asarray(tr_h, dtype=np.int32)[used])
        self.du_cell = np.ascontiguousarray(np.asarray(self.tr_cell)[used])
        self.db_pos = np.searchsorted(used, tids).astype(np.int32).reshape(-1, 4)
        f1 = np.asarray(db_f1)
        self.db_run = np.flatnonzero(np.r_[True, f1[1:] != f1[:len(f1) - 1], True]).astype(np.int32)

    @property
    def sizes(self):
        """(rank classes, single-flush corrections, double-flush corrections, triples)."""
        return (self.rk_tid.shape[0], self.sg_f.shape[0], self.db_f1.shape[0], self.n_triples)

    cdef void rank_part(self, const int64_t* rank_ways, int dealer_joker,
                        int32_t* dist) noexcept nogil:
        """Add the dealer hands counted by rank alone: for each rank class, the product of
        rank_ways[r * 5 + k] = C(cards of rank r left, k) over its (rank, count) pairs
        (classes with the joker only when ``dealer_joker``: the player does not hold it)."""
        cdef Py_ssize_t n, nr = self.rk_tid.shape[0]
        cdef const uint8_t* rk = &self.rk_pairs[0, 0]
        cdef const uint8_t* rkj = &self.rk_joker[0]
        cdef const int32_t* rkt = &self.rk_tid[0]
        cdef const uint8_t* o
        for n in range(nr):
            if rkj[n] and not dealer_joker:
                continue
            o = rk + 7 * n
            dist[rkt[n]] += <int32_t>(rank_ways[o[0]] * rank_ways[o[1]] * rank_ways[o[2]]
                                      * rank_ways[o[3]] * rank_ways[o[4]] * rank_ways[o[5]]
                                      * rank_ways[o[6]])

    cdef void distribution(self, const int* removed, int n_removed,
                           int32_t* dist) noexcept nogil:
        """dist[t] = number of dealer hands from the cards not in ``removed`` (the player's
        seven, and any dead cards: distinct ids) whose triple is t (every partial sum stays
        below 2 * C(46, 7), so int32 is exact)."""
        cdef int avail[13]
        cdef int availmask[4]
        cdef int64_t rank_ways[65]
        cdef int64_t offsuit_ways[4 * 52]
        cdef int s, s2, dealer_joker
        cdef Py_ssize_t n, n0, r, ns = self.sg_f.shape[0], nrun = self.sg_run.shape[0] - 1
        cdef const int32_t* run = &self.sg_run[0]
        cdef int f
        cdef const uint16_t* sgf = &self.sg_f[0]
        cdef const uint8_t* sgo = &self.sg_o[0, 0]
        cdef const uint8_t* sgj = &self.sg_joker[0]
        cdef const int32_t* sgt = &self.sg_tid[0, 0]
        dealer_joker = cards_left(removed, n_removed, avail, availmask, rank_ways, offsuit_ways)
        memset(dist, 0, self.n_triples * sizeof(int32_t))
        self.rank_part(rank_ways, dealer_joker, dist)
        for r in range(nrun):                  # runs of entries with one F: suits tested once
            n0 = run[r]
            if sgj[n0] and not dealer_joker:
                continue
            f = sgf[n0]
            for s in range(4):
                if f & ~availmask[s]:
                    continue
                add_flushes(sgo, sgt, n0, run[r + 1], offsuit_ways + 52 * s, dist)
        if dealer_joker:
            for s in range(4):
                for s2 in range(s + 1, 4):
                    for n in range(self.db_f1.shape[0]):
                        if (self.db_f1[n] & ~availmask[s]) or (self.db_f2[n] & ~availmask[s2]):
                            continue
                        dist[self.db_tid[n, 0]] += 1
                        dist[self.db_tid[n, 1]] -= 1
                        dist[self.db_tid[n, 2]] -= 1
                        dist[self.db_tid[n, 3]] += 1

    cdef void holding(self, const int* removed, int n_removed, int card,
                      int32_t* dist) noexcept nogil:
        """dist[t] = number of the dealer hands of ``distribution(removed)`` that hold
        ``card`` (not in ``removed``) and whose triple is t: that distribution minus the one
        with ``card`` removed too, in one pass.  Removing card (rank rc, suit sc) changes only
        the ways of rank rc (every rank class and off-suit product holding rank rc) and suit
        sc's available ranks (the flushes of suit sc through rank rc); the joker changes only
        whether the classes with the joker count, so holding it is their part alone."""
        cdef int avail[13]
        cdef int availmask[4]
        cdef int64_t rank_ways[65]
        cdef int64_t offsuit_ways[4 * 52]
        cdef int64_t rank_ways2[65]          # the same with ``card`` removed too
        cdef int64_t offsuit_ways2[4 * 52]
        cdef int s, s2, k, dealer_joker, rc = card >> 2, sc = card & 3, f, m2
        cdef Py_ssize_t n, n0, r, ns = self.sg_f.shape[0], nr = self.rk_tid.shape[0]
        cdef Py_ssize_t nrun = self.sg_run.shape[0] - 1
        cdef const int32_t* run = &self.sg_run[0]
        cdef int64_t cnt
        cdef bint joker = card == JOKER
        cdef const uint8_t* rk = &self.rk_pairs[0, 0]
        cdef const uint8_t* rkj = &self.rk_joker[0]
        cdef const int32_t* rkt = &self.rk_tid[0]
        cdef const uint16_t* sgf = &self.sg_f[0]
        cdef const uint16_t* sgr = &self.sg_ranks[0]
        cdef const uint8_t* sgo = &self.sg_o[0, 0]
        cdef const uint8_t* sgj = &self.sg_joker[0]
        cdef const int32_t* sgt = &self.sg_tid[0, 0]
        cdef const uint8_t* o
        cdef const int64_t* ow
        cdef const int64_t* ow2
        dealer_joker = cards_left(removed, n_removed, avail, availmask, rank_ways, offsuit_ways)
        memset(dist, 0, self.n_triples * sizeof(int32_t))
        if joker:
            # the hands with the joker: distribution()'s classes with the joker alone (its
            # loops are not shared: testing for this case in them costs a plain solve 1-6%
            # more instructions, measured)
            for n in range(nr):
                if rkj[n]:
                    o = rk + 7 * n
                    dist[rkt[n]] += <int32_t>(rank_ways[o[0]] * rank_ways[o[1]] * rank_ways[o[2]]
                                              * rank_ways[o[3]] * rank_ways[o[4]]
                                              * rank_ways[o[5]] * rank_ways[o[6]])
            for n in range(ns):
                if not sgj[n]:
                    continue
                f = sgf[n]
                o = sgo + 3 * n
                for s in range(4):
                    if f & ~availmask[s]:
                        continue
                    ow = offsuit_ways + 52 * s
                    cnt = ow[o[0]] * ow[o[1]] * ow[o[2]]
                    dist[sgt[2 * n]] += <int32_t>cnt
                    dist[sgt[2 * n + 1]] -= <int32_t>cnt
        else:
            for k in range(65):
                rank_ways2[k] = rank_ways[k]
            for k in range(4 * 52):
                offsuit_ways2[k] = offsuit_ways[k]
            for k in range(1, 5):
                rank_ways2[rc * 5 + k] = BINOM[avail[rc] - 1][k]
            for s in range(4):
                for k in range(1, 4):
                    offsuit_ways2[52 * s + rc * 4 + k] = BINOM[
                        avail[rc] - 1 - ((availmask[s] >> rc) & 1)][k]
            for n in range(nr):
                if rkj[n] and not dealer_joker:
                    continue
                o = rk + 7 * n
                dist[rkt[n]] += <int32_t>(
                    rank_ways[o[0]] * rank_ways[o[1]] * rank_ways[o[2]] * rank_ways[o[3]]
                    * rank_ways[o[4]] * rank_ways[o[5]] * rank_ways[o[6]]
                    - rank_ways2[o[0]] * rank_ways2[o[1]] * rank_ways2[o[2]] * rank_ways2[o[3]]
                    * rank_ways2[o[4]] * rank_ways2[o[5]] * rank_ways2[o[6]])
            for r in range(nrun):              # runs of entries with one F
                n0 = run[r]
                if sgj[n0] and not dealer_joker:
                    continue
                f = sgf[n0]
                for s in range(4):
                    # suit sc counts differently only when the flush holds the card
                    if (f & ~availmask[s]) or (s == sc and not (f >> rc) & 1):
                        continue
                    ow = offsuit_ways + 52 * s
                    ow2 = offsuit_ways2 + 52 * s
                    for n in range(n0, run[r + 1]):
                        # an entry that names no card of rank rc counts alike with the card
                        # or without it: nothing to add
                        if not (sgr[n] >> rc) & 1:
                            continue
                        o = sgo + 3 * n
                        if s == sc:
                            cnt = ow[o[0]] * ow[o[1]] * ow[o[2]]
                        else:
                            cnt = (ow[o[0]] * ow[o[1]] * ow[o[2]]
                                   - ow2[o[0]] * ow2[o[1]] * ow2[o[2]])
                        if cnt:
                            dist[sgt[2 * n]] += <int32_t>cnt
                            dist[sgt[2 * n + 1]] -= <int32_t>cnt
        if dealer_joker:
            m2 = availmask[sc] & ~(1 << rc) if not joker else 0
            for s in range(4):
                for s2 in range(s + 1, 4):
                    if not joker and s != sc and s2 != sc:
                        continue
                    for n in range(self.db_f1.shape[0]):
                        if (self.db_f1[n] & ~availmask[s]) or (self.db_f2[n] & ~availmask[s2]):
                            continue
                        if not joker and not ((self.db_f1[n] & ~m2) if s == sc
                                              else (self.db_f2[n] & ~m2)):
                            continue               # the hand stays without the card
                        dist[self.db_tid[n, 0]] += 1
                        dist[self.db_tid[n, 1]] -= 1
                        dist[self.db_tid[n, 2]] -= 1
                        dist[self.db_tid[n, 3]] += 1

    cdef void wins(self, const int* player, const int32_t* dist, int64_t* out,
                   int64_t* scratch, int side) noexcept nogil:
        """side 0: out[k] = opposing hands that split k of ``player`` beats strictly on two
        hands of three (the player's count).  side 1: opposing hands that beat split k on at
        most one hand, copies going to split k (the dealer's count: the hands it does not
        lose to).  0 for a foul.  ``scratch`` holds 36 * CELLS int64."""
        cdef int32_t high35[35]
        cdef int32_t medium21[21]
        cdef int32_t low7[7]
        cdef int order[35]
        cdef int64_t cell_sum[CELLS]
        cdef int64_t* below_high
        cdef int64_t* all_high = scratch + 35 * CELLS
        cdef int i, j, q, t, k, mi, li, qi
        cdef int32_t h, m, l
        cdef Py_ssize_t p = 0, n = self.n_triples
        cdef const int32_t* th = &self.tr_h[0]
        cdef const int16_t* cell = &self.tr_cell[0]
        seven_parts(player, self.a234_low, high35, medium21, low7)
        # "opponent <= x" is "opponent < x + 1" on the integer scale: side 1 shifts every
        # comparison by one and leaves the legality test on the true strengths
        for q in range(35):                    # the 35 high hands, weakest first
            order[q] = q
        for i in range(1, 35):
            t = order[i]
            j = i - 1
            while j >= 0 and high35[order[j]] > high35[t]:
                order[j + 1] = order[j]
                j -= 1
            order[j + 1] = t
        # one sweep in high-strength order: the (medium, low) prefix sums of the dealer hands
        # below each of the 35 high hands (below_high), then of all of them (all_high)
        memset(cell_sum, 0, sizeof(cell_sum))
        for qi in range(35):
            h = high35[order[qi]] + side
            while p < n and th[p] < h:
                cell_sum[cell[p]] += dist[p]
                p += 1
            prefix2d(cell_sum, scratch + qi * CELLS)
        while p < n:
            cell_sum[cell[p]] += dist[p]
            p += 1
        prefix2d(cell_sum, all_high)
        for qi in range(35):
            q = order[qi]
            h = high35[q]
            below_high = scratch + qi * CELLS
            for k in range(3 * q, 3 * q + 3):
                m = medium21[SPLIT_M[k]]
                l = low7[SPLIT_L[k]]
                if not (h > m and m > l):
                    out[k] = 0
                    continue
                mi = 0
                while mi < NM and self.mvals[mi] < m + side:
                    mi += 1
                li = 0
                while li < NL and self.lvals[li] < l + side:
                    li += 1
                # prefix[x][y] = dealer hands with medium index < x and low index < y
                out[k] = (below_high[mi * (NL + 1) + NL] + below_high[NM * (NL + 1) + li]
                          + all_high[mi * (NL + 1) + li] - 2 * below_high[mi * (NL + 1) + li])

    cdef int64_t count_row(self, const int* hand, const int32_t* dist, int64_t* out,
                           int64_t* scratch, int side) noexcept nogil:
        """One row of ``solve_rows`` / ``solve_known`` from its distribution: the counts of
        all 105 splits of ``hand`` (``wins``) into ``out``; returns the number of hands."""
        cdef Py_ssize_t t
        cdef int64_t total = 0
        for t in range(self.n_triples):
            total += dist[t]
        self.wins(hand, dist, out, scratch, side != 0)
        return total

    def solve_rows(self, const card_t[:, ::1] hands, int64_t[:, ::1] out, int64_t[::1] totals,
                   int side=0):
        """Counts of all 105 splits for each row (see ``wins`` for ``side``), and each row's
        total of opposing hands; releases the GIL.  Returns the first bad row or -1."""
        cdef Py_ssize_t i, bad
        cdef int c[7]
        cdef int32_t* dist
        cdef int64_t* scratch
        with nogil:
            bad = check_rows(hands)
            if bad < 0:
                dist = <int32_t*>calloc(self.n_triples, sizeof(int32_t))
                scratch = <int64_t*>calloc(36 * CELLS, sizeof(int64_t))
                if dist == NULL or scratch == NULL:
                    free(dist)
                    free(scratch)
                    bad = -2
            if bad == -1:
                for i in range(hands.shape[0]):
                    load7(&hands[i, 0], c)
                    self.distribution(c, 7, dist)
                    totals[i] = self.count_row(c, dist, &out[i, 0], scratch, side)
                free(dist)
                free(scratch)
        if bad == -2:
            raise MemoryError("asiapoker: no memory for the dealer distribution")
        return bad

    cdef void known_distribution(self, const int* removed, int n_removed, const int* shown,
                                 int n_shown, int32_t* dist, int64_t* acc) noexcept nogil:
        """``distribution`` of the dealer hands that hold every card of ``shown`` (cards known
        to be the dealer's, not in ``removed``), by inclusion and exclusion: the sum over the
        subsets S of ``shown`` of (-1)^|S| times the hands that avoid ``removed`` and S.  The
        sum is kept in ``acc`` (n_triples int64: a partial sum can pass int32) and the result,
        at most C(46, 7) a triple, written to ``dist``."""
        cdef int cards[NCARDS + 1]
        cdef int i, j, n, bits, last = n_shown - 1
        cdef Py_ssize_t t, nt = self.n_triples
        if n_shown == 0:
            self.distribution(removed, n_removed, dist)
            return
        if n_shown == 1:
            self.holding(removed, n_removed, shown[0], dist)
            return
        memset(acc, 0, nt * sizeof(int64_t))
        for i in range(n_removed):
            cards[i] = removed[i]
        for bits in range(1 << last):          # the last shown card: held by ``holding``
            n = n_removed
            for j in range(last):
                if (bits >> j) & 1:
                    cards[n] = shown[j]
                    n += 1
            self.holding(cards, n, shown[last], dist)
            if (n - n_removed) & 1:
                for t in range(nt):
                    acc[t] -= dist[t]
            else:
                for t in range(nt):
                    acc[t] += dist[t]
        for t in range(nt):
            dist[t] = <int32_t>acc[t]

    def solve_known(self, const card_t[:, ::1] hands, const int8_t[:, ::1] dead,
                    const int8_t[:, ::1] shown, int64_t[:, ::1] out, int64_t[::1] totals,
                    int side=0):
        """``solve_rows`` with known cards: for row i, ``dead[i]`` holds cards known NOT to be
        in the dealer's hand and ``shown[i]`` cards known to be in it, each padded with -1 (a
        checked row: ids distinct from the hand's and from each other, at most 7 shown, at
        least 7 cards left for the dealer).  Returns the first bad row or -1."""
        cdef Py_ssize_t i, bad
        cdef Py_ssize_t nd = dead.shape[1], nk = shown.shape[1]
        cdef int removed[NCARDS + 1]
        cdef int known[8]
        cdef int j, n_removed, n_shown
        cdef int64_t v
        cdef uint64_t mask, bit
        cdef int32_t* dist
        cdef int64_t* acc
        cdef int64_t* scratch
        if dead.shape[0] != hands.shape[0] or shown.shape[0] != hands.shape[0] or nk > 8:
            raise ValueError("asiapoker: dead and shown need one row per hand")
        with nogil:
            bad = check_rows(hands)
            for i in range(hands.shape[0] if bad < 0 else 0):  # the known cards, row by row
                mask = 0
                for j in range(7):
                    mask |= (<uint64_t>1) << hands[i, j]
                n_removed = 7
                n_shown = 0
                for j in range(nd + nk):
                    v = dead[i, j] if j < nd else shown[i, j - nd]
                    if v == -1:
                        continue
                    bit = (<uint64_t>1) << v if 0 <= v <= 52 else 0
                    if bit == 0 or mask & bit:
                        bad = i
                        break
                    mask |= bit
                    if j < nd:
                        n_removed += 1
                    else:
                        n_shown += 1
                if bad < 0 and (n_shown > 7 or NCARDS - n_removed < 7):
                    bad = i
                if bad >= 0:
                    break
            if bad < 0:
                dist = <int32_t*>calloc(self.n_triples, sizeof(int32_t))
                acc = <int64_t*>calloc(self.n_triples, sizeof(int64_t))
                scratch = <int64_t*>calloc(36 * CELLS, sizeof(int64_t))
                if dist == NULL or acc == NULL or scratch == NULL:
                    bad = -2
                else:
                    for i in range(hands.shape[0]):
                        load7(&hands[i, 0], removed)
                        n_removed = 7
                        n_shown = 0
                        for j in range(nd):
                            if dead[i, j] >= 0:
                                removed[n_removed] = dead[i, j]
                                n_removed += 1
                        for j in range(nk):
                            if shown[i, j] >= 0:
                                known[n_shown] = shown[i, j]
                                n_shown += 1
                        self.known_distribution(removed, n_removed, known, n_shown, dist, acc)
                        totals[i] = self.count_row(removed, dist, &out[i, 0], scratch, side)
                free(dist)
                free(acc)
                free(scratch)
        if bad == -2:
            raise MemoryError("asiapoker: no memory for the dealer distribution")
        return bad

    def dealer_distribution(self, tuple ids, tuple dead=(), tuple shown=()):
        """The dealer's count of every triple (indexed like the model's triples) against seven
        checked ids, with checked known cards (``dead``: not the dealer's; ``shown``: the
        dealer's), as int64; for tests and analysis."""
        cdef int c[NCARDS + 1]
        cdef int known[8]
        cdef int k
        every = ids + dead + shown
        if (len(ids) != 7 or len(shown) > 7 or len(every) != len(set(every))
                or NCARDS - 7 - len(dead) < 7 or not all(0 <= x < NCARDS for x in every)):
            raise ValueError("asiapoker: dealer_distribution takes distinct checked ids")
        for k in range(7):
            c[k] = ids[k]
        for k in range(len(dead)):
            c[7 + k] = dead[k]
        for k in range(len(shown)):
            known[k] = shown[k]
        counts = np.zeros(self.n_triples, dtype=np.int32)
        acc = np.zeros(self.n_triples, dtype=np.int64)
        cdef int32_t[::1] cv = counts
        cdef int64_t[::1] av = acc
        self.known_distribution(c, 7 + len(dead), known, len(shown), &cv[0], &av[0])
        return counts.astype(np.int64)

    cdef void answer(self, const int32_t* dist, int nt, const int64_t* qkey, int64_t* out,
                     int64_t* cell_sum, int64_t* below_high, int64_t* all_high) noexcept nogil:
        """out[j] = dealer hands of ``dist`` that the player triple ``qkey[j]`` beats on two
        hands of three; ``qkey`` is sorted, each key is high << 12 | medium index << 4 | low
        index (the indices of the first medium / low strength not below the player's)."""
        answer_on(self.n_triples, &self.tr_h[0], &self.tr_cell[0], dist, nt, qkey, out, cell_sum,
                  below_high, all_high)

    cdef int solve_group(self, const int* rows, int g, int64_t* out, int32_t* dist,
                         int64_t* work) noexcept nogil:
        """The player's counts (``wins`` side 0) for ``g`` seven-card rows with one rank
        multiset, sharing the dealer's rank-only counts and each suit's flush corrections
        across the rows.  Returns 0, or -1 when the rows need more distinct triples or suit
        sets than the work space holds (the caller then solves them one by one)."""
        cdef int64_t* cell_sum = work
        cdef int64_t* below_high = cell_sum + CELLS
        cdef int64_t* all_high = below_high + CELLS
        cdef int64_t* qkey = all_high + CELLS                 # GMAXT sorted distinct triples
        cdef int64_t* L = qkey + GMAXT                  # (1 + GMAXS + 1) x GMAXT answers
        cdef int16_t* tix = <int16_t*>(L + (GMAXS + 2) * GMAXT)   # g x 105 triple index
        cdef int16_t* six = tix + GROWS * NSPLITS       # g x 4 suit-set index
        cdef int16_t* smap = six + GROWS * 4            # 8192: suit set -> index
        cdef int64_t* hkey = <int64_t*>(smap + 8192)    # hash of triple keys
        cdef int16_t* hval = <int16_t*>(hkey + GHASH)
        cdef int16_t* rank_of_prov = hval + GHASH
        cdef int sets[GMAXS]
        cdef int avail[13]
        cdef int avail_in[13]
        cdef int64_t rank_ways[65]
        cdef int64_t offsuit_ways[52]
        cdef int32_t high35[35]
        cdef int32_t medium21[21]
        cdef int32_t low7[7]
        cdef int i, k, r, s, s2, t, mi, li, nt = 0, ns = 0, dealer_joker = 1, f, smask, slot, amask
        cdef int amask2
        cdef int32_t m, l
        cdef int64_t key, cnt, acc
        cdef Py_ssize_t n, nsg = self.sg_f.shape[0]
        cdef Py_ssize_t ndb = self.db_f1.shape[0]
        cdef const int* c
        cdef const uint8_t* o
        cdef const uint16_t* sgf = &self.sg_f[0]
        cdef const uint8_t* sgo = &self.sg_o[0, 0]
        cdef const uint8_t* sgj = &self.sg_joker[0]
        cdef const int32_t* sgt = &self.sg_tid[0, 0]
        cdef int64_t* Lrow
        cdef Py_ssize_t nu = self.du_h.shape[0], nrun = self.db_run.shape[0] - 1
        cdef Py_ssize_t n0, nsrun = self.sg_run.shape[0] - 1
        cdef const int32_t* srun = &self.sg_run[0]
        cdef const int32_t* run = &self.db_run[0]
        cdef const uint16_t* dbf1 = &self.db_f1[0] if ndb else NULL
        cdef const uint16_t* dbf2 = &self.db_f2[0] if ndb else NULL
        cdef const int32_t* dpos = &self.db_pos[0, 0] if ndb else NULL
        # the rows: their distinct (high, medium, low) triples and suit sets
        memset(hval, 0xFF, GHASH * sizeof(int16_t))      # -1: empty
        memset(smap, 0xFF, 8192 * sizeof(int16_t))
        for i in range(g):
            c = rows + 7 * i
            seven_parts(c, self.a234_low, high35, medium21, low7)
            for k in range(NSPLITS):
                m = medium21[SPLIT_M[k]]
                l = low7[SPLIT_L[k]]
                if not (high35[SPLIT_Q[k]] > m and m > l):
                    tix[i * NSPLITS + k] = -1
                    continue
                mi = 0
                while mi < NM and self.mvals[mi] < m:
                    mi += 1
                li = 0
                while li < NL and self.lvals[li] < l:
                    li += 1
                key = (<int64_t>high35[SPLIT_Q[k]] << 12) | (mi << 4) | li
                slot = <int>((<uint64_t>key * 0x9E3779B97F4A7C15ULL) >> 54)   # GHASH = 1024
                while hval[slot] >= 0 and hkey[slot] != key:
                    slot = (slot + 1) & (GHASH - 1)
                if hval[slot] < 0:
                    if nt == GMAXT:
                        return -1
                    hkey[slot] = key
                    hval[slot] = nt
                    qkey[nt] = key
                    nt += 1
                tix[i * NSPLITS + k] = hval[slot]
            for s in range(4):
                smask = 0
                for k in range(7):
                    if c[k] != JOKER and (c[k] & 3) == s:
                        smask |= 1 << (c[k] >> 2)
                if smap[smask] < 0:
                    if ns == GMAXS:
                        return -1
                    smap[smask] = ns
                    sets[ns] = smask
                    ns += 1
                six[i * 4 + s] = smap[smask]
        # sort the distinct triples (insertion sort: at most GMAXT) and renumber the rows'
        for t in range(nt):
            rank_of_prov[t] = t
        for t in range(1, nt):
            key = qkey[t]
            k = rank_of_prov[t]
            i = t - 1
            while i >= 0 and qkey[i] > key:
                qkey[i + 1] = qkey[i]
                rank_of_prov[i + 1] = rank_of_prov[i]
                i -= 1
            qkey[i + 1] = key
            rank_of_prov[i + 1] = k
        for t in range(nt):                       # rank_of_prov: sorted -> provisional; invert
            hval[rank_of_prov[t]] = t
        for i in range(g * NSPLITS):
            if tix[i] >= 0:
                tix[i] = hval[tix[i]]
        # the rank multiset's counts, shared by every row
        c = rows
        for r in range(13):
            avail[r] = 4
        for k in range(7):
            if c[k] == JOKER:
                dealer_joker = 0
            else:
                avail[c[k] >> 2] -= 1
        for r in range(13):
            for k in range(5):
                rank_ways[r * 5 + k] = BINOM[avail[r]][k]
        rank_ways[0] = 1
        memset(dist, 0, self.n_triples * sizeof(int32_t))
        self.rank_part(rank_ways, dealer_joker, dist)
        self.answer(dist, nt, qkey, L, cell_sum, below_high, all_high)
        # one suit's flush corrections for each distinct suit set
        for s in range(ns):
            amask = 0x1FFF & ~sets[s]
            for r in range(13):
                avail_in[r] = (amask >> r) & 1
                for k in range(4):
                    offsuit_ways[r * 4 + k] = BINOM[avail[r] - avail_in[r]][k]
            offsuit_ways[0] = 1
            memset(dist, 0, self.n_triples * sizeof(int32_t))
            for r in range(nsrun):             # runs of entries with one F: tested once
                n0 = srun[r]
                if (sgj[n0] and not dealer_joker) or (sgf[n0] & ~amask):
                    continue
                add_flushes(sgo, sgt, n0, srun[r + 1], offsuit_ways, dist)
            self.answer(dist, nt, qkey, L + (1 + s) * GMAXT, cell_sum, below_high, all_high)
        # each row: the sum of its parts, and its own two-suit corrections (joker with the dealer)
        Lrow = L + (GMAXS + 1) * GMAXT
        for i in range(g):
            for t in range(nt):
                Lrow[t] = 0
            if dealer_joker and ndb:
                memset(dist, 0, nu * sizeof(int32_t))
                for s in range(4):
                    smask = sets[six[i * 4 + s]]
                    for s2 in range(s + 1, 4):
                        amask2 = sets[six[i * 4 + s2]]
                        for r in range(nrun):          # runs of entries with one F1
                            n = run[r]
                            if dbf1[n] & smask:
                                continue
                            for n in range(run[r], run[r + 1]):
                                if dbf2[n] & amask2:
                                    continue
                                dist[dpos[4 * n]] += 1
                                dist[dpos[4 * n + 1]] -= 1
                                dist[dpos[4 * n + 2]] -= 1
                                dist[dpos[4 * n + 3]] += 1
                answer_on(nu, &self.du_h[0], &self.du_cell[0], dist, nt, qkey, Lrow, cell_sum,
                          below_high, all_high)
            for k in range(NSPLITS):
                t = tix[i * NSPLITS + k]
                if t < 0:
                    out[i * NSPLITS + k] = 0
                    continue
                acc = L[t] + Lrow[t]
                for s in range(4):
                    acc += L[(1 + six[i * 4 + s]) * GMAXT + t]
                out[i * NSPLITS + k] = acc
        return 0

    def solve_groups(self, const card_t[:, ::1] hands, int64_t[:, ::1] out):
        """The same counts as ``solve_rows`` (side 0), faster when consecutive rows share their
        rank multiset (as ``player_classes`` orders them): the dealer's rank-only counts and
        each suit's flush corrections are computed once for such a run of rows.  Releases the
        GIL.  Returns the first bad row or -1."""
        cdef Py_ssize_t i, j, a, bad, nrows = hands.shape[0]
        cdef int k, g
        cdef int* rows
        cdef int32_t* dist
        cdef int64_t* work
        cdef int64_t* scratch
        cdef int64_t sig, sig0
        with nogil:
            bad = check_rows(hands)
            if bad < 0:
                rows = <int*>malloc(GROWS * 7 * sizeof(int))
                dist = <int32_t*>calloc(self.n_triples, sizeof(int32_t))
                work = <int64_t*>malloc(GWORK)
                scratch = <int64_t*>calloc(36 * CELLS, sizeof(int64_t))
                if rows == NULL or dist == NULL or work == NULL or scratch == NULL:
                    bad = -2
                else:
                    a = 0
                    while a < nrows:
                        g = 0
                        sig0 = 0
                        while a + g < nrows and g < GROWS:
                            sig = 0
                            for k in range(7):
                                if hands[a + g, k] == JOKER:
                                    sig += (<int64_t>1) << 60
                                else:
                                    sig += (<int64_t>1) << (4 * (hands[a + g, k] >> 2))
                            if g == 0:
                                sig0 = sig
                            elif sig != sig0:
                                break
                            load7(&hands[a + g, 0], rows + 7 * g)
                            g += 1
                        if self.solve_group(rows, g, &out[a, 0], dist, work) < 0:
                            for j in range(g):
                                self.distribution(rows + 7 * j, 7, dist)
                                self.wins(rows + 7 * j, dist, &out[a + j, 0], scratch, 0)
                        a += g
                free(rows)
                free(dist)
                free(work)
                free(scratch)
        if bad == -2:
            raise MemoryError("asiapoker: no memory for the dealer distribution")
        return bad


# the layout of a DealerModel's tables, built from a house way

def _mask(ranks):
    return np.bitwise_or.reduce(1 << ranks, axis=1).astype(np.uint16)


def _packed_counts(o, width, base):
    """Each row's (rank, count) pairs as ``rank * base + count`` bytes, ``width`` of them,
    0 where unused (the core multiplies table entries: entry 0 is 1)."""
    from asiapoker._classes import rank_counts
    cnt = rank_counts(o)
    rows, ranks = np.nonzero(cnt)
    pos = np.arange(len(rows)) - np.searchsorted(rows, rows)
    packed = np.zeros((len(o), width), dtype=np.uint8)
    packed[rows, pos] = ranks * base + cnt[rows, ranks]
    return packed


@cython.wraparound(True)
@cython.boundscheck(True)
def build_dealer_model(triples, int a234_low):
    """The DealerModel of a house way given as ``triples`` (n x 7 sorted card ids -> n x 3
    strengths)."""
    return DealerModel(a234_low, **dealer_model_arrays(triples, a234_low))


#: The arrays DealerModel is made of, in the order its constructor takes them.
MODEL_ARRAYS = ("tr_h", "tr_md", "tr_ld", "rk_pairs", "rk_joker", "rk_tid", "sg_f", "sg_o",
                "sg_joker", "sg_tid", "db_f1", "db_f2", "db_tid", "mvals", "lvals")


@cython.wraparound(True)
@cython.boundscheck(True)
def dealer_model_arrays(triples, int a234_low):
    """The arrays of the DealerModel of ``triples`` (named as :data:`MODEL_ARRAYS`): the one
    place that lays out the tables DealerModel reads."""
    from asiapoker._classes import (
        flush_classes, flush_rep, multisets, rank_rep, subsets, with_joker)
    reps = []     # every triple we will refer to, in blocks
    # rank classes: no suit can make a flush (4+ suited, or 3+ with the joker)
    rk_rows, rk_joker = [], []
    for joker in (False, True):
        ms = multisets(6 if joker else 7, 4)
        rk_rows.append(ms)
        rk_joker.append(np.full(len(ms), joker))
        reps.append(triples(rank_rep(ms, joker)))
    rk_pairs = np.concatenate([_packed_counts(ms, 7, 5) for ms in rk_rows])
    # single flush suits: suit 0 holds exactly F, the rest O lie in suits 1-3
    sg_f, sg_o, sg_joker = [], [], []
    for joker in (False, True):
        for f, o in flush_classes(joker, 3 if joker else 4):
            reps.append(triples(flush_rep(f, o, joker)))
            reps.append(triples(rank_rep(np.hstack([f, o]), joker)))
            sg_f.append(_mask(f))
            sg_o.append(_packed_counts(o, 3, 4))
            sg_joker.append(np.full(len(f), joker))
    # two flush suits (3 + 3 + joker): suit 0 holds F1, suit 1 holds F2
    f3 = subsets(3)
    i1, i2 = np.divmod(np.arange(len(f3) ** 2), len(f3))
    f1, f2 = f3[i1], f3[i2]
    reps.append(triples(with_joker(np.hstack([f1 * 4, f2 * 4 + 1]), True)))
    reps.append(triples(flush_rep(f1, f2, True)))
    reps.append(triples(flush_rep(f2, f1, True)))
    reps.append(triples(rank_rep(np.hstack([f1, f2]), True)))

    every = np.concatenate(reps).astype(np.int64)
    keys = (every[:, 0] << 40) | (every[:, 1] << 20) | every[:, 2]
    uniq, tid = np.unique(keys, return_inverse=True)
    tid = tid.astype(np.int32)
    sizes = [len(b) for b in reps]
    blocks = np.split(tid, np.cumsum(sizes)[:-1])
    rk_tid = np.concatenate(blocks[0:2])
    sg_blocks = blocks[2:-4]
    sg_true = np.concatenate(sg_blocks[0::2])
    sg_rank = np.concatenate(sg_blocks[1::2])
    keep = sg_true != sg_rank
    db = np.stack(blocks[-4:], axis=1)
    db_keep = ~(((db[:, 0] == db[:, 1]) & (db[:, 2] == db[:, 3]))
                | ((db[:, 0] == db[:, 2]) & (db[:, 1] == db[:, 3])))
    mvals = np.unique(table_view(2, a234_low))
    lvals = np.unique(table_view(1, a234_low))
    th, tm, tl = uniq >> 40, (uniq >> 20) & 0xFFFFF, uniq & 0xFFFFF
    return dict(zip(MODEL_ARRAYS, (
        th.astype(np.int32), np.searchsorted(mvals, tm).astype(np.int16),
        np.searchsorted(lvals, tl).astype(np.int8),
        np.ascontiguousarray(rk_pairs), np.concatenate(rk_joker).astype(np.uint8), rk_tid,
        np.concatenate(sg_f)[keep], np.ascontiguousarray(np.concatenate(sg_o)[keep]),
        np.concatenate(sg_joker).astype(np.uint8)[keep],
        np.ascontiguousarray(np.stack([sg_true, sg_rank], 1)[keep]),
        _mask(f1)[db_keep], _mask(f2)[db_keep], np.ascontiguousarray(db[db_keep]),
        mvals.astype(np.int32), lvals.astype(np.int32))))


cdef inline void prefix2d(const int64_t* a, int64_t* p) noexcept nogil:
    """p[x][y] = sum of a[i][j] for i < x, j < y, where a is stored shifted by one (row and
    column 0 are zero): p is the inclusive prefix of a."""
    cdef int x, y
    cdef int64_t run
    for y in range(NL + 1):
        p[y] = 0
    for x in range(1, NM + 1):
        run = 0
        p[x * (NL + 1)] = 0
        for y in range(1, NL + 1):
            run += a[x * (NL + 1) + y]
            p[x * (NL + 1) + y] = p[(x - 1) * (NL + 1) + y] + run


cdef inline Py_ssize_t find_key(const int64_t* keys, Py_ssize_t n, int64_t key) noexcept nogil:
    """Index of ``key`` in the sorted ``keys[:n]``, or -1."""
    cdef Py_ssize_t lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo < n and keys[lo] == key else -1


def enumerate_dealer(tuple player, int a234_low, int kind, int first_hand, int second_hand,
                     int third_hand,
                     int32_t[::1] dense_h, int n_h, int32_t[::1] dense_m,
                     const int64_t[::1] keys=None, const int32_t[:, ::1] tri=None,
                     tuple dead=(), tuple shown=()):
    """Reference path: walk every 7-card dealer hand one by one -- the ``shown`` cards (known
    to be the dealer's) and any others from the cards not in ``player``, ``dead`` or
    ``shown`` -- set it by the house way and histogram the dealer's (high, medium, low)
    strengths as hist[dense high, dense medium, low rank].  Returns (total, hist).  With
    ``keys`` and ``tri`` the way is a class table: each hand's class key is looked up in the
    sorted ``keys`` and its strengths read from ``tri`` (a hand without a class counts in
    ``total`` only, so the totals tell)."""
    cdef int rest[NCARDS]
    cdef int fixed[7]
    cdef int c[7]
    cdef int idx[7]
    cdef int32_t hml[3]
    cdef int i, j, n = 0, d, nf = len(shown), m
    cdef int64_t total = 0
    cdef Py_ssize_t lo, nk = 0
    cdef bint table = keys is not None and tri is not None
    known = set(player) | set(dead) | set(shown)
    if (len(player) != 7 or nf > 7 or len(known) != 7 + len(dead) + nf
            or not known <= set(range(NCARDS)) or NCARDS - 7 - len(dead) < 7):
        raise ValueError("asiapoker: enumerate_dealer takes distinct checked ids")
    if table:
        nk = keys.shape[0]
    for i in range(NCARDS):
        if i not in known:
            rest[n] = i
            n += 1
    for j in range(nf):
        fixed[j] = shown[j]
    m = 7 - nf                        # the dealer's cards not known
    hist = np.zeros((n_h, NM, NL), dtype=np.int64)
    cdef int64_t[:, :, ::1] hv = hist
    with nogil:
        for j in range(m):
            idx[j] = j
        while True:
            for j in range(nf):
                c[j] = fixed[j]
            for j in range(m):
                c[nf + j] = rest[idx[j]]
            sort7(c)
            total += 1
            if table:
                lo = find_key(&keys[0], nk, class_key(c))
                if lo < 0:
                    total += (<int64_t>1) << 40   # no class: make the total visibly wrong
                else:
                    hv[dense_h[tri[lo, 0]], dense_m[tri[lo, 1]], (tri[lo, 2] >> 12) - 1] += 1
            else:
                choose(c, a234_low, kind, first_hand, second_hand, third_hand, hml)
                hv[dense_h[hml[0]], dense_m[hml[1]], (hml[2] >> 12) - 1] += 1
            j = m - 1
            while j >= 0 and idx[j] == n - m + j:
                j -= 1
            if j < 0:
                break
            idx[j] += 1
            for d in range(j + 1, m):
                idx[d] = idx[d - 1] + 1
    return total, hist


# ---------------------------------------------------------------------------------------------
# the bonus wager (rule 4): which seven-card bonus hands seven cards qualify for
# ---------------------------------------------------------------------------------------------
# Bit i of a bonus mask is category i of asiapoker.bonus.BONUS_CATEGORIES: 0 four 8s and three of a
# kind, 1 five aces, 2 royal flush, 3 natural straight flush, 4 straight flush with joker,
# 5 four of a kind, 6 9-high, 7 full house, 8 flush, 9 three of a kind, 10 straight.
# The joker completes straights and flushes (any one missing card) and is otherwise an ace.

# bonus categories: bit b of a bonus mask is category b
cdef enum:
    B_FOUR_8S_TRIPS = 0
    B_FIVE_ACES = 1
    B_ROYAL = 2
    B_NATURAL_SF = 3
    B_JOKER_SF = 4
    B_QUADS = 5
    B_NINE_HIGH = 6
    B_FULL_HOUSE = 7
    B_FLUSH = 8
    B_TRIPS = 9
    B_STRAIGHT = 10

# their names, by bit: the one definition, which asiapoker.BONUS_CATEGORIES is
BONUS_CATEGORIES = tuple(name for _, name in sorted({
    B_FOUR_8S_TRIPS: "four 8s and three of a kind", B_FIVE_ACES: "five aces",
    B_ROYAL: "royal flush", B_NATURAL_SF: "natural straight flush",
    B_JOKER_SF: "straight flush with joker", B_QUADS: "four of a kind",
    B_NINE_HIGH: "9-high", B_FULL_HOUSE: "full house", B_FLUSH: "flush",
    B_TRIPS: "three of a kind", B_STRAIGHT: "straight"}.items()))

cdef int WINDOWS[10]
cdef int NINE_HIGH_A = (1 << 7) | (1 << 6) | (1 << 5) | (1 << 4) | (1 << 2) | (1 << 1) | 1
cdef int NINE_HIGH_B = (1 << 7) | (1 << 6) | (1 << 5) | (1 << 3) | (1 << 2) | (1 << 1) | 1


cdef void build_windows() noexcept nogil:
    cdef int w
    WINDOWS[0] = (1 << 12) | 0xF          # 5-4-3-2-A
    for w in range(1, 10):
        WINDOWS[w] = 0x1F << (w - 1)      # 6-5-4-3-2 .. A-K-Q-J-T


build_windows()


cdef inline int popcount(unsigned int x) noexcept nogil:
    """Bits set in ``x`` (portable: no compiler builtin)."""
    x = x - ((x >> 1) & 0x55555555u)
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u)
    return <int>((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24)


cdef int bonus_mask(const int* c) noexcept nogil:
    cdef int cnt[13]
    cdef int suitmask[4]
    cdef int r, s, w, i, has_joker = 0, rankmask = 0, mask = 0, have, n, n2 = 0, n3 = 0
    cdef int flushes = 0                     # suits that hold five cards with the joker
    for r in range(13):
        cnt[r] = 0
    for s in range(4):
        suitmask[s] = 0
    for i in range(7):
        if c[i] == JOKER:
            has_joker = 1
        else:
            cnt[c[i] >> 2] += 1
            suitmask[c[i] & 3] |= 1 << (c[i] >> 2)
            rankmask |= 1 << (c[i] >> 2)
    if cnt[12] == 4 and has_joker:
        mask |= 1 << B_FIVE_ACES
    for r in range(13):                      # the joker is an ace for groups
        n = cnt[r] + (has_joker if r == 12 else 0)
        n2 += n >= 2
        n3 += n >= 3
        if n >= 4:
            mask |= 1 << B_QUADS
    if n3:
        mask |= 1 << B_TRIPS
        if n2 >= 2:                          # trips and another pair (or trips)
            mask |= 1 << B_FULL_HOUSE
        if cnt[6] == 4 and n3 >= 2:          # four 8s and three of a kind
            mask |= 1 << B_FOUR_8S_TRIPS
    if not has_joker and (rankmask == NINE_HIGH_A or rankmask == NINE_HIGH_B):
        mask |= 1 << B_NINE_HIGH
    for s in range(4):
        if popcount(suitmask[s]) + has_joker >= 5:
            flushes |= 1 << s
            mask |= 1 << B_FLUSH
    for w in range(10):
        have = popcount(rankmask & WINDOWS[w])
        if have == 5 or (has_joker and have == 4):
            mask |= 1 << B_STRAIGHT
        for s in range(4):
            if not (flushes >> s) & 1:
                continue
            have = popcount(suitmask[s] & WINDOWS[w])
            if have == 5:
                mask |= 1 << B_NATURAL_SF
                if w == 9:
                    mask |= 1 << B_ROYAL
            elif has_joker and have == 4:
                mask |= 1 << B_JOKER_SF
                if w == 9:
                    mask |= 1 << B_ROYAL
    return mask


def bonus_kernel(const card_t[:, ::1] hands, int16_t[::1] out):
    """Fill ``out`` with the bonus masks of n seven-card rows; returns the first bad row or -1."""
    cdef Py_ssize_t i, bad
    cdef int c[7]
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            for i in range(hands.shape[0]):
                load7(&hands[i, 0], c)
                out[i] = bonus_mask(c)
    return bad


def bonus_enumerate():
    """Reference path: the bonus mask of every one of the C(53, 7) hands, one by one, as a
    histogram over the 2048 masks."""
    hist = np.zeros(2048, dtype=np.int64)
    cdef int64_t[::1] hv = hist
    cdef int c[7]
    with nogil:
        c[0] = 0
        while c[0] < 47:
            c[1] = c[0] + 1
            while c[1] < 48:
                c[2] = c[1] + 1
                while c[2] < 49:
                    c[3] = c[2] + 1
                    while c[3] < 50:
                        c[4] = c[3] + 1
                        while c[4] < 51:
                            c[5] = c[4] + 1
                            while c[5] < 52:
                                c[6] = c[5] + 1
                                while c[6] < 53:
                                    hv[bonus_mask(c)] += 1
                                    c[6] += 1
                                c[5] += 1
                            c[4] += 1
                        c[3] += 1
                    c[2] += 1
                c[1] += 1
            c[0] += 1
    return hist


# ---------------------------------------------------------------------------------------------
# compiled (user-written) house ways: seven cards -> class key -> stored strengths
# ---------------------------------------------------------------------------------------------
# Class keys (asiapoker._compile takes the same keys of each class's representative):
#   no flush possible:      0 << 62 | joker << 61 | sum(count[r] * 5**r)
#   one flush suit (F):     1 << 62 | joker << 61 | F << 26 | sum(other[r] * 4**r)
#   two (3 + 3 + joker):    2 << 62 | F_lower_suit << 13 | F_other_suit
# A flush suit holds 4+ of the cards, or 3+ with the joker.

cdef int64_t class_key(const int* c) noexcept nogil:
    cdef int cnt[13]
    cdef int sm[4]
    cdef int sc[4]
    cdef int i, r, s, has_joker = 0, fs = -1, fs2 = -1, thr
    cdef int64_t key = 0, p
    for r in range(13):
        cnt[r] = 0
    for s in range(4):
        sm[s] = 0
        sc[s] = 0
    for i in range(7):
        if c[i] == JOKER:
            has_joker = 1
        else:
            cnt[c[i] >> 2] += 1
            sm[c[i] & 3] |= 1 << (c[i] >> 2)
            sc[c[i] & 3] += 1
    thr = 3 if has_joker else 4
    for s in range(4):
        if sc[s] >= thr:
            if fs < 0:
                fs = s
            else:
                fs2 = s
    if fs < 0:
        p = 1
        for r in range(13):
            key += cnt[r] * p
            p *= 5
        return ((<int64_t>has_joker) << 61) | key
    if fs2 < 0:
        p = 1
        for r in range(13):
            key += (cnt[r] - ((sm[fs] >> r) & 1)) * p
            p *= 4
        return (((<int64_t>1) << 62) | ((<int64_t>has_joker) << 61)
                | ((<int64_t>sm[fs]) << 26) | key)
    return ((<int64_t>2) << 62) | ((<int64_t>sm[fs]) << 13) | sm[fs2]


def class_keys_kernel(const card_t[:, ::1] hands, int64_t[::1] out):
    """Class keys of n seven-card rows; returns the first bad row or -1."""
    cdef Py_ssize_t i, bad
    cdef int c[7]
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            for i in range(hands.shape[0]):
                load7(&hands[i, 0], c)
                out[i] = class_key(c)
    return bad


def classify_kernel(const card_t[:, ::1] hands, const int64_t[::1] keys, const int32_t[:, ::1] tri,
                    int32_t[:, ::1] out):
    """out[i] = tri[index of the class key of row i in the sorted ``keys``]; returns the first
    bad row (or -2 - row for a key missing from ``keys``) or -1."""
    cdef Py_ssize_t i, bad, lo, n = keys.shape[0]
    cdef int c[7]
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            for i in range(hands.shape[0]):
                load7(&hands[i, 0], c)
                lo = find_key(&keys[0], n, class_key(c))
                if lo < 0:
                    bad = -2 - i
                    break
                out[i, 0] = tri[lo, 0]
                out[i, 1] = tri[lo, 1]
                out[i, 2] = tri[lo, 2]
    return bad


def class_weights_enumerate(const int64_t[::1] keys):
    """Reference count of class sizes: the class key of every one of the C(53, 7) hands, one by
    one, looked up in the sorted ``keys``.  Returns (counts per key, hands without a key)."""
    counts = np.zeros(keys.shape[0], dtype=np.int64)
    cdef int64_t[::1] cv = counts
    cdef int64_t missing = 0
    cdef Py_ssize_t lo, n = keys.shape[0]
    cdef int c[7]
    cdef int d, e
    with nogil:
        for d in range(7):
            c[d] = d
        while True:
            lo = find_key(&keys[0], n, class_key(c))
            if lo >= 0:
                cv[lo] += 1
            else:
                missing += 1
            d = 6
            while d >= 0 and c[d] == 46 + d:
                d -= 1
            if d < 0:
                break
            c[d] += 1
            for e in range(d + 1, 7):
                c[e] = c[e - 1] + 1
    return counts, missing


# ---------------------------------------------------------------------------------------------
# the C-level API declared in _core.pxd (for Cython code that cimports it)
# ---------------------------------------------------------------------------------------------

cdef int32_t strength4(int a, int b, int c, int d, int a234_low) noexcept nogil:
    return lookup4(a, b, c, d, a234_low)


cdef int32_t strength2(int a, int b) noexcept nogil:
    return lookup2(a, b)


cdef int32_t strength1(int a) noexcept nogil:
    return STRENGTH1[a]


cdef int split_strengths7(const int* seven, int a234_low, int32_t* high, int32_t* medium,
                          int32_t* low_hand) noexcept nogil:
    cdef int32_t high35[35]
    cdef int32_t medium21[21]
    cdef int32_t low7[7]
    cdef int k, legal = 0
    seven_parts(seven, a234_low, high35, medium21, low7)
    for k in range(NSPLITS):
        high[k] = high35[SPLIT_Q[k]]
        medium[k] = medium21[SPLIT_M[k]]
        low_hand[k] = low7[SPLIT_L[k]]
        legal += high[k] > medium[k] and medium[k] > low_hand[k]
    return legal


cdef int settle3(const int32_t* player, const int32_t* dealer) noexcept nogil:
    if not (player[0] > player[1] and player[1] > player[2]):
        return -1
    return ((player[0] > dealer[0]) + (player[1] > dealer[1]) + (player[2] > dealer[2])) >= 2


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


cdef int bonus_mask7(const int* seven) noexcept nogil:
    return bonus_mask(seven)


cdef int table_way7(const int* seven, const int64_t* keys, const int32_t* strengths,
                    Py_ssize_t n, int32_t* hml) noexcept nogil:
    cdef Py_ssize_t i = find_key(keys, n, class_key(seven))
    if i < 0:
        return -1
    hml[0] = strengths[3 * i]
    hml[1] = strengths[3 * i + 1]
    hml[2] = strengths[3 * i + 2]
    return 0


# ---------------------------------------------------------------------------------------------
# player hands up to suit renaming
# ---------------------------------------------------------------------------------------------

cdef uint8_t SUIT_PERM[24][16]   # [renaming][suit mask] -> renamed mask


cdef void build_suit_perms() noexcept nogil:
    cdef int p = 0, a, b, c, d, m, s
    cdef int img[4]
    for a in range(4):
        for b in range(4):
            for c in range(4):
                for d in range(4):
                    if a == b or a == c or a == d or b == c or b == d or c == d:
                        continue
                    img[0] = a; img[1] = b; img[2] = c; img[3] = d
                    for m in range(16):
                        SUIT_PERM[p][m] = 0
                        for s in range(4):
                            if (m >> s) & 1:
                                SUIT_PERM[p][m] |= 1 << img[s]
                    p += 1


build_suit_perms()


def suit_classes_kernel(const int8_t[:, ::1] counts, const uint8_t[::1] joker,
                        int8_t[:, ::1] out, int64_t[::1] weight, int32_t[::1] group):
    """For each rank-count row (13 counts, 7 cards with the joker flag counted), every way
    of giving the ranks suits that is the least under the 24 renamings of suits (each rank's
    suit set read as a 4-bit mask, the lowest rank most significant), as sorted card ids,
    with the size of its orbit and the row it came from.  Returns the number written, or -1
    when ``out`` is too small."""
    cdef Py_ssize_t row, n = 0, cap = out.shape[0]
    cdef int rk[13]
    cdef int mult[13]
    cdef int digit[13]
    cdef int lists[5][6]
    cdef int nlist[5]
    cdef int m, d, i, p, k, s, stab, full = 0
    cdef int64_t code, alt
    for m in range(16):
        k = (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)
        nlist[k] = 0
    for m in range(16):
        k = (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)
        lists[k][nlist[k]] = m
        nlist[k] += 1
    with nogil:
        for row in range(counts.shape[0]):
            if full:
                break
            d = 0
            for i in range(13):
                if counts[row, i] > 0:
                    rk[d] = i
                    mult[d] = counts[row, i]
                    digit[d] = 0
                    d += 1
            # the lowest rank's mask is fixed to the least of its size: lists[k][0]
            while True:
                code = 0
                for i in range(d):
                    code = (code << 4) | lists[mult[i]][digit[i]]
                stab = 1
                for p in range(1, 24):
                    alt = 0
                    for i in range(d):
                        alt = (alt << 4) | SUIT_PERM[p][lists[mult[i]][digit[i]]]
                    if alt < code:
                        stab = 0
                        break
                    stab += alt == code
                if stab:
                    if n == cap:
                        full = 1
                        break
                    k = 0
                    for i in range(d):
                        m = lists[mult[i]][digit[i]]
                        for s in range(4):
                            if (m >> s) & 1:
                                out[n, k] = rk[i] * 4 + s
                                k += 1
                    if joker[row]:
                        out[n, k] = JOKER
                    weight[n] = 24 // stab
                    group[n] = <int32_t>row
                    n += 1
                i = d - 1
                while i >= 1 and digit[i] == nlist[mult[i]] - 1:
                    digit[i] = 0
                    i -= 1
                if i < 1:
                    break
                digit[i] += 1
    return -1 if full else n


def class_codes_kernel(const card_t[:, ::1] hands, int64_t[::1] out):
    """out[i] = the least, over the 24 renamings of suits, of row i's code (each rank's suits as
    a 4-bit mask, rank 2 most significant), plus the joker as bit 52; rows are checked first.
    Returns the first bad row or -1."""
    cdef Py_ssize_t i, bad
    cdef int k, p, r, c
    cdef int masks[13]
    cdef int64_t code, best, dealer_joker
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            for i in range(hands.shape[0]):
                for r in range(13):
                    masks[r] = 0
                dealer_joker = 0
                for k in range(7):
                    c = hands[i, k]
                    if c == JOKER:
                        dealer_joker = (<int64_t>1) << 52
                    else:
                        masks[c >> 2] |= 1 << (c & 3)
                best = -1
                for p in range(24):
                    code = 0
                    for r in range(13):
                        code = (code << 4) | SUIT_PERM[p][masks[r]]
                    if best < 0 or code < best:
                        best = code
                out[i] = best | dealer_joker
    return bad
