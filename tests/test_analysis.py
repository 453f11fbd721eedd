"""The whole-game analysis: player classes, the grouped solver, runs that resume, Dask, the
sample mode, Parquet and the report.  Checked on shards and samples, never the whole run."""

from __future__ import annotations

import itertools
import json
import math
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asiapoker import _core, house_way_splits, simulate, solve
from asiapoker._runs import RunError, chunk_bounds
from asiapoker.analysis import HAND_SHAPES, Analysis, analyze
from asiapoker.cards import Card, parse_cards, to_ids
from asiapoker.cli import main
from asiapoker.errors import MissingExtraError
from asiapoker.house_way import resolve_way
from asiapoker.rules import Rules, resolve
from asiapoker.solver import DEALER_HANDS, dealer_model
from asiapoker.suit_classes import PLAYER_HANDS, class_codes, class_groups, class_of, player_classes

SUIT_PERMS = list(itertools.permutations(range(4)))


def rename(hand, perm):
    """The hand with suit s renamed perm[s] (joker kept), sorted."""
    return tuple(sorted(c if c == 52 else (c >> 2) * 4 + perm[c & 3] for c in hand))


def orbit(hand):
    return {rename(hand, p) for p in SUIT_PERMS}


# ---------------------------------------------------------------------------------------------
# the classes
# ---------------------------------------------------------------------------------------------

def test_class_weights_sum_to_every_hand():
    hands, weights = player_classes()
    assert len(hands) == 6_972_147
    assert int(weights.sum()) == PLAYER_HANDS == math.comb(53, 7)
    assert set(np.unique(weights).tolist()) <= {1, 2, 3, 4, 6, 8, 12, 24}
    assert (np.diff(hands.astype(np.int64), axis=1) > 0).all()       # sorted, distinct
    assert not hands.flags.writeable


def test_every_class_is_one_orbit():
    """Distinct representatives lie in distinct orbits: one code each."""
    hands, _ = player_classes()
    codes = class_codes(hands)
    assert len(np.unique(codes)) == len(hands)


@pytest.mark.parametrize("ranks", [
    (0, 1, 2, 3, 4, 5, 6),          # seven singles
    (12, 12, 5, 5, 3, 3, 0),        # three pairs
    (7, 7, 7, 7, 2, 2, 2),          # quads and trips
    (11, 9, 9, 4, 1, 0, 52),        # a pair, the joker
    (12, 12, 12, 12, 52, 8, 8),     # five aces and a pair
])
def test_classes_of_a_rank_multiset_by_brute_force(ranks):
    """The classes of one rank multiset equal the orbits found by brute force over every way
    to give its ranks suits, with orbit sizes as weights and the least member as the hand."""
    plain = [r for r in ranks if r != 52]
    joker = len(plain) < 7
    by_rank = {r: plain.count(r) for r in set(plain)}
    hands_all = set()
    for choice in itertools.product(*(itertools.combinations(range(4), n)
                                      for n in by_rank.values())):
        hand = [r * 4 + s for r, suits in zip(by_rank, choice, strict=True) for s in suits]
        hands_all.add(tuple(sorted(hand + ([52] if joker else []))))
    orbits = {}
    for h in hands_all:
        orbits.setdefault(frozenset(orbit(h)), None)
    hands, weights = player_classes()
    mine = class_of(np.array(sorted(hands_all), dtype=np.int8))
    got = {int(i) for i in mine}
    assert len(got) == len(orbits)
    for i in got:
        rep = tuple(int(x) for x in hands[i])
        o = orbit(rep)
        assert int(weights[i]) == len(o)
        assert frozenset(o) in orbits


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(53)), st.sampled_from(SUIT_PERMS))
def test_every_hand_maps_to_one_class(deck, perm):
    hand = tuple(sorted(deck[:7]))
    hands, _ = player_classes()
    i = int(class_of([hand])[0])
    j = int(class_of([rename(hand, perm)])[0])
    assert i == j
    assert tuple(int(x) for x in hands[i]) in orbit(hand)


# ---------------------------------------------------------------------------------------------
# the grouped solver against the per-hand one
# ---------------------------------------------------------------------------------------------

def _slices():
    hands, _ = player_classes()
    _, _, groups = (None, None, class_groups())
    edges = chunk_bounds(groups)
    picks = []
    for c in (0, len(edges) // 3, len(edges) - 2):        # no joker, no joker, joker
        lo = int(edges[c])
        picks.append(np.ascontiguousarray(hands[lo:lo + 400]))
    return picks


@pytest.mark.parametrize("way,a234", [("standard", "high"), ("classic", "low")])
def test_solve_groups_equals_solve_rows(way, a234):
    m = dealer_model(resolve_way(way), Rules(a234=a234))
    for rows in _slices():
        a = np.empty((len(rows), 105), dtype=np.int64)
        b = np.empty((len(rows), 105), dtype=np.int64)
        tot = np.empty(len(rows), dtype=np.int64)
        assert m.solve_rows(rows, a, tot) == -1
        assert _core.solve_groups_kernel(rows, m, b) == -1
        assert (tot == DEALER_HANDS).all()
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("way,a234", [("standard", "high"), ("classic", "low"),
                                      ("priority:low,medium,high", "high"),
                                      ("high-first", "high")])
def test_solve_groups_equals_solve_rows_on_whole_groups(way, a234):
    """Whole rank multisets (the grouped solver merges a group's flush entries once and
    shares each pair of suit sets' two-flush counts across its rows): random ones of every
    kind, and the largest (715 rows, 7 distinct ranks), against the per-hand solver; every
    group in the grouped path, none given back to be solved one by one (``high-first`` has
    675,296 flush entries, more than the hash took before its size followed the model's)."""
    from asiapoker import HouseWay

    w = (HouseWay.priority(*way.split(":")[1].split(",")) if way.startswith("priority")
         else resolve_way(way))
    m = dealer_model(w, Rules(a234=a234))
    hands, _ = player_classes()
    groups = class_groups()
    starts = np.r_[np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]]), len(groups)]
    sizes = np.diff(starts)
    rng = np.random.default_rng(sum(map(ord, way + a234)))
    picks = sorted({*rng.choice(len(sizes), 10, replace=False).tolist(), len(sizes) - 1,
                    int(np.argmax(sizes))})
    rows = np.ascontiguousarray(np.concatenate([hands[starts[i]:starts[i + 1]] for i in picks]))
    a = np.empty((len(rows), 105), dtype=np.int64)
    b = np.empty((len(rows), 105), dtype=np.int64)
    for side in (0, 1):                      # the player's count, and the dealer's
        assert m.solve_rows(rows, a, np.empty(len(rows), dtype=np.int64), side) == -1
        _core.group_fallback_rows()
        assert _core.solve_groups_kernel(rows, m, b, side) == -1
        assert _core.group_fallback_rows() == 0
        np.testing.assert_array_equal(a, b)


def test_solve_groups_any_order(rng):
    """Rows in any order (groups of one) give the same counts."""
    rows = _slices()[1][:120].copy()
    rng.shuffle(rows)
    m = dealer_model(resolve_way("standard"), resolve(None))
    a = np.empty((len(rows), 105), dtype=np.int64)
    b = np.empty((len(rows), 105), dtype=np.int64)
    assert m.solve_rows(rows, a, np.empty(len(rows), dtype=np.int64)) == -1     # all rows good
    assert _core.solve_groups_kernel(rows, m, b) == -1
    np.testing.assert_array_equal(a, b)


def test_solve_groups_rejects_bad_rows():
    m = dealer_model(resolve_way("standard"), resolve(None))
    rows = np.array([[0, 1, 2, 3, 4, 5, 5]], dtype=np.int8)
    assert _core.solve_groups_kernel(rows, m, np.empty((1, 105), dtype=np.int64)) == 0


def test_solve_groups_keeps_its_hash_clean_between_calls():
    """The kernel keeps its 32 MB merge hash for the next call: all zeros again after a call
    (the largest group fills much of it), a call with a kept hash counts the same, a bad row
    gives the hash back untouched, and ``release_group_tables`` frees them all."""
    _core.release_group_tables()
    hands, _ = player_classes()
    groups = class_groups()
    big = np.flatnonzero(groups == np.bincount(groups).argmax())
    rows = np.ascontiguousarray(hands[big])
    m = dealer_model(resolve_way("standard"), resolve(None))
    a = np.empty((len(rows), 105), dtype=np.int64)
    b = np.empty((len(rows), 105), dtype=np.int64)
    assert m.solve_rows(rows, a, np.empty(len(rows), dtype=np.int64)) == -1
    assert _core.kept_group_tables() == (0, True)
    assert _core.solve_groups_kernel(rows, m, b) == -1               # a new hash
    np.testing.assert_array_equal(a, b)
    assert _core.kept_group_tables() == (1, True)
    b[:] = 0
    assert _core.solve_groups_kernel(rows, m, b) == -1               # the kept one
    np.testing.assert_array_equal(a, b)
    bad = np.array([[0, 1, 2, 3, 4, 5, 5]], dtype=np.int8)
    assert _core.solve_groups_kernel(bad, m, np.empty((1, 105), dtype=np.int64)) == 0
    assert _core.kept_group_tables() == (1, True)
    assert _core.release_group_tables() == 1
    assert _core.kept_group_tables() == (0, True)


def test_solve_groups_hash_follows_the_model():
    """The merge hash holds four times the model's flush entries: a kept hash too small for
    ``high-first`` (675,296 entries) is replaced by a larger one, which ``standard`` then
    reuses; each call counts ``solve_rows``'s integers in the grouped path, one hash kept."""
    _core.release_group_tables()
    rows = _slices()[0][:200]
    for way in ("standard", "high-first", "standard"):
        m = dealer_model(resolve_way(way), resolve(None))
        a = np.empty((len(rows), 105), dtype=np.int64)
        b = np.empty((len(rows), 105), dtype=np.int64)
        assert m.solve_rows(rows, a, np.empty(len(rows), dtype=np.int64)) == -1
        _core.group_fallback_rows()
        assert _core.solve_groups_kernel(rows, m, b) == -1
        assert _core.group_fallback_rows() == 0
        np.testing.assert_array_equal(a, b)
        assert _core.kept_group_tables() == (1, True)
    assert _core.release_group_tables() == 1


# ---------------------------------------------------------------------------------------------
# runs on shards
# ---------------------------------------------------------------------------------------------

SHARD = "7/300"


@pytest.fixture(scope="module")
def shard_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    a = analyze("standard", player="classic", out=out, shard=SHARD, parquet=True, workers=2,
                progress=False)
    return a, out


def _chunks(out):
    return sorted((out / "chunks").glob("*.npz"))


def test_shard_figures_equal_solve(shard_run, rng):
    """Each class's figures equal solve on its hand and on a suit-renamed copy."""
    _, out = shard_run
    hands, _ = player_classes()
    _, _, groups = (None, None, class_groups())
    edges = chunk_bounds(groups)
    for path in _chunks(out):
        c = int(path.stem)
        with np.load(path) as z:
            data = {k: z[k] for k in z.files}
        for k in rng.choice(len(data["best"]), 6, replace=False):
            hand = [int(x) for x in hands[edges[c] + k]]
            sol = solve(hand, "standard")
            assert sol.best.index == data["best"][k]
            assert sol.best.wins == data["best_wins"][k]
            hw = int(house_way_splits([hand], "standard")[0])
            assert hw == data["house_way"][k]
            assert sol.best.total == DEALER_HANDS
            by_index = {r.index: r.wins for r in sol.settings}
            assert by_index[hw] == data["house_way_wins"][k]
            assert int(house_way_splits([hand], "classic")[0]) == data["player"][k]
            assert by_index[int(data["player"][k])] == data["player_wins"][k]
            perm = SUIT_PERMS[int(rng.integers(24))]
            assert solve(list(rename(hand, perm)), "standard").best.wins == sol.best.wins


def test_shard_totals_by_a_plain_sum(shard_run):
    """The analysis' totals equal a plain Python sum over the chunk files."""
    a, out = shard_run
    hands, weights = player_classes()
    _, _, groups = (None, None, class_groups())
    edges = chunk_bounds(groups)
    n = wins = hw = pl = 0
    shape_hands = dict.fromkeys(HAND_SHAPES, 0)
    for path in _chunks(out):
        c = int(path.stem)
        with np.load(path) as z:
            w = [int(x) for x in weights[edges[c]:edges[c + 1]]]
            for i, wi in enumerate(w):
                n += wi
                wins += wi * int(z["best_wins"][i])
                hw += wi * int(z["house_way_wins"][i])
                pl += wi * int(z["player_wins"][i])
                hand = [int(x) for x in hands[edges[c] + i]]
                shape_hands[_shape_of(hand, int(z["shape"][i]))] += wi
    assert a.figures["optimal"].hands == n
    assert a.figures["optimal"].wins == wins
    assert a.figures["house-way"].wins == hw
    assert a.figures["strategy"].wins == pl
    assert a.figures["optimal"].ev == Fraction(2 * wins, n * DEALER_HANDS) - 1
    assert {s: f["optimal"].hands for s, f in a.by_shape.items()} == {
        s: v for s, v in shape_hands.items() if v}
    assert sum(sum(h) for h in a.ev_hist.values()) == 3 * n
    assert a.figures["optimal"].wins >= a.figures["house-way"].wins
    assert not a.complete


def test_the_costliest_classes_by_a_plain_scan(shard_run):
    """The run lists the classes where copying the way (and the strategy) gives up most: a
    plain scan of the chunk files, each loss checked by solve on the hand."""
    a, out = shard_run
    hands, weights = player_classes()
    edges = chunk_bounds(class_groups())
    losses = {"house-way": [], "strategy": []}
    for path in _chunks(out):
        c = int(path.stem)
        with np.load(path) as z:
            for i in range(len(z["best_wins"])):
                for p, col in (("house-way", "house_way_wins"), ("strategy", "player_wins")):
                    losses[p].append((int(z["best_wins"][i]) - int(z[col][i]),
                                      int(edges[c]) + i))
    for p, found in losses.items():
        want = sorted(found, key=lambda t: (-t[0], t[1]))[:10]
        got = a.meta["costliest"][p]
        assert [(Fraction(g["loss"]), g["class"]) for g in got] == [
            (Fraction(2 * d, DEALER_HANDS), k) for d, k in want]
        top = got[0]
        hand = [int(x) for x in hands[top["class"]]]
        sol = solve(hand, "standard")
        setter = "standard" if p == "house-way" else "classic"
        mine = next(r for r in sol.settings
                    if r.index == int(house_way_splits([hand], setter)[0]))
        assert Fraction(2 * (sol.best.wins - mine.wins), DEALER_HANDS) == Fraction(top["loss"])
        assert top["hands"] == weights[top["class"]]
        assert top["hand"] == " ".join(str(Card(x)) for x in hand)


_GROUP_NAMES = {(1,) * 7: "no pair", (2, 1, 1, 1, 1, 1): "one pair", (2, 2, 1, 1, 1): "two pairs",
                (2, 2, 2, 1): "three pairs", (3, 1, 1, 1, 1): "trips",
                (3, 2, 1, 1): "trips and a pair", (3, 2, 2): "trips and two pairs",
                (3, 3, 1): "two trips"}


def shape_name(hand):
    """Group shape by counting ranks (the joker counts as an ace)."""
    counts = {}
    for c in hand:
        r = 12 if c == 52 else c >> 2
        counts[r] = counts.get(r, 0) + 1
    sizes = tuple(sorted(counts.values(), reverse=True))
    if sizes[0] == 5:
        return "five aces"
    if sizes[0] == 4:
        return "four of a kind"
    return _GROUP_NAMES[sizes]


def _shape_of(hand, stored):
    """The shape of a hand by the reference (independent of hand_shapes), checked against
    the stored one for the group shapes it can tell."""
    name = shape_name(hand)
    if HAND_SHAPES[stored] not in ("straight", "flush"):
        assert name == HAND_SHAPES[stored], (hand, name, HAND_SHAPES[stored])
    return HAND_SHAPES[stored]


def test_resume_after_sigkill_gives_identical_totals(tmp_path, shard_run):
    """A run killed (SIGKILL) mid-way resumes with the same command to the same totals as a
    run in one go; nothing that finished is recomputed."""
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "asiapoker", "analyze", "--way", "standard", "--player",
           "classic", "--shard", SHARD, "--out", str(out), "--workers", "1", "--quiet",
           "--no-parquet", "--json"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not list((out / "chunks").glob("*.npz")):
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    first = {p.name: p.stat().st_mtime_ns for p in _chunks(out)}
    assert 1 <= len(first) < 3
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    data = json.loads(done.stdout)
    again = {p.name: p.stat().st_mtime_ns for p in _chunks(out)}
    assert all(again[k] == v for k, v in first.items())          # not recomputed
    a, _ = shard_run
    for p in ("optimal", "house-way", "strategy"):
        assert data["figures"][p]["wins"] == a.figures[p].wins
        assert data["figures"][p]["hands"] == a.figures[p].hands


def test_resume_with_other_arguments_is_an_error(shard_run, capsys):
    _, out = shard_run
    with pytest.raises(RunError, match=r"way=.standard., this call has way=.classic."):
        analyze("classic", player="classic", out=out, shard=SHARD, progress=False)
    with pytest.raises(RunError, match="player"):
        analyze("standard", out=out, shard=SHARD, progress=False)
    assert main(["analyze", "--way", "standard", "--a234", "low", "--player", "classic",
                 "--shard", SHARD, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rules=" in err


@pytest.mark.parametrize("bad", ["3", "3/3", "-1/4", "a/b", "1/0"])
def test_bad_shard(bad, tmp_path):
    with pytest.raises(RunError, match="shard"):
        analyze("standard", out=tmp_path, shard=bad)


def test_dask_local_cluster_equals_local_run(shard_run):
    distributed = pytest.importorskip("distributed")
    a, _ = shard_run
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        b = analyze("standard", player="classic", shard=SHARD, client=client, progress=False)
    assert b.figures == a.figures
    assert b.by_shape == a.by_shape
    assert b.ev_hist == a.ev_hist and b.cost_hist == a.cost_hist


def test_parquet_of_a_shard(shard_run):
    import pyarrow.parquet as pq
    a, out = shard_run
    path = out / f"classes-shard-{SHARD.replace('/', '-of-')}.parquet"
    table = pq.read_table(path)
    assert table.num_rows == a.classes
    cols = table.column_names
    for c in ("class", "hand", "weight", "shape", "best_split", "best", "best_wins",
              "house_way", "house_way_wins", "cost", "player", "player_wins"):
        assert c in cols
    rows = table.slice(0, 5).to_pylist()
    hands, weights = player_classes()
    for r in rows:
        hand = [int(x) for x in hands[r["class"]]]
        sol = solve(r["hand"], "standard")
        assert sol.best.wins == r["best_wins"]
        assert r["weight"] == weights[r["class"]]
        assert " ".join(map(str, parse_cards(r["hand"]))) == r["hand"]
        assert sorted(to_ids(r["hand"])) == hand
        best = str(sol.best.setting).split(" | ")
        got = r["best"].split(" | ")
        assert [sorted(x.split()) for x in got] == [sorted(x.split()) for x in best]
    meta = json.loads(table.schema.metadata[b"asiapoker"])
    assert meta["way"] == "standard"


def test_report_of_a_shard(shard_run, tmp_path):
    _, out = shard_run
    summary = out / f"summary-shard-{SHARD.replace('/', '-of-')}.json"
    assert main(["report", str(summary), "--out", str(tmp_path / "r.html")]) == 0
    page = (tmp_path / "r.html").read_text()
    assert "house way standard" in page and page.count("data:image/png;base64,") == 3
    assert "The costliest hands" in page
    for stem in ("ev-histogram", "house-edge-by-shape", "house-way-cost-by-shape"):
        assert (tmp_path / f"{stem}.png").stat().st_size > 5000
        assert (tmp_path / f"{stem}.svg").exists()


def test_report_errors(tmp_path, capsys):
    assert main(["report", str(tmp_path)]) == 2
    assert "no analysis results" in capsys.readouterr().err


def test_missing_extra_is_one_line(monkeypatch, tmp_path):
    import builtins
    real = builtins.__import__

    def fake(name, *args, **kwargs):
        if name.startswith("pyarrow"):
            raise ImportError(name)
        return real(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", fake)
    monkeypatch.setattr("importlib.import_module", lambda n: fake(n))
    with pytest.raises(MissingExtraError, match=r"needs pyarrow \(the parquet extra\): pip "
                                                r"install '\.\[parquet\]' in a clone of "
                                                r"asiapoker, or pip install "
                                                r"'asiapoker\[parquet\]' for a release"):
        analyze("standard", out=tmp_path, shard="0/400", parquet=True)
    assert not list(tmp_path.iterdir())                 # a failed call changes nothing


# ---------------------------------------------------------------------------------------------
# samples and simulation against the exact figures
# ---------------------------------------------------------------------------------------------

def test_sample_mode_interval_covers_the_exact_figure():
    exact = exact_figures("standard")
    a = analyze("standard", sample=3000, seed=5, progress=False)
    assert a.sample == 3000 and not a.complete
    for p in ("optimal", "house-way"):
        lo, hi = a.figures[p].ci95
        assert lo <= -exact[p] <= hi, (p, lo, hi, exact[p])


def test_simulation_agrees_with_the_exact_house_edge():
    """House way against house way: 10 M simulated hands' interval holds the exact edge."""
    exact = exact_figures("standard")
    sim = simulate(1_700_000, seats=6, way="standard", seed=3)
    lo, hi = sim.confidence_interval
    assert sim.hands >= 10_000_000
    assert lo <= exact["house-way"] <= hi, (lo, hi, exact["house-way"])


def exact_figures(way):
    """The shipped exact house edges of a full run (README and docs quote them)."""
    from asiapoker.analysis import exact_house_edges
    return {k: float(v) for k, v in exact_house_edges(way).items()}


def test_strategy_player_and_bad_players(shard_run, tmp_path):
    def always_zero(rows):
        return np.zeros(len(rows), dtype=np.int64)
    a = analyze("standard", player=always_zero, shard="9/400", progress=False)
    assert a.player == "strategy:always_zero"
    assert a.figures["strategy"].wins <= a.figures["optimal"].wins
    with pytest.raises(ValueError, match="player must be"):
        analyze("standard", player=42)
    with pytest.raises(ValueError, match="sample must be 2 to 10000000"):
        analyze("standard", sample=0)


def test_figures_are_exact_fractions(shard_run):
    a, _ = shard_run
    f = a.figures["optimal"]
    assert isinstance(f.ev, Fraction) and isinstance(a, Analysis)
    assert f.house_edge == -f.ev
    assert 0 < f.sd <= 1
