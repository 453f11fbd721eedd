"""asiapoker: the exact, fast hand-setting solver for Asia Poker.

Data flows one way: cards -> strengths -> settings -> outcomes.

>>> from asiapoker import rank, Setting, settle
>>> str(rank("Jk As Ks 5s"))
'Flush, A-K-Q-5 of spades'
"""

from . import analysis, equilibrium, known, optimal, rack, simulation, table
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
from .sampling import exploitability
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
from .simulation import SimResult, simulate
from .solver import (
    BatchSolution,
    SettingResult,
    Solution,
    count_splits,
    solve,
    solve_chunks,
    solve_many,
)
from .spots import SpotsSolution, solve_spots
from .table import Table, Wager

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
