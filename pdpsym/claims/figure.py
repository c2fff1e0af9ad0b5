"""The papers' figures as certified data: a registry of figure builders.

A figure is registered with :func:`figure` under an id such as ``dmkb2020.fig4``, as
independent points (so the app can run them on several processes). ``scale`` is
``"paper"`` (the paper's own parameters) or ``"quick"`` (a small version that runs in
seconds). The data is a table: every value column holds certified decimals (each printed
digit is correct) or is empty with a reason; the parameters and the reading of any erratum
travel with it. Drawing the figure is the app layer's job (:mod:`pdpsym.app.plot`);
:class:`Plot` says how.

A figure is declared once, as one :class:`FigureSpec` that :meth:`FigureSpec.register`
records. Its words are data (:class:`Words`: a title and caption the same at every scale,
the params a dict or a function of the scale) or, where the title or caption depend on the
scale, a function ``describe(scale) -> Text``::

    FIG1 = FigureSpec(
        "paper.fig1",
        "list title",
        points,
        point,
        Words("title", "caption", params),
        columns=COLUMNS,
        plot=Plot(...),
    ).register()

The decorator :func:`figure` registers a ``describe`` function with the rest of the spec.

``points(scale)`` lists each point's arguments, ``point(args)`` computes its rows, an
optional ``gather(scale, rows)`` turns the points' rows into the table's (a mean over
runs, say), and :meth:`FigureSpec.assemble` makes the :class:`FigureData`: the id, the
:class:`Text`, the columns, the rows through :func:`table` and the plot; the params get
``"scale"`` at the end (where the figure's own params do not place it already), unless the
figure is declared ``scaled=False`` (the same at every scale).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any


class Scale(StrEnum):
    """``paper``: the paper's parameters; ``quick``: a small version for tests and CI."""

    PAPER = "paper"
    QUICK = "quick"


@dataclass(frozen=True)
class Line:
    """One curve: ``y`` against the plot's ``x`` column, on the axis named ``axis`` (the
    plot's first axis when None)."""

    y: str
    label: str
    dashed: bool = False
    axis: str | None = None


@dataclass(frozen=True)
class Axis:
    """One quantity's y axis: each panel draws one subplot per axis, side by side, so that
    quantities of different size (``epsilon`` and ``delta``) never share a scale."""

    name: str
    label: str
    log: bool = False


@dataclass(frozen=True)
class Plot:
    """How to draw the table: one panel per value of ``panel`` (or one panel).

    ``kind = "graph"`` draws a directed graph instead: one arrow per row, from the ``x``
    column to the ``to`` column, styled by its ``relation`` (``implies`` or ``does not
    imply``) and ``verdict`` columns and labelled by its ``claim`` column."""

    x: str
    lines: tuple[Line, ...]
    xlabel: str
    ylabel: str
    panel: str | None = None
    group: str | None = None  # one curve per value of this column (for each line)
    logy: bool = False
    logx: bool = False
    kind: str = "lines"
    axes: tuple[Axis, ...] = ()  # empty: one axis, labelled ylabel, log when logy


@dataclass(frozen=True)
class FigureData:
    """A figure's certified table, its parameters and how to draw it."""

    id: str
    title: str
    caption: str
    params: dict[str, str]
    columns: tuple[str, ...]
    rows: tuple[dict[str, str], ...]
    plot: Plot | None = None
    notes: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Text:
    """What a figure says at one scale: its :class:`FigureData`'s title, caption, params
    and notes (:meth:`FigureSpec.assemble` adds ``"scale"`` to the params, at the end unless
    they name it where it should stand)."""

    title: str
    caption: str
    params: dict[str, str]
    notes: tuple[str, ...] = ()


Rows = list[dict[str, str]]
Points = Callable[[Scale], Sequence[Any]]
Point = Callable[[Any], Rows]
Describe = Callable[[Scale], Text]
Gather = Callable[[Scale, Rows], Rows]
Mapper = Callable[[Point, Sequence[Any]], Iterable[Rows]]


@dataclass(frozen=True)
class Words:
    """A figure's words as data: a :data:`Describe` whose title, caption and notes are the
    same at every scale and whose params are a dict (the same too) or ``params(scale)``.

    ``Words(title, caption, params, notes)(scale)`` is the :class:`Text` at ``scale``."""

    title: str
    caption: str
    params: dict[str, str] | Callable[[Scale], dict[str, str]]
    notes: tuple[str, ...] = ()

    def __call__(self, scale: Scale) -> Text:
        """The :class:`Text` at ``scale``."""
        params = self.params(scale) if callable(self.params) else dict(self.params)
        return Text(self.title, self.caption, params, self.notes)


@dataclass(frozen=True)
class OneRow:
    """A :data:`Point` whose arguments give one row: ``OneRow(row)(args) == [row(*args)]``.

    Picklable when ``row`` is a module-level function, so a process pool can run it."""

    row: Callable[..., dict[str, str]]

    def __call__(self, args: Sequence[Any]) -> Rows:
        """The one row of ``args``, as a one-row list."""
        return [self.row(*args)]


@dataclass(frozen=True)
class Multiples:
    """The values ``k · step`` for ``k = first..last``, with one ``(step, first, last)`` at
    the paper's scale and one at the quick scale; ``Multiples(...)(scale)`` lists them,
    increasing and exact."""

    paper: tuple[Fraction, int, int]
    quick: tuple[Fraction, int, int]

    def __call__(self, scale: Scale) -> list[Fraction]:
        """The exact values at ``scale``."""
        step, first, last = self.paper if scale is Scale.PAPER else self.quick
        return [k * step for k in range(first, last + 1)]


@dataclass(frozen=True)
class GridPoints:
    """A :data:`Points`: ``(n, x)`` for each ``(n, xs)`` of ``grid(scale)`` and each ``x``
    of ``xs``, in the grid's order."""

    grid: Callable[[Scale], Sequence[tuple[Any, Sequence[Any]]]]

    def __call__(self, scale: Scale) -> list[tuple[Any, Any]]:
        """The points of the grid at ``scale``."""
        return [(n, x) for n, xs in self.grid(scale) for x in xs]


@dataclass(frozen=True)
class FigureSpec:
    """A figure as independent points: ``points(scale)`` lists each point's arguments,
    ``point(args)`` computes its rows (a module-level function, so a process pool or a
    cluster can run it), ``gather(scale, rows)`` (if any) makes the table's rows of them,
    and ``describe(scale)`` says the figure's :class:`Text` (a :class:`Words` when
    they are data)."""

    id: str
    title: str
    points: Points
    point: Point
    describe: Describe
    columns: tuple[str, ...]
    plot: Plot | None = None
    gather: Gather | None = None
    scaled: bool = True  # False: the same at every scale (no "scale" in the params)

    def assemble(self, scale: Scale, rows: Rows) -> FigureData:
        """The figure of its points' rows, in order."""
        text = self.describe(scale)
        params = {**text.params, "scale": scale.value} if self.scaled else text.params
        if self.gather is not None:
            rows = self.gather(scale, rows)
        return FigureData(
            id=self.id,
            title=text.title,
            caption=text.caption,
            params=params,
            columns=self.columns,
            rows=table(self.columns, rows),
            plot=self.plot,
            notes=text.notes,
        )

    def build(self, scale: Scale, mapper: Mapper | None = None) -> FigureData:
        """The figure; ``mapper`` (default: the built-in ``map``) runs the points."""
        run = mapper or map
        return self.assemble(
            scale, [r for rows in run(self.point, self.points(scale)) for r in rows]
        )

    def register(self) -> FigureSpec:
        """Record this figure in ``FIGURES`` under its id (a ``KeyError`` when the id is
        already taken) and return it."""
        if self.id in FIGURES:
            raise KeyError(f"{self.id} is already registered")
        FIGURES[self.id] = self
        return self


FIGURES: dict[str, FigureSpec] = {}

# the modules that register figures (imported on first use, so `import pdpsym` stays light);
# a higher layer adds its own by importing them (pdpsym.verify.figures.all_figures)
MODULES = (
    "pdpsym.papers.li2019.figures",
    "pdpsym.papers.dmkb2020.figures_counting",
    "pdpsym.papers.dmkb2020.figures_thresholding",
    "pdpsym.papers.dmkb2020.figures_noise",
    "pdpsym.papers.lmm2016.figures",
)


def figure(
    figure_id: str,
    title: str,
    points: Points,
    point: Point,
    *,
    columns: tuple[str, ...],
    plot: Plot | None = None,
    gather: Gather | None = None,
    scaled: bool = True,
) -> Callable[[Describe], Describe]:
    """Register ``describe`` with the rest of a :class:`FigureSpec` as the figure
    ``figure_id`` (listed with ``title``), through :meth:`FigureSpec.register`.

    Args:
        figure_id: the figure's id, ``paper.label`` (``"li2019.fig4"``); a ``KeyError`` is
            raised at registration when it is already taken.
        title: the one-line title the figure list shows.
        points: lists each point's arguments at a scale.
        point: computes one point's rows (a module-level function, so that a process
            pool can run it).
        columns: the table's columns, in order.
        plot: how the app draws the table (None: a table only).
        gather: turns the points' rows into the table's rows (None: they are the rows).
        scaled: False when the figure is the same at every scale (no ``"scale"`` param).

    Returns:
        A decorator that records the decorated ``describe(scale) -> Text`` function in
        ``FIGURES`` and returns it unchanged.

    References:
        Each registering module names its paper's figure (Li et al. (2019), Section VII,
        Figs. 4-5; Desfontaines et al.; Liu et al. (2016)).
    """

    def decorate(describe: Describe) -> Describe:
        spec = FigureSpec(figure_id, title, points, point, describe, columns, plot, gather, scaled)
        spec.register()
        return describe

    return decorate


def figures() -> dict[str, FigureSpec]:
    """Every registered figure, by id (paper order).

    Imports the modules of ``MODULES`` first, so that their figures are registered.

    Returns:
        A new dict from figure id to :class:`FigureSpec`, ordered by paper, then by the
        number in the figure's label.

    References:
        The papers' own figure numbering (Li et al. (2019), Section VII; Desfontaines et
        al.; Liu et al. (2016)).
    """
    for name in MODULES:
        importlib.import_module(name)
    return dict(sorted(FIGURES.items(), key=lambda kv: _order(kv[0])))


def _order(figure_id: str) -> tuple[str, int, str]:
    paper, _, label = figure_id.partition(".")
    digits = "".join(c for c in label if c.isdigit())
    return paper, int(digits or 0), label


def table(columns: Sequence[str], rows: Sequence[dict[str, str]]) -> tuple[dict[str, str], ...]:
    """Rows with every column present (missing cells empty).

    Args:
        columns: the table's columns, in order.
        rows: the rows, each a dict from column to cell text; keys outside ``columns``
            are dropped.

    Returns:
        A tuple of new dicts, one a row, with exactly ``columns`` as keys in that order
        and ``""`` where a row had no cell.

    References:
        Python docs, dict (insertion order); no paper's math is involved.
    """
    return tuple({c: r.get(c, "") for c in columns} for r in rows)
