"""Optimal-play tables: the class index against class_of, tables built here by solving
against the lookup (random card orders, suit renamings, the joker, both A-2-3-4 options, tied
classes), a table made from a shard run, the shipped tables against solve_many, the files'
checks, and the users (simulate, Table) with and without a table."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest

from asiapoker import (
    FileError,
    HouseWay,
    OptimalTable,
    OptimalTableError,
    Rules,
    RunError,
    Table,
    Wager,
    _core,
    best_splits,
    count_splits,
    make_optimal_table,
    simulate,
    solve_many,
)
from asiapoker import optimal as opt
from asiapoker.analysis import analyze
from asiapoker.cli import main
from asiapoker.sampling import random_hands
from asiapoker.setting import split_strengths
from asiapoker.suit_classes import PLAYER_CLASSES, class_of, player_classes

SUIT_PERMS = [(a, b, c, d) for a in range(4) for b in range(4) for c in range(4)
              for d in range(4) if len({a, b, c, d}) == 4]


def _scramble(rows, rng):
    """Each row with its suits renamed at random and its cards in a random order."""
    out = np.array(rows, dtype=np.int64)
    for i, row in enumerate(out):
        p = SUIT_PERMS[int(rng.integers(24))]
        row = np.array([c if c == 52 else (c & ~3) | p[c & 3] for c in row])
        out[i] = rng.permutation(row)
    return out.astype(np.int8)


def _solved_table(classes, way, rules, *, all_tied=False):
    """A table of ``classes`` made here from count_splits on their least members: every best
    split kept (``all_tied``: every class through the tie path), independently of the runs."""
    reps = player_classes()[0][classes]
    wins = count_splits(reps, way, rules)
    top = wins.max(axis=1)
    best_set = wins == top[:, None]
    unequal = np.array([len({split_strengths([int(c) for c in r], rules)[k]
                             for k in np.flatnonzero(b)}) > 1
                        for r, b in zip(reps, best_set, strict=True)])
    tied = np.ones(len(classes), bool) if all_tied else unequal
    best = np.full(PLAYER_CLASSES, opt.MISSING, np.int8)
    best[classes] = wins.argmax(axis=1)
    order = np.argsort(classes)
    tc = np.asarray(classes)[order][tied[order]].astype(np.int32)
    bits = np.zeros((len(tc), 112), bool)
    bits[:, :105] = best_set[order][tied[order]]
    best[tc] = opt.TIED
    mask = np.packbits(bits, axis=1, bitorder="little")
    from asiapoker.equilibrium import way_digest
    from asiapoker.house_way import resolve_way
    w = resolve_way(way)
    return OptimalTable(w.name, way_digest(w, rules), rules.a234, best, tc, mask), unequal


def test_the_index_finds_each_hands_class(rng):
    hands = _scramble(random_hands(4000, 11), rng)
    empty = OptimalTable("x", "x", "high", np.full(PLAYER_CLASSES, opt.MISSING, np.int8),
                         np.zeros(0, np.int32), np.zeros((0, 14), np.uint8))
    out, cls = empty.lookup(hands)
    assert (cls == class_of(hands)).all()
    assert (hands == 52).any(axis=1).sum() > 200 and (out == -1).all()


def test_the_index_covers_every_class_once():
    start, end, _ = opt._index()
    used = end > start
    assert int((end - start).sum()) == PLAYER_CLASSES
    assert used.sum() == 49_205 + 18_395           # rank multisets, without and with the joker
    # the least members of a sample of classes are found at their own place
    hands = player_classes()[0]
    some = np.random.default_rng(3).choice(PLAYER_CLASSES, 20_000, replace=False)
    empty = OptimalTable("x", "x", "high", np.full(PLAYER_CLASSES, opt.MISSING, np.int8),
                         np.zeros(0, np.int32), np.zeros((0, 14), np.uint8))
    assert (empty.lookup(hands[some])[1] == some).all()


def test_the_class_list_digest_is_the_class_lists():
    """Tables name their class list by CLASS_LIST_SHA256: it is the list's own digest."""
    assert opt.class_list_sha256() == opt.CLASS_LIST_SHA256


def test_the_index_is_built_not_read_from_a_file(tmp_path, monkeypatch):
    """The index is made from the class list in the process (no file can forge it), and a
    fresh build is the same arrays."""
    monkeypatch.setenv("ASIAPOKER_CACHE_DIR", str(tmp_path))
    first = opt._index()
    assert all(not a.flags.writeable for a in first)
    again = opt._build_index()
    assert all((a == b).all() for a, b in zip(first, again, strict=True))
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("way,a234", [("standard", "high"), ("classic", "low")])
@pytest.mark.parametrize("all_tied", [False, True])
def test_a_table_gives_solve_many_best(way, a234, all_tied, rng):
    rules = Rules(a234=a234)
    hands = _scramble(random_hands(250, 5 + all_tied), rng)
    table, _ = _solved_table(np.unique(class_of(hands)), way, rules, all_tied=all_tied)
    np.testing.assert_array_equal(table.best_splits(hands), solve_many(hands, way, rules).best)
    again = _scramble(hands, rng)                  # other orders and suits of the same classes
    np.testing.assert_array_equal(table.best_splits(again), solve_many(again, way, rules).best)


def test_classes_whose_best_settings_differ_in_strengths(rng):
    """Such classes exist (the early ones, low cards, where settings tie on wins): the table
    keeps all their best splits, and the lookup matches solve in every card order."""
    classes = np.arange(3000)
    table, unequal = _solved_table(classes, "standard", Rules())
    assert unequal.sum() >= 5
    reps = player_classes()[0][classes[unequal]]
    hands = _scramble(np.repeat(reps, 4, axis=0), rng)
    np.testing.assert_array_equal(table.best_splits(hands), solve_many(hands).best)
    plain, _ = _solved_table(classes[unequal][:3], "standard", Rules())
    assert (plain.best[classes[unequal][:3]] == opt.TIED).all()


# --------------------------------------------------------------------------------------------
# a table from a run
# --------------------------------------------------------------------------------------------

LAST = "687/688"          # the last chunk: 1,400 classes with the joker, some of them tied


@pytest.fixture(scope="module")
def shard_table(tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    analyze("standard", out=out, shard=LAST, workers=2, progress=False, parquet=False)
    path = out / "table.npz"
    assert main(["optimal-table", str(out), "--out", str(path), "--wins"]) == 0
    return out, path


def test_a_table_from_a_shard_run_matches_solve(shard_table, rng):
    _, path = shard_table
    table = OptimalTable.load(path)
    covered = np.flatnonzero(table.best != opt.MISSING)
    assert len(covered) == table.classes == 1400 and not table.complete
    assert len(table.tie_class) > 0
    some = np.r_[table.tie_class, rng.choice(covered, 200, replace=False)]
    hands = _scramble(player_classes()[0][some], rng)
    sol = solve_many(hands)
    np.testing.assert_array_equal(table.best_splits(hands), sol.best)
    np.testing.assert_array_equal(table.wins[class_of(hands)], sol.best_wins)
    outside = random_hands(5, 2)
    with pytest.raises(OptimalTableError, match="row 0 of hands: its class is not in this"):
        table.best_splits(outside)
    np.testing.assert_array_equal(best_splits(outside, table=table, solve=True),
                                  solve_many(outside).best)


def test_the_runs_tie_column_is_exact(shard_table):
    """best_ties counts the tied best splits of other strengths: as solve counts them."""
    out, _ = shard_table
    from asiapoker._runs import RunDir
    params = json.loads((out / "run.json").read_text())
    params.pop("format")
    data = RunDir(out, params, create=False).load(687)
    reps = player_classes()[0][PLAYER_CLASSES - 1400:]
    wins = count_splits(reps)
    for r, w, b, t in zip(reps, wins, data["best"], data["best_ties"], strict=True):
        st = split_strengths([int(c) for c in r])
        tied = np.flatnonzero(w == w.max())
        assert b == tied[0]
        assert t == sum(st[k] != st[b] for k in tied)


def test_table_files_are_checked(shard_table, tmp_path):
    _, path = shard_table
    with pytest.raises(FileError, match=r"damaged|not a file"):
        bad = tmp_path / "cut.npz"
        bad.write_bytes(path.read_bytes()[:-200])
        OptimalTable.load(bad)
    table = OptimalTable.load(path)
    other = tmp_path / "other.npz"
    from asiapoker import _files
    ident = {**table.identity(), "class_list_sha256": "0" * 64}
    _files.write(other, opt.TABLE_KIND, ident, {"best": table.best, "tie_class":
                                                table.tie_class, "tie_mask": table.tie_mask})
    with pytest.raises(FileError, match=r"other.npz.*another class list"):
        OptimalTable.load(other)
    with zipfile.ZipFile(path) as z:
        assert "best.npy" in z.namelist()
    with pytest.raises(OptimalTableError, match=r"is for house way standard .*way digest "
                                                r"[0-9a-f]{12}.*not for classic .*way digest "):
        best_splits(random_hands(2, 1), "classic", table=path)
    with pytest.raises(OptimalTableError, match=r"a234=high.*not for standard under a234=low"):
        best_splits(random_hands(2, 1), "standard", Rules(a234="low"), table=table)


def test_a_run_of_the_old_format_is_refused(shard_table, tmp_path):
    out, _ = shard_table
    old = tmp_path / "old"
    old.mkdir()
    params = json.loads((out / "run.json").read_text())
    (old / "run.json").write_text(json.dumps({**params, "format": 2}))
    with pytest.raises(RunError, match="not a run of this version"):
        make_optimal_table(old)
    with pytest.raises(RunError, match="does not fit house way"):
        make_optimal_table(out, way="classic")


# --------------------------------------------------------------------------------------------
# the shipped tables
# --------------------------------------------------------------------------------------------

SHIPPED = [("standard", "high"), ("equilibrium", "high"), ("classic", "high"),
           ("standard", "low")]


@pytest.mark.parametrize("way,a234", SHIPPED)
def test_shipped_tables_against_solve_many(way, a234, rng):
    rules = Rules(a234=a234)
    table = opt.shipped_table(way, rules)
    assert table is not None and table.complete and table.wins is None
    hands = _scramble(random_hands(600, 17), rng)
    hands[:60, 0] = np.where((hands[:60] == 52).any(axis=1), hands[:60, 0], 52)  # jokers
    hands = hands[[len(set(h)) == 7 for h in hands]]
    np.testing.assert_array_equal(best_splits(hands, way, rules),
                                  solve_many(hands, way, rules).best)


@pytest.mark.parametrize("way,a234", SHIPPED)
def test_each_shipped_table_is_its_built_in_ways(way, a234):
    """best_splits reads the shipped table of a way named, without loading the way: each
    table must be for the built-in way of its name (its digest), and a HouseWay given reads
    the same table."""
    rules = Rules(a234=a234)
    table = opt._shipped(way, a234)
    assert table is not None and table.way == way
    assert table.matches(HouseWay.named(way), rules)
    assert not table.matches(HouseWay.named("high-first"), rules)
    hands = random_hands(50, 29)
    np.testing.assert_array_equal(best_splits(hands, f" {way.upper()} ", rules),
                                  best_splits(hands, HouseWay.named(way), rules))


def test_a_class_index_out_of_order_is_refused():
    start, end, local = opt._index()
    assert start.shape == (_core.SLOT_COUNT,)
    opt._check_index((start, end, local), "the index")               # as built: accepted
    lo = int(start[int(np.argmax(end - start))])                      # inside the longest range
    swapped = local.copy()
    swapped[lo + 1], swapped[lo + 2] = local[lo + 2], local[lo + 1]
    with pytest.raises(FileError, match="the index is not the class index"):
        opt._check_index((start, end, swapped), "the index")


@pytest.mark.slow
@pytest.mark.parametrize("way,a234", SHIPPED)
def test_shipped_tables_against_solve_many_10000(way, a234, rng):
    rules = Rules(a234=a234)
    hands = _scramble(random_hands(10_000, 23), rng)
    np.testing.assert_array_equal(best_splits(hands, way, rules),
                                  solve_many(hands, way, rules).best)


def test_no_table_says_so_or_solves():
    hands = random_hands(3, 4)
    with pytest.raises(OptimalTableError, match=r"no optimal-play table for house way "
                                                r"high-first.*optimal-table RUN"):
        best_splits(hands, "high-first")
    np.testing.assert_array_equal(best_splits(hands, "high-first", solve=True),
                                  solve_many(hands, "high-first").best)
    with pytest.raises(OptimalTableError, match="must be a table, its file"):
        simulate(10, player="optimal", optimal_table=3)


# --------------------------------------------------------------------------------------------
# the users
# --------------------------------------------------------------------------------------------

def test_simulate_with_and_without_the_table():
    a = simulate(300, seats=3, player="optimal", seed=5, workers=1)
    b = simulate(300, seats=3, player="optimal", seed=5, workers=1, optimal_table=False)
    assert a.table is not None and b.table is None
    for f in ("wins", "losses", "fouls", "round_wins", "house_edge"):
        assert getattr(a, f) == getattr(b, f)


def test_simulate_reports_the_dealt_hands_exact_ev(shard_table):
    """With a table that holds wins, the exact mean ev of the hands dealt: here a table of
    just the classes dealt (seen by a strategy that records its rows), with their wins."""
    seen = []

    def record(rows):
        seen.append(rows.copy())
        return np.zeros(len(rows), dtype=np.int64)

    simulate(40, seats=2, player=record, seed=8, workers=1)
    rows = np.concatenate(seen)
    classes = np.unique(class_of(rows))
    table, _ = _solved_table(classes, "standard", Rules())
    wins = np.zeros(PLAYER_CLASSES, np.int32)
    wins[classes] = count_splits(player_classes()[0][classes]).max(axis=1)
    table = OptimalTable(table.way, table.way_digest, "high", table.best.copy(),
                         table.tie_class, table.tie_mask, wins)
    sim = simulate(40, seats=2, player="optimal", seed=8, workers=1, optimal_table=table)
    sol = solve_many(rows)
    assert sim.dealt_best_wins == int(sol.best_wins.sum())
    assert sim.dealt_ev == pytest.approx(float(sol.best_ev.mean()), abs=1e-12)
    assert sim.wins == simulate(40, seats=2, player="optimal", seed=8, workers=1,
                                optimal_table=False).wins
    _, path = shard_table                           # a table lacking classes dealt
    with pytest.raises(OptimalTableError, match="lacks the class of a hand dealt"):
        simulate(50, player="optimal", optimal_table=path, workers=1)


def test_the_table_engine_reads_the_table(monkeypatch):
    """Optimal players at the table: the shipped table's settings, as solving gives them."""
    wagers = [Wager(seat=s, amount=10) for s in (1, 2, 3)]
    read = [Table(seed=s, strategy="optimal").play_round(wagers).to_dict() for s in (4, 5)]
    monkeypatch.setattr(opt, "SHIPPED", {})            # no tables: every hand solved
    monkeypatch.setattr(opt, "_SHIPPED_TABLES", {})
    solved = [Table(seed=s, strategy="optimal").play_round(wagers).to_dict() for s in (4, 5)]
    assert read == solved
