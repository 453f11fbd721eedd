# cython: language_level=3
"""The compiled core of asiapoker: strength tables and the hot loops.

Card ids: ``rank * 4 + suit`` for the 52 ordinary cards (rank 0..12 is 2..A, suit 0..3 is
c, d, h, s) and 52 for the joker.

Strengths share ONE integer scale for 4-, 2- and 1-card hands (SPEC 2.7/2.8)::

    strength = category << 16 | k1 << 12 | k2 << 8 | k3 << 4 | k4

``category`` is 0 (no pair) .. 9 (four aces); ``k1..k4`` are the defining ranks and then the
kickers, high to low, as rank + 1 (1..13), with 0 for "no card".  A straight or straight flush
stores its place in the straight order (1 = lowest) in ``k1``.  Comparing two strengths as
integers is comparing the hands, whatever their sizes; copies are equal integers.

Nothing here validates its input except the batch kernels, which check every id and every
duplicate before they index a table and report the first bad row to the Python layer.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint64_t

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
cdef int32_t S4[2][N4]          # [a234 low?][colex index of 4 sorted ids]
cdef int32_t S2[N2]             # colex index of 2 sorted ids
cdef int32_t S1[NCARDS]

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
                         int s0, int s1, int s2, int s3, int low) noexcept nogil:
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
            elif low:
                idx = a[0] - 1
            else:
                idx = a[0] - 2
        elif a[0] == 12 and a[1] == 2 and a[2] == 1 and a[3] == 0:
            idx = 1 if low else 10
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


cdef int32_t eval4_ids(int a, int b, int c, int d, int low) noexcept nogil:
    """Strength of four distinct ids, sorted ascending (so only ``d`` can be the joker)."""
    cdef int x, cat
    cdef int32_t best, v
    if d != JOKER:
        return eval4_plain(a >> 2, b >> 2, c >> 2, d >> 2, a & 3, b & 3, c & 3, d & 3, low)
    # SPEC 2.2: the joker is an ace, or any absent card that completes a straight or flush.
    best = eval4_plain(12, a >> 2, b >> 2, c >> 2, 4, a & 3, b & 3, c & 3, low)
    for x in range(52):
        if x == a or x == b or x == c:
            continue
        v = eval4_plain(x >> 2, a >> 2, b >> 2, c >> 2, x & 3, a & 3, b & 3, c & 3, low)
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
    cdef int n, k, a, b, c, d, i, j, q, x, low
    cdef int rem[3]
    for n in range(64):
        for k in range(8):
            if k == 0:
                BINOM[n][k] = 1
            elif n == 0:
                BINOM[n][k] = 0
            else:
                BINOM[n][k] = BINOM[n - 1][k - 1] + BINOM[n - 1][k]
    for low in range(2):
        i = 0
        for d in range(3, NCARDS):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        S4[low][i] = eval4_ids(a, b, c, d, low)
                        i += 1
    i = 0
    for b in range(1, NCARDS):
        for a in range(b):
            S2[i] = eval2_ids(a, b)
            i += 1
    for a in range(NCARDS):
        S1[a] = enc(NOPAIR, rank_of(a) + 1, 0, 0, 0)
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


cdef inline int32_t lookup4(int a, int b, int c, int d, int low) noexcept nogil:
    cdef int x[4]
    x[0] = a; x[1] = b; x[2] = c; x[3] = d
    sort2(x, 0, 1); sort2(x, 2, 3); sort2(x, 0, 2); sort2(x, 1, 3); sort2(x, 1, 2)
    return S4[low][BINOM[x[0]][1] + BINOM[x[1]][2] + BINOM[x[2]][3] + BINOM[x[3]][4]]


cdef inline int32_t lookup2(int a, int b) noexcept nogil:
    if a > b:
        a, b = b, a
    return S2[a + BINOM[b][2]]


cdef void seven_parts(const int* c, int low, int32_t* h35, int32_t* m21,
                      int32_t* l7) noexcept nogil:
    """Strengths of the 35 four-card, 21 two-card and 7 one-card parts of seven cards."""
    cdef int q, i
    for q in range(35):
        h35[q] = lookup4(c[SUB4[q][0]], c[SUB4[q][1]], c[SUB4[q][2]], c[SUB4[q][3]], low)
    for i in range(21):
        m21[i] = lookup2(c[PAIR_POS[i][0]], c[PAIR_POS[i][1]])
    for i in range(7):
        l7[i] = S1[c[i]]


# ---------------------------------------------------------------------------------------------
# Python-facing functions
# ---------------------------------------------------------------------------------------------

def strength(tuple ids, int low):
    """Strength of one 1-, 2- or 4-card hand (ids distinct, in 0..52; checked by the caller)."""
    cdef Py_ssize_t n = len(ids)
    if n == 4:
        return lookup4(ids[0], ids[1], ids[2], ids[3], low)
    if n == 2:
        return lookup2(ids[0], ids[1])
    return S1[<int>ids[0]]


def split_strengths(tuple ids, int low):
    """(high, medium, low) strength lists of the 105 splits of seven checked ids."""
    cdef int c[7]
    cdef int32_t h35[35]
    cdef int32_t m21[21]
    cdef int32_t l7[7]
    cdef int k
    for k in range(7):
        c[k] = ids[k]
    seven_parts(c, low, h35, m21, l7)
    return ([h35[SPLIT_Q[k]] for k in range(NSPLITS)],
            [m21[SPLIT_M[k]] for k in range(NSPLITS)],
            [l7[SPLIT_L[k]] for k in range(NSPLITS)])


def split_positions():
    """The 105 splits as ((high positions), (medium positions), low position)."""
    return tuple(
        ((SUB4[SPLIT_Q[k]][0], SUB4[SPLIT_Q[k]][1], SUB4[SPLIT_Q[k]][2], SUB4[SPLIT_Q[k]][3]),
         (PAIR_POS[SPLIT_M[k]][0], PAIR_POS[SPLIT_M[k]][1]),
         SPLIT_L[k])
        for k in range(NSPLITS)
    )


cdef inline Py_ssize_t check_rows(card_t[:, ::1] hands) noexcept nogil:
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


def strengths_kernel(card_t[:, ::1] hands, int low, int32_t[::1] out):
    """Fill ``out`` with the strengths of n 1-, 2- or 4-card rows; returns the first bad row
    (nothing written) or -1."""
    cdef Py_ssize_t i, n = hands.shape[0], w = hands.shape[1]
    cdef Py_ssize_t bad
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            if w == 4:
                for i in range(n):
                    out[i] = lookup4(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], low)
            elif w == 2:
                for i in range(n):
                    out[i] = lookup2(hands[i, 0], hands[i, 1])
            else:
                for i in range(n):
                    out[i] = S1[hands[i, 0]]
    return bad


def legal_kernel(card_t[:, ::1] hands, int low, uint8_t[:, ::1] out):
    """Fill ``out`` (n x 105) with the legality of every split of n seven-card rows
    (SPEC 3.2: high > medium > low); returns the first bad row (nothing written) or -1."""
    cdef Py_ssize_t i, bad
    cdef int k
    cdef int c[7]
    cdef int32_t h35[35]
    cdef int32_t m21[21]
    cdef int32_t l7[7]
    cdef int32_t m
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            for i in range(hands.shape[0]):
                for k in range(7):
                    c[k] = hands[i, k]
                seven_parts(c, low, h35, m21, l7)
                for k in range(NSPLITS):
                    m = m21[SPLIT_M[k]]
                    out[i, k] = h35[SPLIT_Q[k]] > m and m > l7[SPLIT_L[k]]
    return bad


def table_view(int size, int low):
    """A read-only numpy copy of one strength table (4: colex-indexed, 2, or 1)."""
    cdef Py_ssize_t i
    if size == 4:
        arr = np.empty(N4, dtype=np.int32)
        for i in range(N4):
            arr[i] = S4[low][i]
    elif size == 2:
        arr = np.array([S2[i] for i in range(N2)], dtype=np.int32)
    else:
        arr = np.array([S1[i] for i in range(NCARDS)], dtype=np.int32)
    arr.setflags(write=False)
    return arr
