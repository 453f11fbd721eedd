"""Collect the exact whole-game figures of full ``asiapoker analyze`` runs into the package
(``src/asiapoker/data/analysis.json``) and the tables of docs/results.md and docs/analysis.md, and
the strategy cards' prices (docs/cards/*/pricing.json) into docs/results.md and docs/cards.

    python tools/collect_analysis.py standard=RUNDIR:SECONDS equilibrium=RUNDIR:SECONDS ...
    python tools/collect_analysis.py            # only the tables, from the shipped data

Each RUNDIR is a finished run of ``asiapoker analyze --way WAY --out RUNDIR`` (default rules);
SECONDS is the wall time the command took on this machine.  Ways not given keep the figures
the shipped data holds.  The tables are written between
``<!-- analysis:begin -->`` and ``<!-- analysis:end -->``; nothing there is edited by hand.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "asiapoker" / "data" / "analysis.json"
CARD_DIRS = ("standard", "standard-40", "equilibrium", "equilibrium-40", "classic",
             "medium-first", "high-first")
"""The shipped cards' folders under docs/cards, in the order the tables list them."""
BEGIN, END = "<!-- analysis:begin -->", "<!-- analysis:end -->"
COSTLIEST = 3
"""The costliest classes of each way the shipped data and docs/results.md keep."""


def main(argv: list[str]) -> None:
    """With runs: collect them into the shipped data, then write the tables; without: write
    the tables from the shipped data alone."""
    if argv:
        collect(argv)
    for doc, text in tables().items():
        doc.write_text(text)
    print(f"wrote the tables from {DATA.relative_to(ROOT)} and docs/cards")


def collect(argv: list[str]) -> None:
    """Put the figures of finished runs (verified summaries) into the shipped data."""
    from asiapoker._runs import read_summary
    runs = json.loads(DATA.read_text())["runs"]      # the ways not given keep their figures
    for arg in argv:
        way, _, rest = arg.partition("=")
        where, _, seconds = rest.rpartition(":")
        s = read_summary(Path(where) / "summary.json")
        assert s["complete"] and s["way"] == way and s["rules"] == {"a234": "high", "pays": 1.0}
        runs[way] = {
            "command": f"asiapoker analyze --way {way} --out runs/{way}",
            "seconds": int(float(seconds)),
            "classes": s["classes"],
            "way_digest": s["way_digest"],
            "results_sha256": s["results_sha256"],
            **{p: {k: s["figures"][p][k] for k in ("hands", "wins", "p_win", "house_edge",
                                                   "house_edge_exact", "sd")}
               for p in ("optimal", "house-way")},
            "costliest": s["costliest"]["house-way"][:COSTLIEST],
        }
        for p in ("optimal", "house-way"):         # the fraction is the integers' quotient
            f = runs[way][p]
            assert Fraction(f["house_edge_exact"]) == 1 - Fraction(
                2 * f["wins"], f["hands"] * 53_524_680)
    DATA.write_text(json.dumps({"rules": {"a234": "high", "pays": 1.0}, "runs": runs},
                               indent=1) + "\n")


def tables() -> dict[Path, str]:
    """Every page that quotes the shipped figures, with its tables written anew from them."""
    runs = json.loads(DATA.read_text())["runs"]
    pages = {p: p.read_text() for p in (ROOT / "docs" / "results.md",
                                         ROOT / "docs" / "analysis.md",
                                         ROOT / "docs" / "cards" / "README.md")}
    rows = ["| way | house edge, optimal play | house edge, house-way play | cost of the house "
            "way | results sha256 |", "|---|---|---|---|---|"]
    for way, r in runs.items():
        opt, hw = r["optimal"]["house_edge"], r["house-way"]["house_edge"]
        rows.append(f"| `{way}` | {opt:+.4%} | {hw:+.4%} | {hw - opt:.4%} | "
                    f"`{r['results_sha256'][:16]}` |")
    table = "\n".join(rows)
    for doc in (ROOT / "docs" / "results.md", ROOT / "docs" / "analysis.md"):
        text = pages[doc]
        i, j = text.index(BEGIN), text.index(END)
        pages[doc] = text[:i + len(BEGIN)] + "\n" + table + "\n" + text[j:]
    cards = []
    for way in CARD_DIRS:
        pj = ROOT / "docs" / "cards" / way / "pricing.json"
        if not pj.exists():
            continue
        pr = json.loads(pj.read_text())
        n = len(json.loads((pj.parent / "card.json").read_text())["rules"])
        ev = pr["ev"]
        # a sample's 95% interval of the share closed, from the card's loss against optimal
        half = 1.96 * pr["se"].get("card-vs-optimal", 0.0) / (ev["optimal"] - ev["house-way"])
        kind = ("exact" if pr["exact"] else
                f"\u00b1{half:.1%}, {pr['hands']:,} hands")
        mark = "" if pr["exact"] else " *"      # a sample's figures, marked as such
        cards.append(f"| [{pr['card']}]({way}/card.md) | "
                     f"`{pr['way']}` | {n} | {ev['optimal']:+.4%}{mark} | "
                     f"{ev['card']:+.4%}{mark} | {ev['house-way']:+.4%}{mark} | "
                     f"{pr['gap_closed']:.1%} ({kind}) |")
    for doc, prefix in ((ROOT / "docs" / "cards" / "README.md", ""),
                        (ROOT / "docs" / "results.md", "cards/")):
        text = pages[doc]
        b, e = "<!-- cards:begin -->", "<!-- cards:end -->"
        if b in text:
            i, j = text.index(b), text.index(e)
            body = "\n".join(c.replace("](", "](" + prefix, 1) for c in cards)
            pages[doc] = text[:i + len(b)] + "\n" + body + "\n" + text[j:]
    doc = ROOT / "docs" / "results.md"
    rows = ["| way | hand (a class up to suit renaming) | hands in it | given up by copying the "
            "way |", "|---|---|---|---|"]
    for way, r in runs.items():
        for c in r.get("costliest", []):
            rows.append(f"| `{way}` | `{c['hand']}` | {c['hands']} | {c['loss_float']:.4f} |")
    b, e = "<!-- costliest:begin -->", "<!-- costliest:end -->"
    i, j = pages[doc].index(b), pages[doc].index(e)
    pages[doc] = pages[doc][:i + len(b)] + "\n" + "\n".join(rows) + "\n" + pages[doc][j:]
    b, e = "<!-- game-value:begin -->", "<!-- game-value:end -->"
    i, j = pages[doc].index(b), pages[doc].index(e)
    pages[doc] = pages[doc][:i + len(b)] + "\n" + game_value_tables(runs) + "\n" + pages[doc][j:]
    return pages


def game_value_tables(runs: dict[str, dict[str, object]]) -> str:
    """The bounds on the value of the game, step by step, and each way's distance below it,
    from the shipped game-value file."""
    from asiapoker.game_value import load_game_value
    gv = load_game_value()
    lines = ["| bound | house edge | made from |", "|---|---|---|",
             f"| lower | {float(gv.lower):+.5%} | step {gv.lower_step}: "
             f"{gv.mix_text('dealer')} against the player's best response |",
             f"| upper | {float(gv.upper):+.5%} | step {gv.upper_step}: the dealer's best "
             f"response to {gv.mix_text('player')} |",
             f"| gap | {float(gv.gap):.5%} | |", "",
             "| step | pools (dealer x player) | lower | upper | gap | the pools' own game |",
             "|---|---|---|---|---|---|"]
    for b in gv.steps:
        lines.append(f"| {b.step} | {len(b.dealer_mix)} x {len(b.player_mix)} | "
                     f"{float(b.lower):+.5%} | {float(b.upper):+.5%} | {float(b.gap):.5%} | "
                     f"{float(b.restricted):+.5%} |")
    lines += ["", "| way | house edge against optimal play | below the value by |",
              "|---|---|---|"]
    for way in ("equilibrium", "standard", "classic", "medium-first", "high-first"):
        he = Fraction(runs[way]["optimal"]["house_edge_exact"])  # type: ignore[index]
        lo, hi = gv.below_value(he)
        lines.append(f"| `{way}` | {float(he):+.4%} | {float(lo):.4%} to {float(hi):.4%} |")
    lines.append(f"\n(`{gv.sha256[:16]}`: the shipped file's sha256, `asiapoker game-value` "
                 f"prints it all)")
    return "\n".join(lines)


if __name__ == "__main__":
    main(sys.argv[1:])
