"""Generating strategy cards: a greedy decision-list search over exact solutions.

:func:`generate` counts every split of a sample of random hands against the way exactly; for
every shape (split by whether a straight or flush can be played high) the placement that loses
least becomes its default, then, over all shapes at once, the exception (a placement under one
or two conditions) that saves the most is added, until the card has ``max_rules`` rules.
Greedy, because each step is exact and cheap and the card stays readable in the order it was
built; the sample (not the whole-game Parquet, which keeps only the best, house-way and player
splits) holds every split's count, which the search needs.  :func:`search` is also how
``tools/derive_rack.py`` derives house ways.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ._validate import MAX_HANDS, whole_number, workers_count
from .errors import HouseWayError
from .house_way import DEFAULT_WAY, WayLike, resolve_way
from .rack import (
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

__all__ = ["Generated", "generate", "search"]

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


def atoms(sd: ShapeData) -> list[tuple[str, str, int]]:
    """Every single condition worth trying on the shape's hands (a threshold between two
    values that occur, or a flag)."""
    out = []
    for fi in RANKED:
        vals = np.unique(sd.feature[:, fi])
        vals = vals[vals > 0]
        for v in vals[1:]:
            out.append((FEATURES[fi], ">=", int(v)))
        for v in vals[:-1]:
            out.append((FEATURES[fi], "<=", int(v)))
    for fi in FLAGGED:
        if len(np.unique(sd.feature[:, fi])) > 1:
            out += [(FEATURES[fi], "==", 1), (FEATURES[fi], "==", 0)]
    return out


def best_exception(sd: ShapeData) -> tuple[float, Rule | None]:
    """The exception (a placement under one or two conditions) that saves the most on the
    shape's hands no rule decides yet, and its saving."""
    decided, cost = current(sd)
    at = atoms(sd)
    masks = [cond_mask(sd, (a,)) for a in at]
    best: tuple[float, Rule | None] = (0.0, None)
    for j, p in enumerate(sd.placements):
        elig = ~decided & np.isfinite(sd.cost[j])
        gain = np.where(elig, cost - np.where(elig, sd.cost[j], 0.0), 0.0)
        if gain.max(initial=0.0) <= 0:
            continue
        # as the group's default instead: every undecided hand moves, the ones it does not
        # fit to the fallback
        as_default = np.where(np.isfinite(sd.cost[j]), sd.cost[j], sd.fallback)
        full = float((cost - as_default)[~decided].sum())
        if full > best[0]:
            best = (full, Rule(sd.name, p, sd.base))
        single = [float(gain[m].sum()) for m in masks]
        for a, g in zip(at, single, strict=True):
            if g > best[0] * 1.01:
                best = (g, Rule(sd.name, p, (*sd.base, a)))
        top = np.argsort(single)[-16:]
        for x, y in itertools.combinations(top, 2):
            if at[x][0] == at[y][0] and at[x][1] == at[y][1]:
                continue
            g = float(gain[masks[x] & masks[y]].sum())
            if g > best[0] * 1.03:
                best = (g, Rule(sd.name, p, (*sd.base, at[x], at[y])))
    return best




def search(f: HandFacts, counts: npt.NDArray[np.int64], max_rules: int, *, top: int = 10,
           min_gain: float = 0.0002, target: npt.NDArray[np.int32] | None = None,
           mix: float = 1.0, min_default: float = 0.0,
           fallback: npt.NDArray[np.int64] | None = None,
           log: list[str] | None = None,
           cost_out: npt.NDArray[np.float64] | None = None) -> list[Rule]:
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

    Returns
    -------
    list of Rule
        The card's rules, in order.
    """
    n_all = len(f.shape)
    unit = DEALER_HANDS * n_all / 2     # one wager won instead of lost moves 2 units
    shapes = []
    made = f.feature[:, 7] == 1
    for s in range(len(SHAPES)):
        for base, m in (((("made", "==", 1),), made), ((), ~made)):
            idx = np.flatnonzero((f.shape == s) & m)
            if not len(idx):
                continue
            sd = shape_data(s, _sub(f, idx), counts[idx], top, base,
                            None if target is None else target[idx], mix,
                            None if fallback is None else fallback[idx])
            sd.rows = idx
            totals = [float(c[np.isfinite(c)].sum() + sd.fallback[~np.isfinite(c)].sum())
                      for c in sd.cost]
            if totals and min(totals) < float(sd.fallback.sum()):
                sd.default = int(np.argmin(totals))
            shapes.append(sd)
    # every group's best default first, unless it saves less than ``min_default`` of a wager
    # per hand (then the fallback serves the group, and the rule is left for an exception)
    saving = {id(sd): float(sd.fallback.sum() - current(sd)[1].sum()) if sd.default >= 0
              else 0.0 for sd in shapes}
    ranked = sorted(shapes, key=lambda x: -saving[id(x)])
    for i, sd in enumerate(ranked):         # at most max_rules defaults, the largest savings
        if sd.default >= 0 and (saving[id(sd)] / unit < min_default or i >= max_rules):
            sd.default = -1
        elif sd.default >= 0 and log is not None:
            log.append(f"card search: a default rule saves {saving[id(sd)] / unit:.4%} of a "
                       f"wager: {Rule(sd.name, sd.placements[sd.default], sd.base).text()}")

    def n_rules() -> int:
        return sum(len(sd.rules) + (sd.default >= 0) for sd in shapes)

    while n_rules() < max_rules:
        cands = [(best_exception(sd), sd) for sd in shapes]
        (gain, rule), sd = max(cands, key=lambda x: x[0][0])
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
    # the search sets the hands of a shape's made group that none of its rules decide by the
    # fallback: where that group has no default, the rules of the shape's other hands must
    # say that they are for hands without a straight or flush, or they would catch them
    open_made = {sd.name for sd in shapes if sd.base and sd.default < 0}
    rules: list[Rule] = []
    for sd in shapes:
        group = sd.rules + ([Rule(sd.name, sd.placements[sd.default], sd.base)]
                            if sd.default >= 0 else [])
        if not sd.base and sd.name in open_made:
            group = [Rule(r.shape, r.placement, (("made", "==", 0), *r.conditions))
                     for r in group]
        rules += group
        if cost_out is not None:
            cost_out[sd.rows] = current(sd)[1]
    return rules


# ---------------------------------------------------------------------------------------------
# generating and pricing
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Generated:
    """A generated card and how: the way and rules it plays against, the sample (``hands``
    random hands, ``seed``) and the search's log (each rule's saving on the sample)."""

    card: RackCard
    """The card."""
    way: str
    """The house way it was made against."""
    rules: Rules
    """The rule options."""
    hands: int
    seed: int
    log: tuple[str, ...]
    """Each rule's saving on the sample, in the order added."""


def generate(way: WayLike = DEFAULT_WAY, rules: Rules | None = None, *, max_rules: int = 20,
             hands: int = 60_000, seed: int = 0, name: str | None = None,
             fallback: str = "house-way", workers: int | None = None) -> Generated:
    """A strategy card of at most ``max_rules`` rules against ``way``, built greedily (see the
    module text) from random hands, each solved exactly (about 0.7 ms a hand on two cores).

    Parameters
    ----------
    way : WayLike, default "standard"
        The dealer's house way: a :class:`asiapoker.HouseWay` or a built-in way's name.
    rules : Rules, optional
        The rule options (A-2-3-4's place, the payout); default ``Rules()``.
    max_rules : int, default 20
        The most rules the card holds.
    hands : int, default 60000
        Random hands the card is learned from, 1 to 10^7.
    seed : int, default 0
        Their seed.
    name : str, optional
        The card's name (default: ``card-WAY-MAX_RULES``).
    fallback : str, default "house-way"
        How hands no rule fits are set: ``"house-way"`` (the card lists where to leave the
        house way) or a priority placement (``"best LMH"``, ``"best MLH"``, ...).
    workers : int, optional
        Threads (default: all cores).

    Returns
    -------
    Generated
        The card, the way and rules it was made against, and the log of its search.

    Raises
    ------
    HouseWayError
        ``way`` is not a house way, or ``fallback`` is not a fallback.
    OptionError
        ``max_rules``, ``hands`` or ``workers`` is not a whole number >= 1.
    RuleError
        ``rules`` is not a :class:`asiapoker.Rules`.
    """

    whole_number(max_rules, "max_rules")
    whole_number(hands, "hands", 1, MAX_HANDS)
    whole_number(seed, "seed", 0)
    w, r = resolve_way(way), resolve(rules)
    workers = workers_count(workers)
    if fallback not in FALLBACKS:
        raise HouseWayError(f"unknown fallback {fallback!r} (one of: {', '.join(FALLBACKS)})")
    rows = random_hands(hands, seed)
    solved = solve_many(rows, w, r, workers=workers)
    counts = np.asarray(solved.wins, dtype=np.int64)
    f = hand_facts(rows, r)
    if fallback == "house-way":
        fb = solved.house_way.astype(np.int64)
    else:
        o = PRIORITY_PLACEMENTS[fallback]
        fb = best_split(f.legal, f.tri, (o[0], o[1], o[2]))
    log: list[str] = []
    found = search(f, counts, max_rules, min_gain=1e-5, min_default=0.0005, fallback=fb,
                   log=log)
    card = RackCard(name or f"card-{w.name}-{max_rules}", tuple(found), fallback)
    return Generated(card, w.name, r, hands, seed, tuple(log))
