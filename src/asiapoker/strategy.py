"""Strategy cards: short lists of plain rules a player can follow, generated from the exact
solution and priced exactly.

A strategy card is a rack card (:mod:`asiapoker.rack`): ordered rules keyed on the shape of the
seven cards and simple features, each naming a placement in words; the first rule that fits
decides, and hands no rule fits take the legal setting with the best medium, then low, then
high hand.  :class:`CardStrategy` makes a card a batch strategy (for :func:`~asiapoker.simulate`
and :func:`~asiapoker.analysis.analyze`); ``HouseWay.from_card`` makes it a house way.

:func:`generate` builds a card by greedy decision-list construction: the exact count of every
split of a sample of random hands against the way; for every shape (split by whether a
straight or flush can be played high) the placement that loses least becomes its default, then,
over all shapes at once, the exception (a placement under one or two conditions) that saves the
most is added, until the card has ``max_rules`` rules.  Greedy, because each step is exact and
cheap and the card stays readable in the order it was built; the sample (not the whole-game
Parquet, which keeps only the best, house-way and player splits) holds every split's count,
which the search needs.  :func:`price` then prices a card exactly over the whole game from an
``analyze`` run of the card (``player=CardStrategy(card)``), or on a sample with confidence
intervals.
"""

from __future__ import annotations

import base64
import html as h
import itertools
import json
import math
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ._runs import RUN_FILE, RunDir, chunk_bounds
from ._validate import whole
from .analysis import class_groups, player_classes, random_hands
from .cards import Card as PlayingCard
from .errors import AsiaPokerError, HouseWayError, require_extra
from .house_way import DEFAULT_WAY, WayLike, house_way_splits, resolve_way
from .rack import (
    FALLBACKS,
    FEATURES,
    FLAGS,
    MADE_ORDERS,
    PRIORITY_PLACEMENTS,
    SHAPE_SIZES,
    SHAPES,
    Card,
    HandFacts,
    Rule,
    apply_card,
    best_split,
    feature_mask,
    hand_facts,
    placement_splits,
)
from .rules import Rules, resolve
from .setting import SPLIT_POSITIONS, setting_of_split
from .solver import DEALER_HANDS, solve_many

__all__ = ["CardStrategy", "Generated", "Pricing", "RulePrice", "card_from_json", "card_to_json",
           "generate", "price"]

# split index from (high positions as a 7-bit mask, low position)
_SPLIT_OF = np.full(128 * 8, -1, dtype=np.int64)
for _k, (_h, _m, _lo) in enumerate(SPLIT_POSITIONS):
    _SPLIT_OF[sum(1 << p for p in _h) * 8 + _lo] = _k
_POS = np.array([[*h, *m, lo] for h, m, lo in SPLIT_POSITIONS], dtype=np.int64)


def card_splits(card: Card, hands: npt.NDArray[Any], rules: Rules | None = None,
                way: WayLike | None = None) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(split, rule) per row of checked seven-card ids: the card's split as an index into
    :data:`~asiapoker.SPLIT_POSITIONS` of the row AS GIVEN, and the rule that decided (-1: no
    rule fits, the fallback; a card that falls back on the house way needs ``way``)."""
    rows = np.asarray(hands, dtype=np.int64)
    order = np.argsort(rows, axis=1, kind="stable")
    srt = np.take_along_axis(rows, order, axis=1)
    k, rule = apply_card(card, srt, rules)
    if card.fallback == "house-way":
        rest = k < 0
        if rest.any():
            if way is None:
                raise HouseWayError(f"card {card.name!r} falls back on the house way: name "
                                    "the way")
            k[rest] = house_way_splits(np.ascontiguousarray(srt[rest]), way, rules)
    pos = np.take_along_axis(order, _POS[k], axis=1)      # sorted positions -> the row's
    high = (1 << pos[:, :4]).sum(axis=1)
    return _SPLIT_OF[high * 8 + pos[:, 6]], rule


@dataclass(frozen=True)
class CardStrategy:
    """A card as a batch strategy: called on an n x 7 array of hands, it returns n split
    indices (picklable, so it runs on Dask workers too)."""

    card: Card
    rules: Rules = field(default_factory=Rules)
    way: Any = None                          # the house way, for a house-way fallback

    @property
    def __name__(self) -> str:               # strategies are named by their __name__
        return self.card.name

    def __call__(self, hands: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
        return card_splits(self.card, hands, self.rules, self.way)[0]


def card_to_json(card: Card) -> str:
    """The card as JSON: its name and rules as [shape, placement, [[feature, op, value]]]."""
    return json.dumps({"name": card.name, "fallback": card.fallback, "rules": [
        [r.shape, r.placement, [list(c) for c in r.conditions]] for r in card.rules]},
        indent=1)


def card_from_json(text: str) -> Card:
    """A card from :func:`card_to_json`'s text, every rule checked."""
    try:
        data = json.loads(text)
        rules = tuple(Rule(s, p, tuple((f, o, v) for f, o, v in conds))
                      for s, p, conds in data["rules"])
        name = data["name"]
        fallback = data.get("fallback", "best MLH")
    except HouseWayError:
        raise
    except (ValueError, KeyError, TypeError) as exc:
        raise HouseWayError(f"not a strategy card: {type(exc).__name__}: {exc}") from None
    if not isinstance(name, str):
        raise HouseWayError("not a strategy card: its name is not text")
    return Card(name, rules, fallback)


# ---------------------------------------------------------------------------------------------
# the greedy search (shared with tools/derive_rack.py, which fits house ways with it)
# ---------------------------------------------------------------------------------------------

RANKED = [i for i, f in enumerate(FEATURES) if f not in FLAGS]
# the yes/no features a condition may test ("made" is not one: it splits every shape)
FLAGGED = [FEATURES.index(f) for f in FLAGS if f != "made"]


def decode(code: int, ngroups: int) -> str:
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
    rules and fallback give up against the best split, in counts)."""
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

    card: Card
    way: str
    rules: Rules
    hands: int
    seed: int
    log: tuple[str, ...]


def generate(way: WayLike = DEFAULT_WAY, rules: Rules | None = None, *, max_rules: int = 20,
             hands: int = 60_000, seed: int = 0, name: str | None = None,
             fallback: str = "house-way", workers: int | None = None) -> Generated:
    """A strategy card of at most ``max_rules`` rules against ``way``, built greedily (see the
    module text) from ``hands`` random hands (``seed``), each solved exactly (about 0.7 ms a
    hand on two cores).  Hands no rule fits are set by ``fallback``: as the house way does
    (the default: the card lists where to leave the house way), or a priority placement."""

    whole(max_rules, "max_rules")
    whole(hands, "hands")
    whole(seed, "seed", 0)
    w, r = resolve_way(way), resolve(rules)
    workers = whole((os.cpu_count() or 1) if workers is None else workers, "workers")
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
    card = Card(name or f"card-{w.name}-{max_rules}", tuple(found), fallback)
    return Generated(card, w.name, r, hands, seed, tuple(log))


@dataclass(frozen=True)
class RulePrice:
    """One rule's share of hands (``frequency``: the hands it decides) and its exact cost: the
    ev the game loses on them against optimal play, per hand of the whole game and per hand
    it decides.  Rule -1 is the fallback (hands no rule fits)."""

    index: int
    text: str
    frequency: Fraction
    cost: Fraction
    cost_per_hand: Fraction


@dataclass(frozen=True)
class Pricing:
    """A card's ev beside house-way play and optimal play against ``way``; ``gap_closed`` is the
    share of the gap between house-way and optimal play the card closes.  ``exact`` when
    priced over every player hand (else ``se`` holds standard errors from ``hands`` random
    hands).  ``worst``: (hand, share of hands, ev lost per hand) of the biggest mistakes,
    weighted by frequency."""

    card: Card
    way: str
    rules: Rules
    exact: bool
    hands: int
    ev: dict[str, Fraction]
    se: dict[str, float]
    per_rule: tuple[RulePrice, ...]
    worst: tuple[tuple[str, Fraction, Fraction], ...]

    @property
    def gap_closed(self) -> Fraction:
        """(card - house way) / (optimal - house way)."""
        gap = self.ev["optimal"] - self.ev["house-way"]
        return (self.ev["card"] - self.ev["house-way"]) / gap if gap else Fraction(1)

    def describe(self) -> str:
        """What the figures depend on."""
        what = ("every player hand, exact" if self.exact
                else f"{self.hands:,} random hands, with 95% CIs")
        return f"house way {self.way}; {self.rules.describe()}; {what}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {"card": self.card.name, "way": self.way, "rules": self.rules.to_dict(),
                "exact": self.exact, "hands": self.hands,
                "ev": {k: float(v) for k, v in self.ev.items()},
                "ev_exact": {k: str(v) for k, v in self.ev.items()} if self.exact else None,
                "se": self.se, "gap_closed": float(self.gap_closed),
                "per_rule": [{"rule": p.index + 1 if p.index >= 0 else None, "text": p.text,
                              "frequency": float(p.frequency), "cost": float(p.cost),
                              "cost_per_hand": float(p.cost_per_hand)}
                             for p in self.per_rule],
                "worst": [{"hand": h, "frequency": float(f), "loss": float(loss)}
                          for h, f, loss in self.worst]}


class _PriceSums:
    """Integer sums over weighted hands."""

    def __init__(self, n_rules: int) -> None:
        self.n = 0
        self.wins = {"optimal": 0, "house-way": 0, "card": 0}
        self.rule_hands = [0] * (n_rules + 1)          # last: the fallback
        self.rule_loss = [0] * (n_rules + 1)
        self.worst: list[tuple[int, int, str]] = []    # (weight x loss, weight, hand)

    def add(self, hands: npt.NDArray[Any], weight: npt.NDArray[np.int64],
            best: npt.NDArray[np.int64], hw: npt.NDArray[np.int64],
            card: npt.NDArray[np.int64], rule: npt.NDArray[np.int64]) -> None:
        self.n += int(weight.sum())
        for key, wins in (("optimal", best), ("house-way", hw), ("card", card)):
            self.wins[key] += int((weight * wins).sum())
        loss = weight * (best - card)
        for i in range(len(self.rule_hands)):
            m = rule == (i if i < len(self.rule_hands) - 1 else -1)
            self.rule_hands[i] += int(weight[m].sum())
            self.rule_loss[i] += int(loss[m].sum())
        top = np.argsort(-loss, kind="stable")[:20]
        self.worst += [(int(loss[t]), int(weight[t]),
                        " ".join(str(PlayingCard(int(c))) for c in hands[t])) for t in top
                       if loss[t] > 0]
        self.worst = sorted(self.worst, key=lambda x: -x[0])[:20]

    def pricing(self, card: Card, way: str, rules: Rules, exact: bool, hands: int,
                se: dict[str, float]) -> Pricing:
        pays = Fraction(rules.pays)
        scale = pays + 1
        ev = {k: Fraction(w, self.n * DEALER_HANDS) * scale - 1 for k, w in self.wins.items()}
        per_rule = []
        for i in range(len(self.rule_hands)):
            idx = i if i < len(card.rules) else -1
            text = card.rules[i].text() if idx >= 0 else card.fallback_text()
            h = self.rule_hands[i]
            loss = Fraction(self.rule_loss[i], self.n * DEALER_HANDS) * scale
            per_rule.append(RulePrice(idx, text, Fraction(h, self.n), loss,
                                      loss * self.n / h if h else Fraction(0)))
        worst = tuple((hand, Fraction(w, self.n), Fraction(lw, w * DEALER_HANDS) * scale)
                      for lw, w, hand in self.worst)
        return Pricing(card, way, rules, exact, hands, ev, se, tuple(per_rule), worst)


def price(card: Card, way: WayLike = DEFAULT_WAY, rules: Rules | None = None, *,
          run: str | Path | None = None, partial: bool = False, hands: int = 20_000,
          seed: int = 1, workers: int | None = None) -> Pricing:
    """Price ``card`` against ``way``: exactly from ``run`` (the directory of a finished
    ``analyze(way, rules, player=CardStrategy(card, rules, way), out=run)``; with ``partial``,
    over the chunks it holds), or from ``hands`` random hands (``seed``) solved exactly, with
    standard errors."""
    w, r = resolve_way(way), resolve(rules)
    sums = _PriceSums(len(card.rules))
    if run is not None:
        path = Path(run)
        try:
            params = json.loads((path / RUN_FILE).read_text())
        except (OSError, ValueError) as exc:
            raise AsiaPokerError(f"{path} is not an analyze run: {exc}") from None
        want = {"way": w.name, "player": f"strategy:{card.name}", "rules": r.to_dict()}
        for k, v in want.items():
            if params.get(k) != v:
                raise AsiaPokerError(f"{path} is a run with {k}={params.get(k)!r}, not "
                                     f"{k}={v!r}: run asiapoker analyze --way {w.name} "
                                     f"--player CARD.json --out DIR first")
        rd = RunDir(path, {k: v for k, v in params.items() if k != "format"}, create=False)
        (hands_all, weights), groups = player_classes(), class_groups()
        edges = chunk_bounds(groups)
        missing = [c for c in range(len(edges) - 1) if not rd.chunk_path(c).exists()]
        if missing and not partial:
            raise AsiaPokerError(f"{path} is not finished: {len(missing)} chunks to go (run "
                                 f"the same analyze command again)")
        absent = set(missing)
        for c in (c for c in range(len(edges) - 1) if c not in absent):
            lo, hi = int(edges[c]), int(edges[c + 1])
            d = rd.load(c)              # verified: a damaged chunk is an error naming it
            h = hands_all[lo:hi]
            _, rule = apply_card(card, h, r)
            sums.add(h, weights[lo:hi], d["best_wins"], d["house_way_wins"],
                     d["player_wins"], rule)
        return sums.pricing(card, w.name, r, not missing, sums.n, {})

    whole(hands, "hands", 2)
    workers = whole((os.cpu_count() or 1) if workers is None else workers, "workers")
    rows = random_hands(hands, seed)
    solved = solve_many(rows, w, r, workers=workers)
    best, hw = solved.best_wins, solved.house_way_wins
    picks, rule = card_splits(card, rows, r, w)
    mine = solved.wins[np.arange(len(rows)), picks].astype(np.int64)
    sums.add(rows, np.ones(len(rows), dtype=np.int64), best, hw, mine, rule)
    scale = float(r.pays) + 1
    se = {key: float(np.std(v / DEALER_HANDS * scale, ddof=1) / math.sqrt(len(rows)))
          for key, v in (("optimal", best), ("house-way", hw), ("card", mine),
                         ("card-vs-optimal", best - mine))}
    return sums.pricing(card, w.name, r, False, len(rows), se)


# ---------------------------------------------------------------------------------------------
# a card a person can print
# ---------------------------------------------------------------------------------------------

_SUIT_SYM = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def _examples(card: Card, rules: Rules, way: WayLike, n: int = 4000,
              seed: int = 2) -> dict[int, str]:
    """An example hand for each rule (and the fallback, -1), set by the card."""
    rows = random_hands(n, seed)
    k, rule = card_splits(card, rows, rules, way)
    out: dict[int, str] = {}
    for i in range(len(rows)):
        r = int(rule[i])
        if r not in out:
            out[r] = str(setting_of_split([int(x) for x in rows[i]], int(k[i])))
    return out


def _md_example(text: str | None) -> str:
    """An example setting for a Markdown table cell (no bars: they split cells)."""
    return f"`{text.replace('|', '/')}`" if text else "(rare: none in 4,000 hands)"


def _card_html(text: str) -> str:
    """A setting's cards as small pictures with text alternatives."""
    parts = []
    for group in text.split(" | "):
        cards = []
        for c in group.split():
            if c == "Jk":
                cards.append('<span class="c jk" role="img" aria-label="joker">Jk</span>')
            else:
                red = " r" if c[1] in "hd" else ""
                cards.append(f'<span class="c{red}" role="img" aria-label="{h.escape(c)}">'
                             f'{c[0].replace("T", "10")}{_SUIT_SYM[c[1]]}</span>')
        parts.append("".join(cards))
    return ' <span class="bar">|</span> '.join(parts)


def write_card(card: Card, pricing: Pricing, out: str | Path,
               generated: Generated | None = None) -> list[Path]:
    """card.json, card.md, card.html (one printable page), cost-per-rule.png/.svg (needs
    matplotlib) and card.pdf when a headless Chromium is on the PATH; returns the paths."""
    require_extra("matplotlib", "plots")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    d = Path(out)
    d.mkdir(parents=True, exist_ok=True)
    written = []
    (d / "card.json").write_text(card_to_json(card) + "\n")
    (d / "pricing.json").write_text(json.dumps(pricing.to_dict(), indent=1) + "\n")
    written += [d / "card.json", d / "pricing.json"]
    ex = _examples(card, pricing.rules, pricing.way)
    ev = pricing.ev
    kind = "exact, over every player hand" if pricing.exact else (
        f"estimated from {pricing.hands:,} random hands (95% CI ±"
        f"{1.96 * pricing.se.get('card', 0):.2%})")
    rows = [("optimal play", ev["optimal"]), (f"this card ({len(card.rules)} rules)", ev["card"]),
            (f"copying the house way ({pricing.way})", ev["house-way"])]
    per = {p.index: p for p in pricing.per_rule}
    how = (f"Generated by `asiapoker card --way {pricing.way} --max-rules "
           f"{len(card.rules)} --hands {generated.hands} --seed {generated.seed}`"
           if generated else "Priced by `asiapoker card`")
    # Markdown
    md = [f"# Strategy card: {card.name}", "",
          f"Against the house way `{pricing.way}` ({pricing.rules.describe()}); figures "
          f"{kind}. {how}. Examples write the hands high / medium / low.", "",
          "| play | ev per unit | house edge |", "|---|---|---|"]
    md += [f"| {name} | {float(v):+.4%} | {float(-v):+.4%} |" for name, v in rows]
    md += ["", f"The card closes **{float(pricing.gap_closed):.1%}** of the gap between copying "
           "the house way and optimal play.", "", "## The rules (the first that fits decides)", "",
           "| # | rule | hands | costs | example |", "|---|---|---|---|---|"]
    for i, rule in enumerate(card.rules):
        p = per[i]
        md.append(f"| {i + 1} | {rule.text()} | {float(p.frequency):.2%} | "
                  f"{float(p.cost):.3%} | {_md_example(ex.get(i))} |")
    fb = per[-1]
    md.append(f"| - | {fb.text} | {float(fb.frequency):.2%} | {float(fb.cost):.3%} | "
              f"{_md_example(ex.get(-1))} |")
    md += ["", "*hands*: the share of all hands the rule decides; *costs*: the ev the game "
           "gives up on them against optimal play, per hand of the whole game.", "",
           "## The costliest mistakes", "", "| hand | share of hands | ev lost |",
           "|---|---|---|"]
    md += [f"| `{hand}` | {float(f):.5%} | {float(loss):.3f} |"
           for hand, f, loss in pricing.worst[:10]]
    (d / "card.md").write_text("\n".join(md) + "\n")
    written.append(d / "card.md")
    # the plot
    fig, ax = plt.subplots(figsize=(7, 0.28 * (len(card.rules) + 2) + 1))
    labels = [str(i + 1) for i in range(len(card.rules))] + ["fallback"]
    costs = [100 * float(per[i].cost) for i in range(len(card.rules))] + [100 * float(fb.cost)]
    ax.barh(range(len(labels)), costs, color="#3b6fb6")
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.set_xlabel("ev given up against optimal play (% of a wager, per hand of the game)")
    ax.set_ylabel("rule")
    ax.set_title(f"What each rule of {card.name} costs")
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(d / f"cost-per-rule.{ext}", dpi=110)
        written.append(d / f"cost-per-rule.{ext}")
    plt.close(fig)
    # HTML
    trs = "".join(
        f"<tr><td>{i + 1}</td><td>{h.escape(rule.text())}</td>"
        f"<td>{float(per[i].frequency):.2%}</td><td>{float(per[i].cost):.3%}</td>"
        f"<td class=ex>{_card_html(ex[i]) if i in ex else 'rare'}</td></tr>"
        for i, rule in enumerate(card.rules))
    trs += (f"<tr><td>-</td><td>{h.escape(fb.text)}</td><td>{float(fb.frequency):.2%}</td>"
            f"<td>{float(fb.cost):.3%}</td><td class=ex>"
            f"{_card_html(ex[-1]) if -1 in ex else ''}</td></tr>")
    price_rows = "".join(f"<tr><td>{h.escape(n)}</td><td>{float(v):+.4%}</td>"
                         f"<td>{float(-v):+.4%}</td></tr>" for n, v in rows)
    png = base64.b64encode((d / "cost-per-rule.png").read_bytes()).decode()
    page = f"""<!doctype html><html lang=en><head><meta charset=utf-8>
<meta name=viewport content="width=device-width, initial-scale=1">
<title>Strategy card: {h.escape(card.name)}</title><style>
@page {{ size: A4; margin: 12mm; }}
body {{ font-family: system-ui, sans-serif; font-size: 10.5pt; max-width: 190mm; margin: auto;
       color: #111; }}
h1 {{ font-size: 15pt; margin: 0 0 4pt; }} h2 {{ font-size: 12pt; margin: 8pt 0 3pt; }}
table {{ border-collapse: collapse; width: 100%; }}
td, th {{ border-bottom: 1px solid #ccc; padding: 2pt 4pt; text-align: left;
         vertical-align: top; }}
.c {{ display: inline-block; border: 1px solid #888; border-radius: 2pt; padding: 0 2pt;
      margin-right: 1pt; font-weight: 600; background: #fff; }}
.r {{ color: #b3001b; }} .jk {{ background: #fde8f3; }} .bar {{ color: #999; }}
.ex {{ white-space: nowrap; }} p {{ margin: 3pt 0; }} img {{ max-width: 100%; }}
.small {{ color: #444; font-size: 9pt; }}
</style></head><body>
<h1>Strategy card: {h.escape(card.name)}</h1>
<p>Against the house way <b>{h.escape(pricing.way)}</b> ({h.escape(pricing.rules.describe())});
figures {h.escape(kind)}.</p>
<table><tr><th>play</th><th>ev per unit</th><th>house edge</th></tr>{price_rows}</table>
<p>The card closes <b>{float(pricing.gap_closed):.1%}</b> of the gap between copying the house
way and optimal play.</p>
<h2>The rules: the first that fits decides</h2>
<table><tr><th>#</th><th>rule</th><th>hands</th><th>costs</th><th>example</th></tr>{trs}</table>
<p class=small><i>hands</i>: the share of all hands the rule decides; <i>costs</i>: the ev given
up on them against optimal play, per hand of the game. {h.escape(how.replace('`', ''))}.</p>
<img alt="bar chart of what each rule costs" src="data:image/png;base64,{png}">
</body></html>"""
    (d / "card.html").write_text(page)
    written.append(d / "card.html")
    chrome = shutil.which("chromium") or shutil.which("chromium-browser")
    if chrome:
        try:
            subprocess.run([chrome, "--headless", "--no-sandbox", "--disable-gpu",
                            f"--print-to-pdf={d / 'card.pdf'}", "--no-pdf-header-footer",
                            (d / "card.html").resolve().as_uri()],
                           capture_output=True, timeout=120, check=True)
            written.append(d / "card.pdf")
        except (OSError, subprocess.SubprocessError):
            pass                               # the PDF is optional
    return written
