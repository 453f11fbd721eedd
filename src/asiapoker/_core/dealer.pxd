# The dealer model of one house way and rule set, and the exact count of a player hand's
# splits against every dealer hand.
#
# The dealer's (high, medium, low) strengths depend on its rank multiset alone unless a suit
# holds 4+ of its cards (3+ with the joker).  A DealerModel holds the triple of every rank
# class and the exact correction of every flush-capable class (suit s holds exactly the
# ranks F, the other cards have ranks O in the other suits), laid out by
# asiapoker._models.dealer_model_arrays.  For a player hand the dealer's distribution over
# the triples is counted with binomials of the cards left (``distribution``), and the
# two-of-three counts come from one sweep over the triples in high-strength order with 2D
# prefix sums over (medium, low) (``wins``).

from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint16_t

from asiapoker._core.strengths cimport Tables, tables

cdef enum:
    NM = 91          # distinct medium (2-card) strengths
    NL = 13          # distinct low (1-card) strengths
    CELLS = 92 * 14  # (NM + 1) * (NL + 1): a (medium, low) grid with a zero row and column


cdef class DealerModel:
    cdef readonly int a234_low                 # 1: A-2-3-4 is the lowest straight
    cdef readonly Py_ssize_t n_triples         # distinct dealer (high, medium, low) settings
    # The triples, sorted by high strength (index t is "triple t" below).
    cdef int32_t[::1] triple_high              # [t] its high hand's strength
    cdef int16_t[::1] triple_cell              # [t] (medium index + 1) * (NL + 1) + low index + 1
    cdef int32_t[::1] medium_values            # the NM distinct medium strengths, ascending
    cdef int32_t[::1] low_values               # the NL distinct low strengths, ascending
    # Rank classes: dealer hands no suit can make a flush of, counted by ranks alone; the
    # classes with the joker come last.
    cdef uint8_t[:, ::1] rank_pairs            # [n] up to 7 (rank, count): rank * 5 + count, 0 none
    cdef int32_t[::1] rank_triple              # [n] the class's triple
    cdef Py_ssize_t rank_joker_start           # the first class with the joker
    # Single-flush corrections, F-major: suit s holds exactly the ranks F, the other cards O
    # lie in the other suits; each entry moves its count from the rank-only triple to the
    # true one.  The entries with the joker come last.
    cdef uint16_t[::1] flush_ranks             # [n] F, a 13-bit rank mask
    cdef uint16_t[::1] flush_named_ranks       # [n] every rank the entry names (F and O)
    cdef int32_t[::1] flush_runs               # starts of the runs of entries with one F and
                                               # joker flag, then the number of entries
    cdef Py_ssize_t run_joker_start            # the first run with the joker
    cdef uint8_t[:, ::1] flush_others          # [n] up to 3 (rank, count) of O as rank * 4 + count
    cdef int32_t[:, ::1] flush_triples         # [n] (true triple: +count, rank-only triple: -count)
    # Two-flush corrections (3 + 3 + the joker), F1-major.
    cdef uint16_t[::1] double_ranks1           # [n] the first suit's ranks
    cdef uint16_t[::1] double_ranks2           # [n] the second suit's ranks
    cdef int32_t[:, ::1] double_triples        # [n] (+true, -single1, -single2, +rank-only)
    # The same over the triples they touch only (solve_groups_kernel).
    cdef int32_t[::1] double_high              # [u] those triples' high strengths, ascending
    cdef int16_t[::1] double_cell              # [u] their cells
    cdef int32_t[:, ::1] double_positions      # [n] each entry's four triples among them
    cdef int32_t[::1] double_runs              # starts of the runs with one F1, then the count

    # add the dealer hands of rank classes first..last-1, counted by rank alone
    cdef void rank_part(self, const int64_t* rank_ways, Py_ssize_t first, Py_ssize_t last,
                        int32_t* dist) noexcept nogil
    # add the single-flush corrections of runs first_run..last_run-1
    cdef void flush_part(self, const int* availmask, const int64_t* offsuit_ways,
                         Py_ssize_t first_run, Py_ssize_t last_run, int32_t* dist) noexcept nogil
    # dist[t] = dealer hands from the cards not in ``removed`` whose triple is t
    cdef void distribution(self, const int* removed, int n_removed, int32_t* dist) noexcept nogil
    # the 105 counts of ``player``'s splits against ``dist`` (side 0 the player's wins, side 1
    # the dealer's hands that do not lose); returns the number of hands in ``dist``
    cdef int64_t wins(self, const int* player, const int32_t* dist, int64_t* out,
                      int64_t* scratch, int side) noexcept nogil


# the cards the dealer's hands are made of, from the cards not in ``removed`` (see dealer.pyx)
cdef int cards_left(const int* removed, int n_removed, int* avail, int* availmask,
                    int64_t* rank_ways, int64_t* offsuit_ways) noexcept nogil


cdef inline void suit_ways(const int* avail, int ranks_in_suit, int64_t* ways) noexcept nogil:
    """One suit's off-suit ways: ways[r * 4 + k] = C(cards of rank r left outside the suit,
    k), given avail[r] cards of rank r left and the ranks left in the suit as a mask (entry 0
    is 1: an unused pair)."""
    cdef int r, k
    cdef const Tables* t = tables()
    for r in range(13):
        for k in range(4):
            ways[r * 4 + k] = t.binom[avail[r] - ((ranks_in_suit >> r) & 1)][k]
    ways[0] = 1


cdef inline void add_flushes(const uint8_t* sgo, const int32_t* sgt, Py_ssize_t n0,
                             Py_ssize_t n1, const int64_t* ways, int32_t* dist) noexcept nogil:
    """The single-flush corrections n0..n1-1 of one suit whose available ranks hold their
    flush set: each entry's count, the product of ``ways`` (the off-suit ways) over its
    (rank, count) bytes, added at its true triple and taken from its rank-only one."""
    cdef Py_ssize_t n
    cdef const uint8_t* o
    cdef int64_t cnt
    for n in range(n0, n1):            # no test for cnt == 0: adding 0 costs less than it
        o = sgo + 3 * n
        cnt = ways[o[0]] * ways[o[1]] * ways[o[2]]
        dist[sgt[2 * n]] += <int32_t>cnt
        dist[sgt[2 * n + 1]] -= <int32_t>cnt


# the same for the suits (two, three or all four) whose available ranks hold the flush set,
# each entry read once: its count is the sum of the suits' products (one function a number of
# suits, so that no loop over the suits runs inside the loop over the entries)
cdef inline void add_flushes2(const uint8_t* sgo, const int32_t* sgt, Py_ssize_t n0,
                              Py_ssize_t n1, const int64_t* w0, const int64_t* w1,
                              int32_t* dist) noexcept nogil:
    cdef Py_ssize_t n
    cdef const uint8_t* o
    cdef int64_t cnt
    for n in range(n0, n1):
        o = sgo + 3 * n
        cnt = w0[o[0]] * w0[o[1]] * w0[o[2]] + w1[o[0]] * w1[o[1]] * w1[o[2]]
        dist[sgt[2 * n]] += <int32_t>cnt
        dist[sgt[2 * n + 1]] -= <int32_t>cnt


cdef inline void add_flushes3(const uint8_t* sgo, const int32_t* sgt, Py_ssize_t n0,
                              Py_ssize_t n1, const int64_t* w0, const int64_t* w1,
                              const int64_t* w2, int32_t* dist) noexcept nogil:
    cdef Py_ssize_t n
    cdef const uint8_t* o
    cdef int64_t cnt
    for n in range(n0, n1):
        o = sgo + 3 * n
        cnt = (w0[o[0]] * w0[o[1]] * w0[o[2]] + w1[o[0]] * w1[o[1]] * w1[o[2]]
               + w2[o[0]] * w2[o[1]] * w2[o[2]])
        dist[sgt[2 * n]] += <int32_t>cnt
        dist[sgt[2 * n + 1]] -= <int32_t>cnt


cdef inline void add_flushes4(const uint8_t* sgo, const int32_t* sgt, Py_ssize_t n0,
                              Py_ssize_t n1, const int64_t** w, int32_t* dist) noexcept nogil:
    cdef Py_ssize_t n
    cdef const uint8_t* o
    cdef int64_t cnt
    cdef const int64_t* w0 = w[0]
    cdef const int64_t* w1 = w[1]
    cdef const int64_t* w2 = w[2]
    cdef const int64_t* w3 = w[3]
    for n in range(n0, n1):
        o = sgo + 3 * n
        cnt = (w0[o[0]] * w0[o[1]] * w0[o[2]] + w1[o[0]] * w1[o[1]] * w1[o[2]]
               + w2[o[0]] * w2[o[1]] * w2[o[2]] + w3[o[0]] * w3[o[1]] * w3[o[2]])
        dist[sgt[2 * n]] += <int32_t>cnt
        dist[sgt[2 * n + 1]] -= <int32_t>cnt


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
