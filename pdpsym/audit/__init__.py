"""Audit a user's own model and mechanism under every privacy notion, exactly.

For a finite model θ (a :class:`~pdpsym.models.joint.JointDistribution`), a target
record and the records the attacker knows, :func:`audit` reports for each notion
(:mod:`pdpsym.audit.registry`; their cases: :mod:`pdpsym.audit.notions`):

* ``epsilon`` -- the smallest ε with δ = 0, exact (``ln`` of a rational, or ``oo``);
* ``delta_at_epsilon`` -- the smallest δ at each given ε, exact;
* ``epsilon_at_delta`` -- the smallest ε at the given δ, exact;
* ``witness`` -- where each worst case is attained.

Finite mechanisms (:mod:`pdpsym.mechanisms.discrete`) are computed from the
definitions through one privacy curve (:mod:`pdpsym.loss.curve`). For randomized
response the cases of dp, apkdp, np, ppkdp and cdp are ranked in float64 first and only
those near the top are built exactly (:mod:`pdpsym.audit.screen`; the figures are those
of building every case). Laplace noise on a
linear query (:class:`~pdpsym.mechanisms.laplace.LaplaceNoise`) has continuous outputs:
each notion's cases are pairs of Laplace mixtures over the query value, and δ(ε) and
ε(δ) go through :mod:`pdpsym.loss` (closed-form δ; ε(δ) by exact bisection). Its
``apkdp``/``np``/``ppkdp`` ε is Li et al.'s Eq. 2 leakage of ``A(target, known)`` (with
δ = 0 the active and passive notions coincide, Desfontaines et al. Theorem 1) and its
``dp`` ε is ``Δ_i/λ``; ``ibcdp`` (a sup over the continuous output of posterior
comparisons, attained at a piece end or a stationary point in closed form) is certified
to any number of digits; ``distributional-dp`` (a simulator over a
continuous output) is enclosed between two finite LPs
(:class:`~pdpsym.audit.distributional.DistributionalLoss`).

Examples:
    >>> import pdpsym as ps
    >>> m = ps.JointDistribution.from_rows(["x1", "x2"], [[0, 0, "1/2"], [1, 1, "1/2"]])
    >>> rr = ps.mechanisms.randomized_response("3/4", [[0, 1], [0, 1]])
    >>> a = audit(m, rr, target="x1", notions=["dp", "apkdp"])
    >>> [(r.notion, str(r.epsilon)) for r in a.results]
    [('dp', 'log(3)'), ('apkdp', 'log(9)')]
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from pdpsym.audit import registry
from pdpsym.audit.notions import Request
from pdpsym.audit.registry import ALL_NOTIONS, NOTIONS, Compare
from pdpsym.audit.results import Audit, NotionResult
from pdpsym.audit.table_audit import audit_table
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.mechanisms.base import QueryMechanism
from pdpsym.mechanisms.finite import Mechanism
from pdpsym.models.joint import JointDistribution
from pdpsym.models.model_objects import is_table
from pdpsym.models.neighbours import DDPReading

__all__ = ["ALL_NOTIONS", "NOTIONS", "Audit", "NotionResult", "audit"]


def _request(
    eps: Iterable[Eps | Fraction | int | str],
    delta: Fraction | int | str | None,
    notions: Iterable[str],
    reading: DDPReading,
    alpha: Fraction | int = 2,
    max_work: int | None = None,
) -> Request:
    """The checked ε points, δ and notions of an audit request (tables and structured
    models alike)."""
    eps_list = [Eps.of(e) for e in eps]
    for e in eps_list:
        if e.eps is not None and e.eps < 0:
            raise InputError("eps", "must be >= 0")
    d = None
    if delta is not None:
        d = Eps.of(delta).eps if not isinstance(delta, Fraction) else delta
        if d is None or not 0 <= d < 1:
            raise InputError("delta", "must lie in [0, 1)")
    wanted = list(notions)
    for n in wanted:
        registry.notion(n)  # raises InputError for an unknown name
    if max_work is not None and max_work < 1:
        raise InputError("max_work", "must be >= 1")
    return Request(tuple(eps_list), d, tuple(wanted), reading, registry.order(alpha), max_work)


def audit(
    model: JointDistribution | Any,
    mechanism: Mechanism | QueryMechanism | Any,
    target: str,
    known: Iterable[str] = (),
    eps: Iterable[Eps | Fraction | int | str] = (),
    delta: Fraction | int | str | None = None,
    notions: Iterable[str] = NOTIONS,
    reading: DDPReading = DDPReading.NEIGHBOURS,
    *,
    exhaustive: bool = False,
    alpha: Fraction | int = 2,
    max_work: int | None = None,
) -> Audit:
    """Every notion's exact ε, δ(ε) and ε(δ) for the target record.

    Args:
        model: the joint distribution of the records, or a structured model (a Markov
            chain, independent records, a Bayesian network), audited from its query laws
            by :func:`pdpsym.audit.sum_mechanisms.audit_models`.
        mechanism: a finite mechanism ``D -> PMF`` (:mod:`pdpsym.mechanisms`), or
            :class:`~pdpsym.mechanisms.laplace.LaplaceNoise`.
        target: the target record (a variable of ``model``).
        known: the records the attacker knows (``B``; Li et al.'s ``K``).
        eps: the ε values at which δ is reported (:class:`~pdpsym.core.eps.Eps`, or
            exact numbers).
        delta: the δ at which the smallest ε is reported, in ``[0, 1)``.
        notions: names of :data:`~pdpsym.audit.registry.ALL_NOTIONS`.
        reading: the reading of Liu et al.'s Definition 4 for ``dependent-dp``.
        exhaustive: build every case exactly, with no float screening (the plain
            definition; the screened path for randomized response,
            :mod:`pdpsym.audit.screen`, gives identical results).
        alpha: the order of ``renyi-dp`` (a rational above 1; Mironov 2017).
        max_work: the most steps (about a microsecond each) the report cones of
            randomized response on a chain of three states or more may take; past it
            their notions' ε is left uncomputed, with a note saying so (None: no limit).

    Returns:
        :class:`Audit`, one :class:`NotionResult` per notion, in the order asked.

    References:
        Desfontaines et al. Definitions 3-6, 12-13; Li et al. Eq. 2; Liu et al.
        Definition 4; Mironov (2017) Definition 4.
    """
    known = tuple(known)
    if not is_table(model):
        req = _request(eps, delta, notions, reading, max_work=max_work)
        return _structured(model, mechanism, target, known, req)
    model.index(target, "target")
    for k in known:
        model.index(k, "known")
        if k == target:
            raise InputError("known", "the target cannot be a known record")
    req = _request(eps, delta, notions, reading, alpha)
    return audit_table(model, mechanism, target, known, req, exhaustive)


def _structured(
    model: Any, mechanism: Any, target: str, known: tuple[str, ...], req: Request
) -> Audit:
    """:func:`audit` of a structured model (:mod:`pdpsym.audit.sum_mechanisms`)."""
    from pdpsym.audit.sum_mechanisms import audit_models  # it imports this module: no cycle

    for n in req.notions:
        if registry.notion(n).compare is Compare.RENYI:
            raise InputError(
                "notions", f"{n}: tables only (finite or Laplace), not structured models"
            )
    result: Audit = audit_models(model, mechanism, target, known, req)
    return result


class _CallableModule(types.ModuleType):
    """Importing this subpackage rebinds ``pdpsym.audit`` to it; calling it keeps the
    public ``pdpsym.audit(model, mechanism, target=...)`` working either way."""

    def __call__(self, *args: Any, **kwargs: Any) -> Audit:
        return audit(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
