"""Drawing a figure's certified table with matplotlib (the ``[plots]`` extra).

Each plotted point is a certified decimal of the table, read as a float only to place it
on the page; the CSV/JSON output carries the certified digits themselves.
"""

from __future__ import annotations

import io
import math
from fractions import Fraction
from typing import Any

from pdpsym.core.errors import InputError
from pdpsym.papers.figure import FigureData

FORMATS = ("png", "svg", "pdf")


def _matplotlib() -> Any:
    try:
        import matplotlib  # imported here: the extra is optional and heavy

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError(
            "--format", "drawing needs matplotlib: pip install 'pdpsym[plots]'"
        ) from None
    return plt


def _number(cell: str) -> float:
    """A cell as a float for placing it: decimals and fractions such as ``1/20``."""
    return float(Fraction(cell)) if cell else math.nan


def render(data: FigureData, fmt: str) -> bytes:
    """The figure as ``png``, ``svg`` or ``pdf`` bytes (deterministic metadata)."""
    if data.plot is None:
        raise InputError("--format", f"{data.id} is a table, not a plot: use csv or json")
    plt = _matplotlib()
    spec = data.plot
    panels = [None] if spec.panel is None else list(dict.fromkeys(r[spec.panel] for r in data.rows))
    fig, axes = plt.subplots(
        len(panels), 1, figsize=(7, 2.8 * len(panels)), squeeze=False, constrained_layout=True
    )
    for ax, panel in zip(axes[:, 0], panels, strict=True):
        rows = [r for r in data.rows if panel is None or r[spec.panel] == panel]  # type: ignore[index]
        groups = [None] if spec.group is None else list(dict.fromkeys(r[spec.group] for r in rows))
        for group, line in ((g, ln) for g in groups for ln in spec.lines):
            sel = [r for r in rows if group is None or r[spec.group] == group]  # type: ignore[index]
            xs = [_number(r[spec.x]) for r in sel]
            ys = [_number(r[line.y]) for r in sel]
            if all(math.isnan(y) for y in ys):
                continue
            label = line.label if group is None else f"{line.label}, {spec.group} = {group}"
            ax.plot(xs, ys, "--" if line.dashed else "-", marker=".", label=label)
        if spec.logy:
            ax.set_yscale("log")
        if spec.logx:
            ax.set_xscale("log")
        ax.set_xlabel(spec.xlabel)
        ax.set_ylabel(spec.ylabel)
        if panel is not None:
            ax.set_title(f"{spec.panel} = {panel}", fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(data.title, fontsize=11)
    buf = io.BytesIO()
    metadata: dict[str, Any] = {
        "png": {"Software": None},
        "svg": {"Date": None},
        "pdf": {"CreationDate": None},
    }[fmt]
    fig.savefig(buf, format=fmt, dpi=120, metadata=metadata)
    plt.close(fig)
    return buf.getvalue()
