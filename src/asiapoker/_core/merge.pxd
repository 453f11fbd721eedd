# The grouped solver's work space (``groups.pyx``): its sizes, the hash of merged flush keys
# and what goes with it, allocated once a kernel call (the hash, 32 MB or more, is kept between
# calls: see ``groups.pyx``).
from libc.stdint cimport int16_t, int32_t, int64_t, uint64_t

from asiapoker._core.alloc cimport Taken
from asiapoker._core.dealer cimport LOW_STRIDE

cdef enum:
    GROUP_ROWS = 1024       # rows of one rank multiset solved together (a longer run is split)
    GROUP_TRIPLES = 512     # distinct player triples in such a run (at most 2 * 105 occur)
    GROUP_SUIT_SETS = 128   # distinct suit sets (subsets of at most 7 ranks)
    GROUP_HASH = 1024       # open-addressing table of triple keys
    GROUP_PAIRS = 512       # distinct pairs of suit sets whose two-flush counts are kept
    GROUP_CELLS = (GROUP_TRIPLES + 1) * 22 * LOW_STRIDE   # the largest grid of a run (21
                                                 # mediums and 7 lows: the rows share their ranks)


cdef struct GroupWork:
    # A group's work space in ``solve_group``, carved from one block by ``group_work`` (the
    # one place that lays it out and measures it).
    int64_t* qkey             # [GROUP_TRIPLES] the rows' distinct triples, sorted
    int64_t* answers          # [(GROUP_SUIT_SETS + 2) x GROUP_TRIPLES] each triple's counts:
                              # the rank classes', each suit set's, the pairs' of suit sets
    int16_t* triple_of        # [GROUP_ROWS x 105] each row's split's distinct triple
    int16_t* set_of           # [GROUP_ROWS x 4] each row's suit sets' index
    int16_t* set_index        # [8192] a suit set (its ranks) -> its index, -1 unseen
    int64_t* hash_key         # [GROUP_HASH] the open-addressing hash of triple keys
    int16_t* hash_value       # [GROUP_HASH] their distinct triple, -1 empty
    int16_t* order            # [GROUP_HASH] the distinct triples in the order of their keys


cdef enum:
    # The merged key of a single-flush entry (merge_entries, merge_pass, solve_group): one
    # uint64_t, KEY_SET | F & R | O's id << KEY_O | true cell << KEY_TRUE | class cell <<
    # KEY_CLASS; and of a two-flush entry (merge_doubles): KEY_SET | F1 & R << DKEY_F1 |
    # F2 & R << DKEY_F2 | first cell << DKEY_CELL1 | second cell.  Every reader and writer
    # uses these names; groups.pyx checks at import that the fields hold what they must.
    KEY_F_BITS = 13           # bits 0..12: F & R, a set of the 13 ranks
    KEY_O = 13                # bits 13..26: the id of O's part in the rows' ranks (code_id)
    KEY_O_BITS = 14
    KEY_TRUE = 27             # bits 27..43: the entry's true cell of the group's grid
    KEY_CLASS = 44            # bits 44..60: its rank class's cell
    KEY_CELL_BITS = 17        # a cell of a group's grid (GROUP_CELLS of them fit)
    DKEY_CELL1 = 17           # a two-flush key: bits 0..16 its second cell, 17..33 its first,
    DKEY_F2 = 34              # 34..46 F2 & R,
    DKEY_F1 = 47              # 47..59 F1 & R
    KEY_F_MASK = 0x1FFF       # (1 << KEY_F_BITS) - 1
    KEY_O_MASK = 0x3FFF       # (1 << KEY_O_BITS) - 1
    KEY_CELL_MASK = 0x1FFFF   # (1 << KEY_CELL_BITS) - 1


cdef enum:
    MERGE_BITS = 21           # the hash of merged flush keys: at least 2^21 slots, and at
                              # least four times the model's entries (``merge_bits``)
    MERGE_LEAST_BITS = 10     # the least slots a group's hash uses: 2^10

cdef extern from "sysdep.h":     # a hint to fetch a cache line ahead (no effect on a result)
    void ASIAPOKER_PREFETCH(const void* address) noexcept nogil


cdef extern from *:
    """
    /* in every merged key of the grouped solver's hash (0 is an empty slot) */
    #define ASIAPOKER_KEY_SET (((uint64_t)1) << 62)
    """
    const uint64_t KEY_SET "ASIAPOKER_KEY_SET"


cdef struct Merge:
    # A group's flush entries merged by what a suit set's count of them depends on (see
    # ``merge_entries``).
    uint64_t* tab             # [2 * slot] a merged key (0: empty), [2 * slot + 1] its hands
                              # without the factor of O's ranks in the rows' (mg.factor, one
                              # suit set's), side by side: one cache line a probe.  A group
                              # uses the first 2^tbits slots, at most a quarter full (few
                              # probes); its keys zero between groups
    int tbits                 # the slots the next group starts with: 8 x the last one's keys
                              # (a merge that fills a quarter of them starts again with twice)
    int maxbits               # the table's size: 2^maxbits slots (``merge_bits``)
    int32_t* used             # [k] the slots in use, in order
    uint64_t* run_keys        # [i] the keys of one run's entries (the longest run's length)
    uint64_t* dkey            # [k] the merged keys after the merge (then the table's keys are
    int64_t* dval             # zero again), by blocks of one F & rmask, and their hands
    int32_t* flush_set_count  # [F & rmask] its keys, then where the next goes (zeros between)
    int nblocks               # the blocks: at most 2^7 (the rows hold at most 7 ranks)
    int32_t block_flush_set[128]  # [b] the F & rmask of block b
    int32_t block_start[129]  # [b] its first key (then nk)
    uint64_t* class_key       # [rank class] its cell of the group's grid << 44
    int32_t* rest_ways        # [o] the off-suit ways of O's ranks the rows do not hold
    uint64_t* o_key           # [o] the id of O's part in the rows' ranks << 13
    uint64_t* cell_key        # [medium * NL + low] the grid's cell_bucket << 27, then [NM * NL +
                              # high index] its high_bucket << 27 (one base for both in merge_pass)
    int32_t* id_code          # [id] that part, a base-4 digit (count) per rank of the rows
    int16_t* code_id          # [code] its id (-1: none yet)
    int64_t* factor           # [id] one suit set's ways of that part
    int dtbits                # as tbits, for the two-flush halves (``merge_doubles``)
    int32_t* pair_cells       # [3 * i] a merged two-flush half: +count's cell, -count's cell,
                              # count; by blocks of one (F1 & R, F2 & R)
    int32_t* pair_block       # [k] the merged half k's block number (in the table's order)
    int32_t* dblock_count     # [block number] its halves, then where the next goes (zeros)
    int ndblocks              # the blocks
    int32_t* dblock_key       # [b] block b's number (7 + 7 bits: F1 & R, F2 & R among R)
    int32_t* dblock_f1        # [b] its F1 & R
    int32_t* dblock_f2        # [b] its F2 & R
    int32_t* dblock_start     # [b] its first half (then the count of halves)
    int64_t* pairs            # [p * GROUP_TRIPLES + t] a pair of suit sets' two-flush counts
    int16_t* pair_id          # [set index << 7 | set index] its row of pairs (-1: none yet)
    int32_t* pair_key         # [p] the pair of each row
    Taken taken               # the arrays above but tab, as merge_alloc took them
