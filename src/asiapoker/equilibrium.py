"""Deriving house ways exactly: best responses and the equilibrium iteration (rule 5.6).

A best response to a way W is itself a way, stored as a class table (one setting for each of
the 829,504 classes of seven cards), so it runs in the core like every built-in way.

- The **dealer's** best response (rule 5.6 c) gives each class the legal setting that loses to
  the fewest player hands set by W: it maximises the count of the other 46-choose-7 hands that
  beat it on at most one hand of three, copies going to the dealer.
- The **player's** best response (rule 5.6 b) maximises the count of dealer hands set by W
  that it beats on two hands of three: the setting ``solve`` ranks first.

Both are integer counts from the solver's core, computed for each class's representative hand
(the class's members set alike, since a stored way answers per class).  Ties go to W's own
setting, then to the first split in the representative's order, so a way that is already a
best response to itself is returned unchanged.  With a ``margin`` of M hands, a class keeps W's
setting unless another one's count is more than M above it (a damped iteration).

:func:`equilibrium` iterates the dealer's best response (rule 5.6 d) to a fixed point or a
cycle, each step's change an exact count of hands.

>>> best_response("classic", side="banker")
Traceback (most recent call last):
...
asiapoker.errors.HouseWayError: side must be 'dealer' or 'player', got 'banker'
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from . import _cache, _core
from ._compile import (
    class_table,
    keys_digest,
    load_cached,
    save_cached,
    splits_digest,
)
from ._progress import Progress
from ._validate import run_kernel, whole_number, workers_count
from .errors import AsiaPokerError, HouseWayError
from .house_way import HouseWay, WayLike, house_way_splits, resolve_way
from .rules import Rules, resolve
from .setting import legal_splits
from .solver import DEALER_HANDS, dealer_model

__all__ = ["EquilibriumResult", "Iteration", "Side", "best_response", "best_response_splits",
           "changed_hands", "changed_share", "class_weights", "equilibrium", "way_digest"]

Side: TypeAlias = Literal["dealer", "player"]
"""Whose best response: the dealer's (rule 5.6 c) or the player's (rule 5.6 b)."""
_CHUNK = 1024
_GROUPED_ROWS = 3      # rows a rank multiset from which the grouped solver is the faster one
BEST_RESPONSE_CACHE = "best-response-cache"
HANDS = math.comb(53, 7)      # the seven-card hands a share of hands is of


def way_digest(way: HouseWay, rules: Rules) -> str:
    """A sha256 that identifies what ``way`` does under ``rules``: its class table for a
    stored way, its definition for a built-in one."""
    text = (f"table:{splits_digest(way.table)}" if way.table is not None
            else f"builtin:{way.name}:{way.code}")
    return hashlib.sha256(f"{text}|a234={rules.a234}".encode()).hexdigest()


@functools.cache
def class_weights() -> npt.NDArray[np.int64]:
    """How many of the C(53, 7) hands fall in each class (in class-table order), counted by
    enumerating every hand in the core (about 6 s, then kept for the process); read-only."""
    keys, _ = class_table()
    counts, missing = _core.class_weights_enumerate(keys)
    if missing:  # pragma: no cover - every hand has a class
        raise AsiaPokerError(f"{missing} hands have no class")
    counts.setflags(write=False)
    return counts


def _check_side(side: str) -> int:
    if side not in ("dealer", "player"):
        raise HouseWayError(f"side must be 'dealer' or 'player', got {side!r}")
    return 1 if side == "dealer" else 0


def best_response_splits(way: HouseWay, rules: Rules, side: Side, rows: npt.NDArray[np.int64],
                         workers: int = 1,
                         progress: Callable[[int], None] | None = None,
                         margin: int = 0) -> npt.NDArray[np.uint8]:
    """The best response's split (index in each row's own order) for checked rows of seven
    ids: the core of :func:`best_response`, usable on any slice of hands.

    Parameters
    ----------
    way : HouseWay
        The way responded to.
    rules : Rules
        The rule options.
    side : {"dealer", "player"}
        Whose best response.
    rows : numpy.ndarray
        An n x 7 array of seven-card rows already checked (as the package's own callers
        pass them: no row is checked again).
    workers : int, default 1
        Threads.
    progress : callable, optional
        ``progress(rows_done)``, called as chunks finish.
    margin : int, default 0
        A row keeps the way's own setting unless another one's count is more than
        ``margin`` above its count (0: the best response, ties to the way's own).
    """
    _check_side(side)
    n = len(rows)
    out = np.empty(n, dtype=np.uint8)
    # the rows by rank multiset (stable), so the grouped solver shares each multiset's counts
    ranks = np.where(rows == 52, 13, rows >> 2).astype(np.int64)     # the joker: rank 13
    ranks.sort(axis=1)
    multiset = (ranks << (4 * np.arange(7))).sum(axis=1)
    order = np.argsort(multiset, kind="stable")
    multiset = multiset[order]
    starts = list(range(0, n, _CHUNK))
    model = dealer_model(way, rules)
    side_code = int(side == "dealer")

    def run(lo: int) -> int:
        at = order[lo:lo + _CHUNK]
        chunk = np.ascontiguousarray(rows[at])
        k = len(chunk)
        counts = np.empty((k, 105), dtype=np.int64)
        m = multiset[lo:lo + _CHUNK]
        if k >= _GROUPED_ROWS * (1 + np.count_nonzero(m[1:] != m[:-1])):
            run_kernel(_core.solve_groups_kernel, chunk, "hands", model, counts, side_code)
        else:                                    # rows of many multisets: one by one
            run_kernel(model.solve_rows, chunk, "hands", counts, np.empty(k, np.int64),
                       side_code)
        legal = legal_splits(chunk, rules)
        own_k = house_way_splits(chunk, way, rules)
        score = np.where(legal, counts * 2, -1)
        score[np.arange(k), own_k] += 2 * margin + 1   # ties (and gains up to margin) go to
        out[at] = np.argmax(score, axis=1)              # the way's own setting
        return k

    done = 0
    try:
        if workers <= 1 or len(starts) <= 1:
            for lo in starts:
                done += run(lo)
                if progress:
                    progress(done)
        else:
            with ThreadPoolExecutor(workers) as pool:
                for k in pool.map(run, starts):
                    done += k
                    if progress:
                        progress(done)
    finally:
        _core.release_group_tables()             # the grouped kernel's kept hashes
    return out


def best_response(way: WayLike, rules: Rules | None = None, *, side: Side = "dealer",
                  margin: int = 0, workers: int | None = None, progress: bool | None = None,
                  cache: bool = True,
                  cache_dir: str | os.PathLike[str] | None = None) -> HouseWay:
    """The best response to ``way`` (see the module text) as a :class:`HouseWay`, for every
    class of seven cards: about five minutes on two cores, then cached on disk (keyed by the
    way's digest, the side and the rules; a damaged or stale cache is rebuilt).

    Parameters
    ----------
    way : WayLike
        The way responded to.
    rules : Rules, optional
        The rule options (A-2-3-4's place); default ``Rules()``.
    side : {"dealer", "player"}, default "dealer"
        Whose best response (see the module text).
    margin : int, default 0
        A class keeps ``way``'s setting unless another one's count is more than ``margin``
        above its own (0: the plain best response).
    workers : int, optional
        Threads (default: all cores).
    progress : bool, optional
        A progress bar on stderr (default: when stderr is a terminal).
    cache : bool, default True
        Keep and reuse the result on disk.
    cache_dir : path, optional
        The cache folder (default: ``$ASIAPOKER_CACHE_DIR`` or ``~/.cache/asiapoker``).

    Raises
    ------
    HouseWayError
        ``way`` is not a house way, ``side`` is not one of the two, or ``margin`` is not a
        whole number 0 to C(46, 7).
    """
    flag = _check_side(side)
    whole_number(margin, "margin", lo=0, hi=DEALER_HANDS, error=HouseWayError)
    r = resolve(rules)
    w = resolve_way(way)
    workers = workers_count(workers, HouseWayError)
    reps = class_table()[1]
    source = way_digest(w, r)
    name = f"{side}-best-response({w.name})"
    path = None
    identity: dict[str, str | bool | int] = {
        "side": side, "way": w.name, "way_digest": source, "a234": r.a234,
        "class_keys_sha256": keys_digest()}
    if margin:
        identity["margin"] = margin
    if cache:
        folder = Path(cache_dir) if cache_dir is not None else _cache.default_cache_dir()
        path = _cache.cache_path(folder, BEST_RESPONSE_CACHE, identity)
    splits = load_cached(path, BEST_RESPONSE_CACHE, identity) if path is not None else None
    if splits is None:
        bar = Progress(len(reps), f"best response ({side}) to {w.name!r}",
                       sys.stderr.isatty() if progress is None else progress)
        splits = best_response_splits(w, r, side, reps, workers, bar.update, margin)
        bar.update(len(reps))
        if path is not None:
            save_cached(path, BEST_RESPONSE_CACHE, identity, splits)
    text = (f"the {side}'s best response to {w.name} ({r.describe()}; "
            f"{'fewest player wins' if flag else 'most dealer hands beaten'}"
            + (f", changing a class only to gain more than {margin} hands" if margin else "")
            + ")")
    return HouseWay.from_table(splits, name, text)


@dataclass(frozen=True, slots=True)
class Iteration:
    """One step of :func:`equilibrium`: the way, how many of the C(53, 7) hands it sets
    differently from the previous way, its digest and, when measured, its exact cost."""

    way: HouseWay
    """The way."""
    changed_hands: int
    """How many of the C(53, 7) hands it sets to other strengths than the previous way."""
    digest: str
    """Its digest (:func:`way_digest`)."""
    cost: Fraction | None = None
    """What copying the way gives up against optimal play, per unit wagered, exactly over
    the whole game (the house edge of house-way play minus that of optimal play); None when
    not measured."""

    @property
    def changed(self) -> float:
        """The share of hands set differently from the previous way."""
        return self.changed_hands / HANDS


@dataclass(frozen=True, slots=True)
class EquilibriumResult:
    """The iterates from the start way on; ``converged`` when the last equals the dealer's best
    response to itself; ``cycle`` the index of an earlier iterate the last one repeats."""

    iterations: list[Iteration] = field(default_factory=list)
    """The iterates, the start way first."""
    converged: bool = False
    cycle: int | None = None

    @property
    def last(self) -> HouseWay:
        """The final iterate."""
        return self.iterations[-1].way


def changed_hands(a: HouseWay, b: HouseWay, rules: Rules) -> int:
    """How many of the C(53, 7) hands ``a`` and ``b`` set to different strengths (an exact
    count: each class weighted by its hands).

    Parameters
    ----------
    a, b : HouseWay
        The two ways.
    rules : Rules
        The rule options both set under.
    """
    _, reps = class_table()
    ta = a.strengths(reps, rules)
    tb = b.strengths(reps, rules)
    diff = (ta != tb).any(axis=1)
    return int(class_weights()[diff].sum())


def changed_share(a: HouseWay, b: HouseWay, rules: Rules) -> float:
    """The share of all seven-card hands that ``a`` and ``b`` set to different strengths
    (:func:`changed_hands` over C(53, 7)).

    Parameters
    ----------
    a, b : HouseWay
        The two ways.
    rules : Rules
        The rule options both set under.
    """
    return changed_hands(a, b, rules) / HANDS


def equilibrium(start: WayLike = "classic", rules: Rules | None = None, *,
                max_iterations: int = 8, margin: int = 0,
                cost: Callable[[HouseWay], Fraction] | None = None,
                workers: int | None = None, progress: bool | None = None,
                cache: bool = True, cache_dir: str | os.PathLike[str] | None = None,
                report: Callable[[int, Iteration], None] | None = None) -> EquilibriumResult:
    """Iterate the dealer's best response from ``start`` until no class changes, an earlier
    iterate comes back (a cycle), or ``max_iterations`` steps; ``report(i, step)`` is called
    after each step (the start way is step 0).

    Parameters
    ----------
    start : WayLike, default "classic"
        The first way.
    rules : Rules, optional
        The rule options (A-2-3-4's place); default ``Rules()``.
    max_iterations : int, default 8
        The most best responses computed.
    margin : int, default 0
        A class keeps its setting unless the best one loses to more than ``margin`` fewer
        player hands (of the C(46, 7) it meets): 0 is the plain best response; a margin
        damps an iteration that crawls (its fixed point is then a best response to itself up
        to ``margin`` hands a class).
    cost : callable, optional
        ``cost(way)``: each iterate's cost, kept in :attr:`Iteration.cost` (for example
        :func:`asiapoker.analysis.way_cost`, exact over the whole game).
    workers : int, optional
        Threads (default: all cores).
    progress : bool, optional
        A progress bar on stderr (default: when stderr is a terminal).
    cache : bool, default True
        Keep and reuse each best response on disk (a stopped iteration resumes from it).
    cache_dir : path, optional
        The cache folder.
    report : callable, optional
        ``report(i, step)``, called after each step.

    Raises
    ------
    HouseWayError
        ``start`` is not a house way.
    OptionError
        ``max_iterations`` is not a whole number >= 1.
    """
    r = resolve(rules)
    whole_number(max_iterations, "max_iterations", error=HouseWayError)
    whole_number(margin, "margin", lo=0, hi=DEALER_HANDS, error=HouseWayError)
    way = resolve_way(start)

    def measured(way: HouseWay, changed: int) -> Iteration:
        return Iteration(way, changed, way_digest(way, r), cost(way) if cost else None)

    steps = [measured(way, 0)]
    if report:
        report(0, steps[0])
    seen = {steps[0].digest: 0}
    for i in range(1, max_iterations + 1):
        nxt = best_response(way, r, side="dealer", margin=margin, workers=workers,
                            progress=progress, cache=cache, cache_dir=cache_dir)
        assert nxt.table is not None
        nxt = HouseWay.from_table(nxt.table,
                                  f"{steps[0].way.name}-br{i}",
                                  f"dealer best response, iteration {i} from "
                                  f"{steps[0].way.name}"
                                  + (f" (margin {margin} hands)" if margin else ""))
        step = measured(nxt, changed_hands(way, nxt, r))
        steps.append(step)
        if report:
            report(i, step)
        if step.changed_hands == 0:
            return EquilibriumResult(steps, converged=True)
        if step.digest in seen:
            return EquilibriumResult(steps, cycle=seen[step.digest])
        seen[step.digest] = i
        way = nxt
    return EquilibriumResult(steps)
