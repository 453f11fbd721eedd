"""Every split of every class, stored once: the count of dealer hands (of 53,524,680) each of
the 105 splits of each of the 6,972,147 player classes beats, kept by a whole-game run made
with ``analyze(..., every_split=True)`` (``asiapoker analyze --every-split``).

A chunk of such a run holds, beside the usual per-class results, two arrays: ``split_legal``,
each class's legal splits as 105 bits (14 bytes, little-endian bit order), and
``split_wins``, the wins of the legal splits only (int32, class by class, splits in
:data:`asiapoker.SPLIT_POSITIONS` order): about 60 counts a class, 1.7 GB for the whole game.
:class:`SplitCounts` reads them back chunk by chunk, every chunk verified (the run's identity
and a checksum), as an array-like of shape (6,972,147, 105) with the illegal splits as -1.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from . import _core, _files
from ._runs import RUN_FILE, RunDir, chunk_bounds, digest
from ._validate import run_kernel
from .equilibrium import way_digest
from .errors import RunError
from .house_way import HouseWay
from .rules import Rules
from .suit_classes import PLAYER_CLASSES, class_groups

__all__ = ["ILLEGAL", "SPLIT_KEYS", "SplitCounts", "pack_splits", "unpack_splits"]

ILLEGAL = -1
"""The count :class:`SplitCounts` gives an illegal split (it fouls: no dealer hand beaten)."""
SPLIT_KEYS = ("split_legal", "split_wins")
"""The chunk arrays of an every-split run."""
_MASK_BYTES = 14                                 # 105 bits
T = TypeVar("T")


def pack_splits(hands: npt.NDArray[np.int8], wins: npt.NDArray[np.int64],
                rules: Rules) -> dict[str, npt.NDArray[Any]]:
    """The chunk arrays of ``wins`` (n x 105, the solver's counts of checked rows
    ``hands``): the legal splits as bits, and their counts alone.

    Parameters
    ----------
    hands : numpy.ndarray
        Checked seven-card rows.
    wins : numpy.ndarray
        Their 105 counts each.
    rules : Rules
        The rule options (which splits are legal).
    """
    legal = np.empty((len(hands), 105), dtype=np.uint8)
    run_kernel(_core.legal_kernel, np.ascontiguousarray(hands), "hands", rules.a234_low, legal)
    mask = legal.view(np.bool_)
    bits = np.zeros((len(hands), _MASK_BYTES * 8), dtype=bool)
    bits[:, :105] = mask
    return {"split_legal": np.packbits(bits, axis=1, bitorder="little"),
            "split_wins": wins[mask].astype(np.int32)}


def unpack_splits(data: dict[str, npt.NDArray[Any]], n: int) -> npt.NDArray[np.int32]:
    """The n x 105 counts of a chunk's packed arrays, :data:`ILLEGAL` where a split is not
    legal; a chunk whose arrays do not fit together is a :class:`asiapoker.errors.RunError`.

    Parameters
    ----------
    data : dict of str to numpy.ndarray
        The chunk's arrays (:func:`pack_splits`'s among them).
    n : int
        The chunk's classes.
    """
    packed, wins = data.get("split_legal"), data.get("split_wins")
    if (packed is None or wins is None or packed.dtype != np.uint8
            or packed.shape != (n, _MASK_BYTES) or wins.dtype != np.int32 or wins.ndim != 1):
        raise RunError("a chunk without every split's count (not an every-split run)")
    mask = np.unpackbits(packed, axis=1, bitorder="little")[:, :105].astype(bool)
    if int(mask.sum()) != len(wins) or (packed[:, -1] >> 1).any():
        raise RunError("a chunk whose split counts do not fit its legal splits")
    out = np.full((n, 105), ILLEGAL, dtype=np.int32)
    out[mask] = wins
    return out


class SplitCounts:
    """The counts of an every-split run, read without loading them whole: ``counts[rows]``
    (an int, a slice or an array of class numbers) gives those classes' 105 counts,
    :data:`ILLEGAL` for illegal splits; :meth:`chunks` streams them chunk by chunk.  Every
    chunk is verified when it is read (the run's identity and a checksum).

    Parameters
    ----------
    run : path
        The run directory (``analyze(..., every_split=True, out=run)``).
    partial : bool, default False
        Take a run whose chunks are not all there (a shard): reading a missing chunk is an
        error.

    Raises
    ------
    RunError
        Not a run, a run without every split, a run over another class list, or (without
        ``partial``) an unfinished run.
    """

    shape = (PLAYER_CLASSES, 105)
    dtype = np.dtype(np.int32)

    def __init__(self, run: str | os.PathLike[str], partial: bool = False) -> None:
        path = Path(run)
        try:
            params = _files.read_json(path / RUN_FILE, "run description")
        except ValueError as exc:
            raise RunError(f"{str(path)!r} is not an analyze run: {exc}") from None
        if not isinstance(params, dict) or params.get("every_split") is not True:
            raise RunError(f"{str(path)!r} is a run without every split's counts: make one "
                           f"with analyze --every-split (every_split=True)")
        self.edges = chunk_bounds(class_groups())
        if (params.get("classes") != PLAYER_CLASSES
                or params.get("chunk_digest") != digest([self.edges])):
            raise RunError(f"{str(path)!r} is a run over another class list")
        self.path = path
        self.params = params
        self.run = RunDir(path, {k: v for k, v in params.items() if k != "format"},
                          create=False)
        self.missing = [c for c in range(len(self.edges) - 1)
                        if not self.run.chunk_path(c).exists()]
        if self.missing and not partial:
            raise RunError(f"{str(path)!r} is not finished: {len(self.missing)} of "
                           f"{len(self.edges) - 1} chunks to go (run the same analyze "
                           f"command again, or pass partial=True)")

    @property
    def way(self) -> str:
        """The house way's name."""
        return str(self.params["way"])

    @property
    def side(self) -> str:
        """Whose hands the classes are: ``"player"`` (an every-split run of ``analyze``: the
        dealer hands each split beats, the dealer setting by the way) or ``"dealer"``
        (:func:`asiapoker.analysis.dealer_split_counts`: the player hands each split of the
        dealer's hand beats, the players copying the way)."""
        return str(self.params.get("side", "player"))

    @property
    def way_digest(self) -> str:
        """The way's digest under the run's rules."""
        return str(self.params["way_digest"])

    @property
    def rules(self) -> Rules:
        """The run's rule options."""
        return Rules(**self.params["rules"])

    def require_way(self, way: HouseWay, rules: Rules, side: str = "player") -> SplitCounts:
        """This run, when it counts ``side``'s hands against ``way`` under ``rules`` (else a
        :class:`asiapoker.errors.RunError` naming the run and both ways)."""
        if self.way_digest != way_digest(way, rules) or self.rules.to_dict() != rules.to_dict():
            raise RunError(f"{str(self.path)!r} is an every-split run against house way "
                           f"{self.way} ({self.rules.describe()}), not {way.name} "
                           f"({rules.describe()})")
        if self.side != side:
            raise RunError(f"{str(self.path)!r} counts the {self.side}'s hands, not the "
                           f"{side}'s")
        return self

    def describe(self) -> str:
        """What the counts are of."""
        have = len(self.edges) - 1 - len(self.missing)
        return (f"every split of {PLAYER_CLASSES:,} classes"
                + (" as the dealer's hand" if self.side == "dealer" else "")
                + f" against house way {self.way} "
                f"({self.rules.describe()}); {have} of {len(self.edges) - 1} chunks")

    def chunk(self, c: int) -> tuple[int, int, dict[str, npt.NDArray[Any]]]:
        """(first class, end, the verified chunk's arrays, ``counts`` among them: n x 105) of
        chunk ``c``."""
        try:
            data = self.run.load(c)
        except RunError as exc:
            raise RunError(f"split counts: {exc}") from None
        lo, hi = int(self.edges[c]), int(self.edges[c + 1])
        try:
            counts = unpack_splits(data, hi - lo)
        except RunError as exc:
            raise RunError(f"{self.run.chunk_path(c)}: {exc}") from None
        return lo, hi, {**data, "counts": counts}

    def chunks(self) -> Iterator[tuple[int, int, dict[str, npt.NDArray[Any]]]]:
        """Every chunk the run holds, in order (:meth:`chunk`)."""
        gone = set(self.missing)
        for c in range(len(self.edges) - 1):
            if c not in gone:
                yield self.chunk(c)

    def map(self, fn: Callable[[int, int, dict[str, npt.NDArray[Any]]], T],
            workers: int = 2) -> Iterator[T]:
        """``fn(first class, end, chunk)`` of every chunk the run holds, in chunk order,
        computed on ``workers`` threads (reading, verifying and unpacking a chunk release the
        GIL for the most part).

        Parameters
        ----------
        fn : callable
            Called with a chunk's first class, its end and its arrays (:meth:`chunk`).
        workers : int, default 2
            Threads.
        """
        held = [c for c in range(len(self.edges) - 1) if c not in set(self.missing)]
        if workers == 1:
            for c in held:
                yield fn(*self.chunk(c))
            return
        with ThreadPoolExecutor(workers) as pool:
            yield from pool.map(lambda c: fn(*self.chunk(c)), held)

    def __len__(self) -> int:
        return PLAYER_CLASSES

    def __getitem__(self, rows: Any) -> npt.NDArray[np.int32]:
        if isinstance(rows, slice):
            rows = np.arange(PLAYER_CLASSES)[rows]
        scalar = np.ndim(rows) == 0
        idx = np.atleast_1d(np.asarray(rows))
        if idx.dtype.kind not in "iu" or idx.ndim != 1:
            raise RunError(f"split counts are read by class numbers, got {rows!r}"[:200])
        if len(idx) and (int(idx.min()) < -PLAYER_CLASSES or int(idx.max()) >= PLAYER_CLASSES):
            raise RunError(f"a class number outside 0..{PLAYER_CLASSES - 1}")
        idx = np.where(idx < 0, idx + PLAYER_CLASSES, idx).astype(np.int64)
        out = np.empty((len(idx), 105), dtype=np.int32)
        which = np.searchsorted(self.edges, idx, side="right") - 1
        for c in np.unique(which):
            lo, _, data = self.chunk(int(c))
            sel = which == c
            out[sel] = data["counts"][idx[sel] - lo]
        return out[0] if scalar else out

    def digest(self) -> str:
        """sha256 over every chunk's packed counts, in order: the same for two builds that
        count alike."""
        h = hashlib.sha256()
        for c in range(len(self.edges) - 1):
            if c in self.missing:
                continue
            data = self.run.load(c)
            for key in SPLIT_KEYS:
                h.update(_files.little_endian(data[key]))
        return h.hexdigest()
