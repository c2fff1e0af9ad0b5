"""The user-caused errors survive a trip through a worker process (pickling)."""

from __future__ import annotations

import pickle

from pdpsym.core.errors import InputError, Undecided


def test_an_input_error_pickles_with_its_field_and_message() -> None:
    # a worker of a process pool sends its exception back pickled; the default pickle of
    # a two-argument exception rebuilt it from the one joined line and failed, and the
    # pool reported a BrokenProcessPool (fuzz seed 20261128)
    back = pickle.loads(pickle.dumps(InputError("--target", "unknown record 'x50'")))
    assert type(back) is InputError
    assert (back.field, back.message) == ("--target", "unknown record 'x50'")
    assert str(back) == "--target: unknown record 'x50'"


def test_undecided_pickles_with_its_fields() -> None:
    back = pickle.loads(pickle.dumps(Undecided("x > y", 4096)))
    assert type(back) is Undecided
    assert (back.what, back.prec, str(back)) == (
        "x > y",
        4096,
        "undecided at precision 4096 bits: x > y",
    )
