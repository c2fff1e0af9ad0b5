"""Θ-reducibility (Desfontaines et al. Sec. 3.5: Definition 14, Theorem 2, Proposition 6).

Definition 14: M is Θ-reducible if for all i and all B1, B2 there is a bijection
``φ: O → O`` with ``P[M(D)=O | D(i)=a, B1] = P[M(D)=φ(O) | D(i)=a, B2]`` for all a, O.

On a finite output space such a bijection exists iff, for each pair (B1, B2), the
multisets of *profiles* ``(P[M(D)=O | D(i)=a, B])_a`` over ``O ∈ O`` coincide
(:func:`is_reducible`): match equal profiles one to one.

Proposition 6 gives explicit maps φ for independent records with ``B`` = k fixed records
(index set I, target i ∉ I). Each is checked symbolically (sympy, aggregate symbols, any n)
by showing ``φ(M(x ∪ B1)) = M(x ∪ B2)`` for every value x of the unknown records, and
injectivity by the left inverse ``φ_{B2,B1} ∘ φ_{B1,B2} = id``. The printed quadratic-mean
map ``sqrt(n·M² + Σ_j((B2)_j² - (B1)_j²)/n)`` fails this identity; the map
``sqrt(M² + Σ_j((B2)_j² - (B1)_j²)/n)`` satisfies it (:class:`QuadraticForm`).

Reading: φ need only be a bijection between the supports (the outputs of positive
probability under B1 and under B2); it extends to a bijection of the ambient output space
(ℤ or ℝ) because the complements have the same cardinality. The printed counting map
``O - M(B1) + M(B2)`` is a bijection of ℤ, not of ``{0..n}``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from enum import Enum
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.core.balls import ball_endpoints
from pdpsym.core.certify import enclose
from pdpsym.mechanisms.finite import Mechanism, output_pmf
from pdpsym.models.scenario import Scenario


def fmt(x: Any) -> str:
    """Exact, readable text for outputs and knowledge values (tuples of rationals).

    Args:
        x: an output or a value of the partial knowledge (nested tuples allowed).

    Returns:
        The text, tuples in parentheses (a 1-tuple with a trailing comma).

    References:
        Python docs, fractions (``str`` of a Fraction is its exact ``p/q`` form).
    """
    if isinstance(x, tuple):
        return "(" + ", ".join(fmt(v) for v in x) + ("," if len(x) == 1 else "") + ")"
    if isinstance(x, Fraction):
        return str(x)
    return str(x)


def output_space(scenario: Scenario, mech: Mechanism) -> list[Any]:
    """``O = ∪_D support(M(D))`` over databases of positive probability.

    Args:
        scenario: the finite scenario (θ and the partial knowledge B).
        mech: the mechanism, database -> output PMF.

    Returns:
        The outputs of positive probability, sorted by ``repr``.

    References:
        Desfontaines et al., Section 3.5, Definition 14 (the output space O).
    """
    outs: set[Any] = set()
    for d, _ in scenario.joint:
        outs.update(o for o, p in mech(d).items() if p)
    return sorted(outs, key=repr)


def profiles(
    scenario: Scenario, mech: Mechanism, i: int, bhat: Any, outs: Sequence[Any]
) -> dict[Any, tuple[Fraction, ...]]:
    """Each output's profile ``(P[M(D)=O | D(i)=a, B̂])_a`` over the values a of D(i).

    Args:
        scenario: the finite scenario (θ and the partial knowledge B).
        mech: the mechanism, database -> output PMF.
        i: the target record.
        bhat: the value B̂ of the partial knowledge.
        outs: the outputs O to profile.

    Returns:
        A dict output -> tuple of exact probabilities, one per value of D(i) (in the
        scenario's order).

    References:
        Desfontaines et al., Section 3.5, Definition 14.
    """
    vals = scenario.record_values(i)
    pmfs = [output_pmf(scenario, mech, i, a, bhat) for a in vals]
    return {o: tuple(p.get(o, Fraction(0)) for p in pmfs) for o in outs}


def is_reducible(scenario: Scenario, mech: Mechanism, i: int) -> bool:
    """Definition 14 at index i (finite O): equal profile multisets for every B1, B2.

    A bijection φ with ``P[M(D)=O | D(i)=a, B1] = P[M(D)=φ(O) | D(i)=a, B2]`` exists iff the
    multisets of profiles under B1 and B2 coincide.

    Args:
        scenario: the finite scenario (θ and the partial knowledge B).
        mech: the mechanism, database -> output PMF.
        i: the target record.

    Returns:
        True iff M is reducible at index i (decided exactly).

    References:
        Desfontaines et al., Section 3.5, Definition 14 (Θ-reducibility).
    """
    # Like APKDP's targets (loss/plrv), index i is only constrained when every B value is
    # compatible with every value of D(i); otherwise there is nothing to match.
    if not scenario.fully_compatible(i):
        return True
    outs = output_space(scenario, mech)
    bs = list(scenario.knowledge_values())
    if not bs:
        return True
    base = Counter(profiles(scenario, mech, i, bs[0], outs).values())
    return all(Counter(profiles(scenario, mech, i, b, outs).values()) == base for b in bs[1:])


def check_map(
    scenario: Scenario,
    mech: Mechanism,
    i: int,
    phi: Callable[[Any, Any, Any], Any],
    key: Callable[[Any], Any] = lambda o: o,
) -> tuple[bool, dict[str, str] | None]:
    """Definition 14 with the given ``φ(O, B1, B2)`` on the supports.

    Checks, for every B1, B2: φ is injective on the support under B1, maps it onto the
    support under B2, and ``P[O | a, B1] = P[φ(O) | a, B2]`` for every a. Outputs are
    compared through ``key`` (e.g. an exact canonical form of an algebraic number).

    Args:
        scenario: the finite scenario (θ and the partial knowledge B).
        mech: the mechanism, database -> output PMF.
        i: the target record.
        phi: the map ``(O, B1, B2) -> φ_{B1,B2}(O)``.
        key: the canonical form outputs are compared by (default: the output itself).

    Returns:
        ``(True, None)`` when φ works for every pair, else ``(False, witness)`` naming
        B1, B2 and the reason.

    References:
        Desfontaines et al., Section 3.5, Definition 14 and Proposition 6 (the maps φ).
    """
    vals = scenario.record_values(i)
    bs = scenario.knowledge_values()

    rep: dict[Any, Any] = {}  # key -> one output with that key

    def pmfs(bhat: Any) -> list[dict[Any, Fraction]]:
        out = []
        for a in vals:
            p: dict[Any, Fraction] = {}
            for o, q in output_pmf(scenario, mech, i, a, bhat).items():
                k = key(o)
                rep.setdefault(k, o)
                p[k] = p.get(k, Fraction(0)) + q
            out.append(p)
        return out

    cache = {bh: pmfs(bh) for bh in bs}
    for b1 in bs:
        for b2 in bs:
            p1, p2 = cache[b1], cache[b2]
            support1 = sorted({o for p in p1 for o in p}, key=repr)
            support2 = {o for p in p2 for o in p}
            images = {o: key(phi(rep[o], b1, b2)) for o in support1}
            bad = None
            if len(set(images.values())) != len(images):
                bad = "not injective on the support"
            elif set(images.values()) != support2:
                bad = "does not map the support onto the support"
            else:
                for o in support1:
                    for a, pa1, pa2 in zip(vals, p1, p2, strict=True):
                        if pa1.get(o, 0) != pa2.get(images[o], 0):
                            bad = f"P[{o!r}|a={a!r},B1] != P[phi(O)|a,B2]"
                            break
                    if bad:
                        break
            if bad:
                return False, {"B1": fmt(b1), "B2": fmt(b2), "why": bad}
    return True, None


# --- Proposition 6: the printed maps, symbolically ------------------------------------------


class QuadraticForm(Enum):
    PRINTED = "printed"  # sqrt(n·M² + Σ((B2)_j² - (B1)_j²)/n)
    CORRECTED = "corrected"  # sqrt(M² + Σ((B2)_j² - (B1)_j²)/n)


def _sym() -> dict[str, Any]:
    pos = {"positive": True}
    return {
        "n": sympy.Symbol("n", positive=True, integer=True),
        "U": sympy.Symbol("U", real=True),  # Σ over unknown records (count, linear)
        "K1": sympy.Symbol("K1", real=True),  # Σ over B1
        "K2": sympy.Symbol("K2", real=True),
        "P": sympy.Symbol("P", **pos),  # Π over unknown records (geometric)
        "P1": sympy.Symbol("P1", **pos),
        "P2": sympy.Symbol("P2", **pos),
        "R": sympy.Symbol("R", **pos),  # Σ 1/x over unknown (harmonic)
        "R1": sympy.Symbol("R1", **pos),
        "R2": sympy.Symbol("R2", **pos),
        "Q": sympy.Symbol("Q", **pos),  # Σ x² over unknown (quadratic)
        "Q1": sympy.Symbol("Q1", **pos),
        "Q2": sympy.Symbol("Q2", **pos),
    }


def prop6_maps(quadratic: QuadraticForm = QuadraticForm.PRINTED) -> dict[str, dict[str, Any]]:
    """Each mean / query as ``M(aggregates of x ∪ B)`` and its printed ``φ``, symbolically.

    ``U, P, R, Q`` aggregate the unknown records (which include the target; the target's
    value is part of x), ``K_j, P_j, R_j, Q_j`` the known records of ``B_j``. Linear
    queries use ``U = Σ α_j x_j`` and ``K_j = Σ_{j∈I} α_j (B)_j``; counting uses the
    predicate indicators; the arithmetic mean is the linear query with ``α = 1/n``.

    Args:
        quadratic: the quadratic-mean map: as printed, or the corrected
            ``sqrt(M² + Σ_j((B2)_j² - (B1)_j²)/n)`` (the erratum's correction).

    Returns:
        A dict query name -> ``{"M": aggregate -> sympy expression, "B": the names of the
        two knowledge symbols, "phi": (m, b1, b2) -> sympy expression}``, plus ``"power"``
        where both sides are compared through a power.

    References:
        Desfontaines et al., Section 3.5, Proposition 6.
    """
    s = _sym()
    n = s["n"]

    def lin(k: sympy.Expr) -> sympy.Expr:
        return s["U"] + k

    def geo(p: sympy.Expr) -> sympy.Expr:
        return (s["P"] * p) ** (1 / n)

    def har(r: sympy.Expr) -> sympy.Expr:
        return n / (s["R"] + r)

    def quad(q: sympy.Expr) -> sympy.Expr:
        return sympy.sqrt((s["Q"] + q) / n)

    def phi_quad(m: sympy.Expr, q1: sympy.Expr, q2: sympy.Expr) -> sympy.Expr:
        if quadratic is QuadraticForm.PRINTED:
            return sympy.sqrt(n * m**2 + (q2 - q1) / n)
        return sympy.sqrt(m**2 + (q2 - q1) / n)

    return {
        "counting": {
            "M": lin,
            "B": ("K1", "K2"),
            "phi": lambda m, b1, b2: m - b1 + b2,  # O - M(B1) + M(B2)
        },
        "linear": {
            "M": lin,
            "B": ("K1", "K2"),
            "phi": lambda m, b1, b2: m + (b2 - b1),  # O + Σ α_j((B2)_j - (B1)_j)
        },
        "arithmetic": {
            "M": lambda k: (s["U"] + k) / n,
            "B": ("K1", "K2"),
            "phi": lambda m, b1, b2: m + (b2 - b1) / n,  # linear with α_j = 1/n
        },
        "geometric": {
            "power": n,  # compare n-th powers (both sides positive)
            "M": geo,
            "B": ("P1", "P2"),
            "phi": lambda m, b1, b2: (m**n * b2 / b1) ** (1 / n),
        },
        "harmonic": {
            "M": har,
            "B": ("R1", "R2"),
            "phi": lambda m, b1, b2: n * ((m / n) ** -1 + (b2 - b1)) ** -1,
        },
        "quadratic": {"power": 2, "M": quad, "B": ("Q1", "Q2"), "phi": phi_quad},
    }


def _is_zero(e: sympy.Expr) -> bool:
    """Decide ``e ≡ 0``: a certified non-zero value at a rational point proves "no";
    otherwise a sympy simplification to 0 proves "yes" (else the answer is "no proof")."""
    point = {
        sym: sympy.Rational(k + 2, k + 3) for k, sym in enumerate(sorted(e.free_symbols, key=str))
    }
    for sym in e.free_symbols:
        if sym.name == "n":
            point[sym] = sympy.Integer(3)
    ball = enclose(e.subs(point), 128)
    if ball.is_finite():
        lo, hi = ball_endpoints(ball)
        if lo > 0 or hi < 0:  # certified non-zero at a point
            return False
    e = sympy.cancel(sympy.expand(e))
    if e == 0:
        return True
    e = sympy.simplify(sympy.powdenest(sympy.expand_power_base(e, force=False), force=False))
    return bool(e == 0)


def prop6_symbolic(
    quadratic: QuadraticForm = QuadraticForm.PRINTED, only: Sequence[str] | None = None
) -> dict[str, dict[str, str]]:
    """For each map: does ``φ(M(x∪B1)) = M(x∪B2)`` hold identically, and ``φ⁻¹∘φ = id``?

    Decided by sympy (a certified non-zero value at a rational point disproves an identity).

    Args:
        quadratic: the quadratic-mean map: as printed or corrected.
        only: the names of the maps to check (None: all).

    Returns:
        A dict name -> ``{"identity": "holds" | "fails", "left_inverse": "holds" |
        "fails", "phi(M(x,B1))": text, "M(x,B2)": text}``.

    References:
        Desfontaines et al., Section 3.5, Proposition 6 (the printed maps φ, for any n).
    """
    s = _sym()
    out: dict[str, dict[str, str]] = {}
    for name, spec in prop6_maps(quadratic).items():
        if only is not None and name not in only:
            continue
        k1, k2 = (s[v] for v in spec["B"])
        m1 = spec["M"](k1)
        image = spec["phi"](m1, k1, k2)
        # both sides are positive where a power is given: equal iff their powers are
        pw = spec.get("power", 1)
        identity = _is_zero(image**pw - spec["M"](k2) ** pw)
        back = spec["phi"](spec["phi"](m1, k1, k2), k2, k1)
        inverse = _is_zero(back**pw - m1**pw)
        out[name] = {
            "identity": "holds" if identity else "fails",
            "left_inverse": "holds" if inverse else "fails",
            "phi(M(x,B1))": sympy.sstr(image),
            "M(x,B2)": sympy.sstr(spec["M"](k2)),
        }
    return out
