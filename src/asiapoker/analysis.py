"""Figures of the whole game against a house way: exact over every player hand, or estimated.

:func:`player_classes` lists the seven-card hands up to the 24 renamings of suits (6,972,147
classes; every figure here is the same for all hands of a class, since house ways and hand
ranks do not look at suit names).  :func:`analyze` solves every class exactly against a way
and aggregates exactly (see :mod:`asiapoker._runs` for runs that resume and run on Dask).

:func:`exploitability` (rule 5.6 a) solves ``hands`` random seven-card hands exactly against
the way and reports, with 95 % confidence intervals over the sample:

- ``gain``: what optimal play gains over copying the house way, per unit wagered;
- ``house_edge_house_way``: the house edge when the player copies the way (house way against
  house way);
- ``house_edge_optimal``: the house edge when the player sets every hand optimally.

Every hand's figure is an exact integer count; only the mean over the sample is an estimate.
The same ``seed`` deals the same hands, so two ways measured with one seed are compared on the
same hands.

>>> exploitability("classic", hands=0)
Traceback (most recent call last):
...
asiapoker.errors.AsiaPokerError: hands must be a whole number >= 2, got 0
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from ._classes import multisets, rank_counts
from ._progress import Progress
from ._runs import (
    RunDir,
    chunk_bounds,
    digest,
    little_endian,
    parse_shard,
    run_chunks,
    shard_chunks,
    write_summary,
)
from ._validate import as_card_array, run_kernel, whole
from .cards import Card, to_ids
from .equilibrium import way_digest
from .errors import AsiaPokerError, MissingExtraError, require_extra
from .house_way import DEFAULT_WAY, HouseWay, WayLike, house_way_splits, resolve_way
from .rack import SHAPES, hand_facts
from .rules import Rules, resolve
from .setting import SPLIT_POSITIONS
from .simulation import strategy_splits
from .solver import DEALER_HANDS, model, solve_many

__all__ = ["COST_EDGES", "HAND_SHAPES", "PARQUET_COLUMNS", "PLAYER_HANDS", "Analysis", "Estimate",
           "Exploitability", "Figures", "MissingExtraError", "analyze", "class_codes",
           "class_groups", "class_of", "exact_house_edges", "exploitability", "hand_shapes",
           "player_classes", "random_hands", "solve_classes"]

_Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Estimate:
    """A sample mean with its standard error; ``exact`` is the sample mean as a fraction."""

    exact: Fraction
    se: float

    @property
    def mean(self) -> float:
        """The sample mean."""
        return float(self.exact)

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95 % confidence interval (normal approximation)."""
        return (self.mean - _Z95 * self.se, self.mean + _Z95 * self.se)

    def __str__(self) -> str:
        lo, hi = self.ci95
        return f"{self.mean:+.4%} (95% CI {lo:+.4%} to {hi:+.4%})"


def _estimate(units: npt.NDArray[Any], scale: int) -> Estimate:
    """Mean and standard error of ``units / scale`` (Python integers, so the mean is exact
    whatever their size)."""
    n = len(units)
    mean = Fraction(int(units.sum()), n * scale)
    x = units.astype(np.float64) / scale
    return Estimate(mean, float(x.std(ddof=1) / math.sqrt(n)))


@dataclass(frozen=True, slots=True)
class Exploitability:
    """Exploitability and house edges of a way, from ``hands`` random hands (``seed``)."""

    way: str
    rules: Rules
    hands: int
    seed: int
    gain: Estimate
    house_edge_house_way: Estimate
    house_edge_optimal: Estimate

    def describe(self) -> str:
        """What the figures depend on."""
        return (f"house way {self.way}; {self.rules.describe()}; {self.hands:,} random hands, "
                f"seed {self.seed}")

    def __str__(self) -> str:
        return (f"optimal play gains {self.gain}\n"
                f"house edge, player copies the way: {self.house_edge_house_way}\n"
                f"house edge, player sets optimally: {self.house_edge_optimal}\n"
                f"({self.describe()})")


def random_hands(n: int, seed: int) -> npt.NDArray[np.int8]:
    """``n`` uniformly random seven-card hands from the 53 cards (rows of sorted ids)."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, 7), dtype=np.int8)
    for lo in range(0, n, 1 << 16):
        k = min(1 << 16, n - lo)
        out[lo:lo + k] = np.sort(np.argsort(rng.random((k, 53)), axis=1)[:, :7], axis=1)
    return out


def exploitability(way: WayLike = DEFAULT_WAY, rules: Rules | None = None, *, hands: int = 20_000,
                   seed: int = 0, workers: int | None = None) -> Exploitability:
    """Exploitability of ``way`` and both house edges, from ``hands`` random hands solved
    exactly (about 0.4 ms a hand on two cores)."""
    whole(hands, "hands", 2)
    whole(seed, "seed", 0)
    r = resolve(rules)
    w = resolve_way(way)
    rows = random_hands(hands, seed)
    b = solve_many(rows, w, r, workers=workers)
    # per hand, in units of 1 / (DEALER_HANDS * den), as Python integers: exact for any pays
    # (a float pays is the fraction it is, whose numerator can be near 2**53)
    pays = Fraction(r.pays)
    num, den = pays.numerator, pays.denominator
    best, hw = b.best_wins.astype(object), b.house_way_wins.astype(object)
    scale = DEALER_HANDS * den
    # ev = (wins * pays - (N - wins)) / N = (wins * (num + den) - N * den) / (N * den)
    ev_best = best * (num + den) - DEALER_HANDS * den
    ev_hw = hw * (num + den) - DEALER_HANDS * den
    return Exploitability(
        w.name, r, hands, seed,
        gain=_estimate(ev_best - ev_hw, scale),
        house_edge_house_way=_estimate(-ev_hw, scale),
        house_edge_optimal=_estimate(-ev_best, scale),
    )


# --------------------------------------------------------------------------------------------
# player hands up to suit renaming
# --------------------------------------------------------------------------------------------

#: The number of seven-card hands from the 53 cards, C(53, 7).
PLAYER_HANDS = math.comb(53, 7)


@functools.cache
def _classes() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    ms7, ms6 = multisets(7, 4), multisets(6, 4)
    counts = np.concatenate([rank_counts(ms7), rank_counts(ms6)]).astype(np.int8)
    joker = np.r_[np.zeros(len(ms7), np.uint8), np.ones(len(ms6), np.uint8)]
    cap = 7_000_000
    out = np.zeros((cap, 7), dtype=np.int8)
    weight = np.zeros(cap, dtype=np.int64)
    group = np.zeros(cap, dtype=np.int32)
    n = _core.suit_classes_kernel(counts, joker, out, weight, group)
    if n < 0:  # pragma: no cover - the count is fixed
        raise AsiaPokerError("more classes than expected")
    arrays = (out[:n].copy(), weight[:n].copy(), group[:n].copy())
    for a in arrays:
        a.setflags(write=False)
    return arrays


def class_groups() -> npt.NDArray[np.int32]:
    """For each class of :func:`player_classes`, the index of its rank multiset (classes of
    one multiset are adjacent; the chunks of a run never split one); read-only."""
    return _classes()[2]


def player_classes() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """The seven-card hands up to renaming of suits: one hand per class (an n x 7 int8 array of
    sorted card ids, the least member of its class) and how many of the C(53, 7) hands each
    stands for (1 to 24; they sum to C(53, 7)).  Classes come ordered by rank multiset, hands
    with the joker last; 6,972,147 of them, about a second to list, then kept; read-only.

    >>> hands, weights = player_classes()
    >>> len(hands), int(weights.sum()) == PLAYER_HANDS, hands[0].tolist(), int(weights[0])
    (6972147, True, [0, 1, 2, 3, 4, 5, 6], 4)
    """
    hands, weights, _ = _classes()
    return hands, weights


def _hand_rows(hands: Any) -> npt.NDArray[Any]:
    """Checked n x 7 card ids from an array, or from a list of hands written as text."""
    if isinstance(hands, (list, tuple)) and hands and all(isinstance(h, str) for h in hands):
        return as_card_array([to_ids(h) for h in hands], 7, "hands")
    return as_card_array(hands, 7, "hands")


def class_codes(hands: Any) -> npt.NDArray[np.int64]:
    """A number that is the same for two rows exactly when one is a suit renaming of the
    other: each rank's suits as a 4-bit mask, least over the 24 renamings (2 ranks first),
    with the joker as bit 52.  Rows are checked seven-card hands."""
    arr = _hand_rows(hands)
    out = np.empty(len(arr), dtype=np.int64)
    run_kernel(_core.class_codes_kernel, arr, "hands", out)
    return out


@functools.cache
def _sorted_codes() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    codes = class_codes(player_classes()[0])
    order = np.argsort(codes)
    return codes[order], order


def class_of(hands: Any) -> npt.NDArray[np.int64]:
    """The index in :func:`player_classes` of each row's class (seven-card rows, checked).

    >>> hands, _ = player_classes()
    >>> int(class_of(["Ac Kc Qc Jc Tc 9c 8c"])[0]) == int(class_of(["As Ks Qs Js Ts 9s 8s"])[0])
    True
    """
    arr = _hand_rows(hands)
    keys, order = _sorted_codes()
    codes = class_codes(arr)
    pos = np.minimum(np.searchsorted(keys, codes), len(keys) - 1)
    if not (keys[pos] == codes).all():  # pragma: no cover - every hand has a class
        raise AsiaPokerError("a hand without a class")
    return order[pos]


# --------------------------------------------------------------------------------------------
# the whole game
# --------------------------------------------------------------------------------------------

#: The hand shapes figures are broken down by: the group shape of :mod:`asiapoker.rack`, except
#: that a hand of at most two pairs or trips that can play a straight or a flush (or straight
#: flush) in the high hand is a "straight" or "flush"; four of a kind and five aces include
#: their variants with a pair or trips.
HAND_SHAPES = ("no pair", "one pair", "two pairs", "three pairs", "trips", "straight", "flush",
               "trips and a pair", "trips and two pairs", "two trips", "four of a kind",
               "five aces")
_RACK_TO_SHAPE = np.array([HAND_SHAPES.index(n) if n in HAND_SHAPES else
                           HAND_SHAPES.index("five aces") if n.startswith("five aces") else
                           HAND_SHAPES.index("four of a kind") for n in SHAPES.values()])
#: Players an analysis reports: optimal play, house-way play and, when given, a strategy.
PLAYERS = ("optimal", "house-way", "strategy")
#: Edges of the house way's cost histogram, in probability of winning given up.
COST_EDGES = (Fraction(0), Fraction(5, 1000), Fraction(1, 100), Fraction(25, 1000),
              Fraction(5, 100), Fraction(1, 10), Fraction(1, 4), Fraction(1, 2), Fraction(1))
EV_BINS = 20


def hand_shapes(hands: Any, rules: Rules | None = None) -> npt.NDArray[np.int8]:
    """Index into :data:`HAND_SHAPES` of each seven-card row."""
    arr = as_card_array(hands, 7, "hands")
    run_kernel(_core.class_keys_kernel, arr, "hands", np.empty(len(arr), dtype=np.int64))
    facts = hand_facts(arr, rules)
    shape = _RACK_TO_SHAPE[facts.shape]
    small = shape <= HAND_SHAPES.index("trips")
    shape = np.where(small & (facts.feature[:, 10] == 1), HAND_SHAPES.index("straight"), shape)
    shape = np.where(small & (facts.feature[:, 9] == 1), HAND_SHAPES.index("flush"), shape)
    return shape.astype(np.int8)


@dataclass(frozen=True, slots=True)
class Figures:
    """One player's exact figures over ``hands`` player hands (each against all
    C(46, 7) dealer hands): ``wins`` wagers won of ``hands * DEALER_HANDS``; ``se`` is the
    standard error of the ev when the figures come from a sample (else None)."""

    hands: int
    wins: int
    pays: Fraction
    se: float | None = None

    @property
    def p_win(self) -> Fraction:
        """Probability that the wager wins (there are no pushes)."""
        return Fraction(self.wins, self.hands * DEALER_HANDS) if self.hands else Fraction(0)

    @property
    def ev(self) -> Fraction:
        """Expected value per unit wagered."""
        return self.p_win * (self.pays + 1) - 1

    @property
    def house_edge(self) -> Fraction:
        """The house edge, -ev."""
        return -self.ev

    @property
    def sd(self) -> float:
        """Standard deviation of one wager's result, per unit wagered."""
        p = self.p_win
        return math.sqrt(p * (1 - p)) * float(self.pays + 1)

    @property
    def ci95(self) -> tuple[float, float] | None:
        """95 % confidence interval of the ev (sample runs only)."""
        if self.se is None:
            return None
        return (float(self.ev) - _Z95 * self.se, float(self.ev) + _Z95 * self.se)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures (exact ones as fraction strings too)."""
        d: dict[str, Any] = {"hands": self.hands, "wins": self.wins,
                             "p_win": float(self.p_win), "ev": float(self.ev),
                             "house_edge": float(self.house_edge),
                             "house_edge_exact": str(self.house_edge), "sd": self.sd}
        if self.se is not None:
            d["se"] = self.se
            d["ci95"] = list(self.ci95 or ())
        return d


@dataclass(frozen=True)
class Analysis:
    """Figures of the whole game against ``way`` under ``rules``: for each player in
    ``figures`` ("optimal", "house-way", and "strategy" when one was given), overall, by hand
    shape (:data:`HAND_SHAPES`) and by whether the hand holds the joker; the distribution of
    each player's ev over hands (``ev_hist[player][b]``: hands whose P(win) lies in
    [b/20, (b+1)/20)) and of what house-way (and strategy) play gives up against optimal play
    (``cost_hist``, by :data:`COST_EDGES` in P(win): bin 0 is exactly nothing).

    ``complete`` is False when the figures cover only a shard of the classes; ``sample`` is
    the number of random hands when they are an estimate."""

    way: str
    way_digest: str
    rules: Rules
    player: str
    classes: int
    complete: bool
    figures: dict[str, Figures]
    by_shape: dict[str, dict[str, Figures]]
    by_joker: dict[str, dict[str, Figures]]
    ev_hist: dict[str, list[int]]
    cost_hist: dict[str, list[int]]
    sample: int | None = None
    seed: int | None = None
    seconds: float = 0.0
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def house_edge(self) -> Fraction:
        """The house edge when the player plays as ``player`` says."""
        return self.figures[_player_key(self.player)].house_edge

    def describe(self) -> str:
        """What the figures depend on."""
        what = (f"{self.sample:,} random hands (seed {self.seed})" if self.sample
                else f"{self.classes:,} classes" + ("" if self.complete else " (a shard)"))
        return f"house way {self.way}; {self.rules.describe()}; {what}"

    def table(self) -> str:
        """The main figures as a text table."""
        lines = [f"{'player':<10} {'P(win)':>9} {'ev':>9} {'house edge':>11} {'sd':>7}"]
        for name, f in self.figures.items():
            lines.append(f"{name:<10} {float(f.p_win):9.5f} {float(f.ev):+9.5f} "
                         f"{float(f.house_edge):+11.5%} {f.sd:7.4f}"
                         + ("" if f.ci95 is None else
                            f"  95% CI {f.ci95[0]:+.5f} to {f.ci95[1]:+.5f}"))
        return "\n".join(lines)

    def __str__(self) -> str:
        return f"{self.table()}\n({self.describe()})"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "way": self.way, "way_digest": self.way_digest, "rules": self.rules.to_dict(),
            "player": self.player, "classes": self.classes, "complete": self.complete,
            "sample": self.sample, "seed": self.seed, "seconds": self.seconds,
            "dealer_hands": DEALER_HANDS, "player_hands": PLAYER_HANDS,
            "figures": {k: f.to_dict() for k, f in self.figures.items()},
            "by_shape": {s: {k: f.to_dict() for k, f in d.items()}
                         for s, d in self.by_shape.items()},
            "by_joker": {s: {k: f.to_dict() for k, f in d.items()}
                         for s, d in self.by_joker.items()},
            "ev_hist": self.ev_hist, "cost_hist": self.cost_hist,
            "cost_edges": [str(e) for e in COST_EDGES], **self.meta,
        }


def _player_key(player: str) -> str:
    return player if player in ("optimal", "house-way") else "strategy"


class _Totals:
    """Integer sums a chunk contributes; added up over chunks."""

    def __init__(self, players: Sequence[str]) -> None:
        self.players = list(players)
        k, s = len(self.players), len(HAND_SHAPES)
        self.hands = np.zeros((s, 2), dtype=object)                 # [shape, joker]
        self.wins = np.zeros((k, s, 2), dtype=object)
        self.ev_hist = np.zeros((k, EV_BINS), dtype=np.int64)
        self.cost_hist = np.zeros((k, len(COST_EDGES)), dtype=np.int64)
        self.classes = 0

    def add(self, data: dict[str, npt.NDArray[Any]], weight: npt.NDArray[np.int64],
            shape: npt.NDArray[np.int8], joker: npt.NDArray[np.bool_]) -> None:
        self.classes += len(weight)
        cell = shape.astype(np.int64) * 2 + joker
        self.hands += _int_sums(cell, weight, 2 * len(HAND_SHAPES)).reshape(-1, 2)
        best = data["best_wins"]
        for i, p in enumerate(self.players):
            wins = data[f"{_COL[p]}_wins"]
            self.wins[i] += _int_sums(cell, weight * wins, 2 * len(HAND_SHAPES)).reshape(-1, 2)
            b = np.minimum(wins * EV_BINS // DEALER_HANDS, EV_BINS - 1)
            self.ev_hist[i] += np.bincount(b, weights=weight, minlength=EV_BINS).astype(np.int64)
            d = best - wins
            cb = (d > 0).astype(np.int64)
            for e in COST_EDGES[1:-1]:
                cb += d * e.denominator > e.numerator * DEALER_HANDS
            self.cost_hist[i] += np.bincount(cb, weights=weight,
                                             minlength=len(COST_EDGES)).astype(np.int64)

    def __iadd__(self, other: _Totals) -> _Totals:
        self.hands += other.hands
        self.wins += other.wins
        self.ev_hist += other.ev_hist
        self.cost_hist += other.cost_hist
        self.classes += other.classes
        return self

    def analysis(self, pays: Fraction, **kw: Any) -> Analysis:
        """The :class:`Analysis` of these sums."""
        def figs(h: Any, w: Any) -> dict[str, Figures]:
            return {p: Figures(int(h), int(w[i]), pays) for i, p in enumerate(self.players)}
        wins = self.wins
        return Analysis(
            classes=self.classes,
            figures=figs(self.hands.sum(), wins.sum(axis=(1, 2))),
            by_shape={name: figs(self.hands[s].sum(), wins[:, s].sum(axis=1))
                      for s, name in enumerate(HAND_SHAPES) if self.hands[s].sum()},
            by_joker={name: figs(self.hands[:, j].sum(), wins[:, :, j].sum(axis=1))
                      for j, name in enumerate(("no joker", "joker")) if self.hands[:, j].sum()},
            ev_hist={p: self.ev_hist[i].tolist() for i, p in enumerate(self.players)},
            cost_hist={p: self.cost_hist[i].tolist() for i, p in enumerate(self.players)
                       if p != "optimal"},
            **kw)


_COL = {"optimal": "best", "house-way": "house_way", "strategy": "player"}


def _int_sums(cell: npt.NDArray[np.int64], values: npt.NDArray[np.int64],
              n: int) -> npt.NDArray[Any]:
    """Exact per-cell sums of int64 ``values`` (as Python ints; no float rounding)."""
    out = np.zeros(n, dtype=object)
    order = np.argsort(cell, kind="stable")
    c, v = cell[order], values[order]
    edges = np.searchsorted(c, np.arange(n + 1))
    for i in range(n):
        if edges[i] < edges[i + 1]:
            out[i] = int(v[edges[i]:edges[i + 1]].sum(dtype=np.int64))
    return out

PlayerLike = str | HouseWay | Callable[[npt.NDArray[np.int8]], Any]


@dataclass(frozen=True)
class _ChunkWork:
    """Solves one chunk of classes: picklable, so Dask can ship it to a worker."""

    way: HouseWay
    rules: Rules
    strategy: HouseWay | Callable[[npt.NDArray[np.int8]], Any] | None
    edges: tuple[int, ...]

    def __call__(self, c: int) -> dict[str, npt.NDArray[Any]]:
        hands = np.ascontiguousarray(player_classes()[0][self.edges[c]:self.edges[c + 1]])
        out = solve_classes(hands, self.way, self.rules, self.strategy)
        out["shape"] = hand_shapes(hands, self.rules)
        return out


def solve_classes(hands: npt.NDArray[np.int8], way: HouseWay, rules: Rules,
                  strategy: HouseWay | Callable[[npt.NDArray[np.int8]], Any] | None = None
                  ) -> dict[str, npt.NDArray[Any]]:
    """Per-row results of checked seven-card rows against ``way``: the best split and its
    wins, the house way's split and its wins, and the strategy's when given (split indices
    into :data:`~asiapoker.SPLIT_POSITIONS` of each row).  Rows that share a rank multiset
    should be adjacent (as in :func:`player_classes`); any order gives the same answer."""
    wins = np.empty((len(hands), 105), dtype=np.int64)
    run_kernel(model(way, rules).solve_groups, hands, "hands", wins)
    rows = np.arange(len(hands))
    best = np.argmax(wins, axis=1)
    hw = house_way_splits(hands, way, rules)
    out = {"best": best.astype(np.int8), "best_wins": wins[rows, best],
           "house_way": hw.astype(np.int8), "house_way_wins": wins[rows, hw]}
    if strategy is not None:
        if isinstance(strategy, HouseWay):
            sp = house_way_splits(hands, strategy, rules).astype(np.intp)
        else:
            sp = strategy_splits(strategy, hands)
        out["player"] = sp.astype(np.int8)
        out["player_wins"] = wins[rows, sp]
    return out


def _resolve_player(player: PlayerLike) -> tuple[str, Any]:
    """(label, strategy or None) of ``player``."""
    if isinstance(player, str) and player in ("optimal", "house-way"):
        return player, None
    if isinstance(player, (str, HouseWay)):
        w = resolve_way(player)
        return f"way:{w.name}", w
    if callable(player):
        return f"strategy:{getattr(player, '__name__', 'strategy')}", player
    raise AsiaPokerError(f"player must be 'optimal', 'house-way', a house way or a batch "
                         f"strategy (a function of an n x 7 array that returns n split "
                         f"indices), got {player!r}")


def analyze(way: WayLike = DEFAULT_WAY, rules: Rules | None = None,
            player: PlayerLike = "optimal", *, out: str | os.PathLike[str] | None = None,
            workers: int | None = None, client: Any = None,
            shard: str | tuple[int, int] | None = None, sample: int | None = None,
            seed: int = 0, progress: bool | None = None, parquet: bool = False) -> Analysis:
    """The whole game against ``way``, exactly: every one of the 6,972,147 classes of player
    hands (:func:`player_classes`) solved, and the figures of optimal play, of house-way play
    and of ``player`` (a house way, or a batch strategy: a function of an n x 7 int8 array of
    hands returning n split indices) aggregated in integers.  ``player`` names the headline
    figure (:attr:`Analysis.house_edge`).

    With ``out``, the run keeps its chunks in that directory: a killed run resumes where it
    stopped with the same call, a call with other parameters is an error, and the results
    (``summary.json``, and ``classes.parquet`` with ``parquet=True``) are written there when
    every chunk is done.  ``shard="I/N"`` solves every N-th chunk from the I-th only.
    ``client`` (a ``dask.distributed.Client``) runs the chunks on a cluster instead of
    ``workers`` local threads.  ``sample=N`` estimates the figures from N random hands
    (``seed``) with confidence intervals instead.  A whole run takes about 6 to 15 minutes on two
    cores, by the way (docs/analysis.md).
    """
    label, strategy = _resolve_player(player)
    w, r = resolve_way(way), resolve(rules)
    pays = Fraction(r.pays)
    workers = whole((os.cpu_count() or 1) if workers is None else workers, "workers")
    players = ["optimal", "house-way"] + (["strategy"] if strategy is not None else [])
    meta = {"way_name": w.name, "player_label": label}
    if sample is not None:
        return _sample(w, r, label, strategy, players, whole(sample, "sample", 2),
                       whole(seed, "seed", 0), workers)
    sh = parse_shard(shard)
    if parquet:
        require_extra("pyarrow", "parquet")
    if client is not None:
        require_extra("distributed", "dask")
    hands, weights, groups = _classes()
    edges = chunk_bounds(groups)
    nchunks = len(edges) - 1
    params = {"way": w.name, "way_digest": way_digest(w, r), "rules": r.to_dict(),
              "player": label, "classes": len(hands), "chunks": nchunks,
              "chunk_digest": digest([edges])}
    run = RunDir(out, params) if out is not None else None
    work = _ChunkWork(w, r, strategy, tuple(int(e) for e in edges))
    mine = shard_chunks(nchunks, sh)
    todo = [c for c in mine if run is None or not run.done(c)]
    totals = _Totals(players)
    t0 = time.perf_counter()
    if client is None:
        model(w, r)                                  # build the tables once, before threads
    bar = _bar(len(mine), len(mine) - len(todo), progress)
    held: dict[int, dict[str, npt.NDArray[Any]]] = {}
    try:
        for c, data in run_chunks(todo, work, workers, client):
            if run is not None:
                run.save(c, data)
            else:
                held[c] = data
            bar.update(1)
    finally:
        bar.close()
    seconds = time.perf_counter() - t0
    everything = run is not None and all(run.done(c) for c in range(nchunks))
    cover = range(nchunks) if everything else mine
    sha = hashlib.sha256()
    for c in cover:
        data = held[c] if run is None else run.load(c)
        lo, hi = edges[c], edges[c + 1]
        totals.add(data, weights[lo:hi], data["shape"], hands[lo:hi, 6] == 52)
        for key in sorted(data):
            sha.update(key.encode() + little_endian(data[key]))
    meta["results_sha256"] = sha.hexdigest()
    result = totals.analysis(pays, way=w.name, way_digest=params["way_digest"], rules=r,
                             player=label, complete=len(cover) == nchunks, seconds=seconds,
                             meta=meta)
    if run is not None:
        stem = "" if result.complete else f"-shard-{sh[0]}-of-{sh[1]}" if sh else "-partial"
        write_summary(run.path / f"summary{stem}.json", result.to_dict())
        if parquet:
            _write_parquet(run, list(cover), edges, run.path / f"classes{stem}.parquet", result)
    return result


@functools.cache
def _shipped() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (Path(__file__).parent / "data" / "analysis.json").read_text())
    return data


def exact_house_edges(way: str) -> dict[str, Fraction]:
    """The exact house edges of a built-in way (default rules) from the full runs shipped with
    the package (``docs/analysis.md`` says how they were made): ``"optimal"`` (the player
    sets every hand optimally) and ``"house-way"`` (the player copies the way).

    >>> {k: f"{float(v):.4%}" for k, v in exact_house_edges("standard").items()}
    {'optimal': '4.3561%', 'house-way': '5.3034%'}
    >>> exact_house_edges("nope")
    Traceback (most recent call last):
    ...
    asiapoker.errors.AsiaPokerError: no shipped analysis of way 'nope' (there are: ...)
    """
    runs = _shipped()["runs"]
    if way not in runs:
        raise AsiaPokerError(f"no shipped analysis of way {way!r} (there are: "
                             f"{', '.join(runs)})")
    return {p: Fraction(runs[way][p]["house_edge_exact"]) for p in ("optimal", "house-way")}


class _Bar:
    """A progress bar: tqdm's when it is installed (rate and ETA), else a plain one."""

    def __init__(self, total: int, done: int, enabled: bool) -> None:
        self.tqdm: Any = None
        self.plain: Progress | None = None
        self.done = done
        if not enabled:
            return
        try:
            if not sys.stderr.isatty():            # tqdm redraws; a log wants plain lines
                raise ImportError
            from tqdm import tqdm
        except ImportError:
            self.plain = Progress(total, "analyze: chunks", True)
        else:
            self.tqdm = tqdm(total=total, initial=done, unit="chunk", desc="analyze",
                             dynamic_ncols=True)

    def update(self, n: int) -> None:
        self.done += n
        if self.tqdm is not None:
            self.tqdm.update(n)
        elif self.plain is not None:
            self.plain.update(self.done)

    def close(self) -> None:
        if self.tqdm is not None:
            self.tqdm.close()


def _bar(total: int, done: int, progress: bool | None) -> _Bar:
    on = sys.stderr.isatty() if progress is None else bool(progress)
    return _Bar(total, done, on and total > done)


def _sample(way: HouseWay, rules: Rules, label: str, strategy: Any, players: list[str],
            n: int, seed: int, workers: int) -> Analysis:
    """Figures from ``n`` random hands, each solved exactly, with standard errors."""
    t0 = time.perf_counter()
    rows = random_hands(n, seed)
    solved = solve_many(rows, way, rules, workers=workers)
    data = {"best_wins": solved.best_wins, "house_way_wins": solved.house_way_wins}
    if strategy is not None:
        sp = (house_way_splits(rows, strategy, rules).astype(np.intp)
              if isinstance(strategy, HouseWay) else strategy_splits(strategy, rows))
        data["player_wins"] = solved.wins[np.arange(n), sp].astype(np.int64)
    totals = _Totals(players)
    ones = np.ones(n, dtype=np.int64)
    totals.add(data, ones, hand_shapes(rows, rules), rows[:, 6] == 52)
    pays = Fraction(rules.pays)
    result = totals.analysis(pays, way=way.name, way_digest=way_digest(way, rules), rules=rules,
                             player=label, complete=False, sample=n, seed=seed,
                             seconds=time.perf_counter() - t0,
                             meta={"way_name": way.name, "player_label": label})
    figs = {}
    for p, f in result.figures.items():
        ev = data[f"{_COL[p]}_wins"] / DEALER_HANDS * float(pays + 1) - 1
        se = float(ev.std(ddof=1) / math.sqrt(n)) if n > 1 else math.inf
        figs[p] = Figures(f.hands, f.wins, f.pays, se)
    return replace(result, figures=figs)


#: The columns of ``classes.parquet``, in order, with what they hold.
PARQUET_COLUMNS = {
    "class": "index of the class in player_classes()",
    "hand": "the class's least member, e.g. '2c 3c 4c 5c 6c 7c 8c' (cards ascending)",
    "weight": "how many of the C(53, 7) hands the class stands for (1..24)",
    "shape": "one of HAND_SHAPES",
    "joker": "whether the hand holds the joker",
    "best_split": "index of the best split into SPLIT_POSITIONS of the hand as written",
    "best": "the best setting, 'HIGH | MEDIUM | LOW'",
    "best_wins": "dealer hands (of C(46, 7) = 53,524,680) the best setting beats",
    "best_ev": "its expected value per unit wagered",
    "house_way_split": "the house way's split (same indexing)",
    "house_way": "the house way's setting",
    "house_way_wins": "dealer hands the house way's setting beats",
    "house_way_ev": "its expected value",
    "cost": "best_ev - house_way_ev",
    "player_split": "(strategy runs) the strategy's split",
    "player": "(strategy runs) the strategy's setting",
    "player_wins": "(strategy runs) dealer hands the strategy's setting beats",
    "player_ev": "(strategy runs) its expected value",
}


def _setting_text(pa: Any, pc: Any, text: npt.NDArray[Any], split: npt.NDArray[np.int8]) -> Any:
    """'HIGH | MEDIUM | LOW' for each row, from its card texts (n x 7) and split index."""
    pos = _SPLIT_ORDER[split.astype(np.intp)]                       # n x 7 positions
    pick = text[np.arange(len(split))[:, None], pos]
    a = [pa.array(pick[:, k]) for k in range(7)]
    sp = pa.scalar(" ")
    return pc.binary_join_element_wise(
        pc.binary_join_element_wise(a[0], a[1], a[2], a[3], sp),
        pc.binary_join_element_wise(a[4], a[5], sp), a[6], pa.scalar(" | "))


_SPLIT_ORDER = np.array([list(h) + list(m) + [lo] for h, m, lo in SPLIT_POSITIONS],
                        dtype=np.intp)
_CARD_TEXT = np.array([str(Card(i)) for i in range(53)], dtype=object)


def _write_parquet(run: RunDir, chunks: list[int], edges: npt.NDArray[np.int64], final: Any,
                   result: Analysis) -> None:
    """The per-class results of ``chunks`` as one Parquet file, streamed chunk by chunk
    (bounded memory) and renamed into place when whole."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq
    hands, weights, _ = _classes()
    tmp = final.with_name(f".{final.name}.tmp")
    scale = float(result.rules.pays) + 1
    writer = None
    try:
        for c in chunks:
            lo, hi = int(edges[c]), int(edges[c + 1])
            data = run.load(c)
            h = hands[lo:hi]
            text = _CARD_TEXT[h.astype(np.intp)]
            cards = [pa.array(text[:, k]) for k in range(7)]
            cols: dict[str, Any] = {
                "class": pa.array(np.arange(lo, hi, dtype=np.int64)),
                "hand": pc.binary_join_element_wise(*cards, pa.scalar(" ")),
                "weight": pa.array(weights[lo:hi].astype(np.int8)),
                "shape": pa.DictionaryArray.from_arrays(
                    pa.array(data["shape"]), pa.array(list(HAND_SHAPES))),
                "joker": pa.array(h[:, 6] == 52),
            }
            evs = {}
            for key, col in (("best", "best"), ("house_way", "house_way"), ("player", "player")):
                if col not in data:
                    continue
                wins = data[f"{col}_wins"]
                evs[key] = wins / DEALER_HANDS * scale - 1
                cols[f"{key}_split"] = pa.array(data[col])
                cols[key] = _setting_text(pa, pc, text, data[col])
                cols[f"{key}_wins"] = pa.array(wins)
                cols[f"{key}_ev"] = pa.array(evs[key])
                if key == "house_way":
                    cols["cost"] = pa.array(evs["best"] - evs["house_way"])
            table = pa.table(cols)
            if writer is None:
                meta = {b"asiapoker": json.dumps({k: v for k, v in result.to_dict().items()
                                                  if k in ("way", "way_digest", "rules",
                                                           "player")}).encode()}
                writer = pq.ParquetWriter(tmp, table.schema.with_metadata(meta),
                                         compression="zstd")
            writer.write_table(table)
        if writer is not None:
            writer.close()
            writer = None
        os.replace(tmp, final)
    finally:
        if writer is not None:
            writer.close()
        tmp.unlink(missing_ok=True)
