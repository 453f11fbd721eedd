# The older name of the C-level API, kept for the code that cimports it:
#
#     from asiapoker._core cimport strength4, split_strengths7, settle3, table_way7
#
# names the same functions as the public asiapoker.capi (asiapoker/capi.pxd), where they are
# described.

from asiapoker.capi cimport (
    bonus_mask7,
    house_way7,
    settle3,
    split_strengths7,
    strength1,
    strength2,
    strength4,
    table_way7,
)
