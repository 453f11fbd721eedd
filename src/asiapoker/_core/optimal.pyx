# cython: language_level=3
"""Optimal play as a lookup: the class of a hand among the 6,972,147 classes up to suit
renaming, found from its rank counts and its canonical suits, and the class's best split
carried back to the row's own cards (optimal.pxd describes the index and the table)."""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t

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
cdef unsigned int CAND0[16]      # [mask] -> the renamings (bits) that give it the least mask
                                 # of its size, (1 << size) - 1


cdef extern from *:
    int __builtin_ctz(unsigned int x) nogil
    void __builtin_prefetch(const void* p) nogil

cdef enum:
    BATCH = 32                   # rows whose memory reads a lookup overlaps


cdef void build() noexcept nogil:
    cdef int p, m, s, k
    cdef int seen[5]
    cdef const uint8_t* r
    for p in range(24):                  # suit_renaming's renamings, and each suit's image
        r = suit_renaming(p)
        for m in range(16):
            PMASK[p][m] = r[m]
        for s in range(4):
            PERM[p][s] = __builtin_ctz(r[1 << s])
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
    for m in range(16):
        CAND0[m] = 0
        for p in range(24):
            if PMASK[p][m] == (1 << POPCOUNT[m]) - 1:
                CAND0[m] |= 1u << p


build()


ctypedef fused sorted_t:
    uint16_t
    int32_t


cdef inline Py_ssize_t find_sorted(const sorted_t* a, Py_ssize_t lo, Py_ssize_t hi,
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
    ranks, or SLOTS_PLAIN + that among those of 6 with the joker); writes a renaming of the
    suits that takes the hand to its class's least member, and that member's local code (each
    rank's suit mask, by its place among the masks of its size, in mixed radix, rank 2 most
    significant)."""
    cdef int masks[13]
    cdef int rk[7]
    cdef int i, r, p, d = 0, n = 0, least, best, ell = 0, m
    cdef unsigned int cand, nxt, x
    cdef Py_ssize_t slot = 0
    for r in range(13):
        masks[r] = 0
    for i in range(7):
        if c[i] == JOKER:
            slot = SLOTS_PLAIN
        else:
            masks[c[i] >> 2] |= 1 << (c[i] & 3)
    for r in range(13):
        m = masks[r]
        if m:
            rk[d] = m
            d += 1
            for i in range(POPCOUNT[m]):
                slot += T.binom[r + n][n + 1]
                n += 1
    # the renamings that give the lowest rank the least mask of its size, then, rank by rank,
    # those of them that give the next rank the least mask they can, until one is left (or
    # several that give every rank the same mask: the hand's own symmetries; any one will do)
    cand = CAND0[rk[0]]
    for i in range(1, d):
        if not (cand & (cand - 1)):
            break
        least = 16
        nxt = 0
        x = cand
        while x:
            p = __builtin_ctz(x)
            x &= x - 1
            m = PMASK[p][rk[i]]
            if m < least:
                least = m
                nxt = 1 << p
            elif m == least:
                nxt |= 1 << p
        cand = nxt
    best = __builtin_ctz(cand)
    for i in range(d):
        m = PMASK[best][rk[i]]
        ell = ell * RADIX[POPCOUNT[m]] + MASK_INDEX[m]
    for i in range(4):
        renaming[i] = PERM[best][i]
    local[0] = ell
    return slot


cdef inline int map_split(int k, const int* where) noexcept nogil:
    """Split ``k`` of the class's least member, as a split of the row (``where[j]``: the row
    position of the member's j-th card)."""
    cdef int low = where[T.split_low[k]]
    cdef int a = where[T.pair_pos[T.split_medium[k]][0]]
    cdef int b = where[T.pair_pos[T.split_medium[k]][1]]
    return SPLIT_OF[low][T.pair_idx[a][b]]


cdef inline int first_equal(const int* c, int k, int a234_low) noexcept nogil:
    """The first split of row ``c`` (in SPLIT_POSITIONS order) with split ``k``'s (high,
    medium, low) strengths.  Such a split holds cards of the same ranks in each hand (a card's
    rank fixes a 1-card strength, two ranks a 2-card one; the joker counts as an ace), so only
    those are tried, and their strengths then compared in full."""
    cdef int q, x, u, v, n, j, r, best = k
    cdef int low = T.split_low[k], pa = T.pair_pos[T.split_medium[k]][0]
    cdef int pb = T.pair_pos[T.split_medium[k]][1]
    cdef int rl = rank_of(c[low]), ra = rank_of(c[pa]), rb = rank_of(c[pb])
    cdef unsigned int lows = 0, at_a = 0, at_b = 0, xs, us, vs
    cdef int rest[4]
    cdef int32_t hs = 0, ms = 0, ls = 0
    for x in range(7):
        r = rank_of(c[x])
        lows |= (r == rl) << x
        at_a |= (r == ra) << x
        at_b |= (r == rb) << x
    if lows == (1u << low) and (at_a | at_b) == ((1u << pa) | (1u << pb)):
        return k                     # no other card of these ranks: the hands are fixed
    xs = lows
    while xs:
        x = __builtin_ctz(xs)
        xs &= xs - 1
        us = at_a & ~(1u << x)
        while us:
            u = __builtin_ctz(us)
            us &= us - 1
            vs = at_b & ~((1u << x) | (1u << u))
            while vs:
                v = __builtin_ctz(vs)
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
    cdef int renaming[4]
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
                slots[i] = <int32_t>canonical(c, renaming, &ell)
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
    cdef Py_ssize_t n = hands.shape[0], nc = local.shape[0]
    cdef int c[7]
    cdef int img[7]
    cdef int where[7]
    cdef int ells[BATCH]
    cdef int rens[BATCH][4]
    cdef Py_ssize_t los[BATCH]
    cdef Py_ssize_t his[BATCH]
    cdef Py_ssize_t cis[BATCH]
    cdef int k, j, b, tmp, kk, top
    cdef const int32_t* ties = &tie_class[0] if nt else NULL
    if (out.shape[0] != hands.shape[0] or cls.shape[0] != hands.shape[0]
            or hands.shape[1] != 7 or slot_start.shape[0] != SLOTS or slot_end.shape[0] != SLOTS
            or best.shape[0] != nc or tie_mask.shape[0] != nt
            or (nt and tie_mask.shape[1] * 8 < NSPLITS)):
        raise ValueError("asiapoker: best_splits_kernel's arrays do not fit together")
    with nogil:
        bad = check_rows(hands)
        i0 = 0
        # in batches: first every row's class range (its first probe fetched ahead), then
        # every row's class (its best split fetched ahead), then the splits: the memory reads
        # of a batch overlap instead of waiting one after another
        while bad < 0 and i0 < n:
            m = min(<Py_ssize_t>BATCH, n - i0)
            for q in range(m):
                for k in range(7):
                    c[k] = hands[i0 + q, k]
                g = canonical(c, rens[q], &ells[q])
                lo = slot_start[g]
                hi = slot_end[g]
                if not (0 <= lo <= hi <= nc):
                    lo = hi = 0
                los[q] = lo
                his[q] = hi
                if lo < hi:
                    __builtin_prefetch(&local[(lo + hi) >> 1])
            for q in range(m):
                ci = find_sorted(&local[0], los[q], his[q], ells[q])
                if ci < 0:
                    bad = -2 - (i0 + q)
                    break
                cis[q] = ci
                __builtin_prefetch(&best[ci])
            if bad >= 0 or bad < -1:
                break
            for q in range(m):
                i = i0 + q
                for k in range(7):
                    c[k] = hands[i, k]
                ci = cis[q]
                cls[i] = ci
                b = best[ci]
                if b == -2 or b >= NSPLITS or b < -2:
                    out[i] = -1
                    continue
                # where[j]: the row position of the least member's j-th card (ids ascending)
                for k in range(7):
                    img[k] = JOKER if c[k] == JOKER else (c[k] & ~3) | rens[q][c[k] & 3]
                    where[k] = k
                for k in range(1, 7):
                    tmp = where[k]
                    j = k - 1
                    while j >= 0 and img[where[j]] > img[tmp]:
                        where[j + 1] = where[j]
                        j -= 1
                    where[j + 1] = tmp
                if b >= 0:
                    out[i] = first_equal(c, map_split(b, where), a234_low)
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
