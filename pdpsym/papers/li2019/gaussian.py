"""PDP leakage of a linear query on a multivariate Gaussian (Li et al. Section VI).

Lemma 1 (conditioning). With ``A = {i} ∪ K`` and ``U`` the rest,
``x_U | x_A ~ N(mu_U + S_UA S_AA^{-1} (x_A - mu_A), S_UU - S_UA S_AA^{-1} S_AU)``
(the Schur complement). So for ``f = Σ_k w_k x_k`` given ``(x_i, x_K)``, ``f`` is Gaussian
with a variance ``s^2 = w_U^T (S_UU - S_UA S_AA^{-1} S_AU) w_U`` that does not depend on
``x_i`` and a mean ``const + c x_i`` with (Eq. 37, "the coefficient of x_i")

    c = w_i + w_U^T S_UA S_AA^{-1} e_i.

Lemma 2 (rebuilt). The output density is the Laplace-Gaussian convolution
``p(r) = e^{s^2/(2 lam^2)} / (2 lam) * h(r - m)`` with
``h(t) = e^{-t/lam} Phi(t/s - s/lam) + e^{t/lam} Phi(-t/s - s/lam)``; ``ln h`` is
``1/lam``-Lipschitz with slopes tending to ``-/+ 1/lam`` as ``t -> +/- inf`` (proof:
proofs/lemma2_gaussian.py). For ``s = 0`` the density is Laplace, ``h(t) = e^{-|t|/lam}``.

Theorem 6 (rebuilt). ``PL(A(i, K)) = |c| (u_i - l_i) / lam``, a supremum approached (not
attained when ``s > 0``) as ``r -> +/- inf``. For the sum query (all ``w = 1``) this is the
paper's ``|c| Δ_i / lam`` with ``Δ_i = |w_i| (u_i - l_i)``. For a weighted query the paper
reduces to a sum through ``x'_k = w_k x_k``; the coefficient of ``x'_i`` is ``c / w_i``,
so the leakage is ``|c / w_i| Δ_i / lam``, the same number (needs ``w_i != 0``). This is
the reading ``THM6_READING``.

Corollary 2 (``K = ∅``): ``c = Σ_j w_j s_ij / s_ii``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.core.balls import Ball, to_ball, working_precision
from pdpsym.core.certify import arb_from_fraction, ball_endpoints, decimal_string, refine
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str, from_sympy, to_sympy
from pdpsym.models.gaussian import FMatrix, GaussianModel, solve, submatrix

THM6_READING = (
    "PL = |c|(u_i - l_i)/lam, c = coefficient of x_i in E[f | x_i, x_K]; for the sum this is "
    "the printed |c| Δ_i/lam, for weights it is |c/w_i| Δ_i/lam (the x'_k = w_k x_k reduction)"
)


# --- weights and adversaries -------------------------------------------------------------


def weight_vector(model: GaussianModel, weights: Mapping[str, Fraction] | None) -> list[Fraction]:
    """Weights in variable order; names not given keep weight 1 (the sum query)."""
    w = [Fraction(1)] * model.n
    for name, value in (weights or {}).items():
        if name not in model.variables:
            raise InputError("weights", f"unknown variable {name!r}")
        w[model.variables.index(name)] = Fraction(value)
    return w


def adversary_indices(
    model: GaussianModel, target: str, known: Sequence[str]
) -> tuple[int, list[int]]:
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
        return self.offset + self.gain * sympy.Matrix([[to_sympy(v)] for v in x_given])


def _singular(given: Sequence[int], model: GaussianModel) -> InputError:
    names = ",".join(model.variables[k] for k in given)
    return InputError("cov", f"the covariance of the given tuples ({names}) is singular")


def condition(model: GaussianModel, given: Sequence[int]) -> Conditional:
    """Lemma 1 through the Schur complement, in exact sympy arithmetic."""
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
    coefficient: Fraction
    variance: Fraction
    beta: tuple[Fraction, ...]  # coefficients of x_A, A = (target, *known)
    constant: Fraction


def query_given(
    model: GaussianModel, target: int, known: Sequence[int], w: Sequence[Fraction]
) -> QueryGiven:
    """Lemma 1 applied to ``f``: exact ``c = w_i + w_U^T S_UA S_AA^{-1} e_i`` and ``s^2``."""
    a = [target, *known]
    u = [k for k in range(model.n) if k not in a]
    cov = model.cov_list()
    s_aa = submatrix(cov, a, a)
    w_a = [w[k] for k in a]
    w_u = [w[k] for k in u]
    if not u:
        if not a or _is_singular(s_aa):
            raise _singular(a, model)
        beta = tuple(w_a)
        const = Fraction(0)
        return QueryGiven(target, tuple(known), beta[0], Fraction(0), beta, const)
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
    return QueryGiven(target, tuple(known), beta[0], variance, beta, const)


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

    Returns ``(beta, s^2)`` with ``s^2 = Var f - Cov(f, x_A) beta``.
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
class GaussianLeakage:
    """Theorem 6: ``PL(A(i, K)) = |c| (u_i - l_i) / lam`` with the conditional variance."""

    target: str
    known: tuple[str, ...]
    lam: Fraction
    coefficient: Fraction
    variance: Fraction
    low: Fraction
    high: Fraction
    value: Fraction

    def as_row(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "known": list(self.known),
            "coefficient": fraction_str(self.coefficient),
            "conditional_variance": fraction_str(self.variance),
            "value": fraction_str(self.value),
        }


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

    Examples:
        Independent records: only the target's own range ``[0, 1]`` moves the sum, so by hand
        the leakage is ``(1 - 0)/lam``:

        >>> import pdpsym as ps
        >>> g = ps.GaussianModel.from_json_object({"variables": ["x1", "x2"], "mean": ["0", "0"],
        ...     "cov": [["1", "0"], ["0", "1"]], "ranges": {"x1": ["0", "1"]}})
        >>> ps.gaussian_leakage(g, "x1", lam=2).value
        Fraction(1, 2)
    """
    lam = Fraction(lam)
    if lam <= 0:
        raise InputError("lam", f"must be > 0, got {fraction_str(lam)}")
    i, k_idx = adversary_indices(model, target, known)
    low, high = model.range_of(target)
    q = query_given(model, i, k_idx, weight_vector(model, weights))
    return GaussianLeakage(
        target,
        tuple(model.variables[k] for k in k_idx),
        lam,
        q.coefficient,
        q.variance,
        low,
        high,
        theorem6_value(q.coefficient, low, high, lam),
    )


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
    adversaries ``A(i, A \\ {i})`` at once: ``c = beta_i`` and ``s^2`` depends on A only.
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
    """Theorem 6 for every adversary ``A(i, K)`` whose target has a range, n 2^(n-1) at most."""
    lam = Fraction(lam)
    if lam <= 0:
        raise InputError("lam", f"must be > 0, got {fraction_str(lam)}")
    if not model.ranges:
        raise InputError("ranges", "no variable has a range [l, u], so there is no target")
    w = weight_vector(model, weights)
    out = []
    for a, beta, s2 in all_conditionals(model, w):
        for p, i in enumerate(a):
            name = model.variables[i]
            if name not in model.ranges:
                continue
            low, high = model.ranges[name]
            known = tuple(model.variables[k] for k in a if k != i)
            out.append(
                GaussianLeakage(
                    name,
                    known,
                    lam,
                    beta[p],
                    s2,
                    low,
                    high,
                    theorem6_value(beta[p], low, high, lam),
                )
            )
    out.sort(key=lambda g: (model.variables.index(g.target), len(g.known), g.known))
    return out


# --- Lemma 2: the Laplace-Gaussian convolution --------------------------------------------


def std_normal_cdf(x: sympy.Expr) -> sympy.Expr:
    """Phi(x) = erfc(-x / sqrt 2) / 2."""
    return sympy.erfc(-x / sympy.sqrt(2)) / 2


def h_expr(t: sympy.Expr, s: sympy.Expr, lam: sympy.Expr) -> sympy.Expr:
    """Lemma 2's ``h(t)``; ``s = 0`` gives the Laplace kernel ``e^{-|t|/lam}``."""
    if s == 0:
        return sympy.exp(-sympy.Abs(t) / lam)
    return sympy.exp(-t / lam) * std_normal_cdf(t / s - s / lam) + sympy.exp(
        t / lam
    ) * std_normal_cdf(-t / s - s / lam)


def convolution_density(r: Any, m: Any, s2: Fraction | sympy.Expr, lam: Any) -> sympy.Expr:
    """The density of ``f + Laplace(lam)`` for ``f ~ N(m, s2)`` (Eq. 19 after Lemma 1)."""
    s2e = sympy.sympify(to_sympy(s2) if isinstance(s2, Fraction | int) else s2)
    lam_e = to_sympy(lam) if isinstance(lam, Fraction | int) else sympy.sympify(lam)
    r_e = to_sympy(r) if isinstance(r, Fraction | int) else sympy.sympify(r)
    m_e = to_sympy(m) if isinstance(m, Fraction | int) else sympy.sympify(m)
    s = sympy.sqrt(s2e)
    return sympy.exp(s2e / (2 * lam_e**2)) / (2 * lam_e) * h_expr(r_e - m_e, s, lam_e)


def log_h_arb(t: Fraction | Ball, s2: Fraction, lam: Fraction, prec: int = 128) -> Ball:
    """A certified ball for ``ln h(t)`` (arb erfc; no underflow, arb exponents are unbounded)."""
    with working_precision(prec):
        ta = t if isinstance(t, Ball) else arb_from_fraction(t)
        la = arb_from_fraction(lam)
        if s2 == 0:
            return -abs(ta) / la
        s = arb_from_fraction(s2).sqrt()
        root2 = to_ball(2).sqrt()
        a = ta / s - s / la
        b = -ta / s - s / la
        h = (-ta / la).exp() * (-a / root2).erfc() / 2 + (ta / la).exp() * (-b / root2).erfc() / 2
        return h.log()


def log_ratio_arb(
    r: Fraction, m1: Fraction, m2: Fraction, s2: Fraction, lam: Fraction, prec: int = 128
) -> Ball:
    """``ln p(r | m1) / p(r | m2)`` for two output densities of equal variance (Eq. 19)."""
    with working_precision(prec):
        return log_h_arb(r - m1, s2, lam, prec) - log_h_arb(r - m2, s2, lam, prec)


# --- Eq. 19 directly: the log-ratio profile against the Theorem 6 bound ---------------------


@dataclass(frozen=True)
class Eq19Profile:
    """Certified log-ratios over a grid of r for the extreme and intermediate target values."""

    bound: Fraction
    never_exceeds: bool  # every ball lies below the bound (or equals it when c = 0)
    approaches_right: bool  # at the right end |ratio| is within tol of the bound
    approaches_left: bool
    max_upper: str  # largest upper end of any ball, rounded up to 20 digits
    points: int
    tol: Fraction


def eq19_profile(
    model: GaussianModel,
    target: str,
    known: Sequence[str] = (),
    lam: Fraction | int = 1,
    weights: Mapping[str, Fraction] | None = None,
    x_known: Sequence[Fraction] | None = None,
    grid: int = 9,
    tol: Fraction = Fraction(1, 10**6),
    prec: int = 128,
) -> Eq19Profile:
    """Evaluate Eq. 19 directly: conditional mean of ``f`` at ``x_i`` in {l, mid, u} by
    Lemma 1's conditional mean *vector* (not the coefficient formula), densities by arb.

    Checks ``|ln p(r|x_i) - ln p(r|x_i')| < |c|(u-l)/lam`` at every grid point and that the
    bound is approached within ``tol`` at both tails (r far beyond both means).
    """
    lam = Fraction(lam)
    i, k_idx = adversary_indices(model, target, known)
    low, high = model.range_of(target)
    w = weight_vector(model, weights)
    cond = condition(model, [i, *k_idx])
    xk = list(x_known) if x_known is not None else [model.mean[k] for k in k_idx]
    wu = sympy.Matrix([[to_sympy(w[k]) for k in cond.unknown]])

    def mean_of_f(xi: Fraction) -> Fraction:
        xa = [xi, *xk]
        total = sum((w[k] * x for k, x in zip([i, *k_idx], xa, strict=True)), Fraction(0))
        if cond.unknown:
            val = (wu * cond.mean(xa))[0, 0]
            total += from_sympy(val)
        return total

    values = [low, (low + high) / 2, high]
    means = [mean_of_f(v) for v in values]
    s2_e = (wu * cond.cov * wu.T)[0, 0] if cond.unknown else sympy.Integer(0)
    s2 = from_sympy(s2_e)
    c_direct = (means[2] - means[0]) / (high - low)
    bound = abs(c_direct) * (high - low) / lam
    # floor(2 sqrt(s2)) + 1, exactly (no float: s2 may be beyond float range)
    s_over = Fraction(0) if s2 == 0 else Fraction(math.isqrt(math.floor(4 * s2)) + 1)
    # far enough that a = t/s - s/lam >= 8 at both tails: the gap to the bound is < 1e-14
    reach = s_over * (4 + s_over / lam) + 1 + max(abs(v) for v in means)
    rs = [-reach + 2 * reach * Fraction(k, grid - 1) for k in range(grid)]
    if s2 == 0:
        # Laplace case: the log-ratio (|r - m_q| - |r - m_p|)/lam is rational, the bound attained
        def exact_lr(r: Fraction, p: int, q: int) -> Fraction:
            return (abs(r - means[q]) - abs(r - means[p])) / lam

        never = all(
            abs(exact_lr(r, p, q)) <= abs(means[p] - means[q]) / lam
            for r in rs
            for p in range(3)
            for q in range(3)
        )
        mx = max(exact_lr(r, p, q) for r in rs for p in range(3) for q in range(3))
        right_gap = bound - abs(exact_lr(rs[-1], 2, 0))
        left_gap = bound - abs(exact_lr(rs[0], 2, 0))
        return Eq19Profile(
            bound,
            never,
            right_gap < tol,
            left_gap < tol,
            decimal_string(mx, 20, "up"),
            grid * 9,
            tol,
        )
    never = True
    max_upper = Fraction(-(10**9))
    cap = prec  # the first doubling of prec that reaches 2^14 bits
    while cap < 1 << 14:
        cap *= 2
    for r in rs:
        for p in range(3):
            for q in range(3):
                if means[p] == means[q]:
                    continue
                pair_bound = abs(means[p] - means[q]) / lam
                # the gap to the bound shrinks like e^{-t^2/(2 s^2)}: raise precision until decided
                m_p, m_q = means[p], means[q]

                def ball_at(
                    work: int, r: Fraction = r, m_p: Fraction = m_p, m_q: Fraction = m_q
                ) -> Ball:
                    return log_ratio_arb(r, m_p, m_q, s2, lam, work)

                def settled(b: Ball, pb: Fraction = pair_bound) -> bool:
                    return _separated(b, pb)

                ball = refine(ball_at, settled, prec, cap)
                lo, hi = ball_endpoints(ball)
                max_upper = max(max_upper, hi)
                never = never and hi < pair_bound
    gaps = []
    for r in (rs[-1], rs[0]):
        lr = log_ratio_arb(r, means[2], means[0], s2, lam, prec)
        with working_precision(prec):
            _, hi = ball_endpoints(arb_from_fraction(bound) - abs(lr))
        gaps.append(hi)
    return Eq19Profile(
        bound,
        never,
        gaps[0] < tol,
        gaps[1] < tol,
        decimal_string(max_upper, 20, "up"),
        grid * 6,
        tol,
    )


# --- Section VII, continuous data -----------------------------------------------------------


def equicorrelated(
    n: int, rho: Fraction, rng: tuple[Fraction, Fraction] = (Fraction(0), Fraction(1))
) -> GaussianModel:
    """Section VII-A: unit variances, every covariance ``rho`` (domain size 1)."""
    names = [f"x{k + 1}" for k in range(n)]
    cov = [[Fraction(1) if r == c else rho for c in range(n)] for r in range(n)]
    return GaussianModel.build(names, [0] * n, cov, {nm: list(rng) for nm in names})


__all__ = [
    "THM6_READING",
    "Conditional",
    "Eq19Profile",
    "GaussianLeakage",
    "QueryGiven",
    "all_adversaries",
    "all_conditionals",
    "condition",
    "convolution_density",
    "eq19_profile",
    "equicorrelated",
    "gaussian_leakage",
    "h_expr",
    "log_h_arb",
    "log_ratio_arb",
    "query_given",
    "regression_coefficients",
    "std_normal_cdf",
    "theorem6_value",
    "weight_vector",
]


def _separated(ball: Ball, bound: Fraction) -> bool:
    """Whether the ball lies entirely below ``bound`` or entirely at or above it."""
    lo, hi = ball_endpoints(ball)
    return hi < bound or lo >= bound
