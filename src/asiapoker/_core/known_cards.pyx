# cython: language_level=3
"""Known cards: the dealer's distribution when some cards are known not to be his (dead) or
known to be his (shown), counted in the player's grid, and the exact counts of every split
against it."""

from libc.stdint cimport int8_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

import numpy as np

from asiapoker._core.cards cimport NCARDS, NSPLITS, card_t, check_rows, load7
from asiapoker._core.dealer cimport (
    CELLS, GRID_CELLS, NL, NM, DealerModel, Work, grid_wins, work_alloc, work_free)


cdef void known_distribution(DealerModel model, const int* removed, int n_removed,
                             const int* shown, int n_shown, Work* w,
                             int64_t* acc) noexcept nogil:
    """``distribution`` of the dealer hands that hold every card of ``shown`` (cards known
    to be the dealer's, not in ``removed``), by inclusion and exclusion: the sum over the
    subsets S of ``shown`` of (-1)^|S| times the hands that avoid ``removed`` and S.  The
    sum is kept in ``acc`` (w.g.size int64: a partial sum can pass int32) and the result,
    at most C(46, 7) a cell, written to w.cells, by the cells of w.g."""
    cdef int cards[NCARDS + 1]
    cdef int i, j, n, bits, last = n_shown - 1
    cdef Py_ssize_t t, nt = w.g.size
    cdef int32_t* dist = w.cells
    if n_shown == 0:
        model.distribution(removed, n_removed, w)
        return
    if n_shown == 1:
        model.count_hands(removed, n_removed, shown[0], w)
        return
    memset(acc, 0, nt * sizeof(int64_t))
    for i in range(n_removed):
        cards[i] = removed[i]
    for bits in range(1 << last):          # the last shown card: held (count_hands)
        n = n_removed
        for j in range(last):
            if (bits >> j) & 1:
                cards[n] = shown[j]
                n += 1
        model.count_hands(cards, n, shown[last], w)
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
    cdef int at[NSPLITS]
    cdef Work w
    cdef int64_t* acc
    if (hands.shape[1] != 7 or out.shape[0] != hands.shape[0] or out.shape[1] != NSPLITS
            or totals.shape[0] != hands.shape[0]):
        raise ValueError("asiapoker: solve_known_kernel needs n x 7 rows, n x 105 counts and n "
                         "totals")
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
            acc = <int64_t*>malloc(GRID_CELLS * sizeof(int64_t))
            if work_alloc(model, &w, GRID_CELLS) < 0 or acc == NULL:
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
                    model.hand_grid(removed, side, &w.g, at)
                    known_distribution(model, removed, n_removed, known, n_shown, &w, acc)
                    totals[i] = grid_wins(&w.g, w.cells, at, &out[i, 0], w.pre)
            work_free(&w)
            free(acc)
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
    # the grid whose thresholds are every dealer strength: a triple to a cell of its own
    cdef Work w
    cdef int32_t um[NM]
    cdef int32_t ul[NL]
    for k in range(NM):
        um[k] = k
    for k in range(NL):
        ul[k] = k
    size = (model.n_high_values + 1) * CELLS
    acc = np.zeros(size, dtype=np.int64)
    cdef int64_t[::1] av = acc
    if work_alloc(model, &w, size) < 0:
        raise MemoryError("asiapoker: no memory for the dealer distribution")
    model.build_grid(&model.high_values[0], model.n_high_values, um, NM, ul, NL, &w.g)
    known_distribution(model, c, 7 + len(dead), known, len(shown), &w, &av[0])
    counts = np.asarray(<int32_t[:size]>w.cells).copy()
    work_free(&w)
    # cell of triple t: (its high index + 1) * CELLS + its (medium, low) cell
    high = np.searchsorted(np.asarray(model.high_values), np.asarray(model.triple_high))
    cell = (high + 1) * CELLS + np.asarray(model.triple_cell, dtype=np.int64)
    return counts[cell].astype(np.int64)
