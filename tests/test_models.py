"""The dealer-model disk cache: a model read back equals one built; a damaged, crafted or
foreign file is rebuilt with a warning; an unwritable folder is a warning."""

import shutil
import warnings

import numpy as np
import pytest

from asiapoker import Rules, _files, _models, count_splits
from asiapoker._cache import code_digest
from asiapoker._core import DealerModel
from asiapoker._models import _SAMPLED_CLASSES, MODEL_CACHE, cached_model, dealer_model_arrays
from asiapoker.house_way import resolve_way

WAY = resolve_way("classic")


def _triples(ids):
    return WAY.strengths(ids, Rules())


def _not_rebuilt(ids):
    """``triples`` for a read that must not rebuild: a read sets a sample of the rank classes
    (to check the file), a build sets every class."""
    if len(ids) > _SAMPLED_CLASSES:
        pytest.fail("rebuilt")
    return _triples(ids)


def _counts(model, rows):
    out = np.empty((len(rows), 105), dtype=np.int64)
    assert model.solve_rows(rows, out, np.empty(len(rows), dtype=np.int64)) == -1
    return out


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ASIAPOKER_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("ASIAPOKER_MODEL_CACHE", raising=False)
    return tmp_path


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """One cache file of classic's model, built once for the module's tests to copy."""
    folder = tmp_path_factory.mktemp("models")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ASIAPOKER_CACHE_DIR", str(folder))
        mp.delenv("ASIAPOKER_MODEL_CACHE", raising=False)
        cached_model(WAY.key, 0, _triples)
    return next(folder.glob(f"{MODEL_CACHE}-*.npz"))


@pytest.fixture(scope="module")
def built_arrays():
    """classic's model arrays, built once for the module."""
    return dealer_model_arrays(_triples, 0)


ROWS = np.argsort(np.random.default_rng(3).random((12, 53)), axis=1)[:, :7].astype(np.int8)


def test_a_cached_model_is_the_built_one(cache):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        built = cached_model(WAY.key, 0, _triples)            # builds and writes
        files = list(cache.glob(f"{MODEL_CACHE}-*.npz"))
        assert len(files) == 1
        read = cached_model(WAY.key, 0, _not_rebuilt)
    _, arrays = _files.read(files[0], MODEL_CACHE)
    fresh = dealer_model_arrays(_triples, 0)
    assert set(arrays) == set(fresh) and all((arrays[k] == fresh[k]).all() for k in fresh)
    assert (_counts(read, ROWS) == _counts(built, ROWS)).all()
    assert (_counts(read, ROWS) == count_splits(ROWS, "classic")).all()


def _spoil(path, how):
    if how == "flip":
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0xFF
        path.write_bytes(bytes(data))
    else:                          # crafted: passes the checksum, but is not a model's
        meta, arrays = _files.read(path, MODEL_CACHE)
        if how == "crafted":       # an index out of range
            arrays["flush_triples"] = arrays["flush_triples"].copy()
            arrays["flush_triples"][0, 0] = 10**8
        else:                      # a class with the joker before one without
            arrays["rank_joker"] = arrays["rank_joker"][::-1].copy()
        _files.write(path, MODEL_CACHE, meta["identity"], arrays)


def test_the_model_reads_the_classes_with_the_joker_as_a_tail():
    arrays = dealer_model_arrays(_triples, 0)
    assert (np.diff(arrays["rank_joker"].astype(int)) >= 0).all() and arrays["rank_joker"][-1]
    assert (np.diff(arrays["flush_joker"].astype(int)) >= 0).all() and arrays["flush_joker"][-1]
    for name in ("rank_joker", "flush_joker"):
        spoiled = dict(arrays, **{name: arrays[name][::-1].copy()})
        with pytest.raises(ValueError, match="joker last"):
            DealerModel(0, **spoiled)


def _zero_column(a):
    a = a.copy()
    a[:] = 0
    return a


#: Files with the right identity and a fresh checksum whose arrays do not mean a model:
#: (id, how the arrays are spoiled, words of the warning).
CRAFTED = [
    ("rank-triples-zeroed", lambda a: {**a, "rank_triple": _zero_column(a["rank_triple"])},
     "rank"),
    ("high-reversed", lambda a: {**a, "triple_high": a["triple_high"][::-1].copy()},
     "not strictly sorted"),
    ("all-empty", lambda a: {k: v[:0].copy() for k, v in a.items()},
     "the medium and low strength values are not these rules'"),
    ("extra-dimension", lambda a: {**a, "triple_low": a["triple_low"][:, None].copy()},
     "array triple_low is int8"),
    ("wrong-dtype", lambda a: {**a, "triple_high": a["triple_high"].astype(np.int64)},
     "array triple_high is int64"),
    ("short-column", lambda a: {**a, "triple_low": a["triple_low"][:-1].copy()},
     "differ in length"),
    ("missing-array", lambda a: {k: v for k, v in a.items() if k != "low_values"}, "names"),
    ("other-rules-values", lambda a: {**a, "medium_values": a["medium_values"][::-1].copy()},
     "strength values"),
    ("illegal-triple", lambda a: {**a, "triple_medium": np.full_like(a["triple_medium"], 90)},
     "the dealer's triples are not strictly sorted"),
    ("rank-classes-shuffled", lambda a: {**a, "rank_pairs": a["rank_pairs"][::-1].copy()},
     "rank"),
    ("rank-class-twice", lambda a: {**a, "rank_pairs": np.vstack([a["rank_pairs"][:1],
                                                                   a["rank_pairs"][:-1]])},
     "rank"),
    ("rank-class-eight-cards", lambda a: {**a, "rank_pairs": np.where(
        np.arange(len(a["rank_pairs"]))[:, None] == 3, a["rank_pairs"] + 1,
        a["rank_pairs"]).astype(np.uint8)}, "counts"),
    ("flush-triples-swapped", lambda a: {**a, "flush_triples": a["flush_triples"][::-1].copy()},
     "rank triple is not its rank class's"),
    ("flush-others-shifted", lambda a: {**a, "flush_others": np.roll(a["flush_others"], 1, 0)},
     "rank triple is not its rank class's"),
]


@pytest.mark.parametrize(("spoil", "words"), [c[1:] for c in CRAFTED], ids=[c[0] for c in CRAFTED])
def test_a_crafted_model_is_rebuilt_with_a_warning_naming_it(cache, built, built_arrays,
                                                            monkeypatch, spoil, words):
    """A cached model is checked for what it means, not only for its checksum: every such
    file is rebuilt, with a warning that names the file and what is wrong, and the answers
    are the built model's.  (The rebuild takes the arrays built once for the module: what is
    tested here is the check and the rebuild path; the build is tested above.)"""
    monkeypatch.setattr(_models, "dealer_model_arrays", lambda triples, a234: built_arrays)
    path = cache / built.name
    shutil.copy(built, path)
    meta, arrays = _files.read(path, MODEL_CACHE)
    _files.write(path, MODEL_CACHE, meta["identity"], spoil(arrays))
    with pytest.warns(UserWarning) as record:
        model = cached_model(WAY.key, 0, _triples)
    message = " ".join(str(w.message) for w in record)
    assert "rebuilding the dealer-model cache" in message and path.name in message, message
    assert words in message, message
    assert (_counts(model, ROWS) == count_splits(ROWS, "classic")).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")                      # the rebuilt file is good
        cached_model(WAY.key, 0, _not_rebuilt)


@pytest.mark.parametrize("how", ["flip", "crafted", "joker first"])
def test_a_spoiled_file_is_rebuilt(cache, built, how):
    path = cache / built.name
    shutil.copy(built, path)
    _spoil(path, how)
    with pytest.warns(UserWarning, match="rebuilding the dealer-model cache"):
        model = cached_model(WAY.key, 0, _triples)
    assert (_counts(model, ROWS) == count_splits(ROWS, "classic")).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")                      # the rebuilt file is good
        cached_model(WAY.key, 0, _not_rebuilt)


def test_identity_names_way_rules_and_code(cache, built):
    shutil.copy(built, cache / built.name)
    cached_model(WAY.key, 0, _not_rebuilt)
    cached_model(WAY.key, 1, lambda ids: WAY.strengths(ids, Rules(a234="low")))
    assert len(list(cache.glob(f"{MODEL_CACHE}-*.npz"))) == 2
    meta, _ = _files.read(next(cache.glob(f"{MODEL_CACHE}-*.npz")), MODEL_CACHE)
    assert meta["identity"]["code_sha256"] == code_digest() and len(code_digest()) == 64


def test_unwritable_folder_and_switched_off(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("ASIAPOKER_CACHE_DIR", str(blocked / "sub"))
    with pytest.warns(UserWarning, match="could not write the dealer-model cache"):
        model = cached_model(WAY.key, 0, _triples)
    assert (_counts(model, ROWS) == count_splits(ROWS, "classic")).all()
    monkeypatch.setenv("ASIAPOKER_CACHE_DIR", str(tmp_path / "off"))
    monkeypatch.setenv("ASIAPOKER_MODEL_CACHE", "0")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cached_model(WAY.key, 0, _triples)
    assert not (tmp_path / "off").exists()


def test_the_class_table_cache(cache):
    """The class table read back from its cache is the one built; a spoiled file is rebuilt."""
    from asiapoker._compile import CLASS_CACHE, _build_class_table, _cached_class_table
    keys, reps = _build_class_table()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        first = _cached_class_table()                         # builds and writes
        second = _cached_class_table()                        # reads
    for got in (first, second):
        assert (got[0] == keys).all() and (got[1] == reps).all()
        assert got[1].dtype == np.int64
    path = next(cache.glob(f"{CLASS_CACHE}-*.npz"))
    meta, arrays = _files.read(path, CLASS_CACHE)
    arrays["keys"] = arrays["keys"][::-1].copy()              # crafted: checksum fine, unsorted
    _files.write(path, CLASS_CACHE, meta["identity"], arrays)
    with pytest.warns(UserWarning, match="rebuilding the class-table cache"):
        again = _cached_class_table()
    assert (again[0] == keys).all()


def _shifted_keys(a):                  # sorted and distinct, but not the keys of their hands
    return {**a, "keys": a["keys"] + 1}


def _one_class_short(a):
    return {"keys": a["keys"][1:].copy(), "reps": a["reps"][1:].copy()}


def _duplicate_card(a):
    reps = a["reps"].copy()
    reps[5, 1] = reps[5, 0]
    return {**a, "reps": reps}


@pytest.mark.parametrize("spoil", [_shifted_keys, _one_class_short, _duplicate_card])
def test_a_crafted_class_table_cache_is_rebuilt_naming_it(cache, spoil):
    """A class table whose checksum is fine but whose keys are not its hands' (so that every
    stored way would read the wrong split), or that misses a class, is rebuilt with a warning
    naming the cache file; a stored way then reads its own answers."""
    from asiapoker._compile import CLASS_CACHE, _build_class_table, _cached_class_table
    keys, reps = _build_class_table()
    _cached_class_table()
    path = next(cache.glob(f"{CLASS_CACHE}-*.npz"))
    meta, arrays = _files.read(path, CLASS_CACHE)
    _files.write(path, CLASS_CACHE, meta["identity"], spoil(arrays))
    with pytest.warns(UserWarning, match="rebuilding the class-table cache") as record:
        again = _cached_class_table()
    assert path.name in str(record[0].message)
    assert (again[0] == keys).all() and (again[1] == reps).all()


def test_the_rank_class_counts_are_the_multisets():
    from asiapoker._classes import multisets
    from asiapoker._models import RANK_CLASSES
    assert RANK_CLASSES == (len(multisets(7, 4)), len(multisets(6, 4)))


def test_the_layout_is_enforced_on_every_array():
    """check_layout (what DealerModel and the cache's check rely on) refuses each way a
    model's arrays can be off the layout, naming the array: a missing or extra one, another
    dtype, another width, a Fortran-ordered copy, and groups of unequal lengths."""
    from asiapoker import _core
    arrays = dealer_model_arrays(_triples, 0)
    assert set(_core.check_layout(arrays)) == {row[3] for row in _core.MODEL_LAYOUT}
    members = [row[3] for row in _core.MODEL_LAYOUT]
    for name, _dtype, width, group, _ in _core.MODEL_LAYOUT:
        a = arrays[name]
        bad = [({k: v for k, v in arrays.items() if k != name}, "names"),
               ({**arrays, name: a.astype(np.float64)}, name)]
        if members.count(group) > 1:                  # a length only its group can check
            bad.append(({**arrays, name: a[:-1] if len(a) else np.zeros((1, *a.shape[1:]),
                                                                        a.dtype)}, group))
        if width:
            bad.append(({**arrays, name: np.ascontiguousarray(a[:, :-1])}, name))
        if width > 1 and len(a) > 1:
            bad.append(({**arrays, name: np.asfortranarray(a)}, name))
        for spoiled, words in bad:
            with pytest.raises(ValueError, match=words):
                _core.check_layout(spoiled)
    with pytest.raises(ValueError, match="names"):
        _core.check_layout({**arrays, "extra": np.zeros(3)})


def _core_arrays():
    from asiapoker import _core
    return tuple(_core.MODEL_ARRAYS)
