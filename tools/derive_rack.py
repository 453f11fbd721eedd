"""Derive a rack card (asiapoker.rack) that loses least against players who set by a way.

    python tools/derive_rack.py --against equilibrium --hands 60000 --rules 40 \
        --out src/asiapoker/_standard.py

The dealer's exact count of every split of ``--hands`` random seven-card hands is computed
against players who set by the way (the count of player hands that do not beat it on two of
three: SPEC 5.6 c).  A rule's cost on a hand is the best split's count minus the count of the
split the rule picks.  For every shape the card starts from the placement of least cost; then,
over all shapes at once, it adds the exception (a placement under one or two conditions) that
lowers the total cost most, until the card has ``--rules`` rules or no exception saves more
than ``--min-gain`` of a wager per hand.  The card is written as Python source for review;
the log shows each rule's saving.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from asiapoker import HouseWay
from asiapoker.analysis import random_hands
from asiapoker.equilibrium import best_response_splits
from asiapoker.rack import (
    _FEATURES,
    _MADE_ORDER,
    _PRIORITY,
    _SHAPE_SIZES,
    SHAPES,
    Card,
    HandFacts,
    Rule,
    _best,
    hand_facts,
    placement_splits,
)
from asiapoker.rules import Rules
from asiapoker.solver import DEALER_HANDS, model

RANKED = [i for i, f in enumerate(_FEATURES) if f.startswith(("group", "single"))]


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


def _sub(f: HandFacts, idx: npt.NDArray[np.intp]) -> HandFacts:
    return HandFacts(f.shape[idx], f.label[idx], f.feature[idx], f.sig[idx], f.tri[idx],
                     f.legal[idx])


def shape_data(shape: int, f: HandFacts, counts: npt.NDArray[np.int64],
               top: int, base: tuple[tuple[str, str, int], ...],
               target: npt.NDArray[np.int32] | None, mix: float = 1.0) -> ShapeData:
    """Costs of the candidate placements: the dealer's extra losses (``counts``), or, with a
    ``target`` (the way's own strengths), DEALER_HANDS for every hand set differently."""
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
    placements = [decode(int(c), len(_SHAPE_SIZES[shape])) for c in keep]
    placements += list(_PRIORITY)
    if f.feature[:, 7].any():
        placements += list(_MADE_ORDER)
    cost = np.full((len(placements), n), np.inf)
    for j, p in enumerate(placements):
        k = placement_splits(f, p)
        ok = k >= 0
        cost[j, ok] = best[ok] - counts[rows[ok], k[ok]]
    fb = _best(f.legal, f.tri, (1, 2, 0))
    fallback = best - counts[rows, fb]
    return ShapeData(name, f.feature, placements, cost, fallback, base)


def cond_mask(sd: ShapeData, conds: tuple[tuple[str, str, int], ...]) -> npt.NDArray[np.bool_]:
    m = np.ones(sd.feature.shape[0], dtype=bool)
    for feat, op, val in conds:
        col = sd.feature[:, _FEATURES.index(feat)]
        if op == "==":
            m &= col == val
        elif op == ">=":
            m &= (col >= val) & (col > 0)
        else:
            m &= (col <= val) & (col > 0)
    return m


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
            out.append((_FEATURES[fi], ">=", int(v)))
        for v in vals[:-1]:
            out.append((_FEATURES[fi], "<=", int(v)))
    for fi in (8, 9, 10):
        if len(np.unique(sd.feature[:, fi])) > 1:
            out += [(_FEATURES[fi], "==", 1), (_FEATURES[fi], "==", 0)]
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


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--against", default="equilibrium",
                    help="the way the players set by: a name or a saved table .npz")
    ap.add_argument("--hands", type=int, default=60_000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--rules", type=int, default=40)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--min-gain", type=float, default=0.0002,
                    help="stop when the best exception saves less than this per hand")
    ap.add_argument("--mix", type=float, default=0.1,
                    help="with --objective mixed: what setting a hand otherwise than the way "
                         "costs, in wagers, on top of the player's loss")
    ap.add_argument("--objective", choices=("mixed", "player", "agree", "cost"),
                    default="mixed",
                    help="player: set each hand as a player would against a dealer who sets "
                         "by the way (the loss a player copying the card suffers, which is "
                         "what exploitability measures when the card deals like the way); "
                         "agree: set hands as the way does; cost: lose least to players who "
                         "set by the way")
    ap.add_argument("--br", action="store_true",
                    help="fit the dealer's best response to the way (on the sample) instead "
                         "of the way itself")
    ap.add_argument("--out")
    ap.add_argument("--name", default="standard")
    args = ap.parse_args()
    t0 = time.time()
    way = (HouseWay.load(args.against) if args.against.endswith(".npz")
           else HouseWay.named(args.against))
    rows = random_hands(args.hands, args.seed).astype(np.int64)
    counts = np.zeros((len(rows), 105), dtype=np.int64)
    if args.objective == "agree":
        args.mix = 1.0
    else:
        m = model(way, Rules())
        totals = np.empty(len(rows), dtype=np.int64)
        side = 1 if args.objective == "cost" else 0    # mixed, player: the player's side
        for lo in range(0, len(rows), 4096):
            m.solve_rows(rows[lo:lo + 4096], counts[lo:lo + 4096], totals[lo:lo + 4096], side)
        print(f"counted {len(rows):,} hands against {way.name} in {time.time() - t0:.0f} s",
              file=sys.stderr)
    f = hand_facts(rows)
    if args.br:
        # the target is the dealer's best response to the way, on the sampled hands
        k = best_response_splits(way, Rules(), "dealer", rows, workers=2).astype(np.int64)
        target = f.tri[np.arange(len(rows)), k]
        print(f"best response to {way.name} on the sample in {time.time() - t0:.0f} s",
              file=sys.stderr)
    else:
        _, target = way._triples(rows, Rules())
    n_all = len(rows)
    unit = DEALER_HANDS * n_all / 2     # a player win costs the dealer 2 units of 1 wager
    shapes = []
    groups = []
    for s in range(len(SHAPES)):
        made = f.feature[:, 7] == 1
        for base, m in (((("made", "==", 1),), made), ((), ~made)):
            idx = np.flatnonzero((f.shape == s) & m)
            if len(idx):
                groups.append((s, base, idx))
    for s, base, idx in groups:
        sd = shape_data(s, _sub(f, idx), counts[idx], args.top, base,
                        target[idx] if args.objective in ("agree", "mixed") else None,
                        args.mix)
        totals_j = [float(c[np.isfinite(c)].sum() + sd.fallback[~np.isfinite(c)].sum())
                    for c in sd.cost]
        fb = float(sd.fallback.sum())
        if totals_j and min(totals_j) < fb:
            sd.default = int(np.argmin(totals_j))
        shapes.append(sd)
        _, cost = current(sd)
        print(f"{sd.name + (' (made)' if base else ''):<28} {len(idx) / n_all:8.4%} "
              "of hands, default "
              f"{sd.placements[sd.default] if sd.default >= 0 else 'fallback'!r} costs "
              f"{cost.sum() / unit:.4%} of a wager per hand", file=sys.stderr)
    def n_rules() -> int:
        return sum(len(sd.rules) + (sd.default >= 0) for sd in shapes)

    while n_rules() < args.rules:
        cands = [(best_exception(sd), sd) for sd in shapes]
        (gain, rule), sd = max(cands, key=lambda x: x[0][0])
        if rule is None or gain / unit <= args.min_gain:
            break
        if rule.conditions == sd.base:      # a better default for the group
            sd.default = sd.placements.index(rule.placement)
        else:
            sd.rules.append(rule)
        print(f"- {gain / unit:8.4%}  {rule.text()}", file=sys.stderr)
    left = sum(float(current(sd)[1].sum()) for sd in shapes)
    print(f"cost of the card against {way.name}: {left / unit:.4%} of a wager per hand "
          "(the dealer's extra losses, against players who set by that way)", file=sys.stderr)
    rules = []
    for sd in shapes:
        rules += sd.rules
        if sd.default >= 0:
            rules.append(Rule(sd.name, sd.placements[sd.default], sd.base))
    card = Card(args.name, tuple(rules))
    src = ['"""The rack card of the built-in house way "standard" (see asiapoker.rack), derived',
           "by::", "",
           f"    python tools/derive_rack.py --against {args.against} --hands {args.hands} \\",
           f"        --seed {args.seed} --rules {args.rules} --objective {args.objective}", "",
           "See docs/house-ways.md for the rules in words.", '"""', "",
           "from .rack import Card, Rule", "", "STANDARD = Card(", f"    {args.name!r},", "    ("]
    for r in rules:
        line = f"        Rule({r.shape!r}, {r.placement!r}, {r.conditions!r}),"
        if len(line) > 99:
            src.append(f"        Rule({r.shape!r}, {r.placement!r},")
            src.append(f"             {r.conditions!r}),")
        else:
            src.append(line)
    src += ["    ),", ")", ""]
    text = "\n".join(src)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
    else:
        print(text)
    for line in card.text():
        print(line, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
