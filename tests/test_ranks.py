"""SPEC 2: hand ranks, checked rule by rule and exhaustively against tests/reference.py."""

import itertools
from collections import Counter
from math import comb

import numpy as np
import pytest

from asiapoker import CATEGORIES, HandSizeError, Rules, rank, strengths
from asiapoker.errors import CardError, DuplicateCardError
from tests import reference as ref

LOW = Rules(a234="low")


def r(text, rules=None):
    return rank(text, rules)


def test_spec_2_1_card_order():
    order = [r(c) for c in "As Kd Qh Jc Ts 9d 8h 7c 6s 5d 4h 3c 2s".split()]
    assert order == sorted(order, reverse=True)
    assert len(set(order)) == 13


def test_spec_2_2_joker_is_an_ace_in_medium_and_low():
    assert r("Jk") == r("Ad")
    assert r("Jk Ah").category == "pair" and str(r("Jk Ah")) == "Pair of aces"
    assert r("Jk Kh") == r("As Kh")


def test_spec_2_2_joker_completes_straights_and_flushes_in_high():
    assert str(r("Jk As Ks 5s")) == "Flush, A-K-Q-5 of spades"  # the SPEC's own example
    assert str(r("Jk 2s 3s 4s")) == "Straight flush, A-2-3-4 of spades"
    assert r("Jk Ks Qs Js").category == "royal flush"
    assert r("Jk Ks Qd Js") == r("Ac Ks Qd Js")  # the top straight
    assert r("Jk 9d 8d 6d").category == "straight flush"
    assert r("Jk Ah Ad Ac").category == "four aces"
    assert str(r("Jk Kh Kd Kc")) == "Three kings, A kicker"  # the joker is no king
    assert str(r("Jk 7h 7d 2c")) == "Pair of sevens, A-2 kickers"


def test_spec_2_2_joker_takes_the_highest_value():
    # 9-8-7 suited: a straight flush beats the flush and the straight it could also make
    assert str(r("Jk 9h 8h 7h")) == "Straight flush, 10-9-8-7 of hearts"
    # the flush with the joker is the highest missing rank
    assert r("Jk Kh 9h 2h") == r("Ah Kh 9h 2h")


def test_spec_2_3_category_order():
    hands = [
        "As Ah Ad Jk",
        "As Ks Qs Js",
        "Ks Qs Js Ts",
        "Kc Kd Kh Ks",
        "As Ks 9s 2s",
        "Ad Ks Qs Js",
        "Ac Ad Ah Ks",
        "Ac Ad Kh Ks",
        "Ac Ad Kh Qs",
        "Ac Kd Qh 9s",
    ]
    names = [
        "four aces",
        "royal flush",
        "straight flush",
        "four of a kind",
        "flush",
        "straight",
        "three of a kind",
        "two pairs",
        "pair",
        "no pair",
    ]
    ranks = [r(h) for h in hands]
    assert [x.category for x in ranks] == names
    assert ranks == sorted(ranks, reverse=True)


def test_spec_2_4_straight_order():
    straights = ["As Kd Qh Jc", "As 2d 3h 4c", "Ks Qd Jh Tc", "6s 5d 4h 3c", "5s 4d 3h 2c"]
    assert [r(h) for h in straights] == sorted((r(h) for h in straights), reverse=True)
    flushes = ["As 2s 3s 4s", "Ks Qs Js Ts", "6h 5h 4h 3h", "5d 4d 3d 2d"]
    assert [r(h) for h in flushes] == sorted((r(h) for h in flushes), reverse=True)
    assert r("As Ks Qs Js").category == "royal flush"


def test_spec_2_5_a234_low():
    assert r("As 2d 3h 4c", LOW) < r("5s 4d 3h 2c", LOW)
    assert r("As 2s 3s 4s", LOW) < r("5d 4d 3d 2d", LOW)
    assert r("As Kd Qh Jc", LOW) > r("Ks Qd Jh Tc", LOW)
    assert r("As 2s 3s 4s", LOW).category == "straight flush"
    # the joker takes the highest value: with 2-3-4 suited, a 5 beats an ace when A-2-3-4 is low
    assert str(r("Jk 2s 3s 4s", LOW)) == "Straight flush, 5-4-3-2 of spades"


def test_spec_2_6_medium_and_low_hands():
    assert r("7h 7d").category == "pair" and r("Ah Kd").category == "no pair"
    assert r("2c 2d") > r("Ah Kd")
    assert r("2c").category == "no pair"


def test_spec_2_7_highest_card_not_held_by_the_other():
    assert r("7h 7d Kc 3s") > r("7s 7c Qc Js")
    assert r("Ah 9d 5c 3s") > r("Ah 9d 5c 2s")
    assert r("Ah 9h 5h 3h") > r("Ad 9d 5d 2d")
    assert r("Ah 9d 5c 3s") == r("As 9c 5d 3h")  # a copy
    assert r("Kh Kd 4c 4s") == r("Ks Kc 4h 4d")
    assert r("Jk Ah") == r("As Ad")  # joker + ace copies a pair of aces


def test_spec_2_8_hands_of_different_sizes():
    assert r("7h 7d") < r("7s 7c Kc 3s")
    assert r("Kh 5d") > r("Kc")
    assert r("7h 7d") > r("6s 6c Ac Kd")
    assert r("Ah") > r("Kh Qd")
    assert r("Ah Kd") > r("Ac Qd 9h 8s")


def test_descriptions():
    assert str(r("7h 7d Kc 3s")) == "Pair of sevens, K-3 kickers"
    assert str(r("As Ks Qs Js")) == "Royal flush of spades"
    assert str(r("Kh Kd 4c 4s")) == "Two pairs, kings and fours"
    assert str(r("9c 9d 9h 9s")) == "Four nines"
    assert str(r("Kc 9d 5h 3s")) == "No pair, K-9-5-3"
    assert str(r("Tc Td")) == "Pair of tens"
    assert str(r("Ks")) == "King"
    assert str(r("8s")) == "Eight" and str(r("Tc")) == "Ten"            # one style: words


def test_bad_input():
    with pytest.raises(HandSizeError, match="got 3"):
        rank("As Ks Qs")
    with pytest.raises(DuplicateCardError, match="Ks"):
        rank("As Ks Ks Qs")
    with pytest.raises(CardError, match="Zs"):
        rank("Zs")


# --- exhaustive comparison with the reference ----------------------------------------------

ALL4 = np.array(list(itertools.combinations(range(53), 4)), dtype=np.int8)
ALL2 = np.array(list(itertools.combinations(range(53), 2)), dtype=np.int8)
ALL1 = np.arange(53, dtype=np.int8).reshape(-1, 1)


def _orders_as_the_reference(a234, arrays):
    """Same order as the reference on one scale, copies equal, over every row of ``arrays``."""
    rules = Rules(a234=a234)
    pairs: dict[int, tuple] = {}
    key_to_strength: dict[tuple, int] = {}
    for arr in arrays:
        got = strengths(arr, rules)
        for row, s in zip(arr.tolist(), got.tolist(), strict=False):
            key = ref.value([ref.card_text(c) for c in row], a234)
            assert pairs.setdefault(s, key) == key, row
            assert key_to_strength.setdefault(key, s) == s, row
    keys_in_strength_order = [pairs[s] for s in sorted(pairs)]
    assert keys_in_strength_order == sorted(keys_in_strength_order)


@pytest.mark.slow
@pytest.mark.parametrize("a234", ["high", "low"])
def test_every_hand_orders_as_the_reference(a234):
    """All 292,825 + 1,378 + 53 hands on one scale: same order as the reference, copies equal."""
    _orders_as_the_reference(a234, (ALL4, ALL2, ALL1))


@pytest.mark.parametrize("a234", ["high", "low"])
def test_sampled_hands_order_as_the_reference(a234):
    """The sampled check (every hand under -m slow): 40,000 random 4-card hands, 3,000 more with
    the joker, every 4-card hand of one suit, and every 2- and 1-card hand."""
    rng = np.random.default_rng(5)
    joker = ALL4[(ALL4 == 52).any(1)]
    suited = ALL4[((ALL4 % 4) == (ALL4[:, :1] % 4)).all(1) & (ALL4 != 52).all(1)]
    sample = np.concatenate([ALL4[rng.choice(len(ALL4), 40_000, replace=False)],
                             joker[rng.choice(len(joker), 3_000, replace=False)], suited])
    _orders_as_the_reference(a234, (sample, ALL2, ALL1))


def test_single_and_batch_agree(rng):
    rows = ALL4[rng.choice(len(ALL4), 2000, replace=False)]
    batch = strengths(rows)
    assert [int(rank(row.tolist())) for row in rows] == batch.tolist()


def test_golden_category_counts():
    """Counts of 4-card hands by category, derived by hand below (not by the code under test).

    Without the joker (C(52,4)): 11 rank windows of four (A-2-3-4 .. A-K-Q-J), 10 of them are
    not the royal one.  With the joker: the joker plus three cards; a 3-rank set completes a
    straight when it lies inside a window: 11 windows x 4 subsets, minus the 10 subsets two
    neighbouring windows share, = 34 sets, 6 of them holding an ace and 4 inside A-K-Q-J.
    """
    windows = 11
    no_joker = {
        "four aces": 1,
        "royal flush": 4,
        "straight flush": (windows - 1) * 4,
        "four of a kind": 12,
        "flush": 4 * comb(13, 4) - 4 - (windows - 1) * 4,
        "straight": windows * (4**4 - 4),
        "three of a kind": 13 * comb(4, 3) * 12 * 4,
        "two pairs": comb(13, 2) * comb(4, 2) ** 2,
        "pair": 13 * comb(4, 2) * comb(12, 2) * 4**2,
        "no pair": comb(13, 4) * 4**4 - (windows * 4**4 + 4 * comb(13, 4) - windows * 4),
    }
    sets3 = windows * 4 - (windows - 1)  # 34
    with_ace, in_royal = 6, 4
    joker = {
        "four aces": comb(4, 3),
        "royal flush": 4 * in_royal,
        "straight flush": 4 * (sets3 - in_royal),
        "four of a kind": 0,
        "flush": 4 * comb(13, 3) - 4 * sets3,
        "straight": sets3 * (4**3 - 4),
        "three of a kind": comb(4, 2) * 48 + 12 * comb(4, 3),
        "two pairs": 4 * 12 * comb(4, 2),
        "pair": 12 * comb(4, 2) * 11 * 4 + (comb(12, 2) - with_ace) * (4**3 - 4),
        "no pair": (comb(12, 3) - (sets3 - with_ace)) * (4**3 - 4),
    }
    assert sum(no_joker.values()) == comb(52, 4)
    assert sum(joker.values()) == comb(52, 3)
    expected = {k: no_joker[k] + joker[k] for k in no_joker}
    got = Counter(CATEGORIES[s >> 16] for s in strengths(ALL4).tolist())
    assert dict(got) == {k: v for k, v in expected.items() if v}
    assert sum(expected.values()) == 292_825
