"""Hand strengths (rule 2): one integer scale for 4-, 2- and 1-card hands.

>>> str(rank("As 2s 3s Jk"))
'Straight flush, A-2-3-4 of spades'
>>> str(rank("7h 7d Kc 3s"))
'Pair of sevens, K-3 kickers'
>>> rank("7h 7d") < rank("7h 7d Kc 3s")   # rule 2.8
True
>>> rank("As Ks Qs")
Traceback (most recent call last):
...
asiapoker.errors.HandSizeError: a hand needs 1 or 2 or 4 cards, got 3: As Ks Qs
"""

from __future__ import annotations

from functools import total_ordering
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from ._validate import as_card_array, run_kernel
from .cards import Card, CardsLike, card_of, to_ids
from .rules import Rules, resolve

__all__ = ["CATEGORIES", "HandRank", "rank", "strengths"]

CATEGORIES: tuple[str, ...] = _core.CATEGORIES
"""Category names, lowest (0) to highest (9); ``strength >> 16`` is the index (defined in the
core, with the numbers its tables use)."""
_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
_PLURAL = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
           "jacks", "queens", "kings", "aces")
_SHORT = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_SINGLE = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack",
           "Queen", "King", "Ace")
"""A one-card hand as a player says it (ranks in words, as in "Pair of sevens"; the lists of
kickers and of a straight's or flush's cards stay short: "K-3 kickers")."""


def _straight_ranks(index: int, low: bool) -> str:
    """Ranks of the straight at place ``index`` (1 = lowest) as text."""
    if index == 11:
        return "A-K-Q-J"
    if (index == 10 and not low) or (index == 1 and low):
        return "A-2-3-4"
    top = index + 1 if low else index + 2
    return "-".join(_SHORT[r] for r in range(top, top - 4, -1))


def describe(strength: int, cards: tuple[int, ...], low: bool = False) -> str:
    """A description a player reads, from a strength and its cards (for the flush suit)."""
    cat = strength >> 16
    ks = [(strength >> s & 15) - 1 for s in (12, 8, 4, 0)]
    ks = [k for k in ks if k >= 0]
    suits = {c & 3 for c in cards if c != 52}
    suit = _SUIT_NAMES[suits.pop()] if len(suits) == 1 else ""
    if cat == 9:
        return "Four aces"
    if cat == 8:
        return f"Royal flush of {suit}"
    if cat == 7:
        return f"Straight flush, {_straight_ranks(ks[0] + 1, low)} of {suit}"
    if cat == 6:
        return f"Four {_PLURAL[ks[0]]}"
    if cat == 5:
        return f"Flush, {'-'.join(_SHORT[k] for k in ks)} of {suit}"
    if cat == 4:
        return f"Straight, {_straight_ranks(ks[0] + 1, low)}"
    if cat == 3:
        return f"Three {_PLURAL[ks[0]]}, {_SHORT[ks[1]]} kicker"
    if cat == 2:
        return f"Two pairs, {_PLURAL[ks[0]]} and {_PLURAL[ks[1]]}"
    if cat == 1:
        if len(ks) == 1:
            return f"Pair of {_PLURAL[ks[0]]}"
        return f"Pair of {_PLURAL[ks[0]]}, {'-'.join(_SHORT[k] for k in ks[1:])} kickers"
    if len(ks) == 1:
        return _SINGLE[ks[0]]
    return f"No pair, {'-'.join(_SHORT[k] for k in ks)}"


@total_ordering
class HandRank:
    """The rank of a 1-, 2- or 4-card hand: totally ordered on the shared scale (rule 2.7/2.8),
    equal for copies; ``int()`` is the strength, ``.category`` its category name.

    Parameters
    ----------
    strength : int
        The strength on the shared scale (:func:`strengths`).
    cards : tuple of Card
        The hand's cards.
    low : bool, default False
        Whether A-2-3-4 ranks low (for the category's name).
    """

    __slots__ = ("_low", "cards", "strength")

    def __init__(self, strength: int, cards: tuple[Card, ...], low: bool = False) -> None:
        self.strength = strength
        self.cards = cards
        self._low = low

    @property
    def category(self) -> str:
        """Category name, e.g. ``"straight flush"`` or ``"no pair"``."""
        return CATEGORIES[self.strength >> 16]

    def __int__(self) -> int:
        return self.strength

    def __index__(self) -> int:
        return self.strength

    def __eq__(self, other: object) -> bool:
        if isinstance(other, HandRank):
            return self.strength == other.strength
        return NotImplemented

    def __lt__(self, other: HandRank) -> bool:
        if isinstance(other, HandRank):
            return self.strength < other.strength
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.strength)

    def __str__(self) -> str:
        return describe(self.strength, tuple(int(c) for c in self.cards), self._low)

    def __repr__(self) -> str:
        return f"HandRank({' '.join(map(str, self.cards))!r}: {self}, strength={self.strength})"


def rank(cards: CardsLike, rules: Rules | None = None) -> HandRank:
    """The rank of 1, 2 or 4 cards under ``rules`` (rule 2).

    The joker is an ace, and in a 4-card hand may complete a straight or flush (rule 2.2).

    Parameters
    ----------
    cards : CardsLike
        One, two or four cards.
    rules : Rules, optional
        The rule options (A-2-3-4's place); default ``Rules()``.

    Returns
    -------
    HandRank
        The rank, ordered on the scale every hand size shares.

    Raises
    ------
    HandSizeError
        Not 1, 2 or 4 cards.
    CardError
        Not cards, or a card twice.
    """
    low = resolve(rules).a234_low
    ids = to_ids(cards, (1, 2, 4))
    return HandRank(_core.strength(ids, low), tuple(card_of(i) for i in ids), bool(low))


def strengths(hands: Any, rules: Rules | None = None) -> npt.NDArray[np.int32]:
    """Strengths of n hands given as an n x 4, n x 2 or n x 1 array of card ids (GIL released).

    Parameters
    ----------
    hands : array_like
        An n x 4, n x 2 or n x 1 array of card ids.
    rules : Rules, optional
        The rule options (A-2-3-4's place); default ``Rules()``.

    Returns
    -------
    numpy.ndarray
        n int32 strengths on the shared scale (higher beats lower; equal is a copy).

    Raises
    ------
    CardError
        A row holds an id outside 0..52 or a card twice (the message names the row).
    HandSizeError
        Rows that are not 4, 2 or 1 cards wide.

    Examples
    --------
    >>> strengths(np.array([[51, 47, 43, 39], [0, 1, 2, 3]])).tolist()  # royal flush, four 2s
    [524288, 397312]
    """
    low = resolve(rules).a234_low
    arr = as_card_array(hands, (1, 2, 4), "hands")
    out = np.empty(arr.shape[0], dtype=np.int32)
    run_kernel(_core.strengths_kernel, arr, "hands", low, out)
    return out
