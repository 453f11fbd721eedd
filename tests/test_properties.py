"""Property tests (hypothesis): order, suit symmetry, agreement with the reference."""

import doctest
import pkgutil

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import asiapoker
from asiapoker import Rules, is_legal, rank, settle, splits, strengths
from tests import reference as ref

sizes = st.sampled_from([1, 2, 4])
a234s = st.sampled_from(["high", "low"])


def hands(size):
    return st.lists(st.integers(0, 52), min_size=size, max_size=size, unique=True)


any_hand = sizes.flatmap(hands)


@given(any_hand, any_hand, any_hand, a234s)
def test_comparison_is_a_total_preorder(a, b, c, a234):
    rules = Rules(a234=a234)
    x, y, z = rank(a, rules), rank(b, rules), rank(c, rules)
    assert (x < y) + (x == y) + (x > y) == 1
    if x <= y and y <= z:
        assert x <= z
    assert (x == y) == (
        ref.value([ref.card_text(i) for i in a], a234)
        == ref.value([ref.card_text(i) for i in b], a234)
    )


@given(
    st.lists(st.integers(0, 52), min_size=7, max_size=7, unique=True),
    st.permutations([0, 1, 2, 3]),
    a234s,
)
def test_results_do_not_change_when_suits_are_permuted(seven, perm, a234):
    rules = Rules(a234=a234)

    def renamed(c):
        return c if c == 52 else (c // 4) * 4 + perm[c % 4]

    other = [renamed(c) for c in seven]
    for s, t in zip(splits(seven), splits(other), strict=False):
        assert s.strengths(rules) == t.strengths(rules)
        assert is_legal(s, rules) == is_legal(t, rules)


@settings(max_examples=200)
@given(
    st.lists(st.integers(0, 52), min_size=14, max_size=14, unique=True),
    st.integers(0, 104),
    st.integers(0, 104),
    a234s,
)
def test_legality_and_settlement_agree_with_the_reference(cards, i, j, a234):
    rules = Rules(a234=a234)
    player, dealer = splits(cards[:7])[i], splits(cards[7:])[j]
    ref_parts = [
        [ref.card_text(int(c)) for c in part] for part in (dealer.high, dealer.medium, dealer.low)
    ]
    assert is_legal(dealer, rules) == ref.is_legal(*ref_parts, a234=a234)
    if is_legal(dealer, rules):
        out = settle(player, dealer, rules)
        p_parts = [
            [ref.card_text(int(c)) for c in part]
            for part in (player.high, player.medium, player.low)
        ]
        assert tuple(out) == ref.settle(p_parts, ref_parts, a234=a234)


@given(
    st.lists(
        st.lists(st.integers(0, 52), min_size=4, max_size=4, unique=True), min_size=1, max_size=20
    ),
    a234s,
)
def test_batch_equals_single(rows, a234):
    rules = Rules(a234=a234)
    for dtype in (np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64):
        got = strengths(np.array(rows, dtype=dtype), rules).tolist()
        assert got == [int(rank(r, rules)) for r in rows]


@given(st.lists(st.integers(-300, 300), min_size=4, max_size=4))
def test_batch_never_crashes_on_bad_ids(row):
    arr = np.array([row])
    if all(0 <= v <= 52 for v in row) and len(set(row)) == 4:
        assert strengths(arr).shape == (1,)
    else:
        with pytest.raises(ValueError):
            strengths(arr)


MODULES = sorted(m.name for m in pkgutil.iter_modules(asiapoker.__path__)
                 if m.name not in ("__main__", "_core"))


# the modules whose docstrings show examples (with their error cases)
EXAMPLED = {"cards", "ranks", "rules", "setting", "house_way", "solver", "bonus", "table",
            "simulation", "analysis", "equilibrium", "rack", "sampling", "suit_classes", "known",
            "spots", "optimal", ""}


def test_every_module_is_doctested():
    """The doctests below run on every module file of the package (listed here by the files
    themselves, not by the import system), and every module said to show examples exists."""
    from pathlib import Path
    files = {p.stem for p in Path(asiapoker.__file__).parent.glob("*.py")} - {"__init__",
                                                                           "__main__"}
    assert set(MODULES) == files
    assert EXAMPLED - {""} <= files, EXAMPLED - {""} - files


@pytest.mark.parametrize("module", [*MODULES, ""])
def test_doctests(module):
    import importlib
    mod = importlib.import_module(f"asiapoker.{module}" if module else "asiapoker")
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0 or module not in EXAMPLED, "its examples are gone"


def test_readme_examples():
    from pathlib import Path

    readme = Path(__file__).resolve().parents[1] / "README.md"
    result = doctest.testfile(str(readme), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 5
