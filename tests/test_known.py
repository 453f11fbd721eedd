"""Known cards (dead cards, the dealer's shown cards): the fast path against the enumerating
path and against the pure-Python reference, identities that hold at full size, batch forms,
and bad input."""

import doctest
import importlib.util
import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from asiapoker import (
    CardError,
    DuplicateCardError,
    KnownCardError,
    Rules,
    _core,
    count_splits,
    solve,
    solve_chunks,
    solve_many,
)
from asiapoker.cards import to_ids
from asiapoker.house_way import resolve_way
from asiapoker.known import dealer_hands
from asiapoker.solver import dealer_model
from tests import reference as ref

ROOT = Path(__file__).resolve().parents[1]


def _deal(rng, n_dead, n_dealer, joker=None):
    """A hand, dead and dealer cards from one shuffled deck; ``joker`` places the joker
    ("hand", "dead" or "dealer")."""
    deck = [int(c) for c in rng.permutation(53)]
    if joker is not None:
        deck.remove(52)
        at = {"hand": 0, "dead": 7, "dealer": 7 + n_dead}[joker]
        deck.insert(at, 52)
    return (tuple(deck[:7]), tuple(deck[7:7 + n_dead]),
            tuple(deck[7 + n_dead:7 + n_dead + n_dealer]))


def _wins(solution):
    return [(r.index, r.wins, r.legal) for r in sorted(solution.settings, key=lambda r: r.index)]


# the enumerating path walks C(46 - dead - dealer, 7 - dealer) hands: many dead cards keep
# that to thousands, and every kind of way is covered
CASES = [  # (way, a234, dead, dealer, joker)
    ("classic", "high", 30, 0, "hand"),
    ("classic", "low", 28, 2, "dealer"),
    ("high-first", "high", 33, 1, None),
    ("medium-first", "low", 29, 3, "dead"),
    ("standard", "high", 27, 1, "dealer"),
    ("standard", "low", 31, 0, None),
    ("equilibrium", "high", 26, 2, "hand"),
    ("classic", "high", 36, 7, None),        # the dealer's whole hand is known
    ("standard", "high", 39, 0, None),       # exactly seven cards left for him
]


@pytest.mark.parametrize(("way", "a234", "n_dead", "n_dealer", "joker"), CASES)
def test_fast_equals_enumerate(way, a234, n_dead, n_dealer, joker):
    rng = np.random.default_rng(n_dead * 10 + n_dealer)
    hand, dead, dealer = _deal(rng, n_dead, n_dealer, joker)
    rules = Rules(a234=a234)
    fast = solve(hand, way, rules, dead=dead, dealer=dealer)
    slow = solve(hand, way, rules, method="enumerate", dead=dead, dealer=dealer)
    assert fast.total == slow.total == math.comb(46 - n_dead - n_dealer, 7 - n_dealer)
    assert _wins(fast) == _wins(slow)


def test_a_user_table_way_fast_equals_enumerate():
    """A way the user made as a class table (here: high-first's splits of every class, a
    different table from the shipped ways'), through the class-table path of both."""
    from asiapoker import HouseWay
    from asiapoker._compile import class_table
    reps = class_table()[1]
    way = HouseWay.from_table(HouseWay.named("high-first").splits(reps), "mine")
    rng = np.random.default_rng(6)
    for n_dead, n_dealer in ((31, 0), (29, 2)):
        hand, dead, dealer = _deal(rng, n_dead, n_dealer, "dead")
        fast = solve(hand, way, dead=dead, dealer=dealer)
        slow = solve(hand, way, method="enumerate", dead=dead, dealer=dealer)
        assert _wins(fast) == _wins(slow)
        assert _wins(fast) == _wins(solve(hand, "high-first", dead=dead, dealer=dealer))


@pytest.mark.slow
def test_compiled_way_fast_equals_enumerate(rack):
    rng = np.random.default_rng(5)
    for n_dead, n_dealer in ((30, 0), (28, 2)):
        hand, dead, dealer = _deal(rng, n_dead, n_dealer)
        fast = solve(hand, rack, dead=dead, dealer=dealer)
        slow = solve(hand, rack, method="enumerate", dead=dead, dealer=dealer)
        assert _wins(fast) == _wins(slow)


def test_against_the_python_reference():
    """The pure-Python reference (tests/reference.py), sharing no code with the package: the
    classic way sets every dealer hand left, and every split is settled against each."""
    rng = np.random.default_rng(11)
    hand, dead, dealer = _deal(rng, 36, 2, "dealer")
    text = [ref.card_text(c) for c in hand]
    rest = [ref.card_text(c) for c in range(53) if c not in hand + dead + dealer]
    shown = [ref.card_text(c) for c in dealer]
    dealer_hands_left = [shown + list(more) for more in itertools.combinations(rest, 5)]
    dealer_values = [ref.house_way_values(d, "classic") for d in dealer_hands_left]
    got = {r.setting: r for r in solve(hand, "classic", dead=dead, dealer=dealer).settings}
    for high, medium, low in ref.all_splits(text):
        mine = (ref.value(high), ref.value(medium), ref.value(low))
        wins = 0 if not mine[0] > mine[1] > mine[2] else sum(
            sum(m > d for m, d in zip(mine, dv, strict=True)) >= 2 for dv in dealer_values)
        key = next(s for s in got if sorted(map(str, s.high)) == sorted(high)
                   and sorted(map(str, s.medium)) == sorted(medium))
        assert got[key].wins == wins, (high, medium, low)
        assert got[key].total == len(dealer_hands_left) == math.comb(8, 5)


@pytest.mark.parametrize("way", ["standard", "classic"])
def test_holding_is_the_difference_of_two_distributions(way, rng):
    """At full size: the dealer hands holding a card are those of the plain distribution
    minus those without the card (the plain path: two distributions), for ordinary cards, the
    joker, and with the joker in the hand; two shown cards by inclusion and exclusion."""
    for a234 in ("high", "low"):
        m = dealer_model(resolve_way(way), Rules(a234=a234))
        for trial in range(12):
            joker = ("dealer", "hand", None, None)[trial % 4]
            hand, dead, dealer = _deal(rng, trial % 5, 2, joker)
            c, c2 = dealer
            plain = _core.dealer_distribution(m, hand, dead)
            without = _core.dealer_distribution(m, hand, (*dead, c))
            assert (_core.dealer_distribution(m, hand, dead, (c,)) == plain - without).all()
            if trial % 3 == 0:
                both = (plain - without - _core.dealer_distribution(m, hand, (*dead, c2))
                        + _core.dealer_distribution(m, hand, (*dead, c, c2)))
                assert (_core.dealer_distribution(m, hand, dead, (c, c2)) == both).all()


def test_sums_over_the_card_seen(rng):
    """Every dealer hand holds 7 of the 46 cards and misses 39: summed over the card the
    dealer shows, the wins are 7 times the plain wins; over the dead card, 39 times."""
    hand = tuple(int(c) for c in rng.permutation(53)[:7])
    plain = count_splits([hand])[0]
    others = [c for c in range(53) if c not in hand]
    shown = count_splits(np.tile(hand, (46, 1)), dealer=np.array(others)[:, None])
    dead = count_splits(np.tile(hand, (46, 1)), dead=np.array(others)[:, None])
    assert (shown.sum(0) == 7 * plain).all()
    assert (dead.sum(0) == 39 * plain).all()


def test_dealer_side_counts_with_known_cards(rng):
    hand, dead, dealer = _deal(rng, 3, 1)
    got = count_splits([hand], "classic", side="dealer", dead=dead, dealer=dealer)[0]
    m = dealer_model(resolve_way("classic"), Rules())
    out = np.empty((1, 105), dtype=np.int64)
    totals = np.empty(1, dtype=np.int64)
    assert _core.solve_known_kernel(np.array([hand], np.int8), m, np.array([[*dead]], np.int8),
                                    np.array([[*dealer]], np.int8), out, totals, 1) == -1
    assert (got == out[0]).all() and totals[0] == dealer_hands(3, 1)
    assert (count_splits([hand], "classic", side="dealer")
            == count_splits([hand], "classic", side="dealer", dead=[])).all()


def test_batch_forms_agree_with_solve(rng):
    deals = [_deal(rng, 7, 1) for _ in range(6)]
    hands = np.array([d[0] for d in deals])
    dead = np.array([d[1] for d in deals])
    dealer = [list(d[2]) for d in deals]
    b = solve_many(hands, dead=dead, dealer=dealer, workers=2)
    assert b.total == dealer_hands(7, 1) and (b.totals == b.total).all()
    for i, (hand, d, k) in enumerate(deals):
        one = solve(hand, dead=d, dealer=k)
        assert (b.best[i], b.best_wins[i]) == (one.best.index, one.best.wins)
        assert b.best_ev[i] == pytest.approx(one.ev, abs=1e-12)
    padded = np.full((6, 9), -1)
    padded[:, 2:] = dead                                        # -1 anywhere in a row
    assert (solve_many(hands, dead=padded, dealer=dealer).wins == b.wins).all()
    assert (solve_many(hands, dead=[tuple(r) for r in dead], dealer=np.array(dealer)).wins
            == b.wins).all()
    chunks = list(solve_chunks(hands, dead=dead, dealer=dealer, chunk=4))
    assert [lo for lo, _ in chunks] == [0, 4]
    assert (np.concatenate([c.wins for _, c in chunks]) == b.wins).all()
    # one list for every row, and rows with different numbers of hands
    same = solve_many(hands[:2], dead="Jk")
    assert same.total == dealer_hands(1, 0) or 52 in hands[:2]
    mixed = solve_many(hands[:2], dead=[[int(dead[0, 0])], []])
    assert list(mixed.totals) == [dealer_hands(1, 0), dealer_hands(0, 0)]
    with pytest.raises(Exception, match="different numbers of dealer hands"):
        _ = mixed.total
    assert mixed.ev.shape == (2, 105)


def test_no_known_cards_is_the_plain_solve():
    hand = "As Kd 7h 7c Jk 2s 9d"
    assert _wins(solve(hand, dead=[], dealer=[])) == _wins(solve(hand))
    assert solve(hand, dead="", dealer=None).describe() == solve(hand).describe()


def test_result_names_the_known_cards():
    sol = solve("As Kd 7h 7c Jk 2s 9d", dead="Qs Qh", dealer="Ad")
    assert sol.describe().endswith("; dead Qs Qh; dealer shows Ad")
    d = sol.to_dict()
    assert (d["dead"], d["dealer"], d["total"]) == (["Qs", "Qh"], ["Ad"], math.comb(43, 6))


HAND = "As Kd 7h 7c Jk 2s 9d"
BAD = [  # (dead, dealer, error, words in the message)
    ("Kd", None, KnownCardError, "dead card Kd is in the hand"),
    (None, "Jk", KnownCardError, "dealer card Jk is in the hand"),
    ("Qc Qc", None, DuplicateCardError, "dead cards: duplicate card: Qc"),
    (None, "Qc Qc", DuplicateCardError, "dealer cards: duplicate card: Qc"),
    ("Qc 3d", "3d", KnownCardError, "card 3d is both dead and the dealer's"),
    (None, "2c 3c 4c 5c 6c 8c Tc Jc", KnownCardError, "the dealer holds 7 cards, 8 named"),
    ("Zq", None, CardError, "dead cards: unknown rank in 'Zq'"),
    (None, 53, CardError, "dealer cards: expected a list of cards, got the single value 53"),
]


@pytest.mark.parametrize(("dead", "dealer", "error", "words"), BAD)
def test_bad_known_cards_are_named(dead, dealer, error, words):
    with pytest.raises(error) as info:
        solve(HAND, dead=dead, dealer=dealer)
    assert words in str(info.value)
    assert type(info.value) is error, type(info.value)        # the precise class, not a parent


def test_too_few_cards_left_for_the_dealer():
    hand = to_ids(HAND)
    others = [c for c in range(53) if c not in hand]
    solve(HAND, dead=others[:39])                       # seven left: one dealer hand
    with pytest.raises(KnownCardError, match="40 dead cards leave the dealer 6 cards"):
        solve(HAND, dead=others[:40])


def test_bad_rows_are_named():
    hands = np.array([to_ids(HAND), list(range(7))])
    with pytest.raises(KnownCardError, match="row 1: dead card 2c is in the hand"):
        solve_many(hands, dead=np.array([[10], [0]]))
    with pytest.raises(KnownCardError, match=r"dealer row 0: card Th named twice"):
        solve_many(hands, dealer=np.array([[34, 34], [40, -1]]))
    with pytest.raises(KnownCardError, match=r"card id 60 is outside 0\.\.52"):
        count_splits(hands, dead=np.array([[60], [-1]]))
    with pytest.raises(KnownCardError, match="one row per hand"):
        count_splits(hands, dead=np.array([[10]]))
    with pytest.raises(KnownCardError, match="one list of cards per hand"):
        count_splits(hands, dead=[[10]])
    with pytest.raises(DuplicateCardError, match="dead row 1: duplicate card: 3c"):
        count_splits(hands, dead=[[10], [4, 4]])
    with pytest.raises(KnownCardError, match="dtype float64"):
        count_splits(hands, dead=np.zeros((2, 1)))
    with pytest.raises(KnownCardError, match="row 0: the dealer holds 7 cards, 8 named"):
        count_splits(hands[1:], dealer=np.array([[10, 11, 12, 13, 14, 15, 16, 17]]))


def _figures():
    """tools/known_figures.py as a module."""
    spec = importlib.util.spec_from_file_location("known_figures",
                                                  ROOT / "tools" / "known_figures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_known_cards_page():
    """docs/known-cards.md: its examples run, and its tables are those the figures script
    writes from the stored results."""
    page = ROOT / "docs" / "known-cards.md"
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 6
    known_figures = _figures()
    data = json.loads(known_figures.DATA.read_text())
    begin, end = known_figures.BEGIN, known_figures.END
    text = page.read_text()
    assert text[text.index(begin) + len(begin):text.index(end)] == (
        "\n" + known_figures.tables(data))
    assert set(data["figures"]) == set(known_figures.FIGURES)
    for f in known_figures.FIGURES:
        assert len(data["figures"][f]) == known_figures.PLAN[f][1]


@pytest.mark.parametrize("figure", ["two-spots", "six-spots", "dealer-shows-Jk"])
def test_a_block_of_each_figure_recomputes(figure):
    """One block of a stored figure, recomputed, gives the same integers (the whole run is
    python tools/known_figures.py)."""
    known_figures = _figures()
    data = json.loads(known_figures.DATA.read_text())
    b = 7 % known_figures.PLAN[figure][1]
    assert known_figures.block(figure, b) == data["figures"][figure][b]
