# cython: language_level=3
"""Known cards: the dealer's distribution when some cards are known not to be his (dead) or
known to be his (shown), and the exact counts of every split against it."""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

import numpy as np

from asiapoker._core.cards cimport JOKER, NCARDS, card_t, check_rows, load7
from asiapoker._core.dealer cimport CELLS, DealerModel, cards_left, suit_ways
from asiapoker._core.strengths cimport Tables, tables

cdef const Tables* T = tables()


cdef void holding(DealerModel model, const int* removed, int n_removed, int card,
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
    cdef Py_ssize_t n, n0, r, nr = model.rank_triple.shape[0]
    cdef Py_ssize_t nrun = model.flush_runs.shape[0] - 1
    cdef const int32_t* run = &model.flush_runs[0]
    cdef int64_t cnt
    cdef bint joker = card == JOKER
    cdef const uint8_t* rk = &model.rank_pairs[0, 0]
    cdef const int32_t* rkt = &model.rank_triple[0]
    cdef const uint16_t* sgf = &model.flush_ranks[0]
    cdef const uint16_t* sgr = &model.flush_named_ranks[0]
    cdef const uint8_t* sgo = &model.flush_others[0, 0]
    cdef const int32_t* sgt = &model.flush_triples[0, 0]
    cdef const uint8_t* o
    cdef const int64_t* ow
    cdef const int64_t* ow2
    cdef const int64_t* with_card[4]      # the suits a run counts in: ways with the card
    cdef const int64_t* without_card[4]   # and without it
    cdef int64_t no_ways[52]
    cdef int j
    dealer_joker = cards_left(removed, n_removed, avail, availmask, rank_ways, offsuit_ways)
    memset(dist, 0, model.n_triples * sizeof(int32_t))
    if joker:
        # the hands with the joker: distribution()'s classes and entries with the joker alone
        model.rank_part(rank_ways, model.rank_joker_start, nr, dist)
        model.flush_part(availmask, offsuit_ways, model.run_joker_start, nrun, dist)
    else:
        if not dealer_joker:                 # the classes and entries with the joker do not count
            nr = model.rank_joker_start
            nrun = model.run_joker_start
        for k in range(65):
            rank_ways2[k] = rank_ways[k]
        for k in range(1, 5):
            rank_ways2[rc * 5 + k] = T.binom[avail[rc] - 1][k]
        avail[rc] -= 1                       # the off-suit ways with ``card`` removed too
        for s in range(4):
            suit_ways(avail, availmask[s], offsuit_ways2 + 52 * s)
        avail[rc] += 1
        for n in range(nr):
            o = rk + 7 * n
            dist[rkt[n]] += <int32_t>(
                rank_ways[o[0]] * rank_ways[o[1]] * rank_ways[o[2]] * rank_ways[o[3]]
                * rank_ways[o[4]] * rank_ways[o[5]] * rank_ways[o[6]]
                - rank_ways2[o[0]] * rank_ways2[o[1]] * rank_ways2[o[2]] * rank_ways2[o[3]]
                * rank_ways2[o[4]] * rank_ways2[o[5]] * rank_ways2[o[6]])
        memset(no_ways, 0, sizeof(no_ways))
        for r in range(nrun):              # runs of entries with one F: the suits found once
            n0 = run[r]
            f = sgf[n0]
            k = 0
            for s in range(4):
                # suit sc counts differently only when the flush holds the card, and then
                # every hand of the entry holds it: nothing to take away (no_ways)
                if (f & ~availmask[s]) or (s == sc and not (f >> rc) & 1):
                    continue
                with_card[k] = offsuit_ways + 52 * s
                if s == sc:
                    without_card[k] = &no_ways[0]
                else:
                    without_card[k] = offsuit_ways2 + 52 * s
                k += 1
            if k == 0:
                continue
            for n in range(n0, run[r + 1]):
                # an entry that names no card of rank rc counts alike with the card or
                # without it: nothing to add
                if not (sgr[n] >> rc) & 1:
                    continue
                o = sgo + 3 * n
                cnt = 0
                for j in range(k):
                    ow = with_card[j]
                    ow2 = without_card[j]
                    cnt += (ow[o[0]] * ow[o[1]] * ow[o[2]] - ow2[o[0]] * ow2[o[1]] * ow2[o[2]])
                dist[sgt[2 * n]] += <int32_t>cnt
                dist[sgt[2 * n + 1]] -= <int32_t>cnt
    if dealer_joker:
        m2 = availmask[sc] & ~(1 << rc) if not joker else 0
        for s in range(4):
            for s2 in range(s + 1, 4):
                if not joker and s != sc and s2 != sc:
                    continue
                for n in range(model.double_ranks1.shape[0]):
                    if ((model.double_ranks1[n] & ~availmask[s])
                            or (model.double_ranks2[n] & ~availmask[s2])):
                        continue
                    if not joker and not ((model.double_ranks1[n] & ~m2) if s == sc
                                          else (model.double_ranks2[n] & ~m2)):
                        continue               # the hand stays without the card
                    dist[model.double_triples[n, 0]] += 1
                    dist[model.double_triples[n, 1]] -= 1
                    dist[model.double_triples[n, 2]] -= 1
                    dist[model.double_triples[n, 3]] += 1


cdef void known_distribution(DealerModel model, const int* removed, int n_removed,
                             const int* shown, int n_shown, int32_t* dist,
                             int64_t* acc) noexcept nogil:
    """``distribution`` of the dealer hands that hold every card of ``shown`` (cards known
    to be the dealer's, not in ``removed``), by inclusion and exclusion: the sum over the
    subsets S of ``shown`` of (-1)^|S| times the hands that avoid ``removed`` and S.  The
    sum is kept in ``acc`` (n_triples int64: a partial sum can pass int32) and the result,
    at most C(46, 7) a triple, written to ``dist``."""
    cdef int cards[NCARDS + 1]
    cdef int i, j, n, bits, last = n_shown - 1
    cdef Py_ssize_t t, nt = model.n_triples
    if n_shown == 0:
        model.distribution(removed, n_removed, dist)
        return
    if n_shown == 1:
        holding(model, removed, n_removed, shown[0], dist)
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
        holding(model, cards, n, shown[last], dist)
        if (n - n_removed) & 1:
            for t in range(nt):
                acc[t] -= dist[t]
        else:
            for t in range(nt):
                acc[t] += dist[t]
    for t in range(nt):
        dist[t] = <int32_t>acc[t]


def solve_known_kernel(const card_t[:, ::1] hands, DealerModel model, const int8_t[:, ::1] dead,
                       const int8_t[:, ::1] shown, int64_t[:, ::1] out, int64_t[::1] totals,
                       int side=0):
    """``model.solve_rows`` with known cards: for row i, ``dead[i]`` holds cards known NOT to be
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
            dist = <int32_t*>calloc(model.n_triples, sizeof(int32_t))
            acc = <int64_t*>calloc(model.n_triples, sizeof(int64_t))
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
                    known_distribution(model, removed, n_removed, known, n_shown, dist, acc)
                    totals[i] = model.wins(removed, dist, &out[i, 0], scratch, side)
            free(dist)
            free(acc)
            free(scratch)
    if bad == -2:
        raise MemoryError("asiapoker: no memory for the dealer distribution")
    return bad


def dealer_distribution(DealerModel model, tuple ids, tuple dead=(), tuple shown=()):
    """The dealer's count of every triple (indexed like ``model``'s triples) against seven
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
    counts = np.zeros(model.n_triples, dtype=np.int32)
    acc = np.zeros(model.n_triples, dtype=np.int64)
    cdef int32_t[::1] cv = counts
    cdef int64_t[::1] av = acc
    known_distribution(model, c, 7 + len(dead), known, len(shown), &cv[0], &av[0])
    return counts.astype(np.int64)
