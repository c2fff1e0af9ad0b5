"""The one entry point of Li et al.'s Eq. 2: :func:`leakage`, for every kind of model.

``PL(A(i, K)) = sup ln p(r | x_i, x_K) / p(r | x_i', x_K)`` over the compatible pairs of
target values, the known records' values and the outputs ``r`` of Laplace noise on a
linear query. The question is the same for every model; the engine is the model's:

====================================  ==============================================
the model                             the engine (one module each)
====================================  ==============================================
a structured model (chain, product,   :mod:`pdpsym.loss.count_leakage` (the query's law
network: the ``StructuredModel``      by dynamic programming), certified enclosure;
protocol)                             ``query="histogram"``: :mod:`pdpsym.loss.histogram`
a Gaussian model                      :mod:`pdpsym.loss.gaussian` (Lemma 1, Theorem 6)
a joint table                         :mod:`pdpsym.loss.table_leakage` (exact, witness)
====================================  ==============================================

Each returns a :class:`~pdpsym.loss.leakage_result.Leakage` (the one result type);
adding a kind of model is one engine module and one line here. The same Eq. 2 is also a
:class:`~pdpsym.loss.base.PrivacyLoss`, as every notion is: :func:`eq2_loss` builds the
worst case of the pairs of conditional output laws from the model's ``query_law`` (the
one question every discrete model answers); its ``epsilon_zero()`` is Eq. 2 and its
``delta(eps)`` the curve. The engines above compute the same value faster.

References:
    Li, Ren, Yang, Yang (2019), Section IV-A, Definition 2, Eq. 2; Section VI-B,
    Theorem 6 (Gaussian models).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Literal

from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str
from pdpsym.loss.base import WorstCase, worst_case
from pdpsym.loss.count_leakage import structured_leakage
from pdpsym.loss.gaussian import gaussian_leakage
from pdpsym.loss.histogram import histogram_leakage
from pdpsym.loss.laplace_pair import LaplacePair
from pdpsym.loss.leakage_result import Leakage
from pdpsym.loss.table_leakage import table_leakage
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.gaussian import gaussian_of
from pdpsym.models.query_law import StructuredModel


def _integer_weights(model: Any, query: LinearQuery | None) -> dict[str, int] | None:
    """A linear query's weights as the integers a structured model's engine takes: every
    record of the model, those the query does not name at weight 0 (the engines read an
    absent name as weight 1, their default sum)."""
    if query is None:
        return None
    if any(Fraction(w).denominator != 1 for w in query.weights.values()):
        raise InputError("query", "a structured model's query has integer weights")
    unknown = sorted(set(query.weights) - set(model.variables))
    if unknown:
        raise InputError("query", f"names records the model does not have: {', '.join(unknown)}")
    return {name: int(query.weight(name)) for name in model.variables}


def leakage(
    model: Any,
    target: str,
    known: Sequence[str] = (),
    lam: Fraction | int = 1,
    query: LinearQuery | Literal["histogram"] | None = None,
    *,
    method: Literal["screened", "exact"] = "screened",
    digits: int = 15,
) -> Leakage:
    """Eq. 2 leakage of ``A(target, known)`` under Laplace noise of scale ``lam``.

    Args:
        model: a joint table (``JointDistribution``), a structured model (a Markov chain,
            independent records, a Bayesian network) or a ``GaussianModel``.
        target: the name of the target record ``i``.
        known: the names of the records ``K`` the adversary knows exactly (distinct, not
            the target).
        lam: the Laplace scale ``lambda``, a rational > 0 (else ``InputError("lam")``).
        query: the linear query ``f`` (None: the sum of all records; a structured model
            takes integer weights). ``"histogram"`` (a structured model): the histogram
            of the states with noise of scale ``lam`` on every bin.
        method: a joint table's search, ``"screened"`` (float64 screen, near-ties decided
            exactly) or ``"exact"`` (every candidate decided exactly); the same value.
        digits: a structured model's certified significant digits.

    Returns:
        The :class:`~pdpsym.loss.leakage_result.Leakage` of the model's engine: a joint
        table's exact value and witness (:class:`~pdpsym.loss.adversary.LeakageResult`),
        a structured model's certified enclosure
        (:class:`~pdpsym.loss.leakage_result.TargetLeakage`), a Gaussian model's exact
        rational (:class:`~pdpsym.loss.gaussian.GaussianLeakage`).

    Raises:
        InputError: a bad scale, name or query (the field names the argument).

    References:
        Li et al. (2019), Section IV-A, Definition 2, Eq. 2; Section VI-B, Theorem 6.

    Examples:
        Table (a) of Li et al.'s Example 2 (``x1``, ``x2`` positively correlated):

        >>> from pdpsym.models.joint import JointDistribution
        >>> rows = [[0, 0, "3/10"], [0, 1, "1/5"], [1, 0, "1/5"], [1, 1, "3/10"]]
        >>> table_a = JointDistribution.from_rows(["x1", "x2"], rows)
        >>> leakage(table_a, "x1", lam=1).as_row(10)["value"]["decimal"]
        '1.185375903'

        Independent records: by hand, the two output laws are shifts by the target's
        range 1, so Eq. 2 is ``1/lam``:

        >>> from pdpsym.models.product import ProductModel
        >>> coins = ProductModel([(["0", "1"], ["1/2", "1/2"])] * 3)
        >>> leakage(coins, "x1", lam=2).as_row(5)["value"]["decimal"]
        '0.50000'
    """
    if isinstance(query, str):
        if query != "histogram":
            raise InputError("query", f"unknown query {query!r} (a LinearQuery or 'histogram')")
        lam = Fraction(lam)
        if lam <= 0:
            raise InputError("lam", f"must be > 0, got {fraction_str(lam)}")
        return histogram_leakage(model, [target], tuple(known), lam, digits=digits)[0]
    if isinstance(model, StructuredModel):
        weights = _integer_weights(model, query)
        return structured_leakage(model, [target], known, lam, weights, digits=digits)[0]  # type: ignore[arg-type]
    gaussian = gaussian_of(model)
    if gaussian is not None:
        weights_g = dict(query.weights) if query is not None else None
        return gaussian_leakage(gaussian, target, known, lam, weights_g)
    return table_leakage(model, target, known, lam, query, method=method)


def eq2_loss(
    model: Any,
    target: str,
    known: Sequence[str] = (),
    lam: Fraction | int = 1,
    query: LinearQuery | None = None,
) -> WorstCase:
    """Eq. 2 as a :class:`~pdpsym.loss.base.PrivacyLoss`: the worst case over the known
    records' values and the ordered pairs of target values of the pair of output laws.

    Every case is a :class:`~pdpsym.loss.laplace_pair.LaplacePair` of the query's two
    conditional laws (the model's ``query_law``) under Laplace noise of scale ``lam``, so
    ``epsilon_zero()`` is Eq. 2 (the value :func:`leakage` returns) and ``delta(eps)``
    its hockey-stick curve, as for every other notion.

    Args:
        model: a joint table or a structured model (anything with ``query_law``).
        target: the target record.
        known: the records the adversary knows (the worst case runs over their values).
        lam: the Laplace scale, > 0.
        query: the linear query (None: the sum; a structured model takes integer weights).

    Returns:
        The :class:`~pdpsym.loss.base.WorstCase` of the compatible pairs; its cases'
        ``where`` name ``x_i``, ``x_i'`` and ``x_K``.

    References:
        Li et al. (2019), Section IV-A, Eq. 2; Desfontaines et al. (2020), Lemma 1 (the
        hockey stick).

    Examples:
        ``x2 = x1``: the sum moves by 2 with the target, so by hand Eq. 2 is ``2/lam``:

        >>> from pdpsym.models.joint import JointDistribution
        >>> m = JointDistribution.from_rows(["x1", "x2"], [[0, 0, "1/2"], [1, 1, "1/2"]])
        >>> eq2_loss(m, "x1", lam=1).epsilon_zero().value
        Fraction(2, 1)
    """
    lam = Fraction(lam)
    if lam <= 0:
        raise InputError("lam", f"must be > 0, got {fraction_str(lam)}")
    if isinstance(model, StructuredModel):
        weights: Any = _integer_weights(model, query)
    else:
        weights = {v: query.weight(v) for v in model.variables} if query is not None else None
    domains = [model.domain(k) for k in known]
    cases = []
    for combo in itertools.product(*domains):
        given = dict(zip(known, combo, strict=True))
        laws = {}
        for a in model.domain(target):
            law = model.query_law(target, a, given, weights)
            if law is not None:
                laws[a] = law
        for a, b in itertools.permutations(laws, 2):
            where: dict[str, Any] = {"x_i": fraction_str(a), "x_i'": fraction_str(b)}
            where["x_K"] = {k: fraction_str(v) for k, v in given.items()}
            cases.append((where, LaplacePair(laws[a], laws[b], lam)))
    return worst_case(cases)


__all__ = ["eq2_loss", "leakage"]
