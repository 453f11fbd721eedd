"""The value of the game: exact bounds on the house edge the best dealer strategy (a setting,
or a mix of settings, for each dealer hand) holds against a player who sets every hand
optimally, closed by double oracle (McMahan, Gordon and Blum 2003).

Player and dealer each set seven cards without seeing the other's, so the game is a finite
zero-sum game with a value v.  Both bounds are exact fractions over every hand:

- a **dealer mix** (house ways ``W_i`` with weights ``n_i / MIX_DENOMINATOR``) gives the
  **lower** bound: the house edge it holds against the player's exact best response to it;
- a **player mix** (ways the players copy, ``Q_j`` with weights) gives the **upper** bound: the
  house edge of the dealer's exact best response to it.

Each best response is exact over every hand, not only a class representative's: it is
chosen for every one of the 6,972,147 classes of hands up to suit renaming, whose members
have the same counts split for split (the opponent's ways are suit-blind), from stored
every-split counts (:class:`asiapoker.split_counts.SplitCounts`; player side from
``analyze(..., every_split=True)``, dealer side from
:func:`asiapoker.analysis.dealer_split_counts`).  The mix's counts are integer combinations of
the stored counts, so each class's best split is found exactly (ties to the first).

Double oracle keeps a few house ways a side, solves the small matrix game between them exactly
(:func:`solve_matrix_game`, rational simplex), and adds each side's best response to the
other's mix.  A pure way added to a side is a class table (829,504 classes), so the best
response is projected onto one: each class takes the setting the response chose for its
representative's hand.  The bounds themselves never use the projection.

>>> solve_matrix_game([[1, 2], [3]])
Traceback (most recent call last):
...
asiapoker.errors.GameValueError: payoff matrix: row 1 has 1 entries, not 2
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core, _files
from ._compile import class_table, keys_digest
from ._validate import run_kernel, whole_number, workers_count
from .analysis import analyze, dealer_split_counts
from .equilibrium import best_response, way_digest
from .errors import FileError, GameValueError
from .house_way import HouseWay, WayLike, resolve_way
from .rules import Rules, resolve
from .setting import split_strengths_of
from .solver import DEALER_HANDS
from .split_counts import SplitCounts
from .suit_classes import PLAYER_HANDS, class_of, player_classes

__all__ = ["COMMAND", "MIX_DENOMINATOR", "SHIPPED", "Bounds", "GameValue", "MixResponse",
           "best_response_to_mix", "class_splits", "double_oracle", "gather",
           "house_edge_of_wins", "load_game_value", "round_mix", "save_game_value",
           "solve_matrix_game", "table_way"]

MIX_DENOMINATOR = 1 << 24
"""Mix weights are whole multiples of ``1 / 2**24``, so a mix's counts stay exact in int64
(``2**24 * C(46, 7)`` is below ``2**63 / 8``)."""
PAIRS = PLAYER_HANDS * DEALER_HANDS
"""Player hand and dealer hand pairs of one round: C(53, 7) * C(46, 7)."""


# --------------------------------------------------------------------------------------------
# the small matrix game, exactly
# --------------------------------------------------------------------------------------------

def _matrix(payoff: Sequence[Sequence[int | Fraction]]) -> list[list[Fraction]]:
    try:
        rows = [list(r) for r in payoff] if isinstance(payoff, Sequence) else []
    except TypeError:
        rows = []
    if not rows or not rows[0]:
        raise GameValueError(f"payoff matrix: it needs at least one row and column, got "
                             f"{payoff!r}"[:200])
    for i, r in enumerate(rows):
        if len(r) != len(rows[0]):
            raise GameValueError(f"payoff matrix: row {i} has {len(r)} entries, not "
                                 f"{len(rows[0])}")
        for j, a in enumerate(r):
            if isinstance(a, bool) or not isinstance(a, int | Fraction):
                raise GameValueError(f"payoff matrix: entry ({i}, {j}) is {a!r}, not an "
                                     f"integer or a fraction"[:200])
    return [[Fraction(a) for a in r] for r in rows]


def solve_matrix_game(payoff: Sequence[Sequence[int | Fraction]]
                      ) -> tuple[list[Fraction], list[Fraction], Fraction]:
    """``(rows' mix, columns' mix, value)`` of the zero-sum game in which the row player pays
    ``payoff[i][j]`` to the column player, exactly (a rational simplex, Bland's rule): the
    rows' mix keeps every column's mean payoff at most the value, the columns' mix every row's
    at least it.

    Parameters
    ----------
    payoff : sequence of sequences of int or Fraction
        The m x n payoff matrix.

    Raises
    ------
    GameValueError
        ``payoff`` is not a non-empty rectangle of integers or fractions.

    Examples
    --------
    >>> x, y, v = solve_matrix_game([[0, 1, -1], [-1, 0, 1], [1, -1, 0]])
    >>> [str(p) for p in x], [str(p) for p in y], v
    (['1/3', '1/3', '1/3'], ['1/3', '1/3', '1/3'], Fraction(0, 1))
    """
    a = _matrix(payoff)
    m, n = len(a), len(a[0])
    shift = 1 - min(min(r) for r in a)             # every entry >= 1: the value is positive
    # the row player: maximise sum t s.t. sum_i t_i a'_ij <= 1 (t = x / v'); slacks s_j
    tab = [[a[i][j] + shift for i in range(m)] + [Fraction(int(k == j)) for k in range(n)]
           + [Fraction(1)] for j in range(n)]
    obj = [Fraction(-1)] * m + [Fraction(0)] * (n + 1)
    basis = [m + j for j in range(n)]
    while True:
        enter = next((k for k in range(m + n) if obj[k] < 0), None)
        if enter is None:
            break
        ratios = [(tab[r][-1] / tab[r][enter], basis[r], r) for r in range(n)
                  if tab[r][enter] > 0]
        _, _, row = min(ratios)                   # bounded: every column of a' is positive
        p = tab[row][enter]
        tab[row] = [v / p for v in tab[row]]
        for r in range(n):
            if r != row and tab[r][enter]:
                f = tab[r][enter]
                tab[r] = [v - f * w for v, w in zip(tab[r], tab[row], strict=True)]
        f = obj[enter]
        obj = [v - f * w for v, w in zip(obj, tab[row], strict=True)]
        basis[row] = enter
    t = [Fraction(0)] * m
    for r, b in enumerate(basis):
        if b < m:
            t[b] = tab[r][-1]
    z = obj[-1]                                    # sum t = 1 / v'
    x = [ti / z for ti in t]
    y = [obj[m + j] / z for j in range(n)]        # the dual: the columns' mix
    return x, y, 1 / z - shift


def round_mix(mix: Sequence[Fraction | float], denominator: int = MIX_DENOMINATOR) -> list[int]:
    """Whole weights summing to ``denominator``, each ``mix[i] * denominator`` rounded (largest
    remainders get the leftover), for a mix of non-negative weights summing to 1.

    Parameters
    ----------
    mix : sequence of Fraction or float
        The weights.
    denominator : int, default MIX_DENOMINATOR
        What the whole weights sum to.

    Raises
    ------
    GameValueError
        A weight is negative or the weights do not sum to 1.

    Examples
    --------
    >>> round_mix([Fraction(1, 3), Fraction(2, 3)], 10)
    [3, 7]
    """
    w = [Fraction(p) for p in mix]
    if not w or any(p < 0 for p in w) or sum(w) != 1:
        raise GameValueError(f"a mix needs non-negative weights summing to 1, got "
                             f"{[str(p) for p in w]}"[:200])
    scaled = [p * denominator for p in w]
    out = [math.floor(s) for s in scaled]
    order = sorted(range(len(w)), key=lambda i: (out[i] - scaled[i], i))
    for i in order[:denominator - sum(out)]:
        out[i] += 1
    return out


# --------------------------------------------------------------------------------------------
# gathers over stored counts
# --------------------------------------------------------------------------------------------

def house_edge_of_wins(player_wins: Fraction | int, rules: Rules) -> Fraction:
    """The house edge when players win ``player_wins`` of the C(53, 7) * C(46, 7) pairs of a
    round, at the rules' payout (there are no pushes).

    Parameters
    ----------
    player_wins : Fraction or int
        The pairs players win.
    rules : Rules
        The rule options (the payout).
    """
    return 1 - Fraction(player_wins) * (Fraction(rules.pays) + 1) / PAIRS


def _wide_sum(values: npt.NDArray[np.int64]) -> int:
    """The exact sum of non-negative int64 ``values`` (split in halves: no overflow)."""
    lo = values & 0x7FFFFFFF
    return (int((values >> 31).sum(dtype=np.int64)) << 31) + int(lo.sum(dtype=np.int64))


def _check_runs(runs: Sequence[SplitCounts], weights: Sequence[int]) -> list[int]:
    """The chunks every run holds (the same for all), after checking the runs fit a mix."""
    if not runs or len(runs) != len(weights):
        raise GameValueError(f"a mix needs one weight a run: {len(runs)} runs, "
                             f"{len(weights)} weights")
    for w in weights:
        whole_number(w, "a mix weight", lo=0, hi=MIX_DENOMINATOR, error=GameValueError)
    if sum(weights) != MIX_DENOMINATOR:
        raise GameValueError(f"a mix's weights must sum to {MIX_DENOMINATOR}, got "
                             f"{sum(weights)}")
    sides = {r.side for r in runs}
    rules = {json.dumps(r.rules.to_dict(), sort_keys=True) for r in runs}
    if len(sides) != 1 or len(rules) != 1:
        raise GameValueError("a mix's runs must count the same side's hands under the same "
                             f"rules, got sides {sorted(sides)}")
    if len({tuple(r.missing) for r in runs}) != 1:
        raise GameValueError("a mix's runs must hold the same chunks")
    gone = set(runs[0].missing)
    return [c for c in range(len(runs[0].edges) - 1) if c not in gone]


@dataclass(frozen=True)
class MixResponse:
    """The exact best response to a mix (:func:`best_response_to_mix`)."""

    total: int
    """The responding side's wins over the chunks, times :data:`MIX_DENOMINATOR`."""
    chunk_totals: dict[int, int]
    """``total`` chunk by chunk (chunk number -> its part)."""
    splits: npt.NDArray[np.int16]
    """Each class's best split (index into its hand's own order; -1 in chunks not held)."""


def best_response_to_mix(runs: Sequence[SplitCounts], weights: Sequence[int],
                         workers: int | None = None) -> MixResponse:
    """The exact best response to a mix of the opponents' ways, from the counts of every
    split against each (``runs``, all of one side, holding the same chunks: a shard gives
    the response on its classes): each class takes the split with the most wins against the
    mix, ``sum_i weights[i] * counts_i``, in integers (ties to the first split).

    Parameters
    ----------
    runs : sequence of SplitCounts
        Every-split runs, one per way of the mix.
    weights : sequence of int
        The ways' weights, whole numbers summing to :data:`MIX_DENOMINATOR`.
    workers : int, optional
        Threads (default: all cores).

    Raises
    ------
    GameValueError
        The weights do not fit the runs, or the runs are of different sides, rules or
        chunks.
    RunError
        A chunk fails its check.
    """
    held = _check_runs(runs, weights)
    nw = workers_count(workers, GameValueError)
    _, class_w = player_classes()
    out = np.full(len(class_w), -1, dtype=np.int16)
    edges = runs[0].edges
    wts = np.array(weights, dtype=np.int64)

    def one(c: int) -> int:
        lo, hi = int(edges[c]), int(edges[c + 1])
        score = np.zeros((hi - lo, 105), dtype=np.int64)
        for run, w in zip(runs, wts, strict=True):
            if w:
                score += w * run.chunk(c)[2]["counts"]
        best = np.argmax(score, axis=1)
        out[lo:hi] = best
        return _wide_sum(score[np.arange(hi - lo), best] * class_w[lo:hi])

    with ThreadPoolExecutor(nw) as pool:
        parts = dict(zip(held, pool.map(one, held), strict=True))
    return MixResponse(sum(parts.values()), parts, out)


def class_splits(way: WayLike, rules: Rules | None = None) -> npt.NDArray[np.int16]:
    """``way``'s split of every class's hand (:func:`asiapoker.suit_classes.player_classes`
    order; an index into the hand's own order): about 7 s.

    Parameters
    ----------
    way : WayLike
        The house way.
    rules : Rules, optional
        The rule options; default ``Rules()``.
    """
    hands, _ = player_classes()
    return resolve_way(way).splits(hands, resolve(rules))


def gather(run: SplitCounts, splits: Sequence[npt.NDArray[Any]],
           workers: int | None = None) -> list[int]:
    """For each array of ``splits`` (one split a class, :func:`class_splits`), the hands the
    counted side wins over the whole game (over the chunks the run holds) when every class
    sets it: the sum of the class-weighted counts of those splits, all in one pass.

    Parameters
    ----------
    run : SplitCounts
        An every-split run (a shard gives its chunks' part).
    splits : sequence of numpy.ndarray
        Arrays of one split index per class, 0..104.
    workers : int, optional
        Threads (default: all cores).

    Raises
    ------
    GameValueError
        An array does not have one index in 0..104 per class, or one of them is illegal.
    """
    _, class_w = player_classes()
    ks = [np.asarray(k) for k in splits]
    for n, k in enumerate(ks):
        if k.shape != class_w.shape or k.dtype.kind not in "iu" or (k.size and (
                int(k.min()) < 0 or int(k.max()) > 104)):
            raise GameValueError(f"splits {n}: it must be one index in 0..104 for each of the "
                                 f"{len(class_w):,} classes")
    held = _check_runs([run], [MIX_DENOMINATOR])
    edges = run.edges

    def one(c: int) -> list[int]:
        lo, hi = int(edges[c]), int(edges[c + 1])
        counts = run.chunk(c)[2]["counts"]
        out = []
        for n, k in enumerate(ks):
            got = counts[np.arange(hi - lo), k[lo:hi]].astype(np.int64)
            if (got < 0).any():
                raise GameValueError(f"splits {n}: class {lo + int(np.argmax(got < 0))} is set "
                                     f"by an illegal split")
            out.append(_wide_sum(got * class_w[lo:hi]))
        return out

    with ThreadPoolExecutor(workers_count(workers, GameValueError)) as pool:
        parts = list(pool.map(one, held))
    return [sum(p[n] for p in parts) for n in range(len(ks))]


def table_way(splits: npt.NDArray[Any], name: str, description: str,
              rules: Rules | None = None) -> HouseWay:
    """The class-table way (829,504 classes) that sets each class as ``splits`` (one per
    class of :func:`asiapoker.suit_classes.player_classes`) sets its representative's hand.

    Parameters
    ----------
    splits : numpy.ndarray
        One split index per class of hands up to suit renaming.
    name, description : str
        The way's name and one line on what it is.
    rules : Rules, optional
        The rule options; default ``Rules()``.
    """
    r = resolve(rules)
    hands, _ = player_classes()
    _, reps = class_table()
    at = class_of(np.asarray(reps, dtype=np.int8))
    tri = split_strengths_of(hands[at], np.asarray(splits)[at].astype(np.int64), r)
    ordered = np.ascontiguousarray(np.sort(np.asarray(reps, dtype=np.int8), axis=1))
    out = np.empty(len(reps), dtype=np.int16)
    run_kernel(_core.match_split_kernel, ordered, "hands", r.a234_low, tri, out)
    return HouseWay.from_table(out.astype(np.uint8), name, description)


# --------------------------------------------------------------------------------------------
# double oracle
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Bounds:
    """One step's exact bounds on the value of the game (house edges), with the mixes that
    give them (whole weights over :data:`MIX_DENOMINATOR`, one a way of each side's pool)."""

    step: int
    """The step's number, from 0."""
    lower: Fraction
    """The house edge the dealer mix holds against the player's exact best response."""
    upper: Fraction
    """The house edge of the dealer's exact best response to the player mix."""
    restricted: Fraction
    """The value of the matrix game between the two pools."""
    dealer_mix: tuple[int, ...]
    """The dealer mix's weights, one a way of the dealer's pool in the order added."""
    player_mix: tuple[int, ...]
    """The player mix's weights, the same way."""

    @property
    def gap(self) -> Fraction:
        """upper - lower: how far the value can still be from either bound."""
        return self.upper - self.lower

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Bounds:
        """The bounds :meth:`to_dict` wrote (the exact fractions; the floats are not read).

        Parameters
        ----------
        d : dict
            What :meth:`to_dict` gave.
        """
        return cls(int(d["step"]), Fraction(d["lower"]), Fraction(d["upper"]),
                   Fraction(d["restricted"]), tuple(int(k) for k in d["dealer_mix"]),
                   tuple(int(k) for k in d["player_mix"]))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: every figure as an exact fraction string and as a float."""
        d: dict[str, Any] = {"step": self.step}
        for k in ("lower", "upper", "restricted", "gap"):
            v = getattr(self, k)
            d[k] = str(v)
            d[f"{k}_float"] = float(v)
        d["dealer_mix"] = list(self.dealer_mix)
        d["player_mix"] = list(self.player_mix)
        return d


ProgressFn = Callable[[str], None]
LOG_FILE = "log.json"
"""The file of a :func:`double_oracle` folder that lists its ways, matrix and steps."""


def _log_digest(log: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(log, sort_keys=True).encode()).hexdigest()


def _read_log(root: Path) -> dict[str, Any] | None:
    """The verified log of a :func:`double_oracle` folder, or None when it has none."""
    path = root / LOG_FILE
    if not path.exists():
        return None
    try:
        doc = _files.read_json(path, "game-value log")
    except FileError as exc:
        raise GameValueError(str(exc)) from None
    if (not isinstance(doc, dict) or not isinstance(doc.get("log"), dict)
            or doc.get("sha256") != _log_digest(doc["log"])):
        raise GameValueError(f"{str(path)!r} is not a game-value log, or is damaged (its "
                             f"checksum fails)")
    log: dict[str, Any] = doc["log"]
    return log


def _say(quiet: bool) -> ProgressFn:
    start = time.monotonic()
    return (lambda _: None) if quiet else (lambda s: print(
        f"[{time.monotonic() - start:7.0f} s] {s}", file=sys.stderr, flush=True))


def double_oracle(out: str | os.PathLike[str], dealer_start: WayLike = "equilibrium",
                  player_start: WayLike | None = None, rules: Rules | None = None, *,
                  steps: int = 10, workers: int | None = None,
                  quiet: bool = False) -> list[Bounds]:
    """Double oracle over house ways, every step's bounds exact (module text); a killed run
    resumes from ``out`` (each way, run and step is kept there), and a run over with more
    ``steps`` goes on.

    Parameters
    ----------
    out : path
        The folder the pools, their every-split runs (1.7 GB each) and ``log.json`` are kept
        in.
    dealer_start : WayLike, default "equilibrium"
        The dealer's first way.
    player_start : WayLike, optional
        The players' first way (default: the player's best response to ``dealer_start``).
    rules : Rules, optional
        The rule options; default ``Rules()``.
    steps : int, default 10
        Steps to have made (bounds computed and each side's best response added).
    workers : int, optional
        Threads (default: all cores).
    quiet : bool, default False
        No progress lines on stderr.

    Returns
    -------
    list of Bounds
        Every step's bounds, first to last.
    """
    r = resolve(rules)
    whole_number(steps, "steps", lo=1, hi=10_000, error=GameValueError)
    nw = workers_count(workers, GameValueError)
    say = _say(quiet)
    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    log = _read_log(root) or {"rules": r.to_dict(), "dealer": [], "player": [],
                              "matrix": {}, "steps": []}
    if log["rules"] != r.to_dict():
        raise GameValueError(f"{str(root)!r} holds a run under other rules "
                             f"({Rules(**log['rules']).describe()})")

    def save_log() -> None:
        _files.write_text(root / LOG_FILE, json.dumps(
            {"log": log, "sha256": _log_digest(log)}, indent=1))

    pools: dict[str, list[HouseWay]] = {"dealer": [], "player": []}
    runs: dict[str, list[SplitCounts]] = {"dealer": [], "player": []}
    csplits: dict[str, list[npt.NDArray[np.int16]]] = {"dealer": [], "player": []}

    def add(side: str, way: HouseWay) -> None:
        k = len(pools[side])
        path = root / side / f"{k:02d}.npz"
        path.parent.mkdir(exist_ok=True)
        if k >= len(log[side]):
            way.save(path)
            log[side].append({"name": way.name, "digest": way_digest(way, r)})
            save_log()
        way = HouseWay.load(path)
        if way_digest(way, r) != log[side][k]["digest"]:
            raise GameValueError(f"{str(path)!r} is not the way the log names")
        run_dir = root / side / f"{k:02d}-run"
        say(f"{side} way {k}: {way.name}: counts of every split")
        if side == "dealer":                   # the players' hands against the dealer's way
            analyze(way, r, every_split=True, out=run_dir, workers=nw, progress=False)
        else:                                  # the dealer's hands against the players' way
            dealer_split_counts(way, r, out=run_dir, workers=nw, progress=False)
        pools[side].append(way)
        runs[side].append(SplitCounts(run_dir))
        csplits[side].append(class_splits(way, r))

    def fill() -> None:
        """The matrix entries not yet in the log (player wins of the players copying player
        way j against dealer way i): the newest dealer way's row from its own run, the
        newest player way's column from its own (dealer wins, the rest of the pairs), one
        pass each; the entry both give is counted both ways, and the two must agree."""
        nd, npl = len(pools["dealer"]), len(pools["player"])
        new = [(i, j) for i in range(nd) for j in range(npl) if f"{i},{j}" not in log["matrix"]]
        got: dict[tuple[int, int], list[int]] = {e: [] for e in new}
        by_dealer = [(i, j) for i, j in new if i == nd - 1 or j != npl - 1]
        by_player = [(i, j) for i, j in new if j == npl - 1]
        for i in sorted({i for i, _ in by_dealer}):
            es = [e for e in by_dealer if e[0] == i]
            for e, a in zip(es, gather(runs["dealer"][i], [csplits["player"][j] for _, j in es],
                                       nw), strict=True):
                got[e].append(a)
        for j in sorted({j for _, j in by_player}):
            es = [e for e in by_player if e[1] == j]
            for e, b in zip(es, gather(runs["player"][j], [csplits["dealer"][i] for i, _ in es],
                                       nw), strict=True):
                got[e].append(PAIRS - b)
        for (i, j), vals in got.items():
            if len(set(vals)) != 1:
                raise GameValueError(f"dealer way {i} against player way {j}: the two sides' "
                                     f"counts disagree ({vals[0]} and {vals[1]} player wins)")
            log["matrix"][f"{i},{j}"] = str(vals[0])
        if new:
            save_log()

    for side, start in (("dealer", dealer_start), ("player", player_start)):
        for k in range(max(1, len(log[side]))):
            if k < len(log[side]):
                add(side, HouseWay.load(root / side / f"{k:02d}.npz"))
            elif side == "dealer":
                add(side, resolve_way(start))
            else:
                add(side, resolve_way(start) if start is not None
                    else best_response(pools["dealer"][0], r, side="player",
                                       workers=nw, progress=False))
    done: list[Bounds] = []
    for s in log["steps"]:
        done.append(Bounds.from_dict(s))
    while len(done) < steps:
        step = len(done)
        nd, npl = len(pools["dealer"]), len(pools["player"])
        fill()
        m = [[int(log["matrix"][f"{i},{j}"]) for j in range(npl)] for i in range(nd)]
        x, y, v = solve_matrix_game(m)
        xd, yp = round_mix(x), round_mix(y)
        p_resp = best_response_to_mix(runs["dealer"], xd, nw)
        d_resp = best_response_to_mix(runs["player"], yp, nw)
        low_t, p_br, high_t, d_br = p_resp.total, p_resp.splits, d_resp.total, d_resp.splits
        b = Bounds(step, house_edge_of_wins(Fraction(low_t, MIX_DENOMINATOR), r),
                   house_edge_of_wins(PAIRS - Fraction(high_t, MIX_DENOMINATOR), r),
                   house_edge_of_wins(v, r), tuple(xd), tuple(yp))
        say(f"step {step}: lower {float(b.lower):.6%}  upper {float(b.upper):.6%}  "
            f"gap {float(b.gap):.6%}  (pools {nd} x {npl})")
        log["steps"].append(b.to_dict())
        save_log()
        done.append(b)
        if len(done) >= steps:
            break
        new_d = table_way(d_br, f"game-value-dealer-{nd:02d}",
                          f"the dealer's best response to the player mix of step {step}", r)
        new_p = table_way(p_br, f"game-value-player-{npl:02d}",
                          f"the player's best response to the dealer mix of step {step}", r)
        have_d = {e["digest"] for e in log["dealer"]}
        have_p = {e["digest"] for e in log["player"]}
        if way_digest(new_d, r) in have_d and way_digest(new_p, r) in have_p:
            say("both best responses are in the pools already: the pools' game is solved")
            break
        if way_digest(new_d, r) not in have_d:
            add("dealer", new_d)
        if way_digest(new_p, r) not in have_p:
            add("player", new_p)
    return done


# --------------------------------------------------------------------------------------------
# the shipped bounds
# --------------------------------------------------------------------------------------------

GAME_VALUE_KIND = "game-value"
"""The kind of file :func:`save_game_value` writes (see :mod:`asiapoker._files`)."""
SHIPPED = Path(__file__).with_name("data") / "game-value.npz"
"""The bounds shipped with the package (made by :data:`COMMAND`)."""
COMMAND = ("asiapoker game-value --solve runs/game-value --steps {steps} --out "
           "src/asiapoker/data/game-value.npz")
"""The command that makes a file of ``steps`` steps (the file records its own)."""


@dataclass(frozen=True)
class GameValue:
    """The value of the game's bounds and the mixes that give them, as shipped
    (:func:`load_game_value`): ``lower <= v <= upper``, exactly."""

    rules: Rules
    """The rule options the bounds are for."""
    steps: tuple[Bounds, ...]
    """Every double-oracle step's bounds, first to last."""
    lower_step: int
    """The step whose dealer mix gives the lower bound (the highest of all steps')."""
    upper_step: int
    """The step whose player mix gives the upper bound (the lowest of all steps')."""
    dealer_mix: tuple[tuple[HouseWay, int], ...]
    """The dealer mix of the lower bound: (way, weight over :data:`MIX_DENOMINATOR`)."""
    player_mix: tuple[tuple[HouseWay, int], ...]
    """The player mix of the upper bound, the same way."""
    lower_chunks: tuple[int, ...]
    """The player's wins against the dealer mix, times :data:`MIX_DENOMINATOR`, chunk by
    chunk of the class list (a test recomputes a chunk)."""
    upper_chunks: tuple[int, ...]
    """The dealer's wins against the player mix, the same way."""
    sha256: str
    """The file's contents digest."""

    @property
    def lower(self) -> Fraction:
        """The lower bound: the house edge the dealer mix holds against perfect play."""
        return house_edge_of_wins(Fraction(sum(self.lower_chunks), MIX_DENOMINATOR), self.rules)

    @property
    def upper(self) -> Fraction:
        """The upper bound: the house edge of the dealer's best response to the player mix."""
        return house_edge_of_wins(PAIRS - Fraction(sum(self.upper_chunks), MIX_DENOMINATOR),
                                  self.rules)

    @property
    def gap(self) -> Fraction:
        """upper - lower."""
        return self.upper - self.lower

    def mix_text(self, side: str) -> str:
        """``"one dealer way"`` or ``"a mix of 3 dealer ways"``: the mix of ``side``
        (``"dealer"`` or ``"player"``) in words."""
        n = len(self.dealer_mix if side == "dealer" else self.player_mix)
        return f"one {side} way" if n == 1 else f"a mix of {n} {side} ways"

    def below_value(self, house_edge: Fraction) -> tuple[Fraction, Fraction]:
        """``(least, most)``: how far the value lies above a strategy's ``house_edge``
        against perfect play (``v - house_edge`` is between them)."""
        return self.lower - house_edge, self.upper - house_edge

    def describe(self) -> str:
        """One line: the bounds, the gap and the rules."""
        return (f"the value of the game lies in [{float(self.lower):.4%}, "
                f"{float(self.upper):.4%}] (gap {float(self.gap):.4%} of a wager; "
                f"{self.rules.describe()})")


def _pack(ways: Sequence[HouseWay], side: str) -> dict[str, npt.NDArray[Any]]:
    """A mix's tables as the first one and, for each other, the classes it sets otherwise
    (the ways of a pool differ in few classes), each way's classes as gaps from the one before
    (which compress well)."""
    tables = [w.table for w in ways]
    if any(t is None for t in tables):
        raise GameValueError("a mix of built-in ways cannot be shipped: store them as tables")
    base = np.asarray(tables[0], dtype=np.uint8)
    at = [np.flatnonzero(np.asarray(t) != base).astype(np.int32) for t in tables[1:]]
    return {f"{side}_base": base,
            f"{side}_diff_gap": np.concatenate(
                [np.zeros(0, np.int32), *(np.diff(a, prepend=-1) for a in at)]).astype(np.int32),
            f"{side}_diff_split": np.concatenate(
                [np.zeros(0, np.uint8), *(np.asarray(t)[a] for t, a in
                                          zip(tables[1:], at, strict=True))]).astype(np.uint8),
            f"{side}_diff_ends": np.cumsum([len(a) for a in at], dtype=np.int64)}


def _unpack(arrays: dict[str, npt.NDArray[Any]], side: str, k: int,
            where: str) -> list[npt.NDArray[np.uint8]]:
    base, gap = arrays[f"{side}_base"], arrays[f"{side}_diff_gap"]
    split, ends = arrays[f"{side}_diff_split"], arrays[f"{side}_diff_ends"]
    n = len(class_table()[0])
    bad = GameValueError(f"{where!r}: the {side} mix does not fit its tables")
    if (base.dtype != np.uint8 or base.shape != (n,) or gap.dtype != np.int32
            or split.dtype != np.uint8 or gap.shape != split.shape or ends.dtype != np.int64
            or ends.shape != (k - 1,) or (len(gap) and int(gap.min()) < 1)
            or (k > 1 and (int(ends[-1]) != len(gap) or (np.diff(ends, prepend=0) < 0).any()))):
        raise bad
    out = [base]
    for lo, hi in zip(np.concatenate([[0], ends])[:-1].astype(np.int64), ends, strict=True):
        index = np.cumsum(gap[lo:hi], dtype=np.int64) - 1
        if len(index) and int(index[-1]) >= n:
            raise bad
        t = base.copy()
        t[index] = split[lo:hi]
        out.append(t)
    return out


def save_game_value(run: str | os.PathLike[str], path: str | os.PathLike[str],
                    workers: int | None = None) -> str:
    """Write the best bounds of a :func:`double_oracle` folder ``run`` to ``path``, a verified
    file, and return its sha256: the highest lower bound of any step with its dealer mix, the
    lowest upper bound with its player mix (the ways of positive weight in each), each
    recomputed chunk by chunk, and every step's bounds.

    Parameters
    ----------
    run : path
        A :func:`double_oracle` folder with at least one step.
    path : path
        The file to write (an .npz).
    workers : int, optional
        Threads (default: all cores).

    Raises
    ------
    GameValueError
        ``run`` holds no step, or its recomputed bounds differ from its log.
    """
    root = Path(run)
    log = _read_log(root)
    try:
        if log is None:
            raise KeyError(LOG_FILE)
        steps = log["steps"]
        best = {"dealer": max(steps, key=lambda b: (Fraction(b["lower"]), -b["step"])),
                "player": min(steps, key=lambda b: (Fraction(b["upper"]), b["step"]))}
    except (ValueError, KeyError, IndexError, TypeError):
        raise GameValueError(f"{str(root)!r} holds no double-oracle step") from None
    r = Rules(**log["rules"])
    parts: dict[str, Any] = {}
    for side, key in (("dealer", "dealer_mix"), ("player", "player_mix")):
        weights = list(best[side][key])
        ways = [HouseWay.load(root / side / f"{k:02d}.npz") for k in range(len(weights))]
        runs = [SplitCounts(root / side / f"{k:02d}-run") for k in range(len(weights))]
        resp = best_response_to_mix(runs, weights, workers)
        keep = [k for k, w in enumerate(weights) if w]
        parts[side] = (resp, [ways[k] for k in keep], [weights[k] for k in keep])
    lower = house_edge_of_wins(Fraction(parts["dealer"][0].total, MIX_DENOMINATOR), r)
    upper = house_edge_of_wins(PAIRS - Fraction(parts["player"][0].total, MIX_DENOMINATOR), r)
    if str(lower) != best["dealer"]["lower"] or str(upper) != best["player"]["upper"]:
        raise GameValueError(f"{str(root)!r}: the recomputed bounds differ from the log's")
    identity = {
        "rules": r.to_dict(), "class_keys_sha256": keys_digest(),
        "denominator": MIX_DENOMINATOR, "command": COMMAND.format(steps=len(steps)),
        "steps": steps,
        "lower_step": best["dealer"]["step"], "upper_step": best["player"]["step"],
        **{f"{side}_ways": [{"name": w.name, "description": w.description, "weight": wt}
                            for w, wt in zip(parts[side][1], parts[side][2], strict=True)]
           for side in ("dealer", "player")},
        "lower_chunks": [str(v) for _, v in sorted(parts["dealer"][0].chunk_totals.items())],
        "upper_chunks": [str(v) for _, v in sorted(parts["player"][0].chunk_totals.items())]}
    arrays = {**_pack(parts["dealer"][1], "dealer"), **_pack(parts["player"][1], "player")}
    return _files.write(path, GAME_VALUE_KIND, identity, arrays, compress=True)


def load_game_value(path: str | os.PathLike[str] | None = None) -> GameValue:
    """The bounds on the value of the game and their mixes, from the shipped file (or
    ``path``, one :func:`save_game_value` wrote), used only when its description and
    checksum check and its parts fit together.

    Parameters
    ----------
    path : path, optional
        The file (default: the one shipped, :data:`SHIPPED`).

    Raises
    ------
    GameValueError
        The file is missing, not a game-value file, damaged, or over another class list;
        the message names it.

    Examples
    --------
    >>> gv = load_game_value()
    >>> gv.lower <= gv.upper
    True
    >>> load_game_value("no-such.npz")
    Traceback (most recent call last):
    ...
    asiapoker.errors.GameValueError: cannot read the game value: ...
    """
    where = str(SHIPPED if path is None else path)
    try:
        meta, arrays = _files.read(where, GAME_VALUE_KIND)
        info = meta["identity"]
        if not isinstance(info, dict) or info.get("class_keys_sha256") != keys_digest():
            raise GameValueError(f"{where!r} is over another list of classes")
        if info.get("denominator") != MIX_DENOMINATOR or set(arrays) != {
                f"{side}_{part}" for side in ("dealer", "player")
                for part in ("base", "diff_gap", "diff_split", "diff_ends")}:
            raise GameValueError(f"{where!r} is not a game-value file of this version")
        rules = Rules(**info["rules"])
        mixes = {}
        for side in ("dealer", "player"):
            listed = info[f"{side}_ways"]
            if not listed or sum(int(e["weight"]) for e in listed) != MIX_DENOMINATOR:
                raise GameValueError(f"{where!r}: the {side} mix's weights do not sum to "
                                     f"{MIX_DENOMINATOR}")
            tables = _unpack(arrays, side, len(listed), where)
            mixes[side] = tuple(
                (HouseWay.from_table(t, str(e["name"]), str(e["description"])),
                 int(e["weight"])) for t, e in zip(tables, listed, strict=True))
        steps = tuple(Bounds.from_dict(s) for s in info["steps"])
        gv = GameValue(rules, steps, int(info["lower_step"]), int(info["upper_step"]),
                       mixes["dealer"], mixes["player"],
                       tuple(int(v) for v in info["lower_chunks"]),
                       tuple(int(v) for v in info["upper_chunks"]), str(meta["sha256"]))
    except GameValueError as exc:
        raise GameValueError(f"cannot read the game value: {exc}") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise GameValueError(f"cannot read the game value: {where!r}: {exc}") from None
    if (not 0 <= gv.lower_step < len(steps) or not 0 <= gv.upper_step < len(steps)
            or not gv.lower == steps[gv.lower_step].lower == max(b.lower for b in steps)
            or not gv.upper == steps[gv.upper_step].upper == min(b.upper for b in steps)):
        raise GameValueError(f"cannot read the game value: {where!r}: its chunks do not add "
                             f"up to its best steps' bounds")
    return gv
