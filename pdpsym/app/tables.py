"""Tables as Markdown, LaTeX or CSV (exact strings in, exact strings out)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

FORMATS = ("md", "latex", "csv")


def _latex_escape(text: str) -> str:
    for a, b in (
        ("&", r"\&"),
        ("%", r"\%"),
        ("_", r"\_"),
        ("#", r"\#"),
        ("{", r"\{"),
        ("}", r"\}"),
    ):
        text = text.replace(a, b)
    return text


def render(
    headers: Sequence[str], rows: Sequence[Sequence[str]], fmt: str, caption: str | None = None
) -> str:
    """Render a table. ``fmt`` is one of ``md``, ``latex``, ``csv``."""
    if fmt == "md":
        lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
        lines += ["| " + " | ".join(str(c).replace("|", r"\|") for c in r) + " |" for r in rows]
        if caption:
            lines = [f"**{caption}**", ""] + lines
        return "\n".join(lines) + "\n"
    if fmt == "latex":
        spec = "l" * len(headers)
        lines = [r"\begin{table}[ht]", r"\centering", rf"\begin{{tabular}}{{{spec}}}", r"\hline"]
        lines.append(" & ".join(_latex_escape(h) for h in headers) + r" \\")
        lines.append(r"\hline")
        for r in rows:
            lines.append(" & ".join(c if _mathy(c) else _latex_escape(str(c)) for c in r) + r" \\")
        lines.append(r"\hline")
        lines.append(r"\end{tabular}")
        if caption:
            lines.append(rf"\caption{{{_latex_escape(caption)}}}")
        lines.append(r"\end{table}")
        return "\n".join(lines) + "\n"
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(headers)
        w.writerows(rows)
        return buf.getvalue()
    raise ValueError(f"unknown table format {fmt!r}")


def _mathy(cell: object) -> bool:
    """Cells already in LaTeX math (``$...$``) pass through unescaped."""
    return isinstance(cell, str) and len(cell) > 1 and cell.startswith("$") and cell.endswith("$")
