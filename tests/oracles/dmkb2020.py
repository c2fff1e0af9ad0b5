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
* Theorem 3's proof (the blanket): each other record is randomized response with
  parameter 2λ, so with N ~ Bin(n-1, 2λ) of them fair bits,
  ``δ(ε) <= E_N[δ_N(ε)]``, ``δ_N`` the hockey stick between Bin(N, 1/2) + 1 and Bin(N, 1/2)
  (joint convexity of the hockey stick over the mixture in N).
* Definition 16: the k-anonymity mechanism releases, per value t ≠ ⊥, the count of t when
  it is at least k, else ⊥; ⊥'s own count is never released.
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


def hockey_exact(
    P: dict[Hashable, Fraction], Q: dict[Hashable, Fraction], e_eps: Fraction
) -> Fraction:
    """Σ_O max(0, P(O) - e^ε Q(O)) for a rational e^ε, exactly."""
    return sums(max(Fraction(0), p - e_eps * Q.get(o, Fraction(0))) for o, p in P.items())


def blanket_delta(n: int, lam: Fraction, e_eps: Fraction) -> Fraction:
    """Theorem 3's proof bound ``E_N[δ_N(ε)]`` (N ~ Bin(n-1, 2λ)) for a rational e^ε,
    exactly; the larger of the two directions' expectations."""
    up, down = Fraction(0), Fraction(0)
    for N in range(n):
        w = binom(N, n - 1, 2 * lam)
        Q = {s: binom(s, N, Fraction(1, 2)) for s in range(N + 1)}
        P = {s + 1: q for s, q in Q.items()}
        up += w * hockey_exact(P, Q, e_eps)
        down += w * hockey_exact(Q, P, e_eps)
    return max(up, down)


def k_anonymity(released: list[str], k: int) -> Mech:
    """Definition 16: per released value, its count if at least k, else ⊥."""
    return deterministic(lambda d: tuple(d.count(t) if d.count(t) >= k else "⊥" for t in released))


def value_law(
    n: int, P: dict[Hashable, Fraction], mech: Mech, x: Hashable
) -> dict[Hashable, Fraction]:
    """The law of M(D) given D(0) = x, the other n-1 records i.i.d. P (all i are alike).

    M must depend on D only through its value counts (Definition 16's does): the n-1 others
    are enumerated by their counts, with the multinomial weight, one database per count."""
    vals = list(P)
    out: dict[Hashable, Fraction] = {}
    for cnt in itertools.product(range(n), repeat=len(vals)):
        if sum(cnt) != n - 1:
            continue
        w = Fraction(math.factorial(n - 1), math.prod(math.factorial(c) for c in cnt))
        w *= math.prod((P[v] ** c for v, c in zip(vals, cnt, strict=True)), start=Fraction(1))
        d = (x, *(v for v, c in zip(vals, cnt, strict=True) for _ in range(c)))
        for o, q in mech(d).items():
            out[o] = out.get(o, Fraction(0)) + w * q
    return out


def conditionally_independent(
    scn: Scenario, f: Callable[[Db], Hashable], g: Callable[[Db], Hashable], i: int
) -> bool:
    """Whether f(D) ⊥ g(D) under θ | D(i) = a for every value a of positive probability."""
    values = {d[i] for d, p in scn if p > 0}
    return all(independent(scn, f, g, lambda d, a=a: d[i] == a) for a in values)
