# The strength of every 4-, 2- and 1-card hand (strengths.pyx builds the tables once, at
# import), and the 105 splits of seven positions.
#
# Strengths share ONE integer scale for 4-, 2- and 1-card hands (rule 2.7/2.8):
#
#     strength = category << 16 | k1 << 12 | k2 << 8 | k3 << 4 | k4
#
# ``category`` is 0 (no pair) .. 9 (four aces); ``k1..k4`` are the defining ranks and then
# the kickers, high to low, as rank + 1 (1..13), with 0 for "no card".  A straight or straight
# flush stores its place in the straight order (1 = lowest) in ``k1``.  Comparing two
# strengths as integers is comparing the hands, whatever their sizes; copies are equal.
#
# Other modules read the tables through the pointer ``tables()`` returns, with the inline
# lookups below.  Nothing here checks its input: ids are distinct and in 0..52.

from libc.stdint cimport int32_t

from asiapoker._core.cards cimport NCARDS, NSPLITS

cdef enum:
    N4 = 292825      # 4-card hands: C(53, 4)
    N2 = 1378        # 2-card hands: C(53, 2)

# the categories, by number (strength >> 16)
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

ctypedef struct Tables:
    int32_t binom[64][8]             # binom[n][k] = C(n, k)
    int32_t strength4[2][N4]         # [A-2-3-4 low?][colex index of the 4 sorted ids]
    int32_t strength2[N2]            # [colex index of the 2 sorted ids]
    int32_t strength1[NCARDS]        # [id]
    # split k of seven positions: high hand sub4[split_high[k]], medium hand
    # pair_pos[split_medium[k]], low hand position split_low[k]; k = 3 * q + j for the
    # q-th 4-subset in lexicographic order and j the low hand's place among the 3 left
    int sub4[35][4]                  # the 4-subsets of 7 positions, lexicographic
    int pair_pos[21][2]              # the pairs of positions, lexicographic
    int pair_idx[7][7]               # [position][position] -> index into pair_pos
    int split_high[NSPLITS]
    int split_medium[NSPLITS]
    int split_low[NSPLITS]


# the tables (built once; never written after import)
cdef const Tables* tables() noexcept nogil

# strengths of the 35 four-card, 21 two-card and 7 one-card parts of seven cards
cdef void seven_parts(const int* c, int a234_low, int32_t* high35, int32_t* medium21,
                      int32_t* low7) noexcept nogil

# the C-level API (asiapoker/capi.pxd): the strength of a 4-, 2- or 1-card hand
cdef int32_t strength4(int a, int b, int c, int d, int a234_low) noexcept nogil
cdef int32_t strength2(int a, int b) noexcept nogil
cdef int32_t strength1(int a) noexcept nogil


cdef inline void sort2(int* x, int i, int j) noexcept nogil:
    cdef int t
    if x[i] > x[j]:
        t = x[i]; x[i] = x[j]; x[j] = t


cdef inline int32_t lookup4(const Tables* t, int a, int b, int c, int d,
                            int a234_low) noexcept nogil:
    """Strength of four distinct ids, in any order."""
    cdef int x[4]
    x[0] = a; x[1] = b; x[2] = c; x[3] = d
    sort2(x, 0, 1); sort2(x, 2, 3); sort2(x, 0, 2); sort2(x, 1, 3); sort2(x, 1, 2)
    return t.strength4[a234_low][t.binom[x[0]][1] + t.binom[x[1]][2] + t.binom[x[2]][3]
                                 + t.binom[x[3]][4]]


cdef inline int32_t lookup2(const Tables* t, int a, int b) noexcept nogil:
    """Strength of two distinct ids, in any order."""
    if a > b:
        a, b = b, a
    return t.strength2[a + t.binom[b][2]]
