"""Digests of ``count_splits`` over fixed hands, every kind of house way, both A-2-3-4 options
and known cards: run it under two builds and compare the lines (they must be identical).

    python tools/count_digests.py [--hands 500] [--slowest 100] > new.txt
    PYTHONPATH=/path/to/old/src python tools/count_digests.py > old.txt; diff old.txt new.txt

Each line names one configuration and the sha256 of its int64 counts.  Hands: ``--hands``
random ones (seed 1), then ``--slowest`` of the slowest kind (a suit holding 4+ of the hand's
cards, or 3+ with the joker), seed 2.  Ways: ``standard`` (a rack card), ``equilibrium-v1`` (a
stored class table, labelled ``equilibrium`` so digests recorded before it had its versioned
name compare), ``classic`` (built into the core), a priority order, ``from_table`` (the splits
``high-first`` gives every class), and ``from_function`` (``examples/rack_card.py``).  Known
cards: none, three dead cards, one card the dealer shows, and two on the first fifth of the
random hands (fixed seeds).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import numpy as np

from asiapoker import HouseWay, Rules
from asiapoker.sampling import random_hands
from asiapoker.solver import count_splits

ROOT = Path(__file__).resolve().parents[1]


def slow_hands(n: int, seed: int) -> np.ndarray:
    """``n`` random hands with a suit holding 4+ of their cards (3+ with the joker)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        h = rng.choice(53, 7, replace=False)
        suits = np.bincount(h[h < 52] % 4, minlength=4)
        if suits.max() + (52 in h) >= 4:
            out.append(h)
    return np.array(out, dtype=np.int8)


def ways() -> list[tuple[str, HouseWay]]:
    sys.path.insert(0, str(ROOT / "examples"))
    from rack_card import VERSION, rack_card

    from asiapoker._compile import class_table

    table = HouseWay.named("high-first").splits(class_table()[1])
    return [("standard", HouseWay.named("standard")),
            ("equilibrium", HouseWay.named("equilibrium-v1")),
            ("classic", HouseWay.named("classic")),
            ("priority", HouseWay.priority("low", "medium", "high")),
            ("from_table", HouseWay.from_table(table, "table-copy")),
            ("from_function", HouseWay.from_function(rack_card, "rack-card", VERSION))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=500)
    ap.add_argument("--slowest", type=int, default=100)
    args = ap.parse_args()
    n = args.hands
    hands = np.concatenate([random_hands(n, 1), slow_hands(args.slowest, 2)]).astype(np.int8)
    rng = np.random.default_rng(3)
    rest = np.array([rng.permutation([c for c in range(53) if c not in h]) for h in hands])
    known = {"none": {}, "dead3": {"dead": rest[:, :3]}, "shown1": {"dealer": rest[:, 3:4]},
             "shown2": {"dealer": rest[: n // 5, 4:6]}}
    for name, way in ways():
        for a234 in ("high", "low"):
            for kname, kw in known.items():
                rows = hands if kname != "shown2" else hands[: n // 5]
                for side in ("player", "dealer") if kname == "none" else ("player",):
                    counts = count_splits(rows, way, Rules(a234=a234), side, **kw)
                    digest = hashlib.sha256(np.ascontiguousarray(counts, np.int64)).hexdigest()
                    print(f"{name} a234={a234} {kname} {side}: {digest}", flush=True)


if __name__ == "__main__":
    main()
