"""Drawing a figure's certified table with matplotlib (the ``[plots]`` extra).

Each plotted point is a certified decimal of the table, read as a float only to place it
on the page; the CSV/JSON output carries the certified digits themselves.
"""

from __future__ import annotations

import io
import math
import textwrap
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pdpsym.core.errors import InputError

if TYPE_CHECKING:  # the figure registry's ten dataclasses load when a figure is drawn
    from pdpsym.claims.figure import FigureData

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
    """The figure as ``png``, ``svg`` or ``pdf`` bytes (deterministic metadata).

    One row of subplots per panel value, one subplot per quantity (:class:`Axis`) in each
    row, so that no two quantities share a scale; the caption is drawn under the plot. A
    curve with no point at all (a printed formula that does not apply) stays in the legend,
    marked "no point", so that the reader sees it was computed.
    """
    fig = draw(data)
    return _save(_matplotlib(), fig, fmt)


def draw(data: FigureData) -> Any:
    """The matplotlib figure that :func:`render` saves (see there)."""
    from pdpsym.claims.figure import Axis  # when drawing: the figure registry

    if data.plot is None:
        raise InputError("--format", f"{data.id} is a table, not a plot: use csv or json")
    plt = _matplotlib()
    spec = data.plot
    if spec.kind == "graph":
        return _caption(_graph(plt, data), data)
    panels = [None] if spec.panel is None else list(dict.fromkeys(r[spec.panel] for r in data.rows))
    axes_spec = list(spec.axes) or [Axis("", spec.ylabel, spec.logy)]
    width = 7.0 if len(axes_spec) == 1 else 4.0 * len(axes_spec)
    fig, grid = plt.subplots(
        len(panels),
        len(axes_spec),
        figsize=(width, 2.9 * len(panels) + 0.9),
        squeeze=False,
        constrained_layout=True,
    )
    for row_axes, panel in zip(grid, panels, strict=True):
        rows = [r for r in data.rows if panel is None or r[spec.panel] == panel]  # type: ignore[index]
        groups = [None] if spec.group is None else list(dict.fromkeys(r[spec.group] for r in rows))
        for ax, axis in zip(row_axes, axes_spec, strict=True):
            mine = [ln for ln in spec.lines if (ln.axis or axes_spec[0].name) == axis.name]
            for group, line in ((g, ln) for g in groups for ln in mine):
                sel = [r for r in rows if group is None or r[spec.group] == group]  # type: ignore[index]
                xs = [_number(r[spec.x]) for r in sel]
                ys = [_number(r[line.y]) for r in sel]
                label = line.label if group is None else f"{line.label}, {spec.group} = {group}"
                style = "--" if line.dashed else "-"
                if axis.log and any(y <= 0 for y in ys):  # a log axis has no place for 0
                    ys = [math.nan if y <= 0 else y for y in ys]
                    label += " (0 not drawn: log axis)"
                if all(math.isnan(y) for y in ys):
                    ax.plot([], [], style, color="gray", label=f"{label}: no point (see caption)")
                    continue
                ax.plot(xs, ys, style, marker=".", label=label)
            if axis.log:
                ax.set_yscale("log")
            if spec.logx:
                ax.set_xscale("log")
            ax.set_xlabel(spec.xlabel)
            ax.set_ylabel(axis.label)
            if panel is not None:
                ax.set_title(f"{spec.panel} = {panel}", fontsize=10)
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=7)
    fig.suptitle(data.title, fontsize=11)
    return _caption(fig, data)


def _caption(fig: Any, data: FigureData) -> Any:
    """The caption under the plot, wrapped to the figure's width (constrained layout keeps
    room for it)."""
    width = max(60, int(fig.get_figwidth() * 15))  # characters of 8 pt text per line
    text = "\n".join(textwrap.wrap(f"{data.id}: {data.caption}", width))
    fig.supxlabel(text, fontsize=8, x=0.01, ha="left", multialignment="left")
    return fig


def _graph(plt: Any, data: FigureData) -> Any:
    """One arrow per row from column ``x`` to ``to``, nodes on a circle; solid black for a
    holding implication, dashed red for a non-implication, dotted orange for any other
    verdict (erratum, refuted, unresolved); parallel arrows are bent apart."""
    from matplotlib.patches import FancyArrowPatch

    spec = data.plot
    assert spec is not None
    nodes = list(dict.fromkeys(n for r in data.rows for n in (r[spec.x], r["to"])))
    pos = {
        n: (math.cos(2 * math.pi * k / len(nodes)), math.sin(2 * math.pi * k / len(nodes)))
        for k, n in enumerate(nodes)
    }
    fig, ax = plt.subplots(figsize=(8, 7), constrained_layout=True)
    seen: dict[frozenset[str], int] = {}
    for r in data.rows:
        a, b = r[spec.x], r["to"]
        k = seen.get(frozenset((a, b)), 0)
        seen[frozenset((a, b))] = k + 1
        if r["relation"] == "implies" and r["verdict"] in ("proved", "supported"):
            style, color = "-", "black"
        elif r["relation"] == "does not imply" and r["verdict"] in ("proved", "supported"):
            style, color = "--", "tab:red"
        else:
            style, color = ":", "tab:orange"
        rad = 0.12 + 0.14 * k
        arrow = FancyArrowPatch(
            pos[a], pos[b], arrowstyle="-|>", mutation_scale=14, linestyle=style, color=color,
            connectionstyle=f"arc3,rad={rad}", shrinkA=28, shrinkB=28, lw=1.3,
        )  # fmt: skip
        ax.add_patch(arrow)
        (xa, ya), (xb, yb) = pos[a], pos[b]
        mx, my = (xa + xb) / 2, (ya + yb) / 2
        ox, oy = (yb - ya) * rad / 2, -(xb - xa) * rad / 2  # the arc3 curve's midpoint
        label = r.get("claim", "").split(".")[-1]
        ax.text(mx + ox, my + oy, label, fontsize=7, color=color, ha="center", va="center")
    for n, (x, y) in pos.items():
        ax.text(x, y, n, ha="center", va="center", fontsize=9,
                bbox={"boxstyle": "round", "fc": "white", "ec": "gray"})  # fmt: skip
    from matplotlib.lines import Line2D

    key = [
        Line2D([], [], color="black", ls="-", label="implies (verdict: proved or supported)"),
        Line2D([], [], color="tab:red", ls="--", label="does not imply (a counterexample)"),
        Line2D([], [], color="tab:orange", ls=":", label="erratum, refuted or unresolved"),
    ]
    ax.legend(handles=key, loc="lower left", fontsize=8, frameon=False)
    ax.set_xlim(-1.5, 1.5)
    ax.set_ylim(-1.4, 1.4)
    ax.set_aspect("equal")
    ax.axis("off")
    fig.suptitle(data.title, fontsize=11)
    return fig


def _save(plt: Any, fig: Any, fmt: str) -> bytes:
    buf = io.BytesIO()
    metadata: dict[str, Any] = {
        "png": {"Software": None},
        "svg": {"Date": None},
        "pdf": {"CreationDate": None},
    }[fmt]
    fig.savefig(buf, format=fmt, dpi=120, metadata=metadata)
    plt.close(fig)
    return buf.getvalue()
