"""Every public function that takes arrays of hands, against its single-hand path: on any rows
(good ones, and rows with a bad id or a repeated card) the answer equals the single-hand
path's row for row, or a ValueError subclass naming the bad row is raised.  Bounded examples
in the default run; ``-m slow`` runs many more."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import asiapoker as ap
from asiapoker import Rules
from asiapoker.analysis import hand_shapes
from asiapoker.setting import setting_of_split
from asiapoker.suit_classes import class_codes, class_of

FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MANY = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

good_row = st.permutations(range(53)).map(lambda p: list(p[:7]))


@st.composite
def rows(draw, n_max=4):
    """A few seven-card rows; sometimes one of them is spoiled (a bad id or a repeat)."""
    out = draw(st.lists(good_row, min_size=1, max_size=n_max))
    if draw(st.booleans()):
        i, j = draw(st.integers(0, len(out) - 1)), draw(st.integers(0, 6))
        out[i][j] = draw(st.sampled_from([-1, 53, 99, out[i][(j + 1) % 7]]))
    return out, draw(st.sampled_from(["int8", "int16", "int64", "uint8", ">i8"]))


def first_bad(rows_):
    for i, r in enumerate(rows_):
        if any(not 0 <= c <= 52 for c in r) or len(set(r)) != len(r):
            return i
    return None


def agree(batch, single, case):
    """``batch(array)`` equals ``[single(row) ...]``, or names the first bad row."""
    data, dtype = case
    bad = first_bad(data)
    try:
        arr = np.array(data, dtype=dtype) if bad is None or dtype not in ("uint8",) \
            else np.array(data, dtype=np.int64)
    except OverflowError:
        arr = np.array(data, dtype=np.int64)
    if bad is not None:
        with pytest.raises(ValueError) as info:
            batch(arr)
        assert f"row {bad}" in str(info.value) or "outside 0..52" in str(info.value)
        return
    got = batch(arr)
    assert [single(list(map(int, r))) for r in arr] == [_plain(x) for x in got]


def _plain(x):
    return x.tolist() if isinstance(x, np.ndarray) else x


WAYS = st.sampled_from(["standard", "classic", "medium-first", "equilibrium"])
RULES = st.sampled_from([Rules(), Rules(a234="low")])


@FEW
@given(rows(), WAYS, RULES)
def test_house_way_splits_and_strengths(case, way, rules):
    agree(lambda a: ap.house_way_splits(a, way, rules),
          lambda r: next(k for k in range(105) if setting_of_split(r, k)
                         == ap.house_way(r, way, rules)), case)
    agree(lambda a: ap.dealer_strengths(a, way, rules),
          lambda r: list(ap.house_way(r, way, rules).strengths(rules)), case)


@FEW
@given(rows(), RULES)
def test_legal_splits_and_strengths(case, rules):
    agree(lambda a: ap.legal_splits(a, rules),
          lambda r: [ap.is_legal(s, rules) for s in ap.splits(r)], case)
    agree(lambda a: ap.split_strengths_of(a, np.full(len(a), 50), rules),
          lambda r: list(setting_of_split(r, 50).strengths(rules)), case)


@FEW
@given(rows(), st.sampled_from(["A", "B", "C"]))
def test_bonus(case, table):
    agree(lambda a: [None if c < 0 else ap.BONUS_CATEGORIES[c]
                     for c in ap.bonus_hands(a, table)],
          lambda r: ap.bonus_hand(r, table), case)
    agree(lambda a: ap.bonus_payouts(a, table, wager=3),
          lambda r: ap.bonus_payout(r, table) * 3 if ap.bonus_payout(r, table) > 0 else -3,
          case)


@FEW
@given(rows())
def test_classes_and_shapes(case):
    def renamed(r):                         # a suit renaming: same class, same code
        return [c if c == 52 else c // 4 * 4 + (3 - c % 4) for c in r]
    agree(lambda a: class_codes(a), lambda r: int(class_codes([renamed(r)])[0]), case)
    agree(lambda a: class_of(a), lambda r: int(class_of([sorted(r)])[0]), case)
    agree(lambda a: hand_shapes(a), lambda r: int(hand_shapes([renamed(r)])[0]), case)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows(n_max=2), st.sampled_from(["standard", "classic"]))
def test_solve_many_is_solve(case, way):
    agree(lambda a: ap.solve_many(a, way, workers=1).best_wins,
          lambda r: ap.solve(r, way).best.wins, case)
    agree(lambda a: ap.solve_many(a, way, workers=1).house_way_wins,
          lambda r: ap.solve(r, way).house_way_result.wins, case)


@pytest.mark.slow
@MANY
@given(rows(), WAYS, RULES)
def test_house_way_splits_many(case, way, rules):
    test_house_way_splits_and_strengths.hypothesis.inner_test(case, way, rules)
