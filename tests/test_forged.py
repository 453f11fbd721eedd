"""Files whose checksum is right but whose meaning is not: optimal-play tables rewritten (every
class set to split 104), a table of one way under another's identity, and the shipped tables
replaced by such files.  Each is caught when it is first used against a way (every best split
legal, a sample of classes solved), and every answer a table gives is checked legal; the class
index is compared with the plain canonical form (the least of the 24 suit renamings)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import asiapoker as ap
from asiapoker import OptimalTable, OptimalTableError, _files
from asiapoker import optimal as opt
from asiapoker.cli import main
from asiapoker.sampling import random_hands
from asiapoker.suit_classes import PLAYER_CLASSES, player_classes

HAND = np.array([[48, 49, 0, 5, 22, 31, 52]], np.int8)
RENAMINGS = list(itertools.permutations(range(4)))


def least_member(row):
    """The plain canonical form: the row under each renaming of suits, sorted, the least."""
    return min(sorted(c if c == 52 else c // 4 * 4 + p[c % 4] for c in map(int, row))
               for p in RENAMINGS)


def _forge(tmp_path, name, source, change=None, identity_of=None):
    """A table file with a recomputed checksum: ``source``'s arrays (changed by ``change``)
    under ``identity_of``'s identity."""
    meta, arrays = _files.read(opt._DATA / source, opt.TABLE_KIND)
    ident = meta["identity"] if identity_of is None else _files.read(
        opt._DATA / identity_of, opt.TABLE_KIND)[0]["identity"]
    arrays = dict(arrays)
    if change is not None:
        change(arrays)
    path = tmp_path / name
    _files.write(path, opt.TABLE_KIND, ident, arrays, compress=True)
    return path


def _all_104(arrays):
    best = arrays["best"].copy()
    best[best >= 0] = 104
    arrays["best"] = best


@pytest.fixture(scope="module")
def forged(tmp_path_factory):
    d = tmp_path_factory.mktemp("forged")
    return {"all-104": _forge(d, "all-104.npz", "optimal-standard-high.npz", _all_104),
            "classic-as-standard": _forge(d, "classic.npz", "optimal-classic-high.npz",
                                          identity_of="optimal-standard-high.npz")}


@pytest.mark.parametrize("kind,words", [("all-104", "best split 104, which is not legal"),
                                        ("classic-as-standard", "solver")])
def test_a_forged_table_is_refused_wherever_it_is_used(forged, kind, words, capsys):
    path = forged[kind]
    meta, arrays = _files.read(path, opt.TABLE_KIND)        # its checksum and layout are right
    table = OptimalTable(meta["identity"]["way"], meta["identity"]["way_digest"], "high",
                         arrays["best"], arrays["tie_class"], arrays["tie_mask"],
                         source=str(path))
    if kind == "all-104":                        # illegal splits: refused when it is read
        with pytest.raises(OptimalTableError, match=words):
            OptimalTable.load(path)
    for call in (lambda: ap.best_splits(HAND, table=path),
                 lambda: ap.best_splits(HAND, table=table),
                 lambda: ap.best_splits(HAND, table=path, solve=True),
                 lambda: ap.simulate(50, player="optimal", optimal_table=path, workers=1)):
        with pytest.raises(OptimalTableError, match=words) as info:
            call()
        assert path.name in str(info.value) and "\n" not in str(info.value)
    assert main(["simulate", "--rounds", "50", "--player", "optimal", "--optimal-table",
                 str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


def test_every_answer_of_a_table_is_legal(forged):
    """A forged table used directly (no way to check it against) still cannot make a hand
    foul: the answers themselves are checked."""
    meta, arrays = _files.read(forged["all-104"], opt.TABLE_KIND)
    table = OptimalTable("standard", meta["identity"]["way_digest"], "high", arrays["best"],
                         arrays["tie_class"], arrays["tie_mask"])
    with pytest.raises(OptimalTableError, match=r"answers row 0 \(Ac Ad 2c 3d 7h 9s Jk\) "
                                                r"with split \d+, .* which is not legal"):
        table.best_splits(HAND)


def test_a_forged_shipped_table_is_refused(forged, tmp_path, monkeypatch):
    fake = tmp_path / "data"
    fake.mkdir()
    (fake / "optimal-standard-high.npz").write_bytes(forged["all-104"].read_bytes())
    monkeypatch.setattr(opt, "_DATA", fake)
    monkeypatch.setattr(opt, "_SHIPPED_TABLES", {})
    with pytest.raises(OptimalTableError, match=r"optimal-standard-high\.npz.*not legal"):
        ap.best_splits(HAND)
    with pytest.raises(OptimalTableError, match="not legal"):
        ap.Table(seed=1, strategy="optimal").play_round([ap.Wager(1, 5)])


def test_a_sound_table_passes_and_is_checked_once(monkeypatch):
    table = opt._shipped("standard", "high")
    assert table is not None and table._checked       # checked when it was loaded
    calls = []
    monkeypatch.setattr(OptimalTable, "_check_sample", lambda *a: calls.append(a))
    hands = random_hands(500, 8)
    np.testing.assert_array_equal(ap.best_splits(hands, table=table),
                                  ap.solve_many(hands).best)
    assert calls == []                                # once per way, then kept


def test_a_table_takes_any_array_layout_and_leaves_the_callers_alone():
    t = opt._shipped("classic", "high")
    assert t is not None
    best = np.repeat(t.best, 2)[::2]                   # strided
    mask = np.asfortranarray(t.tie_mask)
    assert not best.flags.c_contiguous and not mask.flags.c_contiguous
    copy = OptimalTable(t.way, t.way_digest, t.a234, best, t.tie_class, mask)
    assert best.flags.writeable and mask.flags.writeable           # not frozen
    hands = random_hands(300, 4)
    np.testing.assert_array_equal(copy.best_splits(hands), t.best_splits(hands))
    best[:] = 0                                        # the caller's array is its own
    np.testing.assert_array_equal(copy.best_splits(hands), t.best_splits(hands))
    with pytest.raises(OptimalTableError, match="best must be a numpy array, got list"):
        OptimalTable(t.way, t.way_digest, t.a234, [0] * PLAYER_CLASSES, t.tie_class, mask)


def test_the_index_is_the_plain_canonical_form(rng):
    hands = random_hands(3000, 21)
    hands = np.array([rng.permutation(h) for h in hands], dtype=np.int8)
    empty = OptimalTable("x", "x", "high", np.full(PLAYER_CLASSES, opt.MISSING, np.int8),
                         np.zeros(0, np.int32), np.zeros((0, 14), np.uint8))
    _, cls = empty.lookup(hands)
    reps = player_classes()[0][cls]
    assert all(list(map(int, r)) == least_member(h) for r, h in zip(reps, hands, strict=True))


def test_a_wrong_way_table_says_which_digests_differ(forged):
    with pytest.raises(OptimalTableError, match=r"is for house way standard \(a234=high, way "
                                                r"digest [0-9a-f]{12}\.\.\.\), not for classic "
                                                r"under a234=high.*way digest [0-9a-f]{12}"):
        ap.best_splits(HAND, "classic", table=forged["classic-as-standard"])


def test_the_class_list_digest_is_the_lists_own():
    from asiapoker import suit_classes as sc
    hands, weights, groups = sc._build_classes()
    assert _files.contents_digest({"hands": hands, "weights": weights.astype(np.uint8),
                                   "groups": groups}) == sc.CLASS_LIST_DIGEST


def test_a_forged_class_list_cache_is_rebuilt(tmp_path, monkeypatch):
    """A cached class list with two classes swapped (its own checksum right) is not the
    list: it is rebuilt with a warning naming the file, and the list is the true one."""
    from asiapoker import _cache
    from asiapoker import suit_classes as sc
    monkeypatch.setenv("ASIAPOKER_CACHE_DIR", str(tmp_path))
    identity = {"classes": PLAYER_CLASSES, "digest": sc.CLASS_LIST_DIGEST}
    path = _cache.cache_path(tmp_path, sc.CLASS_LIST_CACHE, identity)
    hands, weights, groups = (np.array(a) for a in sc._classes())
    hands[[5, 6]] = hands[[6, 5]]
    _files.write(path, sc.CLASS_LIST_CACHE, identity, {
        "hands": hands, "weights": weights.astype(np.uint8), "groups": groups})
    sc._classes.cache_clear()
    try:
        with pytest.warns(UserWarning, match=r"rebuilding the class-list cache: .*class-list"):
            again = sc._classes()
        assert (again[0] == sc._build_classes()[0]).all()           # the true list
        assert not (again[0][[5, 6]] == hands[[5, 6]]).all()
        sc._classes.cache_clear()
        assert (sc._classes()[0] == again[0]).all()          # the rebuilt file is read back
    finally:
        sc._classes.cache_clear()


def test_runs_that_do_not_fit_say_what_differs(tmp_path, capsys):
    """make_optimal_table on a run whose run.json changed only its rules, and on a run of a
    way that is not built in: each message says what differs and what to pass."""
    import json

    from asiapoker.analysis import analyze
    run = tmp_path / "run"
    analyze("standard", shard="0/700", out=run, workers=2, progress=False)
    meta = json.loads((run / "run.json").read_text())
    meta["rules"]["a234"] = "low"
    (run / "run.json").write_text(json.dumps(meta))
    with pytest.raises(ap.RunError, match=r"its rules record a234=low, but its way digest is "
                                          r"standard's under a234=high: run.json was changed"):
        ap.make_optimal_table(run)
    meta["rules"]["a234"] = "high"
    meta["way"] = "rack-card"
    (run / "run.json").write_text(json.dumps(meta))
    with pytest.raises(ap.RunError, match=r"house way 'rack-card', which is not built in: "
                                          r"pass that way \(--way FILE"):
        ap.make_optimal_table(run)
