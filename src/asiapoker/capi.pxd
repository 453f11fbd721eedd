# The public C-level API of asiapoker, for Cython code that embeds the game:
#
#     from asiapoker.capi cimport strength4, split_strengths7, settle3, table_way7
#
# (``from asiapoker._core cimport ...``, the older name, gives the same functions.)
#
# Every function runs without the GIL and touches no Python object.  Card ids are
# rank * 4 + suit (rank 0..12 is 2..A, suit 0..3 is c, d, h, s) and 52 for the joker;
# strengths share one integer scale for 4-, 2- and 1-card hands (a larger int is a better
# hand).  NOTHING HERE CHECKS ITS INPUT: ids must be distinct and in 0..52 (validate once, in
# Python or with your own loop, before the hot loop), ``a234_low`` is 0 (A-2-3-4 high) or 1
# (A-2-3-4 low).
#
# int32_t strength4(int a, int b, int c, int d, int a234_low)
# int32_t strength2(int a, int b)
# int32_t strength1(int a)
#     the strength of a 4-, 2- or 1-card hand
# int split_strengths7(const int* seven, int a234_low, int32_t* high, int32_t* medium,
#                      int32_t* low_hand)
#     (high, medium, low) strengths of the 105 splits of seven cards, in SPLIT_POSITIONS order
#     of ``seven`` as given; returns how many of them are legal
# int settle3(const int32_t* player, const int32_t* dealer)
#     a player's (high, medium, low) strengths against the dealer's: 1 the wager wins, 0 it
#     loses, -1 a foul (the player's setting is illegal)
# int house_way7(const int* seven, int a234_low, int way, int32_t* hml)
#     a built-in house way's setting of seven cards: writes (high, medium, low) strengths to
#     ``hml`` and returns the split index into the seven cards SORTED ascending; ``way`` is
#     0 classic, 1 medium-first, 2 high-first (asiapoker._core.BUILTIN_WAYS in order); any
#     other ``way`` writes nothing and returns -1
# int bonus_mask7(const int* seven)
#     the bonus categories seven cards qualify for, as a bit mask (bit i is
#     asiapoker.BONUS_CATEGORIES[i])
# int table_way7(const int* seven, const int64_t* keys, const int32_t* strengths,
#                Py_ssize_t n, int32_t* hml)
#     ANY house way's setting of seven cards (built-in, stored such as the default
#     "standard", or compiled from your function), from its class table:
#     ``keys, strengths = way.class_table(rules)`` in Python (n sorted int64 keys, n x 3 int32
#     strengths; keep both alive), then pass ``&keys[0]``, ``&strengths[0, 0]`` and n.
#     Writes (high, medium, low) strengths to ``hml``; returns 0, or -1 if the hand has no
#     class in the table (never for a way's own table)
#
# Each function is declared in the .pxd of the core module that defines it
# (asiapoker/_core/strengths.pxd, splits.pxd, house_ways.pxd, bonus.pxd, class_keys.pxd).

from asiapoker._core.bonus cimport bonus_mask7
from asiapoker._core.class_keys cimport table_way7
from asiapoker._core.house_ways cimport house_way7
from asiapoker._core.splits cimport settle3, split_strengths7
from asiapoker._core.strengths cimport strength1, strength2, strength4
