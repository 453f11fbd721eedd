# cython: language_level=3
"""Optimal play as a lookup: the class of a hand among the 6,972,147 classes up to suit
renaming, found from its rank counts and its canonical suits, and the class's best split
carried back to the row's own cards (the tables below, each with a comment, describe the
index; the table's arrays are described in ``asiapoker.optimal``)."""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from asiapoker._core.cards cimport JOKER, NSPLITS, card_t, check_rows, rank_of
from asiapoker._core.strengths cimport Tables, lookup2, lookup4, tables
from asiapoker._core.suit_renaming cimport suit_renaming

cdef const Tables* T = tables()

cdef uint8_t PERM[24][4]         # [renaming][suit] -> suit, renamings in lexicographic order
cdef uint8_t PMASK[24][16]       # [renaming][suit mask] -> renamed mask
cdef uint8_t MASK_INDEX[16]      # a mask's place among the masks of as many suits, ascending
cdef uint8_t POPCOUNT[16]
cdef int RADIX[5]                # C(4, k): how many masks have k suits
cdef int SPLIT_OF[7][21]         # [low position][pair index] -> split index
cdef uint32_t TAKES[16][6]       # [suit mask][j] -> the renamings (bits) that take the mask
                                 # to the j-th least mask of its size (0 past the last)
cdef uint8_t IMG[24][53]         # [renaming][id] -> the renamed id (the joker stays 52)
cdef int32_t SLOT_ADD[13][8][5]  # [rank][cards of lower ranks][cards of this rank] -> what
                                 # the rank adds to the colex rank of the multiset


cdef extern from "sysdep.h":     # the compilers' bit scans and prefetch, in one header
    int ctz32 "asiapoker_ctz32"(uint32_t x) nogil
    int ctz64 "asiapoker_ctz64"(uint64_t x) nogil
    int clz64 "asiapoker_clz64"(uint64_t x) nogil
    void prefetch "ASIAPOKER_PREFETCH"(const void* p) nogil

cdef enum:
    BATCH = 32                   # rows whose memory reads a lookup overlaps


cdef void build() noexcept nogil:
    cdef int p, m, s, k, j
    cdef int seen[5]
    cdef const uint8_t* r
    for p in range(24):                  # suit_renaming's renamings, and each suit's image
        r = suit_renaming(p)
        for m in range(16):
            PMASK[p][m] = r[m]
        for s in range(4):
            PERM[p][s] = ctz32(r[1 << s])
    for k in range(5):
        seen[k] = 0
    for m in range(16):
        k = (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)
        POPCOUNT[m] = k
        MASK_INDEX[m] = seen[k]
        seen[k] += 1
    for k in range(5):
        RADIX[k] = seen[k]
    for k in range(NSPLITS):
        SPLIT_OF[T.split_low[k]][T.split_medium[k]] = k
    cdef int v
    for m in range(16):
        for j in range(6):
            TAKES[m][j] = 0
        for p in range(24):
            v = PMASK[p][m]
            TAKES[m][MASK_INDEX[v]] |= 1u << p
    for p in range(24):
        for s in range(53):
            IMG[p][s] = s if s == JOKER else (s & ~3) | PERM[p][s & 3]
    cdef int n, i
    cdef int32_t add
    for k in range(13):                  # rank k's cards are the (n+1)-th, ... of the multiset
        for n in range(8):
            for m in range(5):
                add = 0
                for i in range(m):
                    if n + i < 7:
                        add += T.binom[k + n + i][n + i + 1]
                SLOT_ADD[k][n][m] = add


build()


cdef inline Py_ssize_t find_sorted(const int32_t* a, Py_ssize_t lo, Py_ssize_t hi,
                                   Py_ssize_t x) noexcept nogil:
    """Index of ``x`` in the ascending ``a[lo:hi]``, or -1."""
    cdef Py_ssize_t end = hi, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo < end and a[lo] == x else -1


# the slots of rank multisets: every multiset of 7 ranks (no joker), then of 6 (the joker)
cdef enum:
    SLOTS_PLAIN = 50388      # C(19, 7)
    SLOTS = 68952            # + C(18, 6)

#: How many slots of rank multisets ``index_codes_kernel`` numbers (some are never used: a
#: rank held five times or more).
SLOT_COUNT = SLOTS


cdef inline Py_ssize_t canonical(const int* c, int* renaming, int* local) noexcept nogil:
    """The slot of seven checked ids' rank multiset (its colex rank among the multisets of 7
    ranks, or SLOTS_PLAIN + that among those of 6 with the joker); returns in ``renaming`` a
    renaming of the suits (its index) that takes the hand to its class's least member, and
    that member's local code (each rank's suit mask, by its place among the masks of its size,
    in mixed radix, rank 2 most significant).

    The least member's masks are least rank by rank from the lowest: of the renamings still
    in the running (a set of 24 bits), those that take the rank's mask to the least mask any
    of them can keep running (several at the end are the hand's own symmetries: any one will
    do).  A fixed number of steps, none of them a branch on the cards."""
    cdef int masks[14]                   # [13]: the joker's bit
    cdef int rk[8]
    cdef int i, j, r, m, cnt, d = 0, n = 0, ell = 0, best
    cdef uint32_t running = (1u << 24) - 1, kept, x
    cdef Py_ssize_t slot
    for r in range(14):
        masks[r] = 0
    for i in range(8):
        rk[i] = 0
    for i in range(7):
        masks[c[i] >> 2] |= 1 << (c[i] & 3)
    slot = SLOTS_PLAIN if masks[13] else 0
    for r in range(13):
        m = masks[r]
        cnt = POPCOUNT[m]
        slot += SLOT_ADD[r][n][cnt]
        n += cnt
        rk[d] = m
        d += m != 0
    for i in range(7):                   # past the ranks held, rk[i] = 0: every renaming stays
        kept = 0
        for j in range(5, -1, -1):       # the least mask that keeps any renaming running
            x = TAKES[rk[i]][j] & running
            kept = x if x else kept
        running = kept
    best = ctz32(running)
    for i in range(7):                   # an empty mask adds nothing (radix 1, index 0)
        m = PMASK[best][rk[i]]
        ell = ell * RADIX[POPCOUNT[m]] + MASK_INDEX[m]
    renaming[0] = best
    local[0] = ell
    return slot


cdef inline int map_split(int k, const int* where) noexcept nogil:
    """Split ``k`` of the class's least member, as a split of the row (``where[j]``: the row
    position of the member's j-th card)."""
    cdef int low = where[T.split_low[k]]
    cdef int a = where[T.pair_pos[T.split_medium[k]][0]]
    cdef int b = where[T.pair_pos[T.split_medium[k]][1]]
    return SPLIT_OF[low][T.pair_idx[a][b]]


cdef inline int first_equal(const int* c, const int* held, int k, int a234_low) noexcept nogil:
    """The first split of row ``c`` (in SPLIT_POSITIONS order) with split ``k``'s (high,
    medium, low) strengths.  Such a split holds cards of the same ranks in each hand (a card's
    rank fixes a 1-card strength, two ranks a 2-card one; the joker counts as an ace), so only
    those are tried, and their strengths then compared in full.  ``held[r]``: the row's cards
    of rank r (the joker counted as an ace)."""
    cdef int q, x, u, v, n, j, r, best = k
    cdef int low = T.split_low[k], pa = T.pair_pos[T.split_medium[k]][0]
    cdef int pb = T.pair_pos[T.split_medium[k]][1]
    cdef int rl = rank_of(c[low]), ra = rank_of(c[pa]), rb = rank_of(c[pb])
    cdef unsigned int lows = 0, at_a = 0, at_b = 0, xs, us, vs
    cdef int rest[4]
    cdef int32_t hs = 0, ms = 0, ls = 0
    if held[rl] == 1 and (held[ra] == 2 if ra == rb else held[ra] == 1 and held[rb] == 1):
        return k                     # no other card of these ranks: the hands are fixed
    for x in range(7):
        r = rank_of(c[x])
        lows |= (r == rl) << x
        at_a |= (r == ra) << x
        at_b |= (r == rb) << x
    xs = lows
    while xs:
        x = ctz32(xs)
        xs &= xs - 1
        us = at_a & ~(1u << x)
        while us:
            u = ctz32(us)
            us &= us - 1
            vs = at_b & ~((1u << x) | (1u << u))
            while vs:
                v = ctz32(vs)
                vs &= vs - 1
                j = SPLIT_OF[x][T.pair_idx[u][v]]
                if j >= best:
                    continue
                if not hs:
                    q = T.split_high[k]
                    hs = lookup4(T, c[T.sub4[q][0]], c[T.sub4[q][1]], c[T.sub4[q][2]],
                                 c[T.sub4[q][3]], a234_low)
                    ms = lookup2(T, c[pa], c[pb])
                    ls = T.strength1[c[low]]
                n = 0
                for q in range(7):
                    if q != x and q != u and q != v:
                        rest[n] = c[q]
                        n += 1
                if (T.strength1[c[x]] == ls and lookup2(T, c[u], c[v]) == ms
                        and lookup4(T, rest[0], rest[1], rest[2], rest[3], a234_low) == hs):
                    best = j
    return best


def index_codes_kernel(const card_t[:, ::1] hands, int32_t[::1] slots, uint16_t[::1] local):
    """Slot of the rank multiset and local code (see ``canonical``) of each checked seven-card
    row; returns the first bad row or -1."""
    cdef Py_ssize_t i, bad
    cdef int c[7]
    cdef int renaming
    cdef int ell, k
    if slots.shape[0] != hands.shape[0] or local.shape[0] != hands.shape[0] \
            or hands.shape[1] != 7:
        raise ValueError("asiapoker: index_codes_kernel needs n x 7 rows and n outputs each")
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            for i in range(hands.shape[0]):
                for k in range(7):
                    c[k] = hands[i, k]
                slots[i] = <int32_t>canonical(c, &renaming, &ell)
                local[i] = <uint16_t>ell
    return bad


def best_splits_kernel(const card_t[:, ::1] hands, const int32_t[::1] slot_start,
                       const int32_t[::1] slot_end,
                       const uint16_t[::1] local, const int8_t[::1] best,
                       const int32_t[::1] tie_class, const uint8_t[:, ::1] tie_mask,
                       int a234_low, int16_t[::1] out, int64_t[::1] cls):
    """out[i] = the best split of row i in SPLIT_POSITIONS order of the row (its class: the
    rank multiset's slot gives the range slot_start..slot_end of its classes, in which
    ``local`` holds each class's local code), from the table
    ``best`` (a split of each class's least member; -1: the class's best splits are the bits
    of its row of ``tie_mask``, found by ``tie_class``; -2: not in the table, out[i] = -1),
    and cls[i] its class.  Returns the first bad row, -2 - row for a row whose class is not in
    the index (a damaged index), or -1."""
    cdef Py_ssize_t i, i0, q, m, bad, g, lo, hi, ci, t, nt = tie_class.shape[0]
    cdef Py_ssize_t n = hands.shape[0], nc = local.shape[0], half
    cdef int c[7]
    cdef int where[7]
    cdef int held[13]
    cdef uint8_t pos[64]
    cdef int ells[BATCH]
    cdef int rens[BATCH]
    cdef Py_ssize_t gs[BATCH]
    cdef Py_ssize_t bases[BATCH]
    cdef Py_ssize_t lens[BATCH]
    cdef Py_ssize_t his[BATCH]
    cdef Py_ssize_t steps, step
    cdef int k, j, b, kk, top, y
    cdef uint64_t bits
    cdef const uint8_t* image
    cdef const uint16_t* codes = &local[0] if nc else NULL
    cdef const int32_t* ties = &tie_class[0] if nt else NULL
    if (out.shape[0] != hands.shape[0] or cls.shape[0] != hands.shape[0]
            or hands.shape[1] != 7 or slot_start.shape[0] != SLOTS or slot_end.shape[0] != SLOTS
            or best.shape[0] != nc or tie_mask.shape[0] != nt
            or (nt and tie_mask.shape[1] * 8 < NSPLITS)):
        raise ValueError("asiapoker: best_splits_kernel's arrays do not fit together")
    with nogil:
        bad = check_rows(hands)
        i0 = 0
        # in batches, each step over every row of the batch before the next step, so that the
        # memory reads of a batch's rows overlap instead of waiting one after another: the
        # rows' slots (their ranges fetched ahead), a binary search of every row's range in
        # lockstep (each row's next probe fetched ahead), then the splits (each class's best
        # split fetched ahead)
        while bad < 0 and i0 < n:
            m = min(<Py_ssize_t>BATCH, n - i0)
            for q in range(m):
                for k in range(7):
                    c[k] = hands[i0 + q, k]
                g = canonical(c, &rens[q], &ells[q])
                gs[q] = g
                prefetch(&slot_start[g])
                prefetch(&slot_end[g])
            steps = 0
            for q in range(m):
                lo = slot_start[gs[q]]
                hi = slot_end[gs[q]]
                if not (0 <= lo < hi <= nc):
                    bad = -2 - (i0 + q)          # an empty or damaged range: no class
                    break
                bases[q] = lo
                lens[q] = hi - lo
                his[q] = hi
                prefetch(&codes[lo + ((hi - lo) >> 1)])
                step = 64 - clz64(<uint64_t>(hi - lo)) # halvings: > log2
                if step > steps:
                    steps = step
            if bad < -1:
                break
            for step in range(steps):            # lower bound: branch-free halving
                for q in range(m):
                    half = lens[q] >> 1
                    bases[q] += half * (codes[bases[q] + half] < ells[q])
                    lens[q] -= half
                    prefetch(&codes[bases[q] + (lens[q] >> 1)])
            for q in range(m):
                ci = bases[q] + (codes[bases[q]] < ells[q])
                if ci >= his[q] or codes[ci] != ells[q]:
                    bad = -2 - (i0 + q)
                    break
                bases[q] = ci
                prefetch(&best[ci])
            if bad < -1:
                break
            for q in range(m):
                i = i0 + q
                for k in range(7):
                    c[k] = hands[i, k]
                ci = bases[q]
                cls[i] = ci
                b = best[ci]
                if b == -2 or b >= NSPLITS or b < -2:
                    out[i] = -1
                    continue
                # where[j]: the row position of the least member's j-th card (ids ascending)
                image = IMG[rens[q]]
                bits = 0
                for k in range(13):
                    held[k] = 0
                for k in range(7):
                    y = image[c[k]]
                    pos[y] = k
                    bits |= (<uint64_t>1) << y
                    held[rank_of(c[k])] += 1
                for k in range(7):
                    where[k] = pos[ctz64(bits)]
                    bits &= bits - 1
                if b >= 0:
                    out[i] = first_equal(c, held, map_split(b, where), a234_low)
                    continue
                t = find_sorted(ties, 0, nt, ci) if nt else -1
                top = NSPLITS
                if t >= 0:
                    for k in range(NSPLITS):
                        if (tie_mask[t, k >> 3] >> (k & 7)) & 1:
                            kk = map_split(k, where)
                            if kk < top:
                                top = kk
                out[i] = top if top < NSPLITS else -1
            i0 += m
    return bad
