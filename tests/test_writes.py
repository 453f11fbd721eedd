"""Every file the package writes goes through one mechanism (``_files.atomic_path``): a fresh
temporary name in the target's folder, the target checked first, an atomic rename.  A cache
replaces a link at its path instead of writing through it; a file the user names follows its
link; a set-aside chunk never replaces another.  And no figure comes from nothing: a shard with
no chunk, a summary of no hands and a report of one are refused."""

from __future__ import annotations

import json
import os
import stat
import threading
import warnings

import numpy as np
import pytest

import asiapoker as ap
from asiapoker import FileError, RunError, _files, _runs
from asiapoker.analysis import analyze
from asiapoker.cli import main


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def test_atomic_path_leaves_nothing_behind_and_refuses_pipes(tmp_path, fifo):
    target = tmp_path / "out.bin"
    with _files.atomic_path(target) as tmp:
        assert tmp.parent == tmp_path and tmp.name.startswith(".out.bin-")
        tmp.write_bytes(b"whole")
    assert target.read_bytes() == b"whole"
    with pytest.raises(ZeroDivisionError), _files.atomic_path(target) as tmp:
        tmp.write_bytes(b"half")
        raise ZeroDivisionError
    assert target.read_bytes() == b"whole"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin", "pipe"]
    with pytest.raises(FileError, match=r"pipe.*a pipe \(FIFO\), not a regular file"):
        _files.atomic_write(fifo, b"x")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    with pytest.raises(ap.FileWriteError, match=r"its folder .*nowhere' does not exist"):
        _files.atomic_write(tmp_path / "nowhere" / "x", b"x")


def test_two_writers_never_share_a_temporary_file(tmp_path):
    target = tmp_path / "same.bin"
    names, errors = [], []

    def write(k):
        try:
            with _files.atomic_path(target) as tmp:
                names.append(tmp.name)
                tmp.write_bytes(bytes([k]) * 100_000)
        except Exception as exc:  # pragma: no cover - what the test looks for
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(set(names)) == 8
    data = target.read_bytes()
    assert len(data) == 100_000 and len(set(data)) == 1        # one writer's whole file
    assert [p.name for p in tmp_path.iterdir()] == ["same.bin"]


def test_a_cache_replaces_a_link_and_a_users_file_follows_it(tmp_path):
    outside = tmp_path / "precious.txt"
    outside.write_bytes(b"keep me")
    link = tmp_path / "cache.npz"
    link.symlink_to(outside)
    with warnings.catch_warnings():
        warnings.simplefilter("error")                     # nothing to warn about
        _files.write_cache(link, "example", {"n": 1}, {"a": np.arange(3)}, "example")
    assert outside.read_bytes() == b"keep me"              # the target is untouched
    assert link.is_file() and not link.is_symlink()
    assert _files.read(link, "example", {"n": 1})[1]["a"].tolist() == [0, 1, 2]
    mine = tmp_path / "mine.npz"
    real = tmp_path / "real.npz"
    mine.symlink_to(real)
    _files.write(mine, "example", {}, {"a": np.arange(2)})     # a user's output: followed
    assert mine.is_symlink() and real.is_file()


def test_a_chunk_damaged_twice_keeps_both_set_aside_files(tmp_path):
    run = _runs.RunDir(tmp_path / "run", {"x": 1})
    good = {"a": np.arange(4)}
    run.save(0, good)
    seen = []
    for n in range(2):
        path = run.chunk_path(0)
        path.write_bytes(f"damage {n}".encode())
        with pytest.warns(UserWarning, match=r"recomputing chunk 0: .*kept as 00000\."):
            assert not run.done(0)
        seen.append(sorted(p.name for p in path.parent.glob("*.bad")))
        run.save(0, good)
    assert seen == [["00000.bad"], ["00000.1.bad", "00000.bad"]]
    assert (path.parent / "00000.bad").read_bytes() == b"damage 0"
    assert (path.parent / "00000.1.bad").read_bytes() == b"damage 1"


def test_a_shard_with_no_chunk_is_refused_before_any_work(tmp_path, capsys):
    nchunks = len(_runs.chunk_bounds(ap.suit_classes.class_groups())) - 1
    with pytest.raises(RunError, match=rf"shard 700/2000 holds no chunk: the run has "
                                       rf"{nchunks:,} chunks"):
        analyze("standard", shard=(700, 2000), out=tmp_path / "a")
    assert not (tmp_path / "a").exists()
    for extra in ([], ["--no-parquet"]):
        assert main(["analyze", "--way", "standard", "--shard", "700/2000", "--out",
                     str(tmp_path / "b"), *extra]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "holds no chunk" in err and "Traceback" not in err
    assert not (tmp_path / "b").exists()


def _no_hands_summary(path):
    body = {"classes": 0, "figures": {"optimal": {"hands": 0}}, "by_shape": {},
            "kind": _runs.SUMMARY_KIND}
    body["checksum"] = _runs._checksum(body)               # a valid checksum
    path.write_text(json.dumps(body))


def test_a_summary_of_no_hands_is_neither_written_nor_read(tmp_path, capsys):
    with pytest.raises(RunError, match="a summary of no hands"):
        _runs.write_summary(tmp_path / "s.json", {"classes": 0, "figures": {}})
    assert not (tmp_path / "s.json").exists()
    _no_hands_summary(tmp_path / "summary.json")
    with pytest.raises(RunError, match="a summary of no hands"):
        _runs.read_summary(tmp_path / "summary.json")
    assert main(["report", str(tmp_path / "summary.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no hands" in err and "Traceback" not in err
    with pytest.raises(RunError, match="no figures of nothing"):
        ap.analysis.Figures(0, 0, 1)
