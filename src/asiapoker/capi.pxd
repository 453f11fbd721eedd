# The public C-level API of asiapoker, for Cython code that embeds the game:
#
#     from asiapoker.capi cimport strength4, split_strengths7, settle3, table_way7
#
# Every function runs without the GIL and touches no Python object.  Card ids are
# rank * 4 + suit (rank 0..12 is 2..A, suit 0..3 is c, d, h, s) and 52 for the joker;
# strengths share one integer scale for 4-, 2- and 1-card hands (a larger int is a better
# hand).  NOTHING HERE CHECKS ITS INPUT: ids must be distinct and in 0..52 (validate once, in
# Python or with your own loop, before the hot loop), ``a234_low`` is 0 (A-2-3-4 high) or 1
# (A-2-3-4 low).
#
# Each function is declared, with what it does, in the .pxd of the core module that defines it:
#
#   strength4, strength2, strength1   the strength of a 4-, 2- or 1-card hand
#                                     (asiapoker/_core/strengths.pxd)
#   split_strengths7, settle3         the 105 splits of seven cards; settling a setting
#                                     against the dealer's (asiapoker/_core/splits.pxd)
#   house_way7                        a built-in house way's setting
#                                     (asiapoker/_core/house_ways.pxd)
#   table_way7                        ANY house way's setting, from its class table
#                                     (asiapoker/_core/class_keys.pxd)
#   bonus_mask7                       the bonus categories of seven cards
#                                     (asiapoker/_core/bonus.pxd)

from asiapoker._core.bonus cimport bonus_mask7
from asiapoker._core.class_keys cimport table_way7
from asiapoker._core.house_ways cimport house_way7
from asiapoker._core.splits cimport settle3, split_strengths7
from asiapoker._core.strengths cimport strength1, strength2, strength4
