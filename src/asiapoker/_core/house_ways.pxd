# The built-in house ways (rule 5): a priority over the three hands, or "classic".

from libc.stdint cimport int32_t

# The house way (kind, first_hand, second_hand, third_hand)'s split of seven ids sorted
# ascending (an index into their splits); writes its (high, medium, low) strengths to
# ``hml``.  kind 0 ranks the legal splits by the strengths of hands first_hand,
# second_hand, third_hand (0 high, 1 medium, 2 low); kind 1 is "classic" (rule 5.4).
# Ties go to the first split in order.
cdef int choose(const int* c, int a234_low, int kind, int first_hand, int second_hand,
                int third_hand, int32_t* hml) noexcept nogil

# the C-level API (asiapoker/capi.pxd): a built-in house way's setting of seven cards in any
# order; writes (high, medium, low) strengths to ``hml`` and returns the split index into the
# seven cards SORTED ascending; ``way`` is 0 classic, 1 medium-first, 2 high-first
# (asiapoker._core.BUILTIN_WAYS in order); any other ``way`` writes nothing and returns -1
cdef int house_way7(const int* seven, int a234_low, int way, int32_t* hml) noexcept nogil
