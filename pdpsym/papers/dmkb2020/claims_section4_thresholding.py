"""Checkers for DMKB20 Section 4's thresholding mechanism: Lemma 2, Theorem 4 (with its
privacy-loss, Poisson and coupling readings), Proposition 8 and Example 7.

Every verdict compares a printed bound with the exact privacy curve of the mechanism
(Definition 13 through Lemma 1), computed through the privacy-loss interface
(:class:`~pdpsym.loss.ThresholdingLoss`); the bounds stay the paper's formulas. Classes,
counts and readings are reported.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import sympy

from pdpsym.claims import claim
from pdpsym.core.compare import compare
from pdpsym.core.eps import Eps
from pdpsym.loss import (
    ThresholdingLoss,
)
from pdpsym.mechanisms.count_law import CountLaw
from pdpsym.mechanisms.thresholding import Thresholding
from pdpsym.papers.dmkb2020 import cases as cs
from pdpsym.papers.dmkb2020 import thresholding as pt

F = Fraction
P_GRID = (F(1, 50), F(1, 20), F(1, 10), F(1, 5))


@claim.checker("dmkb2020.lemma2")
def check_lemma2(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.lemma2``: the binomial tail bound, an erratum for m > n.

    The ratio step of the proof is proved with sympy; on an exact grid of n, p and every
    m > pn/(1-p) up to n + 2, the strict bound holds for m ≤ n, and for m > n both sides
    are 0, so the printed "<" fails and "≤" holds (the corrected reading).

    References:
        Desfontaines et al., Section 4.2, Lemma 2.
    """
    nmax = config.count(18, 40)

    def cases(_c: claim.RunConfig) -> Iterator[Any]:
        for n, p in itertools.product(range(1, nmax + 1), [F(k, 10) for k in range(1, 10)]):
            for m in range(1, n + 3):
                if (bound := pt.lemma2_bound(m, n, p)) is not None:
                    yield n, p, m, pt.binomial_tail(m, n, p), bound

    def law(strict: bool, case: Any) -> object:
        n, p, m, tail, bound = case
        ok = tail < bound if strict or m <= n else tail <= bound  # m > n: both sides 0
        return ok or claim.Counterexample(n=n, p=p, m=m, tail=tail, bound=bound)

    step = claim.Symbolic(pt.lemma2_ratio_step, holds="", fails="the sympy ratio step fails")
    corrected = claim.Exhaustive(functools.partial(law, False), cases, verdict=cs.PROVED)
    return claim.Erratum(
        claim.Exhaustive(functools.partial(law, True), cases, verdict=cs.PROVED),
        claim.AllOf((step, corrected)),
        holds=lambda n: (
            f"ratio step and its bound proved with sympy; exact grid n <= {nmax}, p in "
            f"1/10..9/10, all m > pn/(1-p) up to n+2 ({n} cases): every m <= n satisfies the "
            "strict bound; for m > n both sides are 0 and the strict '<' fails ('<=' holds)"
        ),
        reading="m <= n (a tail of a Bin(n, p) count); for m > n read '<='",
        method=claim.Method.SYMBOLIC_EXHAUSTIVE,
    )


@claim.checker("dmkb2020.thm4")
def check_thm4(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.thm4``: thresholding, r, ε and δ for |B| = 0 and |B| > 0.

    Exhaustive over small n, p, every T, |B| ≤ 3 and every b_max: the exact δ of ``M_T``
    (APK for |B| = 0, PPK for |B| > 0, both directions) at the theorem's ε is at most its δ,
    with the ``r = p(n-1)/((1-p)T)`` the proof needs and with the printed
    ``r = p(n-1)/((1-p)^T)`` (never smaller for T ≥ 1, so sound too where it applies).

    References:
        Desfontaines et al., Section 4.2, Theorem 4 and Definition 15.
    """
    nmax, applicable = config.count(7, 18), claim.Tally()

    def cases(readings: tuple[pt.RReading, ...]) -> Iterator[Any]:
        for n, p in itertools.product(range(2, nmax + 1), P_GRID):
            for T in range(0, n):
                yield from ((n, p, T, 0, None, reading) for reading in readings)
                for size, bm in itertools.product(range(1, min(3, n - 1) + 1), range(1, T)):
                    yield n, p, T, size, bm, pt.RReading.CORRECTED

    def law(case: Any) -> object:
        n, p, T, size, bm, reading = case
        if (th := pt.theorem4(n, p, T, size, bm, reading)) is None:
            return True
        applicable.add(reading.name)
        res = ThresholdingLoss.homogeneous(n, p, T, size).delta(th.eps)
        exact, direction = res.value, res.where["direction"]  # type: ignore[index]
        return cs.decided_le(exact, th.delta) or cs.exact_cx(
            {"n": n, "p": p, "T": T, "|B|": size, "b_max": str(bm),
             "eps": f"ln({cs.frac_text(th.exp_eps)})", "delta_theorem": th.delta,
             "delta_exact": exact if isinstance(exact, Fraction) else str(exact), "direction": str(direction)}
        )  # fmt: skip

    return claim.Erratum(
        claim.Exhaustive(
            law,
            lambda _c: cases(tuple(pt.RReading)),
            holds=lambda n: (
                f"exhaustive over n <= {nmax}, p in {{1/50,1/20,1/10,1/5}}, all T, |B| in 0..3, "
                "all b_max: exact delta (APK for |B|=0, PPK for |B|>0, both directions) at the "
                f"theorem's eps <= its delta; {applicable['CORRECTED']} applicable cases with r = "
                f"p(n-1)/((1-p)T), {applicable['PRINTED']} with the printed (1-p)^T (never smaller "
                f"for T >= 1, so sound too); {n} cases"
            ),
        ),
        claim.Exhaustive(law, lambda _c: cases((pt.RReading.CORRECTED,))),
        holds=lambda n: (
            "the printed r = p(n-1)/((1-p)^T) gives an unsound delta, r = p(n-1)/((1-p)T) a "
            f"sound one ({n} cases)"
        ),
        reading=pt.RReading.CORRECTED.value + " (printed: (1-p)^T; both checked)",
    )


@claim.checker("dmkb2020.thm4.plrv")
def check_thm4_plrv(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.thm4.plrv``: the printed PLRV formulas of ``M_T``, an erratum.

    Exhaustive over small n, p, every T, |B|, b and possible output, against the exact
    conditional output laws: the printed |B| > 0 formulas use b̄ where the count of ones b
    belongs; the corrected formulas match every case.

    References:
        Desfontaines et al., Section 4.2, proof of Theorem 4 (the PLRV of M_T); Section
        3.1, Definition 11.
    """
    zero = claim.Tally()

    def cases(_c: claim.RunConfig) -> Iterator[Any]:
        for n in range(2, config.count(8, 12) + 1):
            for p, T, size in itertools.product((F(1, 10), F(1, 3)), range(0, n), range(0, n)):
                mech = Thresholding.homogeneous(n, p, T, size)
                for b, o in itertools.product(range(size + 1), ["⊥", *range(T + 1, n + 1)]):
                    true = (mech.exact_probability(o, 0, b), mech.exact_probability(o, 1, b))
                    if true != (0, 0):  # an impossible output has no PLRV
                        yield n, p, T, size, b, o, true

    def law(printed: bool, case: Any) -> object:
        """The formula's ratio equals the exact one. A wrong printed ratio with a zero
        denominator is counted, not reported: the counterexample is the first finite wrong one."""
        n, p, T, size, b, o, true = case
        if pt.same_ratio(got := pt.plrv_ratio(n, p, T, size, b, o, printed), true):
            return True
        if printed and got[1] == 0:
            zero.add("printed ratio with a zero denominator, wrong")
            return True
        return cs.exact_cx(
            {"n": n, "p": p, "T": T, "|B|": size, "b": b, "output": str(o),
             "printed": f"ln(({cs.frac_text(got[0])})/({cs.frac_text(got[1])}))",
             "exact": f"ln(({cs.frac_text(true[0])})/({cs.frac_text(true[1])}))"}
        )  # fmt: skip

    return claim.Erratum(
        claim.Exhaustive(
            functools.partial(law, True), cases, verdict=cs.PROVED, details=lambda: zero.counts
        ),
        claim.Exhaustive(functools.partial(law, False), cases, verdict=cs.PROVED),
        holds=lambda n: (
            "exhaustive over n <= N, p in {1/10,1/3}, all T, |B|, b and possible outputs "
            f"against the exact conditional output laws ({n} PLRVs): the printed |B| > 0 "
            "formulas use b̄ where b belongs, the corrected ones match every case"
        ),
        reading=(
            "L_{i,0,1}(⊥,B) = ln(sum_{s=0}^{T-b} f / sum_{s=0}^{T-b-1} f), "
            "L_{i,0,1}(k,B) = ln(p(n-b̄-k)/((1-p)(k-b))) with b the ones in B; "
            "for |B| = 0 the ⊥ upper limit k-1 read as T-1"
        ),
    )


@claim.checker("dmkb2020.thm4.poisson")
def check_thm4_poisson(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.thm4.poisson``: the Poisson approximation of δ, an erratum.

    sympy's limit of ``f(T, n-1, lam/n)/(1-r)`` as n → ∞ is ``(pn)^T e^{-pn}/((1-r) T!)``,
    not the printed ``/((1-r)^T T!)``; ``-ln(1-δ)/δ → 1`` (so "ε ≈ δ when small" holds).

    References:
        Desfontaines et al., Section 4.2, Theorem 4 (the Poisson approximation after it).
    """
    lam, d = sympy.Symbol("lam", positive=True), sympy.Symbol("delta", positive=True)
    Ts = [1, 2, 3, 4, 5] if config.thorough else [2]

    def limit_is(reading: pt.PoissonReading) -> claim.ForAll:
        def law(T: int) -> object:
            true, form = pt.poisson_limit(T, reading)
            if sympy.simplify(true - form) == 0:
                return True
            limit, printed = str(true.subs(lam, 1)), str(sympy.simplify(form.subs(lam, 1)))
            return claim.Counterexample(T=str(T), pn="1", limit=limit, printed=printed)

        return claim.Exhaustive(law, lambda _c: Ts, method=claim.Method.SYMBOLIC, verdict=cs.PROVED)

    def eps_is_delta() -> object:
        ratio = sympy.limit(-sympy.log(1 - d) / d, d, 0)
        return ratio == 1 or claim.Counterexample({"eps/delta": str(ratio)})

    corrected = limit_is(pt.PoissonReading.CORRECTED)
    return claim.Erratum(
        limit_is(pt.PoissonReading.PRINTED),
        claim.AllOf((corrected, claim.Symbolic(eps_is_delta, holds=""))),
        holds=(
            f"sympy limit n -> oo of f(T,n-1,lam/n)/(1-r) for T in {Ts}; lim_(delta->0) -ln(1-"
            "delta)/delta = 1 (eps ≈ delta holds); the printed (1-r)^T has a spurious power T"
        ),
        reading=pt.PoissonReading.CORRECTED.value,
        method=claim.Method.SYMBOLIC,
    )


@claim.checker("dmkb2020.thm4.coupling")
def check_thm4_coupling(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.thm4.coupling``: records with p_i < p are dominated by p.

    On seeded instances with heterogeneous p_i < p: the count's tails are dominated at every
    t, and the exact δ (every target, both directions) at Theorem 4's ε is at most its δ.

    References:
        Desfontaines et al., Section 4.2, Theorem 4 (the hypothesis p_i < p and its proof).
    """

    def draw(rng: random.Random) -> Any:
        n, p = rng.randint(3, 9), rng.choice(P_GRID[1:])
        T = rng.randint(1, n - 1)
        th = pt.theorem4(n, p, T)
        return th and (n, p, T, th, [p * F(rng.randint(1, 19), 20) for _ in range(n)])

    def law(case: Any) -> object:
        n, p, T, th, ps = case
        hom, het = CountLaw.homogeneous(n, p).exact_pmf(), CountLaw(tuple(ps)).exact_pmf()
        for t in range(n + 1):  # P_theta[count > t] <= P_theta_p[count > t]
            if sum(het[t + 1 :], F(0)) > sum(hom[t + 1 :], F(0)):
                return claim.Counterexample(ps=[cs.frac_text(q) for q in ps], t=str(t))
        # every target's exact delta (both directions) is at most the common-p delta: the
        # worst target's (|B| = 0, so PPK = APK) at most it
        ok = cs.decided_le(ThresholdingLoss(n, T, ps=ps).delta(th.eps).value, th.delta)
        return ok or cs.exact_cx(
            {"ps": [cs.frac_text(q) for q in ps], "T": T, "p": p, "delta": th.delta}
        )

    return cs.generated_forall(
        law,
        lambda cfg: filter(None, cs.seeded_draws(cfg, 0, (25, 300), draw)),
        holds=lambda n: (
            f"{n} generated instances (n 3..9, p_i = p*k/20 < p): tails dominated at every t; "
            "exact delta (every target, both directions) at Theorem 4's eps <= its delta"
        ),
        fails="heterogeneous p_i < p: tail dominance or the common-p delta fails",
    )


@claim.checker("dmkb2020.prop8")
def check_prop8(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.prop8``: APKDP of ``M_T`` with |B| ≤ T ⇔ PPKDP of ``M_{T-|B|}``.

    Exhaustive: the exact APKDP curve of ``M_T`` (worst b, both directions) equals the
    exact PPKDP curve of ``M_{T-|B|}`` on n - |B| records, at two values of ε.

    References:
        Desfontaines et al., Section 4.2, Proposition 8.
    """

    def cases(_c: claim.RunConfig) -> Iterator[Any]:
        for n in range(3, config.count(7, 13) + 1):
            for p, T in itertools.product((F(1, 10), F(1, 4)), range(1, n - 1)):
                sizes = range(0, min(T, n - 2) + 1)
                yield from ((n, p, T, size, c) for size in sizes for c in (F(11, 10), F(2)))

    def law(case: Any) -> object:
        n, p, T, size, c = case
        eps = Eps.from_exp(c)
        active = ThresholdingLoss.homogeneous(n, p, T, size, "apk").delta(eps).value
        reduced = ThresholdingLoss.homogeneous(n - size, p, T - size).delta(eps).value
        return active == reduced or cs.exact_cx(
            {"n": n, "p": p, "T": T, "|B|": size, "e^eps": c, "apk": str(active),
             "ppk_reduced": str(reduced)}
        )  # fmt: skip

    return claim.Exhaustive(
        law,
        cases,
        verdict=cs.PROVED,
        holds=lambda n: (
            "APKDP curve of M_T (worst b, both directions) = PPKDP curve of M_{T-|B|} on n-|B| "
            f"records exactly, over n <= N, p in {{1/10,1/4}}, T, |B| <= T, e^eps in {{11/10, 2}} "
            f"({n} cases)"
        ),
        fails="the two curves differ",
    )


@claim.checker("dmkb2020.ex7")
def check_ex7(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.ex7``: thresholding is private against passive, not active attackers.

    The exact instance n = 1000, p = 1e-7, T = 100, |B| = 100, ε = ln 2: the active δ (the
    attacker fills B with 100 "Yes") is above 1/2, the passive δ below 1e-9.

    References:
        Desfontaines et al., Section 3, Example 7 (thresholding); Section 3.2-3.3,
        Definitions 12-13.
    """
    eps, mech = Eps.from_exp(F(2)), Thresholding.homogeneous(1000, F(1, 10**7), 100, 100)
    # kept direct on purpose: the APK of the one knowledge value b = 100 (not the worst b)
    active = mech.apk(100, eps, (0, 1)).value()  # attacker fills B with 100 "Yes"
    passive = ThresholdingLoss.homogeneous(1000, F(1, 10**7), 100, 100).delta(eps).value
    text = (
        f"n=1000, p=1e-7, T=100, |B|=100, eps=ln 2: active (b=100) delta = {cs.dec(active)}, "
        f"passive (PPK) delta = {cs.dec(passive)}"
    )

    def law(_: None) -> object:
        ok = compare(active, F(1, 2)).sign > 0 and compare(passive, F(1, 10**9)).sign < 0
        return ok or claim.Counterexample(evidence=text)

    return cs.one_instance(law, text)
