# The 105 splits of seven cards into (high, medium, low), and settling one against another.

from libc.stdint cimport int32_t

# the C-level API (asiapoker/capi.pxd):
# (high, medium, low) strengths of the 105 splits of seven cards, in SPLIT_POSITIONS order of
# ``seven`` as given; returns how many of them are legal
cdef int split_strengths7(const int* seven, int a234_low, int32_t* high, int32_t* medium,
                          int32_t* low_hand) noexcept nogil

# a player's (high, medium, low) strengths against the dealer's: 1 the wager wins, 0 it
# loses, -1 a foul (the player's setting is illegal)
cdef int settle3(const int32_t* player, const int32_t* dealer) noexcept nogil
