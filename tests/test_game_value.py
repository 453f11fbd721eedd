"""The value of the game: the exact matrix-game solver holds its own certificate on random
games; mixes round to whole weights; the shipped bounds load only when verified, and each
bound's computation is recomputed on two chunks of the class list from the shipped mixes
(shard runs of every way in them) and held to the shipped chunk totals and to a plain
reference (count_splits of each way, combined in Python integers); bad input is one-line
errors naming the thing."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import numpy as np
import pytest

import asiapoker as ap
from asiapoker import GameValueError
from asiapoker.analysis import analyze, dealer_split_counts, exact_house_edges
from asiapoker.cli import main
from asiapoker.game_value import (
    MIX_DENOMINATOR,
    PAIRS,
    SHIPPED,
    best_response_to_mix,
    class_splits,
    gather,
    house_edge_of_wins,
    load_game_value,
    round_mix,
    solve_matrix_game,
)
from asiapoker.split_counts import SplitCounts
from asiapoker.suit_classes import player_classes

CHUNKS = (0, 687)                      # the first chunk and the last (1,400 classes)


def _certified(a: list[list[int]]) -> None:
    x, y, v = solve_matrix_game(a)
    m, n = len(a), len(a[0])
    assert sum(x) == 1 and sum(y) == 1 and min(x) >= 0 and min(y) >= 0
    cols = [sum(x[i] * a[i][j] for i in range(m)) for j in range(n)]
    rows = [sum(a[i][j] * y[j] for j in range(n)) for i in range(m)]
    assert max(cols) == v == min(rows)           # neither side gains by leaving its mix


def test_the_matrix_game_solver_certifies_its_answer():
    rng = random.Random(7)
    for _ in range(150):
        m, n = rng.randint(1, 7), rng.randint(1, 7)
        _certified([[rng.randint(-6, 6) for _ in range(n)] for _ in range(m)])
    big = 10 ** 20                              # entries like the game's player-win counts
    _certified([[big + rng.randint(0, 10 ** 15) for _ in range(8)] for _ in range(9)])
    x, y, v = solve_matrix_game([[3, 1], [0, 2]])    # no saddle point: a true mix
    assert (x, y, v) == ([Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 4), Fraction(3, 4)],
                         Fraction(3, 2))
    assert solve_matrix_game([[5, 2, 9]])[2] == 9  # one row: the columns' best


@pytest.mark.parametrize("bad, match", [
    ([], "at least one row"), ([1, 2], "at least one row"), ("ab", r"entry \(0, 0\) is .a."),
    ([[1, 2], [3]], "row 1 has 1 entries, not 2"),
    ([[1, 0.5]], r"entry \(0, 1\) is 0.5"), ([[True]], r"entry \(0, 0\) is True"),
])
def test_bad_matrices_are_named(bad, match):
    with pytest.raises(GameValueError, match=match):
        solve_matrix_game(bad)


def test_round_mix():
    assert round_mix([Fraction(1, 3)] * 3, 10) == [4, 3, 3]
    w = round_mix([Fraction(1, 7), Fraction(0), Fraction(6, 7)])
    assert sum(w) == MIX_DENOMINATOR and w[1] == 0
    for bad in ([], [Fraction(1, 2)], [Fraction(3, 2), Fraction(-1, 2)]):
        with pytest.raises(GameValueError, match="non-negative weights summing to 1"):
            round_mix(bad)


def test_house_edge_of_wins():
    rules = ap.Rules()
    assert house_edge_of_wins(0, rules) == 1 and house_edge_of_wins(PAIRS, rules) == -1
    assert house_edge_of_wins(PAIRS // 2, ap.Rules(pays=2)) == Fraction(-1, 2)


# --------------------------------------------------------------------------------------------
# the shipped bounds
# --------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def shipped():
    return load_game_value()


def test_the_shipped_bounds_hold_together(shipped):
    gv = shipped
    assert gv.rules.to_dict() == ap.Rules().to_dict()
    assert gv.lower <= gv.upper and gv.gap == gv.upper - gv.lower
    assert gv.lower == gv.steps[gv.lower_step].lower == max(b.lower for b in gv.steps)
    assert gv.upper == gv.steps[gv.upper_step].upper == min(b.upper for b in gv.steps)
    assert [b.step for b in gv.steps] == list(range(len(gv.steps)))
    for b in gv.steps:                  # the pools' own game lies between the bounds
        assert b.lower <= b.restricted <= b.upper
    assert sum(k for _, k in gv.dealer_mix) == sum(k for _, k in gv.player_mix) \
        == MIX_DENOMINATOR
    assert all(k > 0 for _, k in (*gv.dealer_mix, *gv.player_mix))
    # every pure way is a dealer strategy: none can hold more than the value's upper bound
    for way in ("standard", "equilibrium", "classic"):
        least, most = gv.below_value(exact_house_edges(way)["optimal"])
        assert most > 0 and most - least == gv.gap
    assert "value of the game lies in" in gv.describe()


def test_a_damaged_or_foreign_file_is_refused(tmp_path):
    data = bytearray(SHIPPED.read_bytes())
    data[len(data) // 2] ^= 0xFF
    bad = tmp_path / "damaged.npz"
    bad.write_bytes(bytes(data))
    with pytest.raises(GameValueError, match="cannot read the game value"):
        load_game_value(bad)
    with pytest.raises(GameValueError, match="holds 'house-way"):
        load_game_value(SHIPPED.with_name("equilibrium.npz"))
    with pytest.raises(GameValueError, match=r"missing|no such|not a file"):
        load_game_value(tmp_path / "none.npz")


@pytest.fixture(scope="module")
def slices(shipped, tmp_path_factory):
    """Shard runs (two chunks) of every way of both shipped mixes."""
    root = tmp_path_factory.mktemp("gv")
    shard = ",".join(map(str, CHUNKS))
    out = {"dealer": [], "player": []}
    for c in CHUNKS:
        for k, (way, _) in enumerate(shipped.dealer_mix):
            analyze(way, every_split=True, out=root / f"d{k}", shard=f"{c}/688",
                    workers=2, progress=False)
        for k, (way, _) in enumerate(shipped.player_mix):
            dealer_split_counts(way, out=root / f"p{k}", shard=f"{c}/688", workers=2,
                                progress=False)
    for side, pre, mix in (("dealer", "d", shipped.dealer_mix),
                           ("player", "p", shipped.player_mix)):
        out[side] = [SplitCounts(root / f"{pre}{k}", partial=True) for k in range(len(mix))]
    assert shard
    return out


@pytest.mark.parametrize("side", ["dealer", "player"])
def test_each_bound_recomputed_on_two_chunks(shipped, slices, side):
    mix = shipped.dealer_mix if side == "dealer" else shipped.player_mix
    want = shipped.lower_chunks if side == "dealer" else shipped.upper_chunks
    resp = best_response_to_mix(slices[side], [k for _, k in mix], workers=2)
    assert sorted(resp.chunk_totals) == list(CHUNKS)
    for c in CHUNKS:
        assert resp.chunk_totals[c] == want[c]
    # a plain reference on some classes: each way's counts from count_splits, combined in
    # Python integers; the fast path's split is a best one
    hands, weights = player_classes()
    edges = slices[side][0].edges
    rows = [int(edges[c]) + i for c in CHUNKS for i in (0, 1, 2, 97, 500)]
    counted = "player" if side == "dealer" else "dealer"   # whose hands the runs count
    per_way = [np.where(ap.legal_splits(hands[rows]),
                        ap.count_splits(hands[rows], way, side=counted), -1) for way, _ in mix]
    for n, row in enumerate(rows):
        combined = [sum(int(k) * int(c[n, s]) for (_, k), c in zip(mix, per_way, strict=True))
                    for s in range(105)]
        assert combined[resp.splits[row]] == max(combined)
    # gather of one way's own splits is the run's own total of copying it
    if side == "dealer":
        way, _ = mix[0]
        got, = gather(slices[side][0], [class_splits(way)])
        lo, hi, data = slices[side][0].chunk(CHUNKS[1])
        own = sum(int(w) * int(v) for w, v in zip(weights[lo:hi], data["house_way_wins"],
                                                  strict=True))
        lo, hi, data = slices[side][0].chunk(CHUNKS[0])
        own += sum(int(w) * int(v) for w, v in zip(weights[lo:hi], data["house_way_wins"],
                                                   strict=True))
        assert got == own


def test_mixes_that_do_not_fit_are_refused(slices):
    d, p = slices["dealer"], slices["player"]
    with pytest.raises(GameValueError, match="sum to 16777216"):
        best_response_to_mix(d[:1], [5])
    with pytest.raises(GameValueError, match="one weight a run"):
        best_response_to_mix(d[:1], [])
    with pytest.raises(GameValueError, match="same side"):
        best_response_to_mix([d[0], p[0]], [MIX_DENOMINATOR, 0])
    with pytest.raises(GameValueError, match="a mix weight must be 0 to"):
        best_response_to_mix(d[:1], [-1])
    with pytest.raises(GameValueError, match=r"one index in 0\.\.104"):
        gather(d[0], [np.zeros(5, dtype=np.int16)])


def test_run_folders_are_checked_before_any_work(tmp_path):
    from asiapoker import game_value
    log = {"rules": ap.Rules(a234="low").to_dict(), "dealer": [], "player": [], "matrix": {},
           "steps": []}
    (tmp_path / "log.json").write_text(json.dumps({"log": log,
                                                   "sha256": game_value._log_digest(log)}))
    with pytest.raises(GameValueError, match="holds a run under other rules"):
        game_value.double_oracle(tmp_path, quiet=True)
    with pytest.raises(GameValueError, match="holds no double-oracle step"):
        game_value.save_game_value(tmp_path, tmp_path / "x.npz")
    log["steps"] = [{"forged": True}]                  # edited by hand: the checksum fails
    (tmp_path / "log.json").write_text(json.dumps({"log": log, "sha256": "0" * 64}))
    with pytest.raises(GameValueError, match="checksum fails"):
        game_value.double_oracle(tmp_path, quiet=True)
    with pytest.raises(GameValueError, match="steps must be 1 to 10000, got 0"):
        game_value.double_oracle(tmp_path / "new", steps=0)
    assert not (tmp_path / "new").exists()


# --------------------------------------------------------------------------------------------
# the command line
# --------------------------------------------------------------------------------------------

def test_the_cli_prints_the_shipped_bounds(shipped, capsys):
    assert main(["game-value"]) == 0
    out = capsys.readouterr().out
    assert f"(exact: {shipped.lower})" in out and f"(exact: {shipped.upper})" in out
    assert "standard" in out and "below the value by" in out
    assert main(["game-value", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert Fraction(data["gap"]) == shipped.gap and len(data["steps"]) == len(shipped.steps)
    assert data["sha256"] == shipped.sha256


@pytest.mark.parametrize("argv, match", [
    (["game-value", "--a234", "low"], "is for --a234 high"),
    (["game-value", "--out", "x.npz"], "--solve DIR and --out FILE go together"),
    (["game-value", "--solve", "runs-gv"], "--solve DIR and --out FILE go together"),
    (["game-value", "--file", "nope.npz"], "cannot read the game value"),
    (["game-value", "--solve", "runs-gv", "--out", "gv.npz", "--steps", "0"],
     "steps must be 1 to 10000"),
])
def test_cli_errors_are_one_line(argv, match, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert match in err and len(err.strip().splitlines()) == 1
