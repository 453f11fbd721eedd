"""Rack cards (asiapoker.rack) and the shipped ways: the array implementation against a plain
per-hand reading of the rules (tests/reference_rack.py), the shipped tables against what they
are built from, suit symmetry, explanations, bad input."""


import numpy as np
import pytest

from asiapoker import HouseWay, HouseWayError, Rules, dealer_strengths, house_way
from asiapoker._compile import class_table
from asiapoker._standard import STANDARD
from asiapoker.cards import card_of
from asiapoker.equilibrium import best_response_splits, way_digest
from asiapoker.house_way import card_table
from asiapoker.rack import RackCard, Rule, apply_card
from asiapoker.setting import legal_splits
from asiapoker.solver import count_splits
from tests import reference as ref
from tests import reference_rack as rr

# a hand-written card of three rules
SMALL = RackCard("small", (
    Rule("one pair", "MM H L H H H", (("group1", ">=", 10),)),
    Rule("one pair", "made"),
    Rule("two pairs", "HH MM L H H"),
))

# rules on the yes/no features
FLAGS = RackCard("flags", (
    Rule("one pair", "MM L H H H H", (("made_pair", "==", 1),)),
    Rule("one pair", "made-low", (("made_pair", "==", 0), ("flush", "==", 1))),
    Rule("one pair", "made-high", (("made_low", ">=", 9),)),
    Rule("two pairs", "best LMH", (("made_low", "<=", 8),)),
    Rule("no pair", "made", (("straight", "==", 1), ("joker", "==", 0))),
    Rule("two pairs", "made", (("made_pair", "==", 1),)),
    Rule("trips", "best MLH", (("made_pair", "==", 0),)),
))


def _texts(row):
    return [ref.card_text(int(c)) for c in row]


def _values(setting, a234="high"):
    return tuple(ref.value([str(c) for c in part], a234)
                 for part in (setting.high, setting.medium, setting.low))


def _mixed_hands(rng, n):
    """Random hands, a third rich in one suit, a third with the joker."""
    hands = np.argsort(rng.random((n, 53)), axis=1)[:, :7]
    third = n // 3
    for i in range(third):
        suit = int(rng.integers(4))
        picks = rng.choice(13, 5, replace=False) * 4 + suit
        rest = [c for c in rng.permutation(53) if c not in picks][:2]
        hands[i] = np.concatenate([picks, rest])
    hands[third:2 * third, 0] = np.where((hands[third:2 * third] == 52).any(1),
                                         hands[third:2 * third, 0], 52)
    return np.sort(hands, axis=1)


def test_hand_facts_match_the_plain_reading(rng):
    from asiapoker.rack import FEATURES, hand_facts
    rows = _mixed_hands(rng, 150)
    facts = hand_facts(rows)
    for row, feature in zip(rows.tolist(), facts.feature.tolist(), strict=True):
        _, _, f, _ = rr.facts(_texts(row))
        assert {k: v or 0 for k, v in f.items()} == dict(zip(FEATURES, feature, strict=True))
    assert facts.feature[:, FEATURES.index("made_pair")].any()
    assert len(np.unique(facts.feature[:, FEATURES.index("made_low")])) > 5
    for name in ("made_medium", "made_medium2", "made_count"):
        assert len(np.unique(facts.feature[:, FEATURES.index(name)])) > 3, name
    assert facts.feature[:, FEATURES.index("made_joker")].any()


@pytest.mark.parametrize("card", [SMALL, FLAGS, STANDARD], ids=["small", "flags", "standard"])
def test_card_matches_the_plain_reading(card, rng):
    rows = _mixed_hands(rng, 90)
    split, rule = apply_card(card, rows)
    plain = [(r.shape, r.placement, r.conditions) for r in card.rules]
    from asiapoker.setting import SPLIT_POSITIONS
    for row, k, i in zip(rows.tolist(), split.tolist(), rule.tolist(), strict=True):
        h, m, lo = SPLIT_POSITIONS[k]
        got = (ref.value(_texts([row[p] for p in h])), ref.value(_texts([row[p] for p in m])),
               ref.value(_texts([row[lo]])))
        want, want_rule = rr.rack_setting(plain, _texts(row))
        assert (got, i) == (want, want_rule), _texts(row)


def test_small_card_by_hand():
    # one pair of kings: rule 1 would put the kings medium, but the high hand A-5-3-2 cannot
    # beat a pair, so it is passed over; no straight or flush either: no rule fits
    way = HouseWay.from_card(SMALL)
    assert way.explain("Kc Kd Ah 9s 5c 3d 2h")[1].startswith("the last clause, otherwise: ")
    # tens with a flush: rule 1 (tens medium, single 2 low, the rest high) is legal
    setting, why = way.explain("Tc Td Ah Kc 9h 5h 3h")
    assert why.startswith("rule 1:")
    assert str(setting) == "Ah 9h 5h 3h | Td Tc | Kc"
    # a pair of fives with a flush: rule 2, the flush high and then the best medium (the pair)
    setting, why = way.explain("5c 5h Ah 9h 6h 3h 2c")
    assert why.startswith("rule 2:")
    assert {str(c) for c in setting.high} == {"Ah", "9h", "6h", "3h"}
    # two pairs: rule 3, the higher pair high, the lower medium, the top single low
    setting, why = way.explain("Kc Kd 7h 7s Qc 5d 2h")
    assert why.startswith("rule 3:") and str(setting) == "Kd Kc 5d 2h | 7s 7h | Qc"


def test_shipped_standard_table_is_the_card_on_slices():
    keys, reps = class_table()
    shipped = HouseWay.named("standard").table
    for start in (0, 400_000, 829_504 - 5_000):
        rows = reps[start:start + 5_000]
        split, _ = apply_card(STANDARD, rows)
        assert (shipped[start:start + 5_000] == split).all()
    assert len(shipped) == len(keys)


@pytest.mark.slow
def test_shipped_standard_table_is_the_card_everywhere():
    assert (HouseWay.named("standard").table == card_table(STANDARD)).all()


EQUILIBRIUM_MARGIN = 1000
"""The margin the shipped equilibrium was made with (docs/house-ways.md gives the command)."""


def test_shipped_equilibrium_is_its_own_best_response():
    """The shipped equilibrium is a fixed point: its own best response with the margin it was
    made with, recomputed on a sample of classes; the plain best response gains nowhere more
    than that margin (counted by ``count_splits``, an independent path)."""
    way = HouseWay.named("equilibrium")
    _, reps = class_table()
    idx = np.sort(np.random.default_rng(9).choice(len(reps), 60, replace=False))
    got = best_response_splits(way, Rules(), "dealer", reps[idx], margin=EQUILIBRIUM_MARGIN)
    assert (got == way.table[idx]).all()
    counts = count_splits(reps[idx], way, Rules(), "dealer")
    own = counts[np.arange(len(idx)), way.table[idx]]
    best = np.where(legal_splits(reps[idx]), counts, -1).max(axis=1)
    assert (best - own <= EQUILIBRIUM_MARGIN).all() and (best >= own).all()


def test_earlier_equilibrium_loads_by_its_versioned_name():
    """``equilibrium-v1`` (the way of the first builds) is still there, verified, and not the
    shipped equilibrium."""
    old = HouseWay.named("equilibrium-v1")
    assert old.name == "equilibrium-v1"
    assert way_digest(old, Rules()).startswith("146467e80a990681")
    assert way_digest(HouseWay.named("equilibrium"), Rules()) != way_digest(old, Rules())


@pytest.mark.parametrize("name", ["standard", "equilibrium", "equilibrium-v1"])
def test_shipped_ways_are_suit_symmetric_and_legal(name, rng):
    way = HouseWay.named(name)
    hands = _mixed_hands(rng, 600)
    perm = np.array([2, 0, 3, 1])
    renamed = np.where(hands == 52, 52, hands // 4 * 4 + perm[hands % 4])
    a = dealer_strengths(hands, way)
    assert (a == dealer_strengths(renamed, way)).all()
    assert ((a[:, 0] > a[:, 1]) & (a[:, 1] > a[:, 2])).all()
    for row in hands[:20].tolist():
        cards = " ".join(str(card_of(c)) for c in row)
        assert house_way(cards, way).strengths() == tuple(dealer_strengths([row], way)[0])


def test_default_way_is_standard_and_explains_its_rule():
    assert house_way("Kc Kd Jh Js 7c 7d 2s") == house_way("Kc Kd Jh Js 7c 7d 2s", "standard")
    _, why = HouseWay.named("standard").explain("7s 7d 7c 9c 6c 2c Ts")
    assert "(standard)" in why
    assert why.startswith(("rule ", "the last clause, otherwise: "))


@pytest.mark.parametrize("way", ["standard", "equilibrium", "classic", "medium-first",
                                 "high-first"])
def test_explain_names_a_clause_for_every_hand(way):
    """No built-in way answers "no rule fits": a rack card's last clause is a clause too."""
    from asiapoker.sampling import random_hands
    w = HouseWay.named(way)
    for row in random_hands(400, 53).tolist():
        setting, why = w.explain(row)
        assert "no rule fits" not in why and f"({way})" in why
        assert str(setting) == str(house_way(row, way))
        if w.card is not None:
            assert why.startswith(("rule ", "the last clause, otherwise: "))


def test_bad_rules():
    with pytest.raises(HouseWayError, match="unknown shape"):
        Rule("a full house", "HHH MM L H")
    with pytest.raises(HouseWayError, match="does not fit the shape"):
        Rule("one pair", "MM H L H H")
    with pytest.raises(HouseWayError, match="not 4, 2, 1"):
        Rule("one pair", "MM H L L H H")
    with pytest.raises(HouseWayError, match="condition"):
        Rule("one pair", "made", (("kicker", ">=", 5),))
    with pytest.raises(HouseWayError, match="from 2 to 14"):
        Rule("one pair", "made", (("group1", ">=", 1),))
    with pytest.raises(HouseWayError, match="0 or 1"):
        Rule("one pair", "made", (("joker", "==", 2),))
    with pytest.raises(HouseWayError, match=r"rack\.RackCard"):
        HouseWay.from_card("not a card")  # type: ignore[arg-type]


def test_rule_text_reads_as_words():
    text = Rule("two pairs", "HL MM H H H", (("single1", ">=", 13),)).text()
    assert text == ("two pairs, the highest single card is at least K: the lower pair medium; "
                    "the higher pair split high/low; the rest high")


def test_standard_matches_the_plain_reading_on_a_slice_of_classes():
    _, reps = class_table()
    rows = reps[300_000:300_040]
    shipped = HouseWay.named("standard").table[300_000:300_040]
    from asiapoker.setting import SPLIT_POSITIONS
    plain = [(r.shape, r.placement, r.conditions) for r in STANDARD.rules]
    for row, k in zip(rows.tolist(), shipped.tolist(), strict=True):
        h, m, lo = SPLIT_POSITIONS[k]
        got = (ref.value(_texts([row[p] for p in h])), ref.value(_texts([row[p] for p in m])),
               ref.value(_texts([row[lo]])))
        assert got == rr.rack_setting(plain, _texts(row))[0], _texts(row)
