"""Generating strategy cards: a greedy decision-list search over exact solutions.

:func:`generate` counts every split of a sample of random hands against the way exactly; for
every shape (split by whether a straight or flush can be played high) the placement that loses
least becomes its default, then, over all shapes at once, the exception (a placement under one
or two conditions) that saves the most is added, until the card has ``max_rules`` rules.
Greedy, because each step is exact and cheap and the card stays readable in the order it was
built; the sample (not the whole-game Parquet, which keeps only the best, house-way and player
splits) holds every split's count, which the search needs.  :func:`search` is also how
``tools/derive_rack.py`` derives house ways.

With ``method="tree"`` (:func:`tree`) a card that sets every hand itself (a house way)
is grown instead: each group's rules as a tree of conditions, the rules shared out among the
groups by what each saves.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from ._validate import MAX_HANDS, whole_number, workers_count
from .errors import HouseWayError, OptionError, RunError
from .house_way import DEFAULT_WAY, WayLike, resolve_way
from .rack import (
    COUNTS,
    FALLBACKS,
    FEATURES,
    FLAGS,
    MADE_ORDERS,
    PRIORITY_PLACEMENTS,
    SHAPE_SIZES,
    SHAPES,
    HandFacts,
    RackCard,
    Rule,
    best_split,
    feature_mask,
    hand_facts,
    placement_splits,
)
from .rules import Rules, resolve
from .sampling import random_hands
from .solver import DEALER_HANDS, solve_many
from .split_counts import SplitCounts
from .suit_classes import player_classes

__all__ = ["METHODS", "Generated", "generate", "search", "tree"]

# ---------------------------------------------------------------------------------------------
# the greedy search (shared with tools/derive_rack.py, which fits house ways with it)
# ---------------------------------------------------------------------------------------------

RANKED = [i for i, f in enumerate(FEATURES) if f not in FLAGS]
# the yes/no features a condition may test ("made" is not one: it splits every shape)
FLAGGED = [FEATURES.index(f) for f in FLAGS if f != "made"]


def decode(code: int, ngroups: int) -> str:
    """The placement words ("HH M L ...") of a placement code, one word per rank group."""
    parts = []
    for g in range(ngroups):
        h, m, lo = ((code >> (9 * g + 3 * j)) & 7 for j in range(3))
        parts.append("H" * h + "M" * m + "L" * lo)
    return " ".join(parts)


@dataclass
class ShapeData:
    name: str
    feature: npt.NDArray[np.int64]
    placements: list[str]
    cost: npt.NDArray[np.float64]          # placements x hands (inf where it does not apply)
    fallback: npt.NDArray[np.float64]
    base: tuple[tuple[str, str, int], ...] = ()
    rules: list[Rule] = field(default_factory=list)
    default: int = -1
    rows: npt.NDArray[np.intp] = field(default_factory=lambda: np.zeros(0, dtype=np.intp))
    house_way: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    """(searched on a run) what copying the house way loses on each row"""


def _sub(f: HandFacts, idx: npt.NDArray[np.intp]) -> HandFacts:
    return HandFacts(f.shape[idx], f.label[idx], f.feature[idx], f.sig[idx], f.tri[idx],
                     f.legal[idx])


def shape_data(shape: int, f: HandFacts, counts: npt.NDArray[np.int64],
               top: int, base: tuple[tuple[str, str, int], ...],
               target: npt.NDArray[np.int32] | None, mix: float = 1.0,
               fallback_splits: npt.NDArray[np.int64] | None = None) -> ShapeData:
    """Costs of the candidate placements: what each gives up against the best split by
    ``counts`` (plus, with a ``target``, ``mix`` x DEALER_HANDS for every hand set otherwise)."""
    name = list(SHAPES.values())[shape]
    n = len(f.shape)
    rows = np.arange(n)
    if target is not None:
        same = (f.tri == target[:, None, :]).all(axis=2) & f.legal
        counts = np.where(same, int(DEALER_HANDS * mix), 0) + counts
    score = np.where(f.legal, counts, -1)
    best_k = np.argmax(score, axis=1)
    best = score[rows, best_k].astype(np.float64)
    codes = f.sig[rows, best_k]
    uniq, inv = np.unique(codes, return_inverse=True)
    keep = uniq[np.argsort(-np.bincount(inv))[:top]]
    placements = [decode(int(c), len(SHAPE_SIZES[shape])) for c in keep]
    placements += list(PRIORITY_PLACEMENTS)
    if f.feature[:, 7].any():
        placements += list(MADE_ORDERS)
    cost = np.full((len(placements), n), np.inf)
    for j, p in enumerate(placements):
        k = placement_splits(f, p)
        ok = k >= 0
        cost[j, ok] = best[ok] - counts[rows[ok], k[ok]]
    fb = best_split(f.legal, f.tri, (1, 2, 0)) if fallback_splits is None else fallback_splits
    fallback = best - counts[rows, fb]
    return ShapeData(name, f.feature, placements, cost, fallback, base)


def cond_mask(sd: ShapeData, conds: tuple[tuple[str, str, int], ...]) -> npt.NDArray[np.bool_]:
    """Which of the shape's hands meet every condition."""
    return feature_mask(sd.feature, conds)


def current(sd: ShapeData) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """(decided by an exception, cost) per hand under the shape's rules so far."""
    n = sd.feature.shape[0]
    decided = np.zeros(n, dtype=bool)
    cost = np.zeros(n)
    for r in sd.rules:
        j = sd.placements.index(r.placement)
        m = ~decided & np.isfinite(sd.cost[j]) & cond_mask(sd, r.conditions)
        cost[m] = sd.cost[j][m]
        decided |= m
    rest = ~decided
    if sd.default >= 0:
        d = sd.cost[sd.default]
        cost[rest] = np.where(np.isfinite(d[rest]), d[rest], sd.fallback[rest])
    else:
        cost[rest] = sd.fallback[rest]
    return decided, cost


_WIDTH = 40
"""Room for one feature's values (ranks 0..14, flags 0..1, counts up to 35) in the search's
bincounts."""


def atoms(sd: ShapeData) -> list[tuple[str, str, int]]:
    """Every single condition worth trying on the shape's hands (a threshold between two
    values that occur, or a flag)."""
    return [a for a, _, _ in _atom_index(sd)]


def _atom_index(sd: ShapeData) -> list[tuple[tuple[str, str, int], int, int]]:
    """Each condition worth trying with (feature column, value): see :func:`_atom_gains`."""
    out = []
    for fi in RANKED:
        vals = np.unique(sd.feature[:, fi])
        vals = vals[vals >= 0] if FEATURES[fi] in COUNTS else vals[vals > 0]
        out += [((FEATURES[fi], ">=", int(v)), fi, int(v)) for v in vals[1:]]
        out += [((FEATURES[fi], "<=", int(v)), fi, int(v)) for v in vals[:-1]]
    for fi in FLAGGED:
        if len(np.unique(sd.feature[:, fi])) > 1:
            out += [((FEATURES[fi], "==", 1), fi, 1), ((FEATURES[fi], "==", 0), fi, 0)]
    return out


def _atom_gains(feature: npt.NDArray[np.int64],
                index: list[tuple[tuple[str, str, int], int, int]],
                gain: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The summed ``gain`` of the rows of ``feature`` meeting each condition of ``index``, all
    at once: one bincount of every feature's values, summed up or down to each threshold."""
    nf = feature.shape[1]
    flat = (feature + _WIDTH * np.arange(nf)[None, :]).ravel()
    by_value = np.bincount(flat, weights=np.repeat(gain, nf),
                           minlength=nf * _WIDTH).reshape(nf, _WIDTH)
    up = np.cumsum(by_value[:, ::-1], axis=1)[:, ::-1]        # value v or more
    down = np.cumsum(by_value, axis=1)                          # value v or less
    out = np.empty(len(index))
    for i, ((feat, op, _), fi, v) in enumerate(index):
        if op == "==":
            out[i] = by_value[fi, v]
        elif op == ">=":
            out[i] = up[fi, v]
        else:                   # a rank condition never holds where there is no such rank
            out[i] = down[fi, v] - (by_value[fi, 0] if feat not in COUNTS else 0.0)
    return out


def best_exception(sd: ShapeData) -> tuple[float, Rule | None]:
    """The exception (a placement under one, two or three conditions) that saves the most on
    the shape's hands no rule decides yet, and its saving: every single condition, every pair
    by branch and bound (a pair saves at most what its first condition's gaining hands sum
    to), and the best pair's best third condition."""
    decided, cost = current(sd)
    index = _atom_index(sd)
    masks: dict[int, npt.NDArray[np.intp]] = {}
    best: tuple[float, Rule | None] = (0.0, None)
    todo = []
    for j, p in enumerate(sd.placements):
        fits = np.isfinite(sd.cost[j])
        elig = ~decided & fits
        gain = np.where(elig, cost - np.where(elig, sd.cost[j], 0.0), 0.0)
        if gain.max(initial=0.0) <= 0:
            continue
        # as the group's default instead: every undecided hand moves, the ones it does not
        # fit to the fallback
        as_default = np.where(fits, sd.cost[j], sd.fallback)
        full = float((cost - as_default)[~decided].sum())
        if full > best[0]:
            best = (full, Rule(sd.name, p, sd.base))
        if not index:                   # the hands share every fact: no condition to try
            continue
        single = _atom_gains(sd.feature, index, gain)
        i = int(np.argmax(single))
        if single[i] > best[0] * 1.01:
            best = (float(single[i]), Rule(sd.name, p, (*sd.base, index[i][0])))
        todo.append((j, gain, _atom_gains(sd.feature, index, np.maximum(gain, 0.0))))
    # pairs: the placements and first conditions with the most to gain first
    found = None
    for j, gain, bound in sorted(todo, key=lambda t: -float(t[2].max(initial=0.0))):
        for i in np.argsort(-bound):
            if bound[i] <= best[0] * 1.03:
                break
            if i not in masks:
                masks[i] = np.flatnonzero(feature_mask(sd.feature, (index[i][0],)))
            rows = masks[i]
            second = _atom_gains(sd.feature[rows], index, gain[rows])
            a = index[i][0]
            second[[x[0][0] == a[0] and x[0][1] == a[1] for x in index]] = -np.inf
            k = int(np.argmax(second))
            if second[k] > best[0] * 1.03:
                best = (float(second[k]),
                        Rule(sd.name, sd.placements[j], (*sd.base, a, index[k][0])))
                found = (gain, i, k)
    if found is not None and best[1] is not None and len(best[1].conditions) == \
            len(sd.base) + 2:
        # a third condition to the best pair, where it keeps off hands the pair loses on
        gain, i, k = found
        rows = np.flatnonzero(feature_mask(sd.feature, (index[i][0], index[k][0])))
        third = _atom_gains(sd.feature[rows], index, gain[rows])
        third[[x[0][0] in (index[i][0][0], index[k][0][0]) for x in index]] = -np.inf
        t = int(np.argmax(third))
        if third[t] > best[0] * 1.03:
            best = (float(third[t]), Rule(sd.name, best[1].placement,
                                          (*best[1].conditions, index[t][0])))
    return best


def _shapes(f: HandFacts, counts: npt.NDArray[np.int64], top: int,
            target: npt.NDArray[np.int32] | None, mix: float,
            fallback: npt.NDArray[np.int64] | None) -> list[ShapeData]:
    """The search's groups of a sample's hands: every shape, with and without a straight or
    flush to play high."""
    shapes = []
    made = f.feature[:, FEATURES.index("made")] == 1
    for s in range(len(SHAPES)):
        for base, m in (((("made", "==", 1),), made), ((), ~made)):
            idx = np.flatnonzero((f.shape == s) & m)
            if not len(idx):
                continue
            sd = shape_data(s, _sub(f, idx), counts[idx], top, base,
                            None if target is None else target[idx], mix,
                            None if fallback is None else fallback[idx])
            sd.rows = idx
            shapes.append(sd)
    return shapes


def _pick_default(sd: ShapeData) -> None:
    """The group's best default placement, if any beats its fallback."""
    totals = [float(c[np.isfinite(c)].sum() + sd.fallback[~np.isfinite(c)].sum())
              for c in sd.cost]
    if totals and min(totals) < float(sd.fallback.sum()):
        sd.default = int(np.argmin(totals))


@dataclass(frozen=True)
class Step:
    """The card after one step of the search: its rules, and what the searched hands lose by
    it against their best splits (in the search's units: dealer hands, times the hands'
    weights)."""

    rules: tuple[Rule, ...]
    """The card's rules after the step."""
    cost: float
    """What the hands lose under those rules (an integer when searched on a run)."""


def search(f: HandFacts, counts: npt.NDArray[np.int64], max_rules: int, *, top: int = 10,
           min_gain: float = 0.0002, target: npt.NDArray[np.int32] | None = None,
           mix: float = 1.0, min_default: float = 0.0,
           fallback: npt.NDArray[np.int64] | None = None,
           log: list[str] | None = None,
           cost_out: npt.NDArray[np.float64] | None = None,
           steps: list[Step] | None = None, method: str = "greedy") -> list[Rule]:
    """The greedy decision list over hands ``f`` whose splits score ``counts`` (n x 105, more is
    better): every shape group's best default (unless it saves less than ``min_default`` of
    a wager per hand), then at each step the exception under one or two conditions (or a
    better default) that saves the most, until ``max_rules`` rules or none saves ``min_gain``
    of a wager per hand.  ``log`` gets one line a step; ``cost_out`` (n floats), when given,
    each hand's cost under the returned card as the search counts it (what the card's own
    rules and fallback give up against the best split, in counts).

    Parameters
    ----------
    f : HandFacts
        The hands' facts (:func:`asiapoker.rack.hand_facts`).
    counts : numpy.ndarray
        n x 105 scores of each hand's splits (wins, say), more is better.
    max_rules : int
        The most rules the card holds.
    top : int, default 10
        The most common placements of each shape tried as candidates.
    min_gain : float, default 0.0002
        The least saving (in wagers per hand) a rule must bring.
    target : numpy.ndarray, optional
        n x 3 target strengths: a hand set to them scores ``mix`` x DEALER_HANDS more (to
        learn a card that imitates a way).
    mix : float, default 1.0
        The weight of ``target``.
    min_default : float, default 0.0
        The least saving a shape's default must bring to be a rule.
    fallback : numpy.ndarray, optional
        n splits the fallback gives each hand (default: the card's own fallback placement).
    log : list of str, optional
        Gets one line a step.
    cost_out : numpy.ndarray, optional
        n floats: gets each hand's cost under the returned card, in counts.
    steps : list of Step, optional
        Gets the card after each step (the first: no rule).
    method : str, default "greedy"
        ``"greedy"`` or ``"tree"`` (:data:`METHODS`; the tree takes no ``min_gain`` or
        ``min_default``).

    Returns
    -------
    list of Rule
        The card's rules, in order.
    """
    shapes = _shapes(f, counts, top, target, mix, fallback)
    for sd in shapes:
        _pick_default(sd)
    rules = _searched(method, shapes, DEALER_HANDS * len(f.shape) / 2, max_rules,
                      min_gain=min_gain, min_default=min_default, log=log, steps=steps)
    if cost_out is not None:
        for sd in shapes:
            cost_out[sd.rows] = current(sd)[1]
    return rules


def card_rules(shapes: list[ShapeData]) -> list[Rule]:
    """The card the groups' rules and defaults make, shape by shape: the search sets the
    hands of a shape's made group that none of its rules decide by the fallback, so where that
    group has no default the rules of the shape's other hands say that they are for hands
    without a straight or flush (or they would catch them)."""
    open_made = {sd.name for sd in shapes if sd.base and sd.default < 0}
    rules: list[Rule] = []
    for sd in shapes:
        group = sd.rules + ([Rule(sd.name, sd.placements[sd.default], sd.base)]
                            if sd.default >= 0 else [])
        if not sd.base and sd.name in open_made:
            group = [Rule(r.shape, r.placement, (("made", "==", 0), *r.conditions))
                     for r in group]
        rules += group
    return rules


def greedy(shapes: list[ShapeData], unit: float, max_rules: int, *, min_gain: float,
           min_default: float, log: list[str] | None = None,
           steps: list[Step] | None = None) -> list[Rule]:
    """The greedy search over groups of hands whose costs are known (:func:`search`);
    ``unit`` is one wager per hand in the costs' units.  The groups' defaults are taken as
    :func:`_pick_default` left them, the largest savings first; changes ``shapes``."""

    def total() -> float:
        return float(sum(current(sd)[1].sum() for sd in shapes))

    def n_rules() -> int:
        return sum(len(sd.rules) + (sd.default >= 0) for sd in shapes)

    def step() -> None:
        if steps is not None:
            steps.append(Step(tuple(card_rules(shapes)), total()))

    # every group's best default first, unless it saves less than ``min_default`` of a wager
    # per hand (then the fallback serves the group, and the rule is left for an exception)
    chosen = {id(sd): sd.default for sd in shapes}
    saving = {}
    for sd in shapes:
        sd.default = -1
        before = float(current(sd)[1].sum())
        sd.default = chosen[id(sd)]
        saving[id(sd)] = before - float(current(sd)[1].sum()) if sd.default >= 0 else 0.0
        sd.default = -1
    step()
    ranked = sorted(shapes, key=lambda x: -saving[id(x)])
    for sd in ranked:                       # at most max_rules defaults, the largest savings
        if chosen[id(sd)] < 0 or saving[id(sd)] / unit < min_default:
            continue
        if n_rules() >= max_rules:
            break
        sd.default = chosen[id(sd)]
        if log is not None:
            log.append(f"card search: a default rule saves {saving[id(sd)] / unit:.4%} of a "
                       f"wager: {Rule(sd.name, sd.placements[sd.default], sd.base).text()}")
        step()
    found: dict[int, tuple[float, Rule | None]] = {}
    while n_rules() < max_rules:
        for sd in shapes:                   # a group's best exception, until it changes
            if id(sd) not in found:
                found[id(sd)] = best_exception(sd)
        sd = max(shapes, key=lambda x: found[id(x)][0])
        gain, rule = found.pop(id(sd))
        if rule is None or gain / unit <= min_gain:
            break
        if rule.conditions == sd.base:      # a (better) default for the group
            sd.default = sd.placements.index(rule.placement)
        else:
            sd.rules.append(rule)
        if log is not None:
            kind = "a default rule" if rule.conditions == sd.base else "a rule"
            log.append(f"card search: {kind} saves {gain / unit:.4%} of a wager: "
                       f"{rule.text()}")
        step()
    return card_rules(shapes)


# ---------------------------------------------------------------------------------------------
# the tree search: a card from scratch, each group's rules grown as a tree of conditions
# ---------------------------------------------------------------------------------------------

METHODS = ("greedy", "tree")
"""How a card is searched: ``"greedy"`` adds the exception that saves most, one at a time
(:func:`greedy`, for cards that list where to leave a way); ``"tree"`` grows each group's
rules as a tree of conditions and shares the rules out among the groups (:func:`tree`, for
cards that set every hand themselves: house ways)."""


def _fit_costs(sd: ShapeData, rows: npt.NDArray[np.intp]
               ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.float64]]:
    """(placements x rows) whether each placement fits each of the rows, and its cost there
    (0 where it does not fit)."""
    fits = np.isfinite(sd.cost[:, rows])
    return fits, np.where(fits, sd.cost[:, rows], 0.0)


def _best_placement(sd: ShapeData, rows: npt.NDArray[np.intp]) -> tuple[int, float]:
    """The placement that fits every one of the rows and loses least on them, and its cost."""
    fits, cost = _fit_costs(sd, rows)
    total = np.where(fits.all(axis=1), cost.sum(axis=1), np.inf)
    j = int(np.argmin(total))
    return j, float(total[j])


def _best_split(sd: ShapeData, rows: npt.NDArray[np.intp],
                index: list[tuple[tuple[str, str, int], int, int]]
                ) -> tuple[float, tuple[str, str, int] | None]:
    """The condition that splits the rows so that the best placement of each side (one that
    fits all the side's hands) saves most against the best placement of them all, and the
    saving: per placement and condition, the summed cost and the hands it does not fit on the
    side meeting the condition, the rest by difference; every sum an integer."""
    if len(rows) < 2 or not index:
        return 0.0, None
    fits, cost = _fit_costs(sd, rows)
    feature = sd.feature[rows]
    sums = np.array([_atom_gains(feature, index, c) for c in cost])
    misfit = np.array([_atom_gains(feature, index, (~f).astype(np.float64)) for f in fits])
    count = _atom_gains(feature, index, np.ones(len(rows)))
    total = cost.sum(axis=1)[:, None]
    all_misfit = (~fits).sum(axis=1)[:, None]
    whole = float(np.where(all_misfit[:, 0] == 0, total[:, 0], np.inf).min())
    meet = np.where(misfit == 0, sums, np.inf).min(axis=0)
    rest = np.where(all_misfit - misfit == 0, total - sums, np.inf).min(axis=0)
    score = np.where((count > 0) & (count < len(rows)), meet + rest, np.inf)
    i = int(np.argmin(score))
    if not np.isfinite(score[i]) or whole - score[i] <= 0:
        return 0.0, None
    return float(whole - score[i]), index[i][0]


@dataclass(eq=False)
class _Node:
    """A node of a group's tree: its hands (rows of the group), the conditions on the way to
    it, its best placement, its best split, and its two sides once split."""

    rows: npt.NDArray[np.intp]
    path: tuple[tuple[str, str, int], ...]
    placement: str
    split: tuple[float, tuple[str, str, int] | None]
    kids: tuple[_Node, _Node] | None = None


def _node(sd: ShapeData, rows: npt.NDArray[np.intp], path: tuple[tuple[str, str, int], ...],
          index: list[tuple[tuple[str, str, int], int, int]]) -> _Node:
    return _Node(rows, path, sd.placements[_best_placement(sd, rows)[0]],
                 _best_split(sd, rows, index))


def _leaves(node: _Node) -> list[_Node]:
    """The tree's leaves in the card's order: a condition's own side first, then the rest
    (which needs no condition: the hands meeting it are taken already)."""
    if node.kids is None:
        return [node]
    return _leaves(node.kids[0]) + _leaves(node.kids[1])


def _grow(sd: ShapeData, max_leaves: int) -> list[list[Rule]]:
    """The group's rules after each split of its tree, the split that saves most first: the
    k-th list holds k + 1 rules, one for each leaf, with the leaf's path of conditions and the
    placement that fits all the leaf's hands and loses least on them."""
    index = _atom_index(sd)
    root = _node(sd, np.arange(sd.feature.shape[0]), (), index)
    open_ = [root]
    out = []
    while True:
        out.append([Rule(sd.name, leaf.placement, (*sd.base, *leaf.path))
                    for leaf in _leaves(root)])
        grow = [n for n in open_ if n.split[1] is not None]
        if len(open_) >= max_leaves or not grow:
            return out
        node = max(grow, key=lambda n: n.split[0])
        cond = node.split[1]
        assert cond is not None
        meet = feature_mask(sd.feature[node.rows], (cond,))
        node.kids = (_node(sd, node.rows[meet], (*node.path, cond), index),
                     _node(sd, node.rows[~meet], node.path, index))
        open_.remove(node)
        open_ += node.kids


def _set_rules(sd: ShapeData, rules: list[Rule]) -> None:
    """Give the group these rules alone (no default: the fallback after them)."""
    sd.rules, sd.default = list(rules), -1


def _group_cost(sd: ShapeData, rules: list[Rule]) -> float:
    """What the group's hands lose under these rules alone (the fallback after them),
    exactly as the card sets them: a rule whose placement does not fit a hand passes it on."""
    _set_rules(sd, rules)
    return float(current(sd)[1].sum())


def _prune(sd: ShapeData, rules: list[Rule]) -> tuple[list[Rule], float]:
    """The rules with every condition and every rule dropped whose loss costs nothing."""
    best = _group_cost(sd, rules)
    dropped = True
    while dropped:
        dropped = False
        for i, r in enumerate(rules):
            for c in range(len(sd.base), len(r.conditions)):
                conds = r.conditions[:c] + r.conditions[c + 1:]
                trial = [*rules[:i], Rule(r.shape, r.placement, conds), *rules[i + 1:]]
                cost = _group_cost(sd, trial)
                if cost <= best:
                    rules, best, dropped = trial, cost, True
                    break
            if dropped:
                break
    i = 0
    while i < len(rules):
        trial = rules[:i] + rules[i + 1:]
        cost = _group_cost(sd, trial)
        if cost <= best:
            rules, best = trial, cost
        else:
            i += 1
    return rules, best


def tree(shapes: list[ShapeData], unit: float, max_rules: int, *, max_leaves: int = 25,
         log: list[str] | None = None, steps: list[Step] | None = None) -> list[Rule]:
    """A card that sets every hand itself, in at most ``max_rules`` rules: each group's rules
    grown as a tree (:func:`_grow`: up to ``max_leaves`` leaves), the rules shared out among
    the groups by the most saved per rule, then each chosen group's conditions and rules
    dropped where they save nothing (:func:`_prune`), and the rules freed shared out again.
    Every cost is counted exactly as the card sets the hands; changes ``shapes``.

    Parameters
    ----------
    shapes : list of ShapeData
        The search's groups of hands (:func:`run_shapes`, or a sample's).
    unit : float
        One wager per hand in the costs' units (for the log).
    max_rules : int
        The most rules the card holds.
    max_leaves : int, default 25
        The most leaves of a group's tree.
    log : list of str, optional
        Gets one line a step: the rules a group takes and what they save.
    steps : list of Step, optional
        Gets the card after each step (the first: no rule, the fallback alone).

    Returns
    -------
    list of Rule
        The card's rules, in order.
    """
    options: list[list[tuple[int, float, list[Rule]]]] = []
    for sd in shapes:
        opts: list[tuple[int, float, list[Rule]]] = [(0, float(sd.fallback.sum()), [])]
        for rules in _grow(sd, max_leaves):
            opts.append((len(rules), _group_cost(sd, rules), rules))
        options.append(opts)
    chosen = [0] * len(shapes)
    pruned: set[tuple[int, int]] = set()

    def record() -> None:
        for sd, opts, k in zip(shapes, options, chosen, strict=True):
            _set_rules(sd, opts[k][2])
        if steps is not None:
            steps.append(Step(tuple(card_rules(shapes)),
                              sum(opts[k][1] for opts, k in zip(options, chosen, strict=True))))

    record()
    while True:
        while True:                      # the option that saves most per added rule
            best: tuple[float, int, int] | None = None
            used = sum(opts[k][0] for opts, k in zip(options, chosen, strict=True))
            for g, opts in enumerate(options):
                n0, c0, _ = opts[chosen[g]]
                for k, (n, c, _) in enumerate(opts):
                    more = n - n0
                    if c >= c0 or used + more > max_rules:
                        continue
                    gain = (c0 - c) / max(more, 0.5)
                    if best is None or gain > best[0]:
                        best = (gain, g, k)
            if best is None:
                break
            _, g, k = best
            if log is not None:
                n0, c0, _ = options[g][chosen[g]]
                n, c, _ = options[g][k]
                log.append(f"card search: {n - n0:+d} rules for {shapes[g].name}"
                           f"{' (made)' if shapes[g].base else ''} save {(c0 - c) / unit:.4%} "
                           "of a wager")
            chosen[g] = k
            record()
        todo = [g for g in range(len(shapes)) if chosen[g] and (g, chosen[g]) not in pruned]
        if not todo:
            break
        for g in todo:
            rules, cost = _prune(shapes[g], options[g][chosen[g]][2])
            options[g][chosen[g]] = (len(rules), cost, rules)
            pruned.add((g, chosen[g]))
        record()
    return card_rules(shapes)


def _searched(method: str, shapes: list[ShapeData], unit: float, max_rules: int, *,
              min_gain: float, min_default: float, log: list[str] | None,
              steps: list[Step] | None) -> list[Rule]:
    """The card's rules by ``method`` (the tree takes no ``min_gain`` or ``min_default``)."""
    if method == "tree":
        return tree(shapes, unit, max_rules, log=log, steps=steps)
    return greedy(shapes, unit, max_rules, min_gain=min_gain, min_default=min_default,
                  log=log, steps=steps)


# ---------------------------------------------------------------------------------------------
# the search's groups over every hand, from an every-split run
# ---------------------------------------------------------------------------------------------

EXACT_LIMIT = 2 ** 53
"""Sums of weighted counts stay below this, so the search's float64 sums are exact."""


def _group_of(f: HandFacts) -> npt.NDArray[np.int64]:
    """Each hand's search group: its shape, twice, and whether a straight or flush can be
    played high."""
    return np.asarray(2 * f.shape + (f.feature[:, FEATURES.index("made")] == 0), np.int64)


def _group_base(g: int) -> tuple[int, tuple[tuple[str, str, int], ...]]:
    return g // 2, ((("made", "==", 1),) if g % 2 == 0 else ())


def _group_codes(g: npt.NDArray[np.int64], codes: npt.NDArray[np.int64],
                 w: npt.NDArray[np.int64]) -> dict[int, tuple[npt.NDArray[np.int64],
                                                            npt.NDArray[np.int64]]]:
    """Per group: the distinct placement codes and their summed weights."""
    out = {}
    for gi in np.unique(g):
        m = g == gi
        u, inv = np.unique(codes[m], return_inverse=True)
        out[int(gi)] = (u, np.bincount(inv, weights=w[m]).astype(np.int64))
    return out


def _merge_codes(parts: list[dict[int, tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]]
                 ) -> dict[int, tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]:
    groups: dict[int, list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]] = {}
    for part in parts:
        for g, cw in part.items():
            groups.setdefault(g, []).append(cw)
    out = {}
    for g, cws in groups.items():
        codes = np.concatenate([c for c, _ in cws])
        w = np.concatenate([x for _, x in cws])
        u, inv = np.unique(codes, return_inverse=True)
        out[g] = (u, np.bincount(inv, weights=w).astype(np.int64))
    return out


def _sum_rows(keys: npt.NDArray[np.int64], values: npt.NDArray[np.int64]
              ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The distinct rows of ``keys`` and, for each, the sum of ``values``' rows (integers)."""
    u, inv = np.unique(keys, axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    order = np.argsort(inv, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(inv[order]) != 0])
    return u, np.add.reduceat(values[order], starts, axis=0)


def run_shapes(run: SplitCounts, top: int = 10, fallback: str = "house-way",
               workers: int = 2) -> list[ShapeData]:
    """The search's groups over every class of an every-split run, each class weighted by the
    hands it stands for, the fallback the run's house way: two passes over the run (the
    placements each group's best splits use; then each candidate placement's cost), hands
    with the same facts summed into one row (the search reads nothing else of a hand), so
    every sum is an exact integer.  ``fallback`` sets the hands no rule fits (the run's house
    way, or a priority placement)."""
    hands, weights = player_classes()
    r = run.rules

    def facts(lo: int, hi: int, data: dict[str, npt.NDArray[Any]]) -> tuple[Any, ...]:
        f = hand_facts(np.ascontiguousarray(hands[lo:hi]), r)
        counts = data["counts"].astype(np.int64)
        best_k = np.argmax(counts, axis=1)
        rows = np.arange(hi - lo)
        return f, counts, counts[rows, best_k], best_k, rows

    def first(lo: int, hi: int, data: dict[str, npt.NDArray[Any]]) -> dict[int, Any]:
        f, _, _, best_k, rows = facts(lo, hi, data)
        return _group_codes(_group_of(f), f.sig[rows, best_k], weights[lo:hi])

    codes = _merge_codes(list(run.map(first, workers)))
    placements: dict[int, list[str]] = {}
    for g, (u, w) in codes.items():
        shape, _ = _group_base(g)
        keep = u[np.argsort(-w, kind="stable")[:top]]
        placements[g] = [decode(int(c), len(SHAPE_SIZES[shape])) for c in keep]
        placements[g] += list(PRIORITY_PLACEMENTS) + (list(MADE_ORDERS) if g % 2 == 0 else [])

    def second(lo: int, hi: int, data: dict[str, npt.NDArray[Any]]) -> dict[int, Any]:
        f, counts, best, _, rows = facts(lo, hi, data)
        w = weights[lo:hi]
        group = _group_of(f)
        hw = best - counts[rows, data["house_way"].astype(np.intp)]
        if fallback == "house-way":
            fall = hw
        else:
            o = PRIORITY_PLACEMENTS[fallback]
            fall = best - counts[rows, best_split(f.legal, f.tri, (o[0], o[1], o[2]))]
        out = {}
        for g in np.unique(group):
            idx = np.flatnonzero(group == g)
            sub = _sub(f, idx)
            cost = np.zeros((len(idx), len(placements[int(g)])), dtype=np.int64)
            ok = np.zeros(len(idx), dtype=np.int64)
            for j, p in enumerate(placements[int(g)]):
                k = placement_splits(sub, p)
                cost[:, j] = np.where(k >= 0, best[idx] - counts[idx, np.maximum(k, 0)], 0)
                ok |= (k >= 0).astype(np.int64) << j
            keys = np.column_stack([f.feature[idx], ok])
            vals = np.column_stack([cost, fall[idx], hw[idx]]) * w[idx, None]
            out[int(g)] = _sum_rows(keys, vals)
        return out

    parts: dict[int, list[tuple[Any, Any]]] = {}
    for part in run.map(second, workers):
        for g, kv in part.items():
            parts.setdefault(g, []).append(kv)
    shapes = []
    for g in sorted(parts):
        keys, vals = _sum_rows(np.concatenate([k for k, _ in parts[g]]),
                               np.concatenate([v for _, v in parts[g]]))
        if int(vals.max(initial=0)) >= EXACT_LIMIT:
            raise RunError("split counts too large to sum exactly")   # cannot happen: 2^53
        shape, base = _group_base(g)
        n_p = len(placements[g])
        fits = (keys[:, -1:] >> np.arange(n_p)[None, :]) & 1
        cost = np.where(fits.T == 1, vals[:, :n_p].T.astype(np.float64), np.inf)
        sd = ShapeData(list(SHAPES.values())[shape], keys[:, :-1], placements[g], cost,
                       vals[:, n_p].astype(np.float64), base, house_way=vals[:, n_p + 1])
        _pick_default(sd)
        shapes.append(sd)
    return shapes


# ---------------------------------------------------------------------------------------------
# generating and pricing
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Generated:
    """A generated card and how: the way and rules it plays against, what it was searched on
    (``run``, an every-split run: every hand; else ``hands`` random hands of ``seed``), the
    search's log and the card after each of its steps."""

    card: RackCard
    """The card."""
    way: str
    """The house way it was made against."""
    rules: Rules
    """The rule options."""
    hands: int
    """The hands searched: random hands, or every hand the run's classes stand for
    (154,143,080 for a whole run)."""
    seed: int
    log: tuple[str, ...]
    """Each rule's saving on the hands searched, in the order added."""
    steps: tuple[Step, ...] = ()
    """The card after each step of the search (the first: no rule, the fallback alone)."""
    house_way_cost: int = 0
    """What copying the house way loses on the hands searched, in the steps' units."""
    run: str | None = None
    """The every-split run searched, when not a sample."""
    named: str | None = None
    """The name the caller gave the card (its tiers are named ``NAMED-RULES``), if any."""

    @property
    def exact(self) -> bool:
        """Whether the search ran over every hand (its figures are exact)."""
        return self.run is not None

    def curve(self) -> list[tuple[int, Fraction]]:
        """(rules, share of the gap between copying the house way and optimal play closed) after
        each step, the last step of each card size: exact over the whole game when searched
        on a run, else on the sample."""
        out: dict[int, Fraction] = {}
        for st in self.steps:
            out[len(st.rules)] = 1 - Fraction(round(st.cost)) / self.house_way_cost
        return sorted(out.items())

    def tier(self, max_rules: int) -> RackCard:
        """The card of the search's first steps that hold at most ``max_rules`` rules (the
        nested cards of one search: the card ``generate`` makes with that ``max_rules``),
        named ``card-WAY-MAX_RULES`` (as ``generate`` names it) or, when the search was
        given a name, ``NAME-MAX_RULES``."""
        whole_number(max_rules, "max_rules")
        fit = [st for st in self.steps if len(st.rules) <= max_rules]
        name = (f"{self.named}-{max_rules}" if self.named is not None else
                f"card-{self.way}-{max_rules}")
        return RackCard(name, fit[-1].rules, self.card.fallback)


def generate(way: WayLike = DEFAULT_WAY, rules: Rules | None = None, *, max_rules: int = 20,
             hands: int = 60_000, seed: int = 0, name: str | None = None,
             fallback: str = "house-way", workers: int | None = None,
             run: str | os.PathLike[str] | None = None, partial: bool = False,
             method: str = "greedy", top: int = 10) -> Generated:
    """A strategy card of at most ``max_rules`` rules against ``way``, built by ``method``
    (greedily, or as trees: see the module text) from every hand of an every-split run of the
    way (``run``: each step exact over the whole game, about a minute), or from random hands,
    each solved exactly (about 0.7 ms a hand on two cores).

    Parameters
    ----------
    way : WayLike, default "standard"
        The dealer's house way: a :class:`asiapoker.HouseWay` or a built-in way's name.
    rules : Rules, optional
        The rule options (A-2-3-4's place, the payout); default ``Rules()``.
    max_rules : int, default 20
        The most rules the card holds (:meth:`Generated.tier` gives the smaller cards of the
        same search).
    hands : int, default 60000
        Random hands the card is learned from, 1 to 10^7 (not with ``run``).
    seed : int, default 0
        Their seed.
    name : str, optional
        The card's name (default: ``card-WAY-MAX_RULES``).
    fallback : str, default "house-way"
        How hands no rule fits are set: ``"house-way"`` (the card lists where to leave the
        house way) or a priority placement (``"best LMH"``, ``"best MLH"``, ...).
    workers : int, optional
        Threads (default: all cores).
    run : path, optional
        An every-split run of ``way`` under ``rules`` (``analyze(..., every_split=True)``):
        search on every hand of the game.
    partial : bool, default False
        Take a ``run`` whose chunks are not all there (a shard): search on the classes it
        holds.
    method : str, default "greedy"
        How the card is searched (:data:`METHODS`): ``"greedy"``, or ``"tree"`` for a card
        that sets every hand itself (a house way; it needs a priority ``fallback``).
    top : int, default 10
        The most common best placements of each group of hands tried as the rules'
        placements (beside the priority and made-hand placements).

    Returns
    -------
    Generated
        The card, the way and rules it was made against, the log of its search and the card
        after each step.

    Raises
    ------
    HouseWayError
        ``way`` is not a house way, or ``fallback`` is not a fallback.
    OptionError
        ``max_rules``, ``hands`` or ``workers`` is not a whole number >= 1, or ``method``
        is not a method (or is ``"tree"`` with the ``"house-way"`` fallback).
    RuleError
        ``rules`` is not a :class:`asiapoker.Rules`.
    RunError
        ``run`` is not a finished every-split run of ``way`` under ``rules`` (or a chunk of it
        is damaged: the message names the file).
    """

    whole_number(max_rules, "max_rules")
    whole_number(top, "top")
    whole_number(hands, "hands", 1, MAX_HANDS)
    whole_number(seed, "seed", 0)
    w, r = resolve_way(way), resolve(rules)
    workers = workers_count(workers)
    if fallback not in FALLBACKS:
        raise HouseWayError(f"unknown fallback {fallback!r} (one of: {', '.join(FALLBACKS)})")
    if method not in METHODS:
        raise OptionError(f"unknown method {method!r} (one of: {', '.join(METHODS)})")
    if method == "tree" and fallback == "house-way":
        raise OptionError("method 'tree' makes a card that sets every hand itself: give a "
                          "priority fallback (\"best MLH\", ...), not 'house-way'")
    log: list[str] = []
    steps: list[Step] = []
    # a sample's rule must save 10^-5 of a wager a hand (less is the sample's noise); on a run
    # every saving is exact, and a rule that saves anything is kept
    min_gain = 1e-5 if run is None else 1e-9
    if run is not None:
        counts = SplitCounts(run, partial).require_way(w, r)
        shapes = run_shapes(counts, top, fallback=fallback, workers=workers)
        hw_cost = int(sum(sd.house_way.sum() for sd in shapes))
        weights = player_classes()[1]
        gone = set(counts.missing)
        searched = int(sum(weights[counts.edges[c]:counts.edges[c + 1]].sum()
                           for c in range(len(counts.edges) - 1) if c not in gone))
        found = _searched(method, shapes, DEALER_HANDS * searched / 2, max_rules,
                          min_gain=min_gain, min_default=0.0005, log=log, steps=steps)
    else:
        rows = random_hands(hands, seed)
        solved = solve_many(rows, w, r, workers=workers)
        counts_s = np.asarray(solved.wins, dtype=np.int64)
        f = hand_facts(rows, r)
        if fallback == "house-way":
            fb = solved.house_way.astype(np.int64)
        else:
            o = PRIORITY_PLACEMENTS[fallback]
            fb = best_split(f.legal, f.tri, (o[0], o[1], o[2]))
        found = search(f, counts_s, max_rules, top=top, fallback=fb, min_gain=min_gain,
                       min_default=0.0005, log=log, steps=steps, method=method)
        hw = solved.house_way.astype(np.intp)
        hw_cost = int((solved.best_wins - counts_s[np.arange(hands), hw]).sum())
        searched = hands
    card = RackCard(name or f"card-{w.name}-{max_rules}", tuple(found), fallback)
    return Generated(card, w.name, r, searched, seed, tuple(log), tuple(steps), hw_cost,
                     None if run is None else str(run), name)
