"""Runs that resume: damaged, foreign and missing chunks are never used, starting a run is
atomic, and every kernel's bad-row result is checked."""

from __future__ import annotations

import json
import multiprocessing
import re
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

from asiapoker import HouseWay, Rules, _core
from asiapoker._runs import RunDir
from asiapoker.analysis import analyze
from asiapoker.errors import RunError
from asiapoker.optimal import _index as _optimal_index
from asiapoker.solver import dealer_model
from asiapoker.suit_classes import PLAYER_CLASSES

SHARD = "7/350"            # two chunks, a few seconds


@pytest.fixture(scope="module")
def first(tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    a = analyze("classic", shard=SHARD, out=out, workers=2, progress=False)
    return out, a


@pytest.fixture(scope="module")
def foreign_chunk(tmp_path_factory):
    """A chunk of another way's run, with the same number."""
    other = tmp_path_factory.mktemp("other")
    analyze("medium-first", shard=SHARD, out=other, workers=2, progress=False)
    return sorted((other / "chunks").glob("*.npz"))[0]


def _again(out):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        a = analyze("classic", shard=SHARD, out=out, workers=2, progress=False)
    return a, " ".join(str(w.message) for w in seen)


def _spoilers(foreign):
    return {
        "truncated": lambda p: p.write_bytes(p.read_bytes()[:500]),
        "byte-flipped": lambda p: p.write_bytes(_flip(p.read_bytes())),
        "empty": lambda p: p.write_bytes(b""),
        "garbage": lambda p: p.write_bytes(b"\x00garbage" * 100),
        "foreign": lambda p: shutil.copy(foreign, p),
    }


def _flip(data):
    i = len(data) // 3
    return data[:i] + bytes([data[i] ^ 0x55]) + data[i + 1:]


@pytest.mark.parametrize("kind", ["truncated", "byte-flipped", "empty", "garbage", "foreign",
                                  "missing"])
def test_a_spoiled_chunk_is_recomputed(first, foreign_chunk, tmp_path, kind):
    out0, a0 = first
    out = tmp_path / "run"
    shutil.copytree(out0, out)
    chunk = sorted((out / "chunks").glob("*.npz"))[0]
    assert chunk.name == foreign_chunk.name
    if kind == "missing":
        chunk.unlink()
    else:
        _spoilers(foreign_chunk)[kind](chunk)
    a, said = _again(out)
    assert a.meta["results_sha256"] == a0.meta["results_sha256"]
    assert a.figures == a0.figures
    if kind != "missing":
        assert f"recomputing chunk {int(chunk.stem)}" in said and chunk.name in said
        assert chunk.with_suffix(".bad").exists()        # set aside, not deleted


def test_a_chunk_spoiled_after_the_check_is_an_error_naming_it(first, tmp_path):
    out0, _ = first
    out = tmp_path / "run"
    shutil.copytree(out0, out)
    params = json.loads((out / "run.json").read_text())
    run = RunDir(out, {k: v for k, v in params.items() if k != "format"}, create=False)
    chunk = sorted((out / "chunks").glob("*.npz"))[0]
    assert run.load(int(chunk.stem))                 # verified
    chunk.write_bytes(b"")
    with pytest.raises(RunError, match=re.escape(chunk.name)):
        run.load(int(chunk.stem))


def _start(path, q):
    try:
        RunDir(path, {"way": "x", "chunks": 3})
        q.put("ok")
    except Exception as exc:
        q.put(f"{type(exc).__name__}: {exc}")


def test_several_processes_start_one_run(tmp_path):
    for i in range(5):
        path = tmp_path / f"run{i}"
        ctx = multiprocessing.get_context("fork")
        q = ctx.Queue()
        procs = [ctx.Process(target=_start, args=(path, q)) for _ in range(4)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(30)
        assert [q.get(timeout=5) for _ in procs] == ["ok"] * 4
        assert sorted(p.name for p in path.iterdir()) == ["chunks", "run.json"]


def test_a_run_directory_of_another_call_is_refused(first):
    out, _ = first
    with pytest.raises(RunError, match="way="):
        analyze("medium-first", shard=SHARD, out=out, progress=False)


# ---------------------------------------------------------------------------------------------
# every kernel's bad-row result is checked
# ---------------------------------------------------------------------------------------------

def _kernels():
    """Every entry point of the core that takes rows of card ids: name -> call on rows."""
    m = dealer_model(HouseWay.named("classic"), Rules())
    keys, tri = HouseWay.named("classic").class_table()
    n = 2
    return {
        "strengths_kernel": lambda h: _core.strengths_kernel(h, 0, np.empty(n, np.int32)),
        "legal_kernel": lambda h: _core.legal_kernel(h, 0, np.empty((n, 105), np.uint8)),
        "split_strengths_kernel": lambda h: _core.split_strengths_kernel(
            h, 0, np.empty((n, 105, 3), np.int32)),
        "chosen_kernel": lambda h: _core.chosen_kernel(h, np.zeros(n, np.int64), 0,
                                                       np.empty((n, 3), np.int32)),
        "match_split_kernel": lambda h: _core.match_split_kernel(
            h, 0, np.zeros((n, 3), np.int32), np.empty(n, np.int16)),
        "house_way_kernel": lambda h: _core.house_way_kernel(h, 0, *_core.BUILTIN_WAYS["classic"],
                                                             np.empty((n, 3), np.int32)),
        "bonus_kernel": lambda h: _core.bonus_kernel(h, np.empty(n, np.int16)),
        "class_keys_kernel": lambda h: _core.class_keys_kernel(h, np.empty(n, np.int64)),
        "classify_kernel": lambda h: _core.classify_kernel(h, keys, tri, np.empty((n, 3),
                                                                                   np.int32)),
        "class_codes_kernel": lambda h: _core.class_codes_kernel(h, np.empty(n, np.int64)),
        "DealerModel.solve_rows": lambda h: m.solve_rows(h, np.empty((n, 105), np.int64),
                                                         np.empty(n, np.int64)),
        "solve_groups_kernel": lambda h: _core.solve_groups_kernel(
            h, m, np.empty((n, 105), np.int64)),
        "index_codes_kernel": lambda h: _core.index_codes_kernel(
            h, np.empty(n, np.int32), np.empty(n, np.uint16)),
        "best_splits_kernel": lambda h: _core.best_splits_kernel(
            h, *_optimal_index(), np.zeros(PLAYER_CLASSES, np.int8), np.zeros(0, np.int32),
            np.zeros((0, 14), np.uint8), 0, np.empty(n, np.int16), np.empty(n, np.int64)),
        "solve_known_kernel": lambda h: _core.solve_known_kernel(
            h, m, np.full((n, 1), -1, np.int8), np.full((n, 1), -1, np.int8),
            np.empty((n, 105), np.int64), np.empty(n, np.int64)),
    }


def test_every_kernel_reports_its_bad_row():
    listed = {k for k in dir(_core) if k.endswith("_kernel") and k != "suit_classes_kernel"}
    listed |= {"DealerModel.solve_rows"}
    kernels = _kernels()
    assert set(kernels) == listed            # a new kernel must be added here
    good = np.array([[0, 1, 2, 3, 4, 5, 6]] * 2, dtype=np.int64)
    for name, call in kernels.items():
        width = 4 if name == "strengths_kernel" else 7
        for bad_value in (-1, 53, 1 << 40):
            rows = good[:, :width].copy()
            rows[1, 2] = bad_value
            assert call(rows) == 1, name
        rows = good[:, :width].copy()
        rows[1, 2] = rows[1, 1]                      # a repeated card
        assert call(rows) == 1, name


def test_known_card_kernels_report_their_bad_row():
    """The core checks the known cards and splits itself too (the Python layer names them
    first): a row with a dead card in the hand, a dealer card named twice, both, too many
    dealer cards, too many dead cards, or a split outside 0..104 is reported."""
    m = dealer_model(HouseWay.named("classic"), Rules())
    hands = np.array([[0, 1, 2, 3, 4, 5, 6]] * 2, dtype=np.int8)
    none = np.full((2, 1), -1, np.int8)
    out, totals = np.empty((2, 105), np.int64), np.empty(2, np.int64)
    rest = list(range(7, 53))
    for dead, shown in (([[10], [3]], None), (None, [[10, 11], [12, 12]]),
                        ([[10], [11]], [[12], [11]]), (None, [[10], rest[:8]]),
                        ([[10], rest[:40]], None), ([[10], [60]], None)):
        d = none if dead is None else np.array([r + [-1] * (40 - len(r)) for r in dead], np.int8)
        k = none if shown is None else np.array([r + [-1] * (8 - len(r)) for r in shown],
                                                 np.int8)
        assert _core.solve_known_kernel(hands, m, d, k, out, totals) == 1, (dead, shown)
    good = np.full((2, 40), -1, np.int8)
    good[1, :39] = rest[:39]                                  # seven left: allowed
    assert _core.solve_known_kernel(hands, m, good, none, out, totals) == -1 and totals[1] == 1
    assert _core.chosen_kernel(hands, np.array([0, 105]), 0, np.empty((2, 3), np.int32)) == 1


def test_every_kernel_call_in_the_package_is_checked():
    """No module calls a kernel but through run_kernel, which raises for the row it reports."""
    src = Path(_core.__file__).parents[1]
    direct = re.compile(r"((?<!run)_kernel|\.solve_rows)\(")
    offenders = [f"{p.name}:{i}" for p in src.glob("*.py")
                 for i, line in enumerate(p.read_text().splitlines(), 1)
                 if direct.search(line) and "def " not in line
                 and "suit_classes_kernel" not in line]          # it takes no card rows
    assert offenders == []


def test_a_failed_report_leaves_nothing_behind(first, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    import asiapoker.report as report
    out, _ = first
    summary = next(out.glob("summary-shard-*.json"))

    class Failing:
        def savefig(self, path, **kw):
            if hasattr(path, "write_bytes"):
                path.write_bytes(b"half a picture")
            raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(report, "_figures", lambda data: {"ev": Failing()})
    target = tmp_path / "site"
    target.mkdir()
    with pytest.raises(OSError, match="No space left"):
        report.write_report(summary, target / "report.html")
    assert list(target.iterdir()) == []


def test_threads_share_one_model():
    import sys
    import threading

    from asiapoker import solver
    solver._MODELS.clear()
    sys.modules["asiapoker.house_way"]._STORED.clear()      # a fresh process, as it were
    got = []
    threads = [threading.Thread(target=lambda: got.append(
        solver.dealer_model(HouseWay.named("equilibrium"), Rules()))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 8 and all(m is got[0] for m in got)
    assert len(solver._MODELS) == 1


def test_the_par_sheet_carries_the_bonus_and_prints(first, tmp_path):
    from fractions import Fraction

    from asiapoker import bonus_odds
    from asiapoker.report import write_report
    out, _ = first
    page = write_report(next(out.glob("summary-shard-*.json")), tmp_path / "site" / "r.html")
    text = page.read_text()
    assert "The bonus wager" in text
    for table in ("A", "B", "C"):
        odds = bonus_odds(table)
        edge = -odds.ev_exact
        assert f"Pay table {table}: house edge {float(edge):.4%}" in text
        assert f"House edge exactly {edge.numerator:,} / {edge.denominator:,}." in text
        assert all(f"{r.count:,}" in text for r in odds.rows)
        assert edge == Fraction(-sum(r.count * r.pays for r in odds.rows), odds.total)
    pdf = page.with_suffix(".pdf")                     # Chromium is there (the README's
    assert pdf.read_bytes()[:5] == b"%PDF-"           # test command installs it)
