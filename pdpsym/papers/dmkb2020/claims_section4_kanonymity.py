"""Checkers for DMKB20 Section 4's k-anonymity: Definition 19 and Theorem 5.

Every verdict compares a printed bound with the exact privacy curve of the mechanism,
computed through the privacy-loss interface (:class:`~pdpsym.loss.KAnonymityLoss`,
:class:`~pdpsym.loss.GeometricConvolutionLoss`, :class:`~pdpsym.loss.GeometricPair`);
the bounds stay the paper's formulas.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pdpsym.mechanisms.geometric as geo
from pdpsym.claims import claim
from pdpsym.core.eps import Eps
from pdpsym.loss import (
    CountingLoss,
    GeometricConvolutionLoss,
    GeometricPair,
    KAnonymityLoss,
)
from pdpsym.mechanisms.count_law import CountLaw
from pdpsym.papers.dmkb2020 import cases as cs
from pdpsym.papers.dmkb2020 import kanonymity

F = Fraction


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
            return cs.exact_cx({"m": m, "q": q, "p": p})
        conv = GeometricConvolutionLoss(law_, p).delta(eps := Eps.of(e)).value
        # the noiseless count's (m + 1 records) and the noise's alone (G + 1 vs G)
        bounds = (
            CountingLoss.homogeneous(m + 1, q).delta(eps).value,
            GeometricPair({F(1): F(1)}, {F(0): F(1)}, p).delta(eps).value,
        )
        return all(cs.decided_le(conv, b) for b in bounds) or cs.exact_cx(
            {"m": m, "q": q, "p": p, "eps": e}
        )

    def total() -> object:
        mass = geo.geometric_total_mass()
        return mass == 1 or claim.Counterexample(total=str(mass))

    cases = claim.Exhaustive(law, lambda _c: itertools.product(*grid), verdict=cs.PROVED)
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
        return cs.decided_le(d, delta) or cs.exact_cx(
            {"n": n, "lambda": lam, "P": {k: cs.frac_text(v) for k, v in probs.items()}, "T": T,
             "pair": f"{t} vs {t2}", "eps": str(eps.sympy()), "delta_0": delta, "delta_exact": cs.dec(d)}
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
