"""The ``asiapoker`` command line: readable tables for people, ``--json`` for programs.

Bad input exits with status 2 and a one-line message on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from .errors import AsiaPokerError
from .ranks import rank
from .rules import Rules
from .setting import Setting, is_legal, settle, splits

__all__ = ["main"]


def _rules(args: argparse.Namespace) -> Rules:
    return Rules(a234=args.a234, pays=args.pays)


def _emit(args: argparse.Namespace, data: Any, text: str) -> None:
    print(json.dumps(data, indent=2) if args.json else text)


def _rules_json(rules: Rules) -> dict[str, Any]:
    return {"a234": rules.a234, "pays": rules.pays}


def cmd_rank(args: argparse.Namespace) -> None:
    rules = _rules(args)
    r = rank(" ".join(args.cards), rules)
    _emit(
        args,
        {
            "cards": [str(c) for c in r.cards],
            "category": r.category,
            "strength": int(r),
            "description": str(r),
            "rules": _rules_json(rules),
        },
        f"{' '.join(map(str, r.cards))}: {r}  ({r.category}, strength {int(r)})",
    )


def cmd_splits(args: argparse.Namespace) -> None:
    rules = _rules(args)
    rows = []
    for k, s in enumerate(splits(" ".join(args.cards))):
        legal = is_legal(s, rules)
        if legal or args.all:
            h, m, lo = s.ranks(rules)
            rows.append(
                {
                    "index": k,
                    "setting": str(s),
                    "legal": legal,
                    "high": str(h),
                    "medium": str(m),
                    "low": str(lo),
                }
            )
    if args.json:
        _emit(args, {"rules": _rules_json(rules), "splits": rows}, "")
        return
    print(f"{len(rows)} {'splits' if args.all else 'legal settings'} ({rules.describe()})")
    width = max((len(str(r["setting"])) for r in rows), default=0)
    for r in rows:
        flag = "" if r["legal"] else "  FOUL"
        print(
            f"{r['index']:>3}  {r['setting']:<{width}}  {r['high']} | {r['medium']} | "
            f"{r['low']}{flag}"
        )


def cmd_settle(args: argparse.Namespace) -> None:
    rules = _rules(args)
    player, dealer = Setting.parse(args.player), Setting.parse(args.dealer)
    out = settle(player, dealer, rules)
    data = {
        "player": str(player),
        "dealer": str(dealer),
        "result": out.result,
        "hands": dict(zip(("high", "medium", "low"), out.hands, strict=False)),
        "payout": out.payout,
        "rules": _rules_json(rules),
    }
    lines = [
        f"{name:<7} {' '.join(map(str, p)):<12} {pr!s:<34} {' '.join(map(str, d)):<12} "
        f"{dr!s:<34} {res}"
        for name, p, pr, d, dr, res in zip(
            ("high", "medium", "low"),
            (player.high, player.medium, player.low),
            player.ranks(rules),
            (dealer.high, dealer.medium, dealer.low),
            dealer.ranks(rules),
            out.hands,
            strict=False,
        )
    ]
    lines.append(f"result: {out.result} ({out.payout:+g}) [{rules.describe()}]")
    _emit(args, data, "\n".join(lines))


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", help="print JSON for programs")
    common.add_argument(
        "--a234",
        choices=("high", "low"),
        default="high",
        help="where A-2-3-4 ranks among straights (SPEC 2.5)",
    )
    common.add_argument("--pays", type=float, default=1.0, help="what a win pays, to 1")
    p = argparse.ArgumentParser(prog="asiapoker", description="Exact Asia Poker tools.")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("rank", parents=[common], help="rank a 1-, 2- or 4-card hand")
    s.add_argument("cards", nargs="+", help='cards, e.g. "As Ks Qs Jk"')
    s.set_defaults(func=cmd_rank)
    s = sub.add_parser("splits", parents=[common], help="the legal settings of seven cards")
    s.add_argument("cards", nargs="+", help="seven cards")
    s.add_argument("--all", action="store_true", help="show fouls too")
    s.set_defaults(func=cmd_splits)
    s = sub.add_parser("settle", parents=[common], help="settle a player against the dealer")
    s.add_argument("--player", required=True, help='"H H H H | M M | L"')
    s.add_argument("--dealer", required=True, help='"H H H H | M M | L"')
    s.set_defaults(func=cmd_settle)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 on bad input)."""
    args = _parser().parse_args(argv)
    try:
        args.func(args)
    except AsiaPokerError as exc:
        print(f"asiapoker: error: {exc}", file=sys.stderr)
        return 2
    return 0
