# cython: language_level=3
"""The dealer model of one house way and rule set (its tables are described in dealer.pxd)
and the exact counts of every split of a player hand against every dealer hand, counted in
the player's grid."""

from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint16_t
from libc.string cimport memset

import numpy as np

from asiapoker._core.layout import MODEL_ARRAYS as _MODEL_ARRAYS
from asiapoker._core.layout import check_layout as _check_layout

from asiapoker._core.alloc cimport Taken, free_taken, start_taken, take
from asiapoker._core.cards cimport JOKER, NSPLITS, card_t, check_rows, load7
from asiapoker._core.strengths cimport Tables, seven_parts, tables

cdef const Tables* T = tables()

# The counting loops only this module runs (the grid's shared ones are in dealer.pxd).
cdef extern from "sysdep.h":     # the compilers' unrolling hint (ASIAPOKER_UNROLL8)
    pass


cdef extern from *:
    """
    /* add_runs's entries of the top high bucket, a..b-1: each one's ways (ways[oid]) to its
       (medium, low) pair's sum (top[true_triple[2n + 1]]) and to its rank class's
       (sub[rank_class]); eight
       a step where the compiler takes the hint (the loop's own count is an eighth) */
    static inline void asiapoker_top_entries(const int32_t* ways, const uint16_t* oid,
                                             const uint16_t* true_triple, const int32_t* rank_class,
                                             int32_t* top, int32_t* sub, Py_ssize_t a,
                                             Py_ssize_t b) {
        Py_ssize_t n;
    ASIAPOKER_UNROLL8
        for (n = a; n < b; n++) {
            int32_t cnt = ways[oid[n]];
            top[true_triple[2 * n + 1]] += cnt;
            sub[rank_class[n]] += cnt;
        }
    }
    /* add_ranks's rank classes a..b-1 (no card held): each one's hands by rank alone, the
       product of its two parts' ways, less its flush hands (sub, then zero), to its cell */
    static inline void asiapoker_rank_classes(const uint16_t* true_index, const uint16_t* low_part,
                                              const uint16_t* high_part, const int64_t* part_hands,
                                              const int32_t* high_bucket,
                                              const int32_t* cell_bucket, int32_t* cells,
                                              int32_t* sub, Py_ssize_t a, Py_ssize_t b) {
        Py_ssize_t n;
    ASIAPOKER_UNROLL8
        for (n = a; n < b; n++) {
            /* a cell offset is at least 0: as uint32_t it needs no sign extension */
            uint32_t cell = (uint32_t)(high_bucket[true_index[2 * n]]
                                       + cell_bucket[true_index[2 * n + 1]]);
            cells[cell] += (int32_t)(part_hands[low_part[n]] * part_hands[high_part[n]] - sub[n]);
            sub[n] = 0;
        }
    }
    /* the same for entries of one lower high bucket, whose cells are plane[cell_bucket[pair]] */
    static inline void asiapoker_plane_entries(const int32_t* ways, const uint16_t* oid,
                                               const uint16_t* true_triple,
                                               const int32_t* rank_class, int32_t* plane,
                                               const int32_t* cell_bucket, int32_t* sub,
                                               Py_ssize_t a, Py_ssize_t b) {
        Py_ssize_t n;
    ASIAPOKER_UNROLL8
        for (n = a; n < b; n++) {
            int32_t cnt = ways[oid[n]];
            plane[(uint32_t)cell_bucket[true_triple[2 * n + 1]]] += cnt;
            sub[rank_class[n]] += cnt;
        }
    }
    """
    void asiapoker_top_entries(const int32_t* ways, const uint16_t* oid,
                               const uint16_t* true_triple, const int32_t* rank_class, int32_t* top,
                               int32_t* sub, Py_ssize_t a, Py_ssize_t b) noexcept nogil
    void asiapoker_rank_classes(const uint16_t* true_index, const uint16_t* low_part,
                                const uint16_t* high_part, const int64_t* part_hands,
                                const int32_t* high_bucket, const int32_t* cell_bucket,
                                int32_t* cells, int32_t* sub, Py_ssize_t a,
                                Py_ssize_t b) noexcept nogil
    void asiapoker_plane_entries(const int32_t* ways, const uint16_t* oid,
                                 const uint16_t* true_triple, const int32_t* rank_class,
                                 int32_t* plane, const int32_t* cell_bucket, int32_t* sub,
                                 Py_ssize_t a, Py_ssize_t b) noexcept nogil


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


cdef inline void suit_fit(const int* availmask, int sc, int rc, Work* w) noexcept nogil:
    """w.fit_low and w.fit_high for the ranks left in each suit, ``availmask``: F
    fits suit s when the suit's ranks left hold F and, when ``sc`` is not -1 and s is ``sc``,
    F holds rank ``rc`` (a hand that holds card (rc, sc); that test lies in the half of F that
    holds rc, so the AND of the halves makes it)."""
    cdef int b, x, bit = (1 << sc) if sc >= 0 else 0
    cdef uint8_t fit[13]
    for b in range(13):
        fit[b] = (((availmask[0] >> b) & 1) | ((availmask[1] >> b) & 1) << 1
                  | ((availmask[2] >> b) & 1) << 2 | ((availmask[3] >> b) & 1) << 3)
    w.fit_low[0] = 15
    w.fit_high[0] = 15
    for b in range(7):                         # x's highest rank is b
        for x in range(1 << b, 2 << b):
            w.fit_low[x] = w.fit_low[x - (1 << b)] & fit[b]
    for b in range(6):
        for x in range(1 << b, 2 << b):
            w.fit_high[x] = w.fit_high[x - (1 << b)] & fit[7 + b]
    if sc >= 0 and rc < 7:
        for x in range(128):
            if not (x >> rc) & 1:
                w.fit_low[x] &= ~bit
    elif sc >= 0:
        for x in range(64):
            if not (x >> (rc - 7)) & 1:
                w.fit_high[x] &= ~bit


cdef inline void add_runs(DealerModel m, Py_ssize_t first, Py_ssize_t last, Work* w) noexcept nogil:
    """Add the single-flush entries of runs first..last-1: each entry's count (w.other_ways of
    the set of suits its F fits, w.fit_low and w.fit_high from ``suit_fit``: its O's off-suit ways
    summed over them) goes to its rank class's w.sub
    and to its true triple's cell of w.g.  The entries whose true high is at least every high
    threshold all land in the grid's top high bucket: they are summed in w.top by their
    (medium, low) pair, spread over the grid once at the end (and w.top back to zeros).  A
    run lists them first (strongest first), so one comparison a run finds where they end
    when they are all of it, a binary search when they are not."""
    cdef const int32_t* run = &m.flush_runs[0]
    cdef const uint16_t* flush_ranks = &m.flush_ranks[0]
    cdef const uint16_t* oid = &m.flush_oid[0]
    cdef const int32_t* least = &m.run_least_high[0]
    cdef const uint16_t* true_triple = &m.flush_true[0, 0]
    cdef const int32_t* rank_class = &m.flush_class[0]
    cdef const int32_t* high_bucket = w.g.high_bucket
    cdef const int32_t* cell_bucket = w.g.cell_bucket
    cdef const int32_t* ways
    cdef int32_t* cells = w.cells
    cdef int32_t* sub = w.sub
    cdef int32_t* top = w.top
    cdef Py_ssize_t r, n, n1, lo, hi, mid, end, n_others = m.other_pairs.shape[0]
    cdef int f, b, suits, first_top = w.g.first_top
    cdef int32_t cnt
    cdef const uint8_t* fit_low = w.fit_low
    cdef const uint8_t* fit_high = w.fit_high
    for r in range(first, last):
        f = flush_ranks[run[r]]
        suits = fit_low[f & 127] & fit_high[f >> 7]
        if suits == 0:
            continue
        ways = w.other_ways + suits * n_others
        n1 = run[r + 1]
        if least[r] >= first_top:
            lo = n1
        elif true_triple[2 * run[r]] < first_top:      # none in the top bucket
            lo = run[r]
        else:                                  # the first entry below the top bucket
            lo = run[r]
            hi = n1
            while lo < hi:
                mid = (lo + hi) >> 1
                if true_triple[2 * mid] >= first_top:
                    lo = mid + 1
                else:
                    hi = mid
        asiapoker_top_entries(ways, oid, true_triple, rank_class, top, sub, run[r], lo)
        while lo < n1:                         # the rest by runs of one high bucket
            b = high_bucket[true_triple[2 * lo]]
            if b == high_bucket[least[r]]:
                end = n1
            else:                              # the first entry of a lower bucket
                end = lo + 1
                hi = n1
                while end < hi:
                    mid = (end + hi) >> 1
                    if high_bucket[true_triple[2 * mid]] == b:
                        end = mid + 1
                    else:
                        hi = mid
            asiapoker_plane_entries(ways, oid, true_triple, rank_class, cells + b, cell_bucket,
                                    sub, lo, end)
            lo = end
    n = (w.g.nh - 1) * w.g.nm * w.g.low_cells         # the top high bucket's offset
    for r in range(NM * NL):
        cells[n + cell_bucket[r]] += top[r]
        top[r] = 0



if LOW_STRIDE != 8:        # asiapoker_prefix8 (dealer.pxd) takes rows of exactly 8 cells
    raise ImportError("asiapoker: LOW_STRIDE must be 8, the row of asiapoker_prefix8")

# [c * 256 + (a1 << 4 | a2)] the pairs of suits s < s2 with s in the mask a1 and s2 in a2,
# that hold suit c (c 0-3), or any (c 4): the pairs a two-flush entry counts in, its F1 and
# F2 fitting the suits a1 and a2 (``suit_fit``)
cdef uint8_t PAIRS[5 * 256]
for _c in range(5):
    for _a in range(256):
        PAIRS[_c * 256 + _a] = sum(1 for _s in range(4) for _s2 in range(_s + 1, 4)
                                   if (_a >> (4 + _s)) & (_a >> _s2) & 1
                                   and (_c == 4 or _c in (_s, _s2)))
del _c, _a

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
            rank_ways[r * 5 + k] = T.binom[avail[r]][k]
    rank_ways[0] = 1
    for s in range(4):
        suit_ways(avail, availmask[s], offsuit_ways + 52 * s)
    return dealer_joker


cdef class DealerModel:
    """Class tables of one house way and rule set (built by
    :func:`asiapoker._models.build_dealer_model`)."""

    def __init__(self, int a234_low, **arrays):
        _check_layout(arrays)
        (triple_high, triple_medium, triple_low, rank_pairs, rank_joker, rank_triple,
         flush_ranks, flush_others, flush_joker, flush_triples, flush_class, double_ranks1,
         double_ranks2, double_triples, medium_values, low_values) = (
            arrays[k] for k in _MODEL_ARRAYS)
        if (len(flush_class) and (flush_class.min() < 0 or flush_class.max() >= len(rank_pairs))
                or len(rank_triple) and (rank_triple.min() < 0
                                         or rank_triple.max() >= len(triple_high))):
            raise ValueError("asiapoker: a dealer model indexes outside its arrays")
        self.a234_low = a234_low
        self.n_triples = len(triple_high)
        self.triple_high = triple_high
        self.triple_cell = ((np.asarray(triple_medium, dtype=np.int16) + 1) * (NL + 1)
                            + np.asarray(triple_low, dtype=np.int16) + 1).astype(np.int16)
        rj = np.asarray(rank_joker) != 0
        fj = np.asarray(flush_joker) != 0
        if (np.diff(rj.astype(np.int8)) < 0).any() or (np.diff(fj.astype(np.int8)) < 0).any():
            raise ValueError("asiapoker: a dealer model lists the classes with the joker last")
        th = np.asarray(triple_high, dtype=np.int32)
        if (np.diff(th) < 0).any():
            raise ValueError("asiapoker: a dealer model's triples are not sorted by high strength")
        self.high_values = th[np.r_[True, th[1:] != th[:len(th) - 1]]] if len(th) else th
        self.n_high_values = len(self.high_values)
        if self.n_high_values >= 1 << 16:     # a high index is a uint16 (flush_true)
            raise ValueError("asiapoker: a dealer model has too many distinct high strengths")
        # th ascends: a triple's high index counts the changes of strength before it
        high_index = np.cumsum(np.r_[False, th[1:] != th[:len(th) - 1]], dtype=np.int32)
        code = ((high_index << CODE_SHIFT)
                | (np.asarray(triple_medium, dtype=np.int32) * NL
                   + np.asarray(triple_low, dtype=np.int32)))
        self.rank_triple = rank_triple
        rank_code = code[np.asarray(rank_triple, dtype=np.intp)]
        self.rank_true = np.ascontiguousarray(np.stack(
            [rank_code >> CODE_SHIFT, rank_code & CODE_ML], axis=1).astype(np.uint16))
        self.rank_joker_start = len(rj) - np.count_nonzero(rj)
        # a class's hands by rank alone: the product of C(cards of rank r left, count) over
        # its (rank, count) pairs, as the ways of its ranks 2-8 (a part) times those of its
        # ranks 9-A.  The parts and every prefix of their pairs are nodes of one tree (node
        # 0: no pair), each node a pair more than its parent, parents first: a node's ways
        # are its parent's times one factor (``part_ways``)
        rp = np.asarray(rank_pairs, dtype=np.uint8).reshape(-1, 7)
        high_rank = rp // 5 >= 7
        node_of = {(): 0}
        parent = [0]
        pair = [0]
        part_ids = []
        for keep in (~high_rank, high_rank):
            packed = (np.where(keep, rp, 0).astype(np.int64) << (7 * np.arange(7))).sum(axis=1)
            distinct, ids = np.unique(packed, return_inverse=True)   # bytes < 65: 7 bits
            node = np.empty(len(distinct), dtype=np.int64)
            for i, key in enumerate(distinct.tolist()):
                pairs = tuple(b for b in ((key >> (7 * j)) & 127 for j in range(7)) if b)
                for k in range(1, len(pairs) + 1):
                    if pairs[:k] not in node_of:
                        node_of[pairs[:k]] = len(parent)
                        parent.append(node_of[pairs[:k - 1]])
                        pair.append(pairs[k - 1])
                node[i] = node_of[pairs]
            part_ids.append(node[ids.reshape(-1)])
        if len(parent) >= 1 << 16:
            raise ValueError("asiapoker: a dealer model has too many rank parts")
        self.part_parent = np.asarray(parent, dtype=np.uint16)
        self.part_pair = np.asarray(pair, dtype=np.uint8)
        self.rank_low = part_ids[0].astype(np.uint16)
        self.rank_high = part_ids[1].astype(np.uint16)
        # the flush entries as the builder lays them out: without the joker, then with it;
        # F-major; within each run of one F, by true high strength, the strongest first
        # (``add_runs``)
        fr = np.asarray(flush_ranks, dtype=np.uint16)
        true_code = code[flush_triples[:, 0]]
        key = ((fj.astype(np.int64) << 40) | (fr.astype(np.int64) << 21)
               | ((1 << 20) - (true_code >> CODE_SHIFT)))
        if (np.diff(key) < 0).any():
            raise ValueError("asiapoker: a dealer model's flush entries are not in the "
                             "builder's order")
        if not np.array_equal(rank_triple[flush_class], flush_triples[:, 1]):
            raise ValueError("asiapoker: a flush entry's rank triple is not its rank class's")
        self.flush_ranks = fr
        self.flush_true = np.ascontiguousarray(np.stack(
            [true_code >> CODE_SHIFT, true_code & CODE_ML], axis=1).astype(np.uint16))
        self.flush_class = flush_class
        key = fr.astype(np.int64) * 2 + fj
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:len(key) - 1]]) if len(key) else []
        self.flush_runs = np.r_[starts, len(key)].astype(np.int32)
        self.run_joker_start = np.count_nonzero(~fj[starts]) if len(key) else 0
        self.run_least_high = np.ascontiguousarray(
            true_code[np.r_[starts, len(key)][1:] - 1] >> CODE_SHIFT, dtype=np.int32)
        # the distinct O (bytes < 52: 6 bits each), numbered in order
        o = flush_others
        packed = o[:, 0].astype(np.int32) | (o[:, 1].astype(np.int32) << 6) | (
            o[:, 2].astype(np.int32) << 12)
        seen = np.zeros(1 << 18, dtype=np.int32)
        seen[packed] = 1
        distinct = np.flatnonzero(seen).astype(np.int32)
        if len(distinct) >= 1 << 16:
            raise ValueError("asiapoker: a dealer model has too many distinct off-suit parts")
        seen[distinct] = np.arange(len(distinct), dtype=np.int32)
        self.flush_oid = seen[packed].astype(np.uint16)
        self.other_pairs = np.ascontiguousarray(np.stack(
            [distinct & 63, (distinct >> 6) & 63, distinct >> 12], axis=1).astype(np.uint8))
        self.double_ranks1 = double_ranks1
        self.double_ranks2 = double_ranks2
        dc = code[np.asarray(double_triples, dtype=np.intp)].reshape(-1, 4)
        self.double_codes = np.ascontiguousarray(np.stack(
            [dc >> CODE_SHIFT, dc & CODE_ML], axis=2).reshape(-1, 8).astype(np.uint16))
        self.medium_values = medium_values
        self.low_values = low_values
        f1 = np.asarray(double_ranks1)
        self.double_runs = np.flatnonzero(
            np.r_[True, f1[1:] != f1[:len(f1) - 1], True]).astype(np.int32)

    @property
    def sizes(self):
        """(rank classes, single-flush corrections, double-flush corrections, triples)."""
        return (self.rank_triple.shape[0], self.flush_ranks.shape[0],
                self.double_ranks1.shape[0], self.n_triples)

    cdef void add_ranks(self, Py_ssize_t first, Py_ssize_t last, const int64_t* rank_ways,
                        const int64_t* less, Work* w) noexcept nogil:
        """Add rank classes first..last-1 to their cells of w.g: each class's hands by rank
        alone (the product of its ranks 2..8's ways and its ranks 9..A's, each from a table of
        the distinct such parts, w.part_hands), less the same from ``less`` (the ways without
        a card) when it is not NULL, less w.sub[class] (its flush hands), which goes back to
        zero."""
        cdef Py_ssize_t n, nparts = self.part_parent.shape[0]
        cdef const uint16_t* true_index = &self.rank_true[0, 0]
        cdef const uint16_t* low_part = &self.rank_low[0]
        cdef const uint16_t* high_part = &self.rank_high[0]
        cdef const int32_t* high_bucket = w.g.high_bucket
        cdef const int32_t* cell_bucket = w.g.cell_bucket
        cdef const int64_t* part_hands = w.part_hands
        cdef const int64_t* part_hands_without = w.part_hands + nparts
        cdef int32_t* cells = w.cells
        cdef int32_t* sub = w.sub
        self.part_ways(rank_ways, w.part_hands)
        if less != NULL:
            self.part_ways(less, w.part_hands + nparts)
            for n in range(first, last):
                cells[high_bucket[true_index[2 * n]] + cell_bucket[true_index[2 * n + 1]]] += (
                    <int32_t>(part_hands[low_part[n]] * part_hands[high_part[n]]
                              - part_hands_without[low_part[n]] * part_hands_without[high_part[n]]
                              - sub[n]))
                sub[n] = 0
        else:
            asiapoker_rank_classes(true_index, low_part, high_part, part_hands, high_bucket,
                                   cell_bucket, cells, sub, first, last)

    cdef void distribution(self, const int* removed, int n_removed, Work* w) noexcept nogil:
        """w.cells[c] = number of dealer hands from the cards not in ``removed`` (the player's
        seven, and any dead cards: distinct ids) whose triple lands in cell c of w.g."""
        self.count_hands(removed, n_removed, -1, w)

    cdef void count_hands(self, const int* removed, int n_removed, int card,
                          Work* w) noexcept nogil:
        """w.cells[c] = number of dealer hands from the cards not in ``removed`` whose triple
        lands in cell c of w.g: all of them (``card`` -1), or those that hold ``card`` (not in
        ``removed``): the hands from the cards left less those from the cards left but
        ``card``.  Removing card (rank rc, suit sc) changes only the ways of rank rc and suit
        sc's available ranks; holding the joker is the joker's classes and entries alone.

        A flush entry adds its count at its true triple's cell and to its rank class's
        ``sub``; each rank class then adds its hands by rank alone less ``sub`` (at most
        C(46, 7) a cell and a class, and every partial sum below 2 * C(46, 7): int32 is
        exact)."""
        cdef int avail[13]
        cdef int availmask[4]
        cdef int64_t rank_ways[65]
        cdef int64_t rank_ways2[65]             # with ``card`` removed too
        cdef int64_t offsuit_ways[4 * 52]
        cdef int64_t offsuit_ways2[4 * 52]
        cdef int s, dealer_joker, k, f, rc = -1, sc = -1
        cdef const uint8_t* pairs
        cdef const uint8_t* q
        cdef bint joker = card == JOKER, less = card >= 0 and card != JOKER
        cdef Py_ssize_t n, n0, r, first, last, first_run, last_run
        cdef const Grid* g = &w.g
        cdef int32_t* cells = w.cells
        cdef Py_ssize_t n_others = self.other_pairs.shape[0]
        cdef Py_ssize_t ndouble = self.double_ranks1.shape[0]
        cdef Py_ssize_t ndrun = self.double_runs.shape[0] - 1
        cdef const int32_t* drun = &self.double_runs[0]
        cdef const uint16_t* double_ranks1 = &self.double_ranks1[0] if ndouble else NULL
        cdef const uint16_t* dr2 = &self.double_ranks2[0] if ndouble else NULL
        cdef const uint16_t* double_codes = &self.double_codes[0, 0] if ndouble else NULL
        cdef const uint8_t* others = &self.other_pairs[0, 0]
        cdef const uint8_t* o
        cdef const int64_t* ways
        cdef const int64_t* ways2
        cdef int32_t* other_ways
        cdef const int32_t* other_ways1
        cdef const int32_t* other_ways2
        dealer_joker = cards_left(removed, n_removed, avail, availmask, rank_ways, offsuit_ways)
        memset(cells, 0, g.size * sizeof(int32_t))
        if less:
            rc = card >> 2
            sc = card & 3
            for k in range(65):
                rank_ways2[k] = rank_ways[k]
            for k in range(1, 5):
                rank_ways2[rc * 5 + k] = T.binom[avail[rc] - 1][k]
            avail[rc] -= 1
            for s in range(4):
                suit_ways(avail, availmask[s], offsuit_ways2 + 52 * s)
            avail[rc] += 1
        # the classes and entries with the joker count only when the dealer can hold it, and
        # alone when he holds it
        first = self.rank_joker_start if joker else 0
        last = self.rank_triple.shape[0] if dealer_joker else self.rank_joker_start
        first_run = self.run_joker_start if joker else 0
        last_run = self.flush_runs.shape[0] - 1 if dealer_joker else self.run_joker_start
        # the off-suit ways of every distinct O, in each suit (w.other_ways row 1 << s), then summed
        # over each set of two or more suits (row: the set as a mask); holding ``card``, those
        # ways less the same without it (suit sc: a hand whose flush set holds the card holds
        # it, add_runs counts suit sc for no other)
        for s in range(4):
            ways = offsuit_ways + 52 * s
            ways2 = offsuit_ways2 + 52 * s
            other_ways = w.other_ways + (1 << s) * n_others
            for n in range(n_others):
                o = others + 3 * n
                other_ways[n] = <int32_t>(ways[o[0]] * ways[o[1]] * ways[o[2]])
                if less and s != sc:
                    other_ways[n] -= <int32_t>(ways2[o[0]] * ways2[o[1]] * ways2[o[2]])
        for k in range(3, 16):
            if k & (k - 1):
                other_ways = w.other_ways + k * n_others
                other_ways1 = w.other_ways + (k & (k - 1)) * n_others
                other_ways2 = w.other_ways + (k & -k) * n_others
                for n in range(n_others):
                    other_ways[n] = other_ways1[n] + other_ways2[n]
        # the single-flush entries (holding ``card``: an F in suit sc holds rank rc)
        suit_fit(availmask, sc, rc, w)
        add_runs(self, first_run, last_run, w)
        # the rank classes, less their flush hands
        self.add_ranks(first, last, rank_ways, rank_ways2 if less else NULL, w)
        if not (dealer_joker and ndouble):
            return
        # the two-flush entries, each once with the number of pairs of suits it counts in
        # (holding ``card``: the pairs with suit sc, whose F holds rank rc)
        pairs = &PAIRS[256 * (sc if less else 4)]
        for r in range(ndrun):                     # runs of entries with one F1
            n0 = drun[r]
            f = double_ranks1[n0]
            q = pairs + ((w.fit_low[f & 127] & w.fit_high[f >> 7]) << 4)
            for n in range(n0, drun[r + 1]):
                f = dr2[n]
                k = q[w.fit_low[f & 127] & w.fit_high[f >> 7]]
                if k:
                    cells[cell_of(g, double_codes + 8 * n)] += k
                    cells[cell_of(g, double_codes + 8 * n + 2)] -= k
                    cells[cell_of(g, double_codes + 8 * n + 4)] -= k
                    cells[cell_of(g, double_codes + 8 * n + 6)] += k

    cdef void part_ways(self, const int64_t* rank_ways, int64_t* part_hands) noexcept nogil:
        """part_hands[p] = the hands of rank part p (a node of the parts' tree: its parent's hands
        times C(cards of its rank left, its count)), given rank_ways[r * 5 + k] = C(cards of
        rank r left, k)."""
        cdef Py_ssize_t n
        cdef const uint16_t* par = &self.part_parent[0]
        cdef const uint8_t* pr = &self.part_pair[0]
        part_hands[0] = 1
        for n in range(1, self.part_parent.shape[0]):
            part_hands[n] = part_hands[par[n]] * rank_ways[pr[n]]

    cdef void build_grid(self, const int32_t* uh, int nh, const int32_t* um, int nm,
                         const int32_t* ul, int nl, Grid* g) noexcept nogil:
        """``g`` from the thresholds: ``uh`` high strengths, ``um`` medium indices (among
        ``medium_values``) and ``ul`` low indices, each ascending and distinct.  g.high_bucket must
        hold ``n_high_values`` entries."""
        cdef int j = 0, d, x, sm = LOW_STRIDE if nl < LOW_STRIDE else nl + 1
        cdef int sh = (nm + 1) * sm
        cdef int mb[NM]
        cdef int lb[NL]
        cdef Py_ssize_t t
        cdef const int32_t* hv = &self.high_values[0]
        for t in range(self.n_high_values):       # one merge over the dealer's high strengths
            while j < nh and uh[j] <= hv[t]:
                j += 1
            g.high_bucket[t] = j * sh
        j = 0
        for d in range(NM):
            while j < nm and um[j] <= d:
                j += 1
            mb[d] = j * sm
        j = 0
        for d in range(NL):
            while j < nl and ul[j] <= d:
                j += 1
            lb[d] = j
        for d in range(NM):
            for x in range(NL):
                g.cell_bucket[d * NL + x] = mb[d] + lb[x]
        g.first_top = find(hv, self.n_high_values, uh[nh - 1]) if nh else 0
        g.nh = nh + 1
        g.nm = nm + 1
        g.nl = nl + 1
        g.low_cells = sm
        g.size = g.nh * g.nm * sm

    cdef void hand_grid(self, const int* player, int side, Grid* g, int* at) noexcept nogil:
        """The grid of ``player``'s seven cards and each split's thresholds ``at`` (see
        dealer.pxd).  "Opponent <= x" is "opponent < x + 1" on the integer scale: side 1
        shifts every threshold by one and leaves the legality test on the true strengths."""
        cdef int32_t high35[35]
        cdef int32_t medium21[21]
        cdef int32_t low7[7]
        cdef int32_t uh[35]
        cdef int32_t um[21]
        cdef int32_t ul[7]
        cdef int hpos[35]
        cdef int mpos[21]
        cdef int lpos[7]
        cdef int nh, nm, nl, k, q
        cdef int32_t h, m, l
        side = side != 0
        seven_parts(player, self.a234_low, high35, medium21, low7)
        for q in range(35):
            uh[q] = high35[q] + side
        nh = sort_distinct(uh, 35)
        for q in range(35):
            hpos[q] = find(uh, nh, high35[q] + side)
        for q in range(21):
            um[q] = find(&self.medium_values[0], NM, medium21[q] + side)
        for q in range(7):
            ul[q] = find(&self.low_values[0], NL, low7[q] + side)
        for q in range(21):
            mpos[q] = um[q]
        for q in range(7):
            lpos[q] = ul[q]
        nm = sort_distinct(um, 21)
        nl = sort_distinct(ul, 7)
        for q in range(21):
            mpos[q] = find(um, nm, mpos[q])
        for q in range(7):
            lpos[q] = find(ul, nl, lpos[q])
        self.build_grid(uh, nh, um, nm, ul, nl, g)
        for k in range(NSPLITS):
            h = high35[T.split_high[k]]
            m = medium21[T.split_medium[k]]
            l = low7[T.split_low[k]]
            if h > m and m > l:
                at[k] = pack_at(hpos[T.split_high[k]], mpos[T.split_medium[k]],
                                lpos[T.split_low[k]])
            else:
                at[k] = -1

    def solve_rows(self, const card_t[:, ::1] hands, int64_t[:, ::1] out, int64_t[::1] totals,
                   int side=0):
        """Counts of all 105 splits for each row, and each row's total of opposing hands;
        releases the GIL.  Side 0: out[i, k] = opposing hands that split k of row i beats
        strictly on two hands of three (the player's count).  Side 1 (or any other non-zero):
        opposing hands that beat split k on at most one hand, copies going to split k (the
        dealer's count: the hands it does not lose to).  0 for a foul.  Returns the first bad
        row or -1."""
        cdef Py_ssize_t i, bad
        cdef int c[7]
        cdef int at[NSPLITS]
        cdef Work w
        if (hands.shape[1] != 7 or out.shape[0] != hands.shape[0] or out.shape[1] != NSPLITS
                or totals.shape[0] != hands.shape[0]):
            raise ValueError("asiapoker: solve_rows needs n x 7 rows, n x 105 counts and n "
                             "totals")
        with nogil:
            bad = check_rows(hands)
            if bad < 0 and work_alloc(self, &w, GRID_CELLS) < 0:
                bad = -2
            if bad == -1:
                for i in range(hands.shape[0]):
                    load7(&hands[i, 0], c)
                    self.hand_grid(c, side, &w.g, at)
                    self.distribution(c, 7, &w)
                    totals[i] = grid_wins(&w.g, w.cells, at, &out[i, 0], w.pre)
                work_free(&w)
        if bad == -2:
            raise MemoryError("asiapoker: no memory for the dealer distribution")
        return bad


cdef int sort_distinct(int32_t* a, int n) noexcept nogil:
    """Sort a[:n] ascending and keep each value once; returns how many are kept."""
    cdef int i, j, k = 0
    cdef int32_t t
    for i in range(1, n):
        t = a[i]
        j = i - 1
        while j >= 0 and a[j] > t:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = t
    for i in range(n):
        if k == 0 or a[i] != a[k - 1]:
            a[k] = a[i]
            k += 1
    return k


cdef int find(const int32_t* a, int n, int32_t x) noexcept nogil:
    """The number of a[:n] (ascending) below x: x's position when a holds it."""
    cdef int lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef int work_alloc(DealerModel m, Work* w, Py_ssize_t capacity) noexcept nogil:
    """Space for counting into grids of up to ``capacity`` cells: 0, or -1 (nothing held)."""
    cdef Taken* t = &w.taken
    start_taken(t)
    w.capacity = capacity
    w.g.high_bucket = <int32_t*>take(t, (m.n_high_values + 1) * sizeof(int32_t), 0)
    w.cells = <int32_t*>take(t, capacity * sizeof(int32_t), 0)
    w.pre = <int32_t*>take(t, capacity * sizeof(int32_t), 0)
    w.sub = <int32_t*>take(t, (m.rank_triple.shape[0] + 1) * sizeof(int32_t), 1)   # zeros
    w.top = <int32_t*>take(t, NM * NL * sizeof(int32_t), 1)            # between uses, both
    w.other_ways = <int32_t*>take(t, (16 * m.other_pairs.shape[0] + 1) * sizeof(int32_t), 0)
    w.part_hands = <int64_t*>take(t, (2 * m.part_parent.shape[0] + 1) * sizeof(int64_t), 0)
    if t.failed:
        free_taken(t)
        return -1
    return 0


cdef void work_free(Work* w) noexcept nogil:
    """Free what ``work_alloc`` took (freeing again does nothing)."""
    free_taken(&w.taken)
