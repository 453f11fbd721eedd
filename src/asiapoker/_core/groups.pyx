# cython: language_level=3
"""The grouped solver of the whole game: the player's counts for many hands at once, sharing
the dealer's rank-only counts and each suit's flush corrections across the hands of one rank
multiset (as ``player_classes`` orders them).  Its integers are ``DealerModel.solve_rows``'s,
which stays the reference."""

from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from asiapoker._core.cards cimport JOKER, NSPLITS, card_t, check_rows, load7
from asiapoker._core.dealer cimport (
    CELLS, CODE_ML, CODE_SHIFT, NL, NM, DealerModel, Grid, Work, add_runs, cards_left,
    grid_count, grid_prefix, grid_wins, prefix2d, suit_ways, work_alloc, work_free)
from asiapoker._core.strengths cimport Tables, seven_parts, tables

cdef const Tables* T = tables()

cdef enum:
    GROUP_ROWS = 1024       # rows of one rank multiset solved together (a longer run is split)
    GROUP_TRIPLES = 512     # distinct player triples in such a run (at most 2 * 105 occur)
    GROUP_SUIT_SETS = 128   # distinct suit sets (subsets of at most 7 ranks)
    GROUP_HASH = 1024       # open-addressing table of triple keys
    GROUP_CELLS = (GROUP_TRIPLES + 1) * 22 * 8   # the largest grid of a run (21 mediums and 7
                                                 # lows: the rows share their ranks)
    GROUP_WORK_BYTES = (8 * (3 * CELLS + GROUP_TRIPLES + (GROUP_SUIT_SETS + 2) * GROUP_TRIPLES
                             + GROUP_HASH)
                        + 2 * (GROUP_ROWS * 105 + GROUP_ROWS * 4 + 8192 + 2 * GROUP_HASH))


cdef void count_beaten(Py_ssize_t n, const int32_t* th, const int16_t* cell, const int32_t* dist,
                       int nt, const int64_t* qkey, int64_t* out, int64_t* cell_sum,
                       int64_t* below_high, int64_t* all_high) noexcept nogil:
    """out[j] = dealer hands of ``dist`` (over ``n`` triples given by their high strengths
    ``th``, ascending, and (medium, low) cells) that the player triple ``qkey[j]`` beats on two
    hands of three; ``qkey`` is sorted, each key is high << 12 | medium index << 4 | low
    index (the indices of the first medium / low strength not below the player's)."""
    cdef Py_ssize_t p = 0, last = -1
    cdef int j = 0, mi, li
    cdef int64_t h
    memset(cell_sum, 0, CELLS * sizeof(int64_t))
    while j < nt:
        h = qkey[j] >> 12
        while p < n and th[p] < h:
            cell_sum[cell[p]] += dist[p]
            p += 1
        if p != last:                  # below_high is still right when nothing was added
            prefix2d(cell_sum, below_high)
            last = p
        while j < nt and (qkey[j] >> 12) == h:
            mi = (qkey[j] >> 4) & 127
            li = qkey[j] & 15
            out[j] = (below_high[mi * (NL + 1) + NL] + below_high[NM * (NL + 1) + li]
                      - 2 * below_high[mi * (NL + 1) + li])
            j += 1
    while p < n:
        cell_sum[cell[p]] += dist[p]
        p += 1
    prefix2d(cell_sum, all_high)
    for j in range(nt):
        mi = (qkey[j] >> 4) & 127
        li = qkey[j] & 15
        out[j] += all_high[mi * (NL + 1) + li]


cdef int number_marked(int* seen, int n, int32_t* out) noexcept nogil:
    """Number the marked entries of seen[:n] in order: seen[k] becomes k's number (-1 when
    unmarked) and out[number] = k.  Returns how many were marked."""
    cdef int k, m = 0
    for k in range(n):
        if seen[k]:
            seen[k] = m
            out[m] = k
            m += 1
        else:
            seen[k] = -1
    return m


cdef int solve_group(DealerModel model, const int* rows, int g, int64_t* out, int32_t* dist,
                     int64_t* work, Work* w) noexcept nogil:
    """The player's counts (``solve_rows`` side 0) for ``g`` seven-card rows with one rank
    multiset, sharing the dealer's rank-only counts and each suit's flush corrections
    across the rows: both are counted in one grid whose thresholds are the rows' distinct
    strengths (w.cells, with its prefix sums in w.pre).  Returns 0, or -1 when the rows
    need more distinct triples or suit sets than the work space holds (the caller then
    solves them one by one)."""
    cdef int64_t* cell_sum = work
    cdef int64_t* below_high = cell_sum + CELLS
    cdef int64_t* all_high = below_high + CELLS
    cdef int64_t* qkey = all_high + CELLS                 # GROUP_TRIPLES sorted distinct triples
    cdef int64_t* L = qkey + GROUP_TRIPLES      # (1 + GROUP_SUIT_SETS + 1) x GROUP_TRIPLES answers
    cdef int16_t* tix = <int16_t*>(L + (GROUP_SUIT_SETS + 2) * GROUP_TRIPLES)   # g x 105 triples
    cdef int16_t* six = tix + GROUP_ROWS * NSPLITS       # g x 4 suit-set index
    cdef int16_t* smap = six + GROUP_ROWS * 4            # 8192: suit set -> index
    cdef int64_t* hkey = <int64_t*>(smap + 8192)    # hash of triple keys
    cdef int16_t* hval = <int16_t*>(hkey + GROUP_HASH)
    cdef int16_t* rank_of_prov = hval + GROUP_HASH
    cdef int sets[GROUP_SUIT_SETS]
    cdef int one_suit[4]                 # a suit set's available ranks, as suit 0's
    cdef Py_ssize_t no = model.other_pairs.shape[0], last
    cdef const uint8_t* op = &model.other_pairs[0, 0]
    cdef const uint8_t* o
    cdef const int32_t* rkc = &model.rank_code[0]
    cdef int32_t* ow
    cdef Grid* grid = &w.g
    cdef int32_t* cells = w.cells
    cdef int64_t* pre = w.pre
    cdef int32_t uh[GROUP_TRIPLES]       # the grid's thresholds: the distinct high strengths,
    cdef int32_t um[NM + 1]              # medium indices and low indices of the triples
    cdef int32_t ul[NL + 1]
    cdef int tat[GROUP_TRIPLES]          # each distinct triple's thresholds (hand_grid's at)
    cdef int nh = 0, nm = 0, nl = 0, hi
    cdef int mseen[NM + 1]
    cdef int lseen[NL + 1]
    cdef int avail[13]
    cdef int availmask[4]                 # the first row's (its suits are not shared)
    cdef int64_t rank_ways[65]
    cdef int64_t offsuit_ways[4 * 52]     # the first row's; then one suit set's, in the first 52
    cdef int32_t high35[35]
    cdef int32_t medium21[21]
    cdef int32_t low7[7]
    cdef int i, k, r, s, s2, t, mi, li, nt = 0, ns = 0, dealer_joker, smask, slot, amask
    cdef int amask2
    cdef int32_t m, l
    cdef int64_t key, acc
    cdef Py_ssize_t n
    cdef Py_ssize_t ndb = model.double_ranks1.shape[0]
    cdef const int* c
    cdef int64_t* Lrow
    cdef Py_ssize_t nu = model.double_high.shape[0], nrun = model.double_runs.shape[0] - 1
    cdef Py_ssize_t nsrun = model.flush_runs.shape[0] - 1
    cdef const int32_t* run = &model.double_runs[0]
    cdef const uint16_t* dbf1 = &model.double_ranks1[0] if ndb else NULL
    cdef const uint16_t* dbf2 = &model.double_ranks2[0] if ndb else NULL
    cdef const int32_t* dpos = &model.double_positions[0, 0] if ndb else NULL
    # the rows: their distinct (high, medium, low) triples and suit sets
    memset(hval, 0xFF, GROUP_HASH * sizeof(int16_t))      # -1: empty
    memset(smap, 0xFF, 8192 * sizeof(int16_t))
    for i in range(g):
        c = rows + 7 * i
        seven_parts(c, model.a234_low, high35, medium21, low7)
        for k in range(NSPLITS):
            m = medium21[T.split_medium[k]]
            l = low7[T.split_low[k]]
            if not (high35[T.split_high[k]] > m and m > l):
                tix[i * NSPLITS + k] = -1
                continue
            mi = 0
            while mi < NM and model.medium_values[mi] < m:
                mi += 1
            li = 0
            while li < NL and model.low_values[li] < l:
                li += 1
            key = (<int64_t>high35[T.split_high[k]] << 12) | (mi << 4) | li
            slot = <int>((<uint64_t>key * 0x9E3779B97F4A7C15ULL) >> 54)   # GROUP_HASH = 1024
            while hval[slot] >= 0 and hkey[slot] != key:
                slot = (slot + 1) & (GROUP_HASH - 1)
            if hval[slot] < 0:
                if nt == GROUP_TRIPLES:
                    return -1
                hkey[slot] = key
                hval[slot] = nt
                qkey[nt] = key
                nt += 1
            tix[i * NSPLITS + k] = hval[slot]
        for s in range(4):
            smask = 0
            for k in range(7):
                if c[k] != JOKER and (c[k] & 3) == s:
                    smask |= 1 << (c[k] >> 2)
            if smap[smask] < 0:
                if ns == GROUP_SUIT_SETS:
                    return -1
                smap[smask] = ns
                sets[ns] = smask
                ns += 1
            six[i * 4 + s] = smap[smask]
    # sort the distinct triples (insertion sort: at most GROUP_TRIPLES) and renumber the rows'
    for t in range(nt):
        rank_of_prov[t] = t
    for t in range(1, nt):
        key = qkey[t]
        k = rank_of_prov[t]
        i = t - 1
        while i >= 0 and qkey[i] > key:
            qkey[i + 1] = qkey[i]
            rank_of_prov[i + 1] = rank_of_prov[i]
            i -= 1
        qkey[i + 1] = key
        rank_of_prov[i + 1] = k
    for t in range(nt):                       # rank_of_prov: sorted -> provisional; invert
        hval[rank_of_prov[t]] = t
    for i in range(g * NSPLITS):
        if tix[i] >= 0:
            tix[i] = hval[tix[i]]
    # the grid of the distinct triples: thresholds, and each triple's place among them
    memset(mseen, 0, sizeof(mseen))
    memset(lseen, 0, sizeof(lseen))
    for t in range(nt):                       # qkey is sorted: its highs ascend
        if nh == 0 or uh[nh - 1] != <int32_t>(qkey[t] >> 12):
            uh[nh] = <int32_t>(qkey[t] >> 12)
            nh += 1
        mseen[(qkey[t] >> 4) & 127] = 1
        lseen[qkey[t] & 15] = 1
    nm = number_marked(mseen, NM + 1, um)
    nl = number_marked(lseen, NL + 1, ul)
    if (nh + 1) * (nm + 1) * (nl + 1) > GROUP_CELLS:
        return -1
    hi = 0
    for t in range(nt):
        while uh[hi] != <int32_t>(qkey[t] >> 12):
            hi += 1
        tat[t] = hi << 16 | mseen[(qkey[t] >> 4) & 127] << 8 | lseen[qkey[t] & 15]
    model.build_grid(uh, nh, um, nm, ul, nl, grid)
    # the rank multiset's counts, shared by every row (the first row's cards: the same ranks);
    # the classes and entries with the joker count only when the rows do not hold it
    dealer_joker = cards_left(rows, 7, avail, availmask, rank_ways, offsuit_ways)
    if not dealer_joker:
        nsrun = model.run_joker_start
    memset(cells, 0, grid.size * sizeof(int32_t))
    last = model.rank_triple.shape[0] if dealer_joker else model.rank_joker_start
    model.add_ranks(0, last, rank_ways, NULL, w)
    grid_prefix(grid, cells, pre)
    for t in range(nt):
        L[t] = grid_count(grid, pre, tat[t] >> 16, (tat[t] >> 8) & 255, tat[t] & 255)
    # one suit's flush corrections for each distinct suit set: each entry's count at its true
    # triple's cell, and taken from its rank class's (w.sub, then one pass over the classes)
    one_suit[1] = one_suit[2] = one_suit[3] = 0
    for s in range(ns):
        one_suit[0] = 0x1FFF & ~sets[s]
        suit_ways(avail, one_suit[0], offsuit_ways)
        ow = w.ow + no                    # w.ow's row of the suit set {suit 0}
        for n in range(no):
            o = op + 3 * n
            ow[n] = <int32_t>(offsuit_ways[o[0]] * offsuit_ways[o[1]] * offsuit_ways[o[2]])
        memset(cells, 0, grid.size * sizeof(int32_t))
        add_runs(model, 0, nsrun, one_suit, -1, -1, w)
        for n in range(last):
            k = rkc[n]
            cells[grid.hb[k >> CODE_SHIFT] + grid.mlb[k & CODE_ML]] -= w.sub[n]
            w.sub[n] = 0
        grid_prefix(grid, cells, pre)
        Lrow = L + (1 + s) * GROUP_TRIPLES
        for t in range(nt):
            Lrow[t] = grid_count(grid, pre, tat[t] >> 16, (tat[t] >> 8) & 255, tat[t] & 255)
    # each row: the sum of its parts, and its own two-suit corrections (joker with the dealer)
    Lrow = L + (GROUP_SUIT_SETS + 1) * GROUP_TRIPLES
    for i in range(g):
        for t in range(nt):
            Lrow[t] = 0
        if dealer_joker and ndb:
            memset(dist, 0, nu * sizeof(int32_t))
            for s in range(4):
                smask = sets[six[i * 4 + s]]
                for s2 in range(s + 1, 4):
                    amask2 = sets[six[i * 4 + s2]]
                    for r in range(nrun):          # runs of entries with one F1
                        n = run[r]
                        if dbf1[n] & smask:
                            continue
                        for n in range(run[r], run[r + 1]):
                            if dbf2[n] & amask2:
                                continue
                            dist[dpos[4 * n]] += 1
                            dist[dpos[4 * n + 1]] -= 1
                            dist[dpos[4 * n + 2]] -= 1
                            dist[dpos[4 * n + 3]] += 1
            count_beaten(nu, &model.double_high[0], &model.double_cell[0], dist, nt, qkey, Lrow,
                         cell_sum, below_high, all_high)
        for k in range(NSPLITS):
            t = tix[i * NSPLITS + k]
            if t < 0:
                out[i * NSPLITS + k] = 0
                continue
            acc = L[t] + Lrow[t]
            for s in range(4):
                acc += L[(1 + six[i * 4 + s]) * GROUP_TRIPLES + t]
            out[i * NSPLITS + k] = acc
    return 0


def solve_groups_kernel(const card_t[:, ::1] hands, DealerModel model, int64_t[:, ::1] out):
    """The same counts as ``model.solve_rows`` (side 0), faster when consecutive rows share their
    rank multiset (as ``player_classes`` orders them): the dealer's rank-only counts and
    each suit's flush corrections are computed once for such a run of rows.  Releases the
    GIL.  Returns the first bad row or -1."""
    cdef Py_ssize_t i, j, a, bad, nrows = hands.shape[0]
    cdef int k, g
    cdef int* rows
    cdef int32_t* dist
    cdef int64_t* work
    cdef int at[NSPLITS]
    cdef Work w
    cdef int64_t sig, sig0
    if hands.shape[1] != 7 or out.shape[0] != nrows or out.shape[1] != NSPLITS:
        raise ValueError("asiapoker: solve_groups_kernel needs n x 7 rows and n x 105 counts")
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            rows = <int*>malloc(GROUP_ROWS * 7 * sizeof(int))
            dist = <int32_t*>calloc(model.double_high.shape[0] + 1, sizeof(int32_t))
            work = <int64_t*>malloc(GROUP_WORK_BYTES)
            if (work_alloc(model, &w, GROUP_CELLS) < 0 or rows == NULL or dist == NULL
                    or work == NULL):
                bad = -2
            else:
                a = 0
                while a < nrows:
                    g = 0
                    sig0 = 0
                    while a + g < nrows and g < GROUP_ROWS:
                        sig = 0
                        for k in range(7):
                            if hands[a + g, k] == JOKER:
                                sig += (<int64_t>1) << 60
                            else:
                                sig += (<int64_t>1) << (4 * (hands[a + g, k] >> 2))
                        if g == 0:
                            sig0 = sig
                        elif sig != sig0:
                            break
                        load7(&hands[a + g, 0], rows + 7 * g)
                        g += 1
                    if solve_group(model, rows, g, &out[a, 0], dist, work, &w) < 0:
                        for j in range(g):
                            model.hand_grid(rows + 7 * j, 0, &w.g, at)
                            model.distribution(rows + 7 * j, 7, &w)
                            grid_wins(&w.g, w.cells, at, &out[a + j, 0], w.pre)
                    a += g
            free(rows)
            free(dist)
            free(work)
            work_free(&w)
    if bad == -2:
        raise MemoryError("asiapoker: no memory for the dealer distribution")
    return bad
