"""The table: regulation rounds and the fast simulation."""

import json
import math
from decimal import Decimal

import numpy as np
import pytest

from asiapoker import (
    HouseWayError,
    IllegalSettingError,
    OptionError,
    PayTable,
    RuleError,
    Rules,
    Setting,
    StrategyError,
    WagerError,
    bonus_hand,
    bonus_odds,
    house_way,
    is_legal,
    solve_many,
    splits,
)
from asiapoker.bonus import mask_counts
from asiapoker.simulation import simulate
from asiapoker.table import SURRENDER, Table, Wager
from tests import reference as ref

ALL_SEATS = [Wager(s, 10, 1) for s in range(1, 7)]


@pytest.mark.parametrize("dealing", ["shoe", "hand", "auto-shoe"])
def test_every_round_deals_49_distinct_cards_and_4_left(dealing):
    table = Table(dealing=dealing, seed=3)
    for _ in range(50):
        r = table.play_round(ALL_SEATS)
        dealt = [c for p in r.positions for c in p.cards]
        assert len(dealt) == 49 == len(set(dealt))
        assert len(r.leftover) == 4 and not set(r.leftover) & set(dealt)
        assert sorted(dealt + list(r.leftover)) == sorted(r.deck)
        assert sorted(p.stack for p in r.positions) == list(range(1, 8))


def _stacks(deck, dealing):
    """The seven stacks each procedure makes from the deck order (written out plainly)."""
    if dealing == "shoe":
        return [deck[s:49:7] for s in range(7)]
    if dealing == "auto-shoe":
        return [deck[7 * s: 7 * s + 7] for s in range(7)]
    stacks = [[] for _ in range(7)]
    for i in range(49):
        row, j = divmod(i, 7)
        stacks[j if row % 2 == 0 else 6 - j].append(deck[i])   # left to right, then back
    return stacks


@pytest.mark.parametrize("dealing", ["shoe", "hand", "auto-shoe"])
def test_dealing_procedures_and_the_starting_position(dealing):
    table = Table(dealing=dealing, seed=11)
    for _ in range(20):
        r = table.play_round(ALL_SEATS)
        assert r.start_position == (sum(r.dice) - 1) % 7 + 1
        stacks = _stacks(list(r.deck), dealing)
        for p in r.positions:
            assert list(p.cards) == stacks[p.stack - 1]
            # stack 1 goes to the starting position, the rest follow clockwise
            assert p.position == (r.start_position - 1 + p.stack - 1) % 7 + 1
    rand = Table(start="random", seed=1).play_round(ALL_SEATS)
    assert rand.dice is None and 1 <= rand.start_position <= 7


def test_chips_are_conserved_to_the_cent():
    table = Table(seed=5, rules=Rules(pays=1.5), payout_limit=250, bonus_table="B")
    wagers = [Wager(1, "12.35", "1.10"), Wager(2, 7, player="ann"), Wager(3, 9, 2, "ann"),
              Wager(6, "0.05", "0.01")]
    total = Decimal(0)
    for _ in range(300):
        r = table.play_round(wagers)
        assert r.house_net + sum(r.seat_nets().values()) == 0
        total += r.house_net
        for p in r.positions:
            assert p.net == p.net.quantize(Decimal("0.01"))
            if p.bonus_category is not None:
                assert p.bonus_net <= 250
    assert total != 0


def test_same_seed_same_rounds():
    a, b = Table(seed=9, dealing="hand"), Table(seed=9, dealing="hand")
    for _ in range(10):
        assert a.play_round(ALL_SEATS).to_dict() == b.play_round(ALL_SEATS).to_dict()
    c = Table(rng=np.random.default_rng(9), dealing="hand")
    assert c.play_round(ALL_SEATS).deck == Table(seed=9, dealing="hand").play_round(
        ALL_SEATS).deck


def test_settlement_follows_the_rules_and_the_order():
    r = Table(seed=2, rules=Rules(pays=2)).play_round(ALL_SEATS)
    assert r.settle_order == (6, 5, 4, 3, 2, 1)              # from the dealer's right
    dealer = Setting.parse(r.dealer_setting)
    assert dealer == house_way(r.positions[0].cards)
    dealer_parts = tuple([str(c) for c in part] for part in (dealer.high, dealer.medium,
                                                                dealer.low))
    for p in r.positions[1:]:
        setting = Setting.parse(p.setting)
        parts = tuple([str(c) for c in part] for part in (setting.high, setting.medium,
                                                          setting.low))
        result, hands, payout = ref.settle(parts, dealer_parts, "high", 2.0)   # independent
        assert p.result == result and p.hands == hands
        assert p.main_net == Decimal(10) * Decimal(str(payout))
        cat = bonus_hand(p.cards)
        assert p.bonus_category == cat
        assert p.bonus_net == (bonus_odds("A").rows[[x.category for x in bonus_odds(
            "A").rows].index(cat)].pays if cat else -1)


def test_surrender_forfeits_main_and_bonus():
    table = Table(seed=4)
    r = table.play_round([Wager(1, 10, 5, strategy=lambda cards: SURRENDER), Wager(2, 10)])
    p = r.seat(1)
    assert p.surrendered and p.result == "surrender" and p.setting is None
    assert p.main_net == -10 and p.bonus_net == -5 and p.bonus_category is None


def test_unwagered_stacks_never_reach_settlement():
    seen = []

    def spy(cards):
        seen.append(cards)
        return house_way(cards)

    r = Table(seed=6, strategy=spy).play_round([Wager(4, 10)])
    assert len(seen) == 1 and [str(c) for c in seen[0]] == list(r.seat(4).cards)
    for p in r.positions[1:]:
        if p.seat != 4:
            assert not p.wagered and p.setting is None and p.result is None and p.net == 0
    assert r.settle_order == (4,)


def test_two_areas_larger_wager_set_first():
    order = []

    def spy(cards):
        order.append(tuple(cards))
        return house_way(cards)

    r = Table(seed=8, strategy=spy).play_round(
        [Wager(2, 5, player="al"), Wager(3, 25, player="al"), Wager(5, 10)])
    assert r.set_order == (5, 3, 2)
    assert [str(c) for c in order[1]] == list(r.seat(3).cards)
    equal = Table(seed=8).play_round([Wager(2, 5, player="al"), Wager(3, 5, player="al")])
    assert equal.set_order == (3, 2)                         # counter-clockwise
    assert set(equal.player_nets()) == {"al"}


def test_json_reconstructs_the_round():
    r = Table(seed=12).play_round(ALL_SEATS)
    data = json.loads(r.to_json())
    assert data["deck"] == list(r.deck) and len(data["positions"]) == 7
    assert data["positions"][3]["cards"] == list(r.positions[3].cards)
    assert Decimal(data["house_net"]) == r.house_net


@pytest.mark.parametrize(
    ("wagers", "match"),
    [([Wager(7, 10)], "seat 7"), ([Wager(0, 10)], "seat 0"), ([Wager(2, 0, 5)], "bonus"),
     ([Wager(2, -1)], "seat 2"), ([Wager(2, float("nan"))], "finite"),
     ([Wager(2, float("inf"))], "finite"), ([Wager(2, "1.234")], "cents"),
     ([Wager(2, 10, -3)], "bonus"), ([Wager(2, 10), Wager(2, 5)], "two wagers"),
     ([Wager(1, 5, player="x"), Wager(3, 5, player="x")], "not adjacent"),
     ([Wager(1, 5, player="x"), Wager(2, 5, player="x"), Wager(3, 5, player="x")], "two"),
     ([Wager(2, 10, strategy="best")], "strategy"), (["seat 2"], "Wager")],
)
def test_bad_wagers_are_rejected_and_nothing_moves(wagers, match):
    table = Table(seed=1)
    with pytest.raises(WagerError, match=match):
        table.play_round(wagers)
    assert table.rounds_played == 0
    assert table.play_round(ALL_SEATS).to_dict() == Table(seed=1).play_round(
        ALL_SEATS).to_dict()


@pytest.mark.parametrize(
    ("strategy", "error"),
    [(lambda cards: next((s for s in splits(cards) if not is_legal(s)), house_way(cards)),
      IllegalSettingError),
     (lambda cards: (cards[:3], cards[3:5], cards[5]), HouseWayError),
     (lambda cards: "nonsense", HouseWayError)],
)
def test_bad_strategies_are_rejected_and_the_round_is_not_half_applied(strategy, error):
    table = Table(seed=21)
    with pytest.raises(error):
        for _ in range(30):       # the first call that hits a bad answer raises
            table.play_round([Wager(1, 10), Wager(2, 10, strategy=strategy)])
    played = table.rounds_played
    fresh = Table(seed=21)
    for _ in range(played):
        fresh.play_round([Wager(1, 10)])
    assert table.play_round([Wager(1, 10)]).deck == fresh.play_round([Wager(1, 10)]).deck


def test_bad_table_arguments():
    with pytest.raises(OptionError):
        Table(seats=7)
    with pytest.raises(OptionError):
        Table(dealing="pitch")
    with pytest.raises(WagerError):
        Table(payout_limit=-5)
    with pytest.raises(OptionError):
        simulate(0)
    with pytest.raises(OptionError):
        simulate(10, player="psychic")
    with pytest.raises(OptionError):
        simulate(10, workers=0)


# --- simulation ------------------------------------------------------------------------------


def test_simulation_is_reproducible_for_any_number_of_workers():
    a = simulate(20_000, seed=3, workers=1, bonus_table="A", way="classic")
    b = simulate(20_000, seed=3, workers=2, bonus_table="A", way="classic")
    assert a.wins == b.wins and a.round_wins == b.round_wins
    assert a.bonus_counts == b.bonus_counts
    assert simulate(20_000, seed=4).wins != a.wins
    assert a.pooled == {"wins": sum(a.wins), "losses": sum(a.losses), "fouls": 0}
    assert sum(a.round_wins) == a.rounds and sum(a.wins) == sum(
        k * n for k, n in enumerate(a.round_wins))
    assert "classic" in a.describe() and "a234=high" in a.describe()


def test_simulated_house_edge_agrees_with_an_independent_exact_estimate():
    """The solver's exact house-way ev of 2,000 random hands estimates the same house edge."""
    sim = simulate(300_000, seed=1)
    rng = np.random.default_rng(77)
    hands = np.argsort(rng.random((2000, 53)), axis=1)[:, :7]
    res = solve_many(hands)
    from asiapoker import house_way as hw
    from asiapoker.setting import SPLIT_POSITIONS

    evs = []
    for i, row in enumerate(hands.tolist()):
        s = hw(row)
        k = next(k for k, (h, m, lo) in enumerate(SPLIT_POSITIONS)
                 if {row[j] for j in h} == {int(c) for c in s.high}
                 and row[lo] == int(s.low[0]))
        evs.append(res.ev[i, k])
    est = -float(np.mean(evs))
    se_est = float(np.std(evs, ddof=1)) / math.sqrt(len(evs))
    lo, hi = sim.confidence_interval
    se_sim = (hi - lo) / (2 * 1.96)
    assert abs(sim.house_edge - est) <= 3 * math.hypot(se_sim, se_est), (sim.house_edge, est)
    assert 0.0 < sim.house_edge < 0.1


def test_simulated_bonus_frequencies_match_the_exact_odds():
    sim = simulate(100_000, seed=2, bonus_table="A")
    n = sim.hands
    for row in bonus_odds("A").rows:
        name = row.category or "loses"
        if row.probability > 0.01:
            se = math.sqrt(row.probability * (1 - row.probability) / n)
            assert abs(sim.bonus_counts[name] / n - row.probability) <= 4 * se, name
    exact = PayTable.A.paid_counts(mask_counts())
    assert PayTable.A.ev(exact) == bonus_odds("A").ev_exact
    assert sim.bonus_ev == float(PayTable.A.ev({c if c != "loses" else None: n
                                                for c, n in sim.bonus_counts.items()}))


def test_optimal_does_at_least_as_well_on_the_same_deals():
    hw = simulate(250, seed=13)
    opt = simulate(250, seed=13, player="optimal")
    assert sum(opt.wins) >= sum(hw.wins)
    assert opt.player == "optimal" and hw.player == "house-way"


def test_bad_seeds_and_pays_are_value_errors():
    with pytest.raises(OptionError, match="seed"):
        Table(seed="abc")
    with pytest.raises(RuleError, match="pays"):
        Rules(pays=10**400)


def test_huge_amounts_and_big_endian_hands():
    table = Table(seed=1)
    with pytest.raises(WagerError, match=r"at most 1,000,000,000,000,000\.00"):
        table.play_round([Wager(1, 10**26)])
    assert table.rounds_played == 0
    hands = np.array([[0, 5, 10, 15, 20, 25, 52]], dtype=">i8")
    little = hands.astype("<i8")
    assert (solve_many(hands, "classic").wins == solve_many(little, "classic").wins).all()


def test_a_batch_strategy_is_played_and_its_fouls_counted():
    from asiapoker import legal_splits

    seen = []

    def first_split(rows):                 # split 0 of every hand, legal or not
        seen.append(legal_splits(rows)[:, 0].copy())
        return np.zeros(len(rows), dtype=np.int64)

    sim = simulate(3000, seats=3, way="classic", player=first_split, seed=5, workers=1)
    illegal = int(sum((~s).sum() for s in seen))
    assert sum(sim.fouls) == illegal > 0
    assert all(w + lo + f == sim.rounds for w, lo, f in zip(sim.wins, sim.losses, sim.fouls,
                                                            strict=True))
    assert sim.player == "first_split" and "first_split" in sim.describe()
    with pytest.raises(StrategyError, match=r"index 105 is outside 0\.\.104"):
        simulate(10, player=lambda rows: np.full(len(rows), 105), workers=1)
    with pytest.raises(StrategyError, match="one integer index per row"):
        simulate(10, player=lambda rows: [0], workers=1)
