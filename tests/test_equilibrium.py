"""Deriving house ways (SPEC 5.6): best responses (player and dealer side), stored ways,
class weights, exploitability."""

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from asiapoker import HouseWay, HouseWayError, Rules, _core, dealer_strengths, solve, solve_many
from asiapoker._compile import class_table
from asiapoker.equilibrium import best_response, best_response_splits, class_weights
from asiapoker.sampling import exploitability, random_hands
from asiapoker.setting import SPLIT_POSITIONS, split_strengths
from asiapoker.solver import DEALER_HANDS, _dense_maps

CLASSIC = HouseWay.named("classic")


def _sample_classes(n, seed):
    _, reps = class_table()
    rng = np.random.default_rng(seed)
    return reps[np.sort(rng.choice(len(reps), n, replace=False))]


def test_class_weights_cover_every_hand_once():
    w = class_weights()
    assert len(w) == len(class_table()[0])
    assert int(w.sum()) == comb(53, 7)
    assert (w > 0).all()
    # a class of seven distinct ranks without a flush: 4**7 suit patterns minus those with a
    # suit of four or more (each suit: sum over k >= 4 of C(7, k) 3**(7-k))
    ranks = [0, 2, 4, 6, 8, 10, 12]
    row = np.array([[r * 4 + i % 4 for i, r in enumerate(ranks)]], dtype=np.int64)
    keys, _ = class_table()
    from asiapoker._compile import _keys
    i = int(np.searchsorted(keys, _keys(row)[0]))
    flushy = 4 * sum(comb(7, k) * 3 ** (7 - k) for k in range(4, 8))
    assert int(w[i]) == 4 ** 7 - flushy


def test_player_best_response_is_the_solvers_best():
    rows = _sample_classes(12, 1)
    got = best_response_splits(CLASSIC, Rules(), "player", rows)
    for row, k in zip(rows.tolist(), got.tolist(), strict=True):
        sol = solve(row, CLASSIC)
        by_index = {r.index: r for r in sol.settings}
        assert by_index[k].legal
        assert by_index[k].wins == sol.best.wins


def _dealer_counts_by_enumeration(row, rules):
    """Every player hand from the other 46 cards, set by classic, walked one by one (the
    core's enumerating path); the dealer's count of each split computed here in numpy."""
    hvals, mvals, lvals, dense_h, dense_m = _dense_maps()
    total, hist = _core.enumerate_dealer(tuple(row), rules.a234_low, *CLASSIC.code, dense_h,
                                         len(hvals), dense_m)
    hi, mi, li = np.nonzero(hist)
    count = hist[hi, mi, li]
    ph, pm, pl = hvals[hi], mvals[mi], lvals[li]
    out = []
    for h, m, lo in split_strengths(row, rules):
        if not h > m > lo:
            out.append(-1)
            continue
        player_wins = ((ph > h).astype(int) + (pm > m) + (pl > lo)) >= 2
        out.append(int(count[~player_wins].sum()))
    return total, out


@pytest.mark.parametrize("hand", ["As Ah 9c 9d 5s 4h 2c",
                                  pytest.param("Jk Kh Qh 7h 3h 8c 8d", marks=pytest.mark.slow)])
def test_dealer_best_response_counts_by_enumeration(hand):
    from asiapoker import parse_cards
    row = sorted(int(c) for c in parse_cards(hand))
    rules = Rules()
    total, counts = _dealer_counts_by_enumeration(row, rules)
    assert total == DEALER_HANDS
    from asiapoker.solver import count_splits
    fast = count_splits(np.array([row]), CLASSIC, rules, side="dealer")
    legal = [c >= 0 for c in counts]
    assert [int(x) for x, ok in zip(fast[0], legal, strict=True) if ok] == \
        [c for c in counts if c >= 0]
    k = int(best_response_splits(CLASSIC, rules, "dealer", np.array([row]))[0])
    assert counts[k] == max(counts)


@pytest.mark.parametrize("side", ["dealer", "player"])
def test_best_response_groups_rows_and_keeps_their_order(side, monkeypatch):
    """best_response_splits sorts the rows by rank multiset for the grouped solver: the
    splits, row for row in the order given, are the per-hand counts' best (ties to the
    way's own setting), on rows that share multisets, shuffled.  It ends by freeing the
    grouped kernel's kept merge hashes (all zeros then)."""
    from asiapoker.house_way import house_way_splits
    from asiapoker.setting import legal_splits
    from asiapoker.solver import count_splits

    _, reps = class_table()
    r = np.where(reps == 52, 13, reps >> 2)
    r.sort(axis=1)
    key = (r.astype(np.int64) << (4 * np.arange(7))).sum(axis=1)
    rng = np.random.default_rng(5)
    pick = np.isin(key, rng.choice(np.unique(key), 25, replace=False))
    rows = np.ascontiguousarray(reps[pick][rng.permutation(int(pick.sum()))])
    assert len(rows) > 2 * len(np.unique(key[pick]))        # groups of several rows
    score = np.where(legal_splits(rows, Rules()),
                     count_splits(rows, CLASSIC, Rules(), side) * 2, -1)
    score[np.arange(len(rows)), house_way_splits(rows, CLASSIC, Rules())] += 1
    released = []
    release = _core.release_group_tables
    monkeypatch.setattr(_core, "release_group_tables",
                        lambda: released.append(_core.kept_group_tables()) or release())
    got = best_response_splits(CLASSIC, Rules(), side, rows)
    np.testing.assert_array_equal(got, np.argmax(score, axis=1))
    assert len(released) == 1 and released[0][0] >= 1 and released[0][1]
    assert _core.kept_group_tables() == (0, True)


def test_dealer_and_player_objectives_differ():
    rows = _sample_classes(300, 2)
    d = best_response_splits(CLASSIC, Rules(), "dealer", rows)
    p = best_response_splits(CLASSIC, Rules(), "player", rows)
    assert (d != p).any()


def test_table_way_round_trip(tmp_path, rng):
    _, reps = class_table()
    tri = CLASSIC.strengths(reps, Rules())
    splits = np.empty(len(reps), dtype=np.int16)
    _core.match_split_kernel(reps, 0, tri, splits)
    way = HouseWay.from_table(splits, "classic-table")
    hands = np.argsort(rng.random((3000, 53)), axis=1)[:, :7]
    assert (dealer_strengths(hands, way) == dealer_strengths(hands, CLASSIC)).all()
    assert way.set("Kc Kd Jh Js 7c 7d 2s").strengths() == \
        CLASSIC.set("Kc Kd Jh Js 7c 7d 2s").strengths()
    path = tmp_path / "w.npz"
    digest = way.save(path)
    again = HouseWay.load(path)
    assert again.key == ("table", digest) and again.name == "classic-table"
    data = dict(np.load(path))
    data["splits"] = data["splits"].copy()
    data["splits"][5] ^= 1
    np.savez(tmp_path / "bad.npz", **data)
    with pytest.raises(HouseWayError, match="damaged"):
        HouseWay.load(tmp_path / "bad.npz")
    with pytest.raises(HouseWayError, match="cannot read"):
        HouseWay.load(tmp_path / "missing.npz")


def test_from_table_rejects_bad_tables():
    n = len(class_table()[0])
    with pytest.raises(HouseWayError, match="shape"):
        HouseWay.from_table(np.zeros(10, dtype=np.uint8), "x")
    with pytest.raises(HouseWayError, match=r"index 105 is outside 0\.\.104"):
        HouseWay.from_table(np.full(n, 105), "x")
    with pytest.raises(HouseWayError, match="not legal"):
        HouseWay.from_table(np.zeros(n, dtype=np.uint8), "x")   # split 0 fouls somewhere
    with pytest.raises(HouseWayError, match="side must be"):
        best_response("classic", side="banker")
    with pytest.raises(HouseWayError, match="unknown house way"):
        best_response("nonsense")
    with pytest.raises(HouseWayError, match="a house way is a name"):
        best_response(42)  # type: ignore[arg-type]
    with pytest.raises(HouseWayError, match="built-in way"):
        CLASSIC.save("/tmp/never.npz")


def test_exploitability_is_the_mean_of_exact_per_hand_figures():
    e = exploitability("classic", hands=60, seed=5, workers=1)
    rows = random_hands(60, 5)
    b = solve_many(rows, "classic", workers=1)
    gain = sum(Fraction(int(x) - int(y), DEALER_HANDS) * 2
               for x, y in zip(b.best_wins, b.house_way_wins, strict=True)) / 60
    hw = sum(Fraction(2 * int(y) - DEALER_HANDS, DEALER_HANDS) for y in b.house_way_wins) / 60
    assert e.gain.exact == gain
    assert e.house_edge_house_way.exact == -hw
    assert e.gain.exact > 0
    lo, hi = e.gain.ci95
    assert lo < e.gain.mean < hi
    assert "classic" in e.describe() and "a234=high" in e.describe()
    for hand in rows.tolist()[:3]:
        sol = solve(hand, "classic")
        assert sol.best.wins in b.best_wins.tolist()


def test_split_positions_cover_every_split_once():
    seen = {(tuple(sorted(h)), tuple(sorted(m)), lo) for h, m, lo in SPLIT_POSITIONS}
    assert len(seen) == 105


def test_a_margin_keeps_the_ways_setting_unless_another_gains_more():
    """With ``margin`` m, a row keeps the way's own split unless the best legal split's
    dealer count is more than m above the own one's, read off count_splits row by row."""
    from asiapoker.house_way import house_way_splits
    from asiapoker.setting import legal_splits
    from asiapoker.solver import count_splits

    rows = _sample_classes(400, 7)
    counts = np.where(legal_splits(rows, Rules()), count_splits(rows, CLASSIC, Rules(), "dealer"),
                      -1)
    own = house_way_splits(rows, CLASSIC, Rules())
    gain = counts.max(axis=1) - counts[np.arange(len(rows)), own]
    margin = int(np.median(gain[gain > 0]))
    got = best_response_splits(CLASSIC, Rules(), "dealer", rows, margin=margin)
    keep = gain <= margin
    assert keep.any() and (~keep).any() and (gain[keep] > 0).any()   # the margin matters
    np.testing.assert_array_equal(got[keep], own[keep])
    np.testing.assert_array_equal(counts[np.arange(len(rows)), got][~keep],
                                  counts.max(axis=1)[~keep])
    with pytest.raises(HouseWayError, match="margin"):
        best_response(CLASSIC, margin=-1)


def _fake_iteration(monkeypatch, following):
    """Make equilibrium's best responses a lookup ``following[way's table digest]`` of ways
    (the whole-game computations are tested on their own), and the CLI's exact costs a count
    of calls; returns that cost function."""
    import asiapoker.cli
    import asiapoker.equilibrium as eq
    from asiapoker._compile import splits_digest

    costs = []

    def response(way, rules, **kw):
        assert kw["margin"] == 3
        return following[splits_digest(way.table)]

    def cost(way, rules=None, workers=None, progress=None):
        costs.append(way.name)
        return Fraction(len(costs), 1000)

    monkeypatch.setattr(eq, "best_response", response)
    monkeypatch.setattr(asiapoker.cli, "way_cost", cost)
    return cost


@pytest.fixture(scope="module")
def three_ways():
    """Three class-table ways: standard's, equilibrium's and classic's settings."""
    from asiapoker.house_way import house_way_splits

    _, reps = class_table()
    return [HouseWay.from_table(house_way_splits(reps, HouseWay.named(n), Rules()), n, n)
            for n in ("standard", "equilibrium", "classic")]


def test_equilibrium_finds_a_cycle_and_a_fixed_point(three_ways, monkeypatch, tmp_path):
    """The iteration stops on a repeated iterate (a cycle, naming the iterate repeated) or
    on one that changes no hand (converged); each step's changed hands are the exact count
    of hands the two ways set differently, and each iterate's ``cost`` is kept;
    the CLI writes every step to its --log."""
    import json

    from asiapoker._compile import splits_digest
    from asiapoker.cli import main
    from asiapoker.equilibrium import changed_hands, equilibrium

    a, b, c = three_ways
    d = {w.name: splits_digest(w.table) for w in three_ways}
    cost = _fake_iteration(monkeypatch, {d["standard"]: b, d["equilibrium"]: c,
                                         d["classic"]: b})
    res = equilibrium(a, margin=3, cost=cost, max_iterations=5)
    assert res.cycle == 1 and not res.converged and len(res.iterations) == 4
    assert [s.changed_hands for s in res.iterations] == [
        0, changed_hands(a, b, Rules()), changed_hands(b, c, Rules()),
        changed_hands(c, b, Rules())]
    assert 0 < res.iterations[1].changed_hands < comb(53, 7)
    assert res.iterations[2].changed_hands == res.iterations[3].changed_hands
    assert [s.cost for s in res.iterations] == [Fraction(k, 1000) for k in range(1, 5)]
    _fake_iteration(monkeypatch, {d["standard"]: b, d["equilibrium"]: b})
    res = equilibrium(a, margin=3, max_iterations=5)
    assert res.converged and res.cycle is None and len(res.iterations) == 3
    assert res.iterations[-1].changed_hands == 0 and res.iterations[-1].cost is None
    log = tmp_path / "steps.json"
    a.save(tmp_path / "start.npz")
    main(["equilibrium", "--start", str(tmp_path / "start.npz"), "--margin", "3",
          "--exact", "--max-iterations", "4", "--log", str(log),
          "--out", str(tmp_path / "eq.npz"), "--quiet"])
    steps = json.loads(log.read_text())["steps"]
    assert [s["iteration"] for s in steps] == [0, 1, 2]
    assert steps[1]["changed_hands"] == changed_hands(a, b, Rules())
    assert steps[2]["changed_hands"] == 0
    assert all("cost" in s for s in steps)
    assert (tmp_path / "eq.npz").is_file() and not (tmp_path / "eq-source.npz").exists()
