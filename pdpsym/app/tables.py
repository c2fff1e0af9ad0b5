"""Tables as Markdown, LaTeX or CSV (exact strings in, exact strings out)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from pdpsym.app import latex

FORMATS = ("md", "latex", "csv")


def render(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    fmt: str,
    caption: str | None = None,
    long: bool = False,
) -> str:
    """Render a table. ``fmt`` is one of ``md``, ``latex``, ``csv``.

    LaTeX is a ``longtable`` when ``long`` (rows may span pages), else a ``tabularx``
    float; see :mod:`pdpsym.app.latex`.
    """
    if fmt == "md":
        lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
        lines += ["| " + " | ".join(str(c).replace("|", r"\|") for c in r) + " |" for r in rows]
        if caption:
            lines = [f"**{caption}**", ""] + lines
        return "\n".join(lines) + "\n"
    if fmt == "latex":
        return latex.table(headers, rows, caption, long=long)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(headers)
        w.writerows(rows)
        return buf.getvalue()
    raise ValueError(f"unknown table format {fmt!r}")
