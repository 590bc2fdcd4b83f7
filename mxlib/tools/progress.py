"""A progress bar for long GPU runs (the bench, the sweep, the H200 scripts), on stderr."""
from __future__ import annotations

import sys
import time


class Progress:
    """A one-line progress bar on stderr: redrawn in place on a terminal, a line every ~5% otherwise."""

    def __init__(self, total: int, stream=None):
        self.total, self.done = total, 0
        self.stream = stream if stream is not None else sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.t0 = time.perf_counter()
        self._last_pct = -100

    def step(self, label: str) -> None:
        self.done += 1
        pct = 100 * self.done // self.total
        elapsed = time.perf_counter() - self.t0
        eta = elapsed / self.done * (self.total - self.done)
        width = 30
        bar = "#" * (width * self.done // self.total)
        line = f"[{bar:<{width}}] {self.done}/{self.total} {elapsed:5.0f}s eta {eta:4.0f}s  {label}"
        if self.tty:
            self.stream.write("\r" + line[:150].ljust(150) + ("\n" if self.done == self.total else ""))
        elif pct - self._last_pct >= 5 or self.done == self.total:
            self.stream.write(line + "\n")
            self._last_pct = pct
        self.stream.flush()
