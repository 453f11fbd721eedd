# The public C-level API of asiapoker, for Cython code that embeds the game:
#
#     from asiapoker.capi cimport strength4, split_strengths7, settle3, table_way7
#
# The functions live in the compiled core; their declarations, with what each one does and
# the input it trusts, are in asiapoker/_core.pxd (``cimport asiapoker._core`` names the same
# functions).  NOTHING HERE CHECKS ITS INPUT: validate once, before the hot loop.

from asiapoker._core cimport (
    bonus_mask7,
    house_way7,
    settle3,
    split_strengths7,
    strength1,
    strength2,
    strength4,
    table_way7,
)
