"""The bonus wager (SPEC 4): categories, pay tables, exact odds."""

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from asiapoker import (
    BONUS_CATEGORIES,
    BonusError,
    DuplicateCardError,
    HandSizeError,
    PayTable,
    bonus_hand,
    bonus_hands,
    bonus_odds,
    bonus_payout,
)
from asiapoker.bonus import mask_counts
from tests import reference as ref

EDGE_CASES = {
    # SPEC 4.3: the joker completes straights, flushes and straight flushes, else is an ace
    "As Ad Ah Jk Kc 7d 2s": "four of a kind",              # AAA + joker
    "As Ad Ah Ac Jk Kc 2s": "five aces",
    "8c 8d 8h 8s Ah Ad Jk": "four 8s and three of a kind",  # 8888 + AA + joker
    "8c 8d 8h 8s 5h 5d 5c": "four 8s and three of a kind",
    "8c 8d 8h 8s 5h 5d Kc": "four of a kind",
    # 9-high, even with a flush, never with the joker
    "9c 8c 7c 6c 4c 3d 2h": "9-high",
    "9c 8d 7h 5s 4c 3d 2h": "9-high",
    "9c 8d 7h 6s 4c 3d Jk": "straight",                    # joker fills the 5
    "9c 8d 7h 6s 4c 3d 2c": "9-high",
    # highest pay wins: three of a kind (3) over a straight (2)
    "9c 9d 9h Ts Jc Qd Kh": "three of a kind",
    # straights: 5-4-3-2-A, A-K-Q-J-T, with the joker
    "As 2d 3h 4s 5c 9d Jh": "straight",
    "As Kd Qh Js Tc 2d 7h": "straight",
    "Jk 2d 3h 4s 5c 9d Jh": "straight",
    # royal flush with and without the joker
    "As Ks Qs Js Ts 2d 7h": "royal flush",
    "As Ks Qs Js Jk 2d 7h": "royal flush",
    "Ks Qs Js Ts 9s Jk 2d": "royal flush",                 # joker as the ace of spades
    "Ks Qs Js Ts 9s 2c 2d": "natural straight flush",
    "5s 4s 3s 2s As 2c 2d": "natural straight flush",      # the wheel, suited
    "5s 4s 3s 2s Jk 2c 2d": "straight flush with joker",
    "Kh Kd Ks 2s 2h Jk 7c": "full house",
    "Kh Kd 2s Ah Ac Jk 7c": "full house",                  # AA + joker is trips
    "Kh Kd 2s 2h Ac Jk 7c": None,                          # A + joker is only a pair
    "Kh Ks 7s 2s 4s Jk 9c": "flush",
    "Kh Kd 7s 2s 4s 9h 3c": None,
}


@pytest.mark.parametrize(("seven", "expected"), EDGE_CASES.items())
def test_edge_cases(seven, expected):
    assert bonus_hand(seven) == expected
    assert ref.bonus_paid(seven.split())[0] == expected


def test_pay_tables():
    assert bonus_payout("Ks Qs Js Ts 9s 2c 2d", "A") == 80
    assert bonus_payout("Ks Qs Js Ts 9s 2c 2d", "B") == 50
    assert bonus_payout("8c 8d 8h 8s 5h 5d Kc", "C") == 25
    assert bonus_payout("Kh Kd 7s 2s 4s 9h 3c") == -1
    mine = PayTable({"straight": 10, "three of a kind": 1}, name="mine")
    assert bonus_hand("9c 9d 9h Ts Jc Qd Kh", mine) == "straight"   # its highest pay
    assert bonus_payout("9c 9d 9h Ts Jc Qd Kh", mine) == 10
    assert bonus_payout("As Ad Ah Ac Jk Kc 2s", mine) == 1


def test_exact_counts_by_independent_combinatorics():
    odds = {r.category: r.count for r in bonus_odds("A").rows}
    assert sum(odds.values()) == comb(53, 7) == 154_143_080
    assert odds["five aces"] == comb(48, 2) == 1128
    assert odds["four 8s and three of a kind"] == 12 * comb(4, 3) + comb(4, 2)
    assert odds["9-high"] == 2 * 4**7
    # royal: all five natural (+2 of the 48 others), or the joker with four of them (+2 of 47)
    assert odds["royal flush"] == 4 * comb(48, 2) + 4 * 5 * comb(47, 2)
    # natural straight flush paid as such: for each suit, each of the 9 windows below the
    # royal as the HIGHEST natural one (the card above it absent: 2 others of 47), less the
    # hands the joker turns into a royal: 9-T-J-Q-K + joker (+1 of 46), and 8-9-T-J-Q + A +
    # joker (one hand)
    assert odds["natural straight flush"] == 4 * 9 * comb(47, 2) - 4 * 46 - 4 * 1


def test_counting_equals_enumerating_every_hand():
    assert (mask_counts("count") == mask_counts("enumerate")).all()


def test_odds_of_the_regulation_tables():
    a, b, c = bonus_odds("A"), bonus_odds("B"), bonus_odds("C")
    assert a.house_edge < b.house_edge < c.house_edge
    for odds in (a, b, c):
        assert abs(sum(r.probability for r in odds.rows) - 1) < 1e-12
        assert odds.ev == pytest.approx(sum(r.return_ for r in odds.rows))
        assert odds.rows[-1].category is None
        assert odds.ev_exact == Fraction(sum(r.count * r.pays for r in odds.rows[:-1])
                                         - odds.rows[-1].count, odds.total)
        assert [r.pays for r in odds.rows[:-1]] == sorted((r.pays for r in odds.rows[:-1]),
                                                          reverse=True)


def _random_sevens(n, seed):
    rng = np.random.default_rng(seed)
    hands = np.argsort(rng.random((n, 53)), axis=1)[:, :7]
    hands[: n // 4, 0] = np.where((hands[: n // 4] == 52).any(1), hands[: n // 4, 0], 52)
    return hands


def _agree(hands):
    for t, name in enumerate("ABC"):
        codes = bonus_hands(hands, name)
        for row, code in zip(hands.tolist(), codes.tolist(), strict=True):
            expected, _ = ref.bonus_paid([ref.card_text(c) for c in row], t)
            assert (BONUS_CATEGORIES[code] if code >= 0 else None) == expected, row


def test_random_hands_agree_with_the_reference():
    _agree(_random_sevens(4000, 11))


@pytest.mark.slow
def test_200k_random_hands_agree_with_the_reference():
    _agree(_random_sevens(200_000, 12))


def test_bad_input():
    with pytest.raises(BonusError, match="D"):
        bonus_odds("D")
    with pytest.raises(BonusError, match="full hose"):
        PayTable({"full hose": 5})
    with pytest.raises(BonusError):
        PayTable({"flush": -1})
    with pytest.raises(HandSizeError):
        bonus_hand("As Ks")
    with pytest.raises(DuplicateCardError):
        bonus_payout("As As Ks Qs Js Ts 2c")
    with pytest.raises(DuplicateCardError, match="row 0"):
        bonus_hands(np.array([[52, 52, 1, 2, 3, 4, 5]]))
    with pytest.raises(BonusError):
        bonus_odds("A", method="guess")


def test_bonus_payouts_in_batch_match_one_by_one_with_wagers_and_a_limit(rng):
    from asiapoker import BonusError, bonus_payout, bonus_payouts
    hands = np.argsort(rng.random((4000, 53)), axis=1)[:, :7]
    hands[:3] = [[28, 25, 22, 19, 8, 5, 2], [0, 1, 2, 3, 48, 49, 52], [24, 25, 26, 27, 48, 49, 52]]
    wagers = rng.integers(1, 50, len(hands))
    for table in ("A", "C"):
        for limit in (None, 100, 1):
            got = bonus_payouts(hands, table, wagers, limit)
            for row, w, g in zip(hands[:400].tolist(), wagers, got, strict=False):
                odds = bonus_payout(row, table)
                want = -w if odds < 0 else w * odds if limit is None else min(w * odds, limit)
                assert g == want
    assert bonus_payouts(hands[:3], "A", 2).tolist() == [20, 60, 10000]
    for bad, match in ((0, "wager"), (1.5, "wager"), (np.ones(2, int), "shape"),
                       ("5", "wager")):
        with pytest.raises(BonusError, match=match):
            bonus_payouts(hands[:3], wager=bad)
    for bad in (0, True, 2.5):
        with pytest.raises(BonusError, match="limit"):
            bonus_payouts(hands[:3], limit=bad)
