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

cdef enum:
    NM = 91          # distinct medium (2-card) strengths
    NL = 13          # distinct low (1-card) strengths
    CELLS = 92 * 14  # (NM + 1) * (NL + 1): a (medium, low) grid with a zero row and column


cdef class DealerModel:
    cdef readonly int a234_low
    cdef readonly Py_ssize_t n_triples
    # the distinct dealer triples, sorted: high strength and (medium, low) cell, as
    # (medium index + 1) * (NL + 1) + low index + 1
    cdef int32_t[::1] tr_h
    cdef int16_t[::1] tr_cell
    # rank classes (no flush possible): up to 7 (rank, count) bytes as rank * 5 + count
    # (0 = none), whether the class holds the joker, and its triple
    cdef uint8_t[:, ::1] rk_pairs
    cdef uint8_t[::1] rk_joker
    cdef int32_t[::1] rk_tid
    # single-flush corrections (F-major): the flush suit's ranks F as a mask, the ranks any
    # entry names (F and O, for ``holding``), where each run of entries with one F (and joker
    # flag) starts, up to 3 off-suit (rank, count) bytes as rank * 4 + count, the joker flag,
    # and the triple to add (true) and the one to take away (rank-only)
    cdef uint16_t[::1] sg_f
    cdef uint16_t[::1] sg_ranks
    cdef int32_t[::1] sg_run
    cdef uint8_t[:, ::1] sg_o
    cdef uint8_t[::1] sg_joker
    cdef int32_t[:, ::1] sg_tid
    # two-flush corrections (3 + 3 + joker): the two suits' rank masks and four triples
    # (+true, -single1, -single2, +rank-only)
    cdef uint16_t[::1] db_f1
    cdef uint16_t[::1] db_f2
    cdef int32_t[:, ::1] db_tid
    # the distinct medium and low strengths, ascending
    cdef int32_t[::1] mvals
    cdef int32_t[::1] lvals
    # the two-flush corrections over the triples they touch only (for solve_groups): those
    # triples' high strengths and cells, each entry's four positions among them, and where
    # each run of entries with one F1 starts (entries come F1-major)
    cdef int32_t[::1] du_h
    cdef int16_t[::1] du_cell
    cdef int32_t[:, ::1] db_pos
    cdef int32_t[::1] db_run

    # add the dealer hands counted by rank alone
    cdef void rank_part(self, const int64_t* rank_ways, int dealer_joker,
                        int32_t* dist) noexcept nogil
    # dist[t] = dealer hands from the cards not in ``removed`` whose triple is t
    cdef void distribution(self, const int* removed, int n_removed, int32_t* dist) noexcept nogil
    # the 105 counts of ``player``'s splits against ``dist`` (side 0 the player's wins, side 1
    # the dealer's hands that do not lose); returns the number of hands in ``dist``
    cdef int64_t wins(self, const int* player, const int32_t* dist, int64_t* out,
                      int64_t* scratch, int side) noexcept nogil


# the cards the dealer's hands are made of, from the cards not in ``removed`` (see dealer.pyx)
cdef int cards_left(const int* removed, int n_removed, int* avail, int* availmask,
                    int64_t* rank_ways, int64_t* offsuit_ways) noexcept nogil


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
