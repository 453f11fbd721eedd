"""The probe: bad input across the API, files and the CLI, each with its exact outcome (the
error type and that its message names the offending thing, or the right answer).  The server's
probes are in test_web.py, damaged runs in test_resume.py."""

from __future__ import annotations

import json
import math
import zipfile
from fractions import Fraction

import numpy as np
import pytest

import asiapoker as ap
from asiapoker import (
    BonusError,
    CardError,
    DuplicateCardError,
    FileError,
    HandSizeError,
    HouseWay,
    HouseWayError,
    IllegalSettingError,
    OptimalTableError,
    OptionError,
    RuleError,
    Rules,
    RunError,
    StrategyError,
    Table,
    Wager,
    WagerError,
)
from asiapoker.analysis import hand_shapes
from asiapoker.cli import main
from asiapoker.equilibrium import best_response
from asiapoker.sampling import exploitability
from asiapoker.suit_classes import class_codes, class_of

HAND = "As Kd 7h 7c Jk 2s 9d"
GOOD = [[51, 47, 26, 27, 52, 3, 37]]
DUP = [[0, 1, 2, 3, 4, 5, 5]]
HIGH = [[0, 1, 2, 3, 4, 5, 127]]


def _raise_value(rows):
    raise ZeroDivisionError("boom")


def _wrong_shape(rows):
    return np.zeros(len(rows) + 1, dtype=np.int64)


def _out_of_range(rows):
    return np.full(len(rows), 105)


def _surprise(cards):
    raise KeyError("surprise")


# (id, call, error type, words the message must hold)
API = [
    ("rank-unknown-token", lambda: ap.rank("Xx"), CardError, "'Xx'"),
    ("rank-duplicate", lambda: ap.rank("As As"), DuplicateCardError, "As"),
    ("rank-three-cards", lambda: ap.rank("As Ks Qs"), HandSizeError, "3"),
    ("rank-five-cards", lambda: ap.rank("As Ks Qs Js Ts"), HandSizeError, "5"),
    ("rank-id-53", lambda: ap.rank([53]), CardError, "53"),
    ("rank-id-negative", lambda: ap.rank([-1]), CardError, "-1"),
    ("rank-bool", lambda: ap.rank([True]), CardError, "True"),
    ("rank-two-jokers", lambda: ap.rank("Jk Joker"), DuplicateCardError, "joker"),
    ("parse-none", lambda: ap.parse_cards(None), CardError, "None"),
    ("parse-float", lambda: ap.parse_cards(3.5), CardError, "3.5"),
    ("setting-short", lambda: ap.Setting.parse("As Ks | Qs"), HandSizeError, "As Ks | Qs"),
    ("setting-shared-card", lambda: ap.Setting("As Ks Qs Js", "Ts 9s", "As"),
     DuplicateCardError, "As"),
    ("settle-foul-dealer", lambda: ap.settle("As Ks Qs Js | Ts 9s | 2c",
                                             "2d 3d 4d 6h | Ad Ah | Kh"),
     IllegalSettingError, "6h 4d 3d 2d"),
    ("solve-six", lambda: ap.solve("As Kd 7h 7c Jk 2s"), HandSizeError, "6"),
    ("solve-eight", lambda: ap.solve(HAND + " 3c"), HandSizeError, "8"),
    ("solve-duplicate", lambda: ap.solve("As As Kd 7h 7c 2s 9d"), DuplicateCardError, "As"),
    ("solve-way", lambda: ap.solve(HAND, "mystery"), HouseWayError, "'mystery'"),
    ("solve-way-type", lambda: ap.solve(HAND, 3), HouseWayError, "3"),
    ("solve-rules-type", lambda: ap.solve(HAND, rules="low"), RuleError, "'low'"),
    ("solve-method", lambda: ap.solve(HAND, method="guess"), OptionError, "'guess'"),
    ("rules-a234", lambda: Rules(a234="mid"), RuleError, "'mid'"),
    ("rules-pays-0", lambda: Rules(pays=0), RuleError, "got 0"),
    ("rules-pays-1001", lambda: Rules(pays=1001), RuleError, "1001"),
    ("rules-pays-inf", lambda: Rules(pays=math.inf), RuleError, "inf"),
    ("rules-pays-nan", lambda: Rules(pays=math.nan), RuleError, "nan"),
    ("rules-pays-huge-int", lambda: Rules(pays=2**62), RuleError, str(2**62)),
    ("rules-pays-text", lambda: Rules(pays="1"), RuleError, "'1'"),
    ("rules-pays-bool", lambda: Rules(pays=True), RuleError, "True"),
    ("strengths-float", lambda: ap.strengths(np.zeros((2, 4))), CardError, "float64"),
    ("strengths-shape", lambda: ap.strengths(np.zeros((2, 3), dtype=int)), HandSizeError,
     "(2, 3)"),
    ("strengths-id-53", lambda: ap.strengths([[0, 1, 2, 53]]), CardError, "53"),
    ("strengths-dup", lambda: ap.strengths([[0, 1, 1, 2]]), DuplicateCardError, "row 0"),
    ("strengths-uint64-huge", lambda: ap.strengths(np.array([[2**63, 1, 2, 3]],
                                                             dtype=np.uint64)),
     CardError, "outside 0..52"),
    ("legal-splits-dup", lambda: ap.legal_splits(DUP), DuplicateCardError, "row 0"),
    ("legal-splits-high", lambda: ap.legal_splits(HIGH), CardError, "127"),
    ("split-strengths-of-index", lambda: ap.split_strengths_of(GOOD, [105]),
     IllegalSettingError, "105"),
    ("split-strengths-of-rows", lambda: ap.split_strengths_of(DUP, [0]), DuplicateCardError,
     "row 0"),
    ("settle-many-shape", lambda: ap.settle_many(np.zeros((2, 3)), np.zeros((3, 3))),
     IllegalSettingError, "3"),
    ("house-way-splits-dup", lambda: ap.house_way_splits(DUP), DuplicateCardError, "row 0"),
    ("house-way-splits-high", lambda: ap.house_way_splits(HIGH, "classic"), CardError, "127"),
    ("dealer-strengths-dup", lambda: ap.dealer_strengths(DUP, "equilibrium"),
     DuplicateCardError, "row 0"),
    ("dealer-strengths-high", lambda: ap.dealer_strengths(HIGH, "medium-first"), CardError,
     "127"),
    ("solve-many-dup", lambda: ap.solve_many(DUP), DuplicateCardError, "row 0"),
    ("solve-many-workers", lambda: ap.solve_many(GOOD, workers=0), OptionError, "workers"),
    ("solve-many-columns", lambda: ap.solve_many(GOOD, columns="some"), OptionError,
     "'some'"),
    ("solve-many-dtype", lambda: ap.solve_many(GOOD, wins_dtype=np.int16), OptionError,
     "wins_dtype"),
    ("solve-many-progress", lambda: ap.solve_many(GOOD, progress=3), OptionError,
     "progress"),
    ("count-splits-side", lambda: ap.count_splits(GOOD, side="house"), OptionError,
     "'house'"),
    ("count-splits-dup", lambda: ap.count_splits(DUP, side="dealer"), DuplicateCardError,
     "row 0"),
    ("solve-chunks-chunk", lambda: next(ap.solve_chunks(np.array(GOOD), chunk=0)),
     OptionError, "chunk"),
    ("bonus-hands-dup", lambda: ap.bonus_hands(DUP), DuplicateCardError, "row 0"),
    ("bonus-table", lambda: ap.bonus_hand(HAND, "Z"), BonusError, "'Z'"),
    ("bonus-wager-0", lambda: ap.bonus_payouts(GOOD, wager=0), BonusError, "0"),
    ("bonus-wager-float", lambda: ap.bonus_payouts(GOOD, wager=1.5), BonusError, "1.5"),
    ("bonus-wager-huge", lambda: ap.bonus_payouts(GOOD, wager=2**62), BonusError, "too large"),
    ("bonus-limit-0", lambda: ap.bonus_payouts(GOOD, limit=0), BonusError, "limit"),
    ("bonus-limit-bool", lambda: ap.bonus_payouts(GOOD, limit=True), BonusError, "limit"),
    ("pay-table-odds", lambda: ap.PayTable({"five aces": 0}), BonusError, "five aces"),
    ("hand-shapes-53", lambda: hand_shapes([[0, 1, 2, 3, 4, 5, 53]]), CardError, "53"),
    ("hand-shapes-127", lambda: hand_shapes(HIGH), CardError, "127"),
    ("hand-shapes-same-card", lambda: hand_shapes([[0] * 7]), DuplicateCardError, "2c"),
    ("class-codes-dup", lambda: class_codes(DUP), DuplicateCardError, "row 0"),
    ("class-of-dup", lambda: class_of(DUP), DuplicateCardError, "row 0"),
    ("class-of-text", lambda: class_of(["As As Kd 7h 7c 2s 9d"]), DuplicateCardError, "As"),
    ("exploitability-1", lambda: exploitability(hands=1), OptionError, "hands"),
    ("exploitability-seed", lambda: exploitability(hands=2, seed=-1), OptionError, "seed"),
    ("simulate-rounds", lambda: ap.simulate(0), OptionError, "rounds"),
    ("simulate-seats", lambda: ap.simulate(10, seats=7), OptionError, "seats"),
    ("simulate-seed", lambda: ap.simulate(10, seed=-1), OptionError, "seed"),
    ("simulate-workers", lambda: ap.simulate(10, workers=0), OptionError, "workers"),
    ("simulate-player", lambda: ap.simulate(10, player="lucky"), OptionError, "'lucky'"),
    ("simulate-strategy-raises", lambda: ap.simulate(10, player=_raise_value, workers=1),
     StrategyError, "'_raise_value' raised ZeroDivisionError: boom"),
    ("simulate-strategy-shape", lambda: ap.simulate(10, player=_wrong_shape, workers=1),
     StrategyError, "_wrong_shape"),
    ("simulate-strategy-range", lambda: ap.simulate(10, player=_out_of_range, workers=1),
     StrategyError, "105"),
    ("table-seats", lambda: Table(seats=0), OptionError, "seats"),
    ("table-dealing", lambda: Table(dealing="deck"), OptionError, "'deck'"),
    ("table-amount-negative", lambda: Table(seed=1).play_round([Wager(1, -1)]), WagerError,
     "seat 1"),
    ("table-amount-huge", lambda: Table(seed=1).play_round([Wager(1, 10**16)]), WagerError,
     "at most"),
    ("table-amount-fraction-cent", lambda: Table(seed=1).play_round([Wager(1, "0.001")]),
     WagerError, "cents"),
    ("table-amount-text", lambda: Table(seed=1).play_round([Wager(1, "ten")]), WagerError,
     "'ten'"),
    ("table-amount-nan", lambda: Table(seed=1).play_round([Wager(1, math.nan)]), WagerError,
     "nan"),
    ("table-bonus-alone", lambda: Table(seed=1).play_round([Wager(1, 0, 5)]), WagerError,
     "seat 1"),
    ("table-bonus-overflow", lambda: Table(seed=1, bonus_table=ap.PayTable(
        {"five aces": 10**12})).play_round([Wager(1, 1, 10**14)]), WagerError, "pay more"),
    ("table-seat-7", lambda: Table(seed=1).play_round([Wager(7, 5)]), WagerError, "seat"),
    ("table-strategy-raises", lambda: Table(seed=1, strategy=_surprise).play_round(
        [Wager(1, 5)]), StrategyError, "'_surprise' raised KeyError"),
    ("table-strategy-type", lambda: Table(strategy=3), WagerError, "3"),
    ("from-function-not-callable", lambda: HouseWay.from_function(3, "x"), HouseWayError,
     "callable"),
    ("from-function-no-name", lambda: HouseWay.from_function(len, " "), HouseWayError,
     "name"),
    ("from-function-builtin-name", lambda: HouseWay.from_function(len, "classic"),
     HouseWayError, "'classic'"),
    ("from-function-check", lambda: HouseWay.from_function(len, "x", check=-1),
     HouseWayError, "check"),
    ("from-table-shape", lambda: HouseWay.from_table([1, 2, 3], "t"), HouseWayError, "shape"),
    ("from-table-index", lambda: HouseWay.from_table(np.full(829_504, 105), "t"),
     HouseWayError, "105"),
    ("best-response-side", lambda: best_response("classic", side="banker"),
     HouseWayError, "'banker'"),
    ("analyze-player", lambda: ap.analysis.analyze(player=42), StrategyError, "42"),
    ("analyze-shard-text", lambda: ap.analysis.analyze(shard="x"), RunError, "'x'"),
    ("analyze-shard-range", lambda: ap.analysis.analyze(shard="3/2"), RunError, "3/2"),
    ("analyze-sample-1", lambda: ap.analysis.analyze(sample=1), OptionError, "sample"),
    ("analyze-sample-strategy", lambda: ap.analysis.analyze(sample=4, player=_raise_value,
                                                            workers=1),
     StrategyError, "'_raise_value' raised ZeroDivisionError"),
    ("best-splits-row", lambda: ap.best_splits([[0, 1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 5, 5]]),
     DuplicateCardError, "row 1"),
    ("best-splits-width", lambda: ap.best_splits([[0, 1, 2, 3, 4, 5]]), HandSizeError, "6"),
    ("best-splits-no-table", lambda: ap.best_splits(GOOD, "medium-first"), OptimalTableError,
     "no optimal-play table for house way medium-first"),
    ("best-splits-table-type", lambda: ap.best_splits(GOOD, table=3), OptimalTableError,
     "got 3"),
    ("best-splits-table-file", lambda: ap.best_splits(GOOD, table="no-such-table.npz"),
     FileError, "no-such-table.npz"),
    ("simulate-table-house-way", lambda: ap.simulate(10, optimal_table=True), OptionError,
     "optimal_table is for optimal players"),
    ("simulate-table-two-spots", lambda: ap.simulate(10, player="optimal", two_spots=True,
                                                     optimal_table=True),
     OptionError, "one spot"),
    ("optimal-table-not-a-run", lambda: ap.make_optimal_table("no-such-run"), FileError,
     "no-such-run"),
    ("price-not-a-card", lambda: _pricing().price("standard"), StrategyError,
     "RackCard, got 'standard'"),
    ("placement-unknown-shape", lambda: _rack().placement_text("no such shape", "H"),
     HouseWayError, "'no such shape'"),
    ("app-rate-zero", lambda: _web().create_app(rate=0), OptionError, "rate must be"),
    ("app-burst-zero", lambda: _web().create_app(burst=0), OptionError, "burst"),
    ("app-concurrent-float", lambda: _web().create_app(concurrent=1.5), OptionError,
     "concurrent"),
    ("server-port", lambda: _web().make_server(None, port=70000), OptionError, "70000"),
    ("best-splits-solve-text", lambda: ap.best_splits(GOOD, solve="no"), OptionError, "'no'"),
    ("best-splits-table-false", lambda: ap.best_splits(GOOD, table=False), OptimalTableError,
     "got False"),
    ("rows-bool-card", lambda: ap.solve_many([[True, 49, 0, 5, 22, 31, 52]]), CardError,
     "row 0: True is not a card id"),
    ("rows-numpy-bool-card", lambda: ap.legal_splits([[np.True_, 49, 0, 5, 22, 31, 52]]),
     CardError, "np.True_ is not a card id"),
    ("dead-bytes", lambda: ap.solve(HAND, dead=b"Ks"), CardError, "got bytes b'Ks'"),
    ("hand-bytes", lambda: ap.rank(b"As"), CardError, "bytes"),
    ("spots-one", lambda: ap.solve_spots([HAND]), OptionError, "give 2 to 6 seven-card hands"),
    ("spots-seven", lambda: ap.solve_spots([HAND] * 7), OptionError, "got 7 hands"),
    ("simulate-rounds-huge", lambda: ap.simulate(99999999999999999999), OptionError,
     "rounds must be 1 to 10000000000"),
    ("analyze-shard-empty", lambda: ap.analysis.analyze(shard=(700, 2000)), RunError,
     "shard 700/2000 holds no chunk"),
    ("analyze-sample-huge", lambda: ap.analysis.analyze(sample=10**8), OptionError,
     "sample must be 2 to 10000000"),
    ("solve-many-workers-huge", lambda: ap.solve_many(GOOD, workers=10**9), OptionError,
     "workers must be 1 to 256"),
    ("exploitability-huge", lambda: exploitability(hands=10**8), OptionError, "hands"),
    ("analyze-every-split-text", lambda: ap.analysis.analyze(every_split="yes"), OptionError,
     "every_split must be True or False, got 'yes'"),
    ("analyze-every-split-no-out", lambda: ap.analysis.analyze(every_split=True), OptionError,
     "needs out="),
    ("split-counts-not-a-run", lambda: ap.analysis.load_split_counts("no-such-run"), RunError,
     "no-such-run"),
    ("evaluate-not-a-run", lambda: ap.analysis.evaluate("classic", "no-such-run"), RunError,
     "no-such-run"),
    ("server-host", lambda: _web().make_server(None, host=""), OptionError, "host"),
]


def _pricing():
    from asiapoker import pricing
    return pricing


def _rack():
    from asiapoker import rack
    return rack


def _web():
    from asiapoker import web
    return web


@pytest.mark.parametrize(("call", "error", "words"), [p[1:] for p in API],
                         ids=[p[0] for p in API])
def test_api_probe(call, error, words):
    with pytest.raises(error) as info:
        call()
    assert type(info.value) is error, type(info.value)        # the precise class, not a parent
    assert words in str(info.value) and "\n" not in str(info.value)


def test_exploitability_is_exact_for_any_pays():
    rows = ap.sampling.random_hands(40, 5)
    b = ap.solve_many(rows, "classic")
    for pays in (1.1, 2.5, 1000, 1 + 2**-40):
        e = exploitability("classic", Rules(pays=pays), hands=40, seed=5)
        p = Fraction(pays)
        n = ap.solver.DEALER_HANDS
        ev = [(Fraction(int(w)) * p - (n - int(w))) / n for w in b.best_wins]
        hw = [(Fraction(int(w)) * p - (n - int(w))) / n for w in b.house_way_wins]
        assert e.gain.exact == (sum(ev) - sum(hw)) / 40
        assert e.house_edge_optimal.exact == -sum(ev) / 40 and e.gain.mean > 0


def test_huge_bonus_limit_is_no_limit():
    assert ap.bonus_payouts(GOOD, wager=5, limit=2**63).tolist() == \
        ap.bonus_payouts(GOOD, wager=5).tolist()
    assert ap.bonus_payouts(GOOD, wager=5, limit=10**40).tolist() == \
        ap.bonus_payouts(GOOD, wager=5).tolist()


def test_table_conserves_chips_at_the_largest_amounts():
    table = Table(seed=6, rules=Rules(pays=1.2345678901234567), payout_limit=10**15)
    top = "999999999999999.99"
    r = table.play_round([Wager(s, top, top) for s in range(1, 7)])
    assert r.house_net + sum(r.seat_nets().values()) == 0
    wins = [p for p in r.positions[1:] if p.result == "win"]
    assert wins                                     # seed 6 has winners at this table
    for p in wins:                                  # the pay, exact, rounded down to the cent
        exact = Fraction(p.amount) * Fraction("1.2345678901234567")
        assert Fraction(p.main_net) <= exact < Fraction(p.main_net) + Fraction(1, 100)


def test_failed_calls_change_no_state():
    table = Table(seed=9)
    state = table.rng.bit_generator.state
    with pytest.raises(StrategyError):
        table.play_round([Wager(1, 5, strategy=_surprise)])
    assert table.rng.bit_generator.state == state and table.rounds_played == 0


# ---------------------------------------------------------------------------------------------
# files a user hands the package
# ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def table_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("way") / "way.npz"
    HouseWay.named("equilibrium").save(path)
    return path


def _huge_header(path):
    with zipfile.ZipFile(path, "w") as z, z.open("splits.npy", "w") as f:
        np.lib.format.write_array_header_1_0(
            f, {"descr": "<u1", "fortran_order": False, "shape": (10**12,)})


FILES = [
    ("missing", lambda p, good: None, "no such file"),
    ("empty", lambda p, good: p.write_bytes(b""), "damaged"),
    ("garbage", lambda p, good: p.write_bytes(b"not a zip" * 50), "damaged"),
    ("truncated", lambda p, good: p.write_bytes(good[: len(good) // 2]), "damaged"),
    ("byte-flipped", lambda p, good: p.write_bytes(good[:3000] + bytes([good[3000] ^ 0xFF])
                                                   + good[3001:]), "damaged"),
    ("npy", lambda p, good: np.save(open(p, "wb"), np.zeros(829_504, np.uint8)), "damaged"),
    ("huge-header", lambda p, good: _huge_header(p), "more than such a file holds"),
    ("directory", lambda p, good: p.mkdir(), "directory"),
    ("pickle", lambda p, good: np.savez(p, splits=np.array([{}], dtype=object)), "objects"),
    ("other-kind", lambda p, good: ap._files.write(p, "run-chunk", {}, {"splits": np.zeros(
        829_504, np.uint8)}), "'run-chunk', not 'house-way-table'"),
    ("other-classes", lambda p, good: ap._files.write(p, "house-way-table", {
        "name": "x", "splits_sha256": "0", "class_keys_sha256": "0"},
        {"splits": np.zeros(829_504, np.uint8)}), "another list of classes"),
]


@pytest.mark.parametrize(("spoil", "words"), [f[1:] for f in FILES], ids=[f[0] for f in FILES])
def test_a_bad_way_file_is_one_clear_error(table_file, tmp_path, capsys, spoil, words):
    good = table_file.read_bytes()
    path = tmp_path / "bad.npz"
    spoil(path, good)
    with pytest.raises(HouseWayError) as info:
        HouseWay.load(path)
    assert words in str(info.value) and "bad.npz" in str(info.value)
    assert main(["solve", "--way", str(path), HAND]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.npz" in err and "Traceback" not in err


def test_a_good_way_file_round_trips(table_file):
    way = HouseWay.load(table_file)
    assert way == HouseWay.named("equilibrium")
    assert ap.solve(HAND, way).best.wins == ap.solve(HAND, "equilibrium").best.wins


# ---------------------------------------------------------------------------------------------
# the command line: one line, exit status 2, for every user mistake
# ---------------------------------------------------------------------------------------------

def _cli_files(tmp_path):
    (tmp_path / "exits.py").write_text("import sys\nsys.exit(5)\n")
    (tmp_path / "broken.py").write_text("raise RuntimeError('at import')\n")
    (tmp_path / "strategy.py").write_text("def bad(rows):\n    raise ValueError('nope')\n")
    (tmp_path / "afile").write_text("x")
    (tmp_path / "summary.json").write_text(json.dumps({"kind": "analysis-summary",
                                                      "figures": {}, "checksum": "0"}))
    (tmp_path / "card.json").write_text("{not json")
    (tmp_path / "shards").mkdir()
    (tmp_path / "shards" / "summary-shard-0-of-2.json").write_text("{}")


CLI = [
    (["solve", "As Kd 7h 7c Jk 2s 1d"], "1d"),
    (["solve", "--pays", "inf", HAND], "inf"),
    (["solve", "--pays", "0", HAND], "got 0.0"),
    (["solve", "--pays", "1e400", HAND], "inf"),
    (["solve", "--a234", "mid", HAND], "mid"),
    (["solve", "--way", "nowhere.py:f", HAND], "nowhere.py"),
    (["solve", "--way", "{d}/exits.py:f", HAND], "SystemExit: 5"),
    (["solve", "--way", "{d}/broken.py:f", HAND], "RuntimeError: at import"),
    (["solve", "--way", "{d}/strategy.py:missing", HAND], "'missing'"),
    (["house-way", "--way", "banker", HAND], "'banker'"),
    (["rank", "As", "As"], "As"),
    (["settle", "--player", "As Ks | Qs", "--dealer", "2c 3c 4c 5c | 6c 7c | 8c"], "As Ks | Qs"),
    (["simulate", "--rounds", "0"], "rounds"),
    (["simulate", "--seats", "9"], "seats"),
    (["analyze", "--sample", "5", "--out", "{d}/run"], "--sample"),
    (["analyze", "--out", "{d}/afile"], "afile"),
    (["analyze", "--out", "{d}/afile/run"], "afile"),
    (["analyze", "--sample", "4", "--player", "{d}/strategy.py:bad", "--workers", "1"],
     "'bad' raised ValueError: nope"),
    (["analyze", "--shard", "5/5", "--out", "{d}/run2"], "5/5"),
    (["best-response", "--way", "classic", "--out", "{d}/afile/x.npz"], "afile"),
    (["best-response", "--way", "classic", "--out", "{d}"], "directory"),
    (["equilibrium", "--out", "{d}/nowhere/x.npz"], "nowhere"),
    (["equilibrium", "--out", "{d}/x.npz", "--log", "{d}/nowhere/s.json"], "nowhere"),
    (["equilibrium", "--out", "{d}/x.npz", "--margin", "-1"], "margin must be 0 to"),
    (["card", "--way", "classic", "--out", "{d}/afile"], "afile"),
    (["report", "{d}/missing-run"], "missing-run"),
    (["report", "{d}/shards"], "summary-shard-0-of-2.json"),
    (["report", "{d}/summary.json"], "damaged"),
    (["report", "{d}/afile"], "afile"),
    (["grade", "{d}/card.json", "As Kd 7h 7c | Jk 2s | 9d"], "card"),
    (["grade", "{d}/no-card.json", "As Kd 7h 7c | Jk 2s | 9d"], "no-card.json"),
    (["serve", "--port", "-1"], "port"),
    (["serve", "--port", "70000"], "port"),
    (["bonus", "--table", "Z", HAND], "Z"),
    (["exploitability", "--hands", "1"], "hands"),
    (["solve", "--dead", "Ks", "--dead", "Qh", HAND], "--dead given twice"),
    (["spots", "--dealer", "Ks", "--dealer", "Qh", HAND, "Ks Kh Qc Qd 5c 5h 3d"],
     "--dealer given twice"),
    (["serve", "--host", ""], "host must name an address"),
    (["grade", "/dev/zero", "As Kd 7h 7c | Jk 2s | 9d"], "character device"),
    (["optimal-table", "{d}/shards", "--out", "{d}/t.npz"], "shards"),
    (["optimal-table", "{d}/missing-run", "--out", "{d}/afile/t.npz"], "afile"),
    (["simulate", "--optimal-table", "{d}/afile"], "--player optimal"),
    (["simulate", "--player", "optimal", "--optimal-table", "{d}/afile"], "afile"),
    (["simulate", "--rounds", "99999999999999999999", "--quiet"], "rounds must be 1 to"),
    (["spots", HAND], "give 2 to 6 seven-card hands (one a spot), got 1 hand"),
    (["best-response", "--way", "classic", "--out", "{d}/nodir/x.npz"],
     "its folder '{d}/nodir' does not exist"),
    (["analyze", "--shard", "700/2000", "--out", "{d}/run3"], "holds no chunk"),
    (["analyze", "--shard", "700/2000", "--out", "{d}/run4", "--no-parquet"], "688 chunks"),
]


@pytest.mark.parametrize("args,words", CLI, ids=[" ".join(c[0])[:40] for c in CLI])
def test_cli_probe(tmp_path, capsys, args, words):
    _cli_files(tmp_path)
    argv = [a.replace("{d}", str(tmp_path)) for a in args]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("asiapoker: error: ")
    assert words.replace("{d}", str(tmp_path)) in err, err
    assert "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["exits.py", "broken.py", "strategy.py", "afile", "summary.json", "card.json",
         "shards", *(["__pycache__"] if (tmp_path / "__pycache__").exists() else [])])


def test_json_is_always_json(capsys):
    assert main(["solve", "--json", "--pays", "1000", HAND]) == 0
    text = capsys.readouterr().out
    data = json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
    assert all(math.isfinite(s["ev"]) for s in data["settings"])


def test_probe_counts():
    """The probe covers at least 100 bad inputs (the server's are in test_web.py)."""
    assert len(API) + len(FILES) + len(CLI) >= 100


# ---------------------------------------------------------------------------------------------
# hypothesis over the forms of each input: a right answer or one line of the package's own
# ---------------------------------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

ANY_VALUE = st.one_of(st.integers(-3, 60), st.booleans(), st.just(np.True_),
                      st.floats(allow_nan=True), st.text(max_size=3), st.binary(max_size=3),
                      st.none(), st.integers(2**62, 2**70))
FORMS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _answer_or_ours(call):
    """``call()`` returns, or raises one of the package's own one-line errors."""
    try:
        call()
    except ap.AsiaPokerError as exc:
        assert "\n" not in str(exc) and str(exc)
        return exc
    return None


@FORMS
@given(st.lists(ANY_VALUE, min_size=7, max_size=7))
def test_any_row_of_values_is_an_answer_or_a_card_error(row):
    for call in (lambda: ap.best_splits([row]), lambda: ap.legal_splits([row]),
                 lambda: ap.solve(row)):
        exc = _answer_or_ours(call)
        ints = all(type(v) in (int, np.int64) for v in row)
        if exc is None:          # only seven distinct card ids are an answer
            assert ints and len(set(row)) == 7 and all(0 <= v <= 52 for v in row)
        elif any(isinstance(v, (bool, np.bool_)) for v in row):
            assert isinstance(exc, CardError)


@FORMS
@given(ANY_VALUE, st.one_of(ANY_VALUE, st.just(b"Ks"), st.just("Ks Qh")))
def test_any_option_value_is_an_answer_or_ours(solve_value, dead):
    _answer_or_ours(lambda: ap.best_splits(GOOD, solve=solve_value))
    _answer_or_ours(lambda: ap.best_splits(GOOD, table=solve_value))
    _answer_or_ours(lambda: ap.solve(HAND, dead=dead))
    _answer_or_ours(lambda: ap.simulate(solve_value, workers=1)
                    if not isinstance(solve_value, int) or solve_value > 10**10 else None)
