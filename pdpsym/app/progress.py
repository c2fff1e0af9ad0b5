"""A progress bar on stderr (tqdm), shown only on a terminal or when forced.

Long runs (``verify --thorough``, all adversaries of a large table) report progress
with tqdm's count, rate and time estimate; stdout (tables, JSON) is never touched.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any


class Progress:
    """``with Progress(total, "label") as bar: bar.update(1, note)``.

    ``enabled=None`` shows the bar only when stderr is a terminal; ``delay`` (seconds)
    keeps short runs silent (tqdm's ``delay``).
    """

    def __init__(
        self, total: int, label: str = "", enabled: bool | None = None, delay: float = 0.0
    ) -> None:
        self.total = max(total, 1)
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self._bar: Any = None
        if not self.enabled:
            return  # nothing is drawn: tqdm is not even loaded (a light batch run)
        from tqdm import tqdm  # loaded only when a bar is shown

        self._bar = tqdm(
            total=self.total,
            desc=label,
            file=sys.stderr,
            disable=not self.enabled,
            delay=delay,
            dynamic_ncols=True,
            leave=True,
        )

    def update(self, n: int = 1, note: str = "") -> None:
        if self._bar is None:
            return
        if note:
            self._bar.set_postfix_str(note[:40], refresh=False)
        self._bar.update(n)

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.close()
