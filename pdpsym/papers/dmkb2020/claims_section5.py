"""Checkers for Desfontaines et al. Section 5: composition (ex8, thm6 and its
subadditivity, prop9, ex9).

Verdicts come from exact computation on finite scenarios, with classes and counts
reported; the shared case generators are in :mod:`.cases`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from pdpsym.claims import claim
from pdpsym.loss import plrv
from pdpsym.loss.exp_linear import WLin
from pdpsym.loss.plrv import Eps
from pdpsym.mechanisms import finite
from pdpsym.mechanisms.finite import deterministic
from pdpsym.models.scenario import Scenario
from pdpsym.papers.dmkb2020 import cases as shared
from pdpsym.papers.dmkb2020 import composition
from pdpsym.papers.dmkb2020.cases import AB, GEN, HALF, OUTS4, PS, det_json

COMPAT, PRINTED = composition.InfConvention.COMPATIBLE, composition.InfConvention.PRINTED
CHAINS = [  # 2-state chains (P(1|1), P(1|0)) by denominator
    (Fraction(a, d), Fraction(b, d)) for d in range(2, 5) for a in range(1, d) for b in range(1, d)
]


@claim.checker("dmkb2020.ex8")
def check_ex8(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.ex8``: two counting queries that are private alone but not together.

    The exact instance of n independent Bernoulli(1/2) votes, no partial knowledge, t = D(0):
    at ε = ln 3 the count and the count without t each have a small δ, while the pair has
    δ = 1 even at ε = ln 10^6 (it reveals D(t)); Dep is +∞ with positive probability.

    References:
        Desfontaines et al., Section 5.1, Example 8.
    """
    n, eps = config.count(8, 10), Eps.log(3)
    scn = Scenario.bernoulli([HALF] * n)
    m1, m2 = deterministic(sum), deterministic(lambda d: sum(d[1:]))  # the count, without t = 0
    pair = finite.compose(m1, m2)
    # kept direct on purpose: Definition 12 from the definition, as Example 8 states it
    d1, d2, dc = (plrv.apkdp_delta(scn, m, eps).delta for m in (m1, m2, pair))
    dc_big = plrv.apkdp_delta(scn, pair, Eps.log(10**6), targets=[0]).delta

    def law(_: None) -> object:
        terms = composition.plrv_terms(scn, m1, m2, 0, 0, 1, ()).values()
        inf_dep = any(v.second_given_first is None and v.second is not None for v in terms)
        tenth = WLin.const(Fraction(1, 10), eps)
        small = all(d.sign() > 0 and d.exact_compare(tenth) < 0 for d in (d1, d2))
        ok = small and dc.rational() == 1 and dc_big.rational() == 1 and inf_dep
        return ok or claim.Counterexample(delta_M1=str(d1), delta_composed=str(dc))

    return shared.one_instance(
        law,
        f"exact instance: n = {n} independent Bernoulli(1/2) votes, no partial knowledge, t = "
        f"D(0). At ε = ln 3 the count is (ε, {d1})-APKDP and the count without t (ε, {d2})-APKDP "
        f"(all targets), while the pair has δ = {dc} at ε = ln 3 and δ = {dc_big} even at ε = "
        "ln 10^6 (it reveals D(t)); Dep is +∞ with positive probability",
        details=lambda: {"delta_M1": str(d1), "delta_M2": str(d2), "delta_pair": str(dc)},
    )


@claim.checker("dmkb2020.thm6")
def check_thm6(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.thm6``: the composition PLRV identity and its corollary, an erratum.

    As printed, ``L = 2·Dep + L1 + L2`` fails (the first case of an ordered search over two
    records and deterministic M1, M2 is shown). The corrected reading ``L = Dep + L1 + L2``
    (the proof's chain rule) holds exactly at every output of seeded random cases, with the
    corollary ``(μ + ε1 + ε2, δ1 + δ2 + ν)``.

    References:
        Desfontaines et al., Section 5.1, Theorem 6 and Definitions 17-18.
    """

    def rational(v: WLin) -> Fraction:
        q = v.rational()
        assert q is not None, f"{v} is not rational"
        return q

    def search(_c: claim.RunConfig) -> Iterator[Any]:
        """n = 2, D(0) ~ Bernoulli(1/2), D(1) ~ Bernoulli(p) by denominator, B = nothing,
        M1, M2: {0,1}² → {0,1} lexicographic; every (a, b, O)."""
        for p, o1, o2 in itertools.product(PS, OUTS4, OUTS4):
            m1, m2 = (finite.table_mechanism(shared.det_table(o)) for o in (o1, o2))
            for a, b in AB:
                terms = composition.plrv_terms(Scenario.bernoulli([HALF, p]), m1, m2, 0, a, b, ())
                for o, tm in sorted(terms.items(), key=repr):
                    yield p, o1, o2, a, b, o, tm

    def printed_law(case: Any) -> object:
        p, o1, o2, a, b, o, tm = case
        return composition.theorem6_identity_holds(tm, 2) or claim.Counterexample(
            {"records": f"D(0) ~ Bernoulli(1/2), D(1) ~ Bernoulli({p})", "B": "none", "i": 0,
             "a": a, "b": b, "M1": det_json(o1), "M2": det_json(o2), "O": repr(o),
             "e^L": str(tm.joint), "e^L1": str(tm.first), "e^L2": str(tm.second),
             "e^L2_given_O1": str(tm.second_given_first), "printed": "L = 2 Dep + L1 + L2",
             "corrected": "L = Dep + L1 + L2",
             "factor1_holds_here": composition.theorem6_identity_holds(tm, 1)}
        )  # fmt: skip

    n_cases, fails = config.count(15, 400), list[dict[str, str]]()
    ws = [Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3)]
    mus = [HALF, Fraction(2, 3), *ws[:3]]

    def draw(rng: random.Random) -> Any:
        scn = finite.random_scenario(rng)
        m1, m2 = (finite.random_mechanism(rng, scn.n, outputs=(0, 1, 2))[0] for _ in range(2))
        return scn, m1, m2, (rng.choice(ws), rng.choice(ws), rng.choice(mus))

    def generated(cfg: claim.RunConfig) -> Iterator[Any]:
        for scn, m1, m2, w in shared.seeded_draws(cfg, 66, (15, 400), draw):
            cases = itertools.product(plrv.default_targets(scn), AB, scn.knowledge_values())
            for i, (a, b), bhat in cases:
                for o, tm in composition.plrv_terms(scn, m1, m2, i, a, b, bhat).items():
                    yield "identity", scn, (o, tm)
            yield "corollary", scn, (m1, m2, *w)

    def corrected(case: Any) -> object:
        kind, scn, extra = case
        if kind == "identity":
            return composition.theorem6_identity_holds(extra[1], 1) or claim.Counterexample(
                theta=scn.joint, O=repr(extra[0])
            )
        # the corollary with e^ε rational: μ + ε1 + ε2 (corrected), 2μ + ε1 + ε2 (printed)
        m1, m2, w1, w2, wm = extra
        mws = [(m1, w1), (m2, w2)] + [(finite.compose(m1, m2), w1 * w2 * wm**k) for k in (1, 2)]
        # Definition 12 from the definition on purpose (the corollary is stated on it)
        d1, d2, dc, dp = (rational(plrv.apkdp_delta(scn, m, Eps.log(w)).delta) for m, w in mws)
        bound = d1 + d2 + rational(composition.bounded_dependence_nu(scn, m1, m2, Eps.log(wm))[0])
        if dp > bound:
            fails.append({"mu": f"log({wm})", "delta": str(dp), "bound": str(bound)})
        return dc <= bound or claim.Counterexample(theta=scn.joint)

    return claim.Erratum(
        claim.Exhaustive(printed_law, search),
        claim.ForAll(corrected, generated, method=GEN),
        holds=lambda n: (
            "printed: L = 2·Dep + L1 + L2 fails (first case of an ordered search shown). Corrected: "
            "L = Dep + L1 + L2 (the proof's chain rule) holds exactly at every output of "
            f"{n_cases} generated (θ, M1, M2) (∞ as printed), and the corollary with ε = μ + ε1 + "
            f"ε2 (e^ε rational, exact δ's, μ ≥ ln(1/2)) ({n} checks in all); the printed 2μ + ε1 + "
            "ε2 follows when μ ≥ 0" + (f"; with μ < 0 it fails: {fails[0]}" if fails else "")
        ),
        reading="Definition 17 convention: ±∞ - x = ±∞ for all x; conditioning on an output O1 "
        "of probability 0 under b is read as probability 0 (so L = +∞).",
        method=GEN,
    )


@claim.checker("dmkb2020.thm6.subadditivity")
def check_subadditivity(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.thm6.subadditivity``: ``f(x) = max(0, 1 - e^x)`` is subadditive.

    A sympy case proof, cross-checked by the exact sign of ``f(x) + f(y) - f(x + y)`` on every
    pair of a grid of quarters.

    References:
        Desfontaines et al., Section 5.1, proof of Theorem 6.
    """
    k, gap = config.count(8, 20), composition.subadditivity_gap
    pts = sorted({Fraction(j, 4) for j in range(-k, k + 1)})

    def proof() -> object:
        try:
            return bool(composition.subadditivity_proof())
        except AssertionError as failed:  # a case of the sympy proof did not reduce
            return claim.Counterexample(step=str(failed))

    return claim.AllOf(
        (
            claim.Symbolic(proof, holds="", details=composition.subadditivity_proof),
            claim.Exhaustive(
                lambda xy: gap(*xy) >= 0 or claim.Counterexample(x=xy[0], y=xy[1]),
                lambda _c: itertools.product(pts, pts),
                verdict=claim.Verdict.PROVED,
            ),
        ),
        method=claim.Method.SYMBOLIC,
        holds=lambda n: (
            "sympy case proof of f(x+y) ≤ f(x) + f(y) for f(x) = max(0, 1 - e^x) (x > 0: "
            "(1-e^y)-(1-e^(x+y)) = v(u-1) with u = e^x > 1; x, y ≤ 0: f(x)+f(y)-f(x+y) = "
            "(u-1)(v-1) with u, v in (0,1]). Cross-check: the exact sign of f(x)+f(y)-f(x+y) "
            f"is ≥ 0 on every pair of a grid of quarters ({n} cases in all, ExpPoly signs)"
        ),
    )


@claim.checker("dmkb2020.prop9")
def check_prop9(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.prop9``: independent parts give (0, 0)-bounded dependence, an erratum.

    As printed (π1(D) ⊥ π2(D) under θ) it fails: an ordered search over uniform bits finds
    π1, π2 independent but not given D(i), with ν(μ = 0) > 0. The corrected reading
    (π1(D), π2(D) independent given D(i) = a and B̂, e.g. functions of disjoint sets of
    independent records) gives ν(0) = 0 exactly on seeded random cases.

    References:
        Desfontaines et al., Section 5.1, Proposition 9 and Definitions 17-18.
    """

    def search(_c: claim.RunConfig) -> Iterator[Any]:
        """n = 1, 2 uniform bits, M1 = π1, M2 = π2 over all π: {0,1}^n → {0,1} (lexicographic)
        with π1(D) ⊥ π2(D) under θ."""
        for n in (1, 2):
            dbs = list(itertools.product((0, 1), repeat=n))
            scn = Scenario.bernoulli([HALF] * n)
            dist = {d: p for (d, _), p in scn.joint.items()}
            for f1, f2 in itertools.product(itertools.product((0, 1), repeat=len(dbs)), repeat=2):
                pi1, pi2 = dict(zip(dbs, f1, strict=True)), dict(zip(dbs, f2, strict=True))
                if shared.independent_family(dist, [pi1.__getitem__, pi2.__getitem__]):
                    yield n, scn, pi1, pi2

    def cx_of(case: Any, convention: composition.InfConvention) -> dict[str, Any] | None:
        n, scn, pi1, pi2 = case
        m1, m2 = deterministic(pi1.__getitem__), deterministic(pi2.__getitem__)
        nu, wit = composition.bounded_dependence_nu(scn, m1, m2, Eps.of(0), convention)
        if nu.sign() <= 0:
            return None
        return {"n": n, "records": "independent uniform bits", "pi1=M1": {repr(d): v for d, v in pi1.items()},
                "pi2=M2": {repr(d): v for d, v in pi2.items()}, "nu_at_mu_0": str(nu), "witness": wit,
                "convention": convention.value}  # fmt: skip

    def printed(case: Any) -> object:
        if (cx := cx_of(case, COMPAT)) is None:
            return True
        pr = next(filter(None, (cx_of(c, PRINTED) for c in search(config))), None)
        return claim.Counterexample(independent_not_conditionally=cx, printed_convention=pr)

    def draw(rng: random.Random) -> Any:
        # parts independent given (D(i), B̂): independent records, functions of disjoint sets
        n = rng.choice([2, 3, 3])
        ps = [Fraction(rng.randint(1, 5), 6) for _ in range(n)]
        known = [j for j in range(n) if rng.random() < 0.3]
        idx = list(range(n))
        rng.shuffle(idx)
        cut = rng.randint(0, n)
        j1, j2 = sorted(idx[:cut]), sorted(idx[cut:])
        return ps, known, j1, j2, *(on(s, rng) for s in (j1, j2))

    def on(s: list[int], rng: random.Random) -> Any:  # a random function of the records in s
        t = {sub: rng.choice([0, 1, 2]) for sub in itertools.product((0, 1), repeat=len(s))}
        return deterministic(lambda d: t[tuple(d[j] for j in s)])

    def corrected(case: Any) -> object:
        ps, known, j1, j2, m1, m2 = case
        scn, targets = Scenario.bernoulli(ps, known), [i for i in range(len(ps)) if i not in known]
        nu, _ = composition.bounded_dependence_nu(scn, m1, m2, Eps.of(0), COMPAT, targets)
        return nu.sign() == 0 or claim.Counterexample(p=ps, S1=j1, S2=j2)

    return claim.Erratum(
        claim.Exhaustive(printed, search),
        claim.ForAll(
            corrected, lambda cfg: shared.seeded_draws(cfg, 9, (30, 400), draw), method=GEN
        ),
        holds=lambda n: (
            "printed: π1(D) ⊥ π2(D) under θ ⇒ (0,0)-bounded dependence. First case of an ordered "
            "search (uniform bits, all π: {0,1}^n → {0,1}, n = 1, 2): π1(D) ⊥ π2(D) but not given "
            "D(i), ν(μ = 0) > 0 even with ∞ - ∞ = 0; with the printed ±∞ - x = ±∞ it fails already "
            "for π2 = D(i). Correction: π1(D), π2(D) independent given D(i) = a and B̂ (e.g. "
            "disjoint sets of independent records), Dep in the 'compatible' reading: exact ν(0) = "
            "0 on generated cases (independent Bernoulli records, n ≤ 3, random known records, "
            f"M1, M2 functions of disjoint index sets; {n} cases in all)"
        ),
        reading="Definition 17 with ∞ - ∞ = 0 when both PLRVs are the same infinity, and Dep "
        "defined (as 0) only where (B̂, M1 = O1) is compatible with D(i) = b",
        method=GEN,
    )


@claim.checker("dmkb2020.ex9")
def check_ex9(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.ex9``: temporal correlation and bounded dependence, an erratum.

    As printed, a c-indistinguishable 2-state chain gives (2c, 0)-bounded dependence of
    consecutive daily counts; it fails with three users (the first case of an ordered
    search). The corrected reading, (2mc, 0) with m the other unknown users, holds exactly
    (ν = 0) on every case.

    References:
        Desfontaines et al., Section 5.1, Example 9 and Definition 18.
    """

    def nu_of(u: int, a: Fraction, b: Fraction, k: int, conv: composition.InfConvention) -> Any:
        """A stationary 2-state chain x_j → x_{j+1} (P(1|1)=a, P(1|0)=b) for each of u users: ν at
        μ = k·c for the users' sums of x_j and of x_{j+1}, target 0, and e^c, the smallest c with
        (x_{j+1} | x_j=a) ≈_c x_j for all a."""
        pi1 = b / (1 - a + b)
        marg = {0: 1 - pi1, 1: pi1}
        cond = {(1, 1): a, (1, 0): 1 - a, (0, 1): b, (0, 0): 1 - b}
        pmf = {(x1, x2): marg[x1] * cond[(x1, x2)] for x1 in (0, 1) for x2 in (0, 1)}
        r = max([Fraction(1), *(max(c / marg[x2], marg[x2] / c) for (_, x2), c in cond.items())])
        m1 = deterministic(lambda d: sum(x[0] for x in d))
        m2 = deterministic(lambda d: sum(x[1] for x in d))
        scn, eps = Scenario.independent([pmf] * u), Eps.log(r**k)
        return composition.bounded_dependence_nu(scn, m1, m2, eps, conv, targets=[0])[0], r

    def printed(case: Any) -> object:  # (2c, 0)
        u, (a, b) = case
        nu, r = nu_of(u, a, b, 2, COMPAT)
        return nu.sign() <= 0 or claim.Counterexample(
            {"users": u, "chain": f"P(x_(j+1)=1 | x_j=1) = {a}, P(x_(j+1)=1 | x_j=0) = {b}, stationary start",
             "e^c": r, "M_j": "sum_i x_(i,j)", "M_(j+1)": "sum_i x_(i,j+1)", "target": 0, "B": "none",
             "nu_at_mu_2c (compatible reading)": str(nu),
             "nu_at_mu_2c (printed convention)": str(nu_of(u, a, b, 2, PRINTED)[0])}
        )  # fmt: skip

    def corrected(case: Any) -> object:  # (2mc, 0), m = the other unknown users
        u, (a, b) = case
        v, _ = nu_of(u, a, b, 2 * (u - 1), COMPAT)
        return v.sign() == 0 or claim.Counterexample(users=u, alpha=str(a), beta=str(b), nu=str(v))

    sample = CHAINS[: config.count(3, len(CHAINS))]
    return claim.Erratum(
        claim.Exhaustive(printed, lambda _c: itertools.product((2, 3), CHAINS)),
        claim.Exhaustive(corrected, lambda _c: itertools.product((2, 3), sample)),
        holds=lambda n: (
            "printed: (D(i)_(j+1) | D(i)_j = a) ≈_c D(i)_j ⇒ M_j, M_(j+1) (2c, 0)-bounded "
            "dependent. With the target's series fixed, Dep = ln[P(S2=s|S1=t)/P(S2=s)] - "
            "ln[P(S2=s'|S1=t')/P(S2=s')] over the OTHER users' sums, each term bounded by m·c (m "
            "other unknown users), not c. Ordered search (users 2, 3; stationary 2-state chains by "
            "denominator): 2 users satisfy (2c,0), the first 3-user chain has ν > 0 at μ = 2c. "
            f"Correction: (2mc, 0) holds exactly (ν = 0) on every (users, chain) case ({n} cases "
            "in all). With the printed convention even 2 users fail (Dep = +∞ wherever M_j alone "
            "rules out b)"
        ),
        reading="records are whole series (a, b ∈ T are series); stationary chains; Dep taken "
        "as 0 where (B̂, M1 = O1) is incompatible with b (Definition 17 requires "
        "compatibility), equal infinities cancel",
    )
