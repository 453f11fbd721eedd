"""asiapoker: the exact, fast hand-setting solver for Asia Poker.

Data flows one way: cards -> strengths -> settings -> outcomes.  The names below are the
ones most calls need; each module's page has the rest:

- hands: :mod:`asiapoker.cards`, :mod:`asiapoker.ranks`, :mod:`asiapoker.setting`,
  :mod:`asiapoker.rules`, :mod:`asiapoker.errors`;
- the dealer: :mod:`asiapoker.house_way`, :mod:`asiapoker.rack` (written ways),
  :mod:`asiapoker.equilibrium` (ways derived exactly);
- the solver: :mod:`asiapoker.solver`, :mod:`asiapoker.known` (known cards),
  :mod:`asiapoker.spots` (several spots), :mod:`asiapoker.optimal` (optimal play as a
  table);
- the whole game: :mod:`asiapoker.analysis`, :mod:`asiapoker.suit_classes`,
  :mod:`asiapoker.sampling`, :mod:`asiapoker.parquet`, :mod:`asiapoker.report`;
- play: :mod:`asiapoker.simulation`, :mod:`asiapoker.table`, :mod:`asiapoker.bonus`;
- strategy cards: :mod:`asiapoker.strategy`, :mod:`asiapoker.card_search`,
  :mod:`asiapoker.pricing`, :mod:`asiapoker.card_page`;
- front ends: :mod:`asiapoker.cli`, :mod:`asiapoker.web`.

>>> from asiapoker import rank, Setting, settle
>>> str(rank("Jk As Ks 5s"))
'Flush, A-K-Q-5 of spades'
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING, Any

from . import equilibrium, known, optimal, rack
from .bonus import (
    BONUS_CATEGORIES,
    BonusOdds,
    PayTable,
    bonus_hand,
    bonus_hands,
    bonus_odds,
    bonus_payout,
    bonus_payouts,
)
from .cards import JOKER, Card, deck, parse_cards
from .errors import (
    AsiaPokerError,
    BonusError,
    CardError,
    DuplicateCardError,
    FileError,
    FileWriteError,
    GameValueError,
    HandSizeError,
    HouseWayError,
    IllegalSettingError,
    KnownCardError,
    MissingExtraError,
    OptimalTableError,
    OptionError,
    RuleError,
    RunError,
    StrategyError,
    WagerError,
)
from .house_way import DEFAULT_WAY, HouseWay, dealer_strengths, house_way, house_way_splits
from .optimal import OptimalTable, best_splits, make_optimal_table
from .ranks import CATEGORIES, HandRank, rank, strengths
from .rules import Rules
from .setting import (
    SPLIT_POSITIONS,
    Outcome,
    Setting,
    is_legal,
    legal_splits,
    settle,
    settle_many,
    split_strengths,
    split_strengths_of,
    splits,
)
from .solver import (
    BatchSolution,
    SettingResult,
    Solution,
    count_splits,
    solve,
    solve_chunks,
    solve_many,
)

# the modules a first call of the solver or of best_splits does not need are imported when a
# name of theirs is first read (PEP 562), so that ``import asiapoker`` stays quick
_LAZY = {"exploitability": "sampling", "SimResult": "simulation", "simulate": "simulation",
         "SpotsSolution": "spots", "solve_spots": "spots", "Table": "table", "Wager": "table"}

if TYPE_CHECKING:
    from . import analysis, simulation, table
    from .sampling import exploitability
    from .simulation import SimResult, simulate
    from .spots import SpotsSolution, solve_spots
    from .table import Table, Wager


def __getattr__(name: str) -> Any:
    """A name of a module imported on first use, or any public submodule."""
    home = _LAZY.get(name)
    if home is None:
        if name not in _SUBMODULES:
            raise AttributeError(f"module 'asiapoker' has no attribute {name!r}")
        home = name
    module = importlib.import_module(f".{home}", __name__)
    value = module if home == name else getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


_SUBMODULES = frozenset(m.name for m in pkgutil.iter_modules(__path__)
                        if not m.name.startswith("_"))

__version__ = "0.1.0"

__all__ = [
    "BONUS_CATEGORIES",
    "CATEGORIES",
    "DEFAULT_WAY",
    "JOKER",
    "SPLIT_POSITIONS",
    "AsiaPokerError",
    "BatchSolution",
    "BonusError",
    "BonusOdds",
    "Card",
    "CardError",
    "DuplicateCardError",
    "FileError",
    "FileWriteError",
    "GameValueError",
    "HandRank",
    "HandSizeError",
    "HouseWay",
    "HouseWayError",
    "IllegalSettingError",
    "KnownCardError",
    "MissingExtraError",
    "OptimalTable",
    "OptimalTableError",
    "OptionError",
    "Outcome",
    "PayTable",
    "RuleError",
    "Rules",
    "RunError",
    "Setting",
    "SettingResult",
    "SimResult",
    "Solution",
    "SpotsSolution",
    "StrategyError",
    "Table",
    "Wager",
    "WagerError",
    "analysis",
    "best_splits",
    "bonus_hand",
    "bonus_hands",
    "bonus_odds",
    "bonus_payout",
    "bonus_payouts",
    "count_splits",
    "dealer_strengths",
    "deck",
    "equilibrium",
    "exploitability",
    "house_way",
    "house_way_splits",
    "is_legal",
    "known",
    "legal_splits",
    "make_optimal_table",
    "optimal",
    "parse_cards",
    "rack",
    "rank",
    "settle",
    "settle_many",
    "simulate",
    "simulation",
    "solve",
    "solve_chunks",
    "solve_many",
    "solve_spots",
    "split_strengths",
    "split_strengths_of",
    "splits",
    "strengths",
    "table",
]
