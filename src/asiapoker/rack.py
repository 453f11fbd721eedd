"""Written house ways: rack cards of plain rules a dealer can follow, run on arrays of hands.

A rack card is an ordered list of :class:`Rule`; the first rule whose shape and conditions
fit the seven cards decides, and a card always ends with a rule for every shape.

The words a rule uses:

- **groups**: the cards of one rank (the joker joins the aces' group).  Groups are read in
  order of size, then rank: in "two pairs" the *first pair* (``group1``) is the higher one,
  said "the higher pair".  Cards alone in their rank are *singles*, numbered from the highest
  (``single1``, said "the highest single card"; ``single2``, "the second-highest single
  card" ...).
- **shape**: the sizes of the groups: no pair, one pair, two pairs, three pairs, trips, trips
  and a pair, trips and two pairs, two trips, four of a kind (with singles, a pair or trips),
  five aces (with singles or a pair).
- **placement**: where each group and single goes, written one group at a time in the order
  above with ``H`` (high hand), ``M`` (medium) and ``L`` (low): ``"MM H L H H H"`` is "the
  pair in the medium hand, single 2 in the low hand, the other singles in the high hand".
  Among the settings that place the ranks so, the dealer takes the best high hand (a flush
  if the suits allow).
- **made hand**: the placement ``"made"`` plays a straight, flush or straight flush in the high
  hand, and among those the best medium hand, then the best low hand, then the best high hand;
  ``"made-high"`` takes the best medium, then the best high, then the low hand; ``"made-low"``
  the best low card, then the best medium, then the high hand.
- **priority**: the placement ``"best LMH"`` takes the legal setting with the best low card,
  then the best medium hand, then the best high hand; any order of the letters works
  (``"best MLH"`` is "best medium hand first").
- **conditions**: ``("group1", ">=", 10)`` compares the rank (2..14, ace 14) of a group or
  single (``group1``, ``group2``, ``single1``, ``single2``, ...) with a number; ``("made",
  "==", 1)`` asks whether a straight, flush or straight flush can be played in the high hand
  (``flush``: a flush or straight flush; ``straight``: a plain straight; ``made_pair``: one
  can, with a pair in the medium hand); ``("made_low", ">=", 8)`` whether the best low card
  beside a straight or flush in the high hand is an 8 or better (``made_medium`` and
  ``made_medium2``: the higher and the lower card of the best medium hand beside one, both
  the pair's rank for a pair); ``("made_joker", "==", 1)`` whether every straight or flush
  that can be played high needs the joker; ``("made_count", ">=", 2)`` whether two or more
  different four-card straights or flushes can be; ``("joker", "==", 1)`` whether the joker
  is among the seven cards.

When the placement a rule names is not legal for the hand (or does not exist), the rule does
not apply and the next one is tried.

The straight-and-flush facts of one hand: with ``Jk Ah Tc 9c 8d 4d 3c`` three four-card sets
make a straight or flush (the joker flush, Jk-T-9-8 and A-2-3-4), each needs the joker, the
best medium hand beside one is A-8 (beside the flush) and the best low card a 9 (beside
A-2-3-4):

>>> import numpy as np
>>> from asiapoker.cards import parse_cards
>>> ids = np.array([[int(c) for c in parse_cards("Jk Ah Tc 9c 8d 4d 3c")]])
>>> facts = dict(zip(FEATURES, hand_facts(ids).feature[0].tolist()))
>>> [facts[k] for k in ("made_low", "made_medium", "made_medium2", "made_joker", "made_count")]
[9, 14, 8, 1, 3]

>>> Rule("one pair", "MM H L H H H", (("group1", ">=", 20),))
Traceback (most recent call last):
...
asiapoker.errors.HouseWayError: rule condition ('group1', '>=', 20): a rank is a number from 2 to 14
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from ._validate import run_kernel
from .errors import HouseWayError
from .rules import Rules, resolve
from .setting import SPLIT_POSITIONS

__all__ = ["FALLBACKS", "SHAPES", "RackCard", "Rule", "apply_card", "hand_facts", "placement_text"]

SHAPES: dict[tuple[int, ...], str] = {
    (1, 1, 1, 1, 1, 1, 1): "no pair",
    (2, 1, 1, 1, 1, 1): "one pair",
    (2, 2, 1, 1, 1): "two pairs",
    (2, 2, 2, 1): "three pairs",
    (3, 1, 1, 1, 1): "trips",
    (3, 2, 1, 1): "trips and a pair",
    (3, 2, 2): "trips and two pairs",
    (3, 3, 1): "two trips",
    (4, 1, 1, 1): "four of a kind",
    (4, 2, 1): "four of a kind and a pair",
    (4, 3): "four of a kind and trips",
    (5, 1, 1): "five aces",
    (5, 2): "five aces and a pair",
}
"""Shapes by their group sizes, largest first."""
_SHAPE_ID = {name: i for i, name in enumerate(SHAPES.values())}
SHAPE_SIZES = list(SHAPES)
_PART = np.array([[0] * 7 for _ in range(105)], dtype=np.int64)
for _k, (_h, _m, _lo) in enumerate(SPLIT_POSITIONS):
    for _p in _m:
        _PART[_k, _p] = 1
    _PART[_k, _lo] = 2
_PART_ONEHOT = np.zeros((21, 105), dtype=np.int64)
"""[3 * card + part, split]: 1 where the split puts the card (of the sorted seven) in that
part (0 high, 1 medium, 2 low)."""
for _k in range(105):
    for _c in range(7):
        _PART_ONEHOT[3 * _c + _PART[_k, _c], _k] = 1
_MADE = (4, 5, 7, 8)            # straight, flush, straight flush, royal flush
_JOKER_HIGH = np.array([6 in h for h, _, _ in SPLIT_POSITIONS])
"""per split: whether the seventh of the sorted cards (the joker, when there is one) is high"""
_HIGHS = sorted({tuple(sorted(h)) for h, _, _ in SPLIT_POSITIONS})
_HIGH_SET = np.array([[tuple(sorted(h)) == hs for hs in _HIGHS] for h, _, _ in SPLIT_POSITIONS],
                     dtype=np.int64)
"""[split, four-card set]: 1 where the split's high hand is that set of the sorted seven"""
MADE_ORDERS = {"made": (1, 2, 0), "made-high": (1, 0, 2), "made-low": (2, 1, 0)}
"""made-hand placements: the order of (high 0, medium 1, low 2) in which they choose"""
_HAND_WORDS = {"H": "high hand", "M": "medium hand", "L": "low card"}
PRIORITY_PLACEMENTS = {f"best {''.join(o)}": tuple("HML".index(c) for c in o)
             for o in ("LMH", "LHM", "MLH", "MHL", "HML", "HLM")}
"""priority placements: "best" and an order of H, M, L -> the order of (high, medium, low)"""
_MADE_WORDS = {"made": "the best medium hand, then the best low card",
               "made-high": "the best medium hand, then the best high hand",
               "made-low": "the best low card, then the best medium hand"}
FEATURES = ("group1", "group2", "group3", "single1", "single2", "single3", "single4",
             "made", "joker", "flush", "straight", "made_pair", "made_low",
             "made_medium", "made_medium2", "made_joker", "made_count")
FLAGS = ("made", "joker", "flush", "straight", "made_pair", "made_joker")
COUNTS = {"made_count": 35}
"""features that count (0 to the number), where the others are ranks (2..14) or flags"""
_OPS = ("==", ">=", "<=")


def _group_letters(text: str) -> tuple[int, int, int]:
    return (text.count("H"), text.count("M"), text.count("L"))


@dataclass(frozen=True, slots=True)
class Rule:
    """One line of a rack card: for hands of ``shape`` meeting every condition, set the cards
    by ``placement`` (see the module text)."""

    shape: str
    placement: str
    conditions: tuple[tuple[str, str, int], ...] = ()
    """``(fact, comparison, value)`` conditions the hand must meet, all of them."""

    def __post_init__(self) -> None:
        if self.shape not in _SHAPE_ID:
            raise HouseWayError(f"unknown shape {self.shape!r} (one of: "
                                f"{', '.join(SHAPES.values())})")
        sizes = SHAPE_SIZES[_SHAPE_ID[self.shape]]
        if self.placement not in MADE_ORDERS and self.placement not in PRIORITY_PLACEMENTS:
            parts = self.placement.split()
            if len(parts) != len(sizes) or any(
                    len(p) != n or set(p) - set("HML") for p, n in zip(parts, sizes,
                                                                      strict=False)):
                raise HouseWayError(f"placement {self.placement!r} does not fit the shape "
                                    f"{self.shape!r} (groups of {sizes})")
            h, m, lo = (sum(_group_letters(p)[i] for p in parts) for i in range(3))
            if (h, m, lo) != (4, 2, 1):
                raise HouseWayError(f"placement {self.placement!r} puts {h}, {m}, {lo} cards "
                                    "in the high, medium and low hands, not 4, 2, 1")
        for cond in self.conditions:
            if (not isinstance(cond, tuple) or len(cond) != 3 or cond[0] not in FEATURES
                    or cond[1] not in _OPS or isinstance(cond[2], bool)
                    or not isinstance(cond[2], int)):
                raise HouseWayError(f"rule condition {cond!r}: a condition is (feature, op, "
                                    f"number) with a feature of {FEATURES} and op of {_OPS}")
            if cond[0] in FLAGS:
                if cond[2] not in (0, 1):
                    raise HouseWayError(f"rule condition {cond!r}: {cond[0]} is 0 or 1")
            elif cond[0] in COUNTS:
                if not 0 <= cond[2] <= COUNTS[cond[0]]:
                    raise HouseWayError(f"rule condition {cond!r}: {cond[0]} is a number from "
                                        f"0 to {COUNTS[cond[0]]}")
            elif not 2 <= cond[2] <= 14:
                raise HouseWayError(f"rule condition {cond!r}: a rank is a number from 2 "
                                    "to 14")

    def text(self) -> str:
        """The rule in words."""
        made = ("made", "==", 1) in self.conditions
        when = "".join(f", {_condition_text(c, self.shape, made)}" for c in self.conditions)
        return f"{self.shape}{when}: {placement_text(self.shape, self.placement)}"


_RANK_WORDS = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "T"}


def _rank_word(r: int) -> str:
    return _RANK_WORDS.get(r, str(r))


def _condition_text(cond: tuple[str, str, int], shape: str, made: bool = False) -> str:
    """A condition in words (``made``: the rule asks for a straight or flush already)."""
    feat, op, val = cond
    if feat == "made":
        return ("a straight or flush can be played high" if val else
                "no straight or flush can be played high")
    if feat == "joker":
        return "with the joker" if val else "without the joker"
    if feat == "made_pair":
        return ("a straight or flush can be played high with a pair in the medium hand" if val
                else "no straight or flush can be played high with a pair in the medium hand")
    if feat == "flush":
        return ("a flush (or a straight flush) can be played high" if val else
                "no flush can be played high")
    if feat == "straight":             # a straight flush is not one
        return ("a plain straight can be played high" if val else
                "no plain straight can be played high")
    if feat == "made_joker":
        if val:
            return "every straight or flush that can be played high needs the joker"
        return ("one can be played high without the joker" if made else
                "a straight or flush can be played high without the joker, or none can")
    if feat == "made_count":
        words = {"==": "exactly", ">=": "at least", "<=": "at most"}[op]
        return (f"{words} {val} different four-card straight{'s' if val != 1 else ''} or "
                f"flush{'es' if val != 1 else ''} can be played high")
    if feat in ("made_low", "made_medium", "made_medium2"):
        words = {"==": "is", ">=": "is at least", "<=": "is at most"}[op]
        what = {"made_low": "the best low card",
                "made_medium": "the higher card of the best medium hand",
                "made_medium2": "the lower card of the best medium hand"}[feat]
        beside = "beside it" if made else "beside a straight or flush in the high hand"
        return f"{what} {beside} {words} {_rank_word(val)}"
    if feat.startswith("group"):
        groups = [g for g in _group_names(shape) if not g.endswith("single card")]
        i = int(feat[5:]) - 1
        name = groups[i] if i < len(groups) else f"group {i + 1}"
    else:
        name = single_name(int(feat[6:]))
    verb = "are" if name.endswith(("trips", "quads", "aces")) else "is"
    words = {"==": verb, ">=": f"{verb} at least", "<=": f"{verb} at most"}[op]
    return f"{name} {words} {_rank_word(val)}"


_ORDINALS = ("highest", "second-highest", "third-highest", "fourth-highest", "fifth-highest",
             "sixth-highest", "seventh-highest")
_OF_TWO = ("higher", "lower")
_OF_THREE = ("highest", "middle", "lowest")


def single_name(k: int) -> str:
    """Single ``k`` (1 = the highest card alone in its rank) as a dealer says it."""
    return f"the {_ORDINALS[k - 1]} single card"


def _group_names(shape: str) -> list[str]:
    """Each group and single of ``shape`` as a dealer says it ("the higher pair", "the
    highest single card"), in the order of :data:`SHAPE_SIZES`."""
    sizes = SHAPE_SIZES[_SHAPE_ID[shape]]
    kinds = {2: "pair", 3: "trips", 4: "quads", 5: "five aces"}
    names, single = [], 0
    many = {n: sizes.count(n) for n in set(sizes)}
    seen: dict[int, int] = {}
    for n in sizes:
        if n == 1:
            single += 1
            names.append(single_name(single))
        else:
            seen[n] = seen.get(n, 0) + 1
            order = _OF_TWO if many[n] == 2 else _OF_THREE
            names.append(f"the {order[seen[n] - 1]} {kinds[n]}" if many[n] > 1
                         else f"the {kinds[n]}")
    return names


def placement_text(shape: str, placement: str) -> str:
    """A placement in words, e.g. ``"the pair medium; single 2 low; the rest high"``.

    Parameters
    ----------
    shape : str
        A hand shape (:data:`SHAPES`).
    placement : str
        A placement of that shape.

    Raises
    ------
    HouseWayError
        An unknown shape or placement.
    """
    Rule(shape, placement)               # the shape and placement checked, as on a card
    if placement in MADE_ORDERS:
        return f"play a straight or flush high; then {_MADE_WORDS[placement]}"
    if placement in PRIORITY_PLACEMENTS:
        return "the best " + ", then the best ".join(_HAND_WORDS[c] for c in placement[5:])
    names = _group_names(shape)
    parts = placement.split()
    where: dict[str, list[str]] = {"H": [], "M": [], "L": []}
    split_words = []
    for name, p in zip(names, parts, strict=True):
        if len(set(p)) == 1:
            where[p[0]].append(name)
        else:
            split_words.append(f"{name} split " + "/".join(
                {"H": "high", "M": "medium", "L": "low"}[c] for c in p))
    words = []
    for key, label in (("M", "medium"), ("L", "low")):
        if where[key]:
            words.append(f"{' and '.join(where[key])} {label}")
    words.extend(split_words)
    if where["H"]:
        words.append("the rest high")
    return "; ".join(words)


FALLBACKS = (*PRIORITY_PLACEMENTS, "house-way")
"""What a card does with hands no rule fits: a priority placement, or (strategy cards only)
"house-way": set them as the house way does."""


@dataclass(frozen=True, slots=True)
class RackCard:
    """A rack card: a name, its rules in order, and what it does with hands no rule fits
    (``fallback``: ``"best MLH"``, the legal setting with the best medium, then low, then high
    hand; any priority placement; or, for a player's strategy card, ``"house-way"``)."""

    name: str
    """The card's name."""
    rules: tuple[Rule, ...]
    """Its rules, in the order they are tried."""
    fallback: str = "best MLH"

    def __post_init__(self) -> None:
        if self.fallback not in FALLBACKS:
            raise HouseWayError(f"unknown fallback {self.fallback!r} (one of: "
                                f"{', '.join(FALLBACKS)})")

    def fallback_text(self) -> str:
        """What the card does with hands no rule fits, in words: its last clause,
        "otherwise: ..."."""
        if self.fallback == "house-way":
            return "otherwise: set the hand as the house way does"
        return "otherwise: " + placement_text("no pair", self.fallback)

    def text(self) -> list[str]:
        """The rules in words, numbered, and the fallback."""
        return [f"{i + 1}. {r.text()}" for i, r in enumerate(self.rules)] + [
            f"-. {self.fallback_text()}"]


# --------------------------------------------------------------------------------------------
# facts of many hands at once
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What the rules read, for n checked rows of seven ids: ``shape`` (index into
    :data:`SHAPES`), ``label`` (n x 7: each card's group, in rule order), ``feature`` (n x 17,
    in the order of :data:`FEATURES`), ``sig`` (n x 105: each split's placement code),
    ``tri`` (n x 105 x 3 strengths) and ``legal`` (n x 105)."""

    shape: npt.NDArray[np.int64]
    label: npt.NDArray[np.int64]
    feature: npt.NDArray[np.int64]
    sig: npt.NDArray[np.int64]
    tri: npt.NDArray[np.int32]
    legal: npt.NDArray[np.bool_]


def hand_facts(rows: npt.NDArray[Any], rules: Rules | None = None) -> HandFacts:
    """:class:`HandFacts` of n checked rows of seven card ids.

    Parameters
    ----------
    rows : numpy.ndarray
        An n x 7 array of seven-card rows already checked (as the package's own callers
        pass them: no row is checked again).
    rules : Rules, optional
        The rule options (A-2-3-4's place); default ``Rules()``.
    """
    r = resolve(rules)
    rows = np.ascontiguousarray(np.sort(np.asarray(rows, dtype=np.int64), axis=1))
    n = len(rows)
    rank = np.where(rows == 52, 12, rows >> 2)                     # non-decreasing per row
    cnt = np.zeros((n, 13), dtype=np.int64)
    np.add.at(cnt, (np.arange(n)[:, None], rank), 1)
    # order of the ranks present: by count, then rank, both descending
    key = np.where(cnt > 0, cnt * 16 + np.arange(13), -1)
    order = np.argsort(-key, axis=1, kind="stable")                # group index -> rank
    gpos = np.empty_like(order)
    np.put_along_axis(gpos, order, np.arange(13)[None, :].repeat(n, 0), axis=1)
    label = np.take_along_axis(gpos, rank, axis=1)                 # card -> group index
    sizes = np.take_along_axis(cnt, order, axis=1)
    shape = np.full(n, -1, dtype=np.int64)
    for i, sz in enumerate(SHAPE_SIZES):
        pad = np.array(list(sz) + [0] * (13 - len(sz)))
        shape[(sizes == pad).all(axis=1)] = i
    granks = order + 2                                              # ranks 2..14
    nbig = (sizes >= 2).sum(axis=1)
    feature = np.zeros((n, len(FEATURES)), dtype=np.int64)
    for j in range(3):
        feature[:, j] = np.where(j < nbig, granks[:, j], 0)
    for j in range(4):
        col = nbig + j
        ok = (col < 13) & (np.take_along_axis(sizes, np.minimum(col, 12)[:, None],
                                              axis=1)[:, 0] == 1)
        feature[:, 3 + j] = np.where(ok, np.take_along_axis(granks, np.minimum(col, 12)[:, None],
                                                            axis=1)[:, 0], 0)
    tri = np.empty((n, 105, 3), dtype=np.int32)
    run_kernel(_core.split_strengths_kernel, rows, "hands", r.a234_low, tri)
    legal = (tri[:, :, 0] > tri[:, :, 1]) & (tri[:, :, 1] > tri[:, :, 2])
    made = legal & np.isin(tri[:, :, 0] >> 16, _MADE)
    feature[:, 7] = made.any(axis=1)
    feature[:, 8] = rows[:, 6] == 52
    cat = tri[:, :, 0] >> 16
    feature[:, 9] = (legal & np.isin(cat, (5, 7, 8))).any(axis=1)      # flush or better
    feature[:, 10] = (legal & (cat == 4)).any(axis=1)                  # a plain straight
    feature[:, 11] = (made & ((tri[:, :, 1] >> 16) >= 1)).any(axis=1)  # ... and a medium pair
    low_beside = np.where(made, tri[:, :, 2], -1).max(axis=1)        # ... and its best low card
    feature[:, 12] = np.where(low_beside >= 0, (low_beside >> 12) + 1, 0)
    medium = np.where(made, tri[:, :, 1], -1).max(axis=1)            # ... its best medium hand
    top = ((medium >> 12) & 15) + 1
    feature[:, 13] = np.where(medium >= 0, top, 0)
    feature[:, 14] = np.where(medium < 0, 0, np.where(medium >> 16 >= 1, top,
                                                       ((medium >> 8) & 15) + 1))
    joker = rows[:, 6] == 52
    feature[:, 15] = joker & made.any(axis=1) & ~(made & ~_JOKER_HIGH).any(axis=1)
    feature[:, 16] = ((made.astype(np.int64) @ _HIGH_SET) > 0).sum(axis=1)
    # placement code of each split: 9 bits a group, (high, medium, low) counts in 3 bits each;
    # a card's bit for each part it can go to, summed over the cards by the split's parts as
    # one integer product (exact in int64: the codes use 63 bits at most)
    card_bits = (np.int64(1) << (9 * label))[:, :, None] << (3 * np.arange(3))[None, None, :]
    sig = card_bits.reshape(n, 21) @ _PART_ONEHOT
    return HandFacts(shape, label, feature, sig, tri, legal)


def placement_code(placement: str) -> int:
    """The code of a rank placement, as :attr:`HandFacts.sig` holds it."""
    code = 0
    for g, p in enumerate(placement.split()):
        h, m, lo = _group_letters(p)
        code += (h << (9 * g)) + (m << (9 * g + 3)) + (lo << (9 * g + 6))
    return code


def best_split(mask: npt.NDArray[np.bool_], tri: npt.NDArray[np.int32],
          order: tuple[int, int, int]) -> npt.NDArray[np.int64]:
    """Per row, the split in ``mask`` with the best strengths in ``order`` (-1 if none)."""
    t = tri.astype(np.int64)
    key = (t[:, :, order[0]] << 40) | (t[:, :, order[1]] << 20) | t[:, :, order[2]]
    key = np.where(mask, key, -1)
    k = np.argmax(key, axis=1)
    return np.where(mask.any(axis=1), k, -1)


def placement_splits(facts: HandFacts, placement: str) -> npt.NDArray[np.int64]:
    """Per row, the split a placement picks (-1 where it is illegal or does not fit)."""
    if placement in MADE_ORDERS:
        made = facts.legal & np.isin(facts.tri[:, :, 0] >> 16, _MADE)
        return best_split(made, facts.tri, MADE_ORDERS[placement])
    if placement in PRIORITY_PLACEMENTS:
        order = PRIORITY_PLACEMENTS[placement]
        return best_split(facts.legal, facts.tri, (order[0], order[1], order[2]))
    return best_split(facts.legal & (facts.sig == placement_code(placement)), facts.tri, (0, 1, 2))


def feature_mask(feature: npt.NDArray[np.int64],
                 conds: tuple[tuple[str, str, int], ...]) -> npt.NDArray[np.bool_]:
    """Rows of a feature array (:attr:`HandFacts.feature`) that meet every condition; a rank
    condition never holds where the hand has no such group or card (feature 0)."""
    out = np.ones(len(feature), dtype=bool)
    for feat, op, val in conds:
        col = feature[:, FEATURES.index(feat)]
        out &= col == val if op == "==" else col >= val if op == ">=" else col <= val
        if feat not in FLAGS and feat not in COUNTS:
            out &= col > 0
    return out


def condition_mask(facts: HandFacts, cond: tuple[str, str, int]) -> npt.NDArray[np.bool_]:
    """Rows that meet one condition."""
    return feature_mask(facts.feature, (cond,))


def apply_card(card: RackCard, rows: npt.NDArray[Any], rules: Rules | None = None,
               facts: HandFacts | None = None) -> tuple[npt.NDArray[np.int64],
                                                        npt.NDArray[np.int64]]:
    """(split, rule) per row of seven checked ids (split order: the row's ids sorted): the
    first rule that fits decides; rows no rule fits get the card's fallback (split -1 for
    ``"house-way"``: the caller knows the way) and rule -1.

    Parameters
    ----------
    card : RackCard
        The card.
    rows : numpy.ndarray
        An n x 7 array of seven-card rows already checked (as the package's own callers
        pass them: no row is checked again).
    rules : Rules, optional
        The rule options (A-2-3-4's place); default ``Rules()``.
    facts : HandFacts, optional
        The rows' facts, when the caller has them (:func:`hand_facts`).
    """
    f = facts if facts is not None else hand_facts(rows, rules)
    n = len(f.shape)
    split = np.full(n, -1, dtype=np.int64)
    rule = np.full(n, -1, dtype=np.int64)
    for i, r in enumerate(card.rules):
        todo = (split < 0) & (f.shape == _SHAPE_ID[r.shape])
        for cond in r.conditions:
            todo &= condition_mask(f, cond)
        if not todo.any():
            continue
        idx = np.flatnonzero(todo)
        sub = HandFacts(f.shape[idx], f.label[idx], f.feature[idx], f.sig[idx], f.tri[idx],
                        f.legal[idx])
        got = placement_splits(sub, r.placement)
        ok = got >= 0
        split[idx[ok]] = got[ok]
        rule[idx[ok]] = i
    rest = split < 0
    if rest.any() and card.fallback in PRIORITY_PLACEMENTS:
        o = PRIORITY_PLACEMENTS[card.fallback]
        split[rest] = best_split(f.legal[rest], f.tri[rest], (o[0], o[1], o[2]))
    return split, rule
