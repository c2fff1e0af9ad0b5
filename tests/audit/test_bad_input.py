"""Bad input to audit() and the finite mechanisms raises InputError naming the parameter
(issue 11, "Bad input"; the expected field names are the issue's parameter names)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

import pdpsym as ps
from pdpsym.audit import audit
from pdpsym.core.errors import InputError
from pdpsym.mechanisms import discrete


def _model() -> ps.JointDistribution:
    return ps.JointDistribution.from_rows(["x1", "x2"], [[0, 0, "1/2"], [1, 1, "1/2"]])


def _raises(field: str, fn, *args, **kwargs) -> None:
    with pytest.raises(InputError) as err:
        fn(*args, **kwargs)
    assert field in str(err.value)


def test_a_table_row_not_summing_to_one_names_the_row() -> None:
    _raises("mechanism", discrete.table, {(0,): {"y": "1/3", "n": "1/3"}})


def test_a_probability_outside_zero_one_names_the_row() -> None:
    _raises("mechanism", discrete.table, {(0,): {"y": "3/2", "n": "-1/2"}})


def test_a_database_missing_where_dp_needs_it_names_the_mechanism() -> None:
    # dp ranges over the product of the domains: (0, 1) and (1, 0) are absent
    m = discrete.table({(0, 0): {"o": 1}, (1, 1): {"o": 1}})
    _raises("mechanism", audit, _model(), m, target="x1", notions=["dp"])


@pytest.mark.parametrize("keep", ["0", "-1/2", "3/2"])
def test_keep_outside_zero_one_names_keep(keep: str) -> None:
    _raises("keep", discrete.randomized_response, keep, [[0, 1], [0, 1]])


def test_negative_eps_names_eps() -> None:
    rr = discrete.randomized_response("3/4", [[0, 1], [0, 1]])
    _raises("eps", audit, _model(), rr, target="x1", eps=[F(-1, 2)])


@pytest.mark.parametrize("delta", [F(1), F(-1, 10), F(3, 2)])
def test_delta_outside_zero_one_names_delta(delta: F) -> None:
    rr = discrete.randomized_response("3/4", [[0, 1], [0, 1]])
    _raises("delta", audit, _model(), rr, target="x1", delta=delta)
