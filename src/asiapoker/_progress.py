"""A one-line progress bar on stderr for long computations."""

from __future__ import annotations

import sys
import time


class Progress:
    """A one-line progress bar on stderr, refreshed at most twice a second."""

    def __init__(self, total: int, label: str, enabled: bool) -> None:
        self.total, self.label, self.enabled = total, label, enabled
        self.start = self.last = time.monotonic()

    def update(self, done: int) -> None:
        now = time.monotonic()
        if not self.enabled or (now - self.last < 0.5 and done < self.total):
            return
        self.last = now
        frac = done / self.total
        eta = (now - self.start) * (1 - frac) / frac if frac else 0.0
        bar = "#" * int(30 * frac)
        sys.stderr.write(f"\r{self.label} [{bar:<30}] {frac:6.1%} {done:,}/{self.total:,} "
                         f"ETA {eta:5.0f}s")
        if done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()
