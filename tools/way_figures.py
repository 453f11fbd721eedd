"""The table of built-in house ways in docs/results.md: exploitability, agreement with the
equilibrium way, and the house edge of house way against house way.

    python tools/way_figures.py --hands 20000 --rounds 2000000

- exploitability: :func:`asiapoker.exploitability` on ``--hands`` random hands (seed 0);
- agreement: the share of all C(53, 7) hands (weighted exactly by class) that the way sets to
  the same strengths as the equilibrium way;
- house edge: :func:`asiapoker.simulate`, house way against house way, ``--rounds`` rounds of
  six seats (seed 1).
"""

from __future__ import annotations

import argparse
import sys
import time

from asiapoker import HouseWay, exploitability, simulate
from asiapoker.equilibrium import changed_share
from asiapoker.rules import Rules

WAYS = ("standard", "equilibrium", "classic", "medium-first", "high-first")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--rounds", type=int, default=2_000_000)
    args = ap.parse_args()
    eq = HouseWay.named("equilibrium")
    print("| way | exploitability (95% CI) | sets like equilibrium | house edge, way vs way "
          "(95% CI) | optimal play's edge |")
    print("|---|---|---|---|---|")
    for name in WAYS:
        t = time.time()
        way = HouseWay.named(name)
        e = exploitability(way, hands=args.hands, seed=0)
        agree = 1 - changed_share(way, eq, Rules())
        sim = simulate(args.rounds, seats=6, way=way, seed=1, progress=False)
        lo, hi = e.gain.ci95
        slo, shi = sim.confidence_interval
        print(f"| `{name}` | {e.gain.mean:.2%} ({lo:.2%} to {hi:.2%}) | {agree:.1%} | "
              f"{sim.house_edge:.2%} ({slo:.2%} to {shi:.2%}) | "
              f"{e.house_edge_optimal.mean:+.2%} |", flush=True)
        print(f"  ({name}: {time.time() - t:.0f} s)", file=sys.stderr)
    print(f"\nexploitability and optimal play's edge from {args.hands:,} random hands (seed 0); "
          f"house edge from {args.rounds:,} rounds x 6 seats (seed 1); a234=high, pays 1:1")
    return 0


if __name__ == "__main__":
    sys.exit(main())
