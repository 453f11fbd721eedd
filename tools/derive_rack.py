"""Derive a rack card (asiapoker.rack) that sets hands like a target way, greedily.

    python tools/derive_rack.py TARGET.npz --rules 40 --out src/asiapoker/_standard.py

TARGET.npz holds a class table (``splits``), such as the shipped equilibrium way.  For every
shape the card starts from the placement that agrees with the target on the most hands
(weighted by how often they are dealt); then, over all shapes at once, it adds the exception
(a placement under one or two conditions on ranks, "made" or the joker) that raises the
agreement most, until the card has ``--rules`` rules.  Agreement means the same strengths in
all three hands.  The card is written as Python source for review.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from asiapoker import HouseWay
from asiapoker._compile import class_table
from asiapoker.equilibrium import class_weights
from asiapoker.rack import (
    _FEATURES,
    _SHAPE_ID,
    _SHAPE_SIZES,
    SHAPES,
    Card,
    Rule,
    _best,
    hand_facts,
    placement_splits,
)
from asiapoker.rules import Rules

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
    weight: npt.NDArray[np.float64]
    feature: npt.NDArray[np.int64]
    placements: list[str]
    agree: npt.NDArray[np.bool_]          # placements x rows
    apply: npt.NDArray[np.bool_]
    fallback: npt.NDArray[np.bool_]
    rules: list[Rule] = field(default_factory=list)
    default: int = -1


def shape_data(shape: int, reps: npt.NDArray[np.int64], target: npt.NDArray[np.int32],
               weights: npt.NDArray[np.int64], top: int) -> ShapeData:
    name = list(SHAPES.values())[shape]
    f = hand_facts(reps)
    rows = np.arange(len(reps))
    eq_k = np.argmax((f.tri == target[:, None, :]).all(axis=2), axis=1)
    codes = f.sig[rows, eq_k]
    uniq, inv = np.unique(codes, return_inverse=True)
    score = np.bincount(inv, weights=weights.astype(np.float64))
    keep = uniq[np.argsort(-score)[:top]]
    placements = [decode(int(c), len(_SHAPE_SIZES[shape])) for c in keep]
    if f.feature[:, 7].any():
        placements.append("made")
    agree = np.zeros((len(placements), len(reps)), dtype=bool)
    apply = np.zeros_like(agree)
    for j, p in enumerate(placements):
        k = placement_splits(f, p)
        apply[j] = k >= 0
        agree[j] = apply[j] & (f.tri[rows, np.maximum(k, 0)] == target).all(axis=1)
    fb = _best(f.legal, f.tri, (1, 2, 0))
    fallback = (f.tri[rows, fb] == target).all(axis=1)
    return ShapeData(name, weights.astype(np.float64), f.feature, placements, agree, apply,
                     fallback)


def current(sd: ShapeData) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """(decided by an exception, agrees) per row under the shape's rules so far."""
    n = len(sd.weight)
    decided = np.zeros(n, dtype=bool)
    ok = np.zeros(n, dtype=bool)
    for r in sd.rules:
        j = sd.placements.index(r.placement)
        m = ~decided & sd.apply[j] & cond_mask(sd, r.conditions)
        ok[m] = sd.agree[j][m]
        decided |= m
    rest = ~decided
    if sd.default >= 0:
        d = sd.default
        ok[rest] = np.where(sd.apply[d][rest], sd.agree[d][rest], sd.fallback[rest])
    else:
        ok[rest] = sd.fallback[rest]
    return decided, ok


def cond_mask(sd: ShapeData, conds: tuple[tuple[str, str, int], ...]) -> npt.NDArray[np.bool_]:
    m = np.ones(len(sd.weight), dtype=bool)
    for feat, op, val in conds:
        col = sd.feature[:, _FEATURES.index(feat)]
        if op == "==":
            m &= col == val
        elif op == ">=":
            m &= (col >= val) & (col > 0)
        else:
            m &= (col <= val) & (col > 0)
    return m


def atoms(sd: ShapeData) -> list[tuple[str, str, int]]:
    out = []
    for fi in RANKED:
        vals = np.unique(sd.feature[:, fi])
        vals = vals[vals > 0]
        if len(vals) < 2:
            continue
        for v in vals[1:]:
            out.append((_FEATURES[fi], ">=", int(v)))
        for v in vals[:-1]:
            out.append((_FEATURES[fi], "<=", int(v)))
    for fi in (7, 8):
        if len(np.unique(sd.feature[:, fi])) > 1:
            out += [(_FEATURES[fi], "==", 1), (_FEATURES[fi], "==", 0)]
    return out


def best_exception(sd: ShapeData) -> tuple[float, Rule | None]:
    decided, ok = current(sd)
    base = np.where(ok, sd.weight, 0.0)
    at = atoms(sd)
    masks = [cond_mask(sd, (a,)) for a in at]
    best: tuple[float, Rule | None] = (0.0, None)
    for j, p in enumerate(sd.placements):
        elig = ~decided & sd.apply[j]
        gain = np.where(elig, np.where(sd.agree[j], sd.weight, 0.0) - base, 0.0)
        if gain.max(initial=0.0) <= 0:
            continue
        single = [float(gain[m].sum()) for m in masks]
        for a, g in zip(at, single, strict=True):
            if g > best[0]:
                best = (g, Rule(sd.name, p, (a,)))
        top = np.argsort(single)[-12:]
        for x, y in itertools.combinations(top, 2):
            if at[x][0] == at[y][0] and at[x][1] == at[y][1]:
                continue
            g = float(gain[masks[x] & masks[y]].sum())
            if g > best[0] * 1.02:
                best = (g, Rule(sd.name, p, (at[x], at[y])))
    return best


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("target")
    ap.add_argument("--rules", type=int, default=40)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--out")
    ap.add_argument("--name", default="standard")
    args = ap.parse_args()
    keys, reps = class_table()
    with np.load(args.target) as data:
        target_way = HouseWay.from_table(data["splits"], "target")
    _, target = target_way._triples(reps, Rules())
    weights = class_weights()
    total = float(weights.sum())
    shapes = []
    ranks = np.where(reps == 52, 12, reps >> 2)
    cnt = np.zeros((len(reps), 13), dtype=np.int64)
    np.add.at(cnt, (np.arange(len(reps))[:, None], ranks), 1)
    sizes = -np.sort(-cnt, axis=1)
    for s, sz in enumerate(_SHAPE_SIZES):
        pad = np.array(list(sz) + [0] * (13 - len(sz)))
        idx = np.flatnonzero((sizes == pad).all(axis=1))
        sd = shape_data(s, reps[idx], target[idx], weights[idx], args.top)
        totals = [float(sd.weight[sd.agree[j]].sum()) for j in range(len(sd.placements))]
        fb = float(sd.weight[sd.fallback].sum())
        if max(totals, default=0.0) > fb:
            sd.default = int(np.argmax(totals))
        shapes.append(sd)
        _, ok = current(sd)
        print(f"{sd.name:<28} {sd.weight.sum() / total:8.4%} of hands, default "
              f"{sd.placements[sd.default] if sd.default >= 0 else 'fallback'!r} agrees on "
              f"{sd.weight[ok].sum() / sd.weight.sum():7.2%}", file=sys.stderr)
    n_rules = sum(1 for sd in shapes if sd.default >= 0)
    while n_rules < args.rules:
        cands = [(best_exception(sd), sd) for sd in shapes]
        (gain, rule), sd = max(cands, key=lambda x: x[0][0])
        if rule is None or gain <= 0:
            break
        sd.rules.append(rule)
        n_rules += 1
        print(f"+ {gain / total:8.4%}  {rule.text()}", file=sys.stderr)
    agree = sum(float(sd.weight[current(sd)[1]].sum()) for sd in shapes)
    print(f"agreement with the target: {agree / total:.4%} of hands", file=sys.stderr)
    rules = []
    for sd in shapes:
        rules += sd.rules
        if sd.default >= 0:
            rules.append(Rule(sd.name, sd.placements[sd.default]))
    card = Card(args.name, tuple(rules))
    src = ['"""The rack card of the built-in house way "standard" (asiapoker.rack), derived',
           "from the equilibrium way by tools/derive_rack.py and reviewed by hand.", '"""', "",
           "from .rack import Card, Rule", "", "STANDARD = Card(", f"    {args.name!r},", "    ("]
    for r in rules:
        src.append(f"        Rule({r.shape!r}, {r.placement!r}, {r.conditions!r}),")
    src += ["    ),", ")", ""]
    text = "\n".join(src)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
    else:
        print(text)
    for line in card.text():
        print(line, file=sys.stderr)
    _ = keys, _SHAPE_ID
    return 0


if __name__ == "__main__":
    sys.exit(main())
