"""PDP leakage of a linear query on a multivariate Gaussian (Li et al. Section VI).

Lemma 1 (conditioning). With ``A = {i} ∪ K`` and ``U`` the rest,
``x_U | x_A ~ N(mu_U + S_UA S_AA^{-1} (x_A - mu_A), S_UU - S_UA S_AA^{-1} S_AU)``
(the Schur complement). So for ``f = Σ_k w_k x_k`` given ``(x_i, x_K)``, ``f`` is Gaussian
with a variance ``s^2 = w_U^T (S_UU - S_UA S_AA^{-1} S_AU) w_U`` that does not depend on
``x_i`` and a mean ``const + c x_i`` with (Eq. 37, "the coefficient of x_i")

    c = w_i + w_U^T S_UA S_AA^{-1} e_i.

Lemma 2 (the output density, a Laplace-Gaussian convolution) and Eq. 19 evaluated
directly are in :mod:`pdpsym.papers.li2019.gaussian_density`.

Theorem 6 (rebuilt). ``PL(A(i, K)) = |c| (u_i - l_i) / lam``, a supremum approached (not
attained when ``s > 0``) as ``r -> +/- inf``. For the sum query (all ``w = 1``) this is the
paper's ``|c| Δ_i / lam`` with ``Δ_i = |w_i| (u_i - l_i)``. For a weighted query the paper
reduces to a sum through ``x'_k = w_k x_k``; the coefficient of ``x'_i`` is ``c / w_i``,
so the leakage is ``|c / w_i| Δ_i / lam``, the same number (needs ``w_i != 0``). This is
the reading ``THM6_READING``.

Corollary 2 (``K = ∅``): ``c = Σ_j w_j s_ij / s_ii``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.core.certify import certify
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str, to_sympy
from pdpsym.loss.leakage_result import Leakage, Status
from pdpsym.models.gaussian import FMatrix, GaussianModel, solve, submatrix

THM6_READING = (
    "PL = |c|(u_i - l_i)/lam, c = coefficient of x_i in E[f | x_i, x_K]; for the sum this is "
    "the printed |c| Δ_i/lam, for weights it is |c/w_i| Δ_i/lam (the x'_k = w_k x_k reduction)"
)


# --- weights and adversaries -------------------------------------------------------------


def weight_vector(model: GaussianModel, weights: Mapping[str, Fraction] | None) -> list[Fraction]:
    """Weights in variable order; names not given keep weight 1 (the sum query).

    Args:
        model: the Gaussian model (exact mean, covariance and target ranges).
        weights: the weights of the linear query by variable name (None: all 1); an unknown
            name is ``InputError("weights")``.

    Returns:
        One exact weight per variable, in model order.

    References:
        Li et al. (2019), Section III-A3 (the linear query ``f = sum_k w_k x_k``).
    """
    w = [Fraction(1)] * model.n
    for name, value in (weights or {}).items():
        if name not in model.variables:
            raise InputError("weights", f"unknown variable {name!r}")
        w[model.variables.index(name)] = Fraction(value)
    return w


def adversary_indices(
    model: GaussianModel, target: str, known: Sequence[str]
) -> tuple[int, list[int]]:
    """The indices of ``A(target, known)`` in the model, validated.

    Args:
        model: the Gaussian model (exact mean, covariance and target ranges).
        target: the target's name (``InputError("target")`` when unknown).
        known: the known tuples' names, distinct and not the target
            (``InputError("known")`` otherwise); their order is kept.

    Returns:
        ``(i, K)``: the target's index and the known tuples' indices.

    References:
        Li et al. (2019), Section III-A1 (the adversary ``A(i, K)``).
    """
    i = model.index(target, "target")
    k_idx: list[int] = []
    for name in known:
        j = model.index(name, "known")
        if j == i:
            raise InputError("known", f"the target {target!r} cannot also be known")
        if j in k_idx:
            raise InputError("known", f"{name!r} listed twice")
        k_idx.append(j)
    return i, k_idx


@dataclass(frozen=True)
class GaussianQuery:
    """One question of Section VI, validated once: the leakage of ``f + Lap(lam)`` about
    ``x_i`` to ``A(i, K)``, with ``f = Σ_k w_k x_k`` and ``x ~ N(mu, Sigma)``.

    The inputs are checked in this order, each failure an ``InputError`` naming its
    parameter: ``lam > 0`` (``"lam"``), the target and the known tuples (``"target"``,
    ``"known"``: known names, distinct, not the target), the target's range
    (``"ranges"``), the weights' names (``"weights"``). ``known`` is kept as a tuple and
    ``lam`` as a Fraction; ``weights`` is kept as given, and the weight vector ``w``
    (model order, names not given weigh 1) is what counts, also for equality.

    Args:
        model: the Gaussian model; the target must have a range ``[l_i, u_i]``.
        target: the target's name.
        known: the known tuples' names (distinct, not the target); their order is kept.
        lam: the Laplace scale, a rational > 0.
        weights: the query's weights by name (None: the sum).

    Attributes:
        w: the weights in model order (names not given weigh 1).
        target_index: ``i``, the target's index in the model.
        known_indices: ``K``, the known tuples' indices, in the order of ``known``.
        low: ``l_i``, the low end of the target's range.
        high: ``u_i``, its high end.

    References:
        Li et al. (2019), Section III-A (the adversary ``A(i, K)`` and the linear query) and
        Section VI-A (the Gaussian model); Lemma 1 conditions on ``(x_i, x_K)``.

    Examples:
        >>> from pdpsym.models.gaussian import GaussianModel
        >>> g = GaussianModel.build(
        ...     ["x1", "x2"], [0, 0], [[1, "1/2"], ["1/2", 1]], {"x1": [0, 1]}
        ... )
        >>> q = GaussianQuery(g, "x1", lam=Fraction(1, 2), weights={"x1": Fraction(2)})
        >>> q.lam, q.w, (q.low, q.high)
        (Fraction(1, 2), (Fraction(2, 1), Fraction(1, 1)), (Fraction(0, 1), Fraction(1, 1)))
    """

    model: GaussianModel = field(repr=False)
    target: str
    known: tuple[str, ...] = ()
    lam: Fraction = Fraction(1)
    weights: Mapping[str, Fraction] | None = field(default=None, compare=False)
    w: tuple[Fraction, ...] = field(init=False, repr=False)
    target_index: int = field(init=False, repr=False)
    known_indices: tuple[int, ...] = field(init=False, repr=False)
    low: Fraction = field(init=False, repr=False)
    high: Fraction = field(init=False, repr=False)

    def __post_init__(self) -> None:
        lam = Fraction(self.lam)
        if lam <= 0:
            raise InputError("lam", f"must be > 0, got {fraction_str(lam)}")
        i, k_idx = adversary_indices(self.model, self.target, self.known)
        low, high = self.model.range_of(self.target)
        w = weight_vector(self.model, self.weights)
        for name, value in (
            ("known", tuple(self.known)),
            ("lam", lam),
            ("w", tuple(w)),
            ("target_index", i),
            ("known_indices", tuple(k_idx)),
            ("low", low),
            ("high", high),
        ):
            object.__setattr__(self, name, value)  # normalized and derived, set once

    def _adversary(self, target_index: int, known_indices: tuple[int, ...]) -> GaussianQuery:
        """The same model, lam and weights about another adversary ``A(i, K)`` whose
        indices come from the model itself and whose target has a range: only the names
        and the range are looked up (``all_adversaries`` builds ``n 2^(n-1)`` of these)."""
        obj = object.__new__(GaussianQuery)
        names = self.model.variables
        low, high = self.model.ranges[names[target_index]]
        for name, value in (
            ("model", self.model),
            ("target", names[target_index]),
            ("known", tuple(names[k] for k in known_indices)),
            ("lam", self.lam),
            ("weights", self.weights),
            ("w", self.w),
            ("target_index", target_index),
            ("known_indices", known_indices),
            ("low", low),
            ("high", high),
        ):
            object.__setattr__(obj, name, value)
        return obj


# --- Lemma 1 -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Conditional:
    """Lemma 1: ``x_U | x_A ~ N(offset + gain x_A, cov)`` (sympy matrices, exact)."""

    given: tuple[int, ...]
    unknown: tuple[int, ...]
    gain: sympy.Matrix  # S_UA S_AA^{-1}
    offset: sympy.Matrix  # mu_U - gain mu_A
    cov: sympy.Matrix  # S_UU - S_UA S_AA^{-1} S_AU

    def mean(self, x_given: Sequence[Fraction]) -> sympy.Matrix:
        """The exact conditional mean ``offset + gain x_A`` of ``x_U`` given ``x_A = x_given``."""
        return self.offset + self.gain * sympy.Matrix([[to_sympy(v)] for v in x_given])


def _singular(given: Sequence[int], model: GaussianModel) -> InputError:
    names = ",".join(model.variables[k] for k in given)
    return InputError("cov", f"the covariance of the given tuples ({names}) is singular")


def condition(model: GaussianModel, given: Sequence[int]) -> Conditional:
    """Lemma 1 through the Schur complement, in exact sympy arithmetic.

    Args:
        model: the Gaussian model (exact mean, covariance and target ranges).
        given: the indices ``A`` of the given tuples, in the order of ``x_A``; their
            covariance must be non-singular (``InputError("cov")`` otherwise).

    Returns:
        The exact :class:`Conditional`: ``x_U | x_A ~ N(offset + gain x_A, cov)`` with
        ``gain = S_UA S_AA^-1`` and ``cov = S_UU - S_UA S_AA^-1 S_AU`` (empty matrices when
        every tuple is given).

    References:
        Li et al. (2019), Section VI-A, Lemma 1(1).
    """
    a = list(given)
    u = [k for k in range(model.n) if k not in a]
    cov = model.cov_matrix()
    mu = model.mean_matrix()
    s_aa = cov.extract(a, a)
    if s_aa.det() == 0:
        raise _singular(a, model)
    if not u:
        empty = sympy.zeros(0, len(a))
        return Conditional(tuple(a), (), empty, sympy.zeros(0, 1), sympy.zeros(0, 0))
    s_ua = cov.extract(u, a)
    gain = s_ua * s_aa.inv()
    offset = mu.extract(u, [0]) - gain * mu.extract(a, [0])
    schur = cov.extract(u, u) - gain * s_ua.T
    return Conditional(tuple(a), tuple(u), gain, offset, schur)


@dataclass(frozen=True)
class QueryGiven:
    """``f | (x_i, x_K) ~ N(constant + Σ_{k in A} beta_k x_k, variance)``; ``c = beta_i``."""

    target: int
    known: tuple[int, ...]
    beta: tuple[Fraction, ...]  # coefficients of x_A, A = (target, *known)
    constant: Fraction
    variance: Fraction

    @property
    def coefficient(self) -> Fraction:
        """``c``, the coefficient of ``x_i`` in ``E[f | x_i, x_K]`` (Eq. 37): ``beta_i``."""
        return self.beta[0]


def query_given(
    model: GaussianModel, target: int, known: Sequence[int], w: Sequence[Fraction]
) -> QueryGiven:
    """Lemma 1 applied to ``f``: exact ``c = w_i + w_U^T S_UA S_AA^{-1} e_i`` and ``s^2``.

    Args:
        model: the Gaussian model (exact mean, covariance and target ranges).
        target: the target's index ``i``.
        known: the known tuples' indices ``K``.
        w: the query's weights, in variable order.

    Returns:
        The exact :class:`QueryGiven`: the coefficients of ``x_A`` (``A = (i, *K)``) and the
        constant of ``E[f | x_A]``, with ``c`` the target's coefficient, and the conditional
        variance ``s^2``. ``InputError("cov")`` when ``S_AA`` is singular.

    References:
        Li et al. (2019), Section VI-A, Lemma 1 (1) and (2); Appendix C, Eq. 37 (``c`` is
        "the coefficient of x_i"; the printed formula is lost and this is our reading).
    """
    a = [target, *known]
    u = [k for k in range(model.n) if k not in a]
    cov = model.cov_list()
    s_aa = submatrix(cov, a, a)
    w_a = [w[k] for k in a]
    w_u = [w[k] for k in u]
    if not u:
        if not a or _is_singular(s_aa):
            raise _singular(a, model)
        return QueryGiven(target, tuple(known), tuple(w_a), Fraction(0), Fraction(0))
    s_au = submatrix(cov, a, u)
    try:
        x = solve(s_aa, s_au)  # S_AA^{-1} S_AU, so gain = x^T
    except ZeroDivisionError:
        raise _singular(a, model) from None
    # w_U^T gain = (x w_U)^T, a row over A
    g = [sum((x[p][q] * w_u[q] for q in range(len(u))), Fraction(0)) for p in range(len(a))]
    beta = tuple(w_a[p] + g[p] for p in range(len(a)))
    const = sum((w_u[q] * model.mean[u[q]] for q in range(len(u))), Fraction(0)) - sum(
        (g[p] * model.mean[a[p]] for p in range(len(a))), Fraction(0)
    )
    # s^2 = w_U^T (S_UU - S_UA S_AA^{-1} S_AU) w_U
    s_uu_w = sum(
        (w_u[p] * cov[u[p]][u[q]] * w_u[q] for p in range(len(u)) for q in range(len(u))),
        Fraction(0),
    )
    s_ua_w = [sum((s_au[p][q] * w_u[q] for q in range(len(u))), Fraction(0)) for p in range(len(a))]
    variance = s_uu_w - sum((g[p] * s_ua_w[p] for p in range(len(a))), Fraction(0))
    return QueryGiven(target, tuple(known), beta, const, variance)


def _is_singular(m: FMatrix) -> bool:
    try:
        solve(m, [[Fraction(0)] for _ in m])
    except ZeroDivisionError:
        return True
    return False


def regression_coefficients(
    model: GaussianModel, given: Sequence[int], w: Sequence[Fraction]
) -> tuple[list[Fraction], Fraction]:
    """An independent route: ``E[f | x_A]`` by the normal equations ``S_AA beta = Cov(x_A, f)``.

    Args:
        model: the Gaussian model (exact mean, covariance and target ranges).
        given: the indices ``A`` of the given tuples (``S_AA`` non-singular, else
            ``InputError("cov")``).
        w: the query's weights, in variable order.

    Returns:
        ``(beta, s^2)``, exact: the coefficients of ``x_A`` in ``E[f | x_A]`` and
        ``s^2 = Var f - Cov(f, x_A) beta``.

    References:
        Li et al. (2019), Section VI-A, Lemma 1 (here by linear regression, as a cross-check
        of :func:`query_given`); Anderson, An Introduction to Multivariate Statistical
        Analysis, Chapter 2 (the normal equations).
    """
    a = list(given)
    cov = model.cov_list()
    n = model.n
    b = [[sum((cov[k][j] * w[j] for j in range(n)), Fraction(0))] for k in a]
    try:
        beta = [row[0] for row in solve(submatrix(cov, a, a), b)]
    except ZeroDivisionError:
        raise _singular(a, model) from None
    var_f = sum((w[p] * cov[p][q] * w[q] for p in range(n) for q in range(n)), Fraction(0))
    s2 = var_f - sum((b[p][0] * beta[p] for p in range(len(a))), Fraction(0))
    return beta, s2


# --- Theorem 6 -----------------------------------------------------------------------------


@dataclass(frozen=True)
class GaussianLeakage(Leakage):
    """Theorem 6's answer to a :class:`GaussianQuery`: ``PL(A(i, K)) = |c| (u_i - l_i) / lam``,
    with ``c`` and the conditional variance of ``f`` from Lemma 1 (``given``); its
    ``target`` and ``known`` (in the query's order) are the query's, its status ``"ok"``."""

    query: GaussianQuery
    given: QueryGiven
    target: str = field(init=False, repr=False)
    known: tuple[str, ...] = field(init=False, repr=False)
    status: Status = field(init=False, repr=False, default="ok")

    def __post_init__(self) -> None:
        object.__setattr__(self, "target", self.query.target)
        object.__setattr__(self, "known", self.query.known)

    @property
    def coefficient(self) -> Fraction:
        """``c``, the coefficient of ``x_i`` in ``E[f | x_i, x_K]`` (Eq. 37)."""
        return self.given.coefficient

    @property
    def variance(self) -> Fraction:
        """``s^2``, the conditional variance of ``f`` (free of ``x_i``)."""
        return self.given.variance

    @property
    def value(self) -> Fraction:
        """The leakage ``|c| (u_i - l_i) / lam``, exactly."""
        q = self.query
        return theorem6_value(self.given.coefficient, q.low, q.high, q.lam)

    def value_json(self, digits: int) -> dict[str, Any] | None:
        """The exact value and its certified decimal as JSON.

        Args:
            digits: the significant digits.

        Returns:
            :func:`pdpsym.core.certify.certify`'s JSON of :attr:`value`.
        """
        return certify(self.value, digits).as_json()

    def compare_rational(self, q: Fraction) -> int | None:
        """The exact sign of ``PL - q`` (both rationals).

        Args:
            q: the rational to compare with.

        Returns:
            ``-1``, ``0`` or ``1``.
        """
        v = self.value
        return (v > q) - (v < q)


def theorem6_value(c: Fraction, low: Fraction, high: Fraction, lam: Fraction) -> Fraction:
    """Theorem 6: ``PL(A(i, K)) = |c| (u_i - l_i) / λ``, a supremum approached as r → ±∞.

    Args:
        c: the coefficient of ``x_i`` in the conditional mean of ``f`` (Eq. 37).
        low: ``l_i``, the low end of the target's range.
        high: ``u_i``, its high end.
        lam: the Laplace scale λ.

    Returns:
        The leakage, exactly.

    References:
        Li et al., Section VI, Theorem 6 (proved in ``pdpsym.proofs.gaussian_conditioning``).
    """
    return abs(c) * (high - low) / lam


def gaussian_leakage(
    model: GaussianModel,
    target: str,
    known: Sequence[str] = (),
    lam: Fraction | int = 1,
    weights: Mapping[str, Fraction] | None = None,
) -> GaussianLeakage:
    """Exact PDP leakage of the Laplace mechanism on ``f = Σ w_k x_k`` (Theorem 6).

    Args:
        model: the Gaussian model; the target must have a range ``[l_i, u_i]``.
        target: the target's name.
        known: the known tuples' names (distinct, not the target).
        lam: the Laplace scale, a rational > 0 (else ``InputError("lam")``).
        weights: the query's weights by name (None: the sum).

    Returns:
        The exact :class:`GaussianLeakage`, with value ``|c| (u_i - l_i) / lam`` (a supremum
        approached as the output goes to +-infinity), ``c`` and the conditional variance.

    References:
        Li et al. (2019), Section VI-B, Theorem 6 (rebuilt reading ``THM6_READING``: the
        printed formula is lost; for a weighted query it is read through the reduction
        ``x'_k = w_k x_k`` of Section III-A3).

    Examples:
        Example 5 with ``rho = 1/2``: the weakest adversary leaks ``(1 + rho) Delta/lam``,
        the strongest ``Delta/lam``.

        >>> from pdpsym.models.gaussian import GaussianModel
        >>> g = GaussianModel.build(
        ...     ["x1", "x2"], [0, 0], [[1, "1/2"], ["1/2", 1]], {"x1": [0, 1]}
        ... )
        >>> gaussian_leakage(g, "x1").value
        Fraction(3, 2)
        >>> gaussian_leakage(g, "x1", ["x2"]).value
        Fraction(1, 1)
    """
    query = GaussianQuery(model, target, tuple(known), Fraction(lam), weights)
    given = query_given(model, query.target_index, query.known_indices, query.w)
    return GaussianLeakage(query, given)


def _bordered(inv: FMatrix, col: list[Fraction], d: Fraction) -> FMatrix:
    """Inverse of [[M, b], [b^T, d]] from inv = M^{-1} (the bordering update)."""
    v = [sum((r[q] * col[q] for q in range(len(col))), Fraction(0)) for r in inv]
    k = d - sum((col[q] * v[q] for q in range(len(col))), Fraction(0))
    if k == 0:
        raise ZeroDivisionError("singular")
    out = [
        [inv[p][q] + v[p] * v[q] / k for q in range(len(v))] + [-v[p] / k] for p in range(len(v))
    ]
    out.append([-x / k for x in v] + [1 / k])
    return out


def all_conditionals(
    model: GaussianModel, w: Sequence[Fraction]
) -> Iterator[tuple[tuple[int, ...], list[Fraction], Fraction]]:
    """Every nonempty ``A`` with ``(beta, s^2)`` of ``E[f | x_A]``, reusing factorizations.

    ``A`` grows by one index at a time in increasing order (depth first), and
    ``S_AA^{-1}`` is updated by bordering, O(|A|^2) per set. Each ``A`` serves the |A|
    adversaries ``A(i, A - {i})`` at once: ``c = beta_i`` and ``s^2`` depends on A only.

    Args:
        model: the Gaussian model; every ``S_AA`` must be non-singular
            (``InputError("cov")`` at the first that is not).
        w: the query's weights, in variable order.

    Yields:
        ``(A, beta, s^2)``: the sorted index tuple, the exact coefficients of ``x_A`` and
        the exact conditional variance of ``f``.

    References:
        Li et al. (2019), Section VI-A, Lemma 1; Golub and Van Loan, Matrix Computations
        (the bordering update of an inverse).
    """
    n = model.n
    cov = model.cov_list()
    cf = [sum((cov[k][j] * w[j] for j in range(n)), Fraction(0)) for k in range(n)]
    var_f = sum((w[p] * cf[p] for p in range(n)), Fraction(0))

    def visit(
        a: list[int], inv: FMatrix
    ) -> Iterator[tuple[tuple[int, ...], list[Fraction], Fraction]]:
        b = [cf[k] for k in a]
        beta = [sum((row[q] * b[q] for q in range(len(a))), Fraction(0)) for row in inv]
        s2 = var_f - sum((b[p] * beta[p] for p in range(len(a))), Fraction(0))
        yield tuple(a), beta, s2
        for j in range(a[-1] + 1, n):
            try:
                nxt = _bordered(inv, [cov[k][j] for k in a], cov[j][j])
            except ZeroDivisionError:
                raise _singular([*a, j], model) from None
            yield from visit([*a, j], nxt)

    for first in range(n):
        if cov[first][first] <= 0:
            raise _singular([first], model)
        yield from visit([first], [[1 / cov[first][first]]])


def all_adversaries(
    model: GaussianModel, lam: Fraction | int = 1, weights: Mapping[str, Fraction] | None = None
) -> list[GaussianLeakage]:
    """Theorem 6 for every adversary ``A(i, K)`` whose target has a range, n 2^(n-1) at most.

    Args:
        model: the Gaussian model; at least one variable needs a range
            (``InputError("ranges")`` otherwise).
        lam: the Laplace scale, a rational > 0 (else ``InputError("lam")``).
        weights: the query's weights by name (None: the sum).

    Returns:
        One exact :class:`GaussianLeakage` per adversary, sorted by target (model order),
        then by the number of known tuples, then by their names.

    References:
        Li et al. (2019), Section VI-B, Theorem 6 (rebuilt reading ``THM6_READING``).
    """
    lam = Fraction(lam)
    if lam <= 0:
        raise InputError("lam", f"must be > 0, got {fraction_str(lam)}")
    if not model.ranges:
        raise InputError("ranges", "no variable has a range [l, u], so there is no target")
    # one checked query (lam, the weights); every adversary below reuses it
    first = next(v for v in model.variables if v in model.ranges)
    base = GaussianQuery(model, first, (), lam, weights)
    w = list(base.w)
    mean_f = sum((wk * mk for wk, mk in zip(w, model.mean, strict=True)), Fraction(0))
    out = []
    for a, beta, s2 in all_conditionals(model, w):
        # E[f | x_A] = mean_f + Σ_p beta_p (x_{a_p} - mu_{a_p}), whichever tuple is the target
        constant = mean_f - sum(
            (b * model.mean[k] for b, k in zip(beta, a, strict=True)), Fraction(0)
        )
        for p, i in enumerate(a):
            name = model.variables[i]
            if name not in model.ranges:
                continue
            rest = [r for r in range(len(a)) if r != p]
            known = tuple(a[r] for r in rest)
            given = QueryGiven(i, known, (beta[p], *(beta[r] for r in rest)), constant, s2)
            out.append(GaussianLeakage(base._adversary(i, known), given))
    out.sort(key=lambda g: (g.given.target, len(g.known), g.known))
    return out


__all__ = [
    "THM6_READING",
    "Conditional",
    "GaussianLeakage",
    "GaussianQuery",
    "QueryGiven",
    "all_adversaries",
    "all_conditionals",
    "condition",
    "gaussian_leakage",
    "query_given",
    "regression_coefficients",
    "theorem6_value",
    "weight_vector",
]
