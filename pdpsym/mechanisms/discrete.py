"""The finite mechanisms a user names: a table, a count, thresholding, a histogram,
randomized response.

Each returns a mechanism in the sense of :mod:`pdpsym.mechanisms.finite`: a callable
``D -> {output: exact probability}`` on databases ``D`` (tuples of records, in the order
of the model's variables). They are the mechanisms of Desfontaines et al. Section 4
(counting, Definition 15 thresholding) and the classic randomized response, exact.

>>> from fractions import Fraction as F
>>> threshold(1)((F(1), F(0)))
{'⊥': Fraction(1, 1)}
>>> threshold(1)((F(1), F(1)))
{Fraction(2, 1): Fraction(1, 1)}
>>> randomized_response("3/4", [[0, 1], [0, 1]])((0, 1))[(0, 1)]
Fraction(9, 16)
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str, parse_rational
from pdpsym.mechanisms.base import ReportMechanism
from pdpsym.mechanisms.finite import BOTTOM, Mechanism
from pdpsym.models.scenario import PMF, Database, check_pmf


def _rational(value: Any, field: str) -> Fraction:
    if isinstance(value, bool) or isinstance(value, float):
        raise InputError(
            field, f"expected an exact number (int, Fraction or string), got {value!r}"
        )
    if isinstance(value, int | Fraction):
        return Fraction(value)
    if isinstance(value, str):
        return parse_rational(value, field)
    raise InputError(field, f"expected an exact number, got {type(value).__name__}")


def _db(d: Any) -> str:
    """A database as the user wrote it: ``(0, 1/2)``, never a Python repr."""
    vals = d if isinstance(d, tuple | list) else (d,)
    return (
        "("
        + ", ".join(
            fraction_str(Fraction(v))
            if isinstance(v, Fraction | int) and not isinstance(v, bool)
            else str(v)
            for v in vals
        )
        + ")"
    )


def table(rows: Mapping[Database, Mapping[Any, Any]]) -> Mechanism:
    """``M(o | D)`` given by an explicit table; each row must be an exact PMF.

    Args:
        rows: for each database (a tuple of records), its output PMF. Probabilities are
            ints, Fractions or strings such as ``"1/3"`` (floats are refused).

    Returns:
        The mechanism. A database missing from the table raises :class:`InputError`.

    Raises:
        InputError: (field ``mechanism.rows (database ...)``) when a row is not an exact
            probability law.

    References:
        Desfontaines et al. (2020), Section 3.1, Definition 10 (a mechanism's output
        probabilities on a countable output set).

    >>> m = table({(0,): {"yes": "1/3", "no": "2/3"}, (1,): {"yes": 1}})
    >>> m((0,))["no"]
    Fraction(2, 3)
    """
    checked: dict[Database, PMF] = {}
    for d, pmf in rows.items():
        field = f"mechanism.rows (database {_db(d)})"
        checked[tuple(d)] = check_pmf({o: _rational(p, field) for o, p in pmf.items()}, field)

    def mech(d: Database) -> PMF:
        try:
            return checked[tuple(d)]
        except KeyError:
            raise InputError("mechanism.rows", f"no row for database {_db(d)}") from None

    return mech


def count(weights: Sequence[Any] | None = None) -> Mechanism:
    """The noiseless linear query ``Σ_k w_k D(k)`` (a count when every ``w_k = 1``).

    Args:
        weights: the exact weights ``w_k``, one per record (ints, Fractions or strings);
            ``None`` gives weight 1 to every record. The mechanism expects databases of
            exactly ``len(weights)`` records.

    Returns:
        A deterministic mechanism: ``{Σ_k w_k D(k): 1}`` as a Fraction.

    Raises:
        InputError: (field ``weights[k]``) for a weight that is not an exact number.

    References:
        Desfontaines et al. (2020), Section 4.1 (counting queries) and Section 3.5,
        Proposition 6 (linear queries); Li et al. (2019), Section III-A3 (linear query).
    """
    w = None if weights is None else [_rational(x, f"weights[{k}]") for k, x in enumerate(weights)]

    def mech(d: Database) -> PMF:
        ws = w if w is not None else [Fraction(1)] * len(d)
        if len(ws) != len(d):
            raise InputError("weights", f"{len(ws)} weights for a database of {len(d)} records")
        return {
            sum((a * Fraction(x) for a, x in zip(ws, d, strict=True)), Fraction(0)): Fraction(1)
        }

    return mech


def threshold(T: Any, weights: Sequence[Any] | None = None) -> Mechanism:
    """The T-thresholding mechanism: the (weighted) count if it is ``> T``, else ``⊥``.

    Args:
        T: the threshold, an exact number (ints, Fractions or strings).
        weights: the linear query's weights (see :func:`count`); ``None`` counts.

    Returns:
        A deterministic mechanism: ``{k: 1}`` if ``k > T`` else ``{"⊥": 1}``.

    Raises:
        InputError: (field ``T`` or ``weights[k]``) for a value that is not an exact number.

    References:
        Desfontaines et al. (2020), Section 4.2, Definition 15.
    """
    t = _rational(T, "T")
    inner = count(weights)

    def mech(d: Database) -> PMF:
        ((c, _),) = inner(d).items()
        return {c if c > t else BOTTOM: Fraction(1)}

    return mech


def histogram() -> Mechanism:
    """The histogram mechanism: the count of each value present in the database.

    Returns:
        A deterministic mechanism whose one output is the tuple of ``(value, count)``
        pairs of the values present, sorted by ``repr`` of the value (absent values are
        not listed, nothing is thresholded).

    References:
        Desfontaines et al. (2020), Section 4.1, Corollary 1 (the histogram of all values).
    """

    def mech(d: Database) -> PMF:
        counts: dict[Any, int] = {}
        for x in d:
            counts[x] = counts.get(x, 0) + 1
        return {tuple(sorted(counts.items(), key=lambda kv: repr(kv[0]))): Fraction(1)}

    return mech


class RandomizedResponse(ReportMechanism):
    """Randomized response as a mechanism ``D -> PMF`` that also exposes its parameters
    (``keep`` and the per-record ``domains``), so that an audit can use its product form
    ``M(o | D) = prod_j R_j(o_j | D(j))`` with ``R_j(o | x) = keep`` if ``o = x`` and
    ``(1 - keep) / (|X_j| - 1)`` otherwise (a
    :class:`~pdpsym.mechanisms.base.ReportMechanism`). Build it with
    :func:`randomized_response`.
    """

    def __init__(self, keep: Fraction, domains: tuple[tuple[Any, ...], ...]) -> None:
        self.keep = keep
        self.domains = domains

    def report_law(self, j: int, x: Any) -> PMF:
        """``R_j(. | x)``: ``keep`` on ``x``, the rest spread evenly over the other values.

        Args:
            j: the record's index.
            x: its value.

        Returns:
            ``{report: exact probability}`` over record ``j``'s domain.

        References:
            Warner (1965), randomized response.
        """
        dom, k = self.domains[j], self.keep
        other = (1 - k) / (len(dom) - 1) if len(dom) > 1 else Fraction(0)
        return {v: k if v == x else other for v in dom}

    def symmetric_keep(self) -> Fraction | None:
        """``keep``: every report law of randomized response is symmetric.

        Returns:
            The probability of the true report.
        """
        return self.keep

    def __call__(self, d: Database) -> PMF:
        doms, k = self.domains, self.keep
        if len(d) != len(doms):
            raise InputError("mechanism", f"database has {len(d)} records, domains {len(doms)}")
        per: list[list[tuple[Any, Fraction]]] = []
        for x, dom in zip(d, doms, strict=True):
            if x not in dom:
                raise InputError("mechanism", f"value {_db(x)[1:-1]} is not in its domain")
            other = (1 - k) / (len(dom) - 1) if len(dom) > 1 else Fraction(0)
            per.append([(v, k if v == x else other) for v in dom])
        if k == 1:  # one output: the database itself (spelled with the domain's values)
            return {tuple(next(v for v, q in row if q) for row in per): Fraction(1)}
        out: PMF = {}
        for combo in itertools.product(*per):
            p = Fraction(1)
            for _, q in combo:
                p *= q
            if p:
                out[tuple(v for v, _ in combo)] = p
        return out


def randomized_response(keep: Any, domains: Sequence[Sequence[Any]]) -> RandomizedResponse:
    """Randomized response: each record is reported truthfully with probability ``keep``.

    Otherwise the record is replaced by a uniformly drawn *other* value of its domain;
    the output is the tuple of reported values, with exact probability
    ``Π_j R_j(o_j | D(j))``.

    Args:
        keep: the probability of reporting the true value, an exact number in (0, 1].
        domains: the values each record can take (at least two each when keep < 1).

    Returns:
        A :class:`RandomizedResponse` (a callable mechanism exposing ``keep`` and
        ``domains``).

    Raises:
        InputError: (field ``keep`` or ``domains[j]``) for a parameter out of range.

    References:
        Warner, "Randomized response" (1965); Desfontaines et al. (2020), Section 4.1,
        proof of Theorem 3 (the binary randomized response ``R_{2λ}``).
    """
    k = _rational(keep, "keep")
    if not 0 < k <= 1:
        raise InputError("keep", "must lie in (0, 1]")
    doms = tuple(tuple(dom) for dom in domains)
    for j, dom in enumerate(doms):
        if len(dom) < 2 and k < 1:
            raise InputError(f"domains[{j}]", "needs at least two values")
    return RandomizedResponse(k, doms)


def geometric(alpha: Any, lo: int, hi: int, weights: Sequence[Any] | None = None) -> Mechanism:
    """Two-sided geometric noise on an integer linear query.

    ``P(o | D) = (1-α)/(1+α) · α^{|o - f(D)|}`` for every integer ``o``.

    The outputs below ``lo`` and above ``hi`` (bounds of ``f`` over every database) are
    lumped into the outputs ``"<lo"`` (mass ``α^{f-lo+1}/(1+α)``) and ``">hi"`` (mass
    ``α^{hi-f+1}/(1+α)``): beyond the range of ``f`` every likelihood ratio between two
    mixtures is the same at each output, so every hockey-stick divergence, and every ε,
    is unchanged by the lumping.

    Args:
        alpha: the geometric parameter ``α``, an exact number in (0, 1).
        lo: an integer lower bound of ``f`` over every database.
        hi: an integer upper bound of ``f`` over every database.
        weights: the linear query's weights (see :func:`count`); ``None`` counts.

    Returns:
        A mechanism with the exact PMF over ``"<lo"``, the integers ``lo..hi`` and
        ``">hi"``.

    Raises:
        InputError: (field ``alpha``) for ``α`` outside (0, 1); when applied, (field
            ``weights``) if ``f(D)`` is not an integer and (field ``mechanism``) if it
            lies outside ``[lo, hi]``.

    References:
        Desfontaines et al. (2020), Section 5.2, Definition 19 (with ``p = α``); Ghosh,
        Roughgarden, Sundararajan (2012) for the geometric mechanism.

    >>> from fractions import Fraction as F
    >>> m = geometric("1/2", 0, 1)
    >>> m((F(0),)) == {"<0": F(1, 3), F(0): F(1, 3), F(1): F(1, 6), ">1": F(1, 6)}
    True
    """
    a = _rational(alpha, "alpha")
    if not 0 < a < 1:
        raise InputError("alpha", "must lie in (0, 1)")
    inner = count(weights)
    c = (1 - a) / (1 + a)

    def mech(d: Database) -> PMF:
        ((f, _),) = inner(d).items()
        if f.denominator != 1:
            raise InputError("weights", f"the query is not an integer on {_db(d)}")
        if not lo <= f <= hi:
            raise InputError("mechanism", f"query value {f} outside [{lo}, {hi}]")
        out: PMF = {f"<{lo}": a ** int(f - lo + 1) / (1 + a)}
        for o in range(lo, hi + 1):
            out[Fraction(o)] = c * a ** abs(o - int(f))
        out[f">{hi}"] = a ** int(hi - f + 1) / (1 + a)
        return out

    return mech
