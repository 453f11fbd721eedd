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

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .errors import AsiaPokerError

#: Target classes per chunk (chunks end where a rank multiset ends, so they vary a little).
CHUNK = 10_000
RUN_FILE = "run.json"
FORMAT = 1


class RunError(AsiaPokerError):
    """A run directory that does not fit the call (other parameters, a foreign file)."""


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


def little_endian(a: npt.NDArray[Any]) -> bytes:
    """The bytes of ``a`` in C order, little-endian (the same on every machine)."""
    return np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<"), copy=False).tobytes()


def digest(arrays: Sequence[npt.NDArray[Any]]) -> str:
    """sha256 over the bytes of ``arrays`` (little-endian, C order)."""
    h = hashlib.sha256()
    for a in arrays:
        h.update(little_endian(a))
    return h.hexdigest()


class RunDir:
    """A run directory: its parameters and finished chunks."""

    def __init__(self, path: str | os.PathLike[str], params: dict[str, Any]) -> None:
        self.path = Path(path)
        self.params = {"format": FORMAT, **params}
        if self.path.exists() and not self.path.is_dir():
            raise RunError(f"run directory {str(self.path)!r} is a file")
        meta = self.path / RUN_FILE
        if meta.exists():
            try:
                old = json.loads(meta.read_text())
            except (OSError, ValueError) as exc:
                raise RunError(f"{meta} is not a run description: {exc}") from None
            diff = [k for k in sorted(set(old) | set(self.params))
                    if old.get(k) != self.params.get(k)]
            if diff:
                k = diff[0]
                raise RunError(f"{self.path} holds a run with {k}={old.get(k)!r}, this call "
                               f"has {k}={self.params.get(k)!r}; use another directory")
        elif self.path.exists() and any(p.name != "chunks" for p in self.path.iterdir()):
            raise RunError(f"{self.path} is not empty and holds no {RUN_FILE}; use an empty or "
                           f"new directory")
        (self.path / "chunks").mkdir(parents=True, exist_ok=True)
        if not meta.exists():
            _atomic_write(meta, json.dumps(self.params, indent=1, sort_keys=True).encode())

    def chunk_path(self, c: int) -> Path:
        return self.path / "chunks" / f"{c:05d}.npz"

    def done(self, c: int) -> bool:
        return self.chunk_path(c).exists()

    def save(self, c: int, data: dict[str, npt.NDArray[Any]]) -> None:
        """Write chunk ``c`` atomically."""
        fd, tmp = tempfile.mkstemp(dir=self.path / "chunks", prefix=f".{c:05d}-", suffix=".npz")
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez(f, **data)  # type: ignore[arg-type]
            os.chmod(tmp, 0o644)
            os.replace(tmp, self.chunk_path(c))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def load(self, c: int) -> dict[str, npt.NDArray[Any]]:
        with np.load(self.chunk_path(c), allow_pickle=False) as z:
            return {k: z[k] for k in z.files}


def _atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)                 # readable like any other file (mkstemp: 0600)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
