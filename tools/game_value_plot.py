"""Draw docs/game-value.png from the shipped game-value file: each double-oracle step's lower
and upper bound on the value of the game, and the gap between them (matplotlib, the
``analysis`` extra).

    python tools/game_value_plot.py [OUT.png]
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.ticker import FuncFormatter, MaxNLocator

from asiapoker.game_value import load_game_value

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "game-value.png"
    gv = load_game_value()
    steps = [b.step for b in gv.steps]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True,
                                      gridspec_kw={"height_ratios": [3, 2]})
    top.plot(steps, [100 * float(b.upper) for b in gv.steps], "o-", color="#b03a2e",
             label="upper bound: the dealer's best response to the player mix")
    top.plot(steps, [100 * float(b.restricted) for b in gv.steps], ".:", color="#7f8c8d",
             label="the value of the game between the two pools")
    top.plot(steps, [100 * float(b.lower) for b in gv.steps], "o-", color="#1f618d",
             label="lower bound: the dealer mix against perfect play")
    top.set_ylabel("house edge")
    top.set_title("The value of the game: exact bounds, step by step (double oracle)")
    top.legend(fontsize=8, loc="best")
    top.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:.3f} %"))
    top.grid(alpha=0.3)
    bottom.semilogy(steps, [100 * float(b.gap) for b in gv.steps], "o-", color="#222")
    bottom.axhline(0.01, color="#888", ls="--", lw=1)
    bottom.text(steps[-1], 0.0105, "0.01 %", ha="right", va="bottom", fontsize=8,
                color="#555")
    bottom.set_ylabel("gap (of a wager)")
    bottom.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g} %"))
    bottom.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
    bottom.xaxis.set_major_locator(MaxNLocator(integer=True))
    bottom.set_xlabel("step (one house way added to each side's pool per step)")
    bottom.grid(alpha=0.3, which="both")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(out)


if __name__ == "__main__":
    main()
