"""The figures of docs/known-cards.md: what known cards are worth to a player who uses them,
against the default house way (standard) and rules (a234=high, pays 1:1).

    python tools/known_figures.py            # compute (about 25 minutes on 2 cores), then write
    python tools/known_figures.py --tables   # only rewrite the tables from the stored results

Each figure is a mean over deals drawn in blocks; block b of figure f is dealt from
``numpy.random.SeedSequence(SEED, spawn_key=(f, b))``, so any block can be recomputed alone
(the tests recompute one of each).  Every count is an integer: for each deal, the dealer hands
the best setting beats when the player uses what he sees, minus those that the setting best
for his own hand alone beats, both counted over the dealer hands consistent with what he sees
(a gain in wins; the gain in ev per wager is (pays + 1) * wins / hands).  The results go to
docs/known-cards.json (its sha256 is printed) and the tables between ``<!-- known:begin -->``
and ``<!-- known:end -->`` of docs/known-cards.md.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "known-cards.json"
DOC = ROOT / "docs" / "known-cards.md"
BEGIN, END = "<!-- known:begin -->", "<!-- known:end -->"
SEED = 20261201
WAY = "standard"
RANKS = "23456789TJQKA"
# figure -> (deals per block, blocks)
PLAN = {"two-spots": (200, 250), "six-spots": (100, 200),
        **{f"dealer-shows-{r}": (200, 80) for r in [*RANKS, "Jk"]}}
FIGURES = list(PLAN)


def _gains(hands: np.ndarray, dead: Any = None, dealer: Any = None) -> tuple[np.ndarray, ...]:
    """Per row: the wins of the best setting seeing the known cards, the wins (under the same
    knowledge) of the setting best for the hand alone, and the number of dealer hands."""
    import asiapoker as ap
    alone = ap.solve_many(hands, WAY, columns="summary").best
    seen = ap.solve_many(hands, WAY, dead=dead, dealer=dealer)
    rows = np.arange(len(hands))
    return seen.best_wins, seen.wins[rows, alone], seen.totals


def block(figure: str, b: int) -> dict[str, int]:
    """One block's integer sums: deals ``n``, spots ``spots``, dealer hands per spot
    ``hands``, gain in wins ``gain`` (and the sum of each deal's squared gain, ``gain2``),
    wins of the seeing player ``wins`` and of the player who sets each hand alone ``alone``."""
    n, _ = PLAN[figure]
    rng = np.random.default_rng(np.random.SeedSequence(SEED, spawn_key=(FIGURES.index(figure), b)))
    if figure in ("two-spots", "six-spots"):
        spots = 2 if figure == "two-spots" else 6
        decks = np.argsort(rng.random((n, 53)), axis=1).astype(np.int8)
        table = decks[:, :7 * spots].reshape(n, spots, 7)
        hands = table.reshape(-1, 7)
        dead = np.stack([np.delete(table, j, axis=1).reshape(n, -1) for j in range(spots)],
                        axis=1).reshape(n * spots, -1)
        best, alone, totals = _gains(np.ascontiguousarray(hands), dead=dead)
    else:
        spots = 1
        rank = figure.rsplit("-", 1)[1]
        cards = [52] if rank == "Jk" else [RANKS.index(rank) * 4 + s for s in range(4)]
        shown = rng.choice(cards, size=n)
        # the hand: seven of the 52 other cards, uniformly
        keys = rng.random((n, 53))
        keys[np.arange(n), shown] = 2.0
        hands = np.argsort(keys, axis=1)[:, :7].astype(np.int8)
        best, alone, totals = _gains(hands, dealer=shown[:, None].astype(np.int8))
    assert (totals == totals[0]).all()
    per_deal = (best - alone).reshape(n, spots).sum(1)
    return {"n": n, "spots": spots, "hands": int(totals[0]), "gain": int(per_deal.sum()),
            "gain2": int((per_deal.astype(object) ** 2).sum()), "wins": int(best.sum()),
            "alone": int(alone.sum())}


def summary(blocks: list[dict[str, int]], pays: float = 1.0) -> dict[str, float]:
    """A figure's per-spot means from its blocks: the gain in ev per wager with its 95%
    interval, and the ev of the seeing player and of the player who sets each hand alone."""
    n = sum(b["n"] for b in blocks)
    spots, hands = blocks[0]["spots"], blocks[0]["hands"]
    g = sum(b["gain"] for b in blocks)
    g2 = sum(b["gain2"] for b in blocks)
    mean = g / n
    var = (g2 - n * mean * mean) / (n - 1)
    scale = (pays + 1) / (spots * hands)                 # wins of a deal -> ev per spot
    spot_hands = n * spots * hands

    def ev(wins: int) -> float:
        return (wins * pays - (spot_hands - wins)) / spot_hands

    return {"deals": n, "gain": mean * scale, "half_width": 1.96 * math.sqrt(var / n) * scale,
            "ev_seeing": ev(sum(b["wins"] for b in blocks)),
            "ev_alone": ev(sum(b["alone"] for b in blocks))}


def compute() -> dict[str, Any]:
    """Every block of every figure."""
    out: dict[str, Any] = {"way": WAY, "rules": {"a234": "high", "pays": 1.0}, "seed": SEED,
                           "figures": {}}
    t0 = time.perf_counter()
    for f in FIGURES:
        _, nblocks = PLAN[f]
        out["figures"][f] = [block(f, b) for b in range(nblocks)]
        print(f"{f}: {summary(out['figures'][f])}  ({time.perf_counter() - t0:.0f} s)",
              flush=True)
    out["seconds"] = round(time.perf_counter() - t0)
    return out


def _pct(x: float) -> str:
    return f"{100 * x:+.4f}%"


def tables(data: dict[str, Any]) -> str:
    """The markdown tables of the results."""
    s = {f: summary(data["figures"][f]) for f in FIGURES}
    lines = [f"House way {data['way']}; a234={data['rules']['a234']}, pays "
             f"{data['rules']['pays']:g}:1; seed {data['seed']}.", "",
             "| the player sees | deals | gain per spot (95% interval) | ev seeing | "
             "ev setting alone |", "|---|---:|---:|---:|---:|"]
    for f, what in (("two-spots", "his second spot's hand (two spots)"),
                    ("six-spots", "all six spots' hands (a whole table)")):
        x = s[f]
        lines.append(f"| {what} | {x['deals']:,} | {_pct(x['gain'])} ± "
                     f"{100 * x['half_width']:.4f}% | {_pct(x['ev_seeing'])} | "
                     f"{_pct(x['ev_alone'])} |")
    lines += ["", "| the dealer shows | deals | gain per hand (95% interval) | ev seeing | "
              "ev setting alone |", "|---|---:|---:|---:|---:|"]
    for r in [*RANKS, "Jk"]:
        x = s[f"dealer-shows-{r}"]
        name = {"Jk": "the joker", "T": "a 10", "J": "a jack", "Q": "a queen", "K": "a king",
                "A": "an ace"}.get(r, f"a {r}")
        lines.append(f"| {name} | {x['deals']:,} | {_pct(x['gain'])} ± "
                     f"{100 * x['half_width']:.4f}% | {_pct(x['ev_seeing'])} | "
                     f"{_pct(x['ev_alone'])} |")
    # one card of the dealer's, whatever it is: ranks 4/53 each, the joker 1/53
    w = {r: (1 if r == "Jk" else 4) / 53 for r in [*RANKS, "Jk"]}
    gain = sum(w[r] * s[f"dealer-shows-{r}"]["gain"] for r in w)
    half = math.sqrt(sum((w[r] * s[f"dealer-shows-{r}"]["half_width"]) ** 2 for r in w))
    lines.append(f"| any one card (weighted 4/53 a rank, 1/53 the joker) | | {_pct(gain)} ± "
                 f"{100 * half:.4f}% | | |")
    return "\n".join(lines) + "\n"


def write_tables(data: dict[str, Any]) -> None:
    text = DOC.read_text()
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    DOC.write_text(f"{head}{BEGIN}\n{tables(data)}{END}{tail}")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv: list[str]) -> None:
    if "--tables" not in argv:
        data = compute()
        DATA.write_text(json.dumps(data, indent=1) + "\n")
    data = json.loads(DATA.read_text())
    write_tables(data)
    print(f"{DATA.relative_to(ROOT)} sha256 {digest(DATA)}; tables written to "
          f"{DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
