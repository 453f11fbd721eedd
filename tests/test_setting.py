"""SPEC 3: splits, legality and settlement."""

import itertools

import numpy as np
import pytest

from asiapoker import (
    SPLIT_POSITIONS,
    DuplicateCardError,
    HandSizeError,
    IllegalSettingError,
    RuleError,
    Rules,
    Setting,
    is_legal,
    legal_splits,
    settle,
    splits,
)
from tests import reference as ref

SEVEN = "As Kd 7h 7c Jk 2s 9d"


def test_spec_3_1_there_are_105_splits():
    ss = splits(SEVEN)
    assert len(ss) == 105 == len(set(ss)) == len(SPLIT_POSITIONS)
    for s in ss:
        assert sorted(map(int, s.cards)) == sorted(map(int, Setting.parse(str(s)).cards))
        assert (len(s.high), len(s.medium), len(s.low)) == (4, 2, 1)


def test_spec_3_1_split_order_is_documented():
    assert SPLIT_POSITIONS[0] == ((0, 1, 2, 3), (5, 6), 4)
    assert SPLIT_POSITIONS[1] == ((0, 1, 2, 3), (4, 6), 5)
    assert SPLIT_POSITIONS[104] == ((3, 4, 5, 6), (0, 1), 2)
    highs = [h for h, _, _ in SPLIT_POSITIONS[::3]]
    assert highs == list(itertools.combinations(range(7), 4))


def test_spec_3_2_legality():
    assert is_legal(Setting("As Ks 9c 2d", "Qh Jh", "Tc"))
    assert not is_legal(Setting("9s 8s 4c 2d", "Qh Qd", "Tc"))  # medium beats high
    assert not is_legal(Setting("As Ks 9c 2d", "Qh Jh", "Kc"))  # low beats medium
    assert is_legal(Setting("7s 7d 4c 2d", "7h 7c", "Tc"))  # 7-7-4-2 > 7-7 (SPEC 2.8)
    assert not is_legal(Setting("7s 7d 4c 2d", "Th 3c", "Kc"))
    assert is_legal(Setting("As Ks 9c 2d", "Qh Jh", "Qc"))  # Q-J > Q (SPEC 2.8)


def test_spec_3_2_foul_loses_whatever_the_dealer_holds():
    foul = Setting("9s 8s 4c 2d", "Qh Qd", "Tc")
    weak_dealer = Setting("Kc 6d 5h 3s", "Jd 3c", "2h")
    out = settle(foul, weak_dealer)
    assert out.result == "foul" and out.payout == -1


def test_spec_3_3_copy_goes_to_the_dealer():
    player = Setting("As Kd 9c 5h", "Qh Jh", "Tc")
    dealer = Setting("Ad Kc 9h 5s", "Qd Jd", "2c")
    out = settle(player, dealer)
    assert out.hands == ("copy", "copy", "win") and out.result == "lose"


def test_spec_3_4_two_of_three_and_pays():
    player = Setting("As Ks Qs Js", "7h 7d", "2c")
    dealer = Setting("9c 9d 4h 4s", "Ad Qc", "Kh")
    out = settle(player, dealer, Rules(pays=1.5))
    assert out.hands == ("win", "win", "lose")
    assert out.result == "win" and out.payout == 1.5
    lost = settle(dealer, player)
    assert lost.result == "lose" and lost.payout == -1


def test_settle_rejects_bad_input():
    s = Setting("As Ks Qs Js", "7h 7d", "2c")
    with pytest.raises(DuplicateCardError, match="As"):
        settle(s, Setting("As 9d 4h 4s", "Kd Qc", "3h"))
    with pytest.raises(IllegalSettingError, match="dealer"):
        settle(s, Setting("9s 8s 4c 2d", "Qh Qd", "Tc"))
    with pytest.raises(HandSizeError):
        Setting("As Ks Qs", "7h 7d", "2c")
    with pytest.raises(HandSizeError, match="medium"):
        Setting("As Ks Qs Js", "7h", "2c")
    with pytest.raises(DuplicateCardError, match="Ks"):
        Setting("As Ks Qs Js", "Ks 7d", "2c")
    with pytest.raises(HandSizeError):
        Setting.parse("As Ks Qs Js | 7h 7d")
    with pytest.raises(HandSizeError):
        settle(s, 42)
    with pytest.raises(RuleError):
        settle(s, s, rules="low")
    with pytest.raises(RuleError):
        Rules(a234="middle")
    with pytest.raises(RuleError):
        Rules(pays=float("nan"))


def test_settings_accept_every_card_form():
    a = Setting("As Ks Qs Js", "7h 7d", "2c")
    b = Setting([51, 47, 43, 39], ["7h", "7d"], 0)
    c = Setting.coerce(("Js Qs Ks As", "7d 7h", "2c"))
    assert a == b == c and hash(a) == hash(c)


def _ref_cards(setting):
    return tuple([str(c) for c in part] for part in (setting.high, setting.medium, setting.low))


def _random_sevens(rng, n):
    return [rng.choice(53, 7, replace=False) for _ in range(n)]


@pytest.mark.parametrize("a234", ["high", "low"])
def test_legality_of_every_split_matches_the_reference(rng, a234):
    rules = Rules(a234=a234)
    hands = np.array(_random_sevens(rng, 300))
    hands[0] = [48, 0, 4, 8, 12, 52, 51]  # A-2-3-4 and the joker
    batch = legal_splits(hands, rules)
    for row, legal in zip(hands, batch, strict=False):
        for k, s in enumerate(splits(row.tolist())):
            expected = ref.is_legal(*_ref_cards(s), a234=a234)
            assert is_legal(s, rules) == expected == bool(legal[k])


def test_settlement_matches_the_reference(rng):
    for _ in range(400):
        fourteen = rng.choice(53, 14, replace=False).tolist()
        player = splits(fourteen[:7])[int(rng.integers(105))]
        dealer_options = [s for s in splits(fourteen[7:]) if is_legal(s)]
        dealer = dealer_options[int(rng.integers(len(dealer_options)))]
        out = settle(player, dealer, Rules(pays=2))
        assert tuple(out) == ref.settle(_ref_cards(player), _ref_cards(dealer), pays=2.0)


def test_legal_splits_rejects_bad_rows():
    good = np.arange(7).reshape(1, 7)
    with pytest.raises(DuplicateCardError, match="row 1"):
        legal_splits(np.vstack([good, [[0, 0, 1, 2, 3, 4, 5]]]))
    with pytest.raises(HandSizeError):
        legal_splits(np.arange(6).reshape(1, 6))


def test_batch_building_blocks_agree_with_the_single_hand_functions(rng):
    from asiapoker import (
        dealer_strengths,
        house_way,
        house_way_splits,
        settle_many,
        split_strengths_of,
    )

    both = np.argsort(rng.random((300, 53)), axis=1)[:, :14]
    player, dealer = both[:, :7], both[:, 7:]
    rng_k = np.random.default_rng(3).integers(0, 105, len(player))
    p = split_strengths_of(player, rng_k)
    d = dealer_strengths(dealer, "classic")
    hw = house_way_splits(player, "classic")
    assert (split_strengths_of(player, hw) == dealer_strengths(player, "classic")).all()
    results = settle_many(p, d)
    for i in range(40):
        mine = splits(player[i].tolist())[rng_k[i]]
        theirs = house_way(dealer[i].tolist(), "classic")
        out = settle(mine, theirs)
        assert results[i] == {"win": 1, "lose": 0, "foul": -1}[out.result]
    with pytest.raises(IllegalSettingError, match=r"outside 0\.\.104"):
        split_strengths_of(player[:2], [0, 105])
    with pytest.raises(IllegalSettingError, match="one integer index per row"):
        split_strengths_of(player[:2], [0])
    with pytest.raises(DuplicateCardError, match="row 0"):
        split_strengths_of([[1, 1, 2, 3, 4, 5, 6]], [0])
    with pytest.raises(IllegalSettingError, match="n x 3"):
        settle_many(p[:3], d[:4])
