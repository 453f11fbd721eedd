# The bonus wager (rule 4).

# the C-level API (asiapoker/capi.pxd): the bonus categories seven cards qualify for, as a
# bit mask (bit i is asiapoker.BONUS_CATEGORIES[i])
cdef int bonus_mask7(const int* seven) noexcept nogil
