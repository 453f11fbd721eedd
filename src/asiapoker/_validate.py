"""The checks of user input, in one place: every public function validates here before it
calls the core, so that bad input is a :class:`ValueError` subclass naming the offending thing
and nothing reaches C unchecked.

>>> whole(0, "seeds", 1)
Traceback (most recent call last):
...
asiapoker.errors.AsiaPokerError: seeds must be a whole number >= 1, got 0
>>> index_array([3, 105], 2, "splits", 105)
Traceback (most recent call last):
...
asiapoker.errors.AsiaPokerError: splits row 1: index 105 is outside 0..104
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .cards import card_of
from .errors import AsiaPokerError, CardError, DuplicateCardError, HandSizeError

__all__ = ["as_card_array", "bad_row_error", "checked", "index_array", "whole"]

# the integer types the core's kernels take without a copy
_KERNEL_DTYPES = (np.int8, np.uint8, np.int16, np.int32, np.int64)


def whole(value: Any, what: str, lo: int = 1, hi: int | None = None,
          error: type[AsiaPokerError] = AsiaPokerError) -> int:
    """``value`` if it is an int (not a bool) in lo..hi, else ``error`` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lo or (
            hi is not None and value > hi):
        span = f"{lo} to {hi}" if hi is not None else f"a whole number >= {lo}"
        raise error(f"{what} must be {span}, got {value!r}")
    return int(value)


def as_card_array(hands: Any, width: int | tuple[int, ...], what: str) -> npt.NDArray[Any]:
    """An n x width C-contiguous integer array of card ids, or a clear error (the rows are
    checked by the core's kernels, which return the first bad row: see :func:`checked`).
    Read-only, memory-mapped and big-endian arrays are taken."""
    arr = np.asarray(hands)
    if arr.dtype.kind not in "iu":
        raise CardError(f"{what} must be an integer array of card ids 0..52, got dtype {arr.dtype}")
    if arr.ndim == 1 and isinstance(width, int) and width == 1:
        arr = arr.reshape(-1, 1)
    widths = (width,) if isinstance(width, int) else width
    if arr.ndim != 2 or arr.shape[1] not in widths:
        need = " or ".join(f"n x {w}" for w in widths)
        raise HandSizeError(f"{what} must be an {need} array, got shape {arr.shape}")
    if not arr.dtype.isnative:                 # e.g. big-endian data read from a file
        arr = arr.astype(arr.dtype.newbyteorder("="))
    if arr.dtype.type not in _KERNEL_DTYPES:
        if arr.size and (arr.min() < 0 or arr.max() > 52):
            raise CardError(f"{what} holds a card id outside 0..52")
        arr = arr.astype(np.int64)
    return np.ascontiguousarray(arr)


def bad_row_error(arr: npt.NDArray[Any], row: int, what: str) -> CardError:
    """The error for the row a kernel rejected, naming it and its bad value."""
    values = [int(v) for v in arr[row]]
    for v in values:
        if not 0 <= v <= 52:
            return CardError(f"{what} row {row}: card id {v} is outside 0..52")
    dup = next(v for i, v in enumerate(values) if v in values[:i])
    name = "a second joker" if dup == 52 else f"duplicate card {card_of(dup)}"
    return DuplicateCardError(f"{what} row {row}: {name}")


def checked(bad: int, arr: npt.NDArray[Any], what: str) -> None:
    """Raise for the first bad row a kernel reported (``bad`` >= 0); -1 means all are good."""
    if bad >= 0:
        raise bad_row_error(arr, bad, what)


def index_array(values: Any, n: int, what: str, limit: int,
                error: type[AsiaPokerError] = AsiaPokerError) -> npt.NDArray[np.intp]:
    """``n`` integer indices in 0..limit-1 (one per row), or ``error`` naming the row."""
    k = np.asarray(values)
    if k.shape != (n,) or k.dtype.kind not in "iu":
        raise error(f"{what} must be one integer index per row, shape ({n},); got shape "
                    f"{k.shape} ({k.dtype})")
    wrong = np.flatnonzero((k < 0) | (k >= limit))
    if len(wrong):
        raise error(f"{what} row {int(wrong[0])}: index {int(k[wrong[0]])} is outside "
                    f"0..{limit - 1}")
    return k.astype(np.intp)
