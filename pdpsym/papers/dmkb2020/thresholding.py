"""Theorem 4, Lemma 2 and Proposition 8 of DMKB20 (Section 4.2): thresholding bounds.

With ``f(s, n, p) = binomial(n, s) p^s (1-p)^(n-s)``:

* Lemma 2: for ``m > pn/(1-p)``, ``sum_{s=m}^n f(s,n,p) < f(m,n,p) / (1 - pn/((1-p)m))``.
* Theorem 4, ``|B| = 0``: if ``r < 1``, ``M_T`` is APKDP with
  ``delta = f(T, n-1, p)/(1-r)`` and ``eps = -ln(1 - delta)``, where ``r = p(n-1)/((1-p)T)``.
  The text prints ``r = p(n-1)/((1-p)^T)``; both readings are carried (``RReading``).
* Theorem 4, ``|B| > 0`` (PPKDP): ``r_b = p|B|/((1-p) b_max)``,
  ``r' = p(n-|B|-1)/((1-p)(T-b_max))``, ``eps = -ln(1 - f(T-b_max, n-|B|-1, p)/(1-r'))``,
  ``delta = f(b_max, |B|, p)/(1-r_b) + f(T-b_max, n-|B|-1, p)/(1-r')``.
* Poisson approximation (``pn`` fixed, ``n`` large): the text prints
  ``delta ≈ (pn)^T e^{-pn} / ((1-r)^T T!)``; the limit of ``f(T, n-1, p)/(1-r)`` is
  ``(pn)^T e^{-pn} / ((1-r) T!)`` (``PoissonReading``).
* The PLRV of ``M_T`` (proof of Theorem 4), printed with ``b̄ = |B| - b`` where the count of
  ones ``b`` belongs (``printed_plrv`` / ``corrected_plrv``).

Since ``e^eps = 1/(1 - delta)`` is rational, the mechanism's exact ``delta`` at the
theorem's ``eps`` is an exact rational and every check here is an exact comparison.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

import sympy

from pdpsym.core.certify import certify
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import to_sympy
from pdpsym.loss.thresholding_loss import ThresholdingLoss


def f(s: int, n: int, p: Fraction) -> Fraction:
    """``f(s, n, p) = binomial(n, s) p^s (1-p)^(n-s)``: the binomial pmf (0 outside ``0..n``).

    Args:
        s: the count.
        n: the number of trials, ≥ 0.
        p: the success probability, an exact rational in [0, 1].

    Returns:
        The exact probability, a Fraction.

    References:
        Desfontaines et al., Section 4.2, Theorem 4 (the definition of f(s, n, p)).
    """
    if s < 0 or s > n:
        return Fraction(0)
    return Fraction(int(sympy.binomial(n, s))) * p**s * (1 - p) ** (n - s)


def binomial_tail(m: int, n: int, p: Fraction) -> Fraction:
    """``P[Bin(n, p) >= m] = sum_{s=m}^n f(s, n, p)``, exactly.

    Args:
        m: the lower end of the tail (values ≤ 0 give the whole mass).
        n: the number of trials, ≥ 0.
        p: the success probability, an exact rational in [0, 1].

    Returns:
        The exact tail probability, a Fraction.

    References:
        Desfontaines et al., Section 4.2, Lemma 2 (the left side of its bound).
    """
    return sum((f(s, n, p) for s in range(max(m, 0), n + 1)), Fraction(0))


def lemma2_bound(m: int, n: int, p: Fraction) -> Fraction | None:
    """The right side of Lemma 2, ``f(m,n,p) / (1 - pn/((1-p)m))``, or None outside its range.

    Args:
        m: the lower end of the tail.
        n: the number of trials, ≥ 0.
        p: the success probability, an exact rational in [0, 1).

    Returns:
        The exact bound (a Fraction), or None when ``m <= 0`` or ``m <= pn/(1-p)``.

    References:
        Desfontaines et al., Section 4.2, Lemma 2.
    """
    if m <= 0 or Fraction(m) <= p * n / (1 - p):
        return None
    return f(m, n, p) / (1 - p * n / ((1 - p) * m))


def lemma2_ratio_step() -> bool:
    """Lemma 2's proof, symbolically.

    ``f(s+1)/f(s) = p(n-s)/((1-p)(s+1))``, and ``(n-s)/(s+1) < n/m`` for ``s >= m >= 1`` (so the
    tail is dominated by a geometric series).

    Returns:
        True when sympy confirms both steps for symbolic n, s, m, p.

    References:
        Desfontaines et al., Section 4.2, Lemma 2 (its proof).
    """
    n, s, m = sympy.symbols("n s m", positive=True, integer=True)
    p = sympy.Symbol("p", positive=True)
    fs = sympy.binomial(n, s) * p**s * (1 - p) ** (n - s)
    fs1 = sympy.binomial(n, s + 1) * p ** (s + 1) * (1 - p) ** (n - s - 1)
    step = sympy.simplify(sympy.combsimp(fs1 / fs) - p * (n - s) / ((1 - p) * (s + 1)))
    # n/m - (n-s)/(s+1) = (n(s+1-m) + m s) / (m (s+1)) > 0 when s = m + j, j >= 0
    j = sympy.Symbol("j", nonnegative=True, integer=True)
    gap = sympy.factor(sympy.together((n / m - (n - s) / (s + 1)).subs(s, m + j)))
    num, den = sympy.fraction(gap)
    return step == 0 and bool(sympy.expand(num).is_positive) and bool(den.is_positive)


class RReading(Enum):
    """How ``r`` of Theorem 4 is read."""

    CORRECTED = "r = p(n-1)/((1-p)T)"
    PRINTED = "r = p(n-1)/((1-p)^T)"


class PoissonReading(Enum):
    """Theorem 4's Poisson limit of delta: ``(1 - r)`` as the proof needs it, or the
    printed ``(1 - r)^T``."""

    CORRECTED = "(pn)^T e^{-pn} / ((1-r) T!)"
    PRINTED = "(pn)^T e^{-pn} / ((1-r)^T T!)"


@dataclass(frozen=True)
class Theorem4:
    """The (eps, delta) of Theorem 4; ``eps = ln(exp_eps)`` with ``exp_eps`` rational."""

    r: Fraction
    delta: Fraction
    exp_eps: Fraction
    r_b: Fraction | None = None
    r_prime: Fraction | None = None
    b_max: int | None = None

    display: dict[str, sympy.Expr] | None = None  # unexpanded formulas for large n

    @property
    def eps(self) -> Eps:
        """ε as an :class:`~pdpsym.core.eps.Eps` (``e^ε = exp_eps``, with its display formula)."""
        disp = None if self.display is None else self.display["exp_eps"]
        return Eps(exp_eps=self.exp_eps, display=disp)

    def eps_sympy(self) -> sympy.Expr:
        """ε as an exact sympy expression."""
        return self.eps.sympy()

    def delta_sympy(self) -> sympy.Expr | Fraction:
        """δ exactly: the Fraction, or its unexpanded formula when one is attached."""
        return self.delta if self.display is None else self.display["delta"]


def f_formula(s: int, n: int, p: Fraction) -> sympy.Expr:
    """``f(s, n, p)`` as an unexpanded product (its expansion can have 10^5 digits).

    Args:
        s: the count, in ``0..n``.
        n: the number of trials.
        p: the success probability, an exact rational.

    Returns:
        The exact sympy product ``binomial(n, s) p^s (1-p)^(n-s)``, not evaluated.

    References:
        Desfontaines et al., Section 4.2, Theorem 4 (the definition of f(s, n, p)).
    """
    P = sympy.Rational(p.numerator, p.denominator)
    return sympy.Mul(
        sympy.binomial(n, s, evaluate=False),
        sympy.Pow(P, s, evaluate=False),
        sympy.Pow(1 - P, n - s, evaluate=False),
        evaluate=False,
    )


def r_printed(n: int, p: Fraction, T: int) -> Fraction | sympy.Expr:
    """The printed ``r = p(n-1)/((1-p)^T)``; unexpanded when ``(1-p)^T`` has many digits.

    Args:
        n: the number of records.
        p: the bound p on the records' probabilities, an exact rational in (0, 1).
        T: the threshold.

    Returns:
        The exact value: a Fraction, or an unexpanded sympy product when
        ``(1-p)^T`` would have more than about 4096 bits.

    References:
        Desfontaines et al., Section 4.2, Theorem 4 (r as printed; the proof needs
        ``p(n-1)/((1-p)T)``).

    >>> r_printed(10, Fraction(1, 2), 2)
    Fraction(18, 1)
    """
    if T * max(p.numerator.bit_length(), p.denominator.bit_length()) <= 4096:
        return p * (n - 1) / (1 - p) ** T
    return sympy.Mul(
        to_sympy(p * (n - 1)), sympy.Pow(to_sympy(1 - p), -T, evaluate=False), evaluate=False
    )


def with_display(th: Theorem4, n: int, p: Fraction, T: int, size: int) -> Theorem4:
    """Attach unexpanded formulas equal to ``delta`` and ``e^eps``.

    Args:
        th: Theorem 4's parameters, as computed by :func:`theorem4`.
        n: the number of records.
        p: the bound p on the records' probabilities.
        T: the threshold.
        size: ``|B|``, the number of known records (0 or the value used for ``th``).

    Returns:
        A copy of ``th`` whose ``display`` holds sympy formulas (unexpanded) equal to δ and
        ``e^ε``, for printing and certifying at large n.

    References:
        Desfontaines et al., Section 4.2, Theorem 4 (the formulas for |B| = 0 and |B| > 0).
    """
    if size == 0:
        d = sympy.Mul(f_formula(T, n - 1, p), 1 / (1 - to_sympy(th.r)), evaluate=False)
        exp_eps = 1 / (1 - d)
    else:
        assert th.b_max is not None and th.r_b is not None and th.r_prime is not None
        d2 = sympy.Mul(
            f_formula(T - th.b_max, n - size - 1, p), 1 / (1 - to_sympy(th.r_prime)), evaluate=False
        )
        d1 = sympy.Mul(f_formula(th.b_max, size, p), 1 / (1 - to_sympy(th.r_b)), evaluate=False)
        d = sympy.Add(d1, d2, evaluate=False)
        exp_eps = 1 / (1 - d2)
    return Theorem4(
        th.r, th.delta, th.exp_eps, th.r_b, th.r_prime, th.b_max, {"delta": d, "exp_eps": exp_eps}
    )


def theorem4(
    n: int,
    p: Fraction,
    T: int,
    known_size: int = 0,
    b_max: int | None = None,
    reading: RReading = RReading.CORRECTED,
) -> Theorem4 | None:
    """Theorem 4's parameters, or ``None`` when its hypotheses fail (a ratio >= 1).

    For ``|B| = 0``: ``r``, ``delta = f(T, n-1, p)/(1-r)`` and ``e^eps = 1/(1 - delta)``
    (APKDP); for ``|B| > 0``: ``r_b``, ``r'``, ``delta = f(b_max, |B|, p)/(1-r_b) +
    f(T-b_max, n-|B|-1, p)/(1-r')`` and ``e^eps = 1/(1 - f(T-b_max, n-|B|-1, p)/(1-r'))``
    (PPKDP).

    Args:
        n: the number of records.
        p: the bound p on the records' probabilities, an exact rational in (0, 1).
        T: the threshold of ``M_T``.
        known_size: ``|B|``, the number of known records.
        b_max: the ``b_max`` of the ``|B| > 0`` case, ≥ 0 (needed when ``known_size > 0``).
        reading: the reading of r (corrected, or as printed); used when ``|B| = 0``.

    Returns:
        The exact :class:`Theorem4` (rational δ and ``e^ε``), or None when a hypothesis
        fails (``r ≥ 1``, ``r_b ≥ 1``, ``r' ≥ 1``, ``δ ≥ 1``, or ``b_max`` out of range).

    Raises:
        InputError: ``b_max`` is negative.

    References:
        Desfontaines et al., Section 4.2, Theorem 4 and Definition 15 (simple thresholding).
    """
    if b_max is not None and b_max < 0:
        raise InputError("b_max", f"must be >= 0, got {b_max}")
    p = Fraction(p)
    if known_size == 0:
        if reading is RReading.CORRECTED:
            if T <= 0:
                return None
            r = p * (n - 1) / ((1 - p) * T)
        else:
            r = p * (n - 1) / (1 - p) ** T
        if r >= 1:
            return None
        delta = f(T, n - 1, p) / (1 - r)
        if delta >= 1:
            return None
        return Theorem4(r, delta, 1 / (1 - delta))
    if b_max is None or b_max <= 0 or T - b_max <= 0:
        return None
    r_b = p * known_size / ((1 - p) * b_max)
    r_prime = p * (n - known_size - 1) / ((1 - p) * (T - b_max))
    if r_b >= 1 or r_prime >= 1:
        return None
    d2 = f(T - b_max, n - known_size - 1, p) / (1 - r_prime)
    if d2 >= 1:
        return None
    delta = f(b_max, known_size, p) / (1 - r_b) + d2
    return Theorem4(r_prime, delta, 1 / (1 - d2), r_b, r_prime, b_max)


def best_b_max(n: int, p: Fraction, T: int, known_size: int) -> int | None:
    """The ``b_max`` giving the smallest Theorem 4 ``delta`` (exact comparison).

    Args:
        n: the number of records.
        p: the bound p on the records' probabilities.
        T: the threshold.
        known_size: ``|B|``, the number of known records, > 0.

    Returns:
        The best ``b_max`` in ``1..T-1`` (the first on ties), or None if none applies.

    References:
        Desfontaines et al., Section 4.2, Theorem 4 (the case |B| > 0).
    """
    best: tuple[Fraction, int] | None = None
    for bm in range(1, T):
        th = theorem4(n, p, T, known_size, bm)
        if th is not None and (best is None or th.delta < best[0]):
            best = (th.delta, bm)
    return None if best is None else best[1]


def _sum_f(lo: int, hi: int, n: int, p: Fraction) -> Fraction:
    return sum((f(s, n, p) for s in range(max(lo, 0), hi + 1)), Fraction(0))


def plrv_ratio(
    n: int, p: Fraction, T: int, known_size: int, b: int, o: str | int, printed: bool = False
) -> tuple[Fraction, Fraction]:
    """``L_{i,0,1}(o, B)`` of M_T as (numerator, denominator), corrected or as printed.

    The printed formula writes ``b̄ = |B| - b`` where the count of ones ``b`` belongs (an
    erratum); ``printed=False`` gives the corrected reading. For ``|B| = 0`` the printed
    ``⊥`` case has upper limit ``k-1`` with ``k = ⊥``: read as ``T - 1`` (the proof's later
    lines use ``T - 1``).

    Args:
        n: the number of records.
        p: the records' common probability.
        T: the threshold.
        known_size: ``|B|``, the number of known records.
        b: the number of ones among the known records.
        o: the output, ``"⊥"`` or a count k.
        printed: True for the PLRV as printed, False for the corrected one.

    Returns:
        ``(numerator, denominator)`` of the ratio whose log is the PLRV, exact Fractions
        (a zero denominator stands for +∞).

    References:
        Desfontaines et al., Section 4.2, proof of Theorem 4 (the PLRV of M_T);
        Section 3.2, Definition 11.
    """
    bbar = known_size - b
    m = n - known_size - 1
    if not printed:
        if o == "⊥":
            return _sum_f(0, T - b, m, p), _sum_f(0, T - b - 1, m, p)
        return p * (n - bbar - int(o)), (1 - p) * (int(o) - b)
    if o == "⊥":
        if known_size == 0:
            return _sum_f(0, T, n - 1, p), _sum_f(0, T - 1, n - 1, p)
        return _sum_f(bbar, T - bbar, m, p), _sum_f(0, T - bbar - 1, m, p)
    k = int(o)
    if known_size == 0:
        return p * (n - k), (1 - p) * k
    return p * (n - bbar - k), (1 - p) * (k - bbar)


def same_ratio(x: tuple[Fraction, Fraction], y: tuple[Fraction, Fraction]) -> bool:
    """Equal as extended ratios ``num/den`` (``x/0 = ∞`` for ``x > 0``; ``0/0`` undefined).

    Args:
        x: ``(numerator, denominator)``.
        y: ``(numerator, denominator)``.

    Returns:
        True iff both are the same extended ratio (``0/0`` equals nothing).

    References:
        Desfontaines et al., Section 3.1, Definition 10 (a PLRV takes values in
        R ∪ {±∞}).
    """
    (a, b), (c, d) = x, y
    if b == 0 or d == 0:
        return b == d == 0 and a > 0 and c > 0
    return a * d == b * c and (a == 0) == (c == 0)


# --- the Poisson approximation ------------------------------------------------------------


def poisson_limit(T: int, reading: PoissonReading) -> tuple[sympy.Expr, sympy.Expr]:
    """(true limit, printed approximation) of ``delta`` as ``n -> oo`` with ``pn = lam``.

    The true limit is computed by sympy from ``f(T, n-1, lam/n) / (1 - r)`` with
    ``r = (lam/n)(n-1)/((1 - lam/n) T)``.

    Args:
        T: the threshold, ≥ 1.
        reading: the approximation to compare: corrected ``(1 - r)`` or printed
            ``(1 - r)^T``.

    Returns:
        Two sympy expressions in the symbol ``lam`` (= pn): the exact limit and the
        approximation in the chosen reading.

    References:
        Desfontaines et al., Section 4.2, Theorem 4 (the Poisson approximation of δ stated
        after it).
    """
    n = sympy.Symbol("n", positive=True)
    lam = sympy.Symbol("lam", positive=True)
    p = lam / n
    fT = sympy.binomial(n - 1, T) * p**T * (1 - p) ** (n - 1 - T)
    r = p * (n - 1) / ((1 - p) * T)
    true = sympy.limit(sympy.expand_func(fT) / (1 - r), n, sympy.oo)
    r_lim = lam / T
    base = lam**T * sympy.exp(-lam) / sympy.factorial(T)
    approx = base / (1 - r_lim) if reading is PoissonReading.CORRECTED else base / (1 - r_lim) ** T
    return sympy.simplify(true), approx


def figure4_rows(n: int, p: Fraction, Ts: list[int], digits: int = 15) -> list[dict[str, str]]:
    """Figure 4: Theorem 4's ε and δ against T (``|B| = 0``), with the exact δ of ``M_T``.

    The exact δ of the mechanism is taken at the theorem's ε.

    Args:
        n: the number of records.
        p: the records' probability.
        Ts: the thresholds T.
        digits: the number of certified significant digits printed.

    Returns:
        One row per T (column -> text): ``applicable: no`` where the theorem does not
        apply, else ``epsilon``, ``delta`` and ``exact_delta_at_epsilon`` as certified
        decimals.

    References:
        Desfontaines et al., Section 4.2, Theorem 4 and Figure 4.
    """
    rows = []
    for T in Ts:
        th = theorem4(n, p, T)
        if th is None:
            rows.append({"T": str(T), "applicable": "no"})
            continue
        if n > 400:
            th = with_display(th, n, p, T, 0)
        exact = ThresholdingLoss.homogeneous(n, p, T).delta(th.eps).value
        rows.append(
            {
                "T": str(T),
                "epsilon": certify(th.eps_sympy(), digits).decimal,
                "delta": certify(th.delta_sympy(), digits).decimal,
                "exact_delta_at_epsilon": certify(exact, digits).decimal,  # type: ignore[arg-type]
            }
        )
    return rows
