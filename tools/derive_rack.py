"""Derive a rack card (asiapoker.rack) a dealer can follow: close to a way, and hard to exploit.

    python tools/derive_rack.py --against equilibrium --hands 60000 --seed 11 --rules 40 \
        --objective mixed --mix 0.5 --min-gain 1e-05 --out src/asiapoker/_standard.py

Every split of ``--hands`` random seven-card hands is scored exactly.  With the default
objective (``mixed``) a split scores the dealer hands it beats when a
player sets it against a dealer who sets by the way (the exact count of the solver), plus
``--mix`` of a wager when it is the way's own setting: the card stays close to the way (so
the dealer it makes is the one the counts were taken against) and, where it must differ,
differs where a player loses least.  A rule's cost on a hand is the best split's score minus
the score of the split the rule picks.  The search (asiapoker.card_search.search) starts every
shape from its placement of least cost, then adds the exception (a placement under one or
two conditions) that lowers the total cost most, until the card has ``--rules`` rules or no
exception saves more than ``--min-gain`` of a wager per hand.  The card is written as Python
source for review; the log shows each rule's saving.

With ``--run RUNDIR`` (an every-split run of ``--against``, ``asiapoker analyze --every-split``)
the card is searched on every hand of the game with the player's objective, each step exact:

    python tools/derive_rack.py --against equilibrium --run RUNDIR --rules 40 --top 30 \
        --method tree --out card.py

``--method tree`` grows each shape's rules as a tree of conditions and shares the rules out
among the shapes by what each saves (asiapoker.card_search.tree); against ``equilibrium`` its
40 rules lose 0.540 % of a wager a hand, and dealing by them costs a copying player 0.5275 %.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from asiapoker import HouseWay
from asiapoker.card_search import METHODS, generate, search
from asiapoker.equilibrium import best_response_splits
from asiapoker.rack import PRIORITY_PLACEMENTS, RackCard, best_split, hand_facts
from asiapoker.rules import Rules
from asiapoker.sampling import random_hands
from asiapoker.solver import count_splits


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--against", default="equilibrium",
                    help="the way the players set by: a name or a saved table .npz")
    ap.add_argument("--hands", type=int, default=60_000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--rules", type=int, default=40)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--min-gain", type=float, default=0.0002,
                    help="stop when the best exception saves less than this per hand")
    ap.add_argument("--mix", type=float, default=0.1,
                    help="with --objective mixed: what setting a hand otherwise than the way "
                         "costs, in wagers, on top of the player's loss")
    ap.add_argument("--objective", choices=("mixed", "player", "agree", "cost"),
                    default="mixed",
                    help="player: set each hand as a player would against a dealer who sets "
                         "by the way (the loss a player copying the card suffers, which is "
                         "what exploitability measures when the card deals like the way); "
                         "agree: set hands as the way does; cost: lose least to players who "
                         "set by the way")
    ap.add_argument("--br", action="store_true",
                    help="fit the dealer's best response to the way (on the sample) instead "
                         "of the way itself")
    ap.add_argument("--run", metavar="RUNDIR",
                    help="search on every hand of this every-split run of --against "
                         "(asiapoker analyze --every-split) with the player's objective: "
                         "each step exact over the whole game (--hands, --seed, --mix, "
                         "--objective, --br and --min-gain are not used)")
    ap.add_argument("--method", choices=METHODS, default="greedy",
                    help="greedy: add the exception that saves most, one at a time; tree: "
                         "grow each shape's rules as a tree of conditions")
    ap.add_argument("--fallback", default="best MLH", choices=PRIORITY_PLACEMENTS,
                    help="how hands no rule fits are set (a priority placement)")
    ap.add_argument("--out")
    ap.add_argument("--name", default="standard")
    args = ap.parse_args()
    t0 = time.time()
    way = (HouseWay.load(args.against) if args.against.endswith(".npz")
           else HouseWay.named(args.against))
    searched = ("--run RUNDIR" if args.run else
                f"--hands {args.hands} --seed {args.seed} --objective {args.objective} "
                f"--mix {args.mix} --min-gain {args.min_gain}")
    command = (f"python tools/derive_rack.py --against {args.against} \\\n        {searched} "
               f"\\\n        --rules {args.rules} --top {args.top} --method {args.method} "
               f"--fallback '{args.fallback}' \\\n        --out src/asiapoker/_standard.py")
    if args.run:
        made = generate(way, run=args.run, max_rules=args.rules, top=args.top,
                        fallback=args.fallback, method=args.method, name=args.name)
        return write(args, made.card, list(made.log), command,
                     f"searched in {time.time() - t0:.0f} s; it loses "
                     f"{made.steps[-1].cost / made.house_way_cost:.4f} times what the "
                     f"run's way loses")
    rows = random_hands(args.hands, args.seed).astype(np.int64)
    counts = np.zeros((len(rows), 105), dtype=np.int64)
    if args.objective == "agree":
        args.mix = 1.0
    else:
        side = "dealer" if args.objective == "cost" else "player"   # mixed, player: the player's
        for lo in range(0, len(rows), 4096):
            counts[lo:lo + 4096] = count_splits(rows[lo:lo + 4096], way, Rules(), side)
        print(f"counted {len(rows):,} hands against {way.name} in {time.time() - t0:.0f} s",
              file=sys.stderr)
    f = hand_facts(rows)
    if args.br:
        # the target is the dealer's best response to the way, on the sampled hands
        k = best_response_splits(way, Rules(), "dealer", rows, workers=2).astype(np.int64)
        target = f.tri[np.arange(len(rows)), k]
        print(f"best response to {way.name} on the sample in {time.time() - t0:.0f} s",
              file=sys.stderr)
    else:
        target = way.strengths(rows, Rules())
    log: list[str] = []
    rules = search(f, counts, args.rules, top=args.top, min_gain=args.min_gain,
                   target=target if args.objective in ("agree", "mixed") else None,
                   mix=args.mix, log=log, method=args.method,
                   fallback=best_split(f.legal, f.tri, PRIORITY_PLACEMENTS[args.fallback]))
    return write(args, RackCard(args.name, tuple(rules), args.fallback), log, command, "")


def write(args: argparse.Namespace, card: RackCard, log: list[str], command: str,
          summary: str) -> int:
    """Print the search's log and write the card as Python source (to --out, or stdout)."""
    for line in log:
        print(line, file=sys.stderr)
    if summary:
        print(summary, file=sys.stderr)
    rules = card.rules
    src = ['"""The rack card of the built-in house way "standard" (see asiapoker.rack), derived',
           "by::", "", f"    {command}", "",
           "See docs/house-ways.md for the rules in words.", '"""', "",
           "from .rack import RackCard, Rule", "", "STANDARD = RackCard(", f"    {args.name!r},",
           "    ("]
    for r in rules:
        line = f"        Rule({r.shape!r}, {r.placement!r}, {r.conditions!r}),"
        if len(line) > 99:
            src.append(f"        Rule({r.shape!r}, {r.placement!r},")
            src.append(f"             {r.conditions!r}),")
        else:
            src.append(line)
    src += ["    ),"] + ([] if card.fallback == "best MLH" else [f"    {card.fallback!r},"])
    src += [")", ""]
    text = "\n".join(src)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
    else:
        print(text)
    for line in card.text():
        print(line, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
