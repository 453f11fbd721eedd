"""The table of built-in house ways in docs/results.md, exact over the whole game: the cost of
copying the way (house-way play against optimal play), the share of hands it sets as the
equilibrium way does, and the house edge of house way against house way and of optimal play
against the way.

    python tools/way_figures.py            (about 20 seconds)

The house edges are the shipped whole-game figures (``src/asiapoker/data/analysis.json``, made
by ``tools/collect_analysis.py`` from whole runs); the agreement is
:func:`asiapoker.equilibrium.changed_hands`, an exact count of the C(53, 7) hands.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

from asiapoker import HouseWay
from asiapoker.equilibrium import HANDS, changed_hands
from asiapoker.rules import Rules

DATA = Path(__file__).resolve().parents[1] / "src" / "asiapoker" / "data" / "analysis.json"


def main() -> int:
    runs = json.loads(DATA.read_text())["runs"]
    eq = HouseWay.named("equilibrium")
    print("| way | cost of the way | sets like `equilibrium` | house edge, way against way "
          "| house edge against optimal play |")
    print("|---|---|---|---|---|")
    for name, r in runs.items():
        hw = Fraction(r["house-way"]["house_edge_exact"])
        opt = Fraction(r["optimal"]["house_edge_exact"])
        same = HANDS - changed_hands(HouseWay.named(name), eq, Rules())
        print(f"| `{name}`{' (default)' if name == 'standard' else ''} | {float(hw - opt):.4%} "
              f"| {same / HANDS:.2%} ({same:,} hands) | {float(hw):+.4%} | {float(opt):+.4%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
