"""Li et al. Remark 1 (Eq. 4), Theorem 1 and Theorem 3(1), proved with sympy.

Setting (Eq. 2): given ``(x_i, x_K)`` the output density is the mixture
``p(r) = Σ_s π_s e^{-|r - s|/λ} / (2λ)`` over the support points ``s = f(x)``.

* **Laplace step.** ``|r - b| - |r - a| <= |a - b|`` for all reals (the triangle
  inequality), checked on each of the six orderings of ``r, a, b`` with nonnegative gaps;
  so ``e^{-|r-a|/λ} <= e^{|a-b|/λ} e^{-|r-b|/λ}``.
* **Remark 1.** Two databases that share ``x_K`` have ``|f(x) - f(x')| <= D = Σ over
  {i} ∪ U of Δ_k``. Each term of ``p(r | x_i)`` is at most ``e^{D/λ}`` times the smallest
  term of ``p(r | x_i')``, and a mixture is at least its smallest term
  (``Σ π'_s L_s - m = Σ π'_s (L_s - m)`` when ``Σ π'_s = 1``). So ``PL <= D/λ``.
* **Theorem 1.** With independent tuples ``θ(x_U | x_i, x_K) = θ(x_U)``: both mixtures
  share the weights and are shifted by ``w_i x_i``. Pairing the terms gives the ratio
  ``<= e^{|w_i (x_i - x_i')|/λ}``; beyond the support (``r >= every s``) it equals
  ``e^{w_i (x_i - x_i')/λ}`` exactly (the common sum cancels). Every value of ``x_i`` is
  compatible with every ``x_K`` (a product of positive marginals), so the sup over pairs
  is ``Δ_i / λ`` for every adversary.
* **Theorem 3(1).** ``d_j = ln Σ θ_a(x) e^{w_j x/λ} / Σ θ_b(x) e^{w_j x/λ}`` with every
  ``e^{w_j x/λ}`` in ``[m, m e^{Δ_j/λ}]``: an average lies between the extremes, so
  ``|d_j| <= Δ_j / λ`` and ``q = λ d_j / Δ_j`` is in ``[-1, 1]``.

Each step is checked symbolically, then at 50 digits on random points.
"""

from __future__ import annotations

import itertools

import sympy as sp

from pdpsym.proofs.spot_check import holds_at_random_points, positive_rational, rational

STEPS_REMARK1 = (
    "sympy: |r-b| - |r-a| <= |a-b| on all 6 orderings of r, a, b (nonnegative gaps); each "
    "Laplace term of p(r|x_i) <= e^{D/lam} times the smallest term of p(r|x_i'), D = sum over "
    "{i} u U of Delta_k; a mixture >= its smallest term (sum pi'(L - m) = sum pi' L - m, sum "
    "pi' = 1); hence PL <= D/lam; 50-digit spot check on random mixtures"
)
STEPS_THM1 = (
    "sympy: independent tuples give both mixtures the same weights, shifted by w_i x_i; "
    "termwise Laplace step gives ratio <= e^{|w_i (x_i - x_i')|/lam}; beyond the support the "
    "ratio is exactly e^{w_i (x_i - x_i')/lam} (the common sum cancels); every x_i is "
    "compatible with every x_K, so PL = Delta_i/lam for every adversary; 50-digit spot check"
)
STEPS_EQ16 = (
    "sympy: |V + w| <= V + |w| for V >= 0 and either sign of w; a node's value is the min "
    "over its children of |V + w| <= V + |q| Delta_j/lam <= (bound of the child) + "
    "Delta_j/lam when |q| <= 1; by induction from layer 1 (Delta_i/lam) every node is at "
    "most sum over {i} u U of Delta_k/lam; 50-digit spot check on random chains"
)
STEPS_THM3_2 = (
    "sympy: binary x_j in {l, l+g}: the right-tail sums differ by (t_a - t_b)(e^{(l+g)/lam} - "
    "e^{l/lam}), the left-tail ones by (t_a - t_b)(e^{-l/lam} - e^{-(l+g)/lam}), both second "
    "factors positive, so sign(d) = sign(t_a - t_b) = sign(m_a - m_b) (m_x = l + t_x g); "
    "cov = p(1-p)(hi-lo)(m_a - m_b) (Lemma 3) gives sign(rho); q = lam d / g has the sign of d; "
    "50-digit spot check"
)
STEPS_THM3_1 = (
    "sympy: every e^{w_j x/lam} lies in [m, m e^{Delta_j/lam}]; sum theta_a (e - m) >= 0 and "
    "sum theta_b (m e^{Delta_j/lam} - e) >= 0 (averages of nonnegative terms) bound the ratio "
    "by e^{Delta_j/lam}, both ways; so |q| <= 1; 50-digit spot check on random laws"
)


def triangle_step() -> bool:
    """``|r - b| - |r - a| <= |a - b|`` on every ordering of ``r, a, b``."""
    t0 = sp.Symbol("t0", real=True)
    u, v = sp.symbols("u v", nonnegative=True)
    points = (t0, t0 + u, t0 + u + v)
    for r, a, b in itertools.permutations(points):
        slack = sp.Abs(a - b) - (sp.Abs(r - b) - sp.Abs(r - a))
        if not sp.simplify(slack).is_nonnegative:
            return False
    return True


def mixture_at_least_its_minimum() -> bool:
    """``Σ π_s L_s - m = Σ π_s (L_s - m)`` when ``Σ π_s = 1``; each term is nonnegative."""
    s, N = sp.symbols("s N", integer=True, positive=True)
    pi, gap = sp.IndexedBase("pi", nonnegative=True), sp.IndexedBase("g", nonnegative=True)
    m = sp.Symbol("m", positive=True)
    L = m + gap[s]  # every term is the minimum plus a nonnegative gap
    mixture = sp.Sum(pi[s] * L, (s, 1, N)).expand()
    total = sp.Sum(pi[s], (s, 1, N))
    lhs = mixture - m * total  # = mixture - m once Σ π = 1
    return bool(
        sp.simplify((lhs - sp.Sum(pi[s] * gap[s], (s, 1, N))).expand()) == 0
        and (pi[s] * gap[s]).is_nonnegative
    )


def _mixture(ws: list[sp.Expr], ss: list[sp.Expr], r: sp.Symbol, lam: sp.Symbol) -> sp.Expr:
    return sum(w * sp.exp(-sp.Abs(r - s) / lam) for w, s in zip(ws, ss, strict=True))


def remark1() -> bool:
    """Remark 1 (Eq. 4): ``PL <= Σ over {i} ∪ U of Δ_k / λ`` (Li et al., Sec. IV)."""
    if not (triangle_step() and mixture_at_least_its_minimum()):
        return False
    r, lam = sp.Symbol("r"), sp.Symbol("lam", positive=True)
    ws, ws2 = list(sp.symbols("w1:4")), list(sp.symbols("v1:4"))
    ss, ss2 = list(sp.symbols("s1:4")), list(sp.symbols("t1:4"))
    num, den = _mixture(ws, ss, r, lam), _mixture(ws2, ss2, r, lam)
    # D = the diameter of all support points: |f(x) - f(x')| <= D for every pair
    pts = ss + ss2
    D = sp.Max(*pts) - sp.Min(*pts)
    draws = [(x, positive_rational) for x in ws + ws2] + [(x, rational) for x in pts + [r]]
    draws.append((lam, positive_rational))
    return holds_at_random_points(num / sum(ws), sp.exp(D / lam) * den / sum(ws2), draws, "<=")


def theorem1() -> bool:
    """Theorem 1: independent tuples leak ``Δ_i / λ`` to every adversary (Li et al., Sec. IV)."""
    if not triangle_step():
        return False
    s, N = sp.symbols("s N", integer=True, positive=True)
    pi, f = sp.IndexedBase("pi", positive=True), sp.IndexedBase("f", real=True)
    a, b, c = sp.symbols("a b c", real=True)  # w_i x_i, w_i x_i', w_K x_K
    r, lam = sp.Symbol("r", real=True), sp.Symbol("lam", positive=True)

    # beyond the support (|r - s| = r - s for every support point) each term of p(r | x_i)
    # is e^{(a - b)/lam} times its partner in p(r | x_i'): the ratio of the sums is that
    def summand(shift: sp.Expr) -> sp.Expr:
        return pi[s] * sp.exp(-(r - shift - c - f[s]) / lam)

    if sp.simplify(summand(a) / summand(b) - sp.exp((a - b) / lam)) != 0:
        return False
    common = sp.Sum(summand(a), (s, 1, N)) - sp.exp((a - b) / lam) * sp.Sum(summand(b), (s, 1, N))
    if sp.simplify(common) != 0:
        return False
    ws, fs = list(sp.symbols("w1:4")), list(sp.symbols("f1:4"))
    num = _mixture(ws, [a + c + x for x in fs], r, lam)
    den = _mixture(ws, [b + c + x for x in fs], r, lam)
    draws = [(x, positive_rational) for x in ws] + [(x, rational) for x in [*fs, a, b, c, r]]
    draws.append((lam, positive_rational))
    return holds_at_random_points(num, sp.exp(sp.Abs(a - b) / lam) * den, draws, "<=")


def theorem3_1() -> bool:
    """Theorem 3(1): ``q = λ d_j / Δ_j`` lies in ``[-1, 1]`` (Li et al., Sec. V)."""
    x, N = sp.symbols("x N", integer=True, positive=True)
    ta, tb = (
        sp.IndexedBase("theta_a", nonnegative=True),
        sp.IndexedBase("theta_b", nonnegative=True),
    )
    up, down = sp.IndexedBase("up", nonnegative=True), sp.IndexedBase("down", nonnegative=True)
    m, R = sp.Symbol("m", positive=True), sp.Symbol("R", positive=True)  # R = e^{Delta_j/lam}
    # e_x = m + up_x = m R - down_x (inside [m, m R]); Σ θ = 1
    num = sp.Sum(ta[x] * (m + up[x]), (x, 1, N)).expand()
    den = sp.Sum(tb[x] * (m * R - down[x]), (x, 1, N)).expand()
    sa, sb = sp.Sum(ta[x], (x, 1, N)), sp.Sum(tb[x], (x, 1, N))
    lower_ok = sp.simplify((num - m * sa - sp.Sum(ta[x] * up[x], (x, 1, N))).expand()) == 0
    upper_ok = sp.simplify((m * R * sb - den - sp.Sum(tb[x] * down[x], (x, 1, N))).expand()) == 0
    signs = (ta[x] * up[x]).is_nonnegative and (tb[x] * down[x]).is_nonnegative
    if not (lower_ok and upper_ok and signs):
        return False
    # spot check: random laws on 3 values in [lo, lo + width], weight w, lam
    p1, p2 = list(sp.symbols("p1:4")), list(sp.symbols("q1:4"))
    lo, wd, w, lam = sp.symbols("lo width weight lam")
    xs = [lo, lo + wd / 2, lo + wd]

    def avg(ps: list[sp.Symbol]) -> sp.Expr:
        return sum(p * sp.exp(w * xv / lam) for p, xv in zip(ps, xs, strict=True)) / sum(ps)

    d = sp.log(avg(p1) / avg(p2))
    bound = sp.Abs(w) * wd / lam
    draws = [(v, lambda rng: sp.Rational(rng.randint(1, 40), 40)) for v in p1 + p2]
    draws += [(lo, rational), (wd, positive_rational), (w, rational), (lam, positive_rational)]
    return holds_at_random_points(sp.Abs(d), bound, draws, "<=")


def eq16() -> bool:
    """Eq. 16: with every ``|q| <= 1`` the chain value is at most group DP (Li et al., Sec. V).

    Induction over the layers: layer 1 is ``Δ_i/λ``; a node ``A(i, K \\ {j})`` takes the
    min over its children of ``|V + w|``, at most ``|V + w|`` for the child ``A(i, K)``,
    and ``|V + w| <= V + |w|`` for ``V >= 0`` (both signs of ``w``), with
    ``|w| = |q| Δ_j/λ <= Δ_j/λ``: the bound grows by exactly the new unknown's ``Δ_j/λ``.
    """
    V, d, lam = sp.symbols("V Delta_j lam", nonnegative=True)
    lam = sp.Symbol("lam", positive=True)
    g = sp.Symbol("g", nonnegative=True)
    # w >= 0 (w = g); w <= 0 with |w| <= V (w = -(V - g), g <= V); w <= -V (w = -(V + g))
    for v, w in ((V, g), (V + g, -V), (V, -(V + g))):
        if not sp.simplify(v + sp.Abs(w) - sp.Abs(v + w)).is_nonnegative:
            return False
    q = sp.Symbol("q")
    B = sp.Symbol("B", nonnegative=True)  # the bound of the child: V <= B
    step = (B + d / lam) - (V + sp.Abs(q) * d / lam)  # = (B - V) + (1 - |q|) d/lam
    if sp.expand(step - ((B - V) + (1 - sp.Abs(q)) * d / lam)) != 0:
        return False
    # spot check: a random chain of 4 steps with |q| <= 1 stays under the sum of Delta/lam
    ds, qs = list(sp.symbols("d0:5", positive=True)), list(sp.symbols("q1:5"))
    value = ds[0] / lam
    for dk, qk in zip(ds[1:], qs, strict=True):
        value = sp.Abs(value + qk * dk / lam)
    draws = [(x, positive_rational) for x in ds] + [(lam, positive_rational)]
    draws += [(x, lambda rng: sp.Rational(rng.randint(-40, 40), 40)) for x in qs]
    return holds_at_random_points(value, sum(ds) / lam, draws, "<=")


def theorem3_2() -> bool:
    """Theorem 3(2): binary domains give ``sign(q) = sign(ρ)`` (Li et al., Sec. V, sum query).

    ``x_i`` in ``{lo, hi}`` (the pair a = hi, b = lo), ``x_j`` in ``{l, h = l + g}``,
    ``t_x = θ(x_j = h | x_i = x, ctx)``. Right tail: ``N - D = (t_a - t_b)(e^{h/λ} -
    e^{l/λ})``; left tail (``d = ln Σθ_b e^{-x/λ} / Σθ_a e^{-x/λ}``): ``N - D = (t_a - t_b)
    (e^{-l/λ} - e^{-h/λ})``; both second factors are positive, and ``N, D > 0``, so
    ``sign(d) = sign(t_a - t_b)``. The conditional means are ``m_x = l + t_x g``, so
    ``sign(t_a - t_b) = sign(m_a - m_b)``, and ``cov = p(1-p)(hi - lo)(m_a - m_b)`` (Lemma 3)
    with ``p(1-p) > 0`` when both values of ``x_i`` are possible: ``sign(ρ)``. And
    ``q = λ d / Δ_j`` with ``Δ_j = g > 0`` has the sign of ``d``.
    """
    ta, tb = sp.symbols("t_a t_b", nonnegative=True)
    l_, lo = sp.symbols("l lo", real=True)
    g, gi, lam = sp.symbols("g g_i lam", positive=True)
    h, hi = l_ + g, lo + gi
    right = [(1 - t) * sp.exp(l_ / lam) + t * sp.exp(h / lam) for t in (ta, tb)]
    if sp.simplify(right[0] - right[1] - (ta - tb) * (sp.exp(h / lam) - sp.exp(l_ / lam))) != 0:
        return False
    left = [(1 - t) * sp.exp(-l_ / lam) + t * sp.exp(-h / lam) for t in (tb, ta)]
    if sp.simplify(left[0] - left[1] - (ta - tb) * (sp.exp(-l_ / lam) - sp.exp(-h / lam))) != 0:
        return False
    # the factors over e^{l/lam} and e^{-l/lam}: e^u - 1 and 1 - e^{-u}, u = g/lam > 0, are
    # integrals over (0, u) of positive integrands
    if sp.simplify(sp.exp(h / lam) - sp.exp(l_ / lam) - sp.exp(l_ / lam) * (sp.exp(g / lam) - 1)):
        return False
    if sp.simplify(
        sp.exp(-l_ / lam) - sp.exp(-h / lam) - sp.exp(-l_ / lam) * (1 - sp.exp(-g / lam))
    ):
        return False
    u, t = sp.Symbol("u", positive=True), sp.Symbol("t", real=True)
    for gap, integrand in ((sp.exp(u) - 1, sp.exp(t)), (1 - sp.exp(-u), sp.exp(-t))):
        if sp.simplify(sp.integrate(integrand, (t, 0, u)) - gap) != 0 or not integrand.is_positive:
            return False
    m = {t: l_ + t * g for t in (ta, tb)}
    if sp.expand(m[ta] - m[tb] - (ta - tb) * g) != 0:
        return False
    p = sp.Symbol("p", positive=True)
    cov = (
        p * hi * m[ta]
        + (1 - p) * lo * m[tb]
        - (p * hi + (1 - p) * lo) * (p * m[ta] + (1 - p) * m[tb])
    )
    if sp.expand(cov - p * (1 - p) * gi * (m[ta] - m[tb])) != 0:
        return False
    # spot check: d (right tail) times (t_a - t_b) is never negative
    d = sp.log(right[0] / right[1])
    draws = [(ta, lambda rng: sp.Rational(rng.randint(0, 40), 40))]
    draws += [(tb, lambda rng: sp.Rational(rng.randint(0, 40), 40))]
    draws += [(l_, rational), (g, positive_rational), (lam, positive_rational)]
    return holds_at_random_points(-d * (ta - tb), sp.Integer(0), draws, "<=")


def main() -> bool:
    """Remark 1, Theorems 1, 3(1), 3(2) and Eq. 16 of Li et al.; True when all hold."""
    return remark1() and theorem1() and theorem3_1() and theorem3_2() and eq16()


if __name__ == "__main__":
    print("PDP bounds:", "proved" if main() else "FAILED")
