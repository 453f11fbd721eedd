"""The checks of user input, in one place: every public function validates here before it
calls the core, so that bad input is a :class:`ValueError` subclass naming the offending thing
and nothing reaches C unchecked.

>>> whole_number(0, "seeds", 1)
Traceback (most recent call last):
...
asiapoker.errors.OptionError: seeds must be a whole number >= 1, got 0
>>> index_array([3, 105], 2, "splits", 105)
Traceback (most recent call last):
...
asiapoker.errors.AsiaPokerError: splits row 1: index 105 is outside 0..104
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from .cards import card_of, to_ids
from .errors import (
    AsiaPokerError,
    CardError,
    DuplicateCardError,
    HandSizeError,
    OptionError,
    StrategyError,
)

__all__ = ["MAX_HANDS", "MAX_ROUNDS", "MAX_WORKERS", "as_card_array", "bad_row_error",
           "call_user", "index_array", "raise_bad_row", "read_rows", "run_kernel", "whole_number",
           "workers_count"]

MAX_ROUNDS = 10**10
"""The most rounds a simulation plays (about seven hours on two cores)."""
MAX_HANDS = 10**7
"""The most random hands an estimate solves (``sample``, ``hands``: about four hours on two
cores, and the largest sample whose results fit in memory)."""
MAX_WORKERS = 256
"""The most threads a call takes."""

# the integer types the core's kernels take without a copy
_KERNEL_DTYPES = (np.int8, np.uint8, np.int16, np.int32, np.int64)


def whole_number(value: Any, what: str, lo: int = 1, hi: int | None = None,
                 error: type[AsiaPokerError] = OptionError) -> int:
    """``value`` if it is an int (not a bool) in lo..hi, else ``error`` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lo or (
            hi is not None and value > hi):
        span = f"{lo} to {hi}" if hi is not None else f"a whole number >= {lo}"
        raise error(f"{what} must be {span}, got {value!r}")
    return int(value)


def workers_count(workers: int | None, error: type[AsiaPokerError] = OptionError) -> int:
    """``workers`` threads checked (1 to :data:`MAX_WORKERS`), or all cores when None."""
    return whole_number((os.cpu_count() or 1) if workers is None else workers, "workers", 1,
                        MAX_WORKERS, error)


def as_card_array(hands: Any, width: int | tuple[int, ...], what: str) -> npt.NDArray[Any]:
    """An n x width C-contiguous integer array of card ids, or a clear error (the rows are
    checked by the core's kernels, which return the first bad row: see :func:`run_kernel`).
    Read-only, memory-mapped and big-endian arrays are taken; any other iterable of rows (a
    list, tuple, iterator, generator or ``map``) is read once, whole, and rows may be text
    (``"As Kd 7h 7c Jk 2s 9d"``)."""
    rows = read_rows(hands, width, what)
    if not isinstance(rows, np.ndarray):
        _no_bools(rows, what)
    try:
        arr = np.asarray(rows)
    except ValueError as exc:            # numpy: rows of different lengths
        raise HandSizeError(f"{what}: rows of different lengths ({exc})"[:300]) from None
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


def _no_bools(rows: list[Any], what: str) -> None:
    """A True or False among rows of card ids is a mistake, not card 1 or 0."""
    for i, row in enumerate(rows):
        items = row.tolist() if isinstance(row, np.ndarray) and row.dtype.kind == "b" else row
        if isinstance(items, (list, tuple)) and any(isinstance(x, (bool, np.bool_))
                                                    for x in items):
            bad = next(x for x in items if isinstance(x, (bool, np.bool_)))
            raise CardError(f"{what} row {i}: {bad!r} is not a card id (card ids are whole "
                            f"numbers 0..52)")


def read_rows(hands: Any, width: int | tuple[int, ...], what: str) -> Any:
    """``hands`` as an array or a list: an iterable other than an array is read once, whole
    (so an iterator or generator is either taken in full or refused), rows given as text
    become card ids, and an empty one is an n x width array with n = 0."""
    if isinstance(hands, np.ndarray):
        return hands
    if hands is None or isinstance(hands, (str, bytes, int, float)):
        raise CardError(f"{what} must be rows of cards (an n x 7 array of card ids, or a list "
                        f"of rows), got {hands!r}"[:300])
    try:
        rows = list(hands)
    except TypeError:
        raise CardError(f"{what} must be rows of cards (an array, or a list of rows), got "
                        f"{type(hands).__name__}") from None
    if not rows:
        return np.zeros((0, width if isinstance(width, int) else width[0]), dtype=np.int8)
    if any(isinstance(r, str) for r in rows):
        out = []
        for i, r in enumerate(rows):
            try:
                out.append(to_ids(r, what=f"{what} row {i}") if isinstance(r, str) else r)
            except CardError as exc:
                raise type(exc)(f"{what} row {i}: {exc}") from None
        return out
    return rows


def bad_row_error(arr: npt.NDArray[Any], row: int, what: str) -> CardError:
    """The error for the row a kernel rejected, naming it and its bad value."""
    values = [int(v) for v in arr[row]]
    for v in values:
        if not 0 <= v <= 52:
            return CardError(f"{what} row {row}: card id {v} is outside 0..52")
    dup = next(v for i, v in enumerate(values) if v in values[:i])
    name = "a second joker" if dup == 52 else f"duplicate card {card_of(dup)}"
    return DuplicateCardError(f"{what} row {row}: {name}")


def raise_bad_row(bad: int, arr: npt.NDArray[Any], what: str) -> None:
    """Raise for the first bad row a kernel reported (``bad`` >= 0); -1 means all are good,
    and ``-2 - row`` is a row with no class (which a checked row always has)."""
    if bad >= 0:
        raise bad_row_error(arr, bad, what)
    if bad < -1:  # pragma: no cover - every seven distinct cards have a class
        raise AsiaPokerError(f"{what} row {-2 - bad}: no class holds this hand")


def run_kernel(kernel: Callable[..., int], hands: npt.NDArray[Any], what: str,
               *args: Any) -> None:
    """Call a core kernel on ``hands`` (its first argument; every kernel checks its rows and
    returns the first bad one, or -1) and raise the error of the row it reports.  Every call
    of a kernel that takes card rows goes through here (``tests/test_resume.py`` holds the
    package to it; ``suit_classes_kernel`` takes rank counts), so no result goes unchecked."""
    raise_bad_row(kernel(hands, *args), hands, what)


def call_user(fn: Callable[..., Any], what: str, *args: Any) -> Any:
    """``fn(*args)`` for a function the user passed: its own exceptions (and ``sys.exit``)
    become a :class:`asiapoker.errors.StrategyError` naming ``what``; the package's own
    errors pass as they are."""
    try:
        return fn(*args)
    except AsiaPokerError:
        raise
    except (Exception, SystemExit) as exc:
        raise StrategyError(f"{what} raised {type(exc).__name__}: {exc}") from exc


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
