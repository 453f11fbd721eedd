"""The exact solver: fast path against the enumerating reference path, against an
independent Monte Carlo through tests/reference.py, invariants, bad input."""

import math
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from asiapoker import (
    AsiaPokerError,
    DuplicateCardError,
    HandSizeError,
    HouseWayError,
    Rules,
    _core,
    house_way,
    is_legal,
    solve,
    solve_many,
    split_strengths,
    splits,
)
from asiapoker.solver import DEALER_HANDS
from tests import reference as ref

SLOW = pytest.mark.slow           # a built-in way per dealer hand: 20 s a hand
ENUMERATED = [
    pytest.param("As Kd 7h 7c Jk 2s 9d", "classic", "high", marks=SLOW),   # the joker
    ("Ah 2h 3h 4d Td Tc 8s", "classic", "low"),       # A-2-3-4 ranked low
    pytest.param("Kc Qd 9h 9s 5c 5d 2h", "high-first", "high", marks=SLOW),  # a priority way
    ("Jk Kh Qh 7h 3h 8c 8d", "standard", "high"),     # a stored way, the joker, a flush
    ("Ac Ad 9s 8s 7s 6d 2c", "equilibrium", "low"),   # a stored way under a234=low
]


def _wins(solution):
    return sorted((r.index, r.wins, r.legal) for r in solution.settings)


@pytest.mark.parametrize(("hand", "way", "a234"), ENUMERATED)
def test_fast_equals_enumerate(hand, way, a234):
    rules = Rules(a234=a234)
    fast = solve(hand, way, rules)
    slow = solve(hand, way, rules, method="enumerate")
    assert slow.total == fast.total == DEALER_HANDS == math.comb(46, 7)
    assert _wins(fast) == _wins(slow)


@pytest.mark.slow
def test_fast_equals_enumerate_on_30_hands():
    rng = np.random.default_rng(30)
    hands = np.argsort(rng.random((30, 53)), axis=1)[:, :7]
    hands[:8, 0] = np.where((hands[:8] == 52).any(1), hands[:8, 0], 52)
    for i, row in enumerate(hands.tolist()):
        rules = Rules(a234="low" if i % 3 == 2 else "high")
        way = ("classic", "medium-first", "high-first", "standard", "equilibrium")[i % 5]
        assert _wins(solve(row, way, rules)) == _wins(solve(row, way, rules, "enumerate")), row


@cache
def _value(cards, a234):
    return ref.value(list(cards), a234)


def cached_value(cards, a234):
    return _value(tuple(sorted(cards)), a234)


def test_monte_carlo_agrees_within_four_standard_errors(rng):
    """Dealer hands sampled independently, set by the reference's own brute-force house way
    and settled by the reference's rules."""
    seven = "Qs Jd 8h 8c 6s 4d 3c"
    sol = solve(seven, "classic")
    player = [str(c) for c in sol.cards]
    rest = [c for c in ref.DECK if c not in player]
    picks = [sol.best, sol.house_way_result, next(r for r in sol.settings[40:] if r.legal)]
    n = 1500
    wins = [0] * len(picks)
    for _ in range(n):
        dealer = [rest[i] for i in rng.choice(len(rest), 7, replace=False)]
        dv = ref.house_way_values(dealer, "classic", "high", cached_value)
        for j, pick in enumerate(picks):
            s = pick.setting
            pv = [cached_value([str(c) for c in part], "high")
                  for part in (s.high, s.medium, s.low)]
            wins[j] += sum(p > d for p, d in zip(pv, dv, strict=True)) >= 2
    for pick, w in zip(picks, wins, strict=True):
        p = pick.p_win
        se = math.sqrt(p * (1 - p) / n)
        assert abs(w / n - p) <= 4 * se + 1e-9, (str(pick.setting), w / n, p)


def test_invariants(rng):
    for _ in range(6):
        seven = rng.choice(53, 7, replace=False).tolist()
        sol = solve(seven, "classic")
        evs = [r.ev for r in sol.settings]
        assert all(-1 <= e <= 1 for e in evs)
        assert evs == sorted(evs, reverse=True)
        assert sol.best.legal and is_legal(sol.best.setting)
        for r in sol.settings:
            if not r.legal:
                assert r.wins == 0 and r.ev == -1
        assert sol.house_way_result.setting.strengths() == \
            house_way(seven, "classic").strengths()
        assert sol.house_way_result.legal
        assert sum(1 for r in sol.settings) == 105
        assert "classic" in sol.describe() and "a234=high" in sol.describe()


def test_suit_permuted_hands_give_identical_results(rng):
    for _ in range(4):
        seven = rng.choice(53, 7, replace=False).tolist()
        perm = rng.permutation(4)
        other = [c if c == 52 else c // 4 * 4 + perm[c % 4] for c in seven]
        a, b = solve(seven), solve(other)
        assert _wins(a) == _wins(b)


def test_dealer_distribution_always_sums_to_c46_7(rng):
    from asiapoker.house_way import CLASSIC
    from asiapoker.solver import dealer_model

    for a234 in ("high", "low"):
        m = dealer_model(CLASSIC, Rules(a234=a234))
        for _ in range(50):
            seven = tuple(rng.choice(53, 7, replace=False).tolist())
            dist = _core.dealer_distribution(m, seven)
            assert dist.sum() == DEALER_HANDS and dist.min() >= 0


def test_solve_many_equals_solve(rng):
    hands = np.argsort(rng.random((12, 53)), axis=1)[:, :7]
    for workers in (1, 2):
        many = solve_many(hands, workers=workers)
        for i, row in enumerate(hands.tolist()):
            sol = solve(row)
            wins = [0] * 105
            for r in sol.settings:
                wins[r.index] = r.wins
            assert many.wins[i].tolist() == wins
            assert many.best[i] == sol.best.index
            assert (splits(row)[many.house_way[i]].strengths()
                    == sol.house_way_setting.strengths())
            assert many.house_way_wins[i] == sol.house_way_result.wins
            assert many.best_ev[i] == sol.ev
            for r in sol.settings:
                assert many.legal[i, r.index] == r.legal
                assert many.ev[i, r.index] == r.ev       # -1 for a foul, as SettingResult


def test_solve_many_summary_int32_progress_and_chunks_agree_with_the_full_result(rng, tmp_path):
    from asiapoker import AsiaPokerError
    from asiapoker.solver import count_splits, solve_chunks

    hands = np.argsort(rng.random((150, 53)), axis=1)[:, :7].astype(np.int8)
    full = solve_many(hands, "classic", workers=2)
    seen = []
    small = solve_many(hands, "classic", workers=2, columns="summary", wins_dtype=np.int32,
                       progress=lambda done, n: seen.append((done, n)))
    for name in ("best", "best_wins", "house_way", "house_way_wins"):
        assert np.array_equal(getattr(small, name), getattr(full, name)), name
    assert np.array_equal(small.best_ev, full.best_ev)
    with pytest.raises(AsiaPokerError, match="wins is not kept"):
        _ = small.wins
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and seen[-1] == (150, 150)
    narrow = solve_many(hands, "classic", wins_dtype="int32", workers=1)
    assert narrow.wins.dtype == np.int32 and np.array_equal(narrow.wins, full.wins)
    assert np.array_equal(count_splits(hands, "classic"), full.wins)
    # ev picks a legal split, -1 marks every foul
    assert full.legal[np.arange(150), full.ev.argmax(1)].all()
    assert (full.ev[~full.legal] == -1).all() and (full.wins[~full.legal] == 0).all()
    # a read-only memory map streams through chunk by chunk
    path = tmp_path / "hands.npy"
    np.save(path, hands)
    mm = np.load(path, mmap_mode="r")
    got = list(solve_chunks(mm, "classic", chunk=64, columns="summary"))
    assert [lo for lo, _ in got] == [0, 64, 128]
    assert np.array_equal(np.concatenate([b.best_wins for _, b in got]), full.best_wins)
    for bad in ({"columns": "some"}, {"wins_dtype": np.float64}, {"wins_dtype": [1]},
                {"progress": 3}):
        with pytest.raises(AsiaPokerError, match=next(iter(bad))):
            solve_many(hands[:2], **bad)
    with pytest.raises(AsiaPokerError, match="chunk"):
        next(solve_chunks(hands, chunk=0))
    with pytest.raises(AsiaPokerError, match="side"):
        count_splits(hands[:1], side="house")


def test_two_ways_and_rules_live_in_one_process():
    hand = "Ah 2h 3h 4d Td Tc 8s"
    a = solve(hand, "classic", Rules(a234="high"))
    b = solve(hand, "high-first", Rules(a234="low"))
    c = solve(hand, "classic", Rules(a234="high"))
    assert _wins(a) == _wins(c) and _wins(a) != _wins(b)
    assert b.way == "high-first" and b.rules.a234 == "low"


def test_pays_changes_ev_not_counts():
    a = solve("As Kd 7h 7c Jk 2s 9d")
    b = solve("As Kd 7h 7c Jk 2s 9d", rules=Rules(pays=2))
    assert _wins(a) == _wins(b)
    assert b.best.ev == pytest.approx((2 * b.best.wins - (b.total - b.best.wins)) / b.total)
    assert b.best.ev_exact == Fraction(3 * b.best.wins - b.total, b.total)


def test_bad_input():
    with pytest.raises(HandSizeError):
        solve("As Kd 7h 7c Jk 2s")
    with pytest.raises(DuplicateCardError):
        solve("As Kd 7h 7c Jk 2s As")
    with pytest.raises(DuplicateCardError, match="joker"):
        solve("As Kd 7h 7c Jk 2s JK")
    with pytest.raises(HouseWayError):
        solve("As Kd 7h 7c Jk 2s 9d", way="nope")
    with pytest.raises(AsiaPokerError):
        solve("As Kd 7h 7c Jk 2s 9d", method="guess")
    with pytest.raises(AsiaPokerError):
        solve_many(np.zeros((1, 7), dtype=int))
    with pytest.raises(AsiaPokerError):
        solve_many(np.arange(7).reshape(1, 7), workers=0)


def test_model_cache_is_bounded_and_shared_across_threads():
    from concurrent.futures import ThreadPoolExecutor

    from asiapoker import HouseWay
    from asiapoker.solver import _MODELS, MAX_MODELS, dealer_model

    ways = [HouseWay.priority(*o) for o in (("high", "low", "medium"), ("low", "high", "medium"),
                                             ("low", "medium", "high"))]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda w: dealer_model(w, Rules()), ways * 4))
    for i in range(len(ways)):
        assert all(m is got[i] for m in got[i::3])     # one model per way, whatever the thread
    assert len(_MODELS) <= MAX_MODELS


def test_a_way_that_sets_flushes_low_is_exact():
    """The core counts the flush entries whose true high tops every high the player can make
    in one bucket, found run by run from the entries' order (strongest true high first):
    the built-in ways mostly keep a flush in the high hand, so most entries land there.  A
    way that sets the weakest legal high hand breaks flushes up: most of its entries' true
    highs lie below even a two-pair high, spread over the player's buckets.  The counts are
    still the enumeration's, integer for integer."""
    from asiapoker import HouseWay
    from asiapoker._compile import class_table
    from asiapoker._models import dealer_model_arrays

    reps = np.ascontiguousarray(class_table()[1])
    weakest = np.empty(len(reps), np.int16)
    for a in range(0, len(reps), 1 << 16):
        st = np.empty((min(1 << 16, len(reps) - a), 105, 3), np.int32)
        assert _core.split_strengths_kernel(np.ascontiguousarray(reps[a:a + len(st)]), 0,
                                            st) == -1
        legal = (st[:, :, 0] > st[:, :, 1]) & (st[:, :, 1] > st[:, :, 2])
        weakest[a:a + len(st)] = np.where(legal, st[:, :, 0], np.iinfo(np.int32).max).argmin(1)
    way = HouseWay.from_table(weakest, "weakest-high")
    hand = "Kc Qd 9h 9s 5c 5d 2h"                     # his best high: two pair
    rules = Rules()
    best_high = int(np.asarray(split_strengths(hand))[:, 0].max())

    def above(w):                    # the share of flush entries whose true high tops his
        a = dealer_model_arrays(lambda ids: w.strengths(ids, rules), rules.a234_low)
        return float((a["triple_high"][a["flush_triples"][:, 0]] >= best_high).mean())

    assert above(HouseWay.named("standard")) > 0.9 and above(way) < 0.1
    fast = solve(hand, way, rules)
    assert _wins(fast) == _wins(solve(hand, way, rules, method="enumerate"))
    assert _wins(fast) != _wins(solve(hand, "standard", rules))
