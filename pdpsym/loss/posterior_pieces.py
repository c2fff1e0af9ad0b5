r"""The sup of the posterior figures of :mod:`pdpsym.loss.posterior` in closed form,
piece by piece: it is at a piece end or at a root of a quadratic.

On the piece [c, d] between consecutive centres put y = (t - c)/λ and v = e^{2y} in
[1, V], V = e^{2(d - c)/λ}. Then e^y u_a(t) = A_a v + B_a with the exact
exponential polynomials B_a = Σ_{s<=c} w_a(s) e^{-(c-s)/λ} and
A_a = Σ_{s>=d} w_a(s) e^{-(s-c)/λ}, so each posterior is the Möbius function
(A_a v + B_a)/(A v + B).

* ε at δ = 0: post1_a/post2_a is a ratio N/D of two quadratics in v; N'D - ND' has
  degree at most 2 (the v^3 terms cancel), so the sup is at v = 1, v = V or a root of
  that quadratic inside [1, V].
* δ at T = e^ε: Σ_a (post1_a - T post2_a)_+ is the max over sets S of
  P1_S(v) - T P2_S(v), P_S = Σ_{a∈S} post_a a Möbius function (αv+β)/(γv+δ) with
  derivative k/(γv+δ)^2, k = αδ - βγ. Interior stationary points solve
  k1 (γ2 v + δ2)^2 = T k2 (γ1 v + δ1)^2: none unless k1 and k2 are non-zero with one
  sign, else two linear equations.

Every coefficient (and the discriminant, and k) is an exact exponential polynomial:
its zero test and sign are exact (pdpsym.core.exp_polynomials). Only the roots and the values
are balls; a root whose ball meets [1, V] counts for the upper end (evaluated on the
ball clamped to the piece), one inside it for both ends. Raising the precision
narrows the enclosure to any width, with no search.

References:
    Desfontaines et al., Section 2.2, Definition 6 (IBCDP); Li et al. (2019), Eq. 2 (the
    Laplace mixtures).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pdpsym.core.balls import ball_endpoints, to_ball, working_precision
from pdpsym.core.eps import Eps
from pdpsym.core.exp_polynomials import ExpPoly
from pdpsym.loss.laplace_mixture import Weights

Posterior = Mapping[Any, Weights]  # value a of D(i) -> weights of u_a


@dataclass(frozen=True)
class PosteriorCase:
    """One case: where it is, the two posterior families (value -> mixture weights)."""

    where: Mapping[str, Any]
    first: Posterior
    second: Posterior

    def centres(self) -> list[Fraction]:
        """The sorted union of the centres ``s`` of every mixture of both families.

        Returns:
            The centres as Fractions, increasing: the piece boundaries of the search.
        """
        return sorted({s for post in (self.first, self.second) for w in post.values() for s in w})


def _exp_piece(
    post: Posterior, c: Fraction, d: Fraction, lam: Fraction
) -> dict[Any, tuple[ExpPoly, ExpPoly]]:
    out = {}
    for a, ws in post.items():
        A = ExpPoly(((-(s - c) / lam, w) for s, w in ws.items() if w and s >= d))
        B = ExpPoly(((-(c - s) / lam, w) for s, w in ws.items() if w and s <= c))
        out[a] = (A, B)
    return out


def _total(piece: Mapping[Any, tuple[ExpPoly, ExpPoly]], keys: Any) -> tuple[ExpPoly, ExpPoly]:
    A, B = ExpPoly(), ExpPoly()
    for a in keys:
        if a in piece:
            A, B = A + piece[a][0], B + piece[a][1]
    return A, B


class _PieceSup:
    """Candidates of one piece at one precision: values as balls and whether certain."""

    def __init__(self, V: Any, prec: int) -> None:
        self.V, self.prec = V, prec
        self.vlo, self.vhi = ball_endpoints(V)

    def points(self, roots: Sequence[Any]) -> list[tuple[Any, bool]]:
        one = to_ball(Fraction(1))
        out: list[tuple[Any, bool]] = [(one, True), (self.V, True)]
        for r in roots:
            if not r.is_finite():
                out.append((one.union(self.V), False))  # anywhere on the piece
                continue
            lo, hi = ball_endpoints(r)
            a, b = max(lo, Fraction(1)), min(hi, self.vhi)
            if a <= b:
                out.append((to_ball(a).union(to_ball(b)), lo >= 1 and hi <= self.vlo))
        return out


def _roots_quadratic(q2: ExpPoly, q1: ExpPoly, q0: ExpPoly, prec: int) -> list[Any] | None:
    """Real roots (balls) of ``q2 v^2 + q1 v + q0``; None when it is identically 0."""
    if q2.is_zero():
        if q1.is_zero():
            return None if q0.is_zero() else []
        return [-q0.arb(prec) / q1.arb(prec)]
    disc = q1 * q1 - q2 * q0 * ExpPoly.constant(4)
    sign = disc.sign()
    if sign < 0:
        return []
    b, a2 = q1.arb(prec), 2 * q2.arb(prec)
    if sign == 0:
        return [-b / a2]
    s = disc.arb(prec).sqrt()
    return [(-b + s) / a2, (-b - s) / a2]


def ratio_values(
    p1: Mapping[Any, tuple[ExpPoly, ExpPoly]],
    p2: Mapping[Any, tuple[ExpPoly, ExpPoly]],
    sup: _PieceSup,
) -> list[tuple[Any, bool]]:
    """The candidates for ``sup post1_a/post2_a`` on one piece (ε at δ = 0): each ratio
    at the piece's ends and at the roots of ``N'D - ND'`` inside it (module docstring).

    Args:
        p1: the first posterior's ``(A_a, B_a)`` on the piece.
        p2: the second's.
        sup: the piece (its ``V`` and precision).

    Returns:
        ``(ball, inside)`` per candidate (``inside``: the point is in the piece, so the
        value bounds the sup from below too); one infinite ball when ``post2_a = 0 <
        post1_a``.

    References:
        Desfontaines et al., Definition 6 (IBCDP at δ = 0).
    """
    A1, B1 = _total(p1, p1)
    A2, B2 = _total(p2, p2)
    out = []
    for a, (A1a, B1a) in p1.items():
        A2a, B2a = p2.get(a, (ExpPoly(), ExpPoly()))
        n2, n1, n0 = A1a * A2, A1a * B2 + B1a * A2, B1a * B2
        d2, d1, d0 = A1 * A2a, A1 * B2a + B1 * A2a, B1 * B2a
        if d2.is_zero() and d1.is_zero() and d0.is_zero():
            if not (n2.is_zero() and n1.is_zero() and n0.is_zero()):
                return [(to_ball(Fraction(0)) / 0, False)]  # post2_a = 0 < post1_a: unbounded
            continue
        roots = _roots_quadratic(
            n2 * d1 - n1 * d2, (n2 * d0 - n0 * d2).scale(Fraction(2)), n1 * d0 - n0 * d1, sup.prec
        )
        N = [x.arb(sup.prec) for x in (n2, n1, n0)]
        D = [x.arb(sup.prec) for x in (d2, d1, d0)]
        for v, inside in sup.points(roots or []):
            val = ((N[0] * v + N[1]) * v + N[2]) / ((D[0] * v + D[1]) * v + D[2])
            out.append((val, inside))
    return out


def delta_values(
    eps: Eps,
) -> Callable[
    [Mapping[Any, tuple[ExpPoly, ExpPoly]], Mapping[Any, tuple[ExpPoly, ExpPoly]], _PieceSup],
    list[tuple[Any, bool]],
]:
    """The candidates of ``sup_t Σ_a (post1_a - e^ε post2_a)_+`` on one piece, as a
    function of the piece (δ at ε; module docstring): every set ``S`` of values at the
    piece's ends and at its interior stationary points.

    Args:
        eps: ε.

    Returns:
        ``values(p1, p2, piece)``, the ``(ball, inside)`` candidates as for
        :func:`ratio_values`.

    References:
        Desfontaines et al., Definition 6 (IBCDP's δ at ε).
    """
    if eps.w is not None:
        T = ExpPoly.constant(eps.w)
    else:
        assert eps.exponent is not None
        T = ExpPoly({eps.exponent: Fraction(1)})

    def values(
        p1: Mapping[Any, tuple[ExpPoly, ExpPoly]],
        p2: Mapping[Any, tuple[ExpPoly, ExpPoly]],
        sup: _PieceSup,
    ) -> list[tuple[Any, bool]]:
        keys = sorted(set(p1) | set(p2), key=repr)
        g1, h1 = _total(p1, keys)
        g2, h2 = _total(p2, keys)
        t = T.arb(sup.prec)
        out: list[tuple[Any, bool]] = [(to_ball(Fraction(0)), True)]
        for size in range(1, len(keys) + 1):
            for S in itertools.combinations(keys, size):
                a1, b1 = _total(p1, S)
                a2, b2 = _total(p2, S)
                k1 = a1 * h1 - b1 * g1
                k2 = (a2 * h2 - b2 * g2) * T
                s1, s2 = k1.sign(), k2.sign()
                roots = []
                if s1 and s1 == s2:
                    r1, r2 = abs(k1.arb(sup.prec)).sqrt(), abs(k2.arb(sup.prec)).sqrt()
                    G1, H1, G2, H2 = (x.arb(sup.prec) for x in (g1, h1, g2, h2))
                    # r1 G2 = r2 G1 (decided exactly): the '+' equation has no root
                    # (or holds everywhere: then the ends are the candidates)
                    flat = (k1 * g2 * g2 - k2 * g1 * g1).is_zero()
                    for sg in (-1,) if flat else (1, -1):  # r1 (G2 v + H2) = sg r2 (G1 v + H1)
                        roots.append((sg * r2 * H1 - r1 * H2) / (r1 * G2 - sg * r2 * G1))
                A1, B1, A2, B2 = (x.arb(sup.prec) for x in (a1, b1, a2, b2))
                G1, H1, G2, H2 = (x.arb(sup.prec) for x in (g1, h1, g2, h2))
                for v, inside in sup.points(roots):
                    out.append(
                        ((A1 * v + B1) / (G1 * v + H1) - t * (A2 * v + B2) / (G2 * v + H2), inside)
                    )
        return out

    return values


def sup_enclosure(
    cases: Sequence[PosteriorCase],
    lam: Fraction,
    prec: int,
    values: Callable[..., list[tuple[Any, bool]]],
) -> tuple[Fraction, Fraction | None, Mapping[str, Any]]:
    """``lo <= sup <= hi`` over every case and output of a posterior objective, in closed form.

    Args:
        cases: the posterior cases.
        lam: the Laplace scale λ.
        prec: the bits of the balls.
        values: the candidates of one piece (the ratio or the δ objective).

    Returns:
        ``(lo, hi, where)``: ``hi`` is None when a ball is not finite at this precision
        (no upper end yet), ``where`` the case and output of the lower end.

    References:
        Desfontaines et al., Section 2.2, Definition 6 (IBCDP); Li et al. (2019),
        Eq. 2 (the Laplace mixtures).
    """
    best_lo, best_hi = Fraction(-1), Fraction(-1)
    unbounded = False  # a ball that is not finite: no upper end at this precision
    where: Mapping[str, Any] = {}
    with working_precision(prec):
        for c in cases:
            cs = c.centres()
            pieces = list(zip(cs, cs[1:], strict=False)) or [(cs[0], cs[0])]
            for lo_c, hi_c in pieces:
                v = to_ball(2 * (hi_c - lo_c) / lam).exp()
                if not v.is_finite():  # the piece's end is beyond these balls
                    unbounded = True
                    continue
                sup = _PieceSup(v, prec)
                p1 = _exp_piece(c.first, lo_c, hi_c, lam)
                p2 = _exp_piece(c.second, lo_c, hi_c, lam)
                for val, inside in values(p1, p2, sup):
                    if not val.is_finite():
                        unbounded = True
                        continue
                    a, b = ball_endpoints(val)
                    best_hi = max(best_hi, b)
                    if inside and a > best_lo:
                        best_lo, where = a, {**c.where, "output": lo_c}
    return best_lo, None if unbounded else best_hi, where


__all__ = ["Posterior", "PosteriorCase", "delta_values", "ratio_values", "sup_enclosure"]
