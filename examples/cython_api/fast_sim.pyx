# cython: language_level=3, boundscheck=False, wraparound=False
"""An example of embedding asiapoker in Cython: house way against house way, settled in a loop
that holds no Python object and releases the GIL, through the public C API
(``from asiapoker.capi cimport ...``).

Build it with ``python setup.py build_ext --inplace`` in this folder (see setup.py).
"""

from libc.stdint cimport int8_t, int32_t, int64_t

from asiapoker.capi cimport (
    bonus_mask7,
    house_way7,
    settle3,
    split_strengths7,
    strength1,
    table_way7,
)


def play(const int8_t[:, ::1] dealer, const int8_t[:, ::1] player, int way=0, int low=0):
    """Wins of ``player`` rows against ``dealer`` rows (both n x 7 card ids, CHECKED BY THE
    CALLER), both set by built-in way ``way`` (0 classic, 1 medium-first, 2 high-first);
    returns (wins, legal settings counted over all player hands, bonus hands)."""
    cdef Py_ssize_t i, n = dealer.shape[0]
    cdef int k
    cdef int d[7]
    cdef int p[7]
    cdef int32_t dh[3]
    cdef int32_t ph[3]
    cdef int32_t hi[105]
    cdef int32_t me[105]
    cdef int32_t lo[105]
    cdef int64_t wins = 0, legal = 0, bonus = 0
    if not 0 <= way <= 2:                  # house_way7 would return -1 and set nothing
        raise ValueError(f"way must be 0, 1 or 2 (asiapoker._core.BUILTIN_WAYS), got {way}")
    with nogil:
        for i in range(n):
            for k in range(7):
                d[k] = dealer[i, k]
                p[k] = player[i, k]
            house_way7(d, low, way, dh)
            house_way7(p, low, way, ph)
            wins += settle3(ph, dh) == 1
            legal += split_strengths7(p, low, hi, me, lo)
            bonus += bonus_mask7(p) != 0
    return wins, legal, bonus


def play_way(const int8_t[:, ::1] dealer, const int8_t[:, ::1] player,
             const int64_t[::1] keys, const int32_t[:, ::1] strengths):
    """Wins of ``player`` rows against ``dealer`` rows (CHECKED BY THE CALLER), both set by
    any house way given as its class table: ``keys, strengths = way.class_table(rules)``."""
    cdef Py_ssize_t i, n = dealer.shape[0], nk = keys.shape[0]
    cdef int k
    cdef int d[7]
    cdef int p[7]
    cdef int32_t dh[3]
    cdef int32_t ph[3]
    cdef int64_t wins = 0, missing = 0
    with nogil:
        for i in range(n):
            for k in range(7):
                d[k] = dealer[i, k]
                p[k] = player[i, k]
            missing += table_way7(d, &keys[0], &strengths[0, 0], nk, dh) != 0
            missing += table_way7(p, &keys[0], &strengths[0, 0], nk, ph) != 0
            wins += settle3(ph, dh) == 1
    return wins, missing


def low_strengths():
    """The strength of each of the 53 cards as a low hand."""
    cdef int c
    return [strength1(c) for c in range(53)]
