# The grouped solver's two-flush corrections (``groups.pyx``): a group's two-flush entries
# merged once (``merge_doubles``), then read by each distinct pair of suit sets
# (``count_pair``).  Inline functions: groups.pyx is their one user.
from libc.stdint cimport int32_t, int64_t, uint16_t, uint32_t, uint64_t

from asiapoker._core.dealer cimport DealerModel, Grid, cell_of, count_at, grid_prefix
from asiapoker._core.merge cimport (
    DKEY_CELL1, DKEY_F1, DKEY_F2, KEY_CELL_MASK, KEY_F_MASK, KEY_SET, MERGE_LEAST_BITS, Merge,
)


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
    its count.  Returns the number of keys, or -1 (the table's keys zero again) when they pass a quarter of the slots."""
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
