"""User-written house ways: from_function, its checks, its cache, the example."""

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from asiapoker import (
    SPLIT_POSITIONS,
    HouseWay,
    HouseWayError,
    Rules,
    Setting,
    dealer_strengths,
    house_way,
    solve,
)
from asiapoker._compile import PROBES
from asiapoker.cli import main
from tests.classic_in_python import classic_py
from tests.conftest import load_example as _load_example

ROOT = Path(__file__).resolve().parents[1]


def test_python_classic_sets_as_the_built_in_on_random_hands():
    """The sampled check (the whole compile is under -m slow): the plain Python classic, called
    hand by hand, sets as the core's classic under both A-2-3-4 options."""
    from asiapoker.cards import card_of
    from asiapoker.setting import setting_of
    hands = np.argsort(np.random.default_rng(98).random((1500, 53)), axis=1)[:, :7]
    for a234 in ("high", "low"):
        rules = Rules(a234=a234)
        core = dealer_strengths(hands, "classic", rules)
        for row, want in zip(hands.tolist(), core.tolist(), strict=True):
            got = setting_of(classic_py(tuple(card_of(c) for c in row)), row, "classic_py")
            assert list(got.strengths(rules)) == want


def test_rack_card_example_on_hands():
    """The sampled check of the example way (its whole compile and the CLI are under -m slow):
    hand-picked hands, and a legal setting of the very cards on random ones."""
    from asiapoker.cards import card_of, parse_cards
    from asiapoker.setting import is_legal, setting_of
    fn = _load_example().rack_card

    def run(cards):
        ids = [int(c) for c in cards]
        return setting_of(fn(tuple(card_of(c) for c in ids)), ids, "rack_card")

    s = run(parse_cards("9c 9d 9h 9s Ad Kd 2c"))               # 9s split 2 + 2
    assert sorted(c.rank for c in s.medium) == [7, 7]
    s = run(parse_cards("5c 5d 5h 5s Ad Kd 2c"))               # 5s stay together
    assert sorted(c.rank for c in s.high) == [3, 3, 3, 3]
    s = run(parse_cards("9s Ts Js Qs 2d 2c 7h"))               # straight flush kept whole
    assert s.ranks()[0].category == "straight flush"
    hands = np.argsort(np.random.default_rng(1).random((600, 53)), axis=1)[:, :7]
    for row in hands.tolist():
        s = run(row)
        assert is_legal(s) and sorted(int(c) for c in (*s.high, *s.medium, *s.low)) == sorted(row)


def test_cache_entries_are_exact_identities(tmp_path):
    """Names and keys that a slug would fold together, other functions, other closures of one
    factory: each its own entry."""
    from asiapoker._cache import cache_path
    from asiapoker._compile import function_identity

    def make(way):
        def f(cards):
            return way.set(cards)
        return f

    def ident(name, key, fn=len):
        return {"name": name, "cache_key": key, "function": function_identity(fn)}
    cases = [ident("my way", "1"), ident("my_way", "1"), ident("x", "1-2"), ident("x-1", "2"),
             ident("x", "1", make(HouseWay.named("classic"))),
             ident("x", "1", make(HouseWay.named("high-first"))), ident("x", "1", abs)]
    paths = {cache_path(tmp_path, "house-way-cache", c) for c in cases}
    assert len(paths) == len(cases)
    assert cache_path(tmp_path, "house-way-cache", ident("my way", "1")) in paths


@pytest.mark.slow
def test_python_classic_compiles_to_the_built_in(classic_copy):
    rng = np.random.default_rng(99)
    hands = np.argsort(rng.random((200_000, 53)), axis=1)[:, :7]
    for a234 in ("high", "low"):
        rules = Rules(a234=a234)
        assert (dealer_strengths(hands, classic_copy, rules)
                == dealer_strengths(hands, "classic", rules)).all()
    for seven in ("As Kd 7h 7c Jk 2s 9d", "Ah 2h 3h 4h Td Tc 8s"):
        a, b = solve(seven, "classic"), solve(seven, classic_copy)
        assert [r.wins for r in a.settings] == [r.wins for r in b.settings]
        assert b.way == "classic-py"


@pytest.mark.slow
def test_house_way_calls_the_function(classic_copy):
    s = house_way("Kc Kd Jh Js 7c 7d 2s", classic_copy)
    assert {c.rank for c in s.medium} == {11}
    _setting, reason = classic_copy.explain("Kc Kd Jh Js 7c 7d 2s")
    assert "classic-py" in reason


def test_the_cache_is_used_rebuilt_and_keyed(tmp_path):
    cache_dir = tmp_path
    calls = []
    medium_first = HouseWay.named("medium-first")

    def counted_fast(cards):                                  # a quick way, to rebuild twice
        calls.append(1)
        return medium_first.set(cards)

    hands = np.argsort(np.random.default_rng(4).random((20_000, 53)), axis=1)[:, :7]
    expected = dealer_strengths(hands, medium_first)
    first = HouseWay.from_function(counted_fast, "fast", cache_dir=cache_dir, check=10)
    assert len(calls) > 800_000                               # asked once per class
    _setting, reason = first.explain("Kc Kd Jh Js 7c 7d 2s")  # the function, named
    assert "fast" in reason
    calls.clear()
    again = HouseWay.from_function(counted_fast, "fast", cache_dir=cache_dir, check=10)
    assert len(calls) <= 30 + PROBES                          # answers came from the cache
    assert (again.table == first.table).all()
    path = first.cache_file
    assert path.parent == cache_dir and path.name.startswith("house-way-cache-")
    assert sorted(p.name for p in cache_dir.iterdir()) == [path.name]      # no orphans
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] + b"garbage" * 10)   # corrupt it
    calls.clear()
    with pytest.warns(UserWarning, match="rebuilding"):
        rebuilt = HouseWay.from_function(counted_fast, "fast", cache_dir=cache_dir, check=10)
    assert len(calls) > 800_000
    assert (rebuilt.table == first.table).all()
    assert (dealer_strengths(hands, rebuilt) == expected).all()
    path.unlink()
    path.mkdir()                             # a folder where the cache file goes
    calls.clear()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        other = HouseWay.from_function(counted_fast, "fast", cache_dir=cache_dir, check=10)
    said = " ".join(str(w.message) for w in seen)
    assert "rebuilding the house-way cache" in said and "is a directory" in said
    assert "could not write the house-way cache" in said
    assert len(calls) > 800_000
    assert sorted(p.name for p in cache_dir.iterdir()) == [path.name]      # no orphans
    assert (dealer_strengths(hands, other) == expected).all()
    # another function under the same name and version: another entry, never the first one's
    high_first = HouseWay.named("high-first")
    swapped = HouseWay.from_function(high_first.set, "fast", cache_dir=cache_dir, check=10)
    assert swapped.cache_file != path
    assert (dealer_strengths(hands, swapped) == dealer_strengths(hands, high_first)).all()
    assert (solve("Kc Qd 9h 9s 5c 5d 2h", swapped).house_way_setting.strengths()
            == house_way("Kc Qd 9h 9s 5c 5d 2h", high_first).strengths())


@pytest.mark.slow
def test_rack_card_example_end_to_end(rack, cache_dir):
    s = house_way("9c 9d 9h 9s Ad Kd 2c", rack)            # 9s split 2 + 2
    assert sorted(c.rank for c in s.medium) == [7, 7]
    s = house_way("5c 5d 5h 5s Ad Kd 2c", rack)            # 5s stay together
    assert sorted(c.rank for c in s.high) == [3, 3, 3, 3]
    s = house_way("9s Ts Js Qs 2d 2c 7h", rack)            # straight flush kept whole
    assert s.ranks()[0].category == "straight flush"
    hands = np.argsort(np.random.default_rng(1).random((2000, 53)), axis=1)[:, :7]
    table = dealer_strengths(hands, rack)
    for row, tri in zip(hands[:200].tolist(), table[:200].tolist(), strict=True):
        assert list(house_way(row, rack).strengths()) == tri
    sol = solve("As Kd 7h 7c Jk 2s 9d", rack)
    assert sol.way == "rack-card" and sol.total == 53_524_680
    out = subprocess.run(
        [sys.executable, "-m", "asiapoker", "house-way", "--json", "--way",
         str(ROOT / "examples" / "rack_card.py") + ":rack_card", "9c 9d 9h 9s Ad Kd 2c"],
        capture_output=True, text=True, env={"ASIAPOKER_CACHE_DIR": str(cache_dir),
                                             "PATH": "/usr/bin:/bin"}, check=True)
    assert '"way": "rack-card"' in out.stdout and '"medium": "Pair of nines"' in out.stdout


def _first_split(cards):
    return Setting(cards[:4], cards[4:6], cards[6])


@pytest.mark.parametrize(
    ("fn", "match"),
    [(lambda cards: (cards[:4], cards[4:6], next(c for c in range(53) if c not in cards)),
      "not the seven cards"),
     (lambda cards: Setting(cards[:4], cards[4:6], cards[0]), "failed on"),
     (lambda cards: (cards[:3], cards[3:5], cards[5]), "malformed"),
     (lambda cards: 42, "malformed"),
     (_first_split, "not legal"),
     (lambda cards: 1 / 0, "raised ZeroDivisionError on")],
)
def test_malformed_and_illegal_ways_are_rejected(fn, match, tmp_path):
    with pytest.raises(HouseWayError, match=match):
        HouseWay.from_function(fn, "bad", cache_dir=tmp_path)


def test_suit_asymmetric_way_is_rejected_with_both_hands(tmp_path):
    def spade_low(cards):
        # classic, but a spade goes low whenever that is legal: not suit-symmetric
        for h, m, lo in SPLIT_POSITIONS:
            s = Setting([cards[i] for i in h], [cards[i] for i in m], cards[lo])
            if cards[lo].suit == 3 and s.strengths()[0] > s.strengths()[1] > s.strengths()[2]:
                return s
        return classic_py(cards)

    with pytest.raises(HouseWayError, match="not suit-symmetric") as err:
        HouseWay.from_function(spade_low, "spades", cache_dir=tmp_path)
    assert str(err.value).count("->") == 2


def test_way_that_reads_suits_beyond_flushes_is_rejected(tmp_path):
    def suited_medium(cards):
        # suit-symmetric, but prefers a suited medium hand even when no flush is involved
        best = None
        for h, m, lo in SPLIT_POSITIONS:
            s = Setting([cards[i] for i in h], [cards[i] for i in m], cards[lo])
            hml = s.strengths()
            if hml[0] > hml[1] > hml[2]:
                key = (s.medium[0].suit == s.medium[1].suit, hml[1], hml[2], hml[0])
                if best is None or key > best[0]:
                    best = (key, s)
        return best[1]

    with pytest.raises(HouseWayError, match="beyond the flushes"):
        HouseWay.from_function(suited_medium, "suited", cache_dir=tmp_path)


def test_names_and_arguments(tmp_path):
    with pytest.raises(HouseWayError, match="built-in"):
        HouseWay.from_function(classic_py, "classic", cache_dir=tmp_path)
    with pytest.raises(HouseWayError, match="name"):
        HouseWay.from_function(classic_py, "", cache_dir=tmp_path)
    with pytest.raises(HouseWayError, match="callable"):
        HouseWay.from_function("classic", "x", cache_dir=tmp_path)
    for bad in ("10", 1.5, -5, 10**9, True):
        with pytest.raises(HouseWayError, match=r"check \(how many sample hands"):
            HouseWay.from_function(classic_py, "x", cache_dir=tmp_path, check=bad)


def test_progress_bar(tmp_path, capsys, monkeypatch):
    import asiapoker._progress
    monkeypatch.setattr(asiapoker._progress, "LINE_EVERY", 0.0)    # a line at every update
    calls = []

    def tiny(cards):
        calls.append(1)
        return classic_py(cards)

    # only the progress text matters here: stop the compile early by raising after a while
    def stopping(cards):
        if len(calls) > 20_000:
            raise KeyboardInterrupt
        return tiny(cards)

    with pytest.raises(KeyboardInterrupt):
        HouseWay.from_function(stopping, "stopping", cache_dir=tmp_path, progress=True,
                               check=5)
    err = capsys.readouterr().err                   # not a terminal: plain lines
    assert "compiling house way 'stopping': " in err and "to go\n" in err and "\r" not in err
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert main(["house-way", "--way", "nowhere.py:f", "2c 3c 4c 5c 6c 7c 8c"]) == 2




def test_a_failed_compile_keeps_nothing(tmp_path):
    """A way that fouls on rare hands (five aces beside two unpaired cards) fails when it is
    compiled, keeps no cache, and the fixed function is compiled anew, not read back."""
    medium_first = HouseWay.named("medium-first")

    def sloppy(cards):
        aces = [c for c in cards if c.rank == 12]
        rest = [c for c in cards if c.rank != 12]
        if len(aces) == 5 and rest[0].rank != rest[1].rank:
            return (aces[:4], rest, aces[4])          # low ace above an unpaired medium: foul
        return medium_first.set(cards)

    with pytest.raises(HouseWayError, match="not legal"):
        HouseWay.from_function(sloppy, "sloppy", cache_dir=tmp_path, check=0, progress=False)
    assert list(tmp_path.iterdir()) == []

    def sloppy_fixed(cards):                          # same name and version, fixed
        return medium_first.set(cards)

    way = HouseWay.from_function(sloppy_fixed, "sloppy", cache_dir=tmp_path, check=0,
                                 progress=False)
    assert house_way("Jk As Ah Ad Kc Qd 2c", way) == house_way("Jk As Ah Ad Kc Qd 2c",
                                                                 medium_first)
    assert [p.name for p in tmp_path.iterdir()] == [way.cache_file.name]
