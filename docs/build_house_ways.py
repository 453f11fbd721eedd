"""Write docs/house-ways.md: every worked example below is run through asiapoker.

Run ``python docs/build_house_ways.py`` after changing a house way; the test suite fails while
the committed page differs from what this script writes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from asiapoker import HouseWay
from asiapoker.cards import card_of
from asiapoker.house_way import EARLIER_WAYS
from asiapoker.rack import apply_card
from asiapoker.sampling import random_hands

PAGE = Path(__file__).with_name("house-ways.md")
WAYS = ("standard", "equilibrium", "classic", "medium-first", "high-first")
SHAPES = [
    ("no pair", "Ah Kd 9s 7c 5h 3d 2s"),
    ("one pair", "Ah Kd 9s 9c 5h 3d 2s"),
    ("two pairs", "Ah Kd Ks 9c 9h 3d 2s"),
    ("three pairs", "Kc Kd Jh Js 7c 7d 2s"),
    ("trips", "Ah Kd 9s 9c 9h 3d 2s"),
    ("trips + pair", "5c 5d 5h Kc Kd Qh 2c"),
    ("two trips", "5c 5d 5h Kc Kd Ks 2c"),
    ("quads", "9c 9d 9h 9s Ad Kd 2c"),
    ("quads + trips", "9c 9d 9h 9s 4d 4c 4h"),
    ("four aces", "Ac Ad Ah As Kd Qd 2c"),
    ("five aces", "Ac Ad Ah As Jk Kd 2c"),
    ("straight", "9c Td Jh Qs 2d 5c 7h"),
    ("straight with the joker", "9c Td Jk Qs 2d 5c 3h"),
    ("straight and a pair", "9c Td Jh Qs Qd 5c 3h"),
    ("flush", "2s 7s 9s Ks Ad 5c 3h"),
    ("flush with the joker", "2s 7s Jk Ks Ad 5c 3h"),
    ("flush and a pair", "2s 7s 9s Ks Kd 5c 3h"),
    ("straight flush", "9s Ts Js Qs 2d 5c 7h"),
    ("straight flush with the joker", "9s Ts Jk Qs 2d 5c 7h"),
    ("royal flush and a pair", "As Ks Qs Js 9d 9h 2c"),
]

HEAD = """# House ways

The dealer sets seven cards by the casino's house way. asiapoker ships these built-in ways,
each defined exactly, and accepts any way you write in Python or as a rack card. The default
is `standard`.

| name | what it does |
|---|---|
{ways}

Earlier versions of the shipped ways stay loadable by their versioned names, so that saved
runs and cards that name them still load (each is a file of the package, verified like the
others): {earlier}.

Ties left after a way's priority (settings whose three hands are equally strong, rule 5.5) go
to the first split, in `SPLIT_POSITIONS` order, of the seven cards sorted by card id. They never
change an outcome.

Any order of the three hands is a priority way: `HouseWay.priority("low", "medium", "high")`, or
the name `"low-medium-high"`.

{card}

## The common shapes

Every example below was set by the code (`python docs/build_house_ways.py` writes this page).

"""

TAIL = """
## How `equilibrium` and `standard` were made

- `asiapoker.equilibrium.best_response(way)` gives every one of the 829,504 classes of seven
  cards the legal setting that loses to the fewest player hands when the players copy `way`
  (the dealer wins copies, so this is not the player's best setting; `side="player"` gives that
  one). The counts are exact integers from the solver's core; 1.5 to 3 minutes on two cores,
  cached (keyed by the way's digest: a stopped iteration resumes from its cached steps).
- `equilibrium` is a fixed point of that best response: every class keeps a setting no other
  one loses to more than 1,000 fewer of the C(46, 7) player hands it meets (0.0019 % of
  them) when the players copy the way. It was made from `equilibrium-v1`, the way of the first
  builds (the sixth iterate from `classic`), by the damped iteration:
  `asiapoker equilibrium --start equilibrium-v1 --margin 1000 --max-iterations 40 --out FILE`
  (15 best responses, about 2 minutes each on two cores; it prints sha256
  `d0e26570b5236537d2859a603bb3fa3347e59c5d33383fa51cee4fec783cb339`). The command prints
  each iteration (the exact count of hands set differently) and stops at a fixed point (no
  hand changes) or a cycle (an iterate comes back), naming it. `--exact` also measures each
  iterate's cost exactly (what copying it gives up against optimal play, a whole run each:
  `asiapoker.analysis.way_cost` in Python), `--hands N` estimates it on N hands instead, and
  `--log FILE.json` writes every step as it comes. Without a margin the iteration from
  `equilibrium-v1` ends in a 2-cycle after 22 steps, 0.02 % of hands flipping between two
  settings. The tests recompute the best response on a sample of classes and find the shipped
  way unchanged.
- `standard` is a rack card derived from `equilibrium-v1` by `tools/derive_rack.py` (on
  60,000 hands solved exactly against `equilibrium-v1`, each setting scores what a player
  wins with it, plus half a wager when it is the equilibrium's own: for each shape the
  placement that scores most, then the exceptions that add most) and compiled by
  `tools/build_standard.py`; the tests check the shipped table against the rules, and the
  rules against a plain reading of them in `tests/`.
- `asiapoker exploitability --way W` measures any way, yours included (a file `.npz` saved by
  `HouseWay.save`, or `file.py:function`).

## Writing your own

```python
from asiapoker import HouseWay, Setting, house_way, solve

def my_way(cards):                 # a tuple of seven asiapoker.Card
    ...
    return Setting(high, medium, low)

way = HouseWay.from_function(my_way, name="my-casino", version="3")
house_way("As Kd 7h 7c Jk 2s 9d", way)
solve("As Kd 7h 7c Jk 2s 9d", way)
```

`from_function` asks the function once for each of the 829,504 classes of seven cards (a rank
multiset, or the ranks one suit holds plus the other ranks) and compiles the answers to a table
the core reads at full speed; `examples/rack_card.py` is a worked example, also usable as
`asiapoker solve --way examples/rack_card.py:rack_card CARDS`. Rules for the function:

- It returns a legal setting of exactly the seven cards it was given (anything else is an
  error naming the hand).
- It treats suits symmetrically: hands that differ only by renaming suits get the same setting
  up to that renaming.
- Its choice may depend on suits only through the flushes they make (so that one answer per
  class is exact). Both rules are checked on a sample; a way that breaks one is rejected with
  an error that shows the two hands.

The compiled way keeps your setting's three hand strengths, not its exact cards: asked to set a
hand, it gives the first split (in the order of the hand's cards) with those strengths. Where
two settings tie in strength (two cards of one rank swapped, say) it may give back the other
one. Every result is the same, since only the strengths meet the dealer's hands. A compile
(about a minute) prints its progress on stderr: a bar on a terminal, a plain line every few
seconds elsewhere; `progress=False` turns it off, and `progress=fn` calls `fn(done, total)`
instead.

The answers are cached (`$ASIAPOKER_CACHE_DIR`, default `~/.cache/asiapoker`) under the way's
whole identity: its name, its version (or `cache_key=`), the function's module, name, source
and what it closes over (from the command line, `FILE.py:FUNC` adds the file's path and a hash
of the whole file). Two functions never share an entry; change the version when the function
changes in a way its source does not show (a helper it calls). Every cache file records that
identity and a checksum of its contents and is used only when both check: a damaged, foreign
or stale one is rebuilt with a warning that names it. A compile that fails keeps nothing.
"""


CARD_HEAD = """## The standard rack card (the default way)

The dealer reads the rules from the top and follows the first one that fits the hand: its
shape, and its conditions if any. A rule whose setting would not be legal (the high hand must
beat the medium hand, the medium hand the low card) is passed over. Every example was set by
the code.

How to read a rule:

- Cards of one rank form a group; the joker joins the aces. Of two pairs, *the higher pair* is
  the one of the higher rank (of three: the highest, the middle and the lowest pair). A
  *single card* is one alone in its rank: *the highest single card*, *the second-highest
  single card* and so on.
- "the rest high": every card the rule does not name goes to the high hand; when suits allow
  more than one such setting, the dealer makes the best high hand (a flush if possible).
- "play the straight or flush high": a straight, flush or straight flush in the high hand,
  choosing the best medium hand, then the best low card. "A plain straight" is one that is not
  a straight flush.
- "a straight or flush can be played high with a pair in the medium hand": some legal setting
  has both; "the best low card beside it" (a straight or flush in the high hand): the highest
  card that can be the low hand while a straight or flush is played high; "the higher (lower)
  card of the best medium hand beside it": of the best medium hand that can be played while a
  straight or flush is played high, both the pair's rank for a pair; "every straight or flush
  that can be played high needs the joker", or "one can be played high without the joker";
  "at least 2 different four-card straights or flushes can be played high": so many sets of
  four of the seven cards make one.
- "otherwise", the card's last clause, for every hand no rule above fits: the legal setting
  with the best medium hand, then the best low card, then the best high hand.
"""


def _example(rule: int, rows: np.ndarray, decided: np.ndarray) -> str:
    hit = np.flatnonzero(decided == rule)
    if not len(hit):
        return ""
    cards = " ".join(str(card_of(int(c))) for c in sorted(rows[hit[0]].tolist(), reverse=True))
    setting = str(HouseWay.named("standard").set(cards)).replace(" | ", " / ")
    return f"`{cards}` → `{setting}`"


def card_section() -> str:
    way = HouseWay.named("standard")
    card = way.card
    assert card is not None
    rows = random_hands(60_000, 2026).astype(np.int64)
    _, decided = apply_card(card, rows)
    lines = [CARD_HEAD, "| # | rule | example |", "|---|---|---|"]
    for i, rule in enumerate(card.rules):
        text = rule.text().replace("|", "/")
        lines.append(f"| {i + 1} | {text} | {_example(i, rows, decided)} |")
    lines.append(f"| — | otherwise (the last clause) | {_example(-1, rows, decided)} |")
    return "\n".join(lines)


def build() -> str:
    ways = "\n".join(f"| `{w}` | {HouseWay.named(w).description} |" for w in WAYS)
    earlier = "; ".join(f"`{w}`, {HouseWay.named(w).description}" for w in EARLIER_WAYS)
    lines = [HEAD.format(ways=ways, earlier=earlier, card=card_section())]
    for shape, seven in SHAPES:
        lines.append(f"### {shape}: {seven}\n")
        lines.append("| way | high | medium | low |")
        lines.append("|---|---|---|---|")
        for w in WAYS:
            setting, _ = HouseWay.named(w).explain(seven)
            cells = [f"`{' '.join(map(str, part))}` {rank}" for part, rank in zip(
                (setting.high, setting.medium, setting.low), setting.ranks(), strict=True)]
            lines.append(f"| {w} | {' | '.join(cells)} |")
        lines.append("")
    return "\n".join(lines) + TAIL


if __name__ == "__main__":
    text = build()
    if "--check" in sys.argv:
        sys.exit(0 if PAGE.read_text() == text else 1)
    PAGE.write_text(text)
