"""The compiled core of asiapoker: one extension module a concept, data flowing one way.

================  ===========================================================================
``cards``         card ids, and the row checks every batch kernel makes (``cards.pxd``)
``strengths``     the strength of every 4-, 2- and 1-card hand, and the splits of seven
``splits``        the 105 splits of seven cards: strengths, legality, settling
``house_ways``    the built-in house ways (rule 5)
``dealer``        the dealer model of a house way, and the exact counts of a hand's splits
``known_cards``   the same with cards known to be dead or the dealer's
``groups``        the grouped solver of the whole game: its work space, the merge of its
                  single-flush and two-flush entries (``merge.pxd`` declares their fields)
``layout``        the dealer model's arrays, described once (names, dtypes, widths, bounds)
``reference``     the reference solver: every dealer hand, one by one
``bonus``         the bonus wager (rule 4)
``class_keys``    class keys, by which a compiled house way stores its settings
``optimal``       a hand's class among the 6,972,147, and its best split from a table
``suit_renaming`` hands up to suit renaming
================  ===========================================================================

Each module's ``.pxd`` declares its C level, with its fields commented; ``dealer.pxd`` also
holds the few small inline functions of the grid that several modules share (Cython inlines
a function across modules only from a ``.pxd``).  C lives in named headers: ``grid.h``, the
grid's prefix sums; ``sysdep.h``, the compiler differences.  The work spaces take their arrays
through one helper, ``alloc.pxd``, which frees them together.  The public C API for Cython code is
``asiapoker/capi.pxd``.
This package re-exports the Python-facing functions, which the rest of asiapoker calls.
"""

from .bonus import BONUS_CATEGORIES, bonus_enumerate, bonus_kernel
from .class_keys import class_keys_kernel, class_weights_enumerate, classify_kernel
from .dealer import DealerModel
from .groups import (
    group_fallback_rows,
    kept_group_tables,
    release_group_tables,
    solve_groups_kernel,
)
from .house_ways import BUILTIN_WAYS, choose_one, house_way_kernel
from .known_cards import dealer_distribution, solve_known_kernel
from .layout import MODEL_ARRAYS, MODEL_LAYOUT, check_layout
from .optimal import SLOT_COUNT, best_splits_kernel, index_codes_kernel
from .reference import enumerate_dealer
from .splits import (
    chosen_kernel,
    legal_kernel,
    match_split_kernel,
    split_positions,
    split_strengths,
    split_strengths_kernel,
)
from .strengths import CATEGORIES, strength, strengths_kernel, table_view
from .suit_renaming import class_codes_kernel, suit_classes_kernel

__all__ = [
    "BONUS_CATEGORIES",
    "BUILTIN_WAYS",
    "CATEGORIES",
    "MODEL_ARRAYS",
    "MODEL_LAYOUT",
    "SLOT_COUNT",
    "DealerModel",
    "best_splits_kernel",
    "bonus_enumerate",
    "bonus_kernel",
    "check_layout",
    "choose_one",
    "chosen_kernel",
    "class_codes_kernel",
    "class_keys_kernel",
    "class_weights_enumerate",
    "classify_kernel",
    "dealer_distribution",
    "enumerate_dealer",
    "group_fallback_rows",
    "house_way_kernel",
    "index_codes_kernel",
    "kept_group_tables",
    "legal_kernel",
    "match_split_kernel",
    "release_group_tables",
    "solve_groups_kernel",
    "solve_known_kernel",
    "split_positions",
    "split_strengths",
    "split_strengths_kernel",
    "strength",
    "strengths_kernel",
    "suit_classes_kernel",
    "table_view",
]
