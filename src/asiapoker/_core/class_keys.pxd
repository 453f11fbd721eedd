# Class keys: the class of seven cards, as one int64 (asiapoker._compile takes the same keys
# of each class's representative).  A flush suit holds 4+ of the cards, or 3+ with the joker.
#   no flush possible:      0 << 62 | joker << 61 | sum(count[r] * 5**r)
#   one flush suit (F):     1 << 62 | joker << 61 | F << 26 | sum(other[r] * 4**r)
#   two (3 + 3 + joker):    2 << 62 | F_lower_suit << 13 | F_other_suit

from libc.stdint cimport int32_t, int64_t

# the class key of seven distinct ids
cdef int64_t class_key(const int* c) noexcept nogil

# the C-level API (asiapoker/capi.pxd): ANY house way's setting of seven cards (built-in,
# stored such as the default "standard", or compiled from your function), from its class
# table: ``keys, strengths = way.class_table(rules)`` in Python (n sorted int64 keys, n x 3
# int32 strengths; keep both alive), then pass ``&keys[0]``, ``&strengths[0, 0]`` and n.
# Writes (high, medium, low) strengths to ``hml``; returns 0, or -1 if the hand has no class
# in the table (never for a way's own table)
cdef int table_way7(const int* seven, const int64_t* keys, const int32_t* strengths,
                    Py_ssize_t n, int32_t* hml) noexcept nogil


cdef inline Py_ssize_t find_key(const int64_t* keys, Py_ssize_t n, int64_t key) noexcept nogil:
    """Index of ``key`` in the sorted ``keys[:n]``, or -1."""
    cdef Py_ssize_t lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo < n and keys[lo] == key else -1
