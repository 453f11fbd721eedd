"""Dealer models kept on disk: a model is built once per house way and rule set (about a
second and a half of numpy work over a million class hands), then read back in milliseconds
by every later process.

The cache file is a verified ``.npz`` (:mod:`asiapoker._files`) whose identity is the way's
key, the A-2-3-4 option and a hash of the code the model's layout comes from (the core's
source and the class lists), so a model built by other code is never read.  A damaged or
foreign file is rebuilt with a warning naming it; an unwritable cache folder is a warning.
The arrays are checked against the model's index ranges before the core reads them, so even
a file crafted to pass the checksum cannot make the core read out of bounds.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core, _files
from ._classes import (
    flush_classes,
    flush_rep,
    multisets,
    rank_counts,
    rank_rep,
    subsets,
    with_joker,
)
from ._compile import cache_path, code_digest, default_cache_dir
from .errors import FileError

__all__ = ["MODEL_CACHE", "build_dealer_model", "cached_model", "dealer_model_arrays"]

Triples = Callable[[npt.NDArray[np.int64]], npt.NDArray[np.int32]]

#: The kind of a dealer-model cache file.
MODEL_CACHE = "dealer-model-cache"


def _mask(ranks: npt.NDArray[np.int64]) -> npt.NDArray[np.uint16]:
    """Each row's ranks as a 13-bit mask."""
    mask: npt.NDArray[np.uint16] = np.bitwise_or.reduce(1 << ranks, axis=1).astype(np.uint16)
    return mask


def _packed_counts(o: npt.NDArray[np.int64], width: int, base: int) -> npt.NDArray[np.uint8]:
    """Each row's (rank, count) pairs as ``rank * base + count`` bytes, ``width`` of them,
    0 where unused (the core multiplies table entries: entry 0 is 1)."""
    cnt = rank_counts(o)
    rows, ranks = np.nonzero(cnt)
    pos = np.arange(len(rows)) - np.searchsorted(rows, rows)
    packed = np.zeros((len(o), width), dtype=np.uint8)
    packed[rows, pos] = ranks * base + cnt[rows, ranks]
    return packed


def dealer_model_arrays(triples: Triples, a234_low: int) -> dict[str, npt.NDArray[Any]]:
    """The arrays of the dealer model of the house way given as ``triples`` (n x 7 sorted
    card ids -> n x 3 strengths), named as ``_core.MODEL_ARRAYS`` (``_core/dealer.pxd``
    describes them): the one place that lays out the tables the core reads."""
    reps = []     # every triple we will refer to, in blocks
    # rank classes: no suit can make a flush (4+ suited, or 3+ with the joker)
    rk_rows, rank_joker = [], []
    for joker in (False, True):
        ms = multisets(6 if joker else 7, 4)
        rk_rows.append(ms)
        rank_joker.append(np.full(len(ms), joker))
        reps.append(triples(rank_rep(ms, joker)))
    rank_pairs = np.concatenate([_packed_counts(ms, 7, 5) for ms in rk_rows])
    # single flush suits: suit 0 holds exactly F, the rest O lie in suits 1-3
    flush_ranks, flush_others, flush_joker = [], [], []
    for joker in (False, True):
        for f, o in flush_classes(joker, 3 if joker else 4):
            reps.append(triples(flush_rep(f, o, joker)))
            reps.append(triples(rank_rep(np.hstack([f, o]), joker)))
            flush_ranks.append(_mask(f))
            flush_others.append(_packed_counts(o, 3, 4))
            flush_joker.append(np.full(len(f), joker))
    # two flush suits (3 + 3 + joker): suit 0 holds F1, suit 1 holds F2
    f3 = subsets(3)
    i1, i2 = np.divmod(np.arange(len(f3) ** 2), len(f3))
    f1, f2 = f3[i1], f3[i2]
    reps.append(triples(with_joker(np.hstack([f1 * 4, f2 * 4 + 1]), True)))
    reps.append(triples(flush_rep(f1, f2, True)))
    reps.append(triples(flush_rep(f2, f1, True)))
    reps.append(triples(rank_rep(np.hstack([f1, f2]), True)))

    every = np.concatenate(reps).astype(np.int64)
    keys = (every[:, 0] << 40) | (every[:, 1] << 20) | every[:, 2]
    uniq, tid = np.unique(keys, return_inverse=True)
    tid = tid.astype(np.int32)
    sizes = [len(b) for b in reps]
    blocks = np.split(tid, np.cumsum(sizes)[:-1])
    rank_triple = np.concatenate(blocks[0:2])
    sg_blocks = blocks[2:-4]
    sg_true = np.concatenate(sg_blocks[0::2])
    sg_rank = np.concatenate(sg_blocks[1::2])
    keep = sg_true != sg_rank
    db = np.stack(blocks[-4:], axis=1)
    db_keep = ~(((db[:, 0] == db[:, 1]) & (db[:, 2] == db[:, 3]))
                | ((db[:, 0] == db[:, 2]) & (db[:, 1] == db[:, 3])))
    medium_values = np.unique(_core.table_view(2, a234_low))
    low_values = np.unique(_core.table_view(1, a234_low))
    th, tm, tl = uniq >> 40, (uniq >> 20) & 0xFFFFF, uniq & 0xFFFFF
    return dict(zip(_core.MODEL_ARRAYS, (
        th.astype(np.int32), np.searchsorted(medium_values, tm).astype(np.int16),
        np.searchsorted(low_values, tl).astype(np.int8),
        np.ascontiguousarray(rank_pairs), np.concatenate(rank_joker).astype(np.uint8), rank_triple,
        np.concatenate(flush_ranks)[keep], np.ascontiguousarray(np.concatenate(flush_others)[keep]),
        np.concatenate(flush_joker).astype(np.uint8)[keep],
        np.ascontiguousarray(np.stack([sg_true, sg_rank], 1)[keep]),
        _mask(f1)[db_keep], _mask(f2)[db_keep], np.ascontiguousarray(db[db_keep]),
        medium_values.astype(np.int32), low_values.astype(np.int32)), strict=True))


def build_dealer_model(triples: Triples, a234_low: int) -> _core.DealerModel:
    """The dealer model of the house way given as ``triples``, built afresh (no cache)."""
    return _core.DealerModel(a234_low, **dealer_model_arrays(triples, a234_low))


def _check(arrays: dict[str, npt.NDArray[Any]]) -> None:
    """Raise FileError unless the arrays have the model's names, types and index ranges."""
    dtypes = {"triple_high": np.int32, "triple_medium": np.int16, "triple_low": np.int8,
              "rank_pairs": np.uint8, "rank_joker": np.uint8, "rank_triple": np.int32,
              "flush_ranks": np.uint16, "flush_others": np.uint8, "flush_joker": np.uint8,
              "flush_triples": np.int32, "double_ranks1": np.uint16, "double_ranks2": np.uint16,
              "double_triples": np.int32, "medium_values": np.int32, "low_values": np.int32}
    if set(arrays) != set(_core.MODEL_ARRAYS) or any(
            arrays[k].dtype != np.dtype(t) for k, t in dtypes.items()):
        raise FileError("not the arrays of a dealer model")
    n = len(arrays["triple_high"])
    shapes = {"rank_pairs": 7, "flush_others": 3, "flush_triples": 2, "double_triples": 4}
    ranges = [("triple_medium", 0, 91), ("triple_low", 0, 13), ("rank_pairs", 0, 65),
              ("rank_triple", 0, n), ("flush_others", 0, 52), ("flush_triples", 0, n),
              ("double_triples", 0, n), ("flush_ranks", 0, 1 << 13), ("double_ranks1", 0, 1 << 13),
              ("double_ranks2", 0, 1 << 13)]
    ok = (all(arrays[k].ndim == 2 and arrays[k].shape[1] == w for k, w in shapes.items())
          and len(arrays["triple_medium"]) == len(arrays["triple_low"]) == n
          and len(arrays["rank_pairs"]) == len(arrays["rank_joker"]) == len(arrays["rank_triple"])
          and len(arrays["flush_ranks"]) == len(arrays["flush_others"])
          == len(arrays["flush_joker"]) == len(arrays["flush_triples"])
          and len(arrays["double_ranks1"]) == len(arrays["double_ranks2"])
          == len(arrays["double_triples"])
          and len(arrays["medium_values"]) == 91 and len(arrays["low_values"]) == 13
          # the classes and entries with the joker come last (the core reads them as a tail)
          and all(bool((np.diff((arrays[k] != 0).astype(np.int8)) >= 0).all())
                  for k in ("rank_joker", "flush_joker"))
          and all(arrays[k].size == 0 or (int(arrays[k].min()) >= lo
                                          and int(arrays[k].max()) < hi)
                  for k, lo, hi in ranges))
    if not ok:
        raise FileError("the arrays are not a dealer model's (shapes or index ranges)")


def cached_model(way_key: tuple[str, Any], a234_low: int, triples: Triples
                 ) -> _core.DealerModel:
    """The dealer model of the way ``way_key`` (its :attr:`~asiapoker.HouseWay.key`), read
    from the cache when a verified file is there, else built from ``triples`` and saved.
    ``$ASIAPOKER_CACHE_DIR`` names the cache folder; ``ASIAPOKER_MODEL_CACHE=0`` turns
    this cache off."""
    digest = code_digest()
    if digest is None or os.environ.get("ASIAPOKER_MODEL_CACHE") == "0":
        return build_dealer_model(triples, a234_low)
    identity = {"way": list(way_key), "a234_low": a234_low, "code_sha256": digest}
    path = cache_path(default_cache_dir(), MODEL_CACHE, identity)
    if path.exists():
        try:
            _, arrays = _files.read(path, MODEL_CACHE, identity)
            _check(arrays)
            return _core.DealerModel(a234_low, **arrays)
        except FileError as exc:
            warnings.warn(f"rebuilding the dealer-model cache: {exc}", stacklevel=3)
    arrays = dealer_model_arrays(triples, a234_low)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _files.write(path, MODEL_CACHE, identity, arrays)
    except OSError as exc:
        warnings.warn(f"could not write the dealer-model cache {path}: {exc}", stacklevel=3)
    return _core.DealerModel(a234_low, **arrays)
