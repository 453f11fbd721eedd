# The dealer model of one house way and rule set, and the exact count of a player hand's
# splits against every dealer hand.
#
# The dealer's (high, medium, low) strengths depend on its rank multiset alone unless a suit
# holds 4+ of its cards (3+ with the joker).  A DealerModel holds the triple of every rank
# class and the exact correction of every flush-capable class (suit s holds exactly the
# ranks F, the other cards have ranks O in the other suits), laid out by
# asiapoker._models.dealer_model_arrays.  For a player hand the dealer's hands are counted
# with binomials of the cards left (``distribution``) straight into the player's grid: a
# dealer triple matters to the 105 splits only through where each of its three strengths
# falls among the player's own distinct strengths (at most 35 highs, 21 mediums and 7 lows),
# so its count lands in one cell of at most 36 x 22 x 8 (``Grid``), and one 3D prefix sum
# over the grid gives every split's wins on two hands of three (``grid_wins``).
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t

from asiapoker._core.alloc cimport Taken
from asiapoker._core.strengths cimport Tables, tables

cdef enum:
    NM = 91          # distinct medium (2-card) strengths
    NL = 13          # distinct low (1-card) strengths
    CELLS = 92 * 14  # (NM + 1) * (NL + 1): a (medium, low) grid with a zero row and column
    CODE_SHIFT = 11  # a triple's code: its high strength's index << CODE_SHIFT | its (medium,
    CODE_ML = 2047   # low) index pair medium * NL + low (< 2048 = CODE_ML + 1)
    LOW_STRIDE = 8   # a grid's cells of one (high, medium) bucket pair: its low buckets (at
                     # most 7 thresholds + 1), padded with zeros (loops of a fixed length)
    GRID_CELLS = 36 * 22 * LOW_STRIDE   # the largest grid of one hand


cdef struct Grid:
    # Where a dealer triple lands for one player hand (or one group of hands): a threshold
    # list per hand of three (the player's distinct strengths, ascending; a split wins that
    # hand when the dealer's is below its threshold), and the bucket of a dealer strength =
    # the number of thresholds at or below it, so a split whose threshold is the i-th beats
    # exactly the dealer strengths of buckets 0..i.  Cell (bh, bm, bl) is at
    # (bh * nm + bm) * low_cells + bl; the cells of bl >= nl stay zero.  ``grid_prefix`` and
    # ``grid_count`` take grids of low_cells == LOW_STRIDE: every grid of one hand or one group.
    int nh, nm, nl               # buckets along each axis: thresholds + 1
    int low_cells                # cells of one (high, medium) bucket pair: LOW_STRIDE, or
                                 # nl when more (a grid of every dealer low, for tests)
    int size                     # nh * nm * low_cells
    int first_top                # the least dealer high index at or above every high
                                 # threshold (its bucket is the top one)
    int32_t* high_bucket         # [high index] the offset of that dealer high's bucket
    int32_t cell_bucket[NM * NL] # [medium * NL + low] the offset of its (medium, low) bucket


cdef struct Work:
    # One thread's space for counting hands into a grid (``work_alloc``, ``work_free``).
    Grid g
    int32_t* cells               # [cell] dealer hands (capacity cells)
    int32_t* pre                 # [cell] their prefix sums (int32 is exact: ``grid_prefix``)
    int32_t* sub                 # [rank class] its hands that are flush hands, taken out
    int32_t* other_ways          # [suits * n_others + o] off-suit ways of a flush entry's O,
                                 # summed over a set of suits (a 4-bit mask)
    int64_t* part_hands          # [part] hands of a rank part, a node of the parts' tree
                                 # (then the same without a card)
    int32_t* top                 # [medium * NL + low] hands in the top high bucket (zeros
                                 # between uses, as sub)
    Py_ssize_t capacity          # cells that cells and pre hold
    uint8_t fit_low[128]         # [F & 127] the suits (a 4-bit mask) whose ranks left hold
    uint8_t fit_high[64]         # those ranks of F; [F >> 7] the same: F fits the suits of
                                 # fit_low[F & 127] & fit_high[F >> 7] (``suit_fit``)
    Taken taken                  # the arrays above, as work_alloc took them


cdef class DealerModel:
    cdef readonly int a234_low                 # 1: A-2-3-4 is the lowest straight
    cdef readonly Py_ssize_t n_triples         # distinct dealer (high, medium, low) settings
    # The triples, sorted by high strength (index t is "triple t" below).
    cdef int32_t[::1] triple_high              # [t] its high hand's strength
    cdef int16_t[::1] triple_cell              # [t] (medium index + 1) * (NL + 1) + low index + 1
    cdef int32_t[::1] high_values              # the distinct high strengths, ascending
    cdef readonly Py_ssize_t n_high_values     # their number (the length of a Grid's high_bucket)
    cdef int32_t[::1] medium_values            # the NM distinct medium strengths, ascending
    cdef int32_t[::1] low_values               # the NL distinct low strengths, ascending
    # Rank classes: dealer hands no suit can make a flush of, counted by ranks alone; the
    # classes with the joker come last.
    cdef int32_t[::1] rank_triple              # [n] the class's triple
    cdef uint16_t[:, ::1] rank_true            # [n] its triple's high index, then its (medium,
                                               # low) index pair (CODE_ML): side by side
    cdef uint16_t[::1] rank_low                # [n] its part of ranks 2-8 (a node, below)
    cdef uint16_t[::1] rank_high               # [n] its part of ranks 9-A (a node)
    cdef uint16_t[::1] part_parent             # [p] the tree of the parts' (rank, count)
    cdef uint8_t[::1] part_pair                # prefixes: node p is its parent's pairs and
                                               # one more, rank * 5 + count (node 0: none;
                                               # parents first)
    cdef Py_ssize_t rank_joker_start           # the first class with the joker
    # Single-flush corrections: suit s holds exactly the ranks F, the other cards O lie in
    # the other suits; each entry moves its count from the rank-only triple to the true one.
    # The entries without the joker, then those with it; F-major; within a run of one F, by
    # true high strength, the strongest first.
    cdef uint16_t[::1] flush_ranks             # [n] F, a 13-bit rank mask
    cdef int32_t[::1] flush_runs               # starts of the runs of entries with one F and
                                               # joker flag, then the number of entries
    cdef Py_ssize_t run_joker_start            # the first run with the joker
    cdef int32_t[::1] run_least_high           # [run] the least high index of its true triples
                                               # (its last entry's true high, kept apart so
                                               # that add_runs reads one int a run)
    cdef uint16_t[:, ::1] flush_true           # [n] its true triple's high index (its rank
                                               # class's triple loses the count through
                                               # flush_class), then its (medium, low) index
                                               # pair (CODE_ML): side by side, one pointer
    cdef int32_t[::1] flush_class              # [n] its rank class (F + O, its joker flag)
    cdef uint16_t[::1] flush_oid               # [n] its O among other_pairs
    cdef uint8_t[:, ::1] other_pairs           # [o] the distinct O: up to 3 (rank, count) as
                                               # rank * 4 + count, 0 none
    # Two-flush corrections (3 + 3 + the joker), F1-major.
    cdef uint16_t[::1] double_ranks1           # [n] the first suit's ranks
    cdef uint16_t[::1] double_ranks2           # [n] the second suit's ranks
    cdef uint16_t[:, ::1] double_codes         # [n] the triples of (+true, -single1, -single2,
                                               # +rank-only), each as its high index and its
                                               # (medium, low) index pair (CODE_ML)
    cdef int32_t[::1] double_runs              # starts of the runs with one F1, then the count

    # add rank classes first..last-1 to w.cells: their hands by rank alone (less those
    # without a card, when ``less`` is not NULL) less w.sub, which goes back to zeros
    cdef void add_ranks(self, Py_ssize_t first, Py_ssize_t last, const int64_t* rank_ways,
                        const int64_t* less, Work* w) noexcept nogil
    # w.cells = the dealer hands from the cards not in ``removed``, by their cell of w.g
    cdef void distribution(self, const int* removed, int n_removed, Work* w) noexcept nogil
    # the same for all of them (card -1) or those that hold ``card``
    cdef void count_hands(self, const int* removed, int n_removed, int card,
                          Work* w) noexcept nogil
    # part_hands = the hands of each rank part (a node of the parts' tree)
    cdef void part_ways(self, const int64_t* rank_ways, int64_t* part_hands) noexcept nogil
    # the grid of ``player``'s seven cards (side 0 the player's wins, side 1 the dealer's
    # hands that do not lose) and each split's (high, medium, low) threshold index packed as
    # pack_at(high, medium, low), -1 for a foul
    cdef void hand_grid(self, const int* player, int side, Grid* g, int* at) noexcept nogil
    # g from threshold lists (high strengths; medium and low indices), each ascending, distinct
    cdef void build_grid(self, const int32_t* uh, int nh, const int32_t* um, int nm,
                         const int32_t* ul, int nl, Grid* g) noexcept nogil


# space for counting into grids of up to ``capacity`` cells (0, or -1 when memory is short:
# then w holds nothing to free)
cdef int work_alloc(DealerModel m, Work* w, Py_ssize_t capacity) noexcept nogil
cdef void work_free(Work* w) noexcept nogil


# the cards the dealer's hands are made of, from the cards not in ``removed`` (see dealer.pyx)
cdef int cards_left(const int* removed, int n_removed, int* avail, int* availmask,
                    int64_t* rank_ways, int64_t* offsuit_ways) noexcept nogil


cdef inline uint32_t cell_of(const Grid* g, const uint16_t* triple) noexcept nogil:
    """The cell of ``g`` a triple lands in: ``triple`` its high index, then its (medium, low)
    index pair (unsigned: an index that needs no sign extension)."""
    return <uint32_t>(g.high_bucket[triple[0]] + g.cell_bucket[triple[1]])


cdef extern from "grid.h":     # the grid's prefix sums, in C (SSE2 where there is one)
    void asiapoker_prefix8(int32_t* c, int32_t* q, Py_ssize_t nh, Py_ssize_t nm,
                           int clear) noexcept nogil


cdef inline int64_t grid_prefix(const Grid* g, int32_t* cells, int32_t* p, bint clear) noexcept nogil:
    """p = the inclusive 3D prefix sums of ``cells`` over ``g`` (LOW_STRIDE = 8 cells a row);
    returns the sum of them all.  With ``clear``, the cells are zeros after (the next count
    needs no clearing pass).  One pass (``asiapoker_prefix8``): a row's scan, the running sum
    of its plane, the plane before.

    Every value written, final or partial, is the sum of a box of cells.  Every grid the core
    counts into holds dealer hands (a box: some of at most C(46, 7) hands), or a correction
    that moves each of a set of distinct hands from one cell to another (a box: at most
    C(46, 7) in, or out), or the two-flush corrections of one pair of suits (+1 -1 -1 +1 for
    each of a set of distinct hands: at most 2 C(46, 7)).  So |every value| < 2^31: int32 is
    exact, and a row of 8 sums is two SSE2 registers."""
    asiapoker_prefix8(cells, p, g.nh, g.nm, clear)
    return p[g.size - 1]


cdef inline int32_t pack_at(int i, int j, int l) noexcept nogil:
    """A split's thresholds in the player's grid (its high, medium and low index), packed in
    one int32: i << 16 | j << 8 | l (each index below 256); -1 stands for a foul."""
    return i << 16 | j << 8 | l


cdef inline int64_t count_at(const Grid* g, const int32_t* p, int32_t at) noexcept nogil:
    """:func:`grid_count` of thresholds packed by :func:`pack_at`."""
    return grid_count(g, p, at >> 16, (at >> 8) & 255, at & 255)


cdef inline int64_t grid_count(const Grid* g, const int32_t* p, int i, int j, int l) noexcept nogil:
    """The dealer hands of prefix sums ``p`` that thresholds (i, j, l) beat on two hands of
    three: (high and medium) + (high and low) + (medium and low) - 2 (all three), in int64."""
    cdef int sm = LOW_STRIDE, sh = g.nm * LOW_STRIDE
    return (<int64_t>p[i * sh + j * sm + LOW_STRIDE - 1] + p[i * sh + (g.nm - 1) * sm + l]
            + <int64_t>p[(g.nh - 1) * sh + j * sm + l] - 2 * <int64_t>p[i * sh + j * sm + l])


cdef inline int64_t grid_wins(const Grid* g, int32_t* cells, const int* at, int64_t* out,
                              int32_t* p) noexcept nogil:
    """out[k] = the dealer hands of ``cells`` that split k beats on two hands of three (its
    thresholds ``at[k]``, from ``hand_grid``), 0 for a foul; ``p`` holds g.size int32.
    Returns the number of hands in ``cells``."""
    cdef int k, a
    cdef int64_t total = grid_prefix(g, cells, p, 0)
    for k in range(105):
        a = at[k]
        out[k] = 0 if a < 0 else count_at(g, p, a)
    return total
