# cython: language_level=3
"""The grouped solver of the whole game: the player's counts for many hands at once, sharing
the dealer's rank-only counts and each suit's flush corrections across the hands of one rank
multiset (as ``player_classes`` orders them).  Its integers are ``DealerModel.solve_rows``'s,
which stays the reference.

A suit set S (the ranks a row holds in one suit) lies in the rows' ranks R.  A single-flush
entry (F, O) counts for S when F avoids S, with O's off-suit ways: those of O's ranks
outside R are the same for every S, those of its ranks in R depend on S alone.  So the
entries are merged once a group by (F & R, O's part in R, true cell, class cell), their
S-free ways summed; each suit set then reads the few thousand merged keys, not the hundreds
of thousands of entries.  The two-flush entries are merged once a group the same way (by
F1 & R, F2 & R and their cells), and each distinct pair of suit sets reads those."""

from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from asiapoker._core.alloc cimport Taken, free_taken, start_taken, take
from asiapoker._core.cards cimport JOKER, NSPLITS, card_t, check_rows, load7
from asiapoker._core.dealer cimport (
    LOW_STRIDE, NL, NM, DealerModel, Grid, Work, cards_left, cell_of, count_at, grid_prefix,
    grid_wins, pack_at, work_alloc, work_free)
from asiapoker._core.merge cimport (
    ASIAPOKER_PREFETCH, DKEY_CELL1, DKEY_F1, DKEY_F2, GROUP_CELLS, GROUP_HASH, GROUP_PAIRS,
    GROUP_ROWS, GROUP_SUIT_SETS, GROUP_TRIPLES, KEY_CELL_BITS, KEY_CELL_MASK, KEY_CLASS,
    KEY_F_BITS, KEY_F_MASK, KEY_O, KEY_O_BITS, KEY_O_MASK, KEY_SET, KEY_TRUE, MERGE_BITS,
    MERGE_LEAST_BITS, GroupWork, Merge)
from asiapoker._core.strengths cimport Tables, seven_parts, tables


# ---------------------------------------------------------------------------------------
# the work space of a group (its layout and the merge's arrays, merge.pxd declares them)
# ---------------------------------------------------------------------------------------

cdef inline Py_ssize_t group_work(void* block, GroupWork* gw) noexcept nogil:
    """Lay out a group's work space in ``block`` (with ``block`` NULL: only measure it);
    returns its bytes.  Every array starts on an 8-byte boundary."""
    cdef Py_ssize_t at[9]
    cdef char* p = <char*>block
    at[0] = 0
    at[1] = at[0] + 8 * GROUP_TRIPLES
    at[2] = at[1] + 8 * (GROUP_SUIT_SETS + 2) * GROUP_TRIPLES
    at[3] = at[2] + 2 * GROUP_ROWS * 105
    at[4] = at[3] + 2 * GROUP_ROWS * 4
    at[5] = at[4] + 2 * 8192
    at[6] = at[5] + 8 * GROUP_HASH
    at[7] = at[6] + 2 * GROUP_HASH
    at[8] = at[7] + 2 * GROUP_HASH
    if p != NULL:
        gw.qkey = <int64_t*>(p + at[0])
        gw.answers = <int64_t*>(p + at[1])
        gw.triple_of = <int16_t*>(p + at[2])
        gw.set_of = <int16_t*>(p + at[3])
        gw.set_index = <int16_t*>(p + at[4])
        gw.hash_key = <int64_t*>(p + at[5])
        gw.hash_value = <int16_t*>(p + at[6])
        gw.order = <int16_t*>(p + at[7])
    return at[8]


cdef inline int merge_bits(DealerModel m) noexcept nogil:
    """The slots of ``m``'s hash, 2^bits: at least 2^MERGE_BITS and four times its single-flush
    entries and its two-flush halves (a group merges at most all of them, so a pass over the
    whole table never fills a quarter of it: the doublings of ``merge_entries`` and
    ``merge_doubles`` end).  ``high-first`` has 675,296 entries (and 2 x 81,796 halves)."""
    cdef int bits = MERGE_BITS
    cdef Py_ssize_t most = max_keys(m)
    while (<Py_ssize_t>1 << bits) < 4 * most:
        bits += 1
    return bits


cdef inline Py_ssize_t max_keys(DealerModel m) noexcept nogil:
    """The most keys one merge of a group can make: its single-flush entries, or two halves
    of each two-flush entry."""
    return max(m.flush_ranks.shape[0], 2 * m.double_ranks1.shape[0])


cdef inline int merge_alloc(DealerModel m, Merge* g, uint64_t* tab, int tabbits) noexcept nogil:
    """Space for ``merge_entries``, with ``tab`` as its hash (a kept one of 2^tabbits slots, its
    keys zero) when it is large enough for ``m`` (``merge_bits``), else a new one (``tab`` freed):
    0, or -1 (nothing held, ``tab`` freed too)."""
    cdef Py_ssize_t n_others = m.other_pairs.shape[0]
    cdef Py_ssize_t n_flush = m.flush_ranks.shape[0], n_doubles = m.double_ranks1.shape[0]
    cdef Taken* t = &g.taken
    start_taken(t)
    g.maxbits = merge_bits(m)
    g.tab = tab
    if tab != NULL and tabbits < g.maxbits:
        free(tab)
        g.tab = NULL
    elif tab != NULL:
        g.maxbits = tabbits
    if g.tab == NULL:
        g.tab = <uint64_t*>calloc(<size_t>2 << g.maxbits, sizeof(uint64_t))   # zeros between
    g.tbits = MERGE_LEAST_BITS
    g.dtbits = MERGE_LEAST_BITS
    g.used = <int32_t*>take(t, (max_keys(m) + 1) * sizeof(int32_t), 0)
    g.run_keys = <uint64_t*>take(t, (longest_run(m) + 1) * sizeof(uint64_t), 0)
    g.dkey = <uint64_t*>take(t, (n_flush + 1) * sizeof(uint64_t), 0)
    g.dval = <int64_t*>take(t, (n_flush + 1) * sizeof(int64_t), 0)
    g.flush_set_count = <int32_t*>take(t, 8192 * sizeof(int32_t), 1)   # zeros between groups
    g.class_key = <uint64_t*>take(t, (m.rank_triple.shape[0] + 1) * sizeof(uint64_t), 0)
    g.rest_ways = <int32_t*>take(t, (n_others + 1) * sizeof(int32_t), 0)
    g.o_key = <uint64_t*>take(t, (n_others + 1) * sizeof(uint64_t), 0)
    g.cell_key = <uint64_t*>take(t, (NM * NL + m.n_high_values + 1) * sizeof(uint64_t), 0)
    g.id_code = <int32_t*>take(t, (n_others + 1) * sizeof(int32_t), 0)
    g.code_id = <int16_t*>take(t, 16384 * sizeof(int16_t), 0)
    g.factor = <int64_t*>take(t, (n_others + 1) * sizeof(int64_t), 0)
    g.pair_cells = <int32_t*>take(t, (6 * n_doubles + 1) * sizeof(int32_t), 0)
    g.pair_block = <int32_t*>take(t, (2 * n_doubles + 1) * sizeof(int32_t), 0)
    g.dblock_count = <int32_t*>take(t, 16384 * sizeof(int32_t), 1)      # zeros between groups
    g.dblock_key = <int32_t*>take(t, 16384 * sizeof(int32_t), 0)
    g.dblock_f1 = <int32_t*>take(t, 16384 * sizeof(int32_t), 0)
    g.dblock_f2 = <int32_t*>take(t, 16384 * sizeof(int32_t), 0)
    g.dblock_start = <int32_t*>take(t, 16385 * sizeof(int32_t), 0)
    g.pairs = <int64_t*>take(t, (GROUP_PAIRS + 1) * GROUP_TRIPLES * sizeof(int64_t), 0)
    g.pair_id = <int16_t*>take(t, GROUP_SUIT_SETS * GROUP_SUIT_SETS * sizeof(int16_t), 0)
    g.pair_key = <int32_t*>take(t, GROUP_PAIRS * sizeof(int32_t), 0)
    if t.failed or g.tab == NULL:
        merge_free(g)
        return -1
    memset(g.code_id, 0xFF, 16384 * sizeof(int16_t))
    memset(g.pair_id, 0xFF, GROUP_SUIT_SETS * GROUP_SUIT_SETS * sizeof(int16_t))
    return 0


cdef inline Py_ssize_t longest_run(DealerModel m) noexcept nogil:
    """The most single-flush entries of one run."""
    cdef Py_ssize_t r, most = 0
    for r in range(m.flush_runs.shape[0] - 1):
        if m.flush_runs[r + 1] - m.flush_runs[r] > most:
            most = m.flush_runs[r + 1] - m.flush_runs[r]
    return most


cdef inline void merge_free(Merge* g) noexcept nogil:
    """Free what ``merge_alloc`` took, its hash too (``tab`` NULL after; freeing again does
    nothing)."""
    free_taken(&g.taken)
    free(g.tab)
    g.tab = NULL


# ---------------------------------------------------------------------------------------
# the two-flush corrections: a group's two-flush entries merged once (merge_doubles), then
# read by each distinct pair of suit sets (count_pair)
# ---------------------------------------------------------------------------------------

cdef inline void merge_doubles(DealerModel model, Merge* mg, int rmask, const int* rr,
                              int nr, const Grid* grid) noexcept nogil:
    """The group's two-flush entries merged for ``count_pair``: an entry (F1, F2) counts for a
    pair of suit sets when F1 avoids the first and F2 the second, both in the rows' ranks R,
    so it depends on F1 & R and F2 & R alone; its +1, -1, -1, +1 at four cells of ``grid``
    are two halves (+true, -single1) and (+rank-only, -single2).  The halves are merged by
    (F1 & R, F2 & R, the two cells), through mg's hash (a half whose two cells are one
    cell cancels), then moved into mg.pair_cells (first cell, second cell, count) by blocks of one
    (F1 & R, F2 & R): 81,796 entries of ``high-first`` make a few thousand."""
    cdef int tbits = mg.dtbits, nk
    nk = merge_doubles_pass(model, mg, rmask, grid, tbits)
    while nk < 0:                  # a quarter of 2^mg.maxbits holds every half: this ends
        tbits += 1
        nk = merge_doubles_pass(model, mg, rmask, grid, tbits)
    doubles_take(mg, nk, rr, nr)
    tbits = MERGE_LEAST_BITS
    while (1 << tbits) < 8 * nk and tbits < mg.maxbits:
        tbits += 1
    mg.dtbits = tbits


cdef inline int merge_doubles_pass(DealerModel model, Merge* mg, int rmask, const Grid* grid,
                                   int tbits) noexcept nogil:
    """``merge_doubles``'s merge into the table's first 2^tbits slots: KEY_SET | F1 & R <<
    DKEY_F1 | F2 & R << DKEY_F2 | first cell << DKEY_CELL1 | second cell (merge.pxd), each with
    its count.  Returns the number of keys, or -1 (the table's keys zero again) when they pass
    a quarter of the slots."""
    cdef const uint16_t* f1 = &model.double_ranks1[0]
    cdef const uint16_t* f2 = &model.double_ranks2[0]
    cdef const uint16_t* dcode = &model.double_codes[0, 0]
    cdef Py_ssize_t n, slot, ndb = model.double_ranks1.shape[0]
    cdef uint64_t* tab = mg.tab
    cdef int32_t* used = mg.used
    cdef int h, k, nk = 0, limit = 1 << (tbits - 2)
    cdef uint32_t a, b
    cdef uint64_t key, base, tmask = (<uint64_t>1 << tbits) - 1
    for n in range(ndb):
        base = (KEY_SET | <uint64_t>(f1[n] & rmask) << DKEY_F1
                | <uint64_t>(f2[n] & rmask) << DKEY_F2)
        for h in range(2):
            a = cell_of(grid, dcode + 8 * n + 6 * h)          # +true, then +rank-only
            b = cell_of(grid, dcode + 8 * n + 2 + 2 * h)      # -single1, then -single2
            if a == b:
                continue
            key = base | <uint64_t>a << DKEY_CELL1 | b    # probed as in merge_pass (its hot loop
            slot = <Py_ssize_t>((key * 0x9E3779B97F4A7C15ULL) >> (64 - tbits))   # inline)
            while tab[2 * slot] != 0 and tab[2 * slot] != key:
                slot = <Py_ssize_t>((slot + 1) & tmask)
            if tab[2 * slot] == 0:
                if nk == limit:
                    for k in range(nk):
                        tab[2 * used[k]] = 0
                    return -1
                tab[2 * slot] = key
                tab[2 * slot + 1] = 0
                used[nk] = <int32_t>slot
                nk += 1
            tab[2 * slot + 1] += 1
    return nk


cdef inline void doubles_take(Merge* mg, int nk, const int* rr, int nr) noexcept nogil:
    """Move the nk merged halves out of the table into mg.pair_cells by blocks of one (F1 & R, F2 &
    R) (each numbered by its ranks among the rows' rr: 7 + 7 bits), leaving the table's keys and
    mg.dblock_count zero."""
    cdef int i, b, nb = 0, off = 0, c, p, k
    cdef int32_t* cnt = mg.dblock_count
    cdef int32_t* pair_cells = mg.pair_cells
    cdef uint64_t key
    cdef int mask_number[8192 >> 6]       # the number of a mask of R, by its 6 high bits ...
    cdef int mask_number_low[64]           # ... and its 6 low bits (or-ed)
    for i in range(64):
        mask_number_low[i] = 0
    for i in range(128):
        mask_number[i] = 0
    for k in range(nr):
        for i in range(64):
            if rr[k] < 6 and (i >> rr[k]) & 1:
                mask_number_low[i] |= 1 << k
        for i in range(128):
            if rr[k] >= 6 and (i >> (rr[k] - 6)) & 1:
                mask_number[i] |= 1 << k
    for i in range(nk):
        key = mg.tab[2 * mg.used[i]]
        p = ((mask_number[(key >> 53) & 127] | mask_number_low[(key >> 47) & 63]) << 7
             | mask_number[(key >> 40) & 127] | mask_number_low[(key >> 34) & 63])
        mg.pair_block[i] = p
        if cnt[p] == 0:
            mg.dblock_key[nb] = p
            mg.dblock_f1[nb] = <int32_t>((key >> DKEY_F1) & KEY_F_MASK)
            mg.dblock_f2[nb] = <int32_t>((key >> DKEY_F2) & KEY_F_MASK)
            nb += 1
        cnt[p] += 1
    for b in range(nb):
        mg.dblock_start[b] = off
        c = cnt[mg.dblock_key[b]]
        cnt[mg.dblock_key[b]] = off
        off += c
    mg.dblock_start[nb] = off
    mg.ndblocks = nb
    for i in range(nk):
        key = mg.tab[2 * mg.used[i]]
        p = mg.pair_block[i]
        c = cnt[p]
        cnt[p] = c + 1
        pair_cells[3 * c] = <int32_t>((key >> DKEY_CELL1) & KEY_CELL_MASK)
        pair_cells[3 * c + 1] = <int32_t>(key & KEY_CELL_MASK)
        pair_cells[3 * c + 2] = <int32_t>mg.tab[2 * mg.used[i] + 1]
        mg.tab[2 * mg.used[i]] = 0
    for b in range(nb):
        cnt[mg.dblock_key[b]] = 0


cdef inline void count_pair(const Merge* mg, int smask, int amask, const Grid* grid,
                            int32_t* cells, int32_t* pre, const int* triple_at, int nt,
                            int64_t* out) noexcept nogil:
    """out[t] = the two-flush corrections, for triple t (its thresholds triple_at[t]), of one pair
    of suits where the player holds the ranks ``smask`` and ``amask``: the merged halves
    (``merge_doubles``) of the blocks whose F1 avoids smask and F2 amask, each +count at its
    first cell and -count at its second."""
    cdef const int32_t* pair_cells = mg.pair_cells
    cdef int b, t
    cdef Py_ssize_t i
    cdef int32_t v
    for b in range(mg.ndblocks):
        if (mg.dblock_f1[b] & smask) or (mg.dblock_f2[b] & amask):
            continue
        for i in range(mg.dblock_start[b], mg.dblock_start[b + 1]):
            v = pair_cells[3 * i + 2]
            cells[pair_cells[3 * i]] += v
            cells[pair_cells[3 * i + 1]] -= v
    grid_prefix(grid, cells, pre, 1)        # and cells zeros again
    for t in range(nt):
        out[t] = count_at(grid, pre, triple_at[t])

cdef const Tables* T = tables()

# the merged keys' fields (merge.pxd) hold what they must, or the module refuses to load
if (GROUP_CELLS > 1 << KEY_CELL_BITS or KEY_F_MASK != (1 << KEY_F_BITS) - 1
        or KEY_O_MASK != (1 << KEY_O_BITS) - 1 or KEY_CELL_MASK != (1 << KEY_CELL_BITS) - 1
        or KEY_O != KEY_F_BITS or KEY_TRUE != KEY_O + KEY_O_BITS
        or KEY_CLASS != KEY_TRUE + KEY_CELL_BITS or KEY_CLASS + KEY_CELL_BITS > 62):
    raise ImportError("asiapoker: the grouped solver's merged-key fields do not fit")


# Merge hashes kept between kernel calls, their key slots zero (every call leaves its hash
# so; the counts beside them are written before they are read): a whole run calls the kernel
# once a chunk, and a kept hash spares the system the pages of a new one.  Taken and given
# back with the GIL held; ``release_group_tables`` frees them.
cdef enum:
    KEPT_TABLES = 8
cdef uint64_t* kept[KEPT_TABLES]
cdef int kept_bits[KEPT_TABLES]               # each one's size: 2^bits slots
cdef int nkept = 0


cdef uint64_t* take_table(int* bits) noexcept:
    """A kept hash (its size in *bits), or NULL (the caller makes one).  With the GIL."""
    global nkept
    if nkept == 0:
        return NULL
    nkept -= 1
    bits[0] = kept_bits[nkept]
    return kept[nkept]


cdef void give_table(uint64_t* tab, int bits) noexcept:
    """Keep ``tab`` (its keys zero, 2^bits slots) for the next call, or free it when enough are
    kept."""
    global nkept
    if tab == NULL:
        return
    if nkept < KEPT_TABLES:
        kept[nkept] = tab
        kept_bits[nkept] = bits
        nkept += 1
    else:
        free(tab)


def release_group_tables():
    """Free the merge hashes kept between calls of ``solve_groups_kernel`` (analyze and
    best response call it when they end).  Returns how many were freed."""
    global nkept
    cdef int n = nkept
    while nkept > 0:
        nkept -= 1
        free(kept[nkept])
        kept[nkept] = NULL
    return n


def kept_group_tables():
    """(how many merge hashes are kept, whether all their keys are zero): for tests."""
    cdef int i
    cdef Py_ssize_t j
    clean = True
    for i in range(nkept):
        for j in range(0, <Py_ssize_t>2 << kept_bits[i], 2):   # the keys (counts are left)
            if kept[i][j] != 0:
                clean = False
                break
    return nkept, clean


cdef Py_ssize_t fallback_rows = 0   # rows solve_group gave back since the last read (GIL)


def group_fallback_rows():
    """How many rows ``solve_groups_kernel`` solved one by one, their group too large for its
    work space, since the last call (which sets it to 0 again): for tests and benchmarks."""
    global fallback_rows
    cdef Py_ssize_t n = fallback_rows
    fallback_rows = 0
    return n


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


cdef int merge_entries(DealerModel model, Merge* mg, int rmask, const int* sets, int ns,
                       Py_ssize_t nsrun, const Grid* grid, int* nkeys) noexcept nogil:
    """Merge the single-flush entries of runs 0..nsrun-1 that some suit set of ``sets`` counts
    (its F avoids the set) by their key: KEY_SET | F & rmask | O's id << KEY_O | true cell of
    ``grid`` << KEY_TRUE | class cell (mg.class_key) << KEY_CLASS (merge.pxd), into mg.dkey
    (*nkeys of them, through mg's hash), each with the sum of its O's ways outside the ranks
    ``rmask`` (the rows hold none of those ranks: all 4 are left, 3 of them outside the
    suit).  O's id numbers its part in rmask (mg.id_code: a base-4 digit, the count, for each
    rank of rmask in ascending order).  Returns the number of ids."""
    cdef const uint8_t* others = &model.other_pairs[0, 0]
    cdef int32_t* rest = mg.rest_ways
    cdef uint64_t* o_key = mg.o_key
    cdef Py_ssize_t n_others = model.other_pairs.shape[0], n
    cdef int pow4[13]
    cdef int k, x, j = 0, code, nid = 0, nk, tbits = mg.tbits, every = 0
    cdef int32_t wr
    for k in range(13):
        pow4[k] = 0
        if (rmask >> k) & 1:
            pow4[k] = 1 << (2 * j)
            j += 1
    for n in range(n_others):                     # O's ways outside rmask, and its id
        wr = 1
        code = 0
        for k in range(3):
            x = others[3 * n + k]
            if x:
                if pow4[x >> 2]:
                    code += (x & 3) * pow4[x >> 2]
                else:
                    wr *= <int32_t>T.binom[3][x & 3]
        rest[n] = wr
        if mg.code_id[code] < 0:
            mg.code_id[code] = nid
            mg.id_code[nid] = code
            nid += 1
        o_key[n] = <uint64_t>mg.code_id[code] << KEY_O
    for n in range(model.n_high_values):      # the grid's cells, shifted into their key place
        mg.cell_key[NM * NL + n] = <uint64_t>grid.high_bucket[n] << KEY_TRUE
    for n in range(NM * NL):
        mg.cell_key[n] = <uint64_t>grid.cell_bucket[n] << KEY_TRUE
    for k in range(ns):                       # a suit of no cards: every F counts
        if sets[k] == 0:
            every = 1
    nk = merge_pass(model, mg, rmask, sets, ns, nsrun, every, tbits)
    # the table filled: again with twice the slots (a quarter of 2^mg.maxbits holds every
    # entry, ``merge_bits``, so this ends)
    while nk < 0:
        tbits += 1
        nk = merge_pass(model, mg, rmask, sets, ns, nsrun, every, tbits)
    merge_take(mg, nk)                        # the keys in order, and the table's keys zero again
    tbits = MERGE_LEAST_BITS                  # the next group's start: 8 x these keys' slots
    while (1 << tbits) < 8 * nk and tbits < mg.maxbits:
        tbits += 1
    mg.tbits = tbits
    nkeys[0] = nk
    return nid


cdef int merge_pass(DealerModel model, Merge* mg, int rmask, const int* sets, int ns,
                    Py_ssize_t nsrun, int every, int tbits) noexcept nogil:
    """``merge_entries``'s merge into the table's first 2^tbits slots (a size fixed for the
    pass: the loop keeps it in registers).  Returns the number of keys, or -1 (the table
    keys zero again) when they pass a quarter of the slots.  A run's keys are made first, each
    slot's cache line fetched ahead, then merged: a probe of a table of some MB misses the
    caches unless it was fetched."""
    cdef const int32_t* run = &model.flush_runs[0]
    cdef const uint16_t* flush_ranks = &model.flush_ranks[0]
    cdef const uint16_t* oid = &model.flush_oid[0]
    cdef const uint16_t* true_triple = &model.flush_true[0, 0]
    cdef const int32_t* rank_class = &model.flush_class[0]
    cdef const uint64_t* ccell = mg.class_key
    cdef const int32_t* rest = mg.rest_ways
    cdef const uint64_t* o_key = mg.o_key
    cdef const uint64_t* ckey = mg.cell_key
    cdef uint64_t* tab = mg.tab
    cdef int32_t* used = mg.used
    cdef uint64_t* rkey = mg.run_keys
    cdef Py_ssize_t r, n, n0, slot, lastslot = 0
    cdef int k, nk = 0, flush_set, limit = 1 << (tbits - 2)
    cdef uint64_t key, lastkey = 0, base, tmask = (<uint64_t>1 << tbits) - 1
    for r in range(nsrun):
        flush_set = flush_ranks[run[r]] & rmask
        if not every:
            k = 0
            while k < ns and flush_set & sets[k]:
                k += 1
            if k == ns:
                continue
        base = KEY_SET | <uint64_t>flush_set
        n0 = run[r]
        for n in range(n0, run[r + 1]):        # the run's keys, their slots fetched ahead
            key = (base | o_key[oid[n]]
                   | ckey[NM * NL + true_triple[2 * n]] + ckey[true_triple[2 * n + 1]]
                   | ccell[rank_class[n]])
            rkey[n - n0] = key
            ASIAPOKER_PREFETCH(&tab[2 * ((key * 0x9E3779B97F4A7C15ULL) >> (64 - tbits))])
        for n in range(n0, run[r + 1]):
            key = rkey[n - n0]
            if key != lastkey:
                slot = <Py_ssize_t>((key * 0x9E3779B97F4A7C15ULL) >> (64 - tbits))
                while tab[2 * slot] != 0 and tab[2 * slot] != key:
                    slot = <Py_ssize_t>((slot + 1) & tmask)
                if tab[2 * slot] == 0:
                    if nk == limit:
                        for k in range(nk):
                            tab[2 * used[k]] = 0
                        return -1
                    tab[2 * slot] = key
                    tab[2 * slot + 1] = 0
                    used[nk] = <int32_t>slot
                    nk += 1
                lastkey = key
                lastslot = slot
            tab[2 * lastslot + 1] += <uint64_t>rest[oid[n]]
    return nk


cdef void merge_take(Merge* mg, int nk) noexcept nogil:
    """Move the nk merged keys and their hands out of the table into mg.dkey and mg.dval, by
    blocks of one F & rmask (its low 13 bits; in order of first use, each in the order of
    mg.used), leaving the table's keys zero: a suit set skips a block its ranks meet whole."""
    cdef int i, b, nb = 0, off = 0, c, p
    cdef Py_ssize_t slot
    cdef int32_t* cnt = mg.flush_set_count
    for i in range(nk):
        p = <int>(mg.tab[2 * mg.used[i]] & KEY_F_MASK)
        if cnt[p] == 0:
            mg.block_flush_set[nb] = p
            nb += 1
        cnt[p] += 1
    for b in range(nb):
        mg.block_start[b] = off
        c = cnt[mg.block_flush_set[b]]
        cnt[mg.block_flush_set[b]] = off
        off += c
    mg.block_start[nb] = off
    mg.nblocks = nb
    for i in range(nk):
        slot = mg.used[i]
        p = <int>(mg.tab[2 * slot] & KEY_F_MASK)
        c = cnt[p]
        cnt[p] = c + 1
        mg.dkey[c] = mg.tab[2 * slot]
        mg.dval[c] = <int64_t>mg.tab[2 * slot + 1]
        mg.tab[2 * slot] = 0
    for b in range(nb):
        cnt[mg.block_flush_set[b]] = 0


cdef struct Group:
    # One group's rows as ``solve_group``'s steps hand them on (the arrays of many entries
    # are the work space's, GroupWork).
    int rmask                          # the rows' ranks (a set of the 13; the same for all)
    int nr                             # their number
    int rr[13]                         # they, ascending
    int nt                             # the distinct (high, medium, low) triples (gw.qkey)
    int ns                             # the distinct suit sets
    int sets[GROUP_SUIT_SETS]          # each one's ranks
    int triple_at[GROUP_TRIPLES]       # each triple's thresholds in the grid (pack_at)
    int dealer_joker                   # 1: the rows do not hold the joker (the dealer may)
    int avail[13]                      # [rank] its cards the rows leave


cdef int group_triples(DealerModel model, const int* rows, int g, int side,
                       const GroupWork* gw, Group* gr) noexcept nogil:
    """The rows' ranks, their distinct (high, medium, low) triples (gw.qkey; each split's in
    gw.triple_of, -1 for a foul) and distinct suit sets (gr.sets; each row's in gw.set_of).
    Returns 0, or -1 when they pass the work space's GROUP_TRIPLES or GROUP_SUIT_SETS."""
    cdef int64_t* qkey = gw.qkey
    cdef int16_t* triple_of = gw.triple_of
    cdef int16_t* set_index = gw.set_index
    cdef int64_t* hash_key = gw.hash_key
    cdef int16_t* hash_value = gw.hash_value
    cdef int32_t high35[35]
    cdef int32_t medium21[21]
    cdef int32_t low7[7]
    cdef int i, k, r, s, mi, li, slot, smask, rmask = 0, nr = 0, nt = 0, ns = 0
    cdef int32_t m, l
    cdef int64_t key
    cdef const int* c
    for k in range(7):
        if rows[k] != JOKER:
            rmask |= 1 << (rows[k] >> 2)
    for r in range(13):
        if (rmask >> r) & 1:
            gr.rr[nr] = r
            nr += 1
    gr.rmask = rmask
    gr.nr = nr
    memset(hash_value, 0xFF, GROUP_HASH * sizeof(int16_t))      # -1: empty
    memset(set_index, 0xFF, 8192 * sizeof(int16_t))
    for i in range(g):
        c = rows + 7 * i
        seven_parts(c, model.a234_low, high35, medium21, low7)
        for k in range(NSPLITS):
            m = medium21[T.split_medium[k]]
            l = low7[T.split_low[k]]
            if not (high35[T.split_high[k]] > m and m > l):
                triple_of[i * NSPLITS + k] = -1
                continue
            mi = 0
            while mi < NM and model.medium_values[mi] < m + side:
                mi += 1
            li = 0
            while li < NL and model.low_values[li] < l + side:
                li += 1
            key = (<int64_t>(high35[T.split_high[k]] + side) << 12) | (mi << 4) | li
            slot = <int>((<uint64_t>key * 0x9E3779B97F4A7C15ULL) >> 54)   # GROUP_HASH = 1024
            while hash_value[slot] >= 0 and hash_key[slot] != key:
                slot = (slot + 1) & (GROUP_HASH - 1)
            if hash_value[slot] < 0:
                if nt == GROUP_TRIPLES:
                    return -1
                hash_key[slot] = key
                hash_value[slot] = nt
                qkey[nt] = key
                nt += 1
            triple_of[i * NSPLITS + k] = hash_value[slot]
        for s in range(4):
            smask = 0
            for k in range(7):
                if c[k] != JOKER and (c[k] & 3) == s:
                    smask |= 1 << (c[k] >> 2)
            if set_index[smask] < 0:
                if ns == GROUP_SUIT_SETS:
                    return -1
                set_index[smask] = ns
                gr.sets[ns] = smask
                ns += 1
            gw.set_of[i * 4 + s] = set_index[smask]
    gr.nt = nt
    gr.ns = ns
    return 0


cdef void sort_triples(const GroupWork* gw, int nt, int g) noexcept nogil:
    """Sort the distinct triples (gw.qkey, by high, medium, low: insertion sort, at most
    GROUP_TRIPLES) and renumber the rows' (gw.triple_of)."""
    cdef int64_t* qkey = gw.qkey
    cdef int16_t* order = gw.order
    cdef int16_t* number = gw.hash_value        # its hash is done with: sorted numbers
    cdef int i, k, t
    cdef int64_t key
    for t in range(nt):
        order[t] = t
    for t in range(1, nt):
        key = qkey[t]
        k = order[t]
        i = t - 1
        while i >= 0 and qkey[i] > key:
            qkey[i + 1] = qkey[i]
            order[i + 1] = order[i]
            i -= 1
        qkey[i + 1] = key
        order[i + 1] = k
    for t in range(nt):                         # order: sorted -> first seen; invert it
        number[order[t]] = t
    for i in range(g * NSPLITS):
        if gw.triple_of[i] >= 0:
            gw.triple_of[i] = number[gw.triple_of[i]]


cdef int group_grid(DealerModel model, const GroupWork* gw, Group* gr,
                    Grid* grid) noexcept nogil:
    """The grid of the sorted distinct triples: its thresholds (their distinct high
    strengths, medium and low indices) and each triple's place among them (gr.triple_at).
    Returns 0, or -1 when it passes GROUP_CELLS."""
    cdef const int64_t* qkey = gw.qkey
    cdef int32_t high_values[GROUP_TRIPLES]
    cdef int32_t medium_values[NM + 1]
    cdef int32_t low_values[NL + 1]
    cdef int medium_seen[NM + 1]
    cdef int low_seen[NL + 1]
    cdef int t, hi, nh = 0, nm, nl
    memset(medium_seen, 0, sizeof(medium_seen))
    memset(low_seen, 0, sizeof(low_seen))
    for t in range(gr.nt):                      # qkey is sorted: its highs ascend
        if nh == 0 or high_values[nh - 1] != <int32_t>(qkey[t] >> 12):
            high_values[nh] = <int32_t>(qkey[t] >> 12)
            nh += 1
        medium_seen[(qkey[t] >> 4) & 127] = 1
        low_seen[qkey[t] & 15] = 1
    nm = number_marked(medium_seen, NM + 1, medium_values)
    nl = number_marked(low_seen, NL + 1, low_values)
    if (nh + 1) * (nm + 1) * LOW_STRIDE > GROUP_CELLS or nl >= LOW_STRIDE:
        return -1
    hi = 0
    for t in range(gr.nt):
        while high_values[hi] != <int32_t>(qkey[t] >> 12):
            hi += 1
        gr.triple_at[t] = pack_at(hi, medium_seen[(qkey[t] >> 4) & 127],
                                  low_seen[qkey[t] & 15])
    model.build_grid(high_values, nh, medium_values, nm, low_values, nl, grid)
    return 0


cdef void rank_counts(DealerModel model, const int* rows, const GroupWork* gw, Group* gr,
                      Work* w, Merge* mg) noexcept nogil:
    """The rank multiset's counts, shared by every row (the first row's cards: the same
    ranks), into gw.answers' first row; the rank classes with the joker count only when the
    rows do not hold it.  Sets gr.avail and gr.dealer_joker, and mg.class_key (each class's
    cell, for the merged keys)."""
    cdef const uint16_t* true_index = &model.rank_true[0, 0]
    cdef const uint16_t* low_part = &model.rank_low[0]
    cdef const uint16_t* high_part = &model.rank_high[0]
    cdef const int64_t* part_hands = w.part_hands
    cdef uint64_t* class_key = mg.class_key
    cdef Grid* grid = &w.g
    cdef int32_t* cells = w.cells
    cdef int availmask[4]                       # the first row's (its suits are not shared)
    cdef int64_t rank_ways[65]
    cdef int64_t offsuit_ways[4 * 52]
    cdef Py_ssize_t n, last
    cdef int t, cell
    gr.dealer_joker = cards_left(rows, 7, gr.avail, availmask, rank_ways, offsuit_ways)
    memset(cells, 0, grid.size * sizeof(int32_t))
    last = model.rank_triple.shape[0] if gr.dealer_joker else model.rank_joker_start
    model.part_ways(rank_ways, w.part_hands)
    for n in range(last):
        cell = grid.high_bucket[true_index[2 * n]] + grid.cell_bucket[true_index[2 * n + 1]]
        class_key[n] = <uint64_t>cell << KEY_CLASS
        cells[cell] += <int32_t>(part_hands[low_part[n]] * part_hands[high_part[n]])
    grid_prefix(grid, cells, w.pre, 1)          # and cells zeros again, for each suit set
    for t in range(gr.nt):
        gw.answers[t] = count_at(grid, w.pre, gr.triple_at[t])


cdef void suit_set_counts(DealerModel model, const GroupWork* gw, const Group* gr, Work* w,
                          Merge* mg) noexcept nogil:
    """One suit's flush corrections for each distinct suit set S (the ranks a row holds in
    that suit), into gw.answers' rows 1.. ns: an entry (F, O) counts when F avoids S, with
    O's off-suit ways, at its true triple's cell, and is taken from its rank class's cell.
    S lies in the rows' ranks R, so an entry's count is its O's ways outside R times a
    factor of its O's part in R and S: the entries are merged once by (F's part in R, O's
    part in R, the two cells) and each suit set reads the merged keys.  The two-flush
    entries are merged too (``merge_doubles``), for ``row_counts``."""
    cdef Grid* grid = &w.g
    cdef int32_t* cells = w.cells
    cdef int64_t* answer_row
    cdef Py_ssize_t nsrun = model.flush_runs.shape[0] - 1
    cdef int nid, nk, i, k, b, s, d, r, t, code, smask
    cdef int64_t acc
    cdef uint64_t key
    if not gr.dealer_joker:
        nsrun = model.run_joker_start
    nid = merge_entries(model, mg, gr.rmask, gr.sets, gr.ns, nsrun, grid, &nk)
    if gr.dealer_joker and model.double_ranks1.shape[0]:
        merge_doubles(model, mg, gr.rmask, gr.rr, gr.nr, grid)
    for s in range(gr.ns):
        smask = gr.sets[s]
        for i in range(nid):
            code = mg.id_code[i]
            acc = 1
            for k in range(gr.nr):
                d = (code >> (2 * k)) & 3
                if d:
                    r = gr.rr[k]
                    acc *= T.binom[gr.avail[r] - (((smask >> r) & 1) ^ 1)][d]
            mg.factor[i] = acc
        for b in range(mg.nblocks):
            if mg.block_flush_set[b] & smask:
                continue
            for i in range(mg.block_start[b], mg.block_start[b + 1]):
                key = mg.dkey[i]
                acc = mg.dval[i] * mg.factor[(key >> KEY_O) & KEY_O_MASK]
                cells[(key >> KEY_TRUE) & KEY_CELL_MASK] += <int32_t>acc
                cells[(key >> KEY_CLASS) & KEY_CELL_MASK] -= <int32_t>acc
        grid_prefix(grid, cells, w.pre, 1)
        answer_row = gw.answers + (1 + s) * GROUP_TRIPLES
        for t in range(gr.nt):
            answer_row[t] = count_at(grid, w.pre, gr.triple_at[t])
    for i in range(nid):
        mg.code_id[mg.id_code[i]] = -1


cdef void row_counts(DealerModel model, int g, const GroupWork* gw, const Group* gr,
                     Work* w, Merge* mg, int64_t* out) noexcept nogil:
    """Each row's 105 counts: the sum of its triple's parts (the rank multiset's, its four
    suit sets') and of the two-flush corrections (the joker with the dealer) of its six
    pairs of suits, counted once for each distinct pair of suit sets (``count_pair``); 0 for
    a foul."""
    cdef const int16_t* set_of = gw.set_of
    cdef int64_t* answers = gw.answers
    cdef int64_t* pair_sum = answers + (GROUP_SUIT_SETS + 1) * GROUP_TRIPLES
    cdef int64_t* pair_row
    cdef int i, k, s, s2, t, npair = 0
    cdef int doubles = gr.dealer_joker and model.double_ranks1.shape[0] > 0
    cdef int64_t acc
    for i in range(g):
        for t in range(gr.nt):
            pair_sum[t] = 0
        if doubles:
            for s in range(4):
                for s2 in range(s + 1, 4):
                    k = set_of[i * 4 + s] << 7 | set_of[i * 4 + s2]
                    if mg.pair_id[k] >= 0:
                        pair_row = mg.pairs + mg.pair_id[k] * GROUP_TRIPLES
                    else:
                        if npair < GROUP_PAIRS:
                            mg.pair_id[k] = npair
                            mg.pair_key[npair] = k
                            pair_row = mg.pairs + npair * GROUP_TRIPLES
                            npair += 1
                        else:                       # counted for this row alone
                            pair_row = mg.pairs + GROUP_PAIRS * GROUP_TRIPLES
                        count_pair(mg, gr.sets[set_of[i * 4 + s]], gr.sets[set_of[i * 4 + s2]],
                                   &w.g, w.cells, w.pre, gr.triple_at, gr.nt, pair_row)
                    for t in range(gr.nt):
                        pair_sum[t] += pair_row[t]
        for k in range(NSPLITS):
            t = gw.triple_of[i * NSPLITS + k]
            if t < 0:
                out[i * NSPLITS + k] = 0
                continue
            acc = answers[t] + pair_sum[t]
            for s in range(4):
                acc += answers[(1 + set_of[i * 4 + s]) * GROUP_TRIPLES + t]
            out[i * NSPLITS + k] = acc
    for i in range(npair):
        mg.pair_id[mg.pair_key[i]] = -1


cdef int solve_group(DealerModel model, const int* rows, int g, int side, int64_t* out,
                     const GroupWork* gw, Work* w, Merge* mg) noexcept nogil:
    """``solve_rows``'s counts of ``side`` (0 or 1) for ``g`` seven-card rows with one rank
    multiset, in one grid whose thresholds are the rows' distinct strengths (w.cells, its
    prefix sums in w.pre), sharing across the rows the dealer's rank-only counts, the
    single-flush entries (merged once, then read by each distinct suit set) and the
    two-flush corrections of each distinct pair of suit sets.  Returns 0, or -1 when the
    rows need more distinct triples, suit sets or cells than the work space holds (the
    caller then solves them one by one)."""
    cdef Group gr
    if model.other_pairs.shape[0] > KEY_O_MASK + 1:     # O's ids: KEY_O_BITS of a key
        return -1
    if group_triples(model, rows, g, side, gw, &gr) < 0:
        return -1
    sort_triples(gw, gr.nt, g)
    if group_grid(model, gw, &gr, &w.g) < 0:
        return -1
    rank_counts(model, rows, gw, &gr, w, mg)
    suit_set_counts(model, gw, &gr, w, mg)
    row_counts(model, g, gw, &gr, w, mg, out)
    return 0


def solve_groups_kernel(const card_t[:, ::1] hands, DealerModel model, int64_t[:, ::1] out,
                        int side=0):
    """The same counts as ``model.solve_rows`` (side 0, or 1 for any non-zero side: see
    there), faster when consecutive rows share their rank multiset (as ``player_classes``
    orders them): the dealer's rank-only counts and each suit's flush corrections are
    computed once for such a run of rows.  Releases the GIL.  Returns the first bad row or
    -1."""
    cdef Py_ssize_t j, a, bad, nrows = hands.shape[0]
    cdef int k, g
    cdef int* rows
    cdef void* work
    cdef Taken held                   # rows and work
    cdef GroupWork gw
    cdef int at[NSPLITS]
    cdef Work w
    cdef Merge mg
    cdef int64_t sig, sig0
    cdef uint64_t* tab
    cdef int tabbits = 0
    cdef Py_ssize_t nback = 0
    if hands.shape[1] != 7 or out.shape[0] != nrows or out.shape[1] != NSPLITS:
        raise ValueError("asiapoker: solve_groups_kernel needs n x 7 rows and n x 105 counts")
    side = side != 0
    tab = take_table(&tabbits)
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            start_taken(&held)
            rows = <int*>take(&held, GROUP_ROWS * 7 * sizeof(int), 0)
            work = take(&held, group_work(NULL, &gw), 0)
            if work != NULL:
                group_work(work, &gw)
            k = merge_alloc(model, &mg, tab, tabbits)
            tab = NULL
            if work_alloc(model, &w, GROUP_CELLS) < 0 or held.failed or k < 0:
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
                    if solve_group(model, rows, g, side, &out[a, 0], &gw, &w, &mg) < 0:
                        nback += g
                        for j in range(g):
                            model.hand_grid(rows + 7 * j, side, &w.g, at)
                            model.distribution(rows + 7 * j, 7, &w)
                            grid_wins(&w.g, w.cells, at, &out[a + j, 0], w.pre)
                    a += g
            free_taken(&held)
            work_free(&w)
            tab = mg.tab                      # its keys zero again: kept for the next call
            tabbits = mg.maxbits
            mg.tab = NULL
            merge_free(&mg)
    give_table(tab, tabbits)
    global fallback_rows
    fallback_rows += nback
    if bad == -2:
        raise MemoryError("asiapoker: no memory for the dealer distribution")
    return bad
