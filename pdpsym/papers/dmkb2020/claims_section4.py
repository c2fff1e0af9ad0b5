"""Checkers for DMKB20 Section 4 (counting, thresholding, k-anonymity) and Figures 5-6.

Every verdict compares a printed bound with the exact privacy curve of the mechanism
(Definitions 12/13 through Lemma 1), computed through the privacy-loss interface
(:class:`~pdpsym.loss.CountingLoss`, :class:`~pdpsym.loss.ThresholdingLoss`,
:class:`~pdpsym.loss.KAnonymityLoss`, :class:`~pdpsym.loss.GeometricConvolutionLoss`,
:class:`~pdpsym.loss.GeometricPair`); the bounds stay the paper's formulas. Classes, counts
and readings are reported.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import sympy

import pdpsym.mechanisms.geometric as geo
from pdpsym.core.certify import certify
from pdpsym.core.compare import compare
from pdpsym.core.eps import Eps
from pdpsym.core.numbers import fraction_str
from pdpsym.loss import (
    CountingLoss,
    GeometricConvolutionLoss,
    GeometricPair,
    KAnonymityLoss,
    ThresholdingLoss,
)
from pdpsym.mechanisms import divergence
from pdpsym.mechanisms.count_law import CountLaw
from pdpsym.mechanisms.thresholding import Thresholding
from pdpsym.papers import claim
from pdpsym.papers.dmkb2020 import counting as pc
from pdpsym.papers.dmkb2020 import kanonymity
from pdpsym.papers.dmkb2020 import thresholding as pt
from pdpsym.papers.dmkb2020.cases import PROVED, generated_forall, one_instance, seeded_draws

F = Fraction
P_GRID = (F(1, 50), F(1, 20), F(1, 10), F(1, 5))


def _s(q: Fraction | int) -> str:
    return fraction_str(F(q))


def _dec(x: Any, digits: int = 12) -> str:
    return certify(x, digits).decimal


def _le(x: Any, y: Any) -> bool:
    return compare(x, y).sign <= 0


def _cx(facts: dict[str, Any]) -> claim.Counterexample:
    """The facts of a failing case, with integers and fractions as exact text."""
    return claim.Counterexample(
        {k: _s(v) if isinstance(v, int | Fraction) else v for k, v in facts.items()}
    )


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
    corrected = claim.Exhaustive(functools.partial(law, False), cases, verdict=PROVED)
    return claim.Erratum(
        claim.Exhaustive(functools.partial(law, True), cases, verdict=PROVED),
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
        return _le(exact, th.delta) or _cx(
            {"n": n, "p": p, "T": T, "|B|": size, "b_max": str(bm),
             "eps": f"ln({_s(th.exp_eps)})", "delta_theorem": th.delta,
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
        formula = pt.printed_plrv_ratio if printed else pt.corrected_plrv_ratio
        if pt.same_ratio(got := formula(n, p, T, size, b, o), true):
            return True
        if printed and got[1] == 0:
            zero.add("printed ratio with a zero denominator, wrong")
            return True
        return _cx(
            {"n": n, "p": p, "T": T, "|B|": size, "b": b, "output": str(o),
             "printed": f"ln(({_s(got[0])})/({_s(got[1])}))",
             "exact": f"ln(({_s(true[0])})/({_s(true[1])}))"}
        )  # fmt: skip

    return claim.Erratum(
        claim.Exhaustive(
            functools.partial(law, True), cases, verdict=PROVED, details=lambda: zero.counts
        ),
        claim.Exhaustive(functools.partial(law, False), cases, verdict=PROVED),
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

        return claim.Exhaustive(law, lambda _c: Ts, method=claim.Method.SYMBOLIC, verdict=PROVED)

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
                return claim.Counterexample(ps=[_s(q) for q in ps], t=str(t))
        # every target's exact delta (both directions) is at most the common-p delta: the
        # worst target's (|B| = 0, so PPK = APK) at most it
        ok = _le(ThresholdingLoss(n, T, ps=ps).delta(th.eps).value, th.delta)
        return ok or _cx({"ps": [_s(q) for q in ps], "T": T, "p": p, "delta": th.delta})

    return generated_forall(
        law,
        lambda cfg: filter(None, seeded_draws(cfg, 0, (25, 300), draw)),
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
        return active == reduced or _cx(
            {"n": n, "p": p, "T": T, "|B|": size, "e^eps": c, "apk": str(active),
             "ppk_reduced": str(reduced)}
        )  # fmt: skip

    return claim.Exhaustive(
        law,
        cases,
        verdict=PROVED,
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
        f"n=1000, p=1e-7, T=100, |B|=100, eps=ln 2: active (b=100) delta = {_dec(active)}, "
        f"passive (PPK) delta = {_dec(passive)}"
    )

    def law(_: None) -> object:
        ok = compare(active, F(1, 2)).sign > 0 and compare(passive, F(1, 10**9)).sign < 0
        return ok or claim.Counterexample(evidence=text)

    return one_instance(law, text)


@claim.checker("dmkb2020.thm3.decomposition")
def check_thm3_decomposition(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.thm3.decomposition``: Bernoulli(p_i) as randomized response.

    sympy: ``2λ·1/2 + (1-2λ)(p-λ)/(1-2λ) = p``, and the inner probability lies in (0, 1)
    exactly when λ < p < 1 - λ.

    References:
        Desfontaines et al., Section 4.1, Theorem 3 (the decomposition in its proof).
    """

    def proof() -> object:
        lam, p = sympy.symbols("lam p", positive=True)
        q = (p - lam) / (1 - 2 * lam)
        ok = sympy.simplify(pc.decomposition_mean(lam, p) - p) == 0
        ok = ok and sympy.simplify(1 - q - (1 - lam - p) / (1 - 2 * lam)) == 0
        return ok or claim.Counterexample(mean="mismatch")

    return claim.Symbolic(
        proof,
        holds="sympy: 2λ·1/2 + (1-2λ)(p-λ)/(1-2λ) = p; (p-λ)/(1-2λ) > 0 iff p > λ and "
        "1 - (p-λ)/(1-2λ) = (1-λ-p)/(1-2λ) > 0 iff p < 1-λ (λ < 1/2)",
        cases=1,
    )


@claim.checker("dmkb2020.thm3")
def check_thm3(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.thm3``: counting queries, the (ε, δ) condition, an erratum.

    The exact counting δ (worst target, both directions) is compared with the printed
    ``P[X/Y ≥ ε]`` (which fails) and, as the corrected reading, with the blanket bound
    ``E_N[δ_N(ε)]`` of the proof and the closed form (which hold).

    References:
        Desfontaines et al., Section 4.1, Theorem 3.
    """
    lam, ns = F(1, 10), range(2, config.count(6, 9) + 1)
    ps, es = (F(11, 100), F(1, 2), F(89, 100)), (F(1, 100), F(1, 2), F(2))

    def grid(_c: claim.RunConfig) -> Iterator[Any]:
        for n, p, e in itertools.product(ns, ps, es):
            yield n, p, e, CountingLoss([p] * n).delta(Eps.of(e)).value

    def printed(case: Any) -> object:
        n, p, e, exact = case
        xy = pc.xy_probability(n, lam, Eps.of(e), pc.XYReading.PRINTED)
        return xy is None or _le(exact, xy) or _cx(
            {"n": n, "lambda": lam, "p_i": p, "eps": e, "delta_exact": _dec(exact), "P[X/Y>=eps]": xy}
        )  # fmt: skip

    def closed(cfg: claim.RunConfig) -> Iterator[Any]:
        # (exact delta, delta) at the closed-form eps <= 1, lambda = 3/10, lambda(n-1) >= 27
        for n, delta in [(120, F(1, 5)), (200, F(1, 20))][: cfg.count(1, 2)]:
            lo, hi = pc.rational_bracket(pc.closed_form_eps(n, F(3, 10), delta))
            for ps in ([F(31, 100)] * n, [F(31, 100)] + [F(1, 2)] * (n - 1)) if hi <= 1 else ():
                yield CountingLoss(ps).delta(Eps.from_exp(divergence.exp_lower(lo))).value, delta

    blanket = claim.Exhaustive(lambda c: _le(c[3], pc.blanket_delta(c[0], lam, Eps.of(c[2]))), grid)
    return claim.Erratum(
        claim.Exhaustive(printed, grid),
        claim.AllOf((blanket, claim.Exhaustive(lambda c: _le(*c), closed))),
        holds=lambda n: (
            "exact counting delta (worst target, both directions) vs the printed P[X/Y >= eps] "
            "and the blanket bound E_N[delta_N(eps)] (n <= N, lambda = 1/10, p_i in {11/100,1/2,"
            f"89/100}}, eps in {{1/100,1/2,2}}) and the closed form (lambda(n-1) >= 27) ({n} "
            "cases): the printed X/Y condition fails, the blanket bound and the closed form hold"
        ),
        reading=(
            "δ >= E_N[δ_N(ε)], N ~ Bin(n-1, 2λ), δ_N the curve of Bin(N,1/2)+1 vs "
            "Bin(N,1/2) (the blanket bound of the proof) in place of P[X/Y >= ε]"
        ),
    )


@claim.checker("dmkb2020.prop7")
def check_prop7(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.prop7``: the GK17 bound as restated, an erratum.

    The printed μ_3 = (1/n) Σ p_i(1-p_i)|1-2p_i| is the absolute value of the third central
    moment, 0 at p_i = 1/2, and the bound then falls below the exact δ; with the absolute
    third moment ``p(1-p)(p² + (1-p)²)`` (the corrected reading) the bound holds on every
    instance, for both powers of μ_2.

    References:
        Desfontaines et al., Section 4.1, Proposition 7 (Theorem 3 of GK17).
    """

    def draw(rng: random.Random) -> Any:
        """Heterogeneous records (n in 24/32/48, p_i from 3 values), printed Prop. 7."""
        n, values = rng.choice((24, 32, 48)), [F(rng.randint(5, 95), 100) for _ in range(3)]
        ps = [rng.choice(values) for _ in range(n)]
        delta2 = F(rng.choice((1, 2, 5)), 10)
        pr = pc.prop7(ps, delta2, pc.Prop7Reading.PRINTED)
        return pr and ("generated", n, ps, delta2, pr)

    def cases(cfg: claim.RunConfig, mu3: pc.Mu3Reading) -> Iterator[Any]:
        """The printed mu_3 first on generated instances; then homogeneous records at large n
        and eps <= 1, where the bound is not vacuous (both powers of mu_2 for the absolute)."""
        absolute = mu3 is pc.Mu3Reading.ABSOLUTE
        if not absolute:
            yield from filter(None, seeded_draws(cfg, 0, (2, 20), draw))
        powers = tuple(pc.Prop7Reading) if absolute else (pc.Prop7Reading.PRINTED,)
        ns = [1000] + ([10000, 100000] if cfg.thorough else [])
        grid = itertools.product(ns, (F(1, 10), F(2, 5), F(1, 2)), (F(1, 2), F(1)), powers)
        yield from (("large", n, p, eps, mu3, power) for n, p, eps, power in grid)

    def law(case: Any) -> object:
        if case[0] == "generated":
            _, n, ps, delta2, pr = case
            d_lo, d_hi = pc.exact_at_bracket(ps, pr.eps)[2:]
            b_lo, b_hi = pc.rational_bracket(pr.delta)
            # holds when decided below; undecided brackets are not failures
            ok = _le(d_lo, b_lo) or _le(d_hi, b_hi)
            return ok or _cx(
                {"n": n, "delta2": delta2, "delta_exact": _dec(d_hi), "bound": _dec(pr.delta)}
            )
        _, n, p, eps, mu3, power = case
        exact = CountingLoss.homogeneous(n, p).delta(Eps.of(eps)).value
        bound = pc.prop7_at_eps([p] * n, eps, power, mu3).delta
        return _le(exact, bound) or _cx(
            {"n": n, "p_i": f"{_s(p)} for every record", "eps": eps, "mu3_reading": mu3.value,
             "power": power.value, "delta_exact": _dec(exact), "bound": _dec(bound)}
        )  # fmt: skip

    return claim.Erratum(
        generated_forall(law, lambda cfg: cases(cfg, pc.Mu3Reading.PRINTED)),
        claim.Exhaustive(law, lambda cfg: cases(cfg, pc.Mu3Reading.ABSOLUTE)),
        holds=lambda n: (
            "generated heterogeneous instances (n in 24/32/48, p_i from 3 values in [1/20, "
            "19/20]) and exact counting delta(eps) at n = 1000 (10^4, 10^5 thorough), p in 1/10, "
            f"2/5, 1/2, eps in 1/2, 1 vs Prop. 7 at that eps ({n} cases). The printed mu_3 = (1/n) "
            "sum p_i(1-p_i)|1-2p_i| is |E(X-p)^3|, not the absolute third moment E|X-p|^3 = p(1-p)"
            "(p^2+(1-p)^2) Berry-Esseen needs: at p_i = 1/2 it is 0 and the bound collapses to "
            "delta_2, below the exact delta. With the absolute moment the bound holds on every "
            "instance (both powers of mu_2)"
        ),
        reading="mu_3 as printed vs the absolute third moment (Mu3Reading)",
        method=claim.Method.EXHAUSTIVE,
    )


@claim.checker("dmkb2020.cor1")
def check_cor1(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.cor1``: the histogram version of Theorem 3.

    The exact instance K = 3, n = 91, λ = 3/10, δ = 1/5 (closed-form ε = 1): the exact
    histogram δ(ε) for each changed pair of values is at most δ.

    References:
        Desfontaines et al., Section 4.1, Corollary 1.
    """
    n, probs, delta, lam = 91, (F(31, 100), F(31, 100), F(38, 100)), F(1, 5), F(3, 10)
    lo, hi = pc.rational_bracket(pc.closed_form_eps(n, lam, delta))
    pairs = ((0, 1), (1, 0), (0, 2), (2, 0)) if config.thorough else ((0, 1), (0, 2))

    def law(pair: tuple[int, int]) -> object:
        d = KAnonymityLoss.histogram(n, probs, *pair).delta(Eps.from_exp(divergence.exp_lower(lo)))
        d = d.value
        values = f"{pair[0]}->{pair[1]}"
        return _le(d, delta) or _cx({"n": n, "probs": probs, "values": values, "delta": _dec(d)})

    return claim.Exhaustive(
        law,
        lambda _c: pairs if hi <= 1 else (),
        method=claim.Method.EXACT_INSTANCE,
        holds="K=3, n=91, λ=3/10, δ=1/5 (closed-form ε = 1): exact histogram δ(ε) for every "
        "changed pair of values is at most δ",
        fails="the exact histogram delta is above the bound",
    )


@claim.checker("dmkb2020.fig5")
def check_fig5(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.fig5``: post-processing Laplace noise caps ε as |B| grows.

    Theorem 3's closed-form ε increases in |B| (n = 10^5, λ = 0.05, δ = 1e-10); with Laplace
    noise of scale 2 the guarantee is min(ε, 1/2), and the exact |B| from which the cap
    binds is found by bisection.

    References:
        Desfontaines et al., Section 5.2, Figure 5; Section 4.1, Theorem 3.
    """
    n, lam, delta = 100000, F(1, 20), F(1, 10**10)
    cap = F(1, 2)  # Laplace of scale 2 on a sensitivity-1 count: pure 1/2-DP

    def eps_closed(known: int) -> sympy.Expr:
        return pc.closed_form_eps(n - known, lam, delta)

    # the smallest |B| where the closed form exceeds the cap (bisection: it increases)
    lo, hi = 0, n - 2
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if compare(eps_closed(mid), cap).sign > 0 else (mid + 1, hi)

    def law(_: None) -> object:
        ks = (0, lo - 1, lo, n // 2, n - 3)
        mono = all(compare(eps_closed(k), eps_closed(k + 1)).sign < 0 for k in ks)
        ok = mono and compare(eps_closed(lo), cap).sign > 0 and _le(eps_closed(lo - 1), cap)
        return ok or claim.Counterexample(crossing=str(lo))

    return one_instance(
        law,
        "ε(|B|) = max(sqrt(14 ln(1/δ)/(λ(n-|B|-1))), 27/(λ(n-|B|-1))) increases in |B| "
        "(n-|B|-1 in a denominator); with Laplace(2) noise ε = min(ε(|B|), 1/2); the cap binds "
        f"from |B| = {lo} on (n=10^5, λ=0.05, δ=1e-10)",
        details=lambda: {"crossing": lo},
    )


@claim.checker("dmkb2020.def19")
def check_def19(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.def19``: the two-sided geometric law and its convolution.

    sympy proves the total mass ``Σ_k (1-p)/(1+p) p^|k| = 1``; exhaustively, ``Bin(m, q) + G``
    has exact total mass 1 and its exact δ(ε) is at most both the noiseless count's and the
    geometric noise's.

    References:
        Desfontaines et al., Section 5.2, Definition 19 and Figure 6.
    """
    ms = (4, 10, 25, 60, 120) if config.thorough else (4, 9)
    grid = (ms, (F(1, 2), F(1, 10)), (F(1, 2), F(3, 4)), (F(0), F(1, 2)))

    def law(case: Any) -> object:
        m, q, p, e = case
        law_ = CountLaw.homogeneous(m, q)
        if geo.convolution_total(law_, p) != 1:
            return _cx({"m": m, "q": q, "p": p})
        conv = GeometricConvolutionLoss(law_, p).delta(eps := Eps.of(e)).value
        # the noiseless count's (m + 1 records) and the noise's alone (G + 1 vs G)
        bounds = (
            CountingLoss.homogeneous(m + 1, q).delta(eps).value,
            GeometricPair({F(1): F(1)}, {F(0): F(1)}, p).delta(eps).value,
        )
        return all(_le(conv, b) for b in bounds) or _cx({"m": m, "q": q, "p": p, "eps": e})

    def total() -> object:
        mass = geo.geometric_total_mass()
        return mass == 1 or claim.Counterexample(total=str(mass))

    cases = claim.Exhaustive(law, lambda _c: itertools.product(*grid), verdict=PROVED)
    return claim.AllOf(
        (claim.Symbolic(total, holds=""), cases),
        holds=lambda n: (
            "sympy: sum_k (1-p)/(1+p) p^|k| = 1; the convolution Bin(m,q) + G has exact total "
            "mass 1 and exact delta(eps) (both directions; closed-form tails) <= both the "
            f"noiseless count's and the geometric noise's, on m in {ms}, q in {{1/2,1/10}}, p in "
            f"{{1/2,3/4}}, eps in {{0,1/2}} ({n} cases)"
        ),
        method=claim.Method.SYMBOLIC_EXHAUSTIVE,
    )


@claim.checker("dmkb2020.thm5")
def check_thm5(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.thm5``: the k-anonymity mechanism's δ_0 and ε, an erratum.

    Exhaustive over small n, λ, three values (a rare one, a common one and ⊥) and every T
    with r < 1: the mechanism's exact δ exceeds the printed δ_0 at the printed ε; the
    corrected reading (the proof's chaining through ⊥: ε = 2ε_0, δ = (1 + e^ε_0) δ') holds
    on every case.

    References:
        Desfontaines et al., Section 4.3, Theorem 5 and Definition 16.
    """
    nmax, nontrivial = config.count(8, 14), claim.Tally()
    # each pair of values in both orders: a vs b, b vs a, a vs ⊥, ...
    pairs = [(t, t2) for pair in itertools.combinations("ab⊥", 2) for t, t2 in (pair, pair[::-1])]

    def cases(printed: bool) -> Iterator[Any]:
        params = kanonymity.theorem5_printed if printed else kanonymity.theorem5_corrected
        for n, lam in itertools.product(range(4, nmax + 1), (F(1, 10), F(1, 5))):
            for rho, q_bot in itertools.product((lam / 2, lam), (lam, F(1, 2))):
                if lam <= 1 - rho - q_bot <= 1 - lam:
                    probs = {"a": rho, "b": 1 - rho - q_bot, "⊥": q_bot}
                    for T in range(1, n - 1):
                        if (par := params(n, lam, T)) is not None:
                            yield from ((n, lam, probs, T, t, t2, par) for t, t2 in pairs)

    def law(printed: bool, case: Any) -> object:
        n, lam, probs, T, t, t2, (delta, eps) = case
        if not printed:
            nontrivial.add("delta < 1", delta < 1)
        d = KAnonymityLoss.kanon3(n, probs, t, t2, T).delta(eps).value
        return _le(d, delta) or _cx(
            {"n": n, "lambda": lam, "P": {k: _s(v) for k, v in probs.items()}, "T": T,
             "pair": f"{t} vs {t2}", "eps": str(eps.sympy()), "delta_0": delta, "delta_exact": _dec(d)}
        )  # fmt: skip

    return claim.Erratum(
        claim.Exhaustive(functools.partial(law, True), lambda _c: cases(True)),
        claim.Exhaustive(functools.partial(law, False), lambda _c: cases(False)),
        holds=lambda n: (
            f"exhaustive over n in 4..{nmax}, lambda in {{1/10,1/5}}, values a (rare), b, ⊥ with "
            "P[a] in {lambda/2, lambda}, P[⊥] in {lambda, 1/2}, all T with r < 1: the k-anonymity "
            "mechanism's exact delta exceeds delta_0 at the printed eps; corrected (the proof's "
            "chaining): eps = 2 eps_0, delta = (1 + e^eps_0) max(f(T,n-1,lam)/(1-r), blanket(eps_0)"
            f") holds on every case ({n} cases, {nontrivial['delta < 1']} with corrected delta < 1)"
        ),
        reading=(
            "printed: r with k = T + 1, eps_c the smallest level allowed by the printed "
            "P[X/Y >= eps_c] <= delta, delta = delta_0"
        ),
        method=claim.Method.EXHAUSTIVE,
    )
