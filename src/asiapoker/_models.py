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

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _cache, _core
from ._classes import (
    flush_classes,
    flush_rep,
    multisets,
    rank_counts,
    rank_rep,
    subsets,
    with_joker,
)
from ._validate import run_kernel
from .errors import FileError

__all__ = ["MODEL_CACHE", "build_dealer_model", "cached_model", "dealer_model_arrays"]

Triples = Callable[[npt.NDArray[np.int64]], npt.NDArray[np.int32]]

MODEL_CACHE = "dealer-model-cache"
"""The kind of a dealer-model cache file."""


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
    # without the joker, then with it; F-major; in a run of one F, the strongest true high
    # first (triple indices ascend with the high strength): the order the core reads
    fr_all = np.concatenate(flush_ranks)
    fj_all = np.concatenate(flush_joker)
    order = np.flatnonzero(keep)
    order = order[np.lexsort((-sg_true[order], fr_all[order], fj_all[order]))]
    db = np.stack(blocks[-4:], axis=1)
    db_keep = ~(((db[:, 0] == db[:, 1]) & (db[:, 2] == db[:, 3]))
                | ((db[:, 0] == db[:, 2]) & (db[:, 1] == db[:, 3])))
    medium_values, low_values = _strength_values(a234_low)
    th, tm, tl = uniq >> 40, (uniq >> 20) & 0xFFFFF, uniq & 0xFFFFF
    rank_joker_all = np.concatenate(rank_joker).astype(np.uint8)
    flush_others_all = np.ascontiguousarray(np.concatenate(flush_others)[order])
    arrays = {
        "triple_high": th.astype(np.int32),
        "triple_medium": np.searchsorted(medium_values, tm).astype(np.int16),
        "triple_low": np.searchsorted(low_values, tl).astype(np.int8),
        "rank_pairs": np.ascontiguousarray(rank_pairs), "rank_joker": rank_joker_all,
        "rank_triple": rank_triple,
        "flush_ranks": fr_all[order], "flush_others": flush_others_all,
        "flush_joker": fj_all.astype(np.uint8)[order],
        "flush_triples": np.ascontiguousarray(np.stack([sg_true, sg_rank], 1)[order]),
        "flush_class": entry_classes(rank_pairs, rank_joker_all, fr_all[order],
                                     flush_others_all, fj_all[order]),
        "double_ranks1": _mask(f1)[db_keep], "double_ranks2": _mask(f2)[db_keep],
        "double_triples": np.ascontiguousarray(db[db_keep]),
        "medium_values": medium_values.copy(), "low_values": low_values.copy()}
    _core.check_layout(arrays)
    return arrays


def entry_classes(rank_pairs: npt.NDArray[Any], rank_joker: npt.NDArray[Any],
                  flush_ranks: npt.NDArray[Any], flush_others: npt.NDArray[Any],
                  flush_joker: npt.NDArray[Any]) -> npt.NDArray[np.int32]:
    """Each flush entry's rank class: the class of the multiset F + O with the entry's joker
    flag, found by each multiset's base-5 number (``_count_keys``; the joker adds 5^13).
    Raises ValueError when an entry has none."""
    keys = (_count_keys(rank_pairs // 5, rank_pairs % 5)
            + np.where(rank_joker != 0, _POW5[13], 0))
    f_bits = (flush_ranks[:, None].astype(np.int64) >> np.arange(13)) & 1
    o_ranks = np.where(flush_others == 0, 13, flush_others // 4)
    fkeys = ((f_bits * _POW5[:13]).sum(1) + _count_keys(o_ranks, flush_others % 4)
             + np.where(flush_joker != 0, _POW5[13], 0))
    order = np.argsort(keys)
    sorted_keys = keys[order]
    pos = np.minimum(np.searchsorted(sorted_keys, fkeys), len(keys) - 1)
    if not np.array_equal(sorted_keys[pos], fkeys):
        raise ValueError("asiapoker: a flush entry has no rank class")
    classes: npt.NDArray[np.int32] = order[pos].astype(np.int32)
    return classes


def build_dealer_model(triples: Triples, a234_low: int) -> _core.DealerModel:
    """The dealer model of the house way given as ``triples``, built afresh (no cache)."""
    return _core.DealerModel(a234_low, **dealer_model_arrays(triples, a234_low))


MODEL_LAYOUT: tuple[tuple[str, np.dtype[Any], int], ...] = tuple(
    (name, np.dtype(dtype), width) for name, dtype, width, _, _ in _core.MODEL_LAYOUT)
"""The dealer model's layout as (name, dtype, width: 0 for a plain vector), in the order of
``_core.MODEL_ARRAYS``: derived from ``_core.MODEL_LAYOUT``, where it is described once
(with each array's group of one length and the bound of its values, from which the checks
of a cached model below are derived); ``_core/dealer.pxd`` says what each holds."""
_SAMPLED_CLASSES = 64
"""Rank classes read back and compared with the way's own triples, per cached model."""
_SAMPLED_ENTRIES = 4096
"""Flush entries whose rank triple is checked against their rank class, per cached model."""
_CHECK_HANDS = np.array([[0, 5, 10, 15, 20, 25, 30], [3, 7, 11, 15, 40, 44, 52]], dtype=np.int8)
"""Hands a cached model is solved on (full deck): their totals must be C(46, 7) and no count
may exceed it.  One plain hand, one with four spades and the joker."""


RANK_CLASSES = (49_205, 18_395)
"""How many rank classes a model has: multisets of 7 ranks (at most 4 of a rank), then of 6
(with the joker); ``tests/test_models.py`` holds them to ``multisets``."""
_POW5 = 5 ** np.arange(14, dtype=np.int64)        # index 13: the rank of no card (count 0)


def _count_keys(ranks: npt.NDArray[Any], counts: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    """Each row's rank multiset as one base-5 number: the sum of count * 5^rank (a column at
    a time, so the temporaries are one column's)."""
    keys = np.zeros(len(ranks), dtype=np.int64)
    for c in range(ranks.shape[1]):
        keys += counts[:, c].astype(np.int64) * _POW5[ranks[:, c]]
    return keys


@functools.cache
def _strength_values(a234_low: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """The distinct medium and low strengths under the A-2-3-4 option, sorted (the values
    ``triple_medium`` and ``triple_low`` index); read-only."""
    out = (np.unique(_core.table_view(2, a234_low)).astype(np.int32),
           np.unique(_core.table_view(1, a234_low)).astype(np.int32))
    for a in out:
        a.setflags(write=False)
    return out


def _check(arrays: dict[str, npt.NDArray[Any]], a234_low: int, triples: Triples) -> None:
    """Raise FileError unless ``arrays`` mean a dealer model of this way: the layout's names,
    dtypes and widths; one length per group; index ranges; the strength values of these
    rules; triples strictly sorted (as built) and each a legal setting; the rank classes
    every multiset of 7 (then 6) ranks once; the joker's classes and entries last (the core
    reads them as a tail); on samples, flush entries' rank triples their rank classes', and
    rank classes set as ``triples`` sets them.  Cheap: a first read costs about what reading
    the file does."""
    try:
        lengths = _core.check_layout(arrays)
    except ValueError as exc:
        raise FileError(str(exc).removeprefix("asiapoker: ")) from None
    n = lengths["triples"]
    for name, _, _, _, bound in _core.MODEL_LAYOUT:
        a = arrays[name]
        hi = lengths[bound] if isinstance(bound, str) else bound
        if hi is not None and a.size and (int(a.min()) < 0 or int(a.max()) >= hi):
            raise FileError(f"array {name} holds an index outside 0..{hi - 1}")
    medium_values, low_values = _strength_values(a234_low)
    if not (np.array_equal(arrays["medium_values"], medium_values)
            and np.array_equal(arrays["low_values"], low_values)):
        raise FileError("the medium and low strength values are not these rules' ")
    th, mi, li = arrays["triple_high"], arrays["triple_medium"], arrays["triple_low"]
    # sorted by (high, medium, low) strengths: the value tables are sorted, so by their indices
    keys = (th.astype(np.int64) << 16) | (mi.astype(np.int64) << 8) | li.astype(np.int64)
    if n == 0 or not (keys[1:] > keys[:-1]).all():
        raise FileError("the dealer's triples are not strictly sorted")
    del keys
    tm = medium_values[mi]
    if not ((th > tm).all() and (tm > low_values[li]).all()):
        raise FileError("a dealer triple is not a legal setting (high > medium > low)")
    # the rank classes: every multiset of 7 ranks (at most 4 of one), then every one of 6
    # (with the joker), each once; bytes are rank * 5 + count, 0 where unused
    packed = arrays["rank_pairs"]
    ranks, counts = packed // 5, packed % 5                 # uint8
    sizes = np.where(arrays["rank_joker"] != 0, 6, 7)
    n7 = int((arrays["rank_joker"] == 0).sum())
    if (int(packed.max(initial=0)) >= 65 or ((packed != 0) & (counts == 0)).any()
            or not (counts.sum(1) == sizes).all()
            or (n7, len(packed) - n7) != RANK_CLASSES):
        raise FileError("the rank classes are not a dealer model's (counts or how many)")
    keys_rank = _count_keys(ranks, counts)
    for k in ("rank_joker", "flush_joker"):
        if not (np.diff((arrays[k] != 0).astype(np.int8)) >= 0).all():
            raise FileError(f"array {k}: the joker's entries are not last")
    blocks = [keys_rank[:n7], keys_rank[n7:]]
    order = [np.argsort(b) for b in blocks]
    sorted_keys = [b[o] for b, o in zip(blocks, order, strict=True)]
    if any((np.diff(k) == 0).any() for k in sorted_keys):
        raise FileError("a rank class is listed twice")
    # a flush entry's second triple is its rank class's: F + O, with its joker flag
    # (on a sample of the entries, spread over the whole list)
    rng = np.random.default_rng(0)
    n_flush = len(arrays["flush_ranks"])
    some = np.sort(rng.choice(n_flush, min(n_flush, _SAMPLED_ENTRIES), replace=False))
    f_bits = (arrays["flush_ranks"][some, None].astype(np.int64) >> np.arange(13)) & 1
    others = arrays["flush_others"][some].astype(np.int64)
    o_ranks = np.where(others == 0, 13, others // 4)
    keys_fo = (f_bits * _POW5[:13]).sum(1) + _count_keys(o_ranks, others % 4)
    cls = np.full(len(some), -1, dtype=np.int64)
    joker = arrays["flush_joker"][some] != 0
    base = 0
    for j, (block_keys, block_order) in enumerate(zip(sorted_keys, order, strict=True)):
        rows = np.flatnonzero(joker == bool(j))
        pos = np.minimum(np.searchsorted(block_keys, keys_fo[rows]), len(block_keys) - 1)
        found = block_keys[pos] == keys_fo[rows]
        cls[rows[found]] = base + block_order[pos[found]]
        base += len(block_keys)
    if (cls < 0).any() or not np.array_equal(arrays["rank_triple"][np.maximum(cls, 0)],
                                             arrays["flush_triples"][some, 1]):
        raise FileError("a flush entry's rank triple is not its rank class's")
    if not np.array_equal(arrays["flush_class"][some], cls):
        raise FileError("a flush entry's rank class is not the class of its ranks")
    # a sample of the rank classes, set as this way sets them
    idx = np.sort(rng.choice(len(packed), _SAMPLED_CLASSES, replace=False))
    for with_joker_ in (False, True):
        rows = idx[(arrays["rank_joker"][idx] != 0) == with_joker_]
        hands = np.array([np.repeat(ranks[i], counts[i]) for i in rows], dtype=np.int64)
        want = np.asarray(triples(rank_rep(hands, with_joker_)), dtype=np.int64)
        t = arrays["rank_triple"][rows]
        got = np.stack([th[t], medium_values[mi[t]], low_values[li[t]]], axis=1)
        if not np.array_equal(got, want):
            raise FileError("its rank classes are not set as this way sets them")


def _check_solves(model: _core.DealerModel) -> None:
    """Raise FileError unless ``model`` counts C(46, 7) dealer hands against full-deck hands
    and no split beats more than that, on either side."""
    total = math.comb(46, 7)
    for side in (0, 1):
        out = np.empty((len(_CHECK_HANDS), 105), dtype=np.int64)
        totals = np.empty(len(_CHECK_HANDS), dtype=np.int64)
        run_kernel(model.solve_rows, _CHECK_HANDS, "check hands", out, totals, side)
        if not ((totals == total).all() and (out >= 0).all() and (out <= total).all()):
            raise FileError(f"a full-deck solve counts {int(totals.min()):,} to "
                            f"{int(totals.max()):,} dealer hands (not {total:,}) or a split "
                            f"beats more than there are")


def cached_model(way_key: tuple[str, Any], a234_low: int, triples: Triples
                 ) -> _core.DealerModel:
    """The dealer model of the way ``way_key`` (its :attr:`asiapoker.HouseWay.key`), read
    from the cache when a verified file is there, else built from ``triples`` and saved.
    ``$ASIAPOKER_CACHE_DIR`` names the cache folder; ``ASIAPOKER_MODEL_CACHE=0`` turns
    this cache off."""
    if not _cache.enabled():
        return build_dealer_model(triples, a234_low)
    identity = {"way": list(way_key), "a234_low": a234_low, "code_sha256": _cache.code_digest()}
    path = _cache.cache_path(_cache.default_cache_dir(), MODEL_CACHE, identity)
    built: list[_core.DealerModel] = []

    def check(arrays: dict[str, npt.NDArray[Any]]) -> None:
        _check(arrays, a234_low, triples)
        try:
            model = _core.DealerModel(a234_low, **arrays)
        except (TypeError, ValueError) as exc:      # pragma: no cover - _check is stricter
            raise FileError(f"{str(path)!r} is not a dealer model: {exc}") from None
        _check_solves(model)
        built.append(model)

    if _cache.load(path, MODEL_CACHE, identity, "dealer-model", check) is not None:
        return built[0]
    arrays = dealer_model_arrays(triples, a234_low)
    _cache.save(path, MODEL_CACHE, identity, arrays, "dealer-model")
    return _core.DealerModel(a234_low, **arrays)
