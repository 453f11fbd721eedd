"""A rack-card style house way written as plain Python rules, for ``HouseWay.from_function``.

The casino's card, in order of priority:

1. A straight flush, royal flush or four aces is kept whole in the high hand when a legal
   setting allows it.
2. Four of a kind below 7s stays together in the high hand; 7s and above split 2 + 2 between
   the high and medium hands.
3. The joker plays as an ace in the low hand whenever that is legal.
4. Otherwise pairs and trips stay together (as "classic" does, rule 5.4 of docs/rules.md), and
   the dealer takes the best medium hand, then the best low hand, then the best high hand.

Use it from Python::

    from asiapoker import HouseWay, house_way
    way = HouseWay.from_function(rack_card, name="rack-card", version=VERSION)
    house_way("Ac Ad Ah As Jk Kd 2c", way)

or from the command line: ``asiapoker solve --way examples/rack_card.py:rack_card CARDS``.
"""

from asiapoker import SPLIT_POSITIONS, Setting, split_strengths

VERSION = "1"

_PARTS = [tuple(0 if p in h else 1 if p in m else 2 for p in range(7))
          for h, m, _ in SPLIT_POSITIONS]
_SEVEN = 7  # rank index of the 7 is 5


def rack_card(cards):
    """The dealer's setting of seven cards (a tuple of asiapoker.Card)."""
    hml = split_strengths(cards)
    groups = {}
    for p, c in enumerate(cards):
        groups.setdefault(c.rank, []).append(p)
    pairs_and_trips = [g for g in groups.values() if 2 <= len(g) <= 3]
    quads = [(r, g) for r, g in groups.items() if len(g) == 4]
    joker = next((p for p, c in enumerate(cards) if c.is_joker), None)

    def score(k):
        part = _PARTS[k]
        h, m, lo = hml[k]
        big_high = (h >> 16) >= 7                   # straight flush, royal, four aces
        quads_ok = all(
            [part[p] for p in g].count(0) == 4 if r < 5
            else sorted(part[p] for p in g) == [0, 0, 1, 1]
            for r, g in quads)
        together = all(len({part[p] for p in g}) == 1 for g in pairs_and_trips)
        joker_low = joker is not None and part[joker] == 2
        return (big_high, quads_ok, joker_low, together, m, lo, h)

    legal = [k for k in range(105) if hml[k][0] > hml[k][1] > hml[k][2]]
    best = max(legal, key=score)                    # ties: the first split
    h, m, lo = SPLIT_POSITIONS[best]
    return Setting([cards[i] for i in h], [cards[i] for i in m], cards[lo])
