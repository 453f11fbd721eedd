"""House ways (SPEC 5): built-ins against a brute-force reference, API, batch."""

from functools import cache

import numpy as np
import pytest

from asiapoker import (
    DuplicateCardError,
    HandSizeError,
    HouseWay,
    HouseWayError,
    Rules,
    Setting,
    dealer_strengths,
    house_way,
    is_legal,
)
from tests import reference as ref


@cache
def _cached(cards: tuple[str, ...], a234: str):
    return ref.value(list(cards), a234)


def cached_value(cards, a234):
    return _cached(tuple(sorted(cards)), a234)


def ref_values(setting: Setting, a234: str):
    return tuple(cached_value([str(c) for c in part], a234)
                 for part in (setting.high, setting.medium, setting.low))


WAYS = ["classic", "medium-first", "high-first", "low-medium-high"]

SHAPES = {
    "no pair": "Ah Kd 9s 7c 5h 3d 2s",
    "one pair": "Ah Kd 9s 9c 5h 3d 2s",
    "two pairs": "Ah Kd Ks 9c 9h 3d 2s",
    "three pairs": "Kc Kd Jh Js 7c 7d 2s",
    "trips": "Ah Kd 9s 9c 9h 3d 2s",
    "trips + pair": "5c 5d 5h Kc Kd Qh 2c",
    "two trips": "5c 5d 5h Kc Kd Ks 2c",
    "quads": "9c 9d 9h 9s Ad Kd 2c",
    "quads + trips": "9c 9d 9h 9s 4d 4c 4h",
    "four aces": "Ac Ad Ah As Kd Qd 2c",
    "five aces": "Ac Ad Ah As Jk Kd 2c",
    "straight": "9c Td Jh Qs 2d 5c 7h",
    "straight with joker": "9c Td Jk Qs 2d 5c 3h",
    "flush": "2s 7s 9s Ks Ad 5c 3h",
    "flush with joker": "2s 7s Jk Ks Ad 5c 3h",
    "straight flush": "9s Ts Js Qs 2d 5c 7h",
    "straight flush with joker": "9s Ts Jk Qs 2d 5c 7h",
    "royal flush and a pair": "As Ks Qs Js 9d 9h 2c",
}


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("a234", ["high", "low"])
def test_every_shape_matches_the_reference(way, shape, a234):
    seven = SHAPES[shape]
    setting = house_way(seven, way, Rules(a234=a234))
    assert is_legal(setting, Rules(a234=a234))
    assert sorted(map(int, setting.cards)) == sorted(map(int, Setting.parse(
        f"{' '.join(seven.split()[:4])} | {' '.join(seven.split()[4:6])} | "
        f"{seven.split()[6]}").cards))
    expected = ref.house_way_values(seven.split(), way, a234, cached_value)
    assert ref_values(setting, a234) == expected


def test_classic_on_the_common_shapes():
    """The consequences SPEC 5.4 lists, on concrete hands."""
    def hw(t):
        return house_way(t, "classic")
    s = hw("Kc Kd Jh Js 7c 7d 2s")                      # three pairs: top pair medium
    assert {c.rank for c in s.medium} == {11}
    s = hw("Ah Kd Ks 9c 9h 3d 2s")                      # two pairs split high / medium
    assert len({c.rank for c in s.medium}) == 1 and s.medium[0].rank in (11, 7)
    assert {c.rank for c in s.high} & {11, 7}
    s = hw("9c 9d 9h 9s Ad Kd 2c")                      # quads split 2 + 2
    assert [c.rank for c in s.medium] == [7, 7]
    s = hw("Ah Kd 9s 9c 5h 3d 2s")                      # a pair is not broken
    assert all(c.rank != 7 for c in s.low)
    assert sum(c.rank == 7 for c in s.high) in (0, 2)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("a234", ["high", "low"])
def test_random_hands_match_the_reference(rng, way, a234):
    rules = Rules(a234=a234)
    hands = np.argsort(rng.random((250, 53)), axis=1)[:, :7]
    hands[:50, 0] = np.where((hands[:50] == 52).any(1), hands[:50, 0], 52)  # joker hands
    batch = dealer_strengths(hands, way, rules)
    for row, strengths in zip(hands.tolist(), batch.tolist(), strict=True):
        setting = house_way(row, way, rules)
        assert list(setting.strengths(rules)) == strengths
        seven = [ref.card_text(c) for c in row]
        assert ref_values(setting, a234) == ref.house_way_values(seven, way, a234,
                                                                 cached_value)


@pytest.mark.slow
@pytest.mark.parametrize("way", ["classic", "medium-first", "high-first"])
@pytest.mark.parametrize("a234", ["high", "low"])
def test_200k_random_hands_match_the_reference(way, a234):
    rng = np.random.default_rng(5)
    rules = Rules(a234=a234)
    hands = np.argsort(rng.random((200_000 // 6, 53)), axis=1)[:, :7]
    batch = dealer_strengths(hands, way, rules)
    for row, strengths in zip(hands.tolist(), batch.tolist(), strict=True):
        seven = [ref.card_text(c) for c in row]
        expected = ref.house_way_values(seven, way, a234, cached_value)
        setting = house_way(row, way, rules)
        assert list(setting.strengths(rules)) == strengths
        assert ref_values(setting, a234) == expected


def test_tie_break_is_deterministic():
    a = house_way("As Ad Kh Kc 7d 7s 2c")
    b = house_way("2c 7s 7d Kc Kh Ad As")
    assert a == b


def test_suit_symmetry_of_built_in_ways(rng):
    for way in WAYS:
        for _ in range(50):
            seven = rng.choice(53, 7, replace=False).tolist()
            perm = rng.permutation(4)
            other = [c if c == 52 else c // 4 * 4 + perm[c % 4] for c in seven]
            assert house_way(seven, way).strengths() == house_way(other, way).strengths()


def test_names_and_priorities():
    assert HouseWay.named("medium-first") == HouseWay.priority("medium", "low", "high")
    assert HouseWay.named("high-medium-low").name == "high-first"
    assert str(HouseWay.priority("low", "medium", "high")) == "low-medium-high"
    _setting, reason = HouseWay.named("classic").explain("Kc Kd Jh Js 7c 7d 2s")
    assert reason.startswith("three pairs") and "classic" in reason


def test_bad_input():
    with pytest.raises(HouseWayError, match="mystery"):
        house_way("Kc Kd Jh Js 7c 7d 2s", "mystery")
    with pytest.raises(HouseWayError):
        HouseWay.priority("high", "high", "low")
    with pytest.raises(HandSizeError):
        house_way("Kc Kd Jh Js 7c 7d")
    with pytest.raises(DuplicateCardError, match="row 0"):
        dealer_strengths(np.array([[0, 0, 1, 2, 3, 4, 5]]))


def test_docs_page_is_what_the_code_writes():
    """docs/house-ways.md is generated by docs/build_house_ways.py; regenerate after changes."""
    import importlib.util
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "docs" / "build_house_ways.py"
    spec = importlib.util.spec_from_file_location("build_house_ways", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.PAGE.read_text() == module.build()


@pytest.mark.parametrize(("hand", "way"), [
    ("Kc Kd Kh 9s 9c 5d 5h", "medium-first"),   # two of the kings are interchangeable
    ("Ac Ad Ah As Kc Kd 2c", "medium-first"),    # which aces go where (12 equal settings)
    ("Qc Qd Qh 8s 8c 3d 3h", "high-first"),      # which queen goes low
    ("7c 7d 7h 7s 3c 3d 2c", "classic"),         # quads split 2 + 2: which sevens
    ("Jk Ac 9h 9s 5c 5d 2h", "low-medium-high"),
])
def test_tie_break_pinned_on_hand_picked_hands(hand, way):
    """Ties go to the first split, in SPLIT_POSITIONS order, of the cards sorted by id: written
    out here with the reference's values, then compared card for card."""
    from asiapoker import SPLIT_POSITIONS, parse_cards

    cards = sorted(int(c) for c in parse_cards(hand))
    text = [ref.card_text(c) for c in cards]
    order = {"medium-first": (1, 2, 0), "high-first": (0, 1, 2), "classic": (1, 2, 0),
             "low-medium-high": (2, 1, 0)}[way]
    ties = 0
    best, best_key = None, None
    for h, m, lo in SPLIT_POSITIONS:
        parts = ([text[i] for i in h], [text[i] for i in m], [text[lo]])
        if not ref.is_legal(*parts):
            continue
        if way == "classic" and not ref.classic_allows(*parts):
            continue
        vals = tuple(ref.value(p) for p in parts)
        key = tuple(vals[i] for i in order)
        if best_key is None or key > best_key:
            best, best_key, ties = parts, key, 1
        elif key == best_key:
            ties += 1
    assert ties >= 2                    # the hand really has equal settings to choose among
    got = house_way(hand, way)
    assert sorted(map(str, got.high)) == sorted(best[0])
    assert sorted(map(str, got.medium)) == sorted(best[1])
    assert [str(got.low[0])] == best[2]


def test_batch_interface_of_every_kind_of_way(rng):
    from asiapoker import CardError, DuplicateCardError, HouseWay, Rules, house_way
    from asiapoker._compile import _keys as class_codes
    from asiapoker.setting import split_strengths_of

    hands = np.argsort(rng.random((200, 53)), axis=1)[:, :7]
    for name in ("classic", "standard", "equilibrium"):
        way = HouseWay.named(name)
        for rules in (Rules(), Rules(a234="low")):
            tri = way.strengths(hands, rules)
            k = way.splits(hands, rules)
            keys, table = way.class_table(rules)
            assert keys.dtype == np.int64 and table.shape == (len(keys), 3)
            assert np.array_equal(split_strengths_of(hands, k, rules), tri)
            for row, t in zip(hands[:25].tolist(), tri, strict=False):
                assert tuple(t) == house_way(row, way, rules).strengths(rules)
            codes = class_codes(hands[:25])   # the class table holds each row's strengths
            assert np.array_equal(table[np.searchsorted(keys, codes)], tri[:25])
        bad = hands[:3].copy()
        bad[2, 4] = bad[2, 0]
        with pytest.raises(DuplicateCardError, match="row 2"):
            way.strengths(bad)
        bad[2, 4] = 60
        with pytest.raises(CardError, match="row 2: card id 60"):
            way.splits(bad)


def test_constants_are_defined_once_in_the_core_and_agree():
    from asiapoker import BONUS_CATEGORIES, CATEGORIES, HouseWay, _core
    assert CATEGORIES is _core.CATEGORIES and BONUS_CATEGORIES is _core.BONUS_CATEGORIES
    assert CATEGORIES[0] == "no pair" and CATEGORIES[-1] == "four aces"
    assert len(BONUS_CATEGORIES) == 11 and len(set(BONUS_CATEGORIES)) == 11
    # the built-in ways' codes, as the core numbers them for house_way7, are the ways the
    # package builds from their names (the priority ways from their order of hands)
    assert list(_core.BUILTIN_WAYS) == ["classic", "medium-first", "high-first"]
    for name, code in _core.BUILTIN_WAYS.items():
        assert HouseWay.named(name).code == code
    assert HouseWay.priority("medium", "low", "high").code == _core.BUILTIN_WAYS["medium-first"]
