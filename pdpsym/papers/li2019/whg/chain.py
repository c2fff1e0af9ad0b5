"""Chain values of the WHG: the Theorem 2 step (Eq. 11) applied along a path (Eq. 14,
Li et al. Sec. V-C), carried as a signed sum of logs with a rigorous ball, every sign and
minimum decided (balls, then exactly).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from fractions import Fraction
from typing import TYPE_CHECKING

from pdpsym.core.balls import Ball, to_ball, working_precision
from pdpsym.core.certify import separate
from pdpsym.core.compare import decided_argmax, decided_min
from pdpsym.core.exp_polynomials import LogRatio
from pdpsym.papers.li2019.edge_tables import BALL_PREC, EdgeValue
from pdpsym.papers.li2019.edges import log_sum

if TYPE_CHECKING:
    import sympy

#: the largest n for the PATHS mode (min over every path; (n-1)! paths per top node)
MAX_PATHS_N = 7


class BottomRule(Enum):
    """Layer-1 values: the printed Theorem 4 (``Delta_i/lam`` whatever theta) or exact Eq. 2."""

    THEOREM4 = "theorem4"
    EQ2 = "eq2"


class ChainMode(Enum):
    """Chain values per node (Algorithm 1's layered minimum) or over every path."""

    LAYERED = "layered"
    PATHS = "paths"


class ChainValue:
    """A chain-rule value (Eq. 14): ``s_l(... s_1(PL_1 + w_1) ... + w_l)`` with every sign
    ``s = +-1`` decided, carried with a rigorous arb ball.

    The value is a signed sum of logs, so its exact text is the sum itself
    (``exact_text``) and its ball the sum of the parts' balls; the single-LogRatio
    product form (``exact``) is built only when asked for (exact ties, checkers).
    It is an :class:`~pdpsym.core.certify.ArbEvaluable`, so ``certify`` takes it.
    """

    __slots__ = ("ball", "_exact", "_base", "_edge", "_neg", "_texts", "_precise")

    def __init__(
        self,
        ball: Ball,
        exact: LogRatio | None = None,
        base: ChainValue | None = None,
        edge: EdgeValue | None = None,
        neg: bool = False,
    ) -> None:
        self.ball, self._exact, self._base, self._edge, self._neg = ball, exact, base, edge, neg
        self._texts: dict[int, str] | None = None
        self._precise: dict[int, Ball] | None = None  # balls above BALL_PREC, by precision

    @classmethod
    def of(cls, value: LogRatio) -> ChainValue:
        """The chain value of an exact log-ratio (a layer-1 value), with its ball."""
        return cls(value.arb(BALL_PREC), value)

    @property
    def exact(self) -> LogRatio:
        """The value as one exact LogRatio (the product form, built on first use and cached)."""
        if self._exact is None:
            assert self._base is not None and self._edge is not None
            s = log_sum(self._base.exact, self._edge.value)
            self._exact = -s if self._neg else s
        return self._exact

    def parts(self) -> list[tuple[int, LogRatio | EdgeValue]]:
        """``[(sign, term)]`` with the value = sum of sign * term."""
        out: list[tuple[int, LogRatio | EdgeValue]] = []
        node: ChainValue | None = self
        sign = 1
        while node is not None:
            if node._edge is None or node._base is None:
                out.append((sign, node.exact))
                break
            if node._neg:
                sign = -sign
            out.append((sign, node._edge))
            node = node._base
        return out[::-1]

    def as_rational(self) -> Fraction | None:
        """Exact rational value when every part is rational, or when the ball meets 0
        (then the product form decides); else None (not syntactically rational)."""
        total = Fraction(0)
        for sign, term in self.parts():
            q = (term.value if isinstance(term, EdgeValue) else term).as_rational()
            if q is None:
                return self.exact.as_rational() if self.ball.contains(0) else None
            total += sign * q
        return total

    def arb(self, prec: int) -> Ball:
        """A ball enclosing the value at ``prec`` bits (the cached ball up to ``BALL_PREC``;
        higher precisions are computed from the parts and cached).
        """
        if prec <= BALL_PREC:
            return self.ball
        if self._precise is None:
            self._precise = {}
        if prec not in self._precise:
            if self._edge is None or self._base is None:
                ball = self.exact.arb(prec)
            else:  # +-(base + edge), from the base's (cached) ball at the same precision
                with working_precision(prec):
                    ball = self._base.arb(prec) + self._edge.ball(prec)
                ball = -ball if self._neg else ball
            self._precise[prec] = ball
        return self._precise[prec]

    def sympy(self) -> sympy.Expr:
        """The exact value as a sympy expression."""
        return self.exact.sympy()

    def exact_text(self) -> str:
        """The exact value as text: the rational when it is one, else the signed sum of logs."""
        q = self.as_rational()
        if q is not None:
            return str(q)
        return self._signed_text(1)

    def _signed_text(self, sign: int) -> str:
        """Exact text of ``sign * value`` as a signed sum of logs (cached per sign)."""
        if self._texts is None:
            self._texts = {}
        if sign not in self._texts:
            if self._edge is None or self._base is None:
                text = self.exact.exact_text()
                out = text if sign > 0 else "-" + (f"({text})" if _compound(text) else text)
            else:
                s = -sign if self._neg else sign
                edge = self._edge.text()
                out = self._base._signed_text(s) + (" + " if s > 0 else " - ") + edge
            self._texts[sign] = out
        return self._texts[sign]

    def __float__(self) -> float:
        return float(self.ball.mid())


def _compound(text: str) -> bool:
    """Whether ``text`` has a top-level sum or a leading sign (needs parentheses)."""
    depth = 0
    for k, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch in "+-" and depth == 0 and (k == 0 or text[k - 1] == " "):
            return True
    return False


def _abs_sum(c: ChainValue, w: EdgeValue) -> ChainValue:
    """``|c + w|``: the sign by the ball, else exactly."""
    with working_precision(BALL_PREC):
        s = c.ball + w.ball(BALL_PREC)
    if s > 0:
        return ChainValue(s, base=c, edge=w)
    if s < 0:
        return ChainValue(-s, base=c, edge=w, neg=True)

    def total(prec: int) -> Ball:
        with working_precision(prec):
            return c.arb(prec) + w.ball(prec)

    sign = separate(total, lambda prec: to_ball(0), BALL_PREC)  # wide balls (lambda = 1e-320)
    if sign:
        return ChainValue(s if sign > 0 else -s, base=c, edge=w, neg=sign < 0)
    exact = log_sum(c.exact, w.value)
    neg = exact.sign() < 0
    return ChainValue(abs(s), -exact if neg else exact, base=c, edge=w, neg=neg)


def compare_chain_values(x: ChainValue, y: ChainValue) -> int:
    """The decided sign of ``x - y``: balls (raised in precision when they are wide, as
    at lambda = 1e-320), else exactly.

    Args:
        x: a chain value.
        y: another.

    Returns:
        -1, 0 or 1, the exact sign of ``x - y``.

    References:
        Johansson, Arb (2017) (ball arithmetic) and the Lindemann-Weierstrass theorem (the
        exact test of exponential polynomials); the values are Li et al. (2019), Section V-C, Eq. 14 chain values.
    """
    if x.ball < y.ball:
        return -1
    if x.ball > y.ball:
        return 1
    return separate(x.arb, y.arb, BALL_PREC) or x.exact.exact_compare(y.exact)


def chain_min(values: Sequence[ChainValue]) -> ChainValue:
    """The smallest of ``values`` (Algorithm 1's minimum over children), decided exactly.

    Args:
        values: a non-empty sequence of chain values.

    Returns:
        The first minimal value, as given.

    References:
        Li et al. (2019), Section V-D, Algorithm 1, line 8 (keep the minimal value of the
        paths into a node); Johansson, Arb (2017) (ball arithmetic) and the Lindemann-Weierstrass theorem (the
        exact test of exponential polynomials).
    """
    return decided_min(values, compare_chain_values)[1]


def step(child: ChainValue, W: tuple[EdgeValue, EdgeValue] | None) -> ChainValue:
    """Theorem 2 (Eq. 11): ``max(|c + max W|, |c + min W|)``; the child when W is empty.

    Args:
        child: the child node's chain value ``c``.
        W: the decided ``(max W_ij, min W_ij)`` of the edge, or None when ``W_ij`` is empty.

    Returns:
        The ancestor's chain value, every sign decided (balls, then exactly).

    References:
        Li et al. (2019), Section V-B, Theorem 2, Eq. 11 (rebuilt reading: ``w_ij`` is the
        element of ``W_ij`` that makes ``|PL + w|`` largest).
    """
    if W is None:
        return child
    hi, lo = W
    a = _abs_sum(child, hi)
    if lo.same_as(hi):
        return a
    b = _abs_sum(child, lo)
    return a if compare_chain_values(a, b) >= 0 else b


def first_max(values: Sequence[ChainValue]) -> int:
    """The index of the first maximal value (decided: balls, then exactly).

    Args:
        values: a non-empty sequence of chain values.

    Returns:
        The index of the first maximum.

    References:
        Li et al. (2019), Section V-D, Algorithm 1, line 11 (the leakage is the maximal node
        value); Johansson, Arb (2017) (ball arithmetic) and the Lindemann-Weierstrass theorem (the
        exact test of exponential polynomials).
    """
    return decided_argmax(values, compare_chain_values)
