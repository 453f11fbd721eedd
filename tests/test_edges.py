"""Exact at the edges, round two: inputs in every form give the same answers (or one clear
error), files of every kind are read or written safely, and the errors are the package's.
Each case asserts its exact outcome."""

from __future__ import annotations

import os
import stat
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import asiapoker as ap
from asiapoker import (
    FileError,
    FileWriteError,
    HouseWay,
    KnownCardError,
    OptionError,
    Table,
    Wager,
    WagerError,
    count_splits,
    solve_chunks,
    solve_many,
    solve_spots,
)
from asiapoker.cli import main
from asiapoker.known import read_known
from asiapoker.suit_classes import class_codes, class_of

HAND = "As Kd 7h 7c Jk 2s 9d"
SPOTS = ["Qc 9h As 5s 7c Qs 2s", "3h 7d 8h Js Td Jk Ah"]
ROWS = np.array([[0, 1, 2, 3, 4, 5, 6], [8, 9, 10, 11, 12, 13, 14]], dtype=np.int8)


# ---------------------------------------------------------------------------------------------
# silent wrong answers: an iterator is read once, whole, for every spot and chunk
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("form", [list, tuple, iter, lambda x: (c for c in x),
                                  lambda x: map(str, x)])
def test_every_spot_sees_the_dealers_cards_given_in_any_form(form):
    got = solve_spots(SPOTS, dealer=form(["Ac", "4d"]))
    assert [s.total for s in got.spots] == [435_897, 435_897]
    assert got.to_dict() == solve_spots(SPOTS, dealer=["Ac", "4d"]).to_dict()
    assert "dealer shows Ac 4d" in got.describe()


@pytest.mark.parametrize("form", [list, tuple, iter, lambda x: (c for c in x), np.array])
def test_every_chunk_has_the_dead_cards_given_in_any_form(form):
    totals = [int(s.totals[0]) for _, s in solve_chunks(ROWS, dead=form([50, 51]), chunk=1,
                                                        workers=1, columns="summary")]
    assert totals == [38_320_568, 38_320_568]


def test_per_row_known_cards_are_checked_against_the_rows_at_the_call():
    with pytest.raises(KnownCardError, match="one list of cards per hand"):
        solve_chunks(ROWS, dead=[[50]] * 6, chunk=1)         # refused before any chunk
    with pytest.raises(KnownCardError, match="one list of cards per hand"):
        solve_many(ROWS, dead=[[50]] * 6)


# ---------------------------------------------------------------------------------------------
# inputs in every form: the same answers
# ---------------------------------------------------------------------------------------------

FORMS = {
    "array": np.array,
    "list": lambda rows: [list(r) for r in rows],
    "tuple": lambda rows: tuple(tuple(int(c) for c in r) for r in rows),
    "iterator": lambda rows: iter([list(r) for r in rows]),
    "generator": lambda rows: (list(r) for r in rows),
    "map": lambda rows: map(list, rows),
}

ROW_FUNCTIONS = {
    "solve_many": lambda h: solve_many(h, "classic", workers=1, columns="summary").best_wins,
    "count_splits": lambda h: count_splits(h, "classic"),
    "count_splits-dead": lambda h: count_splits(h, "classic", dead=["Jk"]),
    "class_of": class_of,
    "class_codes": class_codes,
    "house_way_splits": lambda h: ap.house_way_splits(h, "classic"),
    "dealer_strengths": lambda h: ap.dealer_strengths(h, "classic"),
    "legal_splits": ap.legal_splits,
    "bonus_hands": ap.bonus_hands,
    "bonus_payouts": ap.bonus_payouts,
}

hands_st = st.lists(st.permutations(range(52)).map(lambda p: p[:7]), min_size=1, max_size=4)


@settings(max_examples=15, deadline=None)
@given(hands_st)
def test_every_row_function_answers_alike_for_every_input_form(rows):
    for name, fn in ROW_FUNCTIONS.items():
        want = np.asarray(fn(np.array(rows, dtype=np.int8)))
        for form, make in FORMS.items():
            got = np.asarray(fn(make(rows)))
            assert np.array_equal(got, want), (name, form)


@settings(max_examples=15, deadline=None)
@given(st.permutations(range(52)))
def test_known_cards_answer_alike_for_every_form(deck):
    rows = np.array([deck[:7], deck[7:14]], dtype=np.int8)
    dead, shown = deck[14:17], deck[17:18]
    want = count_splits(rows, "classic", dead=list(dead), dealer=list(shown))
    for form in (tuple, iter, lambda x: (c for c in x), np.array, lambda x: map(int, x)):
        assert np.array_equal(count_splits(rows, "classic", dead=form(dead),
                                           dealer=form(shown)), want)
    per_row = [list(dead), list(dead)]
    for form in (tuple, iter, np.array, lambda x: (list(r) for r in x)):
        assert np.array_equal(count_splits(rows, "classic", dead=form(per_row),
                                           dealer=[list(shown)] * 2), want)


def test_one_rule_decides_every_row_or_per_row():
    assert read_known(["Qh", "3c"], "dead") == (42, 4)                 # every row
    assert read_known("Qh 3c", "dead") == (42, 4)
    assert read_known([["Qh"], ["3c"]], "dead").tolist() == [[42], [4]]   # per row
    with pytest.raises(KnownCardError, match="mix a card"):
        read_known(["Qs 4h", ["Ah"]], "dead")
    with pytest.raises(KnownCardError, match=r"item 0 \('Qs 4h'\) is several cards"):
        read_known(["Qs 4h", "Ah"], "dead")
    with pytest.raises(KnownCardError, match="shape"):
        read_known(np.zeros((1, 1, 1), np.int8), "dead")
    with pytest.raises(ap.CardError, match="dead row 1: unknown rank in 'Zz'"):
        solve_many(ROWS, dead=[["Qh"], ["Zz"]])


# ---------------------------------------------------------------------------------------------
# the package's errors, never Python's or numpy's
# ---------------------------------------------------------------------------------------------

ERRORS = [
    ("spots-none", lambda: solve_spots(None), OptionError, "give 2 to 6 seven-card hands"),
    ("spots-generator-one", lambda: solve_spots(h for h in SPOTS[:1]), OptionError,
     "got 1 hand"),
    ("round-none", lambda: Table().play_round(None), WagerError, "None"),
    ("round-one-wager", lambda: Table().play_round(Wager(2, 1)), WagerError, "Wager(seat=2"),
    ("round-key-not-seat", lambda: Table().play_round({1: Wager(2, 1)}), WagerError,
     "wagers[1] is a wager on seat 2"),
    ("player-list", lambda: Table().play_round([Wager(1, 10, player=["a"])]), WagerError,
     "['a']"),
    ("strategy-array", lambda: Table(strategy=np.array([1, 2])), WagerError, "array([1, 2])"),
    ("rows-none", lambda: solve_many(None), ap.CardError, "None"),
    ("rows-ragged", lambda: solve_many([[0, 1, 2], [0, 1, 2, 3, 4, 5, 6]]), ap.HandSizeError,
     "different lengths"),
    ("rows-text-bad", lambda: solve_many(["As Kd 7h 7c Jk 2s Xx"]), ap.CardError, "row 0"),
    ("rows-int", lambda: class_of(7), ap.CardError, "7"),
]


@pytest.mark.parametrize(("call", "error", "words"), [e[1:] for e in ERRORS],
                         ids=[e[0] for e in ERRORS])
def test_errors_are_the_packages(call, error, words):
    with pytest.raises(error) as info:
        call()
    assert words in str(info.value) and "\n" not in str(info.value)


# ---------------------------------------------------------------------------------------------
# files of every kind
# ---------------------------------------------------------------------------------------------

def _returns_within(fn, seconds=10.0):
    """fn() run in a thread; fails the test if it has not returned in ``seconds`` (a FIFO
    read that blocks)."""
    box = {}

    def run():
        try:
            box["value"] = fn()
        except BaseException as exc:          # handed to the test
            box["error"] = exc
    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "blocked"
    if "error" in box:
        raise box["error"]
    return box.get("value")


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def test_a_device_or_fifo_is_refused_at_once(tmp_path, fifo, capsys):
    zero = tmp_path / "zero.npz"
    zero.symlink_to("/dev/zero")
    for path, kind in ((zero, "character device"), ("/dev/zero", "character device"),
                       (fifo, "pipe")):
        with pytest.raises(ap.HouseWayError, match=kind):
            _returns_within(lambda p=path: HouseWay.load(p))
        assert _returns_within(lambda p=path: main(["grade", str(p), "As Kd 7h 7c | Jk 2s | 9d"])
                               ) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and str(path) in err and kind in err, err
    with pytest.raises(FileError, match="more than such a file can be"):
        big = tmp_path / "big.json"
        with open(big, "wb") as f:
            f.truncate(ap._files.MAX_TEXT + 1)
        ap._files.read_json(big)


def test_a_cache_that_links_to_a_device_is_rebuilt(tmp_path, monkeypatch):
    from asiapoker._models import MODEL_CACHE, cached_model
    from asiapoker.house_way import resolve_way
    way = resolve_way("classic")
    monkeypatch.setenv("ASIAPOKER_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("ASIAPOKER_MODEL_CACHE", raising=False)
    cached_model(way.key, 0, lambda ids: way.strengths(ids, ap.Rules()))
    path = next(tmp_path.glob(f"{MODEL_CACHE}-*.npz"))
    path.unlink()
    path.symlink_to("/dev/zero")
    with pytest.warns(UserWarning, match="character device"):
        model = _returns_within(lambda: cached_model(
            way.key, 0, lambda ids: way.strengths(ids, ap.Rules())))
    out = np.empty((2, 105), np.int64)
    model.solve_rows(ROWS, out, np.empty(2, np.int64))
    assert (out == count_splits(ROWS, "classic")).all()


def test_a_write_never_replaces_a_link_or_a_device(tmp_path, fifo, capsys):
    way = HouseWay.named("equilibrium")
    real = tmp_path / "real.npz"
    link = tmp_path / "link.npz"
    link.symlink_to(real)
    way.save(link)                                   # through the link: the link stays
    assert link.is_symlink() and real.is_file() and HouseWay.load(link) == way
    with pytest.raises(FileError, match="pipe"):
        _returns_within(lambda: way.save(fifo))
    assert main(["best-response", "--way", "classic", "--out", str(fifo)]) == 2  # before work
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(fifo) in err and "pipe" in err, err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    null = tmp_path / "null"
    try:
        os.mknod(null, 0o666 | stat.S_IFCHR, os.stat("/dev/null").st_rdev)
    except PermissionError:
        null = None
    if null is not None:                              # a copy of /dev/null's node (root)
        way.save(null)
        assert stat.S_ISCHR(os.stat(null).st_mode)
    with pytest.raises(FileWriteError, match=r"/dev/full.*No space left on device"):
        way.save("/dev/full")                         # a full disk names its file
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
    with pytest.raises(FileWriteError, match=r"/dev/full.*No space left on device"):
        ap._runs.write_summary("/dev/full", {"classes": 1, "figures": {"optimal": {"hands": 1}}})


@pytest.mark.parametrize(("content", "words"), [
    (b"\xff\xfe{}", "not UTF-8"),
    (b"[" * 100_000 + b"]" * 100_000, "nests 100,000 levels deep"),
    (b'{"name": "x", "rules": [[' + b"[" * 70 + b"]" * 70 + b"]]}", "nests"),
    (b"{not json", "not JSON"),
])
def test_a_bad_json_file_is_one_line(tmp_path, capsys, content, words):
    path = tmp_path / "card.json"
    path.write_bytes(content)
    assert main(["grade", str(path), "As Kd 7h 7c | Jk 2s | 9d"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err, err
    for reader in (ap._files.read_json, ap._runs.read_summary):
        with pytest.raises(ValueError) as info:
            reader(path)
        assert isinstance(info.value, ap.AsiaPokerError) and str(path) in str(info.value)


# ---------------------------------------------------------------------------------------------
# estimates look like estimates
# ---------------------------------------------------------------------------------------------

def test_a_sample_carries_no_field_that_reads_as_exact():
    a = ap.analysis.analyze("classic", sample=20, workers=1, progress=False)
    text = str(a.to_dict())
    assert "house_edge_exact" not in text and "'estimate': True" in text
    head = a.table().splitlines()[0]
    assert head.endswith("95% confidence interval of the ev")
    assert "an estimate from 20 random hands" in a.describe()


# ---------------------------------------------------------------------------------------------
# clarity
# ---------------------------------------------------------------------------------------------

def test_rules_describe_pays_exactly():
    assert ap.Rules(pays=1.0000001).describe() == "a234=high, pays=1.0000001:1"
    assert ap.Rules(pays=0.95 + 0.05).describe() == "a234=high, pays=1:1"
    assert ap.Rules(a234="low", pays=2.5).describe() == "a234=low, pays=2.5:1"


def test_progress_goes_to_a_callback_or_plain_lines(capsys):
    from asiapoker._progress import Progress
    seen = []
    bar = Progress(10, "x", lambda done, total: seen.append((done, total)))
    for i in (0, 5, 10):
        bar.update(i)
    assert seen == [(0, 10), (5, 10), (10, 10)] and capsys.readouterr().err == ""
    plain = Progress(10, "compiling", True)              # stderr is not a terminal here
    plain.update(10)
    assert capsys.readouterr().err == ""                 # nothing printed yet: no last line
    plain = Progress(10, "compiling", True)
    plain.last -= 60
    plain.update(3)
    plain.update(10)
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("compiling: 30.0% (3 of 10)") and "done in" in err[1]


def test_a_reader_that_stops_early_ends_the_command_quietly():
    """Like ``asiapoker splits HAND | head -c 10``: the pipe is made smaller than the output
    (4,096 bytes against about 4,700), so the command meets the closed pipe for certain."""
    import fcntl
    import subprocess
    import sys
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, 1031, 4096)                   # F_SETPIPE_SZ
    proc = subprocess.Popen([sys.executable, "-m", "asiapoker", "splits", HAND],
                            stdout=write_end, stderr=subprocess.PIPE)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as reader:
        assert len(reader.read(10)) == 10
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0 and err == b"", err
