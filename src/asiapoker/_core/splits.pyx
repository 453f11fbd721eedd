# cython: language_level=3
"""The 105 splits of seven cards: their strengths, their legality (rule 3.2: high > medium >
low), a chosen split's strengths, and settling a setting against the dealer's.  The batch
kernels check every row before they read a table and return the first bad row, or -1."""

from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t

from asiapoker._core.cards cimport NSPLITS, card_t, check_rows, load7
from asiapoker._core.strengths cimport Tables, lookup2, lookup4, seven_parts, tables

cdef const Tables* T = tables()


def split_strengths(tuple ids, int a234_low):
    """(high, medium, low) strength lists of the 105 splits of seven checked ids."""
    cdef int c[7]
    cdef int32_t hi[NSPLITS]
    cdef int32_t me[NSPLITS]
    cdef int32_t lo[NSPLITS]
    cdef int k
    for k in range(7):
        c[k] = ids[k]
    split_strengths7(c, a234_low, hi, me, lo)
    return [hi[k] for k in range(NSPLITS)], [me[k] for k in range(NSPLITS)], \
        [lo[k] for k in range(NSPLITS)]


def split_positions():
    """The 105 splits as ((high positions), (medium positions), low position)."""
    return tuple(
        (tuple(T.sub4[T.split_high[k]][p] for p in range(4)),
         (T.pair_pos[T.split_medium[k]][0], T.pair_pos[T.split_medium[k]][1]),
         T.split_low[k])
        for k in range(NSPLITS)
    )


def legal_kernel(const card_t[:, ::1] hands, int a234_low, uint8_t[:, ::1] out):
    """Fill ``out`` (n x 105) with the legality of every split of n seven-card rows
    (rule 3.2: high > medium > low); returns the first bad row (nothing written) or -1."""
    cdef Py_ssize_t i, bad
    cdef int k
    cdef int c[7]
    cdef int32_t high35[35]
    cdef int32_t medium21[21]
    cdef int32_t low7[7]
    cdef int32_t m
    if hands.shape[1] != 7 or out.shape[0] != hands.shape[0] or out.shape[1] != NSPLITS:
        raise ValueError("asiapoker: legal_kernel needs n x 7 rows and n x 105 outputs")
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            for i in range(hands.shape[0]):
                load7(&hands[i, 0], c)
                seven_parts(c, a234_low, high35, medium21, low7)
                for k in range(NSPLITS):
                    m = medium21[T.split_medium[k]]
                    out[i, k] = high35[T.split_high[k]] > m and m > low7[T.split_low[k]]
    return bad


def split_strengths_kernel(const card_t[:, ::1] hands, int a234_low, int32_t[:, :, ::1] out):
    """Fill ``out`` (n x 105 x 3) with the (high, medium, low) strengths of every split of n
    seven-card rows; returns the first bad row (nothing written) or -1."""
    cdef Py_ssize_t i, bad
    cdef int k
    cdef int c[7]
    cdef int32_t hi[NSPLITS]
    cdef int32_t me[NSPLITS]
    cdef int32_t lo[NSPLITS]
    if (hands.shape[1] != 7 or out.shape[0] != hands.shape[0] or out.shape[1] != NSPLITS
            or out.shape[2] != 3):
        raise ValueError("asiapoker: split_strengths_kernel needs n x 7 rows and n x 105 x 3 "
                         "outputs")
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            for i in range(hands.shape[0]):
                load7(&hands[i, 0], c)
                split_strengths7(c, a234_low, hi, me, lo)
                for k in range(NSPLITS):
                    out[i, k, 0] = hi[k]
                    out[i, k, 1] = me[k]
                    out[i, k, 2] = lo[k]
    return bad


def chosen_kernel(const card_t[:, ::1] hands, const int64_t[::1] splits, int a234_low,
                  int32_t[:, ::1] out):
    """out[i] = the (high, medium, low) strengths of split ``splits[i]`` (SPLIT_POSITIONS
    order) of row i; returns the first bad row (a bad hand, or a split outside 0..104) or
    -1."""
    cdef Py_ssize_t i, bad
    cdef int k, q, m
    cdef int c[7]
    if splits.shape[0] != hands.shape[0] or out.shape[0] != hands.shape[0] or out.shape[1] != 3:
        raise ValueError("asiapoker: chosen_kernel needs one split and one output row a hand")
    with nogil:
        bad = check_rows(hands)
        for i in range(hands.shape[0] if bad < 0 else 0):
            if not 0 <= splits[i] < NSPLITS:
                bad = i
                break
        if bad < 0:
            for i in range(hands.shape[0]):
                load7(&hands[i, 0], c)
                k = splits[i]
                q = T.split_high[k]
                m = T.split_medium[k]
                out[i, 0] = lookup4(T, c[T.sub4[q][0]], c[T.sub4[q][1]], c[T.sub4[q][2]],
                                    c[T.sub4[q][3]],
                                    a234_low)
                out[i, 1] = lookup2(T, c[T.pair_pos[m][0]], c[T.pair_pos[m][1]])
                out[i, 2] = T.strength1[c[T.split_low[k]]]
    return bad


def match_split_kernel(const card_t[:, ::1] hands, int a234_low, const int32_t[:, ::1] tri,
                       int16_t[::1] out):
    """out[i] = the first split of row i (in SPLIT_POSITIONS order of the row) whose
    (high, medium, low) strengths are tri[i], or -1 when none is; returns the first bad row
    or -1."""
    cdef Py_ssize_t i, bad
    cdef int k
    cdef int c[7]
    cdef int32_t hi[NSPLITS]
    cdef int32_t me[NSPLITS]
    cdef int32_t lo[NSPLITS]
    if (hands.shape[1] != 7 or tri.shape[0] != hands.shape[0] or tri.shape[1] != 3
            or out.shape[0] != hands.shape[0]):
        raise ValueError("asiapoker: match_split_kernel needs n x 7 rows, n x 3 triples and n "
                         "outputs")
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            for i in range(hands.shape[0]):
                load7(&hands[i, 0], c)
                split_strengths7(c, a234_low, hi, me, lo)
                out[i] = -1
                for k in range(NSPLITS):
                    if hi[k] == tri[i, 0] and me[k] == tri[i, 1] and lo[k] == tri[i, 2]:
                        out[i] = k
                        break
    return bad


cdef int split_strengths7(const int* seven, int a234_low, int32_t* high, int32_t* medium,
                          int32_t* low_hand) noexcept nogil:
    cdef int32_t high35[35]
    cdef int32_t medium21[21]
    cdef int32_t low7[7]
    cdef int k, legal = 0
    seven_parts(seven, a234_low, high35, medium21, low7)
    for k in range(NSPLITS):
        high[k] = high35[T.split_high[k]]
        medium[k] = medium21[T.split_medium[k]]
        low_hand[k] = low7[T.split_low[k]]
        legal += high[k] > medium[k] and medium[k] > low_hand[k]
    return legal


cdef int settle3(const int32_t* player, const int32_t* dealer) noexcept nogil:
    if not (player[0] > player[1] and player[1] > player[2]):
        return -1
    return ((player[0] > dealer[0]) + (player[1] > dealer[1]) + (player[2] > dealer[2])) >= 2
