"""Li et al.'s Eq. 2 on a joint table (prior-differential-privacy leakage), computed exactly.

For an adversary ``A(i, K)`` (target tuple ``i``, known tuples ``K``, unknowns
``U = [n] - {i} - K``) and the Laplace mechanism of scale ``lambda`` on the linear query
``f(x) = sum_k w_k x_k``::

    PL(A(i,K)) = sup_{x_i != x_i', x_K, r}  ln p(r | x_i, x_K) / p(r | x_i', x_K)
    p(r | x_i, x_K) = sum_{x_U} theta(x_U | x_i, x_K) exp(-|r - f(x)| / lambda) / (2 lambda)

Only *compatible* pairs count: both ``(x_i, x_K)`` and ``(x_i', x_K)`` have positive
probability. If no ``x_K`` is compatible with two target values, the outcome is
``no-compatible-pair``, never a number.

**Breakpoint lemma** (``proofs/breakpoint_lemma.py``): between consecutive support points
of ``f`` the ratio is ``(A e^{r/l} + B e^{-r/l}) / (C e^{r/l} + D e^{-r/l})``, monotone,
and beyond the extreme points it is constant; so the sup over ``r`` is a max over the
union of the two supports (the Laplace-mixture sup of
:mod:`pdpsym.loss.laplace_mixture`, shared with Liu et al.). Each candidate value is then a :class:`LogRatio` of two
exponential polynomials with rational data, compared *exactly*
(:mod:`pdpsym.core.exp_polynomials`). Candidates are screened in float64 and every near-tie of
the float maximum is decided exactly (:func:`pdpsym.core.compare.screen_then_decide`);
``method="exact"`` decides every candidate exactly (the test oracle for the screen).

Internally all values ``w_k x_k`` are scaled by a common denominator ``D`` so that ``f``
is an integer; the exponents are ``-|R - F| / (D lambda)``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from pdpsym.core.compare import SCREEN_MARGIN, screen_then_decide
from pdpsym.core.errors import InputError
from pdpsym.core.exp_polynomials import ExpPoly, LogRatio
from pdpsym.core.numbers import fraction_str
from pdpsym.loss.adversary import Adversary, LeakageResult, Witness
from pdpsym.loss.laplace_mixture import laplace_mixture_at
from pdpsym.loss.table_float_screen import dominant_screen, plain_screen, small_scale_screen
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.joint import JointDistribution


@dataclass
class _Tables:
    """Integer tables of one adversary, in the scaled integer units of ``f``.

    ``C[a, k, s]``: D_theta * P(x_i = X_i[a], x_K = config k, f_U = S[s]);
    ``base[a, k]``: D * (w_i X_i[a] + w_K . x_K(k)); ``P[a, k] = sum_s C[a, k, s]``.
    """

    target_values: tuple[Fraction, ...]
    known_domains: list[tuple[Fraction, ...]]
    S: np.ndarray
    base: np.ndarray
    C: np.ndarray
    P: np.ndarray
    scale: int  # D


def _scale_of(model: JointDistribution, query: LinearQuery) -> int:
    dens = [
        (query.weight(v) * x).denominator
        for v, dom in zip(model.variables, model.domains, strict=True)
        for x in dom
    ]
    return math.lcm(*dens)


def _scaled_values(model: JointDistribution, query: LinearQuery, name: str, D: int) -> list[int]:
    w = query.weight(name)
    return [int(w * x * D) for x in model.domain(name)]


def _tables(
    model: JointDistribution,
    query: LinearQuery,
    adv: Adversary,
    D: int,
    big: bool,
    scaled: dict[str, list[int]] | None = None,
) -> _Tables:
    names = model.variables
    if scaled is None:
        scaled = {v: _scaled_values(model, query, v, D) for v in names}
    i = names.index(adv.target)
    K = [names.index(k) for k in adv.known]
    U = [names.index(u) for u in adv.unknown(model)]
    counts = model.counts
    big = big or counts.dtype == object
    itype: Any = object if big else np.int64
    T = np.transpose(counts, [i, *K, *U])
    d_i = counts.shape[i]
    nK = int(np.prod([counts.shape[k] for k in K], dtype=np.int64)) if K else 1
    nU = int(np.prod([counts.shape[u] for u in U], dtype=np.int64)) if U else 1
    T2 = T.reshape(d_i * nK, nU)
    # f over the unknowns, grouped by value
    if U:
        fU = np.zeros([counts.shape[u] for u in U], dtype=itype)
        for pos, u in enumerate(U):
            vals = np.array(scaled[names[u]], dtype=itype)
            shape = [1] * len(U)
            shape[pos] = -1
            fU = fU + vals.reshape(shape)
        S, inv = np.unique(fU.ravel(), return_inverse=True)
    else:
        S, inv = np.zeros(1, dtype=itype), np.zeros(1, dtype=np.int64)
    H = np.zeros((nU, len(S)), dtype=itype)
    H[np.arange(nU), inv.ravel()] = 1
    C = (T2 @ H).reshape(d_i, nK, len(S))
    # base = w_i x_i + w_K x_K
    base = np.array(scaled[names[i]], dtype=itype).reshape(-1, 1)
    bK = np.zeros(1, dtype=itype)
    for k in K:
        vals = np.array(scaled[names[k]], dtype=itype)
        bK = (bK[:, None] + vals[None, :]).ravel()
    base = base + bK.reshape(1, -1)
    return _Tables(model.domains[i], [model.domains[k] for k in K], S, base, C, C.sum(axis=2), D)


def _too_big(model: JointDistribution, query: LinearQuery, D: int) -> bool:
    span = sum(
        max(abs(query.weight(v) * x) for x in dom)
        for v, dom in zip(model.variables, model.domains, strict=True)
    )
    return span * D * 4 >= 2**62


def table_leakage(
    model: JointDistribution,
    target: str,
    known: Sequence[str] = (),
    lam: Fraction | int = 1,
    query: LinearQuery | None = None,
    *,
    method: Literal["screened", "exact"] = "screened",
) -> LeakageResult:
    """Exact Eq. 2 leakage of ``A(target, known)``, with the point where the sup is attained.

    The sup over ``r`` is taken as a max over the union of the two conditional supports of
    ``f`` (the breakpoint lemma of this module's docstring); every candidate is a ratio of
    exponential polynomials with rational data, compared exactly (floats only screen).

    Args:
        model: the joint distribution ``theta`` of the tuples, with exact probabilities.
        target: the name of the target tuple ``i``.
        known: the names of the tuples ``K`` the adversary knows exactly (distinct, not the
            target); kept in model order.
        lam: the Laplace scale ``lambda``, a rational > 0 (else ``InputError("lam")``).
        query: the linear query ``f``; None means the sum of all tuples.
        method: ``"screened"`` (float64 screen, near-ties decided exactly) or ``"exact"``
            (every candidate decided exactly; the screen's test oracle). Both give the same
            exact value.

    Returns:
        A :class:`LeakageResult`: status
        ``"ok"`` with the exact value (a ``LogRatio``,
        certifiable to any number of digits) and a :class:`Witness` ``(x_i, x_i', x_K, r)``,
        or status ``"no-compatible-pair"`` (no value) when no ``x_K`` is compatible with two
        target values.

    References:
        Li et al. (2019), Section IV-A, Definition 2, Eq. 2; Section III-B, the Laplace mechanism.

    Examples:
        Table (a) of Example 2 (``x1``, ``x2`` positively correlated), the weakest adversary:

        >>> rows = [[0, 0, "3/10"], [0, 1, "1/5"], [1, 0, "1/5"], [1, 1, "3/10"]]
        >>> table_a = JointDistribution.from_rows(["x1", "x2"], rows)
        >>> res = table_leakage(table_a, "x1", lam=1)
        >>> res.expression()
        log((2*E + 3*exp(2))/(3 + 2*E))
        >>> res.certified(10).decimal
        '1.185375903'
        >>> table_leakage(table_a, "x1", ["x2"], lam=1).compare_rational(1)
        0
    """
    lam = Fraction(lam)
    if lam <= 0:
        raise InputError("lam", f"must be > 0, got {fraction_str(lam)}")
    adv = Adversary.of(model, target, known)
    query = query or LinearQuery.sum(model.variables)
    D = _scale_of(model, query)
    return _leakage_of(model, adv, lam, query, D, method, _too_big(model, query, D))


def leakage_work(
    model: JointDistribution,
    target: str,
    known: Sequence[str] = (),
    query: LinearQuery | None = None,
) -> int:
    """An upper estimate of the array cells the Eq. 2 search of ``A(target, known)``
    allocates, computed without allocating anything (for a caller's resource limit).

    The dense table has ``model.cells`` cells; the search holds, for the ``d_i`` target
    values, ``n_K`` known configurations, ``n_S`` distinct sums of the unknowns and
    ``n_R`` outputs, a ``(d_i, n_K, n_S, n_R)`` float array and a ``(d_i, d_i, n_K, n_R)``
    one. Sums of integers (after scaling by the common denominator) take at most
    ``span + 1`` values, which bounds ``n_S`` and ``n_R``.

    Args:
        model: the joint distribution of the tuples.
        target: the name of the target tuple.
        known: the names of the known tuples (validated as in :func:`table_leakage`).
        query: the linear query; None means the sum.

    Returns:
        The estimated number of cells, an exact integer.

    References:
        Li et al. (2019), Section IV-A, Definition 2, Eq. 2 (the search whose size is estimated).
    """
    adv = Adversary.of(model, target, known)
    query = query or LinearQuery.sum(model.variables)
    D = _scale_of(model, query)

    def span(names: Sequence[str]) -> int:
        total = 0
        for v in names:
            vals = _scaled_values(model, query, v, D)
            total += max(vals) - min(vals)
        return total

    size = {v: len(model.domain(v)) for v in model.variables}
    unknown = adv.unknown(model)
    d_i = size[adv.target]
    n_k = math.prod(size[k] for k in adv.known)
    n_s = min(math.prod(size[u] for u in unknown), span(unknown) + 1)
    n_r = min(d_i * n_k * n_s, span(model.variables) + 1)
    return model.cells + d_i * n_k * n_s * n_r + d_i * d_i * n_k * n_r


def all_adversaries(model: JointDistribution) -> Iterator[Adversary]:
    """Every ``A(i, K)``, targets in model order; for each target, K by decreasing size
    (the bottom layer, ``K = [n] - {i}``, first; the weakest adversary, ``K`` empty, last).

    Args:
        model: the joint distribution whose variables are the tuples.

    Yields:
        The :class:`Adversary` of each target and known set, ``n 2^(n-1)`` of them.

    References:
        Li et al. (2019), Section III-A1 (adversaries and prior knowledge) and Section V-A
        (the layers of the hierarchical graph).
    """
    names = model.variables
    for target in names:
        others = [v for v in names if v != target]
        for size in range(len(others), -1, -1):
            for K in itertools.combinations(others, size):
                yield Adversary(target, K)


def leakage_all(
    model: JointDistribution,
    lam: Fraction | int = 1,
    query: LinearQuery | None = None,
    *,
    method: Literal["screened", "exact"] = "screened",
    progress: Any = None,
) -> list[LeakageResult]:
    """Eq. 2 for every adversary of the model (``n 2^(n-1)`` of them).

    Args:
        model: the joint distribution of the tuples, with exact probabilities.
        lam: the Laplace scale, a rational > 0 (else ``InputError("lam")``).
        query: the linear query; None means the sum of all tuples.
        method: ``"screened"`` or ``"exact"``, as in :func:`table_leakage`.
        progress: None, or an object whose ``update(1)`` is called after each adversary.

    Returns:
        One :class:`LeakageResult` per adversary, in the order of :func:`all_adversaries`.

    References:
        Li et al. (2019), Section IV-A, Definition 2, Eq. 2; the PDP level of Definition 2 is the max of these values.
    """
    lam = Fraction(lam)
    if lam <= 0:
        raise InputError("lam", f"must be > 0, got {fraction_str(lam)}")
    query = query or LinearQuery.sum(model.variables)
    D = _scale_of(model, query)
    big = _too_big(model, query, D)
    scaled = {v: _scaled_values(model, query, v, D) for v in model.variables}
    out = []
    for adv in all_adversaries(model):
        out.append(_leakage_of(model, adv, lam, query, D, method, big, scaled))
        if progress is not None:
            progress.update(1)
    return out


def _leakage_of(
    model: JointDistribution,
    adv: Adversary,
    lam: Fraction,
    query: LinearQuery,
    D: int,
    method: str,
    big: bool,
    scaled: dict[str, list[int]] | None = None,
) -> LeakageResult:
    t = _tables(model, query, adv, D, big, scaled)
    d_i, nK, nS = t.C.shape
    Dlam = D * lam
    P = t.P
    positive = P > 0
    # compatible (a, b, k): both target values possible given x_K = config k
    compat = positive[:, None, :] & positive[None, :, :]
    compat &= ~np.eye(d_i, dtype=bool)[:, :, None]
    if not compat.any():
        return LeakageResult(adv, lam, "no-compatible-pair")
    supp = t.C > 0
    points = (t.base[:, :, None] + t.S[None, None, :])[supp]
    R = np.unique(points)
    # support range of each (a, k), for restricting r to the pair's union range
    sentinel = int(np.iinfo(np.int64).max)
    lo = np.where(supp, t.base[:, :, None] + t.S[None, None, :], sentinel).min(axis=2)
    hi = np.where(supp, t.base[:, :, None] + t.S[None, None, :], -sentinel).max(axis=2)

    def exact_of(flat: int) -> LogRatio:
        a, b, k, r = np.unravel_index(flat, (d_i, d_i, nK, len(R)))
        return _exact_ratio(t, int(a), int(b), int(k), int(R[r]), Dlam)

    def key_of(flat: int) -> object:
        a, b, k, r = (int(x) for x in np.unravel_index(flat, (d_i, d_i, nK, len(R))))
        rr = int(R[r])
        return (
            _reduced(t.C[a, k]),
            _reduced(t.C[b, k]),
            rr - int(t.base[a, k]),
            rr - int(t.base[b, k]),
        )

    lo_ab = np.minimum(lo[:, None, :], lo[None, :, :])
    hi_ab = np.maximum(hi[:, None, :], hi[None, :, :])
    valid = (
        compat[:, :, :, None]
        & (R[None, None, None, :] >= lo_ab[:, :, :, None])
        & (R[None, None, None, :] <= hi_ab[:, :, :, None])
    )
    n_cand = int(valid.sum())
    screen = None
    if method != "exact":
        dominant = dominant_screen(t.C, t.base, t.S, R, Dlam, P, valid)
        small = None if dominant is not None else small_scale_screen(t.C, t.base, t.S, R, Dlam, P)
        if dominant is not None:  # 1/(D lambda) so large that the floats below cannot rank
            valid, screen = dominant
        elif small is not None:  # 1/(D lambda) so small that every value is near 0
            floats, scale, error = small
            best_idx, best, decided = screen_then_decide(
                floats,
                exact_of,
                _exact_cmp,
                SCREEN_MARGIN,
                key_of,
                valid=valid,
                scale=scale,
                error=error,
            )
            return _result(t, adv, lam, R, D, best_idx, best, n_cand, decided)
        else:
            screen = plain_screen(t.C, t.base, t.S, R, Dlam, P)
    if screen is None:
        # every candidate decided exactly: the test oracle for the screen, and the path
        # for scales at which floats cannot rank (lambda = 10^-320, counts beyond 10^308)
        best_idx, best, decided = screen_then_decide(
            np.zeros(valid.size),
            exact_of,
            _exact_cmp,
            key_of=None if method == "exact" else key_of,
            valid=valid,
            scale=math.inf,
        )
    else:
        ratio, scale = screen
        best_idx, best, decided = screen_then_decide(
            ratio, exact_of, _exact_cmp, SCREEN_MARGIN, key_of, valid=valid, scale=scale
        )
    return _result(t, adv, lam, R, D, best_idx, best, n_cand, decided)


def _result(
    t: _Tables,
    adv: Adversary,
    lam: Fraction,
    R: np.ndarray,
    D: int,
    best_idx: int,
    best: LogRatio,
    n_cand: int,
    decided: int,
) -> LeakageResult:
    d_i, nK = t.C.shape[0], t.C.shape[1]
    a, b, k, r = (int(x) for x in np.unravel_index(best_idx, (d_i, d_i, nK, len(R))))
    witness = Witness(
        t.target_values[a],
        t.target_values[b],
        dict(zip(adv.known, _config(t.known_domains, k), strict=True)),
        Fraction(int(R[r]), D),
    )
    return LeakageResult(adv, lam, "ok", best, witness, n_cand, decided)


def _exact_cmp(x: LogRatio, y: LogRatio) -> int:
    return x.exact_compare(y)


def _config(domains: list[tuple[Fraction, ...]], k: int) -> tuple[Fraction, ...]:
    """The k-th joint value of the known tuples, in C (row-major) order."""
    shape = [len(d) for d in domains]
    idx = np.unravel_index(k, shape) if shape else ()
    return tuple(d[int(j)] for d, j in zip(domains, idx, strict=True))


def _reduced(row: np.ndarray) -> tuple[int, ...]:
    ints = [int(c) for c in row]
    g = math.gcd(*ints)
    return tuple(c // g for c in ints)


def _exact_ratio(t: _Tables, a: int, b: int, k: int, r: int, Dlam: Fraction) -> LogRatio:
    """ln [p(r|a,k) / p(r|b,k)] as exp-polynomials, cross-multiplied by the priors."""
    Pa, Pb = int(t.P[a, k]), int(t.P[b, k])
    num = _density(t, a, k, r, Dlam, Pb)
    den = _density(t, b, k, r, Dlam, Pa)
    return LogRatio(num, den)


def _density(t: _Tables, a: int, k: int, r: int, Dlam: Fraction, factor: int) -> ExpPoly:
    """``factor * D_theta * P(x_i, x_K) * 2 D lambda p(r | x_i, x_K)``: a Laplace mixture."""
    base = int(t.base[a, k])
    weights: dict[int, int] = {}
    for s, c in zip(t.S.tolist(), t.C[a, k].tolist(), strict=True):
        if c:
            weights[base + int(s)] = int(c) * factor
    return laplace_mixture_at(weights, Dlam, r)
