"""A strategy card a person can print: card.json, card.md, card.html (one page) with example
hands, the price and a plot of the cost per rule, and card.pdf through a headless Chromium.
"""

from __future__ import annotations

import base64
import html as h
import io
import json
import shlex
from pathlib import Path
from typing import Any

from ._files import atomic_write, writable_target
from ._pdf import pdf_of
from .card_search import Generated
from .errors import MissingExtraError, require_extra
from .house_way import WayLike
from .pricing import Pricing
from .rack import (
    RackCard,
)
from .rules import Rules
from .sampling import random_hands
from .setting import setting_of_split
from .strategy import card_splits, card_to_json

__all__ = ["write_card"]

# ---------------------------------------------------------------------------------------------
# a card a person can print
# ---------------------------------------------------------------------------------------------

_SUIT_SYM = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


EXAMPLE_HANDS = 4000
"""Random hands (seed 2) the card page takes its example hands from."""


def _examples(card: RackCard, rules: Rules, way: WayLike, n: int = EXAMPLE_HANDS,
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
    return (f"`{text.replace('|', '/')}`" if text else
            f"(rare: no example among the page's {EXAMPLE_HANDS:,} example hands)")


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


def command_line(card: RackCard, pricing: Pricing, generated: Generated | None, seed: int = 0,
                 exact: str | None = None, card_file: str | None = None) -> str:
    """The ``asiapoker card`` command that makes ``card`` and its figures again: every option
    that changes a figure (the way, the rule options, the search's and the pricing's sample or
    run)."""
    parts = ["asiapoker card", f"--way {pricing.way}"]
    if pricing.rules.a234 != "high":
        parts.append(f"--a234 {pricing.rules.a234}")
    if pricing.rules.pays != 1:
        parts.append(f"--pays {pricing.rules.pays:g}")
    if generated is not None:
        parts.append(f"--max-rules {len(card.rules)}")
        parts.append(f"--run {shlex.quote(generated.run)}" if generated.run is not None else
                     f"--hands {generated.hands}")
        if generated.named is not None:              # the card's own name (a tier's)
            parts.append(f"--name {shlex.quote(card.name)}")
    elif card_file is not None:
        parts.append(f"--card {shlex.quote(card_file)}")
    if pricing.exact and generated is not None and exact == generated.run:
        pass                                    # --run prices from the same run
    elif pricing.exact:
        parts.append(f"--exact {shlex.quote(exact) if exact else 'RUNDIR'}")
    else:
        parts.append(f"--price-hands {pricing.hands}")
    parts += [f"--seed {generated.seed if generated is not None else seed}", "--out DIR"]
    return " ".join(parts)


def write_card(card: RackCard, pricing: Pricing, out: str | Path,
               generated: Generated | None = None, *, seed: int = 0, exact: str | None = None,
               card_file: str | None = None) -> list[Path]:
    """card.json, card.md, card.html (one printable page), cost-per-rule.png/.svg (when
    matplotlib, the ``plots`` extra, is installed: :data:`SKIPPED` says what was left out
    otherwise) and card.pdf when a headless Chromium is on the PATH; returns the paths.

    Parameters
    ----------
    card : RackCard
        The card.
    pricing : Pricing
        Its price (:func:`asiapoker.pricing.price`).
    out : path
        The folder to write to (made if missing).
    generated : Generated, optional
        How the card was made, for its page's notes.
    seed : int, default 0
        The command's ``--seed`` (the pricing sample's seed is one more), when the card was
        read rather than made.
    exact : str, optional
        The run directory an exact pricing came from (for the page's command line).
    card_file : str, optional
        The card's file, when the card was read rather than made.

    Raises
    ------
    FileWriteError
        A file could not be written.
    """
    d = Path(out)
    d.mkdir(parents=True, exist_ok=True)
    made_for = {"way": pricing.way, "rules": pricing.rules.to_dict()}
    files: dict[str, bytes] = {
        "card.json": (card_to_json(card, made_for) + "\n").encode(),
        "pricing.json": (json.dumps(pricing.to_dict(), indent=1) + "\n").encode()}
    ex = _examples(card, pricing.rules, pricing.way)
    ev = pricing.ev
    kind = "exact, over every player hand" if pricing.exact else (
        f"estimated from {pricing.hands:,} random hands (95% CI ±"
        f"{1.96 * pricing.se.get('card', 0):.2%})")
    rows = [("optimal play", ev["optimal"]), (f"this card ({len(card.rules)} rules)", ev["card"]),
            (f"copying the house way ({pricing.way})", ev["house-way"])]
    per = {p.index: p for p in pricing.per_rule}
    how = (f"{'Generated' if generated else 'Priced'} by "
           f"`{command_line(card, pricing, generated, seed, exact, card_file)}`")
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
    curve = generated.curve() if generated is not None else []
    exact_curve = generated is not None and generated.exact
    if generated is not None and len(curve) > 1:
        where = "every hand of the game, exactly" if exact_curve else (
            f"the search's {generated.hands:,} random hands")
        md += ["", "## The gap closed, rule by rule", "",
               f"The search's cards after each rule (measured on {where}): the card of k "
               "rules is the first k steps of the search.", "",
               "| rules | gap closed |", "|---|---|"]
        md += [f"| {k}{' (this card)' if k == len(card.rules) else ''} | {float(c):.1%} |"
               for k, c in curve if k in _CURVE_ROWS or k == len(card.rules) or k == curve[-1][0]]
    files["card.md"] = ("\n".join(md) + "\n").encode()
    files.update(_plot(card, per, fb))
    if len(curve) > 1:
        files.update(_curve_plot(card, curve, exact_curve))
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
    worst_rows = "".join(f"<tr><td class=ex>{_card_html(hand)}</td><td>{float(f):.5%}</td>"
                         f"<td>{float(loss):.3f}</td></tr>"
                         for hand, f, loss in pricing.worst[:10])
    chart = (f'<img alt="bar chart of what each rule costs" src="data:image/png;base64,'
             f'{base64.b64encode(files["cost-per-rule.png"]).decode()}">'
             if "cost-per-rule.png" in files else "")
    if "gap-closed.png" in files:
        chart += (f'<img alt="the share of the gap closed after each rule of the search" '
                  f'src="data:image/png;base64,'
                  f'{base64.b64encode(files["gap-closed.png"]).decode()}">')
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
{chart}
<h2>The costliest mistakes</h2>
<table><tr><th>hand</th><th>share of hands</th><th>ev lost</th></tr>{worst_rows}</table>
<p class=small>The hands on which following the card loses most against the best setting
(ev per unit wagered, per hand).</p>
</body></html>"""
    files["card.html"] = page.encode("utf-8")
    pdf = pdf_of(files["card.html"])
    if pdf is not None:
        files["card.pdf"] = pdf
    for name in files:             # every target checked before any is written
        writable_target(d / name)
    for name, content in files.items():
        atomic_write(d / name, content)
    return [d / name for name in files]


_CURVE_ROWS = (1, 2, 3, 5, 10, 15, 20, 30, 40)
"""The rule counts the card page's table of the search's curve shows (with the card's own)."""

SKIPPED = ("cost-per-rule.png", "cost-per-rule.svg", "gap-closed.png", "gap-closed.svg")
"""The files :func:`write_card` leaves out when matplotlib is not installed."""


def plots_missing() -> str | None:
    """One line saying which pictures a card leaves out and how to get them, or None when
    matplotlib is installed."""
    try:
        require_extra("matplotlib", "plots", "drawing the card's charts")
    except MissingExtraError as exc:
        return f"skipped {', '.join(SKIPPED)}: {exc}"
    return None


def _plot(card: RackCard, per: dict[int, Any], fb: Any) -> dict[str, bytes]:
    """The chart of each rule's cost as PNG and SVG (nothing without matplotlib)."""
    if plots_missing() is not None:
        return {}
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 0.28 * (len(card.rules) + 2) + 1))
    labels = [str(i + 1) for i in range(len(card.rules))] + ["fallback"]
    costs = [100 * float(per[i].cost) for i in range(len(card.rules))] + [100 * float(fb.cost)]
    ax.barh(range(len(labels)), costs, color="#3b6fb6")
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.set_xlabel("ev given up against optimal play (% of a wager, per hand of the game)")
    ax.set_ylabel("rule")
    ax.set_title(f"What each rule of {card.name} costs")
    return _figure_files(fig, "cost-per-rule")


def _curve_plot(card: RackCard, curve: list[tuple[int, Any]], exact: bool) -> dict[str, bytes]:
    """The chart of the share of the gap closed after each rule of the search, the card's own
    size marked, as PNG and SVG (nothing without matplotlib)."""
    if plots_missing() is not None:
        return {}
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator
    fig, ax = plt.subplots(figsize=(7, 3.2))
    ks = [k for k, _ in curve]
    closed = [100 * float(c) for _, c in curve]
    ax.plot(ks, closed, marker="o", markersize=3, color="#3b6fb6")
    n = len(card.rules)
    if n in ks:
        y = closed[ks.index(n)]
        ax.plot([n], [y], marker="o", markersize=8, color="#b3001b", linestyle="none")
        ax.annotate(f"this card: {y:.1f} %", (n, y), textcoords="offset points",
                    xytext=(-10, 10), ha="right")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("rules on the card")
    ax.set_ylabel("gap closed (%)")
    ax.set_ylim(0, max(100.0, max(closed) + 5))
    ax.grid(alpha=0.3)
    ax.set_title(f"The gap between the house way and optimal play closed, rule by rule "
                 f"({'exact' if exact else 'on the sample'})", fontsize=9)
    return _figure_files(fig, "gap-closed")


def _figure_files(fig: Any, stem: str) -> dict[str, bytes]:
    """A finished matplotlib figure as ``STEM.png`` and ``STEM.svg`` (then closed)."""
    import matplotlib.pyplot as plt
    fig.tight_layout()
    out = {}
    for ext in ("png", "svg"):
        buf = io.BytesIO()
        fig.savefig(buf, format=ext, dpi=110)
        out[f"{stem}.{ext}"] = buf.getvalue()
    plt.close(fig)
    return out
