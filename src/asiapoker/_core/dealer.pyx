# cython: language_level=3
"""The dealer model of one house way and rule set (its tables are described in dealer.pxd)
and the exact counts of every split of a player hand against every dealer hand."""

from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint16_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

import numpy as np

from asiapoker._core.cards cimport JOKER, NSPLITS, card_t, check_rows, load7
from asiapoker._core.strengths cimport Tables, seven_parts, tables

cdef const Tables* T = tables()

#: The arrays DealerModel is made of, in the order its constructor takes them.
MODEL_ARRAYS = ("triple_high", "triple_medium", "triple_low", "rank_pairs", "rank_joker",
                "rank_triple", "flush_ranks", "flush_others", "flush_joker", "flush_triples",
                "double_ranks1", "double_ranks2", "double_triples", "medium_values", "low_values")


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

    def __init__(self, int a234_low, triple_high, triple_medium, triple_low, rank_pairs,
                 rank_joker, rank_triple, flush_ranks, flush_others, flush_joker, flush_triples,
                 double_ranks1, double_ranks2, double_triples, medium_values, low_values):
        self.a234_low = a234_low
        self.n_triples = len(triple_high)
        self.triple_high = triple_high
        self.triple_cell = ((np.asarray(triple_medium, dtype=np.int16) + 1) * (NL + 1)
                            + np.asarray(triple_low, dtype=np.int16) + 1).astype(np.int16)
        rj = np.asarray(rank_joker) != 0
        fj = np.asarray(flush_joker) != 0
        if (np.diff(rj.astype(np.int8)) < 0).any() or (np.diff(fj.astype(np.int8)) < 0).any():
            raise ValueError("asiapoker: a dealer model lists the classes with the joker last")
        self.rank_pairs = rank_pairs
        self.rank_triple = rank_triple
        self.rank_joker_start = len(rj) - np.count_nonzero(rj)
        self.flush_ranks = flush_ranks
        o = np.asarray(flush_others, dtype=np.uint16).reshape(-1, 3)
        self.flush_named_ranks = (np.asarray(flush_ranks, dtype=np.uint16) | np.bitwise_or.reduce(
            np.where(o != 0, np.left_shift(1, o >> 2), 0), axis=1)).astype(np.uint16)
        key = np.asarray(flush_ranks, dtype=np.int64) * 2 + fj
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:len(key) - 1]]) if len(key) else []
        self.flush_runs = np.r_[starts, len(key)].astype(np.int32)
        self.run_joker_start = np.count_nonzero(~fj[starts]) if len(key) else 0
        self.flush_others = flush_others
        self.flush_triples = flush_triples
        self.double_ranks1 = double_ranks1
        self.double_ranks2 = double_ranks2
        self.double_triples = double_triples
        self.medium_values = medium_values
        self.low_values = low_values
        tids = np.asarray(double_triples, dtype=np.int32).reshape(-1, 4)
        used = np.unique(tids)
        self.double_high = np.ascontiguousarray(np.asarray(triple_high, dtype=np.int32)[used])
        self.double_cell = np.ascontiguousarray(np.asarray(self.triple_cell)[used])
        self.double_positions = np.searchsorted(used, tids).astype(np.int32).reshape(-1, 4)
        f1 = np.asarray(double_ranks1)
        self.double_runs = np.flatnonzero(
            np.r_[True, f1[1:] != f1[:len(f1) - 1], True]).astype(np.int32)

    @property
    def sizes(self):
        """(rank classes, single-flush corrections, double-flush corrections, triples)."""
        return (self.rank_triple.shape[0], self.flush_ranks.shape[0],
                self.double_ranks1.shape[0], self.n_triples)

    cdef void rank_part(self, const int64_t* rank_ways, Py_ssize_t first, Py_ssize_t last,
                        int32_t* dist) noexcept nogil:
        """Add the dealer hands of rank classes first..last-1, counted by rank alone: for each
        class, the product of rank_ways[r * 5 + k] = C(cards of rank r left, k) over its
        (rank, count) pairs.  The classes with the joker are rank_joker_start and after."""
        cdef Py_ssize_t n
        cdef const uint8_t* rk = &self.rank_pairs[0, 0]
        cdef const int32_t* rkt = &self.rank_triple[0]
        cdef const uint8_t* o
        for n in range(first, last):
            o = rk + 7 * n
            dist[rkt[n]] += <int32_t>(rank_ways[o[0]] * rank_ways[o[1]] * rank_ways[o[2]]
                                      * rank_ways[o[3]] * rank_ways[o[4]] * rank_ways[o[5]]
                                      * rank_ways[o[6]])

    cdef void flush_part(self, const int* availmask, const int64_t* offsuit_ways,
                         Py_ssize_t first_run, Py_ssize_t last_run, int32_t* dist) noexcept nogil:
        """Add the single-flush corrections of runs first_run..last_run-1 (the runs with the
        joker are run_joker_start and after), given the ranks left in each suit and each
        suit's off-suit ways (``cards_left``).  The suits whose available ranks hold a run's
        flush set F are found once a run, and each entry is read once for all of them: its
        triples are the same in every suit, only the off-suit ways differ."""
        cdef const int32_t* run = &self.flush_runs[0]
        cdef const uint16_t* sgf = &self.flush_ranks[0]
        cdef const uint8_t* sgo = &self.flush_others[0, 0]
        cdef const int32_t* sgt = &self.flush_triples[0, 0]
        cdef const int64_t* ways[4]            # the off-suit ways of the suits a run counts in
        cdef Py_ssize_t r, n0, n1
        cdef int s, k, f
        for r in range(first_run, last_run):
            n0 = run[r]
            n1 = run[r + 1]
            f = sgf[n0]
            k = 0
            for s in range(4):
                if not f & ~availmask[s]:
                    ways[k] = offsuit_ways + 52 * s
                    k += 1
            if k == 1:
                add_flushes(sgo, sgt, n0, n1, ways[0], dist)
            elif k == 2:
                add_flushes2(sgo, sgt, n0, n1, ways[0], ways[1], dist)
            elif k == 3:
                add_flushes3(sgo, sgt, n0, n1, ways[0], ways[1], ways[2], dist)
            elif k == 4:
                add_flushes4(sgo, sgt, n0, n1, ways, dist)

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
        cdef Py_ssize_t n, n0, r
        cdef Py_ssize_t ndouble = self.double_ranks1.shape[0]
        cdef Py_ssize_t ndrun = self.double_runs.shape[0] - 1
        cdef const int32_t* drun = &self.double_runs[0]
        cdef const uint16_t* dr1 = &self.double_ranks1[0] if ndouble else NULL
        cdef const uint16_t* dr2 = &self.double_ranks2[0] if ndouble else NULL
        cdef const int32_t* dtr = &self.double_triples[0, 0] if ndouble else NULL
        dealer_joker = cards_left(removed, n_removed, avail, availmask, rank_ways, offsuit_ways)
        memset(dist, 0, self.n_triples * sizeof(int32_t))
        # the classes and entries with the joker count only when the player does not hold it
        self.rank_part(rank_ways, 0, self.rank_triple.shape[0] if dealer_joker
                       else self.rank_joker_start, dist)
        self.flush_part(availmask, offsuit_ways, 0, self.flush_runs.shape[0] - 1 if dealer_joker
                        else self.run_joker_start, dist)
        if dealer_joker and ndouble:
            for s in range(4):
                for s2 in range(s + 1, 4):
                    for r in range(ndrun):             # runs of entries with one F1
                        n0 = drun[r]
                        if dr1[n0] & ~availmask[s]:
                            continue
                        for n in range(n0, drun[r + 1]):
                            if dr2[n] & ~availmask[s2]:
                                continue
                            dist[dtr[4 * n]] += 1
                            dist[dtr[4 * n + 1]] -= 1
                            dist[dtr[4 * n + 2]] -= 1
                            dist[dtr[4 * n + 3]] += 1

    cdef int64_t wins(self, const int* player, const int32_t* dist, int64_t* out,
                      int64_t* scratch, int side) noexcept nogil:
        """side 0: out[k] = opposing hands that split k of ``player`` beats strictly on two
        hands of three (the player's count).  side 1 (or any other non-zero): opposing hands
        that beat split k on at most one hand, copies going to split k (the dealer's count:
        the hands it does not lose to).  0 for a foul.  ``scratch`` holds 36 * CELLS int64.
        Returns the number of opposing hands in ``dist`` (the sweep's sum of all of them)."""
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
        cdef const int32_t* th = &self.triple_high[0]
        cdef const int16_t* cell = &self.triple_cell[0]
        side = side != 0
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
                m = medium21[T.split_medium[k]]
                l = low7[T.split_low[k]]
                if not (h > m and m > l):
                    out[k] = 0
                    continue
                mi = 0
                while mi < NM and self.medium_values[mi] < m + side:
                    mi += 1
                li = 0
                while li < NL and self.low_values[li] < l + side:
                    li += 1
                # prefix[x][y] = dealer hands with medium index < x and low index < y
                out[k] = (below_high[mi * (NL + 1) + NL] + below_high[NM * (NL + 1) + li]
                          + all_high[mi * (NL + 1) + li] - 2 * below_high[mi * (NL + 1) + li])
        return all_high[NM * (NL + 1) + NL]          # every cell: every hand of ``dist``

    def solve_rows(self, const card_t[:, ::1] hands, int64_t[:, ::1] out, int64_t[::1] totals,
                   int side=0):
        """Counts of all 105 splits for each row (see ``wins`` for ``side``), and each row's
        total of opposing hands; releases the GIL.  Returns the first bad row or -1."""
        cdef Py_ssize_t i, bad
        cdef int c[7]
        cdef int32_t* dist
        cdef int64_t* scratch
        if (hands.shape[1] != 7 or out.shape[0] != hands.shape[0] or out.shape[1] != NSPLITS
                or totals.shape[0] != hands.shape[0]):
            raise ValueError("asiapoker: solve_rows needs n x 7 rows, n x 105 counts and n "
                             "totals")
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
                    totals[i] = self.wins(c, dist, &out[i, 0], scratch, side)
                free(dist)
                free(scratch)
        if bad == -2:
            raise MemoryError("asiapoker: no memory for the dealer distribution")
        return bad
