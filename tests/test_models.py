"""The dealer-model disk cache: a model read back equals one built; a damaged, crafted or
foreign file is rebuilt with a warning; an unwritable folder is a warning."""

import shutil
import warnings

import numpy as np
import pytest

from asiapoker import Rules, _files, count_splits
from asiapoker._compile import code_digest
from asiapoker._core import DealerModel
from asiapoker._models import MODEL_CACHE, cached_model, dealer_model_arrays
from asiapoker.house_way import resolve_way

WAY = resolve_way("classic")


def _triples(ids):
    return WAY.strengths(ids, Rules())


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


ROWS = np.argsort(np.random.default_rng(3).random((12, 53)), axis=1)[:, :7].astype(np.int8)


def test_a_cached_model_is_the_built_one(cache):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        built = cached_model(WAY.key, 0, _triples)            # builds and writes
        files = list(cache.glob(f"{MODEL_CACHE}-*.npz"))
        assert len(files) == 1
        read = cached_model(WAY.key, 0, lambda ids: pytest.fail("rebuilt"))
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
        cached_model(WAY.key, 0, lambda ids: pytest.fail("rebuilt"))


def test_identity_names_way_rules_and_code(cache, built):
    shutil.copy(built, cache / built.name)
    cached_model(WAY.key, 0, lambda ids: pytest.fail("rebuilt"))
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
