"""The exceptions asiapoker raises: all are ``ValueError`` subclasses."""

from __future__ import annotations

__all__ = [
    "AsiaPokerError",
    "BonusError",
    "CardError",
    "DuplicateCardError",
    "FileError",
    "FileWriteError",
    "GameValueError",
    "HandSizeError",
    "HouseWayError",
    "IllegalSettingError",
    "KnownCardError",
    "MissingExtraError",
    "OptimalTableError",
    "OptionError",
    "RuleError",
    "RunError",
    "StrategyError",
    "UsageError",
    "WagerError",
]


class AsiaPokerError(ValueError):
    """Base class of every error asiapoker raises for bad input."""


class CardError(AsiaPokerError):
    """A token or id that is not a card (unknown rank or suit, id outside 0..52)."""


class DuplicateCardError(CardError):
    """The same card (or a second joker) appears twice."""


class KnownCardError(CardError):
    """Known cards that cannot be: a dead or dealer card in the hand or named twice, a card
    both dead and the dealer's, more than 7 dealer cards, or too few cards left for the
    dealer."""


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
    amount)."""


class OptionError(AsiaPokerError):
    """An option of a call outside what it takes (a solver's ``method``, ``side``,
    ``columns``, ``wins_dtype`` or ``progress``; a count such as ``rounds``, ``seats``,
    ``hands`` or ``workers``; a server's address)."""


class UsageError(AsiaPokerError):
    """A command line the ``asiapoker`` command does not take (an unknown option, a missing
    argument)."""


class StrategyError(AsiaPokerError):
    """A player strategy (a function the user passed) that raised or returned a bad answer."""


class FileError(AsiaPokerError):
    """A file that cannot be used: missing, unreadable, damaged (its checksum fails), too
    large, or written for something else (its recorded identity does not match the call)."""


class FileWriteError(FileError):
    """A file that could not be written (a full disk, a missing or read-only folder); the
    message names the file."""


class RunError(AsiaPokerError):
    """A run directory that does not fit the call (other parameters, a foreign file)."""


class GameValueError(AsiaPokerError):
    """A mix, a payoff matrix or a game-value run that does not fit (weights that do not sum
    to their denominator, runs of different sides, a run folder of other rules)."""


class OptimalTableError(AsiaPokerError):
    """No optimal-play table for a house way and rules (or for a hand's class), or a table
    for other ones than the call's."""


class MissingExtraError(AsiaPokerError):
    """An optional feature whose library is not installed."""


def install_hint(extra: str) -> str:
    """How to install an extra, both ways: from a clone of the repository and from a
    release."""
    return (f"pip install '.[{extra}]' in a clone of asiapoker, or pip install "
            f"'asiapoker[{extra}]' for a release")


def require_extra(module: str, extra: str, what: str = "this") -> None:
    """Raise :class:`MissingExtraError` in one line when ``module`` cannot be imported, naming
    the library and both ways to install it."""
    import importlib
    try:
        importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(f"{what} needs {module} (the {extra} extra): "
                                f"{install_hint(extra)}") from None
