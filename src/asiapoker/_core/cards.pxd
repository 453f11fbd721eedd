# Card ids, and the checks every batch kernel makes before it reads a table.
#
# A card id is rank * 4 + suit for the 52 ordinary cards (rank 0..12 is 2..A, suit 0..3 is
# c, d, h, s) and 52 for the joker.  Everything here is inline: this file has no module.

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint64_t

cdef enum:
    JOKER = 52       # the joker's id
    NCARDS = 53      # ids 0..52
    NSPLITS = 105    # the ways to split seven cards into 4 + 2 + 1

# the integer types a batch of card rows (a C-contiguous n x w array) may come in
ctypedef fused card_t:
    int8_t
    uint8_t
    int16_t
    int32_t
    int64_t


cdef inline int rank_of(int card) noexcept nogil:
    """Rank 0..12 of a card; the joker counts as an ace (12)."""
    return 12 if card == JOKER else card >> 2


cdef inline void load7(const card_t* row, int* c) noexcept nogil:
    """Copy a checked seven-card row into ``c``."""
    cdef int k
    for k in range(7):
        c[k] = row[k]


cdef inline Py_ssize_t check_rows(const card_t[:, ::1] hands) noexcept nogil:
    """Index of the first row with an id outside 0..52 or a repeated id; -1 when all are fine."""
    cdef Py_ssize_t i, j
    cdef uint64_t mask, bit
    cdef int64_t v
    for i in range(hands.shape[0]):
        mask = 0
        for j in range(hands.shape[1]):
            v = hands[i, j]
            if v < 0 or v > 52:
                return i
            bit = (<uint64_t>1) << v
            if mask & bit:
                return i
            mask |= bit
    return -1


cdef inline void sort7(int* c) noexcept nogil:
    """Sort seven ids ascending, in place."""
    cdef int i, j, t
    for i in range(1, 7):
        t = c[i]
        j = i - 1
        while j >= 0 and c[j] > t:
            c[j + 1] = c[j]
            j -= 1
        c[j + 1] = t
