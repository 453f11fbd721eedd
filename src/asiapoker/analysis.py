"""Figures of the whole game against a house way, exact over every player hand.

:func:`analyze` solves every class of player hands (:mod:`asiapoker.suit_classes`) exactly
against a way and aggregates exactly, in runs that resume, shard and run on Dask (see
``docs/analysis.md``); ``sample=N`` estimates the same figures from random hands.  Estimates
of a way's exploitability are :mod:`asiapoker.sampling`.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from . import _core
from ._files import little_endian
from ._progress import chunk_bar
from ._runs import (
    RunDir,
    chunk_bounds,
    digest,
    parse_shard,
    run_chunks,
    shard_chunks,
    write_summary,
)
from ._validate import MAX_HANDS, as_card_array, run_kernel, whole_number, workers_count
from .cards import card_of
from .equilibrium import way_digest
from .errors import HouseWayError, OptionError, RunError, StrategyError, require_extra
from .house_way import DEFAULT_WAY, HouseWay, WayLike, house_way_splits, resolve_way
from .optimal import OptimalTable
from .parquet import write_parquet
from .rack import SHAPES, hand_facts
from .rules import Rules, resolve
from .sampling import Z95, random_hands
from .simulation import strategy_splits
from .solver import DEALER_HANDS, dealer_model, solve_many
from .split_counts import SPLIT_KEYS, SplitCounts, pack_splits
from .suit_classes import (
    PLAYER_CLASSES,
    PLAYER_HANDS,
    class_groups,
    player_classes,
)

__all__ = ["COST_EDGES", "HAND_SHAPES", "Analysis", "Figures", "PlayerLike", "analyze",
           "dealer_split_counts", "evaluate", "exact_house_edges", "hand_shapes",
           "load_split_counts", "solve_classes", "way_cost"]


# --------------------------------------------------------------------------------------------
# the whole game
# --------------------------------------------------------------------------------------------

HAND_SHAPES = ("no pair", "one pair", "two pairs", "three pairs", "trips", "straight", "flush",
               "trips and a pair", "trips and two pairs", "two trips", "four of a kind",
               "five aces")
"""The hand shapes figures are broken down by: the group shape of :mod:`asiapoker.rack`, except
that a hand of at most two pairs or trips that can play a straight or a flush (or straight
flush) in the high hand is a "straight" or "flush"; four of a kind and five aces include
their variants with a pair or trips."""
_RACK_TO_SHAPE = np.array([HAND_SHAPES.index(n) if n in HAND_SHAPES else
                           HAND_SHAPES.index("five aces") if n.startswith("five aces") else
                           HAND_SHAPES.index("four of a kind") for n in SHAPES.values()])
PLAYERS = ("optimal", "house-way", "strategy")
"""Players an analysis reports: optimal play, house-way play and, when given, a strategy."""
COST_EDGES = (Fraction(0), Fraction(5, 1000), Fraction(1, 100), Fraction(25, 1000),
              Fraction(5, 100), Fraction(1, 10), Fraction(1, 4), Fraction(1, 2), Fraction(1))
"""Edges of the house way's cost histogram, in probability of winning given up."""
EV_BINS = 20
COSTLIEST = 10
"""The classes a whole run lists where copying the way (or the strategy) gives up most."""


def hand_shapes(hands: Any, rules: Rules | None = None) -> npt.NDArray[np.int8]:
    """Index into :data:`HAND_SHAPES` of each seven-card row.

    Parameters
    ----------
    hands : array_like
        An n x 7 array of card ids, or rows of card ids or text.
    rules : Rules, optional
        The rule options (A-2-3-4's place); default ``Rules()``.

    Raises
    ------
    CardError
        A row holds something that is not a card, or a card twice.
    HandSizeError
        A row does not have seven cards.
    """
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
    """The payout of a win, to 1, the ev is figured at."""
    se: float | None = None

    def __post_init__(self) -> None:
        if self.hands < 1:
            raise RunError(f"figures of {self.hands} hands: there are no figures of nothing")

    @property
    def p_win(self) -> Fraction:
        """Probability that the wager wins (there are no pushes)."""
        return Fraction(self.wins, self.hands * DEALER_HANDS)

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
        return (float(self.ev) - Z95 * self.se, float(self.ev) + Z95 * self.se)

    def to_dict(self, exact: bool = True) -> dict[str, Any]:
        """JSON-ready figures (exact ones as fraction strings too; ``exact=False`` for the
        figures of a sample, which carry no field that reads as exact).

        Parameters
        ----------
        exact : bool, default True
            Whether the figures are exact (False for a sample's).
        """
        d: dict[str, Any] = {"hands": self.hands, "wins": self.wins,
                             "p_win": float(self.p_win), "ev": float(self.ev),
                             "house_edge": float(self.house_edge), "sd": self.sd}
        if exact and self.se is None:
            d["house_edge_exact"] = str(self.house_edge)
        else:                           # an estimate: no field that reads as exact
            d["estimate"] = True
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
    """The house way's name."""
    way_digest: str
    """The way's digest (:func:`asiapoker.equilibrium.way_digest`)."""
    rules: Rules
    """The rule options."""
    player: str
    """The headline player: ``"optimal"``, ``"house-way"`` or the strategy's name."""
    classes: int
    """Classes of player hands solved (6,972,147 for a whole run)."""
    complete: bool
    figures: dict[str, Figures]
    """Each player's figures over every hand."""
    by_shape: dict[str, dict[str, Figures]]
    """Each player's figures by hand shape (:data:`HAND_SHAPES`)."""
    by_joker: dict[str, dict[str, Figures]]
    """Each player's figures with and without the joker."""
    ev_hist: dict[str, list[int]]
    """Each player's hands by P(win), in 20 bins."""
    cost_hist: dict[str, list[int]]
    sample: int | None = None
    seed: int | None = None
    """The sample's seed, for an estimate."""
    seconds: float = 0.0
    """Seconds the analysis took."""
    meta: dict[str, Any] = field(default_factory=dict)
    """The run's description: package version, chunking, digests."""

    @property
    def house_edge(self) -> Fraction:
        """The house edge when the player plays as ``player`` says."""
        return self.figures[_player_key(self.player)].house_edge

    def describe(self) -> str:
        """What the figures depend on."""
        what = (f"an estimate from {self.sample:,} random hands (seed {self.seed})"
                if self.sample else f"{self.classes:,} classes" + (
                    "" if self.complete else f" (a shard: part of the {PLAYER_CLASSES:,})"))
        return f"house way {self.way}; {self.rules.describe()}; {what}"

    def table(self) -> str:
        """The main figures as a text table."""
        sampled = any(f.ci95 is not None for f in self.figures.values())
        lines = [f"{'player':<10} {'P(win)':>9} {'ev':>9} {'house edge':>11} {'sd':>7}"
                 + ("  95% confidence interval of the ev" if sampled else "")]
        for name, f in self.figures.items():
            lines.append(f"{name:<10} {float(f.p_win):9.5f} {float(f.ev):+9.5f} "
                         f"{float(f.house_edge):+11.5%} {f.sd:7.4f}"
                         + ("" if f.ci95 is None else
                            f"  {f.ci95[0]:+.5f} to {f.ci95[1]:+.5f}"))
        return "\n".join(lines)

    def __str__(self) -> str:
        return f"{self.table()}\n({self.describe()})"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (a sample's figures carry no field that reads as exact)."""
        exact = self.sample is None
        return {
            "way": self.way, "way_digest": self.way_digest, "rules": self.rules.to_dict(),
            "player": self.player, "classes": self.classes, "complete": self.complete,
            "sample": self.sample, "seed": self.seed, "seconds": self.seconds,
            "dealer_hands": DEALER_HANDS, "player_hands": PLAYER_HANDS,
            "figures": {k: f.to_dict(exact) for k, f in self.figures.items()},
            "by_shape": {s: {k: f.to_dict(exact) for k, f in d.items()}
                         for s, d in self.by_shape.items()},
            "by_joker": {s: {k: f.to_dict(exact) for k, f in d.items()}
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
        """The :class:`Analysis` of these sums; sums of no class are a
        :class:`asiapoker.errors.RunError` (there is no figure of nothing)."""
        if not self.classes:
            raise RunError("no class was solved: there are no figures of nothing")
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
_UNHASHED = frozenset({"best_ties", *SPLIT_KEYS})
"""chunk columns left out of ``results_sha256`` (added after the shipped digests were made;
each is a function of the hashed columns' inputs, and its own digest or figure is in the
summary), so an every-split run has the same ``results_sha256`` as a plain one"""


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

PlayerLike: TypeAlias = str | HouseWay | Callable[[npt.NDArray[np.int8]], Any]
"""A player :func:`analyze` prices beside optimal and house-way play: a house way (by name
or value) or a function from an n x 7 int8 array of hands to their splits."""


@dataclass(frozen=True)
class _ChunkWork:
    """Solves one chunk of classes: picklable, so Dask can ship it to a worker."""

    way: HouseWay
    rules: Rules
    strategy: HouseWay | Callable[[npt.NDArray[np.int8]], Any] | None
    edges: tuple[int, ...]
    every_split: bool = False

    def __call__(self, c: int) -> dict[str, npt.NDArray[Any]]:
        hands = np.ascontiguousarray(player_classes()[0][self.edges[c]:self.edges[c + 1]])
        out = solve_classes(hands, self.way, self.rules, self.strategy, self.every_split)
        if self.every_split:
            out.update(pack_splits(hands, out.pop("wins"), self.rules))
        out["shape"] = hand_shapes(hands, self.rules)
        return out


def solve_classes(hands: npt.NDArray[np.int8], way: HouseWay, rules: Rules,
                  strategy: HouseWay | Callable[[npt.NDArray[np.int8]], Any] | None = None,
                  every_split: bool = False) -> dict[str, npt.NDArray[Any]]:
    """Per-row results of checked seven-card rows against ``way``: the best split and its
    wins, the house way's split and its wins, and the strategy's when given (split indices
    into :data:`asiapoker.SPLIT_POSITIONS` of each row).  Rows that share a rank multiset
    should be adjacent (as in :func:`player_classes`); any order gives the same answer.

    Parameters
    ----------
    hands : numpy.ndarray
        An n x 7 array of seven-card rows already checked (as the package's own callers
        pass them: no row is checked again).
    way : HouseWay
        The dealer's house way.
    rules : Rules
        The rule options.
    strategy : HouseWay or BatchStrategy, optional
        A third player, set by a way or a batch strategy.
    every_split : bool, default False
        Also return ``wins``, every split's count (n x 105).

    Returns
    -------
    dict of str to numpy.ndarray
        ``best``, ``best_wins``, ``house_way``, ``house_way_wins``, ``best_ties`` and, with a
        strategy, ``player`` and ``player_wins``; with ``every_split``, ``wins``.

    Raises
    ------
    StrategyError
        The strategy raised or returned bad splits.
    """
    wins = np.empty((len(hands), 105), dtype=np.int64)
    run_kernel(_core.solve_groups_kernel, hands, "hands", dealer_model(way, rules), wins)
    rows = np.arange(len(hands))
    best = np.argmax(wins, axis=1)
    hw = house_way_splits(hands, way, rules)
    out = {"best": best.astype(np.int8), "best_wins": wins[rows, best],
           "best_ties": best_ties(hands, wins, best, rules),
           "house_way": hw.astype(np.int8), "house_way_wins": wins[rows, hw]}
    if strategy is not None:
        if isinstance(strategy, HouseWay):
            sp = house_way_splits(hands, strategy, rules).astype(np.intp)
        else:
            sp = strategy_splits(strategy, hands)
        out["player"] = sp.astype(np.int8)
        out["player_wins"] = wins[rows, sp]
    if every_split:
        out["wins"] = wins
    return out


def best_ties(hands: npt.NDArray[np.int8], wins: npt.NDArray[np.int64],
              best: npt.NDArray[np.intp], rules: Rules) -> npt.NDArray[np.int8]:
    """For each row, how many splits win as often as its best split ``best`` (the first in the
    row's order) with other (high, medium, low) strengths than it (0 for almost every class).
    Splits of equal strengths always tie, so a class where this is 0 has one best setting up to
    strengths; an optimal-play table must record the others (:mod:`asiapoker.optimal`)."""
    top = wins[np.arange(len(wins)), best]
    tied = wins == top[:, None]
    many = np.flatnonzero(tied.sum(axis=1) > 1)
    out = np.zeros(len(wins), dtype=np.int8)
    if len(many):
        st = np.empty((len(many), 105, 3), dtype=np.int32)
        run_kernel(_core.split_strengths_kernel, np.ascontiguousarray(hands[many]), "hands",
                   rules.a234_low, st)
        other = (st != st[np.arange(len(many)), best[many]][:, None, :]).any(axis=2)
        out[many] = (other & tied[many]).sum(axis=1)
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
    raise StrategyError(f"player must be 'optimal', 'house-way', a house way or a batch "
                         f"strategy (a function of an n x 7 array that returns n split "
                         f"indices), got {player!r}")


def analyze(way: WayLike = DEFAULT_WAY, rules: Rules | None = None,
            player: PlayerLike = "optimal", *, out: str | os.PathLike[str] | None = None,
            workers: int | None = None, client: Any = None,
            shard: str | tuple[int, int] | None = None, sample: int | None = None,
            seed: int = 0, progress: bool | None = None, parquet: bool = False,
            every_split: bool = False) -> Analysis:
    """The whole game against ``way``, exactly, or estimated from a sample.

    Every one of the 6,972,147 classes of player hands
    (:func:`asiapoker.suit_classes.player_classes`) is solved, and the figures of optimal
    play, of house-way play and of ``player`` are aggregated in integers.  A whole run takes
    about 2 to 3 minutes on two cores (156 s against ``standard``; ``high-first``, whose model
    is the largest, longer: docs/results.md).

    Parameters
    ----------
    way : WayLike, default "standard"
        The dealer's house way: a :class:`asiapoker.HouseWay` or a built-in way's name.
    rules : Rules, optional
        The rule options (A-2-3-4's place, the payout); default ``Rules()``.
    player : PlayerLike, default "optimal"
        The player the headline figure (:attr:`Analysis.house_edge`) is for: ``"optimal"``,
        ``"house-way"``, another house way, or a batch strategy (a function of an n x 7 int8
        array of hands returning n split indices).
    out : path, optional
        A directory the run keeps its chunks in: a killed run resumes where it stopped with
        the same call, a call with other parameters is an error, and the results
        (``summary.json``, and ``classes.parquet`` with ``parquet``) are written there when
        every chunk is done.
    workers : int, optional
        Local threads (default: all cores).
    client : dask.distributed.Client, optional
        Runs the chunks on a cluster instead of local threads (the ``dask`` extra).
    shard : str or tuple of int, optional
        ``"I/N"`` or ``(I, N)``: solve every N-th chunk from the I-th only (with ``out``).
    sample : int, optional
        Estimate the figures from this many random hands (2 to 10^7), with confidence
        intervals, instead of solving every class.
    seed : int, default 0
        The random hands' seed, with ``sample``.
    progress : bool, optional
        A progress bar on stderr (default: when stderr is a terminal).
    parquet : bool, default False
        Also write every class's figures to ``classes.parquet`` in ``out`` (the ``analysis``
        extra, pyarrow).
    every_split : bool, default False
        Also keep, in ``out``, the count of dealer hands each of the 105 splits of every class
        beats (1.7 GB for the whole game): :func:`load_split_counts` reads them, and
        :func:`evaluate` prices any strategy from them exactly, without a run of its own.

    Returns
    -------
    Analysis
        The exact (or estimated) figures, naming the way, the rules and the player.

    Raises
    ------
    RunError
        ``out`` holds a run with other parameters or a foreign file, or ``shard`` is not
        ``I/N``.
    StrategyError
        ``player`` raised or returned bad splits (the message shows the hand).
    MissingExtraError
        ``client`` or ``parquet`` without their extra installed.
    OptionError
        ``sample``, ``workers`` or ``seed`` is not one it takes.
    HouseWayError
        ``way`` is not a house way.
    RuleError
        ``rules`` is not a :class:`asiapoker.Rules`.
    """
    label, strategy = _resolve_player(player)
    w, r = resolve_way(way), resolve(rules)
    pays = Fraction(r.pays)
    workers = workers_count(workers)
    players = ["optimal", "house-way"] + (["strategy"] if strategy is not None else [])
    meta: dict[str, Any] = {"way_name": w.name, "player_label": label}
    if not isinstance(every_split, bool):
        raise OptionError(f"every_split must be True or False, got {every_split!r}")
    if every_split and (out is None or sample is not None):
        raise OptionError("every_split keeps every split's count in a run directory: it "
                          "needs out= (and no sample)")
    if sample is not None:
        return _sample(w, r, label, strategy, players, whole_number(sample, "sample", 2, MAX_HANDS),
                       whole_number(seed, "seed", 0), workers)
    sh = parse_shard(shard)
    if parquet:
        require_extra("pyarrow", "parquet")
    if client is not None:
        require_extra("distributed", "dask")
    (hands, weights), groups = player_classes(), class_groups()
    edges = chunk_bounds(groups)
    nchunks = len(edges) - 1
    params = {"way": w.name, "way_digest": way_digest(w, r), "rules": r.to_dict(),
              "player": label, "classes": len(hands), "chunks": nchunks,
              "chunk_digest": digest([edges]), **({"every_split": True} if every_split else {})}
    mine = shard_chunks(nchunks, sh)
    if not mine:                    # refused before any work: no figure from nothing
        raise RunError(f"shard {sh[0] if sh else 0}/{sh[1] if sh else 1} holds no chunk: the "
                       f"run has {nchunks:,} chunks, so a shard I/N needs I < {nchunks:,}")
    run = RunDir(out, params) if out is not None else None
    work = _ChunkWork(w, r, strategy, tuple(int(e) for e in edges), every_split)
    todo = [c for c in mine if run is None or not run.done(c)]
    totals = _Totals(players)
    t0 = time.perf_counter()
    if client is None:
        dealer_model(w, r)                                  # build the tables once, before threads
    bar = chunk_bar(len(mine), len(mine) - len(todo), progress)
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
        _core.release_group_tables()                        # the kernel's kept hashes
    seconds = time.perf_counter() - t0
    # every chunk is verified when it is loaded below; here its file being there is enough
    everything = run is not None and all(run.chunk_path(c).exists() for c in range(nchunks))
    cover = range(nchunks) if everything else mine
    sha = hashlib.sha256()
    split_sha = hashlib.sha256()
    ties = 0
    costly: dict[str, list[tuple[int, int]]] = {p: [] for p in players if p != "optimal"}
    for c in cover:
        data = held[c] if run is None else run.load(c)
        for key in SPLIT_KEYS if every_split else ():
            split_sha.update(little_endian(data[key]))
        lo, hi = edges[c], edges[c + 1]
        totals.add(data, weights[lo:hi], data["shape"], hands[lo:hi, 6] == 52)
        for p, top in costly.items():
            lost = data["best_wins"] - data[f"{_COL[p]}_wins"]
            top += [(int(lost[k]), int(lo + k)) for k in np.argsort(-lost, kind="stable")[
                :COSTLIEST]]
            top.sort(key=lambda t: (-t[0], t[1]))
            del top[COSTLIEST:]
        ties += int(np.count_nonzero(data["best_ties"]))
        for key in sorted(data):
            if key not in _UNHASHED:
                sha.update(key.encode() + little_endian(data[key]))
    meta["results_sha256"] = sha.hexdigest()
    meta["costliest"] = {p: [_costly_class(hands[k], k, int(weights[k]),
                                           Fraction(lost * (pays + 1), DEALER_HANDS))
                             for lost, k in top] for p, top in costly.items()}
    meta["classes_with_ties"] = ties        # best settings of unequal strengths (best_ties)
    if every_split:
        meta["split_counts_sha256"] = split_sha.hexdigest()   # SplitCounts.digest()
    result = totals.analysis(pays, way=w.name, way_digest=params["way_digest"], rules=r,
                             player=label, complete=len(cover) == nchunks, seconds=seconds,
                             meta=meta)
    if run is not None:
        stem = "" if result.complete else f"-shard-{sh[0]}-of-{sh[1]}" if sh else "-partial"
        write_summary(run.path / f"summary{stem}.json", result.to_dict())
        if parquet:
            write_parquet(run, list(cover), edges, run.path / f"classes{stem}.parquet",
                          {k: v for k, v in result.to_dict().items()
                           if k in ("way", "way_digest", "rules", "player")}, r.pays,
                          HAND_SHAPES)
    return result


def _costly_class(hand: npt.NDArray[Any], k: int, hands: int,
                  loss: Fraction) -> dict[str, Any]:
    """One entry of a run's ``costliest``: class ``k``'s hand, its hands and its loss."""
    return {"hand": " ".join(str(card_of(int(x))) for x in hand), "class": k, "hands": hands,
            "loss": str(loss), "loss_float": float(loss)}


def way_cost(way: WayLike, rules: Rules | None = None, *, workers: int | None = None,
             progress: bool | None = None) -> Fraction:
    """What copying ``way`` gives up against optimal play, per unit wagered, exactly: the
    house edge of house-way play minus that of optimal play over a whole run of the game
    against it (:func:`analyze`, 2 to 3 minutes on two cores).

    Parameters
    ----------
    way : WayLike
        The house way (the dealer's, which the player copies).
    rules : Rules, optional
        The rule options; default ``Rules()``.
    workers : int, optional
        Local threads (default: all cores).
    progress : bool, optional
        A progress bar on stderr (default: when stderr is a terminal).
    """
    run = analyze(way, rules, workers=workers, progress=progress)
    return run.figures["house-way"].house_edge - run.figures["optimal"].house_edge


@dataclass(frozen=True)
class _DealerChunkWork:
    """Counts one chunk of classes as dealer hands against players copying ``players``."""

    players: HouseWay
    rules: Rules
    edges: tuple[int, ...]

    def __call__(self, c: int) -> dict[str, npt.NDArray[Any]]:
        hands = np.ascontiguousarray(player_classes()[0][self.edges[c]:self.edges[c + 1]])
        wins = np.empty((len(hands), 105), dtype=np.int64)
        run_kernel(_core.solve_groups_kernel, hands, "hands",
                   dealer_model(self.players, self.rules), wins, 1)
        out = pack_splits(hands, wins, self.rules)
        out["house_way"] = house_way_splits(hands, self.players, self.rules).astype(np.int8)
        return out


def dealer_split_counts(players: WayLike, rules: Rules | None = None, *,
                        out: str | os.PathLike[str], workers: int | None = None,
                        shard: str | tuple[int, int] | None = None,
                        progress: bool | None = None) -> SplitCounts:
    """Every split of every class as the dealer's hand, exactly: for each of the 6,972,147
    classes and each of its legal splits, how many of the C(46, 7) player hands that copy
    ``players`` the dealer beats (the counts of the dealer's best response, rule 5.6 c, here
    for every class rather than one representative of each of the 829,504 classes of a
    way), kept in ``out`` like an every-split run (a killed run resumes; 2.5 to 4 minutes on
    two cores, about 1.7 GB).  The dealer's exact best response to the players, the house
    edge of any dealer way against them, and a dealer mix's are gathers over these counts.

    Parameters
    ----------
    players : WayLike
        The way the players copy (a house way: a name or a :class:`asiapoker.HouseWay`).
    rules : Rules, optional
        The rule options; default ``Rules()``.
    out : path
        The run directory.
    workers : int, optional
        Local threads (default: all cores).
    shard : str or tuple of int, optional
        ``"I/N"``: count every N-th chunk from the I-th only.
    progress : bool, optional
        A progress bar on stderr (default: when stderr is a terminal).

    Returns
    -------
    SplitCounts
        The counts (:attr:`SplitCounts.side` is ``"dealer"``; ``house_way`` in each chunk is
        the players' own setting of the class's hand); partial after a shard.

    Raises
    ------
    RunError
        ``out`` holds another run or a foreign file, or ``shard`` is not ``I/N``.
    HouseWayError
        ``players`` is not a house way.
    OptionError
        ``workers`` is not a whole number >= 1.

    Examples
    --------
    >>> dealer_split_counts("classic", out="runs/x", shard="5/1")
    Traceback (most recent call last):
    ...
    asiapoker.errors.RunError: shard must be I/N with 0 <= I < N, got '5/1'
    """
    w, r = resolve_way(players), resolve(rules)
    workers = workers_count(workers)
    sh = parse_shard(shard)
    edges = chunk_bounds(class_groups())
    nchunks = len(edges) - 1
    params = {"way": w.name, "way_digest": way_digest(w, r), "rules": r.to_dict(),
              "side": "dealer", "classes": PLAYER_CLASSES, "chunks": nchunks,
              "chunk_digest": digest([edges]), "every_split": True}
    run = RunDir(out, params)
    mine = shard_chunks(nchunks, sh)
    todo = [c for c in mine if not run.done(c)]
    work = _DealerChunkWork(w, r, tuple(int(e) for e in edges))
    dealer_model(w, r)                                  # build the tables once, before threads
    bar = chunk_bar(len(mine), len(mine) - len(todo), progress)
    try:
        for c, data in run_chunks(todo, work, workers):
            run.save(c, data)
            bar.update(1)
    finally:
        bar.close()
        _core.release_group_tables()                    # the kernel's kept hashes
    return SplitCounts(out, partial=sh is not None)


def load_split_counts(run: str | os.PathLike[str], partial: bool = False) -> SplitCounts:
    """The count of dealer hands every split of every class beats, from a run made with
    ``analyze(..., every_split=True, out=run)``: an array-like of shape (6,972,147, 105),
    read chunk by chunk (each verified), with illegal splits as -1 (they foul).

    Parameters
    ----------
    run : path
        The run directory.
    partial : bool, default False
        Take a run whose chunks are not all there (a shard).

    Raises
    ------
    RunError
        Not a run, a run without every split, one over another class list, or an unfinished
        run without ``partial``.

    Examples
    --------
    >>> load_split_counts("no-such-run")
    Traceback (most recent call last):
    ...
    asiapoker.errors.RunError: 'no-such-run' is not an analyze run: no such file ...
    """
    return SplitCounts(run, partial)


def evaluate(player: PlayerLike | OptimalTable, run: str | os.PathLike[str], *,
             partial: bool = False, progress: bool | None = None) -> Analysis:
    """The exact figures of ``player`` over the whole game, from an every-split run of the
    dealer's way (``analyze(way, rules, every_split=True, out=run)``): each class's setting by
    ``player`` is looked up among the run's stored counts, so no run of the player's own is
    needed.  The same figures, integer for integer, as ``analyze(way, rules, player, ...)``.

    Parameters
    ----------
    player : PlayerLike or OptimalTable
        A house way (by name or value), a batch strategy (a function of an n x 7 int8 array
        of hands returning n split indices, such as a :class:`asiapoker.CardStrategy`), or an
        optimal-play table.
    run : path
        The every-split run.
    partial : bool, default False
        Evaluate over the chunks a shard holds (``complete`` is then False).
    progress : bool, optional
        A progress bar on stderr (default: when stderr is a terminal).

    Returns
    -------
    Analysis
        The figures of optimal play, of house-way play and of ``player``, naming the run's
        way and rules.

    Raises
    ------
    RunError
        ``run`` is not a finished every-split run (or a chunk of it is damaged: the message
        names the file).
    StrategyError
        ``player`` raised or returned bad splits.
    """
    counts = SplitCounts(run, partial)
    if counts.side != "player":
        raise RunError(f"{str(run)!r} counts the dealer's hands (dealer_split_counts): "
                       "evaluate prices a player from a player-side run")
    if isinstance(player, OptimalTable):
        label, strategy = f"table:{player.way}", player.best_splits
    else:
        label, strategy = _resolve_player(player)
    as_way = getattr(strategy, "as_house_way", None)   # a card: set by its class table
    if callable(as_way):
        strategy = as_way() or strategy
    r = counts.rules
    players = ["optimal", "house-way"] + (["strategy"] if strategy is not None else [])
    totals = _Totals(players)
    hands, weights = player_classes()
    t0 = time.perf_counter()
    nchunks = len(counts.edges) - 1

    def chunk_totals(lo: int, hi: int, data: dict[str, npt.NDArray[Any]]) -> _Totals:
        h = np.ascontiguousarray(hands[lo:hi])
        if strategy is not None:
            sp = (house_way_splits(h, strategy, r).astype(np.intp)
                  if isinstance(strategy, HouseWay) else strategy_splits(strategy, h))
            won = data["counts"][np.arange(hi - lo), sp]
            data["player_wins"] = np.maximum(won, 0).astype(np.int64)   # a foul: none
        part = _Totals(players)
        part.add(data, weights[lo:hi], data["shape"], h[:, 6] == 52)
        return part

    bar = chunk_bar(nchunks - len(counts.missing), 0, progress)
    try:
        for part in counts.map(chunk_totals, workers_count(None)):
            totals += part
            bar.update(1)
    finally:
        bar.close()
    return totals.analysis(Fraction(r.pays), way=counts.way, way_digest=counts.way_digest,
                           rules=r, player=label, complete=not counts.missing,
                           seconds=time.perf_counter() - t0,
                           meta={"way_name": counts.way, "player_label": label,
                                 "evaluated_from": str(counts.path)})


@functools.cache
def _shipped() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (Path(__file__).parent / "data" / "analysis.json").read_text())
    return data


def exact_house_edges(way: str) -> dict[str, Fraction]:
    """The exact house edges of a built-in way (default rules) from the full runs shipped with
    the package (``docs/analysis.md`` says how they were made): ``"optimal"`` (the player
    sets every hand optimally) and ``"house-way"`` (the player copies the way).

    Parameters
    ----------
    way : str
        A built-in way's name with a shipped run: ``"standard"``, ``"equilibrium"``,
        ``"classic"``, ``"medium-first"`` or ``"high-first"``.

    Raises
    ------
    HouseWayError
        No shipped run for ``way``.

    Examples
    --------
    >>> {k: f"{float(v):.4%}" for k, v in exact_house_edges("standard").items()}
    {'optimal': '4.3561%', 'house-way': '5.3034%'}
    >>> exact_house_edges("nope")
    Traceback (most recent call last):
    ...
    asiapoker.errors.HouseWayError: no shipped analysis of way 'nope' (there are: ...)
    """
    runs = _shipped()["runs"]
    if way not in runs:
        raise HouseWayError(f"no shipped analysis of way {way!r} (there are: "
                             f"{', '.join(runs)})")
    return {p: Fraction(runs[way][p]["house_edge_exact"]) for p in ("optimal", "house-way")}


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
