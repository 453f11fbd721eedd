"""asiapoker: the exact, fast hand-setting solver for Asia Poker.

Data flows one way: cards -> strengths -> settings -> outcomes.

>>> from asiapoker import rank, Setting, settle
>>> str(rank("Jk As Ks 5s"))
'Flush, A-K-Q-5 of spades'
"""

from .cards import JOKER, Card, deck, parse_cards
from .errors import (
    AsiaPokerError,
    CardError,
    DuplicateCardError,
    HandSizeError,
    HouseWayError,
    IllegalSettingError,
    RuleError,
)
from .ranks import CATEGORIES, HandRank, rank, strengths
from .rules import Rules
from .setting import (
    SPLIT_POSITIONS,
    Outcome,
    Setting,
    is_legal,
    legal_splits,
    settle,
    splits,
)

__version__ = "0.1.0"

__all__ = [
    "CATEGORIES",
    "JOKER",
    "SPLIT_POSITIONS",
    "AsiaPokerError",
    "Card",
    "CardError",
    "DuplicateCardError",
    "HandRank",
    "HandSizeError",
    "HouseWayError",
    "IllegalSettingError",
    "Outcome",
    "RuleError",
    "Rules",
    "Setting",
    "deck",
    "is_legal",
    "legal_splits",
    "parse_cards",
    "rank",
    "settle",
    "splits",
    "strengths",
]
