"""Settings (rule 3.1), legality (rule 3.2) and settlement (rule 3.3-3.4).

>>> s = Setting("As Ks Qs Js", "7h 7d", "2c")
>>> is_legal(s), str(s)
(True, 'As Ks Qs Js | 7h 7d | 2c')
>>> settle(s, Setting.parse("9c 9d 4h 4s | Ad Qc | Kh")).hands
('win', 'win', 'lose')
>>> Setting("As Ks Qs", "7h 7d", "2c")
Traceback (most recent call last):
...
asiapoker.errors.HandSizeError: a high hand needs 4 cards, got 3: As Ks Qs
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NamedTuple, TypeAlias

import numpy as np
import numpy.typing as npt

from . import _core
from ._validate import as_card_array, index_array, run_kernel
from .cards import Card, CardLike, CardsLike, card_of, to_ids
from .errors import (
    AsiaPokerError,
    DuplicateCardError,
    HandSizeError,
    HouseWayError,
    IllegalSettingError,
)
from .ranks import HandRank
from .rules import DEFAULT_RULES, Rules, resolve

__all__ = [
    "SPLIT_POSITIONS",
    "Outcome",
    "Setting",
    "SettingLike",
    "is_legal",
    "legal_splits",
    "settle",
    "settle_many",
    "split_strengths",
    "split_strengths_of",
    "splits",
]

SPLIT_POSITIONS: tuple[tuple[tuple[int, int, int, int], tuple[int, int], int], ...] = (
    _core.split_positions()
)
"""The 105 splits of seven cards, as positions in the seven given:
``(high positions, medium positions, low position)``.  Split ``k = 3 * q + j``: ``q`` walks
the 35 four-card high hands in lexicographic order of positions, ``j`` picks which of the
three remaining positions (ascending) is the low hand; the other two are the medium hand."""

HandResult = Literal["win", "lose", "copy"]

_HIGH_POS = np.array([h for h, _, _ in SPLIT_POSITIONS], dtype=np.intp)
_LOW_POS = np.array([lo for _, _, lo in SPLIT_POSITIONS], dtype=np.intp)
_SPLIT_BY_MASK = np.full((128, 7), -1, dtype=np.int16)       # (high mask, low) -> split
for _k, (_h, _, _lo) in enumerate(SPLIT_POSITIONS):
    _SPLIT_BY_MASK[sum(1 << p for p in _h), _lo] = _k


def split_in_row_order(order: npt.NDArray[Any], split: npt.NDArray[Any]) -> npt.NDArray[np.int16]:
    """Split indices into rows as given, from indices into the same rows sorted:
    ``order[i]`` is the argsort of row i and ``split[i]`` an index into its sorted cards."""
    k = np.asarray(split, dtype=np.intp)
    n = np.arange(len(k))[:, None]
    high = order[n, _HIGH_POS[k]]                                   # n x 4 positions as given
    mask = (np.int64(1) << high.astype(np.int64)).sum(axis=1)
    low = order[np.arange(len(k)), _LOW_POS[k]]
    out: npt.NDArray[np.int16] = _SPLIT_BY_MASK[mask, low]
    return out


def _part(cards: CardsLike | CardLike, size: int, name: str) -> tuple[int, ...]:
    if isinstance(cards, (Card, int)) and not isinstance(cards, bool):
        cards = (cards,)
    return to_ids(cards, size, what=f"{name} hand")  # type: ignore[arg-type]


class Setting:
    """A split of seven cards into high (4), medium (2) and low (1) hands.

    Parts are given as text, ``Card``s or ints; ``.high``, ``.medium``, ``.low`` are tuples of
    :class:`Card`.  Two settings are equal when each part holds the same cards.

    Parameters
    ----------
    high : CardsLike
        The four cards of the high hand.
    medium : CardsLike
        The two cards of the medium hand.
    low : CardsLike or CardLike
        The low hand's card.

    Raises
    ------
    HandSizeError
        A hand with the wrong number of cards.
    CardError
        Not cards, or a card in two hands.
    """

    __slots__ = ("_cache", "_ids", "_mask", "high", "low", "medium")

    def __init__(self, high: CardsLike, medium: CardsLike, low: CardsLike | CardLike) -> None:
        h = _part(high, 4, "high")
        m = _part(medium, 2, "medium")
        lo = _part(low, 1, "low")
        ids = h + m + lo
        mask = 0
        for cid in ids:
            if mask >> cid & 1:
                name = "a second joker" if cid == 52 else f"duplicate card: {card_of(cid)}"
                raise DuplicateCardError(f"{name} in the setting")
            mask |= 1 << cid
        self._ids = ids
        self._mask = mask
        self._cache: list[tuple[int, int, int] | None] = [None, None]
        self.high: tuple[Card, ...] = tuple(card_of(i) for i in h)
        self.medium: tuple[Card, ...] = tuple(card_of(i) for i in m)
        self.low: tuple[Card, ...] = (card_of(lo[0]),)

    @classmethod
    def _checked(cls, h: tuple[int, ...], m: tuple[int, ...], lo: int) -> Setting:
        """A setting of ids already known to be seven distinct cards (no validation)."""
        self = cls.__new__(cls)
        self._ids = (*h, *m, lo)
        self._mask = sum(1 << i for i in self._ids)
        self._cache = [None, None]
        self.high = tuple(card_of(i) for i in h)
        self.medium = tuple(card_of(i) for i in m)
        self.low = (card_of(lo),)
        return self

    @classmethod
    def parse(cls, text: str) -> Setting:
        """A setting from text ``"H H H H | M M | L"`` (``|`` or ``/`` between the hands).

        Parameters
        ----------
        text : str
            The three hands, high first, separated by ``|`` or ``/``.

        Raises
        ------
        HandSizeError
            Not three hands of 4, 2 and 1 cards.
        CardError
            A token that is not a card, or a card twice.
        """
        parts = text.replace("/", "|").split("|")
        if len(parts) != 3:
            raise HandSizeError(f"a setting needs three hands separated by '|', got {text!r}")
        return cls(parts[0], parts[1], parts[2])

    @classmethod
    def coerce(cls, value: SettingLike) -> Setting:
        """A :class:`Setting` from a Setting, its text, or a (high, medium, low) triple.

        Parameters
        ----------
        value : SettingLike
            What to read.

        Raises
        ------
        HandSizeError
            Not three hands of 4, 2 and 1 cards.
        CardError
            Not cards, or a card twice.
        """
        if isinstance(value, Setting):
            return value
        if isinstance(value, str):
            return cls.parse(value)
        try:
            high, medium, low = value
        except (TypeError, ValueError):
            raise HandSizeError(
                f"a setting is a Setting, 'H | M | L' text or three hands, got {value!r}"
            ) from None
        return cls(high, medium, low)

    @property
    def cards(self) -> tuple[Card, ...]:
        """All seven cards: high, then medium, then low."""
        return self.high + self.medium + self.low

    def strengths(self, rules: Rules | None = None) -> tuple[int, int, int]:
        """The (high, medium, low) strengths on the shared scale.

        Parameters
        ----------
        rules : Rules, optional
            The rule options (A-2-3-4's place); default ``Rules()``.
        """
        low = resolve(rules).a234_low
        s = self._cache[low]
        if s is None:
            ids = self._ids
            s = (
                _core.strength(ids[:4], low),
                _core.strength(ids[4:6], low),
                _core.strength(ids[6:], low),
            )
            self._cache[low] = s
        return s

    def ranks(self, rules: Rules | None = None) -> tuple[HandRank, HandRank, HandRank]:
        """The three hands' :class:`HandRank` (high, medium, low).

        Parameters
        ----------
        rules : Rules, optional
            The rule options (A-2-3-4's place); default ``Rules()``.
        """
        h, m, lo = self.strengths(rules)
        low = resolve(rules).a234_low == 1
        return (
            HandRank(h, self.high, low),
            HandRank(m, self.medium, low),
            HandRank(lo, self.low, low),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Setting):
            return NotImplemented
        return (
            self._mask == other._mask
            and set(self.high) == set(other.high)
            and set(self.medium) == set(other.medium)
        )

    def __hash__(self) -> int:
        return hash((frozenset(self.high), frozenset(self.medium), self.low))

    def __str__(self) -> str:
        """``"HIGH | MEDIUM | LOW"``, each hand's cards from the highest id down (the joker,
        then aces, ...): one text for a setting, however its cards were given."""
        return " | ".join(" ".join(str(c) for c in sorted(p, key=int, reverse=True))
                          for p in (self.high, self.medium, self.low))

    def __repr__(self) -> str:
        return f"Setting.parse('{self}')"


SettingLike: TypeAlias = Setting | str | tuple[Any, Any, Any]
"""A setting: a :class:`Setting`, its text (``"As Ks Qs Js | Td 9d | 2c"``) or a (high, medium,
low) tuple of cards."""


def setting_of(answer: Any, ids: Sequence[int], who: str) -> Setting:
    """``answer`` (from user code) as a Setting of exactly the seven cards ``ids``, or a
    :class:`asiapoker.errors.HouseWayError` that names ``who`` and the hand."""
    try:
        setting = Setting.coerce(answer)
    except AsiaPokerError as exc:
        raise HouseWayError(f"{who} returned a malformed setting for {_text(ids)}: "
                            f"{exc}") from None
    if sorted(map(int, setting.cards)) != sorted(ids):
        raise HouseWayError(f"{who} returned {setting} for {_text(ids)}: not the seven cards "
                            "it was given, each once")
    return setting


def _text(ids: Sequence[int]) -> str:
    return " ".join(str(card_of(i)) for i in ids)


def splits(seven: CardsLike) -> list[Setting]:
    """All 105 splits of seven cards, in the order of :data:`SPLIT_POSITIONS` (legal or not).

    Parameters
    ----------
    seven : CardsLike
        Seven cards.

    Raises
    ------
    HandSizeError
        Not seven cards.
    CardError
        Not cards, or a card twice.
    """
    ids = to_ids(seven, 7, what="seven-card hand")
    return [Setting._checked(tuple(ids[i] for i in h), tuple(ids[i] for i in m), ids[lo])
            for h, m, lo in SPLIT_POSITIONS]


def setting_of_split(ids: Sequence[int], k: int) -> Setting:
    """Split ``k`` (:data:`SPLIT_POSITIONS` of ``ids``) of seven checked card ids, each hand
    written from its highest card down."""
    h, m, lo = SPLIT_POSITIONS[k]
    return Setting._checked(tuple(sorted((ids[p] for p in h), reverse=True)),
                            tuple(sorted((ids[p] for p in m), reverse=True)), ids[lo])


def split_strengths(seven: CardsLike, rules: Rules | None = None) -> list[tuple[int, int, int]]:
    """The (high, medium, low) strengths of all 105 splits of seven cards, in
    :data:`SPLIT_POSITIONS` order (computed in the core: cheap enough for a user-written house
    way to call on every hand).

    Parameters
    ----------
    seven : CardsLike
        Seven cards.
    rules : Rules, optional
        The rule options (A-2-3-4's place); default ``Rules()``.

    Returns
    -------
    list of tuple of int
        105 (high, medium, low) strengths.

    Raises
    ------
    HandSizeError
        Not seven cards.
    CardError
        Not cards, or a card twice.
    """
    ids = to_ids(seven, 7, what="seven-card hand")
    return list(zip(*_core.split_strengths(ids, resolve(rules).a234_low), strict=True))


def is_legal(setting: SettingLike, rules: Rules | None = None) -> bool:
    """True when high > medium > low (rule 3.2); an illegal setting fouls.

    Parameters
    ----------
    setting : SettingLike
        The setting.
    rules : Rules, optional
        The rule options (A-2-3-4's place); default ``Rules()``.

    Raises
    ------
    HandSizeError
        Not three hands of 4, 2 and 1 cards.
    CardError
        Not cards, or a card twice.
    """
    h, m, lo = Setting.coerce(setting).strengths(rules)
    return h > m > lo


def chosen_strengths(hands: npt.NDArray[Any], splits: npt.NDArray[Any],
                     rules: Rules | None = None) -> npt.NDArray[np.int32]:
    """(high, medium, low) strengths of split ``splits[i]`` of checked row ``hands[i]`` (an
    n x 7 array of card ids), computed in the core: an n x 3 int32 array."""
    k = np.ascontiguousarray(splits, dtype=np.int64)
    out = np.empty((len(hands), 3), dtype=np.int32)
    run_kernel(_core.chosen_kernel, np.ascontiguousarray(hands), "hands", k,
               resolve(rules).a234_low, out)
    return out


class Outcome(NamedTuple):
    """The settlement of one wager: ``result`` is ``"win"``, ``"lose"`` or ``"foul"``;
    ``hands`` the plain (high, medium, low) comparisons (``"win"``, ``"lose"`` or ``"copy"``,
    informative only for a foul); ``payout`` in wager units (``+pays`` or ``-1``)."""

    result: Literal["win", "lose", "foul"]
    hands: tuple[HandResult, HandResult, HandResult]
    payout: float


# the generated constructor's annotations as objects (they are text under postponed
# evaluation, which tools that read signatures, such as the API reference, cannot resolve)
Outcome.__new__.__annotations__ = {
    "result": Literal["win", "lose", "foul"],
    "hands": tuple[HandResult, HandResult, HandResult], "payout": float}


def _cmp(p: int, d: int) -> HandResult:
    return "win" if p > d else ("lose" if p < d else "copy")


def settle(player: SettingLike, dealer: SettingLike, rules: Rules | None = None) -> Outcome:
    """Settle the player's setting against the dealer's (rule 3.2-3.4).

    A foul loses; each hand wins only when strictly higher (a copy goes to the dealer); the
    wager wins on two hands of three.  The dealer's setting must be legal and the two settings
    must share no card.

    Parameters
    ----------
    player : SettingLike
        The player's setting (a foul when illegal).
    dealer : SettingLike
        The dealer's setting.
    rules : Rules, optional
        The rule options (A-2-3-4's place; ``pays``, the payout of a win); default
        ``Rules()``.

    Returns
    -------
    Outcome
        The result, the three hands' comparisons and the payout.

    Raises
    ------
    IllegalSettingError
        The dealer's setting is not legal.
    DuplicateCardError
        A card in both settings.
    HandSizeError
        A setting without hands of 4, 2 and 1 cards.
    """
    r = DEFAULT_RULES if rules is None else resolve(rules)
    p = player if type(player) is Setting else Setting.coerce(player)
    d = dealer if type(dealer) is Setting else Setting.coerce(dealer)
    if p._mask & d._mask:
        common = next(c for c in p.cards if d._mask >> int(c) & 1)
        raise DuplicateCardError(f"player and dealer both hold {common}")
    ph, pm, pl = p.strengths(r)
    dh, dm, dl = d.strengths(r)
    if not dh > dm > dl:
        raise IllegalSettingError(f"the dealer's setting {d} is not legal (high > medium > low)")
    hands = (_cmp(ph, dh), _cmp(pm, dm), _cmp(pl, dl))
    if not ph > pm > pl:
        return Outcome("foul", hands, -1.0)
    if (ph > dh) + (pm > dm) + (pl > dl) >= 2:
        return Outcome("win", hands, r.pays)
    return Outcome("lose", hands, -1.0)


def split_strengths_of(hands: Any, splits: Any,
                       rules: Rules | None = None) -> npt.NDArray[np.int32]:
    """(high, medium, low) strengths of split ``splits[i]`` (an index into
    :data:`SPLIT_POSITIONS`) of row ``hands[i]`` of an n x 7 array of card ids: an n x 3 int32
    array, every row and index checked first.

    Parameters
    ----------
    hands : array_like
        An n x 7 array of card ids.
    splits : array_like
        n split indices, 0..104.
    rules : Rules, optional
        The rule options (A-2-3-4's place); default ``Rules()``.

    Raises
    ------
    CardError
        A row holds something that is not a card, or a card twice (the message names it).
    HandSizeError
        A row does not have seven cards.
    IllegalSettingError
        ``splits`` is not one index in 0..104 a row (the message names the row).
    """
    arr = as_card_array(hands, 7, "hands")
    run_kernel(_core.class_keys_kernel, arr, "hands", np.empty(len(arr), dtype=np.int64))
    k = index_array(splits, len(arr), "splits", 105, IllegalSettingError)
    return chosen_strengths(arr, k, rules)


def settle_many(player: Any, dealer: Any, rules: Rules | None = None) -> npt.NDArray[np.int8]:
    """Settle n wagers at once from (high, medium, low) strengths (n x 3 arrays, as
    :func:`split_strengths_of` and :func:`asiapoker.dealer_strengths` give them): 1 the
    wager wins, 0 it loses, -1 the player's setting is a foul.  Multiply by the stake and
    ``rules.pays`` for money.

    Parameters
    ----------
    player : array_like
        n x 3 strengths of the players' settings.
    dealer : array_like
        n x 3 strengths of the dealer's settings.
    rules : Rules, optional
        The rule options (A-2-3-4's place); default ``Rules()``.

    Returns
    -------
    numpy.ndarray
        n int8 results: 1, 0 or -1.

    Raises
    ------
    IllegalSettingError
        The two are not integer n x 3 arrays of one shape.

    Examples
    --------
    >>> settle_many([[5 << 16, 1 << 16, 3], [1, 2, 3]], [[4 << 16, 2 << 16, 9], [9, 2, 1]]).tolist()
    [0, -1]
    """
    resolve(rules)
    p = np.asarray(player)
    d = np.asarray(dealer)
    if p.ndim != 2 or p.shape[1] != 3 or p.shape != d.shape or p.dtype.kind not in "iu" \
            or d.dtype.kind not in "iu":
        raise IllegalSettingError(f"settle_many needs two integer n x 3 strength arrays of "
                                  f"one shape, got {p.shape} ({p.dtype}) and {d.shape} "
                                  f"({d.dtype})")
    legal = (p[:, 0] > p[:, 1]) & (p[:, 1] > p[:, 2])
    won = (p > d).sum(axis=1) >= 2
    return np.where(legal, won.astype(np.int8), np.int8(-1)).astype(np.int8)


def legal_splits(hands: Any, rules: Rules | None = None) -> npt.NDArray[np.bool_]:
    """Legality of all 105 splits (in :data:`SPLIT_POSITIONS` order) of n seven-card rows given
    as an n x 7 array of card ids; an n x 105 bool array (computed in the core, GIL released).

    Parameters
    ----------
    hands : array_like
        An n x 7 array of card ids, or rows of card ids or text.
    rules : Rules, optional
        The rule options (A-2-3-4's place); default ``Rules()``.

    Raises
    ------
    CardError
        A row holds something that is not a card, or a card twice (the message names it).
    HandSizeError
        A row does not have seven cards.
    """
    low = resolve(rules).a234_low
    arr = as_card_array(hands, 7, "hands")
    out = np.empty((arr.shape[0], 105), dtype=np.uint8)
    run_kernel(_core.legal_kernel, arr, "hands", low, out)
    return out.view(np.bool_)
