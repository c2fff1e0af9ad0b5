"""Brute-force oracle for Desfontaines, Mohammadi, Krahmer, Basin (partial knowledge),
written from the paper's definitions only (no pdpsym import).

A finite scenario is a list of (database, probability) with databases as tuples; a
mechanism is a function database -> {output: probability}. Everything is Fractions;
``e^ε`` for irrational ε is mpmath inside ``mpmath.workdps``.

* Definition 11 (PLRV): ``L_{i,a,b}(O, B̂) = ln P[M(D)=O | D(i)=a, B̂] / P[M(D)=O | D(i)=b, B̂]``
  (``x/0 = ∞``); returned as the pair (numerator, denominator).
* Definition 17 (Dep) and 18 ((μ, ν)-bounded dependency): ν(μ) is the expectation over
  θ|D(i)=a, B̂ of ``max(0, 1 - e^{μ - Dep})``; Dep is read with equal infinities
  cancelling and as 0 where (B̂, M1 = O1) is impossible under D(i) = b.
* Definition 5 (CDP, ε = 0): ``M(D)|D(i)=a`` equals ``M(D_{i→b})|D(i)=a``.
* Hockey stick: ``δ(ε) = Σ_O max(0, P(O) - e^ε Q(O))``, both directions.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Iterable
from fractions import Fraction

import mpmath

Db = tuple[Hashable, ...]
Scenario = list[tuple[Db, Fraction]]
Mech = Callable[[Db], dict[Hashable, Fraction]]


def product_scenario(records: list[dict[Hashable, Fraction]]) -> Scenario:
    """Independent records with the given laws."""
    out = []
    for cells in itertools.product(*(r.items() for r in records)):
        out.append(
            (tuple(v for v, _ in cells), math.prod((p for _, p in cells), start=Fraction(1)))
        )
    return out


def deterministic(fn: Callable[[Db], Hashable]) -> Mech:
    return lambda d: {fn(d): Fraction(1)}


def output_law(
    scn: Scenario, mech: Mech, cond: Callable[[Db], bool] = lambda d: True
) -> dict[Hashable, Fraction]:
    """P[M(D) = O | cond(D)], exactly."""
    tot = sum(p for d, p in scn if cond(d))
    out: dict[Hashable, Fraction] = {}
    for d, p in scn:
        if cond(d):
            for o, q in mech(d).items():
                out[o] = out.get(o, Fraction(0)) + p * q / tot
    return out


def hockey(
    P: dict[Hashable, Fraction], Q: dict[Hashable, Fraction], e_eps: mpmath.mpf
) -> mpmath.mpf:
    """Σ_O max(0, P(O) - e^ε Q(O)) at the working precision."""

    def mp(q: Fraction) -> mpmath.mpf:
        return mpmath.mpf(q.numerator) / q.denominator

    return mpmath.fsum(max(0, mp(p) - e_eps * mp(Q.get(o, Fraction(0)))) for o, p in P.items())


def binom(s: int, n: int, p: Fraction) -> Fraction:
    """f(s, n, p) = C(n, s) p^s (1-p)^(n-s) (0 outside 0..n)."""
    return Fraction(math.comb(n, s)) * p**s * (1 - p) ** (n - s) if 0 <= s <= n else Fraction(0)


def nu_bounded_dependence(
    scn: Scenario,
    m1: Callable[[Db], Hashable],
    m2: Callable[[Db], Hashable],
    i: int,
    a: Hashable,
    b: Hashable,
    e_mu: Fraction,
) -> Fraction:
    """Definition 18's expectation for deterministic M1, M2, no partial knowledge."""

    def law(cond: Callable[[Db], bool], fn: Callable[[Db], Hashable]) -> dict[Hashable, Fraction]:
        return output_law(scn, deterministic(fn), cond)

    at_a, at_b = (lambda d: d[i] == a), (lambda d: d[i] == b)
    pair = lambda d: (m1(d), m2(d))  # noqa: E731
    pa, pb = law(at_a, pair), law(at_b, pair)
    o1a, o1b = law(at_a, m1), law(at_b, m1)
    o2a, o2b = law(at_a, m2), law(at_b, m2)
    total = Fraction(0)
    for (O1, O2), p in pa.items():
        if o1b.get(O1, 0) == 0:
            continue  # (B̂, M1 = O1) impossible under D(i) = b: Dep read as 0, term 0
        first_den = pb.get((O1, O2), Fraction(0)) / o1b[O1]
        first_num = p / o1a[O1]
        second_den = o2b.get(O2, Fraction(0))
        if first_den == 0 and second_den == 0:
            e_dep: Fraction | None = Fraction(1)  # ∞ - ∞ = 0
        elif first_den == 0:
            e_dep = None  # +∞
        else:
            e_dep = (first_num / first_den) / (o2a[O2] / second_den)
        term = Fraction(1) if e_dep is None else max(Fraction(0), 1 - e_mu / e_dep)
        total += p * term
    return total


def independent(
    scn: Scenario,
    f: Callable[[Db], Hashable],
    g: Callable[[Db], Hashable],
    cond: Callable[[Db], bool] = lambda d: True,
) -> bool:
    """Whether f(D) and g(D) are independent under θ | cond, exactly."""
    F = output_law(scn, deterministic(f), cond)
    G = output_law(scn, deterministic(g), cond)
    FG = output_law(scn, deterministic(lambda d: (f(d), g(d))), cond)
    return all(FG.get((x, y), 0) == px * py for x, px in F.items() for y, py in G.items())


def counting_delta_homogeneous(n: int, p: Fraction, e_eps: mpmath.mpf) -> mpmath.mpf:
    """Exact δ(ε) of the count of n Ber(p) records, worst target direction: the count given
    D(i) = x is x + Bin(n-1, p)."""
    law = [binom(s, n - 1, p) for s in range(n)]
    P0 = {s: q for s, q in enumerate(law)}
    P1 = {s + 1: q for s, q in enumerate(law)}
    return max(hockey(P0, P1, e_eps), hockey(P1, P0, e_eps))


def sums(values: Iterable[Fraction]) -> Fraction:
    return sum(values, Fraction(0))
