"""A par-sheet report of a whole-game analysis: one self-contained HTML page and its figures.

:func:`write_report` reads the ``summary.json`` an :func:`asiapoker.analysis.analyze` run
wrote and makes ``report.html`` (tables and figures, the pictures embedded so the page travels
alone) and the figures as PNG and SVG files beside it.  Needs matplotlib
(the ``plots`` extra: ``pip install '.[plots]'`` in a clone, ``pip install
'asiapoker[plots]'`` for a release).
"""

from __future__ import annotations

import base64
import html
import io
import os
from pathlib import Path
from typing import Any

from ._files import atomic_write, writable_target
from ._pdf import pdf_of
from ._runs import read_summary
from .analysis import COST_EDGES, EV_BINS, HAND_SHAPES
from .bonus import bonus_odds
from .errors import FileError, RunError, require_extra
from .rules import pays_text
from .suit_classes import PLAYER_CLASSES

__all__ = ["write_report"]

_LABEL = {"optimal": "optimal play", "house-way": "house-way play", "strategy": "strategy"}
_CSS = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { padding: .25rem .6rem; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
figure { margin: 1.5rem 0; } img { max-width: 100%; }
.note { color: #555; font-size: .9rem; }
@page { size: A4; margin: 12mm; }
@media print { body { margin: 0; max-width: none; } figure, table { break-inside: avoid; } }
"""


def _load(results: str | os.PathLike[str]) -> tuple[dict[str, Any], Path]:
    """The verified summary at ``results`` (a run directory or a summary file)."""
    path = Path(results)
    summary = path / "summary.json" if path.is_dir() else path
    if path.is_dir() and not summary.exists():
        parts = sorted(p.name for p in path.glob("summary-*.json"))
        if parts:
            raise RunError(f"{str(path)!r} holds no whole-run summary.json, only "
                                 f"{', '.join(parts)}: name one of them for its report, or "
                                 f"finish the run")
        raise FileError(f"no analysis results at {str(summary)!r} (run asiapoker analyze "
                             f"--out DIR first)")
    data = read_summary(summary)
    if "figures" not in data or "by_shape" not in data:
        raise FileError(f"{str(summary)!r} is not an analysis summary")
    return data, summary.parent


def _pct(x: float) -> str:
    return f"{x:+.4%}"


def _figures(data: dict[str, Any]) -> dict[str, Any]:
    """matplotlib figures of the summary, by file stem."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figs: dict[str, Any] = {}
    players = list(data["figures"])
    pays = float(data["rules"]["pays"])
    # ev over hands
    fig, ax = plt.subplots(figsize=(8, 3.6))
    width = 1 / EV_BINS
    for i, p in enumerate(players):
        counts = data["ev_hist"][p]
        total = sum(counts) or 1
        lefts = [b / EV_BINS * (pays + 1) - 1 for b in range(EV_BINS)]
        ax.bar([x + i * width * (pays + 1) / len(players) for x in lefts],
               [c / total for c in counts], width=width * (pays + 1) / len(players),
               align="edge", label=_LABEL[p])
    ax.set_xlabel("expected value of the hand (per unit wagered)")
    ax.set_ylabel("share of hands")
    ax.set_title("Expected value across player hands")
    ax.legend()
    fig.tight_layout()
    figs["ev-histogram"] = fig
    # house edge by shape
    shapes = [s for s in HAND_SHAPES if s in data["by_shape"]]
    fig, ax = plt.subplots(figsize=(8, 4))
    for i, p in enumerate(players):
        ax.barh([j + i / (len(players) + 1) for j in range(len(shapes))],
                [100 * data["by_shape"][s][p]["house_edge"] for s in shapes],
                height=1 / (len(players) + 1), label=_LABEL[p])
    ax.set_yticks([j + 0.3 for j in range(len(shapes))], shapes)
    ax.invert_yaxis()
    ax.axvline(0, color="#444", lw=0.8)
    ax.set_xlabel("house edge (%)")
    ax.set_title("House edge by hand shape")
    ax.legend()
    fig.tight_layout()
    figs["house-edge-by-shape"] = fig
    # house-way cost by shape
    fig, ax = plt.subplots(figsize=(8, 4))
    cost = [100 * (data["by_shape"][s]["optimal"]["ev"] - data["by_shape"][s]["house-way"]["ev"])
            for s in shapes]
    ax.barh(range(len(shapes)), cost, color="#c44")
    ax.set_yticks(range(len(shapes)), shapes)
    ax.invert_yaxis()
    ax.set_xlabel("ev given up by copying the house way (% of the wager)")
    ax.set_title("What the house way costs a player, by hand shape")
    fig.tight_layout()
    figs["house-way-cost-by-shape"] = fig
    return figs


def _table(head: list[str], rows: list[list[str]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>"
                   for r in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def write_report(results: str | os.PathLike[str],
                 out: str | os.PathLike[str] | None = None) -> Path:
    """Write the par-sheet page of the run at ``results`` (its directory or summary.json) to
    ``out`` (default ``report.html`` beside the summary) and the figures as PNG and SVG beside
    it; returns the page's path."""
    require_extra("matplotlib", "plots")
    data, where = _load(results)
    page = Path(out) if out is not None else where / "report.html"
    page.parent.mkdir(parents=True, exist_ok=True)
    files = _write(data, where, page.name)
    pdf = pdf_of(files[page.name])                        # printable, when it can be
    if pdf is not None:
        files = {Path(page.name).with_suffix(".pdf").name: pdf, **files}
    for name in files:             # every target checked before any is written
        writable_target(page.parent / name)
    for name, content in files.items():                   # the page last
        atomic_write(page.parent / name, content)
    return page


def bonus_section() -> str:
    """The par sheet's part on the bonus wager: for each pay table every category's
    combinations, probability, pay and return, exact over all C(53, 7) hands."""
    parts = ["<h2>The bonus wager</h2>",
             "<p class=note>Exact over all 154,143,080 seven-card hands (rule 4): each "
             "hand pays its best paying category; the return is what a category adds to the "
             "wager's expected value. The house edge is exact (a fraction of the counts).</p>"]
    for name in ("A", "B", "C"):
        odds = bonus_odds(name)
        rows = [[r.category or "no bonus hand (loses)", f"{r.count:,}",
                 f"{r.count / r.total:.8f}", f"{r.pays} to 1" if r.pays > 0 else "loses",
                 f"{r.count * r.pays / r.total:+.6f}"] for r in odds.rows]
        rows.append(["total", f"{odds.total:,}", "1.00000000", "", f"{odds.ev:+.6f}"])
        edge = -odds.ev_exact
        parts += [f"<h3>Pay table {html.escape(name)}: house edge {float(edge):.4%}</h3>",
                  _table(["hand", "combinations", "probability", "pays", "return"], rows),
                  f"<p class=note>House edge exactly {edge.numerator:,} / "
                  f"{edge.denominator:,}.</p>"]
    return "".join(parts)


def _costliest(data: dict[str, Any]) -> list[str]:
    """The costliest classes' table, when the run lists them (runs of this version do)."""
    costly = data.get("costliest", {}).get("house-way")
    if not costly:
        return []
    rows = [[html.escape(c["hand"]), f"{c['hands']:,}", f"{c['loss_float']:.4f}",
             html.escape(c["loss"])] for c in costly]
    return ["<h2>The costliest hands</h2>",
            "<p class=note>The classes of hands (up to suit renaming) where copying the house "
            "way gives up the most against the best setting, per unit wagered.</p>",
            _table(["hand", "hands in the class", "ev given up", "exact"], rows)]


def _write(data: dict[str, Any], where: Path, page_name: str) -> dict[str, bytes]:
    """The page and its figures, by file name, the page last."""
    import matplotlib.pyplot as plt

    players = list(data["figures"])
    rules = data["rules"]
    scope = (f"{data['sample']:,} random hands (seed {data['seed']}), an estimate"
             if data.get("sample") else
             f"all {data['classes']:,} classes of player hands, exact"
             if data["complete"] else f"{data['classes']:,} classes (a shard), exact")
    main_rows = []
    for p in players:
        f = data["figures"][p]
        row = [_LABEL[p], f"{f['p_win']:.6f}", f"{f['ev']:+.6f}", _pct(f["house_edge"]),
               f"{f['sd']:.4f}", f.get("house_edge_exact", "")]
        if f.get("ci95"):
            row[-1] = f"{f['ci95'][0]:+.5f} to {f['ci95'][1]:+.5f}"
        main_rows.append(row)
    gap = data["figures"]["optimal"]["ev"] - data["figures"]["house-way"]["ev"]
    shape_rows = []
    total_hands = sum(d["optimal"]["hands"] for d in data["by_shape"].values())
    for s in HAND_SHAPES:
        if s not in data["by_shape"]:
            continue
        d = data["by_shape"][s]
        shape_rows.append([s, f"{d['optimal']['hands'] / total_hands:.5f}"]
                          + [f"{d[p]['p_win']:.4f}" for p in players]
                          + [_pct(d[p]["house_edge"]) for p in players]
                          + [_pct(d["optimal"]["ev"] - d["house-way"]["ev"])])
    joker_rows = [[j, f"{d['optimal']['hands'] / total_hands:.5f}"]
                  + [_pct(d[p]["house_edge"]) for p in players]
                  for j, d in data["by_joker"].items()]
    edges = [str(e) for e in COST_EDGES]
    cost_rows = []
    for b in range(len(edges)):
        label = ("nothing" if b == 0 else
                 f"above {float(COST_EDGES[b - 1]):.3f} to {float(COST_EDGES[b]):.3f}")
        cost_rows.append([label] + [f"{data['cost_hist'][p][b] / total_hands:.5f}"
                                    for p in players if p in data["cost_hist"]])
    part = "" if data.get("complete", True) or data.get("sample") else (
        f", a part of the game ({data['classes']:,} of {PLAYER_CLASSES:,} classes)")
    parts = [
        f"<h1>Asia Poker par sheet{part}: house way {html.escape(data['way'])}</h1>",
        f"<p>Rules: A-2-3-4 {html.escape(rules['a234'])}, a win pays "
        f"{pays_text(rules['pays'])} to 1. "
        f"Figures over {scope}; every player hand against all {data['dealer_hands']:,} dealer "
        f"hands, the dealer setting by the house way. Way digest "
        f"<code>{data['way_digest'][:16]}</code>.</p>",
        "<h2>The game</h2>",
        _table(["player", "P(win)", "ev", "house edge", "sd",
                "95% confidence interval of the ev" if data.get("sample") else
                "house edge (exact)" if not part else "house edge (exact over these classes)"],
               main_rows),
        f"<p>Copying the house way costs the player {gap:.4%} of the wager against optimal "
        f"play.</p>",
        "<h2>By hand shape</h2>",
        _table(["shape", "share"] + [f"P(win) {_LABEL[p]}" for p in players]
               + [f"edge {_LABEL[p]}" for p in players] + ["house-way cost"], shape_rows),
        _table(["hands", "share"] + [f"edge {_LABEL[p]}" for p in players], joker_rows),
        "<h2>What the house way gives up</h2>",
        "<p class=note>Share of hands by the probability of winning that house-way play gives "
        "up against the best setting.</p>",
        _table(["P(win) given up"] + [_LABEL[p] for p in players if p in data["cost_hist"]],
               cost_rows),
        *_costliest(data),
    ]
    files: dict[str, bytes] = {}
    parts.append(bonus_section())
    for stem, fig in _figures(data).items():
        for ext in ("png", "svg"):
            buf = io.BytesIO()
            fig.savefig(buf, format=ext, dpi=110)
            files[f"{stem}.{ext}"] = buf.getvalue()
        plt.close(fig)
        alt = stem.replace("-", " ")
        parts.append(f"<figure><img alt=\"{html.escape(alt)}\" src=\"data:image/png;base64,"
                     f"{base64.b64encode(files[stem + '.png']).decode()}\"></figure>")
    parts.append(f"<p class=note>Made by asiapoker from {html.escape(str(where))}; results "
                 f"sha256 <code>{html.escape(str(data.get('results_sha256', '')))}</code>.</p>")
    doc = ("<!doctype html><html lang=en><head><meta charset=utf-8>"
           "<meta name=viewport content='width=device-width, initial-scale=1'>"
           f"<title>Asia Poker par sheet{'' if not part else ' (part)'}: "
           f"{html.escape(data['way'])}</title>"
           f"<style>{_CSS}</style></head><body>{''.join(parts)}</body></html>")
    files[page_name] = doc.encode("utf-8")
    return files
