"""How a figure is drawn (app/plot.py): one subplot per quantity, the caption on the
image, and a printed curve with no point kept in the legend. The rows are written here
by hand (the layout does not depend on the values), so no figure is computed."""

from __future__ import annotations

import pytest

from pdpsym.claims.figure import FigureData
from pdpsym.papers.dmkb2020.figures_thresholding import FIG4_COLUMNS
from pdpsym.verify.figures import all_figures

pytest.importorskip("matplotlib", reason="the [plots] extra (matplotlib) is not installed")


def _fig4_like() -> FigureData:
    spec = all_figures()["dmkb2020.fig4"]
    rows = []
    for n, Ts in (("1000", ("6", "8", "10")), ("10000", ("55", "60", "65"))):
        for k, T in enumerate(Ts):
            v = f"{10.0 ** -(k + 1)}"
            rows.append(
                {c: "" for c in FIG4_COLUMNS}
                | {"n": n, "T": T, "r": "0.5", "r_printed": "5", "epsilon": v, "delta": v}
                | {"exact_delta_at_epsilon": v}
            )
    return FigureData(
        "dmkb2020.fig4", "a title", "THE CAPTION of the figure", {}, FIG4_COLUMNS,
        tuple(rows), spec.plot,
    )  # fmt: skip


def test_fig4_draws_eps_and_delta_on_separate_axes_with_the_caption() -> None:
    import matplotlib.pyplot as plt

    from pdpsym.app.plot import draw

    fig = draw(_fig4_like())
    try:
        # 2 panels (n) x 3 quantities (r, eps, delta): no two quantities share an axis
        assert len(fig.axes) == 6
        assert [ax.get_ylabel() for ax in fig.axes[:3]] == ["r", "eps", "delta"]
        for ax in fig.axes:
            labels = [t.get_text() for t in ax.get_legend().get_texts()]
            eps_lines = [lb for lb in labels if lb.startswith("eps")]
            delta_lines = [lb for lb in labels if lb.startswith("delta")]
            assert not (eps_lines and delta_lines), labels
        # the printed r is drawn next to the corrected one; the printed theorem's eps,
        # empty in every row, stays in the legend marked as having no point
        r_labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
        assert any("(printed)" in lb for lb in r_labels)
        assert any("(corrected)" in lb for lb in r_labels)
        eps_labels = [t.get_text() for t in fig.axes[1].get_legend().get_texts()]
        assert any("printed r" in lb and "no point" in lb for lb in eps_labels)
        # the caption is on the image
        assert "THE CAPTION of the figure" in fig.get_supxlabel()
    finally:
        plt.close(fig)
