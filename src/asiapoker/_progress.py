"""Progress of long computations on stderr: a one-line bar on a terminal, else a plain line
every few seconds (so a log or a CI job shows that a 12-minute run is alive)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

LINE_EVERY = 10.0
"""Seconds between two plain lines when stderr is not a terminal."""


ProgressCallback = Callable[[int, int], object]
"""A function told ``(done, total)`` as a long computation goes."""


class Progress:
    """Progress of ``total`` steps under ``label``, as ``show`` says: nothing when False; a
    function is called with ``(done, total)`` at every update; True prints on stderr, on a
    terminal a bar refreshed twice a second, elsewhere a line every :data:`LINE_EVERY`
    seconds (and a last one when it ends, if any was printed)."""

    def __init__(self, total: int, label: str, show: bool | ProgressCallback) -> None:
        self.callback = show if callable(show) else None
        self.total, self.label = total, label
        self.enabled = bool(show) and self.callback is None
        self.tty = self.enabled and sys.stderr.isatty()
        self.start = self.last = time.monotonic()
        self.printed = False

    def update(self, done: int) -> None:
        """Say that ``done`` of the steps are done."""
        if self.callback is not None:
            self.callback(done, self.total)
            return
        now = time.monotonic()
        finished = done >= self.total
        every = 0.5 if self.tty else LINE_EVERY
        if not self.enabled or (now - self.last < every and not finished) or (
                finished and not self.tty and not self.printed):
            return
        self.last = now
        frac = done / self.total if self.total else 1.0
        eta = (now - self.start) * (1 - frac) / frac if frac else 0.0
        if self.tty:
            bar = "#" * int(30 * frac)
            sys.stderr.write(f"\r{self.label} [{bar:<30}] {frac:6.1%} {done:,}/{self.total:,} "
                             f"ETA {eta:5.0f}s" + ("\n" if finished else ""))
        else:
            tail = (f"done in {now - self.start:.0f} s" if finished else
                    f"about {eta:.0f} s to go")
            sys.stderr.write(f"{self.label}: {frac:.1%} ({done:,} of {self.total:,}), {tail}\n")
        self.printed = True
        sys.stderr.flush()


class ChunkBar:
    """Progress of a run's chunks: tqdm's bar on a terminal when it is installed (rate and
    ETA), else :class:`Progress`."""

    def __init__(self, total: int, done: int, enabled: bool) -> None:
        self.tqdm: Any = None
        self.plain: Progress | None = None
        self.done = done
        if not enabled:
            return
        try:
            if not sys.stderr.isatty():            # tqdm redraws; a log wants plain lines
                raise ImportError
            from tqdm import tqdm
        except ImportError:
            self.plain = Progress(total, "analyze: chunks", True)
        else:
            self.tqdm = tqdm(total=total, initial=done, unit="chunk", desc="analyze",
                             dynamic_ncols=True)

    def update(self, n: int) -> None:
        """``n`` more chunks are done."""
        self.done += n
        if self.tqdm is not None:
            self.tqdm.update(n)
        elif self.plain is not None:
            self.plain.update(self.done)

    def close(self) -> None:
        """End the bar."""
        if self.tqdm is not None:
            self.tqdm.close()


def chunk_bar(total: int, done: int, progress: bool | None) -> ChunkBar:
    """A :class:`ChunkBar` of ``total`` chunks, ``done`` already; ``progress`` None: on a
    terminal only."""
    on = sys.stderr.isatty() if progress is None else bool(progress)
    return ChunkBar(total, done, on and total > done)
