"""The exact solver: the expected value of every setting against a house way.

The dealer holds any 7 of the 46 cards the player does not: C(46, 7) = 53,524,680 hands,
equally likely, set by the house way.  ``solve`` counts, for each of the 105 splits, exactly
how many of them it beats on two hands of three (rule 3.2-3.4), in integers.  Known cards
(:mod:`asiapoker.known`) narrow the dealer's hands: ``dead`` cards are not in them,
``dealer`` cards are.

>>> sol = solve("As Kd 7h 7c Jk 2s 9d")
>>> sol.total, str(sol.best.setting) == str(sol.settings[0].setting)
(53524680, True)
>>> str(sol.house_way_setting), sol.house_way_cost      # the house way is best here
('Jk As 9d 2s | 7h 7c | Kd', 0.0)
>>> seen = solve("As Kd 7h 7c Jk 2s 9d", dead="Ks Kh Kc Qd 5c 5h 3d")
>>> seen.total, str(seen.best.setting)
(15380937, 'Jk As 9d 2s | 7h 7c | Kd')
>>> seen.describe()
'house way standard; a234=high, pays=1:1; dead Ks Kh Kc Qd 5c 5h 3d'
"""

from __future__ import annotations

import collections
import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any, Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from . import _core
from ._models import cached_model
from ._validate import as_card_array, run_kernel, whole_number, workers_count
from .cards import CardsLike, card_of, to_ids
from .errors import KnownCardError, OptionError
from .house_way import DEFAULT_WAY, HouseWay, WayLike, house_way_splits, resolve_way
from .known import check_count, known_cards, known_rows, read_known
from .rules import Rules, resolve
from .setting import Setting, splits

__all__ = ["DEALER_HANDS", "BatchSolution", "Columns", "Method", "SettingResult", "Solution",
           "count_splits", "solve", "solve_chunks", "solve_many"]

DEALER_HANDS = comb(46, 7)
"""Number of dealer hands against any seven player cards: C(46, 7)."""

# --------------------------------------------------------------------------------------------
# building a dealer model (class tables) for one house way and rule set
# --------------------------------------------------------------------------------------------


def build_model(way: HouseWay, rules: Rules) -> _core.DealerModel:
    """Class tables of ``way`` under ``rules``: read from the disk cache, or built (about a
    second and a half) and saved (:mod:`asiapoker._models`); kept in memory by
    :func:`dealer_model`.  The layout is built and read in one place,
    ``_models.dealer_model_arrays``."""
    return cached_model(way.key, rules.a234_low, lambda ids: way.strengths(ids, rules))


MAX_MODELS = 8
"""Dealer models kept per process (the most recently used; each is 5 to 15 MB)."""
_MODELS: collections.OrderedDict[tuple[tuple[str, Any], int], _core.DealerModel] = (
    collections.OrderedDict())
_MODELS_LOCK = threading.Lock()
_KEPT: dict[tuple[tuple[str, Any], int], _core.DealerModel] = {}


def dealer_model(way: HouseWay, rules: Rules, keep: bool = False) -> _core.DealerModel:
    """The dealer model of ``way`` and ``rules``: built once, then kept while it is among the
    :data:`MAX_MODELS` most recently used, or for the life of the process once asked for with
    ``keep`` (a server keeps the model of every way it serves: :mod:`asiapoker.web`).
    Thread-safe: any number of threads asking for a new model at once build it once; ways
    that set alike share it (:attr:`HouseWay.key`)."""
    key = (way.key, rules.a234_low)
    with _MODELS_LOCK:
        m = _KEPT.get(key)
        if m is not None:
            return m
        m = _MODELS.get(key)
        if m is None:
            m = _MODELS[key] = build_model(way, rules)
            while len(_MODELS) > MAX_MODELS:
                _MODELS.popitem(last=False)
        else:
            _MODELS.move_to_end(key)
        if keep:
            _KEPT[key] = _MODELS.pop(key)
        return m


def model_ready(way: HouseWay, rules: Rules) -> bool:
    """Whether the dealer model of ``way`` and ``rules`` is in memory (a solve against it
    builds nothing)."""
    key = (way.key, rules.a234_low)
    with _MODELS_LOCK:
        return key in _KEPT or key in _MODELS


# --------------------------------------------------------------------------------------------
# results
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SettingResult:
    """One split's exact result: ``wins`` of ``total`` dealer hands beaten on two of three."""

    index: int
    """The split's index in :data:`asiapoker.SPLIT_POSITIONS` of the hand's cards."""
    setting: Setting
    """The split as a setting."""
    legal: bool
    """Whether high > medium > low (an illegal setting fouls: 0 wins)."""
    wins: int
    """Dealer hands the setting beats on two hands of three."""
    total: int
    """Dealer hands counted over."""
    pays: float
    """The payout of a win, to 1."""

    @property
    def p_win(self) -> float:
        """Probability that the wager wins."""
        return self.wins / self.total

    @property
    def ev(self) -> float:
        """Expected value per unit wagered: (wins * pays - losses) / total; -1 for a foul."""
        return (self.wins * self.pays - (self.total - self.wins)) / self.total

    @property
    def ev_exact(self) -> Fraction:
        """The expected value as an exact fraction."""
        pays = Fraction(self.pays)
        return (self.wins * pays - (self.total - self.wins)) / self.total


@dataclass(frozen=True, slots=True)
class Solution:
    """All 105 splits of a hand, best first (more wins first; equal wins: lower split index).

    Names the house way and rules it was computed under (``way``, ``rules``), and the known
    cards: ``dead`` (not in the dealer's hand) and ``dealer`` (in it).
    """

    cards: tuple[Any, ...]
    """The seven cards as given."""
    settings: tuple[SettingResult, ...]
    """All 105 splits' results, best first."""
    house_way_setting: Setting
    """The setting the house way gives the hand."""
    house_way_result: SettingResult
    """That setting's result."""
    way: str
    """The house way the dealer sets by."""
    rules: Rules
    """The rule options the counts are under."""
    dead: tuple[Any, ...] = ()
    """Cards known not to be in the dealer's hand."""
    dealer: tuple[Any, ...] = ()
    """Cards known to be in the dealer's hand."""

    @property
    def best(self) -> SettingResult:
        """The best setting."""
        return self.settings[0]

    @property
    def ev(self) -> float:
        """Expected value of the best setting."""
        return self.settings[0].ev

    @property
    def total(self) -> int:
        """Number of dealer hands: 53,524,680, or C(46 - dead - dealer, 7 - dealer) with known
        cards."""
        return self.settings[0].total

    @property
    def house_way_ev(self) -> float:
        """Expected value of setting the player's hand by the house way."""
        return self.house_way_result.ev

    @property
    def house_way_cost(self) -> float:
        """Best ev minus the house way's ev (>= 0)."""
        return self.ev - self.house_way_ev

    def describe(self) -> str:
        """What the result depends on: house way, rule options and any known cards."""
        return f"house way {self.way}; {self.rules.describe()}" + "".join(
            f"; {what} {' '.join(map(str, cards))}"
            for what, cards in (("dead", self.dead), ("dealer shows", self.dealer)) if cards)

    def to_dict(self, all_settings: bool = False) -> dict[str, Any]:
        """JSON-ready data (what ``asiapoker solve --json`` prints): the legal settings best
        first, or every setting with ``all_settings``.

        Parameters
        ----------
        all_settings : bool, default False
            Every setting, fouls included, instead of the legal ones.
        """
        def row(r: SettingResult) -> dict[str, Any]:
            return {"index": r.index, "setting": str(r.setting), "legal": r.legal,
                    "wins": r.wins, "total": r.total, "p_win": r.p_win, "ev": r.ev}
        return {"cards": [str(c) for c in self.cards], "way": self.way,
                "rules": self.rules.to_dict(), "dead": [str(c) for c in self.dead],
                "dealer": [str(c) for c in self.dealer], "total": self.total,
                "best": row(self.best),
                "house_way": row(self.house_way_result), "house_way_cost": self.house_way_cost,
                "settings": [row(r) for r in self.settings if r.legal or all_settings]}


Method: TypeAlias = Literal["fast", "enumerate"]
"""How :func:`solve` counts: ``"fast"`` (by class, milliseconds) or ``"enumerate"`` (every
dealer hand one by one, the reference path)."""


def _check_method(method: str) -> None:
    if method not in ("fast", "enumerate"):
        raise OptionError(f"method must be 'fast' or 'enumerate', got {method!r}")


Known = tuple[tuple[int, ...], tuple[int, ...]]
NO_CARDS: Known = ((), ())


def _wins_fast(ids: tuple[int, ...], way: HouseWay, rules: Rules,
               known: Known = NO_CARDS) -> tuple[list[int], int]:
    arr = np.array([ids], dtype=np.int8)
    out = np.empty((1, 105), dtype=np.int64)
    totals = np.empty(1, dtype=np.int64)
    m = dealer_model(way, rules)
    if known == NO_CARDS:
        run_kernel(m.solve_rows, arr, "hands", out, totals)
    else:
        dead, dealer = (np.array([[*cards, -1]], dtype=np.int8) for cards in known)
        run_kernel(_core.solve_known_kernel, arr, "hands", m, dead, dealer, out, totals)
    return out[0].tolist(), int(totals[0])


@functools.cache
def _dense_maps() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.int32],
                           npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Every 4- and 2-card strength value, the 1-card values, and the strength -> index maps
    the enumerating path histograms with."""
    hvals = np.unique(np.concatenate([_core.table_view(4, 0), _core.table_view(4, 1)]))
    mvals = np.unique(_core.table_view(2, 0))
    dense_h = np.zeros(1 << 20, dtype=np.int32)
    dense_h[hvals] = np.arange(len(hvals))
    dense_m = np.zeros(1 << 20, dtype=np.int32)
    dense_m[mvals] = np.arange(len(mvals))
    return hvals, mvals, np.unique(_core.table_view(1, 0)), dense_h, dense_m


def _wins_enumerate(ids: tuple[int, ...], way: HouseWay, rules: Rules,
                    known: Known = NO_CARDS) -> tuple[list[int], int]:
    """The plain reference path: every dealer hand one by one (tens of seconds without known
    cards); a stored way is read from its class table hand by hand."""
    hvals, mvals, lvals, dense_h, dense_m = _dense_maps()
    dead, dealer = known
    if way.code is None:
        keys, tri = way.class_table(rules)
        total, hist = _core.enumerate_dealer(ids, rules.a234_low, 0, 0, 0, 0, dense_h, len(hvals),
                                             dense_m, keys, tri, dead, dealer)
    else:
        total, hist = _core.enumerate_dealer(ids, rules.a234_low, *way.code, dense_h, len(hvals),
                                             dense_m, None, None, dead, dealer)
    hi, mi, li = np.nonzero(hist)
    count = hist[hi, mi, li]
    dh, dm, dl = hvals[hi], mvals[mi], lvals[li]
    wins = []
    for h, m, lo in zip(*_core.split_strengths(ids, rules.a234_low), strict=True):
        if not h > m > lo:
            wins.append(0)
            continue
        beat = ((h > dh).astype(int) + (m > dm) + (lo > dl)) >= 2
        wins.append(int(count[beat].sum()))
    return wins, int(total)


def _results(ids: tuple[int, ...], wins: Sequence[int], total: int,
             rules: Rules) -> list[SettingResult]:
    hs, ms, ls = _core.split_strengths(ids, rules.a234_low)
    return [SettingResult(k, setting, hs[k] > ms[k] > ls[k], int(wins[k]), total, rules.pays)
            for k, setting in enumerate(splits(ids))]


def solve(seven: CardsLike, way: WayLike = DEFAULT_WAY, rules: Rules | None = None,
          method: Method = "fast", *, dead: CardsLike | None = None,
          dealer: CardsLike | None = None) -> Solution:
    """Every split of seven cards with its exact win count against the house way.

    Parameters
    ----------
    seven : CardsLike
        The player's seven cards: a text such as ``"As Kd 7h 7c Jk 2s 9d"`` or card ids.
    way : WayLike, default "standard"
        The dealer's house way: a :class:`asiapoker.HouseWay` or a built-in way's name.
    rules : Rules, optional
        The rule options (A-2-3-4's place, the payout); default ``Rules()``.
    method : {"fast", "enumerate"}, default "fast"
        ``"fast"`` counts the dealer hands by class, in milliseconds; ``"enumerate"`` walks
        every dealer hand one by one (the reference path, tens of seconds without known
        cards).  Both give the same integers.
    dead : CardsLike, optional
        Cards known not to be in the dealer's hand (another spot's hand, cards exposed or
        burned).
    dealer : CardsLike, optional
        Cards known to be in the dealer's hand (a dealer card exposed).  With known cards the
        count is over the C(46 - dead - dealer, 7 - dealer) dealer hands consistent with them.

    Returns
    -------
    Solution
        All 105 splits, best first, each with its wins and expected value; the house way's
        setting; the way, rules and known cards they were counted under.

    Raises
    ------
    CardError
        A row holds something that is not a card; ``DuplicateCardError`` when a card is
        there twice.  The message names the row.
    HandSizeError
        A row does not have seven cards.
    KnownCardError
        A known card is in the hand, named twice, or both dead and the dealer's.
    OptionError
        ``method`` is not one of the two.
    HouseWayError
        ``way`` is not a house way.
    RuleError
        ``rules`` is not a :class:`asiapoker.Rules`.

    Examples
    --------
    >>> s = solve("As Kd 7h 7c Jk 2s 9d")
    >>> str(s.best.setting), s.best.wins
    ('Jk As 9d 2s | 7h 7c | Kd', 46507793)
    """
    r = resolve(rules)
    w = resolve_way(way)
    _check_method(method)
    ids = to_ids(seven, 7, what="seven-card hand")
    known = known_cards(ids, dead, dealer)
    wins, total = (_wins_fast if method == "fast" else _wins_enumerate)(ids, w, r, known)
    rows = _results(ids, wins, total, r)
    ordered = sorted(rows, key=lambda x: (-(x.wins if x.legal else -1), x.index))
    hw = w.set(ids, r)
    hw_row = next(x for x in rows if x.setting == hw)
    return Solution(tuple(card_of(i) for i in ids), tuple(ordered), hw, hw_row, w.name, r,
                    *(tuple(card_of(i) for i in cards) for cards in known))


Columns: TypeAlias = Literal["all", "summary"]
"""What :func:`solve_many` keeps: ``"all"`` (every split's wins, legality and ev) or
``"summary"`` (the best and the house way's splits and wins only)."""

PIECE = 2048
"""Rows a worker solves at a time (its scratch: 105 counts a row)."""


@dataclass(frozen=True, slots=True)
class BatchSolution:
    """Results of :func:`solve_many`, one row per hand, split indices in the order of
    :data:`asiapoker.SPLIT_POSITIONS` of the row as given.

    Always kept: ``best`` (the best split: most wins, then the lower index), ``best_wins``,
    ``house_way`` (the house way's split: the first split with its strengths) and
    ``house_way_wins``.  With ``columns="all"`` (the default) also every split's ``wins``
    (n x 105, int64 or int32: 0 for a foul), ``legal`` (n x 105 bool) and ``ev`` (n x 105
    float64, -1 for a foul, as :attr:`SettingResult.ev`, so ``ev.argmax(1)`` is a legal
    split).  ``totals``: each row's number of dealer hands (53,524,680, fewer with known
    cards); the house way and rules the figures depend on.
    """

    best: npt.NDArray[np.int16]
    """Each row's best split: most wins, then the lower index."""
    best_wins: npt.NDArray[np.int64]
    """The best split's wins (dealer hands beaten on two of three)."""
    house_way: npt.NDArray[np.int16]
    """The house way's split of each row: the first split with its strengths."""
    house_way_wins: npt.NDArray[np.int64]
    """The house way's split's wins."""
    totals: npt.NDArray[np.int64]
    """Each row's number of dealer hands (53,524,680, fewer with known cards)."""
    way: str
    """The house way the dealer sets by."""
    rules: Rules
    """The rule options the counts are under."""
    columns: Columns = "all"
    """What was kept: ``"all"`` or ``"summary"``."""
    # the full columns, set by solve_many (None with columns="summary"), and derived ones
    _wins: npt.NDArray[np.int64] | npt.NDArray[np.int32] | None = field(default=None, init=False)
    _legal: npt.NDArray[np.bool_] | None = field(default=None, init=False)
    _cache: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.best)

    @property
    def total(self) -> int:
        """The number of dealer hands of every row (53,524,680 without known cards); an error
        when rows with different known cards have different numbers (see ``totals``)."""
        if len(self.totals) == 0:
            return DEALER_HANDS
        first = int(self.totals[0])
        if (self.totals != first).any():
            raise KnownCardError("rows have different numbers of dealer hands (their known "
                                 "cards differ): read totals")
        return first

    def _full(self, name: str) -> Any:
        value = getattr(self, "_" + name)
        if value is None:
            raise OptionError(f"{name} is not kept: solve_many(..., columns='summary') keeps "
                                 "best, best_wins, house_way and house_way_wins only")
        return value

    @property
    def wins(self) -> npt.NDArray[np.int64] | npt.NDArray[np.int32]:
        """Dealer hands each split beats, n x 105 (0 for a foul)."""
        return self._full("wins")  # type: ignore[no-any-return]

    @property
    def legal(self) -> npt.NDArray[np.bool_]:
        """Whether each split is legal, n x 105."""
        return self._full("legal")  # type: ignore[no-any-return]

    @property
    def ev(self) -> npt.NDArray[np.float64]:
        """Expected value of each split, n x 105 float64 (-1 for a foul); computed on first
        use."""
        if "ev" not in self._cache:
            self._cache["ev"] = _ev(self.wins, self.legal, self.rules, self.totals[:, None])
        return self._cache["ev"]  # type: ignore[no-any-return]

    @property
    def best_ev(self) -> npt.NDArray[np.float64]:
        """Expected value of the best split, per row."""
        return _ev(self.best_wins, True, self.rules, self.totals)

    @property
    def house_way_ev(self) -> npt.NDArray[np.float64]:
        """Expected value of setting each row by the house way."""
        return _ev(self.house_way_wins, True, self.rules, self.totals)

    def describe(self) -> str:
        """What the results depend on: house way and rule options."""
        return f"house way {self.way}; {self.rules.describe()}"


def _ev(wins: npt.NDArray[Any], legal: Any, rules: Rules,
        totals: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    w = wins.astype(np.float64)
    n = totals.astype(np.float64)
    ev: npt.NDArray[np.float64] = np.where(legal, (w * rules.pays - (n - w)) / n, -1.0)
    return ev


def count_splits(hands: Any, way: WayLike = DEFAULT_WAY, rules: Rules | None = None,
                 side: Literal["player", "dealer"] = "player", *, dead: Any = None,
                 dealer: Any = None) -> npt.NDArray[np.int64]:
    """The exact counts behind the solver, for every split of every row, in one thread.

    Parameters
    ----------
    hands : array_like
        An n x 7 array of card ids (0-51, the joker 52), or any iterable of rows (card ids or
        text such as ``"As Kd 7h 7c Jk 2s 9d"``).
    way : WayLike, default "standard"
        The dealer's house way: a :class:`asiapoker.HouseWay` or a built-in way's name.
    rules : Rules, optional
        The rule options (A-2-3-4's place, the payout); default ``Rules()``.
    side : {"player", "dealer"}, default "player"
        ``"player"``: the dealer hands (set by ``way``) each split beats on two hands of
        three, the player's wins (0 for a foul).  ``"dealer"``: taking each split as the
        DEALER's setting of the row, the player hands (set by ``way``) that do not beat it on
        two of three -- the dealer's objective, used by the best response.
    dead : CardsLike or array, optional
        Cards known not to be in the dealer's hand: one list for every row, or one per row
        (an n x w int8 array padded with -1; see :func:`asiapoker.known.known_rows`).
    dealer : CardsLike or array, optional
        Cards known to be in the dealer's hand, given as ``dead`` is.

    Returns
    -------
    numpy.ndarray
        n x 105 int64, split order :data:`asiapoker.SPLIT_POSITIONS` of each row as given.

    Raises
    ------
    CardError
        A row holds something that is not a card; ``DuplicateCardError`` when a card is
        there twice.  The message names the row.
    HandSizeError
        A row does not have seven cards.
    KnownCardError
        A row's known cards cannot be.
    OptionError
        ``side`` is not one of the two.
    HouseWayError
        ``way`` is not a house way.
    RuleError
        ``rules`` is not a :class:`asiapoker.Rules`.
    """
    if side not in ("player", "dealer"):
        raise OptionError(f"side must be 'player' or 'dealer', got {side!r}")
    r = resolve(rules)
    arr = as_card_array(hands, 7, "hands")
    known = _known_for(arr, dead, dealer)
    m = dealer_model(resolve_way(way), r)
    if side == "player":
        return _player_counts(m, arr, r, known)[0]
    out = np.empty((len(arr), 105), dtype=np.int64)
    _counts(m, arr, known, out, np.empty(len(arr), dtype=np.int64), 1)
    return out


_KnownRows: TypeAlias = tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]] | None


def _known_for(arr: npt.NDArray[Any], dead: Any, dealer: Any) -> _KnownRows:
    """Checked known cards of the rows, or None without any (the core checks the rows)."""
    if dead is None and dealer is None:
        return None
    return known_rows(arr, dead, dealer)


def _counts(m: _core.DealerModel, rows: npt.NDArray[Any], known: _KnownRows,
            out: npt.NDArray[np.int64], totals: npt.NDArray[np.int64], side: int = 0) -> None:
    """The core's counts of ``rows`` (``known``: their known cards, as from _known_for)."""
    if known is None:
        run_kernel(m.solve_rows, rows, "hands", out, totals, side)
    else:
        run_kernel(_core.solve_known_kernel, rows, "hands", m, known[0], known[1], out, totals,
                   side)


def _player_counts(m: _core.DealerModel, rows: npt.NDArray[Any], rules: Rules,
                   known: _KnownRows = None,
                   ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_],
                              npt.NDArray[np.int64]]:
    """The player's wins of every split of the rows (0 for a foul), legality and each row's
    number of dealer hands."""
    got = np.empty((len(rows), 105), dtype=np.int64)
    totals = np.empty(len(rows), dtype=np.int64)
    _counts(m, rows, known, got, totals)
    ok = np.empty((len(rows), 105), dtype=np.uint8)
    run_kernel(_core.legal_kernel, rows, "hands", rules.a234_low, ok)
    is_legal = ok.view(np.bool_)
    got[~is_legal] = 0
    return got, is_legal, totals


def solve_many(hands: Any, way: WayLike = DEFAULT_WAY, rules: Rules | None = None,
               workers: int | None = None, *, dead: Any = None, dealer: Any = None,
               columns: Columns = "all",
               wins_dtype: npt.DTypeLike = np.int64,
               progress: Callable[[int, int], object] | None = None) -> BatchSolution:
    """Solve many hands at once: each row's best split, the house way's, and (by default) every
    split's exact wins.

    Split indices are positions in :data:`asiapoker.SPLIT_POSITIONS` of each row as given.

    Parameters
    ----------
    hands : array_like
        An n x 7 array of card ids (0-51, the joker 52), or any iterable of rows (card ids or
        text such as ``"As Kd 7h 7c Jk 2s 9d"``).
        Read-only, memory-mapped and big-endian arrays are taken as they are.
    way : WayLike, default "standard"
        The dealer's house way: a :class:`asiapoker.HouseWay` or a built-in way's name.
    rules : Rules, optional
        The rule options (A-2-3-4's place, the payout); default ``Rules()``.
    workers : int, optional
        Threads that share the rows (default: all cores); the core releases the GIL.
    dead : CardsLike or array, optional
        Cards known not to be in the dealer's hand: one list for every row, or one per row
        (an n x w int8 array padded with -1; see :func:`asiapoker.known.known_rows`).
    dealer : CardsLike or array, optional
        Cards known to be in the dealer's hand, given as ``dead`` is.
    columns : Columns, default "all"
        ``"all"`` keeps every split's count and legality (525 bytes a row with
        ``wins_dtype=np.int32``, 945 with int64; reading ``ev`` adds 840); ``"summary"``
        keeps four numbers a row, so a memory-mapped array of any length streams through.
    wins_dtype : numpy.int64 or numpy.int32, default numpy.int64
        The type of the kept wins; int32 is exact too (a count is at most 53,524,680).
    progress : callable, optional
        ``progress(done, n)``, called from the calling thread as rows finish.

    Returns
    -------
    BatchSolution
        One row per hand, naming the way and rules.  See :func:`solve_chunks` for results
        chunk by chunk.

    Raises
    ------
    CardError
        A row holds something that is not a card; ``DuplicateCardError`` when a card is
        there twice.  The message names the row.
    HandSizeError
        A row does not have seven cards.
    KnownCardError
        A row's known cards cannot be (see :func:`solve`).
    OptionError
        ``columns``, ``wins_dtype``, ``workers`` or ``progress`` is not one it takes.
    HouseWayError
        ``way`` is not a house way.
    RuleError
        ``rules`` is not a :class:`asiapoker.Rules`.

    Examples
    --------
    >>> b = solve_many([[51, 47, 26, 27, 52, 3, 37]], columns="summary")
    >>> int(b.best[0]), int(b.best_wins[0]), b.way
    (23, 50711714, 'standard')
    >>> b.wins
    Traceback (most recent call last):
    ...
    asiapoker.errors.OptionError: wins is not kept: solve_many(..., columns='summary') keeps ...
    """
    r = resolve(rules)
    w = resolve_way(way)
    if columns not in ("all", "summary"):
        raise OptionError(f"columns must be 'all' or 'summary', got {columns!r}")
    try:
        dtype = np.dtype(wins_dtype)
    except TypeError:
        dtype = None
    if dtype not in (np.dtype(np.int64), np.dtype(np.int32)):
        raise OptionError(f"wins_dtype must be numpy.int64 or numpy.int32, got {wins_dtype!r}")
    if progress is not None and not callable(progress):
        raise OptionError(f"progress must be a function of (done, total), got {progress!r}")
    arr = as_card_array(hands, 7, "hands")
    workers = workers_count(workers)
    n = len(arr)
    hw = house_way_splits(arr, w, r)           # checks every row before any work
    known = _known_for(arr, dead, dealer)
    m = dealer_model(w, r)
    best = np.empty(n, dtype=np.int16)
    best_wins = np.empty(n, dtype=np.int64)
    hw_wins = np.empty(n, dtype=np.int64)
    totals = np.empty(n, dtype=np.int64)
    full = columns == "all"
    wins = np.empty((n, 105), dtype=dtype) if full else None
    legal = np.empty((n, 105), dtype=np.bool_) if full else None
    # many small contiguous pieces, so that threads finish together whatever the hands cost
    pieces = max(1, min(n, max(16 * workers, -(-n // PIECE))))
    bounds = np.linspace(0, n, pieces + 1).astype(np.intp)

    def run(j: int) -> int:
        lo, hi = int(bounds[j]), int(bounds[j + 1])
        k = hi - lo
        if k == 0:
            return 0
        got, is_legal, totals[lo:hi] = _player_counts(
            m, arr[lo:hi], r, None if known is None else (known[0][lo:hi], known[1][lo:hi]))
        b = np.argmax(np.where(is_legal, got, -1), axis=1)
        idx = np.arange(k)
        best[lo:hi] = b
        best_wins[lo:hi] = got[idx, b]
        hw_wins[lo:hi] = got[idx, hw[lo:hi]]
        if wins is not None and legal is not None:
            wins[lo:hi] = got
            legal[lo:hi] = is_legal
        return k

    done = 0
    if workers == 1 or pieces == 1:
        for j in range(pieces):
            done += run(j)
            if progress is not None:
                progress(done, n)
    else:
        with ThreadPoolExecutor(workers) as pool:
            for k in pool.map(run, range(pieces)):
                done += k
                if progress is not None:
                    progress(done, n)
    solution = BatchSolution(best, best_wins, hw, hw_wins, totals, w.name, r, columns)
    object.__setattr__(solution, "_wins", wins)      # frozen: set once, here
    object.__setattr__(solution, "_legal", legal)
    return solution


def solve_chunks(hands: Any, way: WayLike = DEFAULT_WAY, rules: Rules | None = None,
                 workers: int | None = None, *, dead: Any = None, dealer: Any = None,
                 chunk: int = 100_000, columns: Columns = "all",
                 wins_dtype: npt.DTypeLike = np.int64,
                 ) -> Iterator[tuple[int, BatchSolution]]:
    """:func:`solve_many` chunk by chunk, so memory stays that of one chunk.

    The arguments are read and checked at the call (an iterable other than an array is read
    whole); a bad row raises when its chunk is reached.

    Parameters
    ----------
    hands : array_like
        An n x 7 array of card ids (0-51, the joker 52), or any iterable of rows (card ids or
        text such as ``"As Kd 7h 7c Jk 2s 9d"``).
        An array or a memory map of any length.
    way : WayLike, default "standard"
        The dealer's house way: a :class:`asiapoker.HouseWay` or a built-in way's name.
    rules : Rules, optional
        The rule options (A-2-3-4's place, the payout); default ``Rules()``.
    workers : int, optional
        Threads that share the rows (default: all cores); the core releases the GIL.
    dead : CardsLike or array, optional
        Cards known not to be in the dealer's hand: one list for every row, or one per row
        (an n x w int8 array padded with -1; see :func:`asiapoker.known.known_rows`).
    dealer : CardsLike or array, optional
        Cards known to be in the dealer's hand, given as ``dead`` is.
        Known cards given per row are cut into chunks with the rows.
    chunk : int, default 100000
        Rows a chunk.
    columns : Columns, default "all"
        What each chunk's :class:`BatchSolution` keeps (see :func:`solve_many`).
    wins_dtype : numpy.int64 or numpy.int32, default numpy.int64
        The type of the kept wins.

    Returns
    -------
    Iterator[tuple[int, BatchSolution]]
        ``(first row, solution)`` for each chunk, in order.

    Raises
    ------
    CardError
        A row holds something that is not a card; ``DuplicateCardError`` when a card is
        there twice.  The message names the row.
    HandSizeError
        A row does not have seven cards.
    OptionError
        ``chunk``, ``columns``, ``wins_dtype`` or ``workers`` is not one it takes.
    HouseWayError
        ``way`` is not a house way.
    RuleError
        ``rules`` is not a :class:`asiapoker.Rules`.
    """
    whole_number(chunk, "chunk")
    if not (isinstance(hands, np.ndarray) and hands.ndim == 2):
        hands = as_card_array(hands, 7, "hands")     # read once, whole (an array streams)
    n = len(hands)
    specs = {what: read_known(spec, what)                # read once, for every chunk
             for what, spec in (("dead", dead), ("dealer", dealer))}
    for what, known in specs.items():
        check_count(known, n, what)

    def part(spec: Any, lo: int) -> Any:
        return spec[lo:lo + chunk] if isinstance(spec, np.ndarray) else spec

    def chunks() -> Iterator[tuple[int, BatchSolution]]:
        for lo in range(0, n, chunk):
            yield lo, solve_many(hands[lo:lo + chunk], way, rules, workers,
                                 dead=part(specs["dead"], lo), dealer=part(specs["dealer"], lo),
                                 columns=columns, wins_dtype=wins_dtype)

    return chunks()
