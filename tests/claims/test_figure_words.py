"""The figure registry's declaration API: :class:`Words` as data and
:meth:`FigureSpec.register` (expected values written by hand below)."""

from __future__ import annotations

import pytest

from pdpsym.claims.figure import FIGURES, FigureSpec, Scale, Text, Words, figures


def _params(scale: Scale) -> dict[str, str]:
    return {"n": "10" if scale is Scale.QUICK else "1000"}


def test_words_with_a_dict_are_the_same_text_at_every_scale() -> None:
    # hand-written: a dict of params does not depend on the scale
    words = Words("t", "c", {"a": "1"}, notes=("n",))
    for scale in Scale:
        assert words(scale) == Text("t", "c", {"a": "1"}, ("n",))


def test_words_params_are_a_fresh_dict_each_call() -> None:
    # assembling adds "scale" to a figure's params; the declared dict must stay as written
    words = Words("t", "c", {"a": "1"})
    words(Scale.QUICK).params["scale"] = "quick"
    assert words(Scale.PAPER).params == {"a": "1"}


def test_words_with_a_function_take_its_params_at_the_scale() -> None:
    # hand-written: _params gives n = 10 at quick scale, 1000 at paper scale
    words = Words("t", "c", _params)
    assert words(Scale.QUICK) == Text("t", "c", {"n": "10"})
    assert words(Scale.PAPER) == Text("t", "c", {"n": "1000"})


def test_register_refuses_a_taken_id() -> None:
    taken = next(iter(figures().values()))
    clash = FigureSpec(taken.id, "x", taken.points, taken.point, Words("t", "c", {}), ())
    with pytest.raises(KeyError, match="already registered"):
        clash.register()
    assert FIGURES[taken.id] is taken


def test_words_figures_assemble_their_words() -> None:
    # dmkb2020.fig5's words do not depend on the scale: only "scale" differs (the paper's
    # Fig. 5 parameters, Desfontaines et al., Section 5.2: n = 10^5, delta = 1e-10)
    spec = figures()["dmkb2020.fig5"]
    quick, paper = (spec.assemble(s, []) for s in (Scale.QUICK, Scale.PAPER))
    assert (quick.title, quick.caption) == (paper.title, paper.caption)
    assert quick.params == {**paper.params, "scale": "quick"}
    assert quick.params["n"] == "100000"
    assert quick.params["delta"] == "1e-10"
