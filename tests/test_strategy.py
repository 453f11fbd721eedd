"""Strategy cards: the rules a card applies (against the plain reference of tests/
reference_rack.py), a hand-written three-rule card priced by hand, the generator, exact
pricing from an analyze shard, a card as a strategy in simulate, and the card and grade
commands."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from asiapoker import HouseWay, Rules, simulate, solve
from asiapoker.analysis import analyze
from asiapoker.card_search import generate
from asiapoker.cli import main
from asiapoker.errors import HouseWayError
from asiapoker.house_way import house_way_splits
from asiapoker.pricing import price
from asiapoker.rack import RackCard, Rule
from asiapoker.sampling import random_hands
from asiapoker.setting import setting_of_split
from asiapoker.solver import DEALER_HANDS
from asiapoker.strategy import (
    CardStrategy,
    card_from_json,
    card_splits,
    card_to_json,
)

from . import reference as ref
from .reference_rack import rack_setting

# three rules, written by hand
THREE = RackCard("three-rules", (
    Rule("one pair", "HH M L M H H"),                  # pair high; singles 1, 3 medium; 2 low
    Rule("no pair", "best LMH", (("single1", ">=", 14),)),
    Rule("two pairs", "HH MM H H L"),                   # high pair high, low pair medium
))


def text(ids):
    return [ref.card_text(int(i)) for i in ids]


@pytest.mark.parametrize("hand,setting,rule", [
    # one pair (7s): singles A Q 9 4 2; the pair, 4 and 2 high, A and 9 medium, Q low
    ("As Qd 9c 7h 7c 4d 2s", "7h 7c 4d 2s | As 9c | Qd", 0),
    # no pair with an ace: the ace must play high; the best low card is J (under a K-high
    # medium hand), then the best medium hand K-9, the rest high
    ("As Kd Jc 9h 7c 4d 2s", "As 7c 4d 2s | Kd 9h | Jc", 1),
    # two pairs, K and 5: kings high, fives medium, the lowest single (3) low
    ("Ks Kd 5c 5h Qc 9d 3s", "Ks Kd Qc 9d | 5c 5h | 3s", 2),
    # no pair without an ace: no rule fits, the fallback: the best medium hand (Q-J under the
    # king, which must play high), then the best low card (9), the rest high
    ("Ks Qd Jc 9h 7c 4d 2s", "Ks 7c 4d 2s | Qd Jc | 9h", -1),
])
def test_three_rule_card_by_hand(hand, setting, rule):
    """The card's setting and rule on hands worked out by hand, and its cost there: the best
    setting's ev minus the card setting's, from solve."""
    ids = sorted(int(c) for c in __import__("asiapoker").parse_cards(hand))
    k, r = card_splits(THREE, np.array([ids]))
    got = setting_of_split(ids, int(k[0]))
    want = __import__("asiapoker").Setting.parse(setting)
    assert got == want and int(r[0]) == rule
    sol = solve(hand, "classic")
    mine = next(x for x in sol.settings if x.setting == want)
    p = price(THREE, "classic", hands=200, seed=4)
    assert p.per_rule[-1].index == -1
    assert sol.best.ev - mine.ev >= 0


def test_rules_agree_with_the_reference(rng):
    """Which rule decides and what it sets, on random hands, equal the plain reference."""
    card = RackCard("ref", (
        Rule("one pair", "made", (("made", "==", 1),)),
        Rule("one pair", "MM H L H H H", (("group1", ">=", 10),)),
        Rule("two pairs", "HL MM H H H"),
        Rule("no pair", "H M L M H H H", (("single2", "<=", 11),)),
        Rule("trips", "best MLH"),
    ))
    rows = random_hands(400, 17)
    k, rule = card_splits(card, rows)
    rules = [(r.shape, r.placement, r.conditions) for r in card.rules]
    counts = [0] * (len(rules) + 1)
    for i, row in enumerate(rows):
        seven = text(row)
        values, j = rack_setting(rules, seven)
        assert j == rule[i]
        s = setting_of_split([int(x) for x in row], int(k[i]))
        parts = tuple([ref.card_text(int(c)) for c in hand]
                      for hand in (s.high, s.medium, s.low))
        assert tuple(ref.value(p) for p in parts) == values
        counts[j] += 1
    # the frequencies a pricing reports are the same counts
    p = price(card, "classic", hands=400, seed=17)
    for pr in p.per_rule:
        assert pr.frequency == Fraction(counts[pr.index], 400)


@pytest.mark.parametrize("way", ["classic", "standard"])
def test_the_search_counts_each_hand_as_the_card_it_returns_sets_it(way):
    """What the greedy search believes each hand costs is what the card it returns does: no
    rule of the card catches hands the search gave to another rule or to the fallback."""
    from asiapoker import solve_many
    from asiapoker.card_search import search
    from asiapoker.rack import hand_facts
    rows = random_hands(3000, 21)
    b = solve_many(rows, way)
    counts = np.asarray(b.wins, dtype=np.int64)
    predicted = np.full(len(rows), np.nan)
    rules = search(hand_facts(rows), counts, 25, min_gain=1e-6, min_default=0.002,
                   fallback=b.house_way.astype(np.int64), cost_out=predicted)
    card = RackCard("t", tuple(rules), "house-way")
    k, _ = card_splits(card, rows, way=way)
    actual = b.best_wins - counts[np.arange(len(rows)), k]
    assert np.array_equal(predicted, actual.astype(float))
    assert len(rules) >= 10


def test_card_json_round_trip_and_errors():
    assert card_from_json(card_to_json(THREE)) == THREE
    with pytest.raises(HouseWayError, match="not a strategy card"):
        card_from_json("[1, 2]")
    with pytest.raises(HouseWayError, match="unknown shape"):
        card_from_json(json.dumps({"name": "x", "rules": [["five pairs", "best LMH", []]]}))
    with pytest.raises(HouseWayError, match="unknown fallback"):
        RackCard("x", (), "whatever")
    with pytest.raises(HouseWayError, match="falls back on the house way"):
        HouseWay.from_card(RackCard("x", (), "house-way"))


@pytest.fixture(scope="module")
def small_card():
    return generate("classic", max_rules=6, hands=3000, seed=3, workers=2)


def test_a_group_whose_hands_share_every_fact_is_searched_without_conditions():
    """On these 5,000 hands against classic one search group's hands share every fact, so no
    condition can split them: the search takes the group's default alone and goes on."""
    g = generate("classic", max_rules=20, hands=5000, seed=1)
    assert len(g.card.rules) == 20 and g.steps


def test_generate_is_reproducible_and_better_than_the_house_way(small_card):
    g = small_card
    assert len(g.card.rules) <= 6 and g.card.fallback == "house-way"
    assert generate("classic", max_rules=6, hands=3000, seed=3, workers=1).card == g.card
    p = price(g.card, "classic", hands=3000, seed=9)
    assert p.ev["house-way"] < p.ev["card"] <= p.ev["optimal"]
    assert 0 < p.gap_closed <= 1
    loss = sum(r.cost for r in p.per_rule)
    assert loss == pytest.approx(float(p.ev["optimal"] - p.ev["card"]), abs=1e-12)


def test_exact_price_from_a_shard_equals_solve(small_card, tmp_path, rng):
    """The card's ev from the whole-game aggregation (on a shard) equals its ev summed from
    solve, class by class, and the pricing read from the run equals the analysis."""
    card = small_card.card
    strat = CardStrategy(card, Rules(), HouseWay.named("classic"))
    a = analyze("classic", player=strat, shard="11/400", out=tmp_path, progress=False)
    p = price(card, "classic", run=tmp_path, partial=True)
    assert not p.exact
    assert p.ev["card"] == a.figures["strategy"].ev
    assert p.ev["optimal"] == a.figures["optimal"].ev
    chunk = sorted((tmp_path / "chunks").glob("*.npz"))[0]
    from asiapoker._runs import chunk_bounds
    from asiapoker.suit_classes import class_groups, player_classes
    hands, groups = player_classes()[0], class_groups()
    lo = int(chunk_bounds(groups)[int(chunk.stem)])
    with np.load(chunk) as z:
        picks = rng.choice(len(z["player"]), 25, replace=False)
        for i in picks:
            hand = [int(x) for x in hands[lo + i]]
            sol = solve(hand, "classic")
            k = int(strat(np.array([hand]))[0])
            assert k == z["player"][i]
            assert {r.index: r.wins for r in sol.settings}[k] == z["player_wins"][i]
    with pytest.raises(ValueError, match="not finished"):
        price(card, "classic", run=tmp_path)
    with pytest.raises(ValueError, match="player='strategy:"):
        price(RackCard("other", ()), "classic", run=tmp_path)


def test_card_in_simulate_agrees_with_its_exact_ev():
    """The shipped classic card's exact ev (from its whole-game run) lies in the confidence
    interval of a simulation that plays it."""
    from pathlib import Path
    where = Path(__file__).resolve().parents[1] / "docs" / "cards" / "classic"
    shipped = json.loads((where / "pricing.json").read_text())
    card = card_from_json((where / "card.json").read_text())
    assert card.name == shipped["card"] and shipped["exact"]
    sim = simulate(40_000, seats=6, way="classic", seed=5,
                   player=CardStrategy(card, Rules(), HouseWay.named("classic")))
    lo, hi = sim.confidence_interval
    assert lo <= -shipped["ev"]["card"] <= hi, (lo, hi, shipped["ev"]["card"])


def test_card_and_grade_commands(tmp_path, capsys, small_card):
    path = tmp_path / "c.json"
    path.write_text(card_to_json(small_card.card))
    assert main(["card", "--way", "classic", "--card", str(path), "--price-hands", "500",
                 "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "closes" in out and "written:" in out
    for name in ("card.json", "card.md", "card.html", "cost-per-rule.png", "cost-per-rule.svg"):
        assert (tmp_path / "out" / name).stat().st_size > 100
    page = (tmp_path / "out" / "card.html").read_text()
    assert "class=\"c" in page and "data:image/png;base64," in page
    md = (tmp_path / "out" / "card.md").read_text()
    worst = md.split("## The costliest mistakes")[1].count("\n| `")   # what card.md lists
    assert worst > 0 and "The costliest mistakes" in page
    assert page.split("The costliest mistakes")[1].count("<tr><td class=ex>") == worst
    assert main(["grade", str(path), "As Kd 9d 2s | 7h 7c | Jk", "--way", "classic",
                 "--json"]) == 0
    g = json.loads(capsys.readouterr().out)
    assert g["legal"] is False and g["ev"] == -1.0
    sol = solve("As Kd 9d 2s 7h 7c Jk", "classic")
    assert g["best"] == str(sol.best.setting) and g["loss"] == pytest.approx(sol.best.ev + 1)
    assert main(["grade", str(tmp_path / "nope.json"), "As Kd 9d 2s | 7h 7c | Jk"]) == 2
    assert "cannot read the card" in capsys.readouterr().err


def test_card_splits_any_row_order(rng):
    rows = random_hands(50, 8).astype(np.int64)
    shuffled = np.array([rng.permutation(r) for r in rows])
    k1, r1 = card_splits(THREE, rows)
    k2, r2 = card_splits(THREE, shuffled)
    assert (r1 == r2).all()
    for a, b, ka, kb in zip(rows, shuffled, k1, k2, strict=True):
        assert setting_of_split(list(a), int(ka)) == setting_of_split(list(b), int(kb))
    hw = house_way_splits(rows, "classic")
    k3, _ = card_splits(RackCard("hw", (), "house-way"), rows, None, "classic")
    assert (k3 == hw).all()
    assert DEALER_HANDS == 53_524_680


@pytest.mark.parametrize("folder", ["standard", "standard-40", "equilibrium", "equilibrium-40",
                                    "classic", "medium-first", "high-first"])
def test_shipped_cards_parse_and_their_exact_prices_match_the_whole_game_runs(folder):
    """Every shipped card loads; an exact price's optimal and house-way figures are the shipped
    whole-game figures of its way (two independent runs over every hand)."""
    from pathlib import Path

    from asiapoker.analysis import exact_house_edges
    where = Path(__file__).resolve().parents[1] / "docs" / "cards" / folder
    shipped = json.loads((where / "pricing.json").read_text())
    card = card_from_json((where / "card.json").read_text())
    way = folder.removesuffix("-40")
    assert shipped["way"] == way and card.name == shipped["card"]
    assert 1 <= len(card.rules) <= (40 if folder.endswith("-40") else 20)
    assert shipped["exact"] or folder.endswith("-first")     # searched on every hand
    if shipped["exact"]:
        edges = exact_house_edges(way)
        for key in ("optimal", "house-way"):
            assert Fraction(shipped["ev_exact"][key]) == -edges[key]
    else:
        assert shipped["hands"] >= 20_000 and shipped["se"]["card-vs-optimal"] > 0


def _saving(sd, rule):
    """A rule's saving on a search group, plainly: the undecided hands it fits and whose
    conditions it meets move from their present cost to the placement's."""
    from asiapoker.card_search import current
    from asiapoker.rack import FEATURES
    decided, cost = current(sd)
    c = sd.cost[sd.placements.index(rule.placement)]
    ok = ~decided & np.isfinite(c)
    for feat, op, val in rule.conditions:
        x = sd.feature[:, FEATURES.index(feat)]
        ok &= {"==": x == val, ">=": x >= val, "<=": x <= val}[op]
        if feat not in ("made", "joker", "flush", "straight", "made_pair", "made_joker",
                        "made_count"):
            ok &= x != 0                    # a rank condition: the hand has that rank
    return float((cost[ok] - c[ok]).sum())


def test_the_best_exception_is_the_best_of_every_single_and_pair():
    """best_exception's branch and bound against every single condition and every pair
    tried one by one, with no rule and then after the one it found: what it returns saves
    what it says, and nothing beats it beyond the search's preference for fewer conditions
    (1 % a condition, 3 % a pair)."""
    import itertools

    from asiapoker import solve_many
    from asiapoker.card_search import _shapes, atoms, best_exception
    from asiapoker.rack import Rule, hand_facts
    rows = random_hands(1500, 8)
    b = solve_many(rows, "standard")
    counts = np.asarray(b.wins, dtype=np.int64)
    groups = _shapes(hand_facts(rows), counts, 6, None, 1.0, b.house_way.astype(np.int64))
    tried = 0
    for sd in sorted(groups, key=lambda g: -len(g.rows))[:3]:
        for _ in range(2):
            gain, rule = best_exception(sd)
            if rule is None or rule.conditions == sd.base:
                break
            assert _saving(sd, rule) == pytest.approx(gain, rel=1e-12, abs=1e-6)
            at = atoms(sd)
            for p in sd.placements:
                for a in at:
                    assert _saving(sd, Rule(sd.name, p, (*sd.base, a))) <= gain * 1.01 + 1e-6
                for a, c in itertools.combinations(at[::3], 2):
                    if a[0] != c[0] or a[1] != c[1]:
                        two = Rule(sd.name, p, (*sd.base, a, c))
                        assert _saving(sd, two) <= gain * 1.03 + 1e-6
                        tried += 1
            sd.rules.append(rule)
    assert tried > 100
