"""A minimal progress bar on stderr, shown only on a terminal (or when forced).

Long runs (``verify --thorough``, all adversaries of a large table) report progress
without a dependency; JSON on stdout is never touched.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType


class Progress:
    """``with Progress(total, "label") as bar: bar.update()``."""

    def __init__(
        self, total: int, label: str = "", enabled: bool | None = None, delay: float = 0.0
    ) -> None:
        self.total = max(total, 1)
        self.label = label
        self.done = 0
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.delay = delay  # draw nothing for runs shorter than this (seconds)
        self.drawn = False
        self._start = time.monotonic()
        self._last = 0.0

    def update(self, n: int = 1, note: str = "") -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._start < self.delay:
            return
        if now - self._last < 0.1 and self.done < self.total:
            return
        self.drawn = True
        self._last = now
        width = 30
        filled = int(width * self.done / self.total)
        bar = "#" * filled + "-" * (width - filled)
        elapsed = now - self._start
        sys.stderr.write(
            f"\r{self.label} [{bar}] {self.done}/{self.total} {elapsed:5.1f}s {note[:40]:<40}"
        )
        sys.stderr.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.enabled and self.drawn:
            sys.stderr.write("\n")
            sys.stderr.flush()
