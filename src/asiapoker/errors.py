"""The exceptions asiapoker raises: all are ``ValueError`` subclasses."""

from __future__ import annotations

__all__ = [
    "AsiaPokerError",
    "BonusError",
    "CardError",
    "DuplicateCardError",
    "HandSizeError",
    "HouseWayError",
    "IllegalSettingError",
    "RuleError",
    "WagerError",
]


class AsiaPokerError(ValueError):
    """Base class of every error asiapoker raises for bad input."""


class CardError(AsiaPokerError):
    """A token or id that is not a card (unknown rank or suit, id outside 0..52)."""


class DuplicateCardError(CardError):
    """The same card (or a second joker) appears twice."""


class HandSizeError(AsiaPokerError):
    """A hand with the wrong number of cards for the call."""


class RuleError(AsiaPokerError):
    """A rule option outside its allowed values."""


class IllegalSettingError(AsiaPokerError):
    """A setting that breaks high > medium > low where a legal one is required."""


class HouseWayError(AsiaPokerError):
    """An unknown house way, or a user-written way that returned a bad setting."""


class BonusError(AsiaPokerError):
    """An unknown pay table or category, or a bad payout."""


class WagerError(AsiaPokerError):
    """A wager the table cannot take (no such seat, a bonus alone, non-adjacent areas, a bad
    amount) or a bad simulation argument."""
