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
from ._compile import cache_path, code_digest, default_cache_dir
from .errors import FileError

__all__ = ["MODEL_CACHE", "cached_model"]

#: The kind of a dealer-model cache file.
MODEL_CACHE = "dealer-model-cache"


def _check(arrays: dict[str, npt.NDArray[Any]]) -> None:
    """Raise FileError unless the arrays have the model's names, types and index ranges."""
    dtypes = {"tr_h": np.int32, "tr_md": np.int16, "tr_ld": np.int8, "rk_pairs": np.uint8,
              "rk_joker": np.uint8, "rk_tid": np.int32, "sg_f": np.uint16, "sg_o": np.uint8,
              "sg_joker": np.uint8, "sg_tid": np.int32, "db_f1": np.uint16, "db_f2": np.uint16,
              "db_tid": np.int32, "mvals": np.int32, "lvals": np.int32}
    if set(arrays) != set(_core.MODEL_ARRAYS) or any(
            arrays[k].dtype != np.dtype(t) for k, t in dtypes.items()):
        raise FileError("not the arrays of a dealer model")
    n = len(arrays["tr_h"])
    shapes = {"rk_pairs": 7, "sg_o": 3, "sg_tid": 2, "db_tid": 4}
    ranges = [("tr_md", 0, 91), ("tr_ld", 0, 13), ("rk_pairs", 0, 65), ("rk_tid", 0, n),
              ("sg_o", 0, 52), ("sg_tid", 0, n), ("db_tid", 0, n), ("sg_f", 0, 1 << 13),
              ("db_f1", 0, 1 << 13), ("db_f2", 0, 1 << 13)]
    ok = (all(arrays[k].ndim == 2 and arrays[k].shape[1] == w for k, w in shapes.items())
          and len(arrays["tr_md"]) == len(arrays["tr_ld"]) == n
          and len(arrays["rk_pairs"]) == len(arrays["rk_joker"]) == len(arrays["rk_tid"])
          and len(arrays["sg_f"]) == len(arrays["sg_o"]) == len(arrays["sg_joker"])
          == len(arrays["sg_tid"])
          and len(arrays["db_f1"]) == len(arrays["db_f2"]) == len(arrays["db_tid"])
          and len(arrays["mvals"]) == 91 and len(arrays["lvals"]) == 13
          and all(arrays[k].size == 0 or (int(arrays[k].min()) >= lo
                                          and int(arrays[k].max()) < hi)
                  for k, lo, hi in ranges))
    if not ok:
        raise FileError("the arrays are not a dealer model's (shapes or index ranges)")


def cached_model(way_key: tuple[str, Any], a234_low: int,
                 triples: Callable[[npt.NDArray[np.int64]], npt.NDArray[np.int32]],
                 ) -> _core.DealerModel:
    """The dealer model of the way ``way_key`` (its :attr:`~asiapoker.HouseWay.key`), read
    from the cache when a verified file is there, else built from ``triples`` and saved.
    ``$ASIAPOKER_CACHE_DIR`` names the cache folder; ``ASIAPOKER_MODEL_CACHE=0`` turns
    this cache off."""
    digest = code_digest()
    if digest is None or os.environ.get("ASIAPOKER_MODEL_CACHE") == "0":
        return _core.build_dealer_model(triples, a234_low)
    identity = {"way": list(way_key), "a234_low": a234_low, "code_sha256": digest}
    path = cache_path(default_cache_dir(), MODEL_CACHE, identity)
    if path.exists():
        try:
            _, arrays = _files.read(path, MODEL_CACHE, identity)
            _check(arrays)
            return _core.DealerModel(a234_low, **arrays)
        except FileError as exc:
            warnings.warn(f"rebuilding the dealer-model cache: {exc}", stacklevel=3)
    arrays = _core.dealer_model_arrays(triples, a234_low)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _files.write(path, MODEL_CACHE, identity, arrays)
    except OSError as exc:
        warnings.warn(f"could not write the dealer-model cache {path}: {exc}", stacklevel=3)
    return _core.DealerModel(a234_low, **arrays)
