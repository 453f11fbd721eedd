"""The bonus wager (rule 4): seven-card bonus hands, pay tables, exact odds.

>>> bonus_hand("8c 8d 8h 8s Ah Ad Jk")
'four 8s and three of a kind'
>>> bonus_payout("9c 8d 7h 6s 4c 3d 2h", "A"), bonus_payout("9c 8d 7h 6s 4c 3d Kh")
(10, -1)
>>> bonus_odds("A").total
154143080
>>> PayTable({"royal flush": 0})
Traceback (most recent call last):
...
asiapoker.errors.BonusError: pay for 'royal flush' must be a positive whole number (to 1), got 0
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any, ClassVar, TypeAlias

import numpy as np
import numpy.typing as npt

from . import _core
from ._classes import flush_classes, flush_rep, multisets, rank_counts, rank_rep
from ._validate import as_card_array, run_kernel, whole_number
from .cards import CardsLike, to_ids
from .errors import BonusError

__all__ = [
    "BONUS_CATEGORIES",
    "BonusOdds",
    "BonusRow",
    "PayTable",
    "bonus_hand",
    "bonus_hands",
    "bonus_odds",
    "bonus_payout",
    "bonus_payouts",
]

BONUS_CATEGORIES: tuple[str, ...] = _core.BONUS_CATEGORIES
"""Bonus categories; bit i of the core's mask is category i (defined in the core, with the
bits it sets)."""
SEVEN_CARD_HANDS = comb(53, 7)


class PayTable:
    """Odds (to 1) per bonus category; a hand pays its highest-paying qualifying category.

    ``PayTable.A``, ``.B`` and ``.C`` are the regulation tables (rule 4.2); a user table is
    ``PayTable({"royal flush": 500, "flush": 5}, name="mine")`` (any subset of categories).

    Parameters
    ----------
    pays : mapping of str to int
        Odds (a whole number to 1) per category of :data:`BONUS_CATEGORIES`.
    name : str, default "custom"
        The table's name.

    Raises
    ------
    BonusError
        An unknown category, or odds that are not a positive whole number.
    """

    A: ClassVar[PayTable]
    B: ClassVar[PayTable]
    C: ClassVar[PayTable]

    __slots__ = ("_code_of_mask", "name", "pays")

    def __init__(self, pays: Mapping[str, int], name: str = "custom") -> None:
        if not isinstance(pays, Mapping) or not pays:
            raise BonusError(f"a pay table maps categories to odds, got {pays!r}")
        clean: dict[str, int] = {}
        for cat, odds in pays.items():
            if cat not in BONUS_CATEGORIES:
                raise BonusError(f"unknown bonus category {cat!r} (one of: "
                                 f"{', '.join(BONUS_CATEGORIES)})")
            if isinstance(odds, bool) or not isinstance(odds, int) or odds <= 0:
                raise BonusError(f"pay for {cat!r} must be a positive whole number (to 1), "
                                 f"got {odds!r}")
            clean[cat] = odds
        self.name = name
        self.pays = {c: clean[c] for c in BONUS_CATEGORIES if c in clean}
        # the paid category of every mask: the qualifying category that pays most (ties: the
        # one listed first)
        code = np.full(2048, -1, dtype=np.int16)
        masks = np.arange(2048)
        paid = sorted((i for i, c in enumerate(BONUS_CATEGORIES) if c in self.pays),
                      key=lambda i: (-self.pays[BONUS_CATEGORIES[i]], i))
        for i in reversed(paid):           # the best last, so it is what stays
            code[(masks >> i) & 1 == 1] = i
        self._code_of_mask = code

    @classmethod
    def named(cls, table: TableLike) -> PayTable:
        """A table from ``"A"``, ``"B"``, ``"C"`` or a :class:`PayTable`.

        Parameters
        ----------
        table : TableLike
            A regulation table's letter or a table.

        Raises
        ------
        BonusError
            No such table.
        """
        if isinstance(table, PayTable):
            return table
        if isinstance(table, str) and table.upper() in ("A", "B", "C"):
            return getattr(cls, table.upper())  # type: ignore[no-any-return]
        raise BonusError(f"unknown pay table {table!r} (A, B, C or a PayTable)")

    def pay(self, category: str | None) -> int:
        """Odds won for a category (-1 when it pays nothing: the wager loses).

        Parameters
        ----------
        category : str or None
            A category of :data:`BONUS_CATEGORIES`, or None for no category.
        """
        return self.pays.get(category, -1) if category else -1

    def paid_counts(self, per_mask: npt.NDArray[np.int64]) -> dict[str | None, int]:
        """How many hands each of this table's categories pays, from hand counts per bonus mask
        (2048 of them); ``None`` counts the hands that lose.

        Parameters
        ----------
        per_mask : numpy.ndarray
            2048 int64 hand counts, one per bonus mask.
        """
        per_code = np.zeros(len(BONUS_CATEGORIES) + 1, dtype=np.int64)
        np.add.at(per_code, self._code_of_mask, per_mask)    # code -1 lands in the last slot
        paid: dict[str | None, int] = {c: int(per_code[BONUS_CATEGORIES.index(c)])
                                       for c in self.pays}
        paid[None] = int(per_code[-1])
        return paid

    def ev(self, paid: Mapping[str | None, int]) -> Fraction:
        """The expected value per unit wagered of hands counted as :meth:`paid_counts` does.

        Parameters
        ----------
        paid : mapping of str or None to int
            Hands per category, None for the hands that lose.
        """
        return Fraction(sum(n * self.pay(c) for c, n in paid.items()), sum(paid.values()))

    def __repr__(self) -> str:
        return f"PayTable({self.pays!r}, name={self.name!r})"


def _regulation(col: int, name: str) -> PayTable:
    rows = {"four 8s and three of a kind": (5000, 5000, 5000), "five aces": (800, 800, 800),
            "royal flush": (200, 200, 200), "natural straight flush": (80, 50, 50),
            "straight flush with joker": (40, 40, 40), "four of a kind": (30, 30, 25),
            "9-high": (10, 10, 10), "full house": (5, 5, 5), "flush": (4, 4, 4),
            "three of a kind": (3, 3, 3), "straight": (2, 2, 2)}
    return PayTable({k: v[col] for k, v in rows.items()}, name=name)


PayTable.A = _regulation(0, "A")
PayTable.B = _regulation(1, "B")
PayTable.C = _regulation(2, "C")

TableLike: TypeAlias = PayTable | str
"""A bonus pay table: a :class:`PayTable` or the name of a regulation table (``"A"``, ``"B"``,
``"C"``)."""


def _masks(arr: npt.NDArray[Any]) -> npt.NDArray[np.int16]:
    out = np.empty(len(arr), dtype=np.int16)
    run_kernel(_core.bonus_kernel, arr, "hands", out)
    return out


def bonus_hand(seven: CardsLike, table: TableLike = "A") -> str | None:
    """The highest-paying category seven cards qualify for under ``table``, or None.

    Parameters
    ----------
    seven : CardsLike
        Seven cards.
    table : TableLike, default "A"
        The pay table: ``"A"``, ``"B"``, ``"C"`` or a :class:`PayTable`.

    Raises
    ------
    HandSizeError
        Not seven cards.
    CardError
        Not cards, or a card twice.
    BonusError
        ``table`` is not a pay table.
    """
    t = PayTable.named(table)
    mask = int(_masks(np.array([to_ids(seven, 7, what="seven-card hand")], np.int8))[0])
    code = int(t._code_of_mask[mask])
    return BONUS_CATEGORIES[code] if code >= 0 else None


def bonus_payout(seven: CardsLike, table: TableLike = "A") -> int:
    """The odds (to 1) the bonus wager wins on seven cards, or -1 when it loses.

    Parameters
    ----------
    seven : CardsLike
        Seven cards.
    table : TableLike, default "A"
        The pay table: ``"A"``, ``"B"``, ``"C"`` or a :class:`PayTable`.

    Raises
    ------
    HandSizeError
        Not seven cards.
    CardError
        Not cards, or a card twice.
    BonusError
        ``table`` is not a pay table.
    """
    t = PayTable.named(table)
    return t.pay(bonus_hand(seven, t))


def bonus_hands(hands: Any, table: TableLike = "A") -> npt.NDArray[np.int16]:
    """Category codes (index into :data:`BONUS_CATEGORIES`, -1 for none) of an n x 7 array of
    card ids under ``table`` (computed in the core, GIL released).

    Parameters
    ----------
    hands : array_like
        An n x 7 array of card ids, or rows of card ids or text.
    table : TableLike, default "A"
        The pay table: ``"A"``, ``"B"``, ``"C"`` or a :class:`PayTable`.

    Raises
    ------
    CardError
        A row holds something that is not a card, or a card twice (the message names the row).
    HandSizeError
        A row does not have seven cards.
    BonusError
        ``table`` is not a pay table.
    """
    t = PayTable.named(table)
    return t._code_of_mask[_masks(as_card_array(hands, 7, "hands"))]


def bonus_payouts(hands: Any, table: TableLike = "A", wager: Any = 1,
                  limit: int | None = None) -> npt.NDArray[np.int64]:
    """The bonus wager's result for each row of an n x 7 array of card ids: ``wager`` times the
    odds when the hand qualifies, capped at ``limit`` (the facility's payout limit per hand,
    rule 4.4), and ``-wager`` when it loses; an n int64 array.  ``wager`` is one whole
    amount (in your smallest unit, e.g. cents) or one per row.

    Parameters
    ----------
    hands : array_like
        An n x 7 array of card ids, or rows of card ids or text.
    table : TableLike, default "A"
        The pay table: ``"A"``, ``"B"``, ``"C"`` or a :class:`PayTable`.
    wager : int or array_like, default 1
        One whole amount >= 1, or one per row.
    limit : int, optional
        The most one hand may win (the facility's payout limit).

    Raises
    ------
    CardError
        A row holds something that is not a card, or a card twice (the message names the row).
    HandSizeError
        A row does not have seven cards.
    BonusError
        ``table`` is not a pay table, or a ``wager`` or ``limit`` that is not a whole amount
        >= 1.

    Examples
    --------
    >>> hands = [[28, 25, 22, 19, 8, 5, 2], [0, 1, 2, 3, 48, 49, 52], [0, 4, 9, 14, 22, 33, 44]]
    >>> bonus_payouts(hands, wager=5).tolist()       # 9-high 10 to 1, four of a kind 30 to 1
    [50, 150, -5]
    >>> bonus_payouts(hands, wager=5, limit=100).tolist()
    [50, 100, -5]
    >>> bonus_payouts([[0, 1, 2, 3, 48, 49, 52]], wager=-5)
    Traceback (most recent call last):
    ...
    asiapoker.errors.BonusError: wager must be whole amounts >= 1, got -5
    """
    t = PayTable.named(table)
    codes = bonus_hands(hands, t)
    w = np.asarray(wager)
    if w.dtype.kind not in "iu" or w.ndim > 1 or (w.ndim == 1 and w.shape != codes.shape) \
            or (w.size and int(w.min()) < 1):
        shown = wager if w.ndim == 0 else f"an array of shape {w.shape} ({w.dtype})"
        raise BonusError(f"wager must be whole amounts >= 1, got {shown}"
                         + ("" if w.ndim == 0 else f" for {len(codes)} hands"))
    if limit is not None:
        whole_number(limit, "limit", 1, error=BonusError)
    if w.size and int(w.max()) > 2**62 // max(t.pays.values()):
        raise BonusError("wager is too large to pay in 64-bit integers")
    odds = np.array([t.pays.get(c, -1) for c in BONUS_CATEGORIES] + [-1], dtype=np.int64)
    out = odds[codes] * w.astype(np.int64)
    if limit is not None:         # any limit above 2**62 is above every payout here
        np.minimum(out, min(int(limit), 2**62), out=out)
    return out


# --------------------------------------------------------------------------------------------
# exact odds
# --------------------------------------------------------------------------------------------

def mask_counts(method: str = "count") -> npt.NDArray[np.int64]:
    """How many of the C(53, 7) hands have each of the 2048 bonus masks.

    ``"count"`` works by class (a rank multiset, or a flush suit's ranks plus the other
    ranks) with binomial weights, in well under a second; ``"enumerate"`` walks every hand
    (the reference path, seconds).
    """
    if method == "enumerate":
        return _core.bonus_enumerate()
    if method != "count":
        raise BonusError(f"method must be 'count' or 'enumerate', got {method!r}")
    return _counted_masks()


@functools.cache
def _counted_masks() -> npt.NDArray[np.int64]:
    hist = np.zeros(2048, dtype=np.int64)
    c4 = np.array([comb(4, k) for k in range(5)], dtype=np.int64)
    c3 = np.array([comb(3, k) for k in range(4)], dtype=np.int64)
    for joker in (False, True):
        ms = multisets(6 if joker else 7, 4)
        weight = c4[rank_counts(ms)].prod(1)
        np.add.at(hist, _masks(rank_rep(ms, joker)), weight)
        # a suit with 5+ cards (4+ with the joker) makes flushes; only one suit can
        for f, o in flush_classes(joker, 4 if joker else 5):
            weight = 4 * c3[rank_counts(o)].prod(1)
            np.add.at(hist, _masks(flush_rep(f, o, joker)), weight)
            np.add.at(hist, _masks(rank_rep(np.hstack([f, o]), joker)), -weight)
    hist.setflags(write=False)
    return hist


@dataclass(frozen=True, slots=True)
class BonusRow:
    """One category's exact count over all seven-card hands, and what it returns."""

    category: str | None
    """The category, or None for the hands that lose."""
    count: int
    """Hands in it, of all C(53, 7)."""
    pays: int
    """Its odds to 1 (-1: the wager loses)."""
    total: int
    """Hands counted over: C(53, 7)."""

    @property
    def probability(self) -> float:
        """count / C(53, 7)."""
        return self.count / self.total

    @property
    def return_(self) -> float:
        """probability x pays (x -1 for the losing row)."""
        return self.probability * self.pays


@dataclass(frozen=True, slots=True)
class BonusOdds:
    """Exact bonus odds under one pay table: ``rows`` (highest pay first, the losing hands
    last), ``ev`` per unit wagered and ``house_edge`` (= -ev)."""

    table: str
    """The pay table's name."""
    rows: tuple[BonusRow, ...]
    """Every category's count and pay, highest pay first, the losing hands last."""
    total: int
    """Hands counted over: C(53, 7)."""

    @property
    def ev_exact(self) -> Fraction:
        """The expected value as an exact fraction."""
        return Fraction(sum(r.count * r.pays for r in self.rows), self.total)

    @property
    def ev(self) -> float:
        """Expected value per unit wagered."""
        return float(self.ev_exact)

    @property
    def house_edge(self) -> float:
        """-ev."""
        return -self.ev


def bonus_odds(table: TableLike = "A", method: str = "count") -> BonusOdds:
    """Exact count and probability of every paid category over all C(53, 7) hands.

    Parameters
    ----------
    table : TableLike, default "A"
        The pay table: ``"A"``, ``"B"``, ``"C"`` or a :class:`PayTable`.
    method : {"count", "enumerate"}, default "count"
        ``"count"`` works by class with binomial weights, in well under a second;
        ``"enumerate"`` walks every hand (the reference path, seconds).

    Raises
    ------
    BonusError
        ``table`` is not a pay table, or an unknown ``method``.
    """
    t = PayTable.named(table)
    paid = t.paid_counts(mask_counts(method))
    rows = [BonusRow(cat, paid[cat], pay, SEVEN_CARD_HANDS)
            for cat, pay in sorted(t.pays.items(), key=lambda kv: -kv[1])]
    rows.append(BonusRow(None, paid[None], -1, SEVEN_CARD_HANDS))
    return BonusOdds(t.name, tuple(rows), SEVEN_CARD_HANDS)
