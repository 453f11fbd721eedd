"""A deliberately simple, slow reference of the rules (SPEC 2-3), sharing no code with the
package.  Cards are plain strings ("As", "Td", "Jk"); hands are lists of them.

A hand's value is a tuple ``(category number, ranks)`` compared as Python compares tuples:
``ranks`` lists the defining ranks and then the other cards high to low, so a hand that runs
out of cards first is lower (SPEC 2.7/2.8).  Straights carry their place in an explicit list.
"""

from __future__ import annotations

import itertools
from collections import Counter

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
JOKER = "Jk"
ALL_52 = [r + s for r in RANK_CHARS for s in SUIT_CHARS]
DECK = [*ALL_52, JOKER]

CATEGORY_NAMES = [
    "no pair",
    "pair",
    "two pairs",
    "three of a kind",
    "straight",
    "flush",
    "four of a kind",
    "straight flush",
    "royal flush",
    "four aces",
]


def card_text(card_id: int) -> str:
    """The documented id layout: rank * 4 + suit, joker 52."""
    if card_id == 52:
        return JOKER
    return RANK_CHARS[card_id // 4] + SUIT_CHARS[card_id % 4]


def rank_value(card: str) -> int:
    """2..14 (ace 14); the joker counts as an ace."""
    if card == JOKER:
        return 14
    return RANK_CHARS.index(card[0]) + 2


# Straights, lowest first, written out by hand (SPEC 2.4, 2.5).
_STRAIGHTS_HIGH = [
    "5432",
    "6543",
    "7654",
    "8765",
    "9876",
    "T987",
    "JT98",
    "QJT9",
    "KQJT",
    "A234",
    "AKQJ",
]
_STRAIGHTS_LOW = [
    "A234",
    "5432",
    "6543",
    "7654",
    "8765",
    "9876",
    "T987",
    "JT98",
    "QJT9",
    "KQJT",
    "AKQJ",
]


def _straight_place(values: list[int], a234: str) -> int | None:
    order = _STRAIGHTS_HIGH if a234 == "high" else _STRAIGHTS_LOW
    for place, text in enumerate(order):
        if sorted(values) == sorted(RANK_CHARS.index(ch) + 2 for ch in text):
            return place
    return None


def _value_without_joker(cards: list[str], a234: str) -> tuple[int, tuple[int, ...]]:
    """Value of cards with no joker in them (a joker already turned into something)."""
    values = sorted((rank_value(c) for c in cards), reverse=True)
    counts = Counter(values)
    if len(cards) == 4:
        suits = [c[1] for c in cards]
        flush = "?" not in suits and len(set(suits)) == 1
        straight = _straight_place(values, a234) if len(counts) == 4 else None
        if counts[14] == 4:
            return 9, ()
        if flush and sorted(values) == [11, 12, 13, 14]:
            return 8, ()
        if flush and straight is not None:
            return 7, (straight,)
        if 4 in counts.values():
            return 6, (values[0],)
        if flush:
            return 5, tuple(values)
        if straight is not None:
            return 4, (straight,)
        if 3 in counts.values():
            trip = next(v for v, n in counts.items() if n == 3)
            return 3, (trip, *[v for v in values if v != trip])
        pairs = sorted((v for v, n in counts.items() if n == 2), reverse=True)
        if len(pairs) == 2:
            return 2, tuple(pairs)
    if 2 in counts.values():
        pair = next(v for v, n in counts.items() if n == 2)
        return 1, (pair, *[v for v in values if v != pair])
    return 0, tuple(values)


def value(cards: list[str], a234: str = "high") -> tuple[int, tuple[int, ...]]:
    """The value of a 1-, 2- or 4-card hand (SPEC 2.2-2.8)."""
    if JOKER not in cards:
        return _value_without_joker(cards, a234)
    others = [c for c in cards if c != JOKER]
    as_ace = _value_without_joker([*others, "A?"], a234)  # an ace of no suit
    if len(cards) != 4:
        return as_ace
    best = as_ace
    for stand_in in ALL_52:
        if stand_in in others:
            continue
        v = _value_without_joker([*others, stand_in], a234)
        if CATEGORY_NAMES[v[0]] in ("straight", "flush", "straight flush", "royal flush"):
            best = max(best, v)
    return best


def is_legal(high: list[str], medium: list[str], low: list[str], a234: str = "high") -> bool:
    return value(high, a234) > value(medium, a234) > value(low, a234)


def settle(
    player: tuple[list[str], list[str], list[str]],
    dealer: tuple[list[str], list[str], list[str]],
    a234: str = "high",
    pays: float = 1.0,
) -> tuple[str, tuple[str, ...], float]:
    """(result, per-hand results, payout) as SPEC 3.2-3.4 say."""
    hands = []
    for p, d in zip(player, dealer, strict=False):
        vp, vd = value(p, a234), value(d, a234)
        hands.append("win" if vp > vd else "lose" if vp < vd else "copy")
    if not is_legal(*player, a234=a234):
        return "foul", tuple(hands), -1.0
    if hands.count("win") >= 2:
        return "win", tuple(hands), pays
    return "lose", tuple(hands), -1.0


def all_splits(seven: list[str]):
    """Every (high, medium, low) split of seven cards."""
    for high in itertools.combinations(seven, 4):
        rest = [c for c in seven if c not in high]
        for low in rest:
            yield list(high), [c for c in rest if c != low], [low]


# --- house ways (SPEC 5), by brute force over all 105 splits -------------------------------

HANDS = ("high", "medium", "low")


def _rank_groups(seven: list[str]) -> list[list[str]]:
    """Cards grouped by rank, the joker in the aces' group (SPEC 5.4)."""
    groups: dict[int, list[str]] = {}
    for c in seven:
        groups.setdefault(rank_value(c), []).append(c)
    return [groups[r] for r in sorted(groups)]


def classic_allows(high: list[str], medium: list[str], low: list[str]) -> bool:
    """SPEC 5.4 (a)-(d) for a legal setting."""
    seven = high + medium + low
    groups = _rank_groups(seven)
    big = [g for g in groups if len(g) >= 3]
    exempt = big[0] if len(big) >= 2 else None        # groups are in ascending rank order
    for g in groups:
        if g is exempt:
            continue
        where = ["high" if c in high else "medium" if c in medium else "low" for c in g]
        if len(g) in (2, 3) and len(set(where)) != 1:
            return False
        if len(g) == 4 and not (where.count("high") == 4
                                or (where.count("high") == 2 and where.count("medium") == 2)):
            return False
    return True


def house_way_values(seven: list[str], way: str, a234: str = "high", value_of=None):
    """The (high, medium, low) values the house way gives seven cards: the best legal
    (and, for "classic", allowed) setting in the way's priority order."""
    value_of = value_of or value
    order = {"classic": ("medium", "low", "high"), "medium-first": ("medium", "low", "high"),
             "high-first": ("high", "medium", "low")}.get(way) or tuple(way.split("-"))
    candidates = []
    for high, medium, low in all_splits(seven):
        vals = (value_of(high, a234), value_of(medium, a234), value_of(low, a234))
        if vals[0] > vals[1] > vals[2]:
            allowed = way != "classic" or classic_allows(high, medium, low)
            candidates.append((allowed, vals))
    if way == "classic" and any(a for a, _ in candidates):
        candidates = [c for c in candidates if c[0]]
    best = max(candidates, key=lambda c: tuple(c[1][HANDS.index(h)] for h in order))
    return best[1]


# --- the bonus wager (SPEC 4), literally: look for each hand among the cards -----------------

BONUS_PAYS = {   # table A, B, C (SPEC 4.2)
    "four 8s and three of a kind": (5000, 5000, 5000), "five aces": (800, 800, 800),
    "royal flush": (200, 200, 200), "natural straight flush": (80, 50, 50),
    "straight flush with joker": (40, 40, 40), "four of a kind": (30, 30, 25),
    "9-high": (10, 10, 10), "full house": (5, 5, 5), "flush": (4, 4, 4),
    "three of a kind": (3, 3, 3), "straight": (2, 2, 2),
}


def _five_in_sequence(values: list[int]) -> bool:
    s = sorted(set(values))
    if len(s) != 5:
        return False
    return s[-1] - s[0] == 4 or s == [2, 3, 4, 5, 14]


def _suited(cards: list[str]) -> bool:
    return len({c[1] for c in cards}) == 1


def bonus_categories(seven: list[str]) -> set[str]:
    """Every bonus hand the seven cards hold (SPEC 4.2-4.3)."""
    found = set()
    naturals = [c for c in seven if c != JOKER]
    has_joker = JOKER in seven
    # the joker as an ace: groups of equal rank
    counts = Counter(rank_value(c) for c in seven)
    if counts[14] == 5:
        found.add("five aces")
    if any(n >= 4 for n in counts.values()):
        found.add("four of a kind")
    if any(n >= 3 for n in counts.values()):
        found.add("three of a kind")
    if any(n >= 3 and any(m >= 2 for s, m in counts.items() if s != r)
           for r, n in counts.items()):
        found.add("full house")
    if counts[8] == 4 and any(n >= 3 for r, n in counts.items() if r != 8):
        found.add("four 8s and three of a kind")
    if not has_joker and sorted(rank_value(c) for c in seven) in (
            [2, 3, 4, 6, 7, 8, 9], [2, 3, 4, 5, 7, 8, 9]):
        found.add("9-high")
    # five-card hands; the joker may stand for any card the hand lacks
    for five in itertools.combinations(naturals, 5):
        vals = [rank_value(c) for c in five]
        if _suited(list(five)):
            found.add("flush")
        if _five_in_sequence(vals):
            found.add("straight")
        if _suited(list(five)) and _five_in_sequence(vals):
            found.add("natural straight flush")
            if sorted(vals) == [10, 11, 12, 13, 14]:
                found.add("royal flush")
    if has_joker:
        for four in itertools.combinations(naturals, 4):
            for stand_in in ALL_52:
                if stand_in in naturals:
                    continue
                five = [*four, stand_in]
                vals = [rank_value(c) for c in five]
                if _suited(five):
                    found.add("flush")
                if _five_in_sequence(vals):
                    found.add("straight")
                if _suited(five) and _five_in_sequence(vals):
                    found.add("straight flush with joker")
                    if sorted(vals) == [10, 11, 12, 13, 14]:
                        found.add("royal flush")
    return found


def bonus_paid(seven: list[str], table: int = 0) -> tuple[str | None, int]:
    """(category, odds) of the highest-paying bonus hand, or (None, -1)."""
    cats = bonus_categories(seven)
    if not cats:
        return None, -1
    best = max(cats, key=lambda c: (BONUS_PAYS[c][table], -list(BONUS_PAYS).index(c)))
    return best, BONUS_PAYS[best][table]
