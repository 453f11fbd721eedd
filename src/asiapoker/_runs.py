"""Whole-game runs that survive: classes solved in chunks, each written atomically to a run
directory, resumed by the same call, on threads or on a Dask cluster.

A run directory holds ``run.json`` (what the run computes: way, rules, player, the class
list's digest and the chunking) and ``chunks/NNNNN.npz`` (one per finished chunk).  A chunk
file appears whole or not at all (written to a temporary name, then renamed), so a killed run
loses at most the chunks it was computing, and a resumed run recomputes nothing that
finished.  Every chunk is a pure function of the run's parameters, so a resumed, sharded or
distributed run gives exactly the totals of a run in one go.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _files
from ._files import little_endian
from .errors import FileError, RunError

CHUNK = 10_000
"""Target classes per chunk (chunks end where a rank multiset ends, so they vary a little)."""
RUN_FILE = "run.json"
FORMAT = 3
"""3: chunks hold ``best_ties`` (optimal-play tables need it); a format-2 run is refused"""


def chunk_bounds(groups: npt.NDArray[np.int32], size: int = CHUNK) -> npt.NDArray[np.int64]:
    """Chunk edges over the classes: about ``size`` classes each, never splitting the classes
    of one rank multiset (``groups`` is non-decreasing)."""
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])   # first class of a group
    edges = [0]
    for s in starts[1:]:
        if s - edges[-1] >= size:
            edges.append(int(s))
    edges.append(len(groups))
    return np.array(edges, dtype=np.int64)


def shard_chunks(n: int, shard: tuple[int, int] | None) -> list[int]:
    """The chunks of shard ``(i, k)``: every k-th chunk from the i-th (all when None)."""
    if shard is None:
        return list(range(n))
    i, k = shard
    return list(range(i, n, k))


def parse_shard(text: str | tuple[int, int] | None) -> tuple[int, int] | None:
    """``"I/N"`` (or a pair) -> (I, N) with 0 <= I < N, checked."""
    if text is None:
        return None
    if isinstance(text, str):
        try:
            i, k = (int(x) for x in text.split("/"))
        except ValueError:
            raise RunError(f"shard must be I/N with whole numbers, got {text!r}") from None
    else:
        try:
            i, k = text
        except (TypeError, ValueError):
            raise RunError(f"shard must be a pair (I, N), got {text!r}") from None
    if (isinstance(i, bool) or isinstance(k, bool) or not isinstance(i, int)
            or not isinstance(k, int) or k < 1 or not 0 <= i < k):
        raise RunError(f"shard must be I/N with 0 <= I < N, got {text!r}")
    return (i, k)


def digest(arrays: Sequence[npt.NDArray[Any]]) -> str:
    """sha256 over the bytes of ``arrays`` (little-endian, C order)."""
    h = hashlib.sha256()
    for a in arrays:
        h.update(little_endian(a))
    return h.hexdigest()


CHUNK_KIND = "run-chunk"


class RunDir:
    """A run directory: its parameters and finished chunks.  Every chunk records the run's
    parameters and its number, and is used only when they and its checksum check."""

    def __init__(self, path: str | os.PathLike[str], params: dict[str, Any],
                 create: bool = True) -> None:
        self.path = Path(path)
        self.params = {"format": FORMAT, **params}
        if self.path.exists() and not self.path.is_dir():
            raise RunError(f"run directory {str(self.path)!r} is a file")
        meta = self.path / RUN_FILE
        if not meta.exists():
            if not create:
                raise RunError(f"{str(self.path)!r} holds no {RUN_FILE}: not a run directory")
            if self.path.exists() and any(not _ours(p) for p in self.path.iterdir()):
                raise RunError(f"{self.path} is not empty and holds no {RUN_FILE}; use an "
                               f"empty or new directory")
            (self.path / "chunks").mkdir(parents=True, exist_ok=True)
            _create_once(meta, json.dumps(self.params, indent=1, sort_keys=True).encode())
        try:
            old = _files.read_json(meta, "run description")
            if not isinstance(old, dict):
                raise ValueError("not a JSON object")
        except ValueError as exc:
            raise RunError(f"{meta} is not a run description: {exc}") from None
        diff = [k for k in sorted(set(old) | set(self.params))
                if old.get(k) != self.params.get(k)]
        if diff:
            k = diff[0]
            raise RunError(f"{self.path} holds a run with {k}={old.get(k)!r}, this call "
                           f"has {k}={self.params.get(k)!r}; use another directory")
        (self.path / "chunks").mkdir(exist_ok=True)

    def chunk_path(self, c: int) -> Path:
        return self.path / "chunks" / f"{c:05d}.npz"

    def identity(self, c: int) -> dict[str, Any]:
        """What chunk ``c`` of this run holds: the run's parameters and the chunk's number."""
        return {"run": self.params, "chunk": c}

    def done(self, c: int) -> bool:
        """Whether chunk ``c`` is finished: its file exists and verifies.  A damaged or
        foreign file is set aside (renamed ``NNNNN.bad``, or ``NNNNN.K.bad`` when one is there
        already: :func:`asiapoker._files.set_aside`) with a warning naming it, and the chunk
        is computed again."""
        path = self.chunk_path(c)
        if not path.exists():
            return False
        try:
            self.load(c)
        except RunError as exc:
            moved = _files.set_aside(path)
            kept = f" (kept as {moved.name})" if moved is not None else ""
            warnings.warn(f"recomputing chunk {c}: {exc}{kept}", stacklevel=2)
            return False
        return True

    def save(self, c: int, data: dict[str, npt.NDArray[Any]]) -> None:
        """Write chunk ``c`` atomically, with the run's identity and a checksum."""
        _files.write(self.chunk_path(c), CHUNK_KIND, self.identity(c), data)

    def load(self, c: int) -> dict[str, npt.NDArray[Any]]:
        """Chunk ``c``, verified; :class:`RunError` naming the file when it is missing,
        damaged or from another run."""
        try:
            return _files.read(self.chunk_path(c), CHUNK_KIND, self.identity(c))[1]
        except FileError as exc:
            raise RunError(str(exc)) from None


def _ours(p: Path) -> bool:
    """What a run being started in a directory puts there first (so that several processes
    may start the same run at once)."""
    return p.name == "chunks" or p.name.startswith(f".{RUN_FILE}-")


def _create_once(path: Path, data: bytes) -> None:
    """Write ``path`` unless it exists, atomically even when several processes race: the
    first to link its whole temporary file wins, the others read the winner's."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        with contextlib.suppress(FileExistsError):
            os.link(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)


def _apply(work: Callable[[int], Any], c: int) -> Any:
    return work(c)


def run_chunks(todo: list[int], work: Callable[[int], dict[str, npt.NDArray[Any]]],
               workers: int, client: Any = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (chunk, result) as chunks finish: on ``workers`` threads (the core releases the
    GIL), or as tasks of a Dask ``client``."""
    if client is not None:
        from distributed import as_completed
        shared = client.scatter(work, broadcast=True, hash=False)    # shipped once
        futures = {client.submit(_apply, shared, c, pure=False): c for c in todo}
        for fut in as_completed(futures):
            yield futures[fut], fut.result()
        return
    if workers == 1:
        for c in todo:
            yield c, work(c)
        return
    with ThreadPoolExecutor(workers) as pool:
        pending: dict[Future[dict[str, Any]], int] = {}
        queue = iter(todo)
        try:
            for c in queue:
                pending[pool.submit(work, c)] = c
                if len(pending) >= 2 * workers:
                    break
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    c = pending.pop(fut)
                    yield c, fut.result()
                    nxt = next(queue, None)
                    if nxt is not None:
                        pending[pool.submit(work, nxt)] = nxt
        finally:
            for fut in pending:
                fut.cancel()


SUMMARY_KIND = "analysis-summary"


def write_summary(path: str | os.PathLike[str], data: dict[str, Any]) -> None:
    """Write a run's summary atomically as JSON with its kind and a checksum of the rest; a
    summary of no hands is a :class:`RunError` (there is no figure of nothing)."""
    _check_hands(data, str(path))
    body = {**data, "kind": SUMMARY_KIND}
    body["checksum"] = _checksum(body)
    _files.atomic_write(path, json.dumps(body, indent=1, allow_nan=False).encode())


def read_summary(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A summary written by :func:`write_summary`, verified: a damaged or foreign file is a
    :class:`RunError` naming it."""
    where = str(path)
    if not os.path.lexists(path):
        raise RunError(f"no analysis summary at {where!r}")
    try:
        data = _files.read_json(path, "analysis summary")
    except ValueError as exc:
        raise RunError(f"{where!r} is not an analysis summary: {exc}") from None
    if not isinstance(data, dict) or data.get("kind") != SUMMARY_KIND:
        raise RunError(f"{where!r} is not an analysis summary asiapoker wrote")
    if data.get("checksum") != _checksum(data):
        raise RunError(f"{where!r} is damaged: its contents do not match their checksum")
    _check_hands(data, where)
    return data


def _check_hands(data: dict[str, Any], where: str) -> None:
    """A summary's figures cover at least one class and one hand each."""
    figures = data.get("figures")
    classes = data.get("classes")
    if (not isinstance(classes, int) or isinstance(classes, bool) or classes < 1
            or not isinstance(figures, dict) or not figures
            or not all(isinstance(f, dict) and isinstance(f.get("hands"), int)
                       and f["hands"] >= 1 for f in figures.values())):
        raise RunError(f"{where!r}: a summary of no hands (classes {classes!r}): there are "
                       f"no figures of nothing")


def _checksum(body: dict[str, Any]) -> str:
    rest = {k: v for k, v in body.items() if k != "checksum"}
    return hashlib.sha256(json.dumps(rest, sort_keys=True, separators=(",", ":"),
                                     allow_nan=False).encode()).hexdigest()
