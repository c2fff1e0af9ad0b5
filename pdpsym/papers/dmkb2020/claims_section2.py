"""Checkers for Desfontaines et al. Section 2 (δ = 0): NP, DDP, CDP, IBCDP.

prop1, ex1-ex6, prop2-prop4 (see :mod:`pdpsym.papers.dmkb2020.definitions`). Every verdict
comes from exact computation on finite scenarios, with classes and counts reported. The
shared case generators are in :mod:`.cases`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from pdpsym.claims import claim
from pdpsym.core.numbers import fraction_str
from pdpsym.mechanisms import finite
from pdpsym.models.scenario import Scenario
from pdpsym.papers.dmkb2020 import definitions as defs
from pdpsym.papers.dmkb2020.cases import (
    BITS2,
    HALF,
    PROVED,
    RANDOM_CLASS,
    all_pmfs,
    copies,
    det_table,
    generated_forall,
    independent_family,
    one_instance,
    random_table,
    seeded_draws,
)
from pdpsym.proofs import pk_independence


def _r(x: Fraction | None) -> str:
    """A smallest ε as text: ``log(ratio)``, or ``oo``."""
    return "oo" if x is None else f"log({fraction_str(x)})"


@claim.checker("dmkb2020.prop1")
def check_prop1(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.prop1``: CDP and IBCDP are equivalent up to a factor 2 in ε.

    On seeded random scenarios and mechanisms, the exact smallest ε of CDP and of IBCDP
    (δ = 0) satisfy ε_IBCDP ≤ 2 ε_CDP and ε_CDP ≤ 2 ε_IBCDP (∞ only together).

    References:
        Desfontaines et al., Section 2.2, Proposition 1 and Definitions 5-6.
    """
    both = claim.Tally()

    def draw(rng: random.Random) -> Any:
        scn = finite.random_scenario(rng)
        return scn, *finite.random_mechanism(rng, scn.n)

    def law(case: Any) -> object:
        scn, mech, table = case
        c, ib = defs.cdp_ratio(scn, mech), defs.cdp_ratio(scn, mech, inference_based=True)
        both.add("both_finite", c is not None and ib is not None)
        # ln ib ≤ 2 ln c and ln c ≤ 2 ln ib, with None = ∞
        ok = c is ib if c is None or ib is None else ib <= c * c and c <= ib * ib
        return ok or claim.Counterexample(
            theta=scn.joint, mechanism=table, eps_CDP=_r(c), eps_IBCDP=_r(ib)
        )

    return generated_forall(
        law,
        lambda cfg: seeded_draws(cfg, 101, (60, 1000), draw),
        holds=lambda n: (
            f"{n} generated ({{θ}}, M) ({RANDOM_CLASS}): exact smallest ε of CDP and IBCDP (δ = 0) "
            f"give ε_IBCDP ≤ 2 ε_CDP, ε_CDP ≤ 2 ε_IBCDP; {both['both_finite']} have both finite"
        ),
        fails="CDP/IBCDP factor 2 fails",
        details=lambda: both.counts,
    )


# Examples 1 and 3 discretize the normal noise: μ = ±1 equally likely, D(j) = μ ± σ i.i.d.
N_MU, SIGMA = 3, Fraction(1, 10)
#: the reading of Examples 1 and 3, whose records carry normal noise
DISCRETIZED = "the normal noise is discretized to ±σ"


def _mu_noise_scenario() -> Scenario:
    noisy = itertools.product((-1, 1), itertools.product((-SIGMA, SIGMA), repeat=N_MU))
    dbs = {tuple(mu + e for e in es): HALF / 2**N_MU for mu, es in noisy}
    return Scenario.from_databases(dbs)


@claim.checker("dmkb2020.ex1")
def check_ex1(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.ex1``: the mean with a hidden global ±1 parameter is not NP.

    An exact discretized instance (μ = ±1, records μ ± σ i.i.d.): the mean given D(i) near
    +1 and near -1 have disjoint supports, so the NP ε is ∞.

    References:
        Desfontaines et al., Section 2.1, Example 1 and Definition 3.
    """
    scn, mean = _mu_noise_scenario(), finite.deterministic(lambda d: sum(d, Fraction(0)) / N_MU)

    def law(_: None) -> object:
        r = defs.np_ratio(scn, mean)
        # the mean given D(i) near +1 and near -1 never share an output: total separation
        near = [set(finite.output_pmf(scn, mean, 0, mu + SIGMA)) for mu in (1, -1)]
        return (r is None and not near[0] & near[1]) or claim.Counterexample(eps_NP=_r(r))

    return one_instance(
        law,
        f"exact discretized instance: μ = ±1 (1/2 each), n = {N_MU} records μ ± {SIGMA} i.i.d., "
        "M = mean: the output distributions given D(i) = 1 + σ and D(i) = -1 + σ have disjoint "
        "supports, so the mean is not NP for any ε",
        reading=f"{DISCRETIZED} (any bounded noise with σ small gives the same disjointness)",
    )


@claim.checker("dmkb2020.ex2")
def check_ex2(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.ex2``: with duplicated records the identity is ({θ}, 0)-DDP.

    An exact instance of duplicated pairs: the simulator that copies the duplicate gives
    ε = 0, although the identity is not NP (ε = ∞).

    References:
        Desfontaines et al., Section 2.2, Example 2; Section 2.1, Definition 4.
    """
    pairs = config.count(2, 3)
    scn = defs.normalized_scenario([{0: Fraction(1, 3), 1: Fraction(2, 3)}] * pairs, copies(2))
    ident = finite.deterministic(lambda d: d)

    def sim(i: int, rest: tuple[Any, ...]) -> dict[Any, Fraction]:
        partner = rest[i] if i % 2 == 0 else rest[i - 1]  # the duplicate, in D_{-i}
        return {rest[:i] + (partner,) + rest[i:]: Fraction(1)}

    def law(_: None) -> object:
        r_ddp = defs.ddp_ratio_with(scn, ident, sim)
        ok = r_ddp == 1 and defs.np_ratio(scn, ident) is None
        return ok or claim.Counterexample(eps_DDP=_r(r_ddp))

    return one_instance(
        law,
        f"exact instance: {2 * pairs} records in duplicated pairs, R = (1/3, 2/3) on {{0,1}}: the "
        "identity with the simulator that copies the duplicate is DDP with ε = 0, although the "
        "identity is not NP (ε_NP = ∞)",
    )


@claim.checker("dmkb2020.ex3")
def check_ex3(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.ex3``: the outlier counter is NP but not CDP.

    An exact discretized instance: the outlier count has NP ε = 0 (always 0 outliers) but
    CDP ε = ∞ (moving one record to the other cluster creates outliers).

    References:
        Desfontaines et al., Section 2.2, Example 3 and Definition 5.
    """
    scn, values = _mu_noise_scenario(), sorted({mu + e for mu in (-1, 1) for e in (-SIGMA, SIGMA)})
    outliers = finite.deterministic(lambda d: sum(abs(x - sum(d) / N_MU) > 5 * SIGMA for x in d))

    def law(_: None) -> object:
        r_np = defs.np_ratio(scn, outliers)
        r_cdp = defs.cdp_ratio(scn, outliers, domain={i: values for i in range(N_MU)})
        ok = r_np == 1 and r_cdp is None
        return ok or claim.Counterexample(eps_NP=_r(r_np), eps_CDP=_r(r_cdp))

    return one_instance(
        law,
        f"exact discretized instance (μ = ±1, n = {N_MU}, noise ±{SIGMA}, T = {{±1 ± σ}}): the "
        "outlier count (|x - mean| > 5σ) has NP ε = 0 (always 0 outliers) but CDP ε = ∞ (moving "
        "one record to the other cluster creates outliers)",
        reading=DISCRETIZED,
    )


@claim.checker("dmkb2020.ex4")
def check_ex4(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.ex4``: the sum of duplicated records may be NP, never CDP.

    Exhaustive over one or two duplicated pairs and every R on {0,1,2} with a small
    denominator: the sum is never CDP (moving one record by 1 makes the even sum odd); a
    single-valued R makes it NP (vacuously), the reading of "might be in NP".

    References:
        Desfontaines et al., Section 2.2, Example 4.
    """
    den, total = config.count(3, 4), finite.deterministic(sum)

    def never_cdp(case: Any) -> object:
        pairs, r = case
        scn = defs.normalized_scenario([r] * pairs, copies(2))
        r_cdp = defs.cdp_ratio(scn, total, domain={i: [0, 1, 2, 3] for i in range(2 * pairs)})
        return r_cdp is None or claim.Counterexample(R=r, pairs=pairs, eps_CDP=_r(r_cdp))

    # "might be NP": a single-valued R (one pair) is NP (vacuously)
    single = defs.normalized_scenario([{1: Fraction(1)}], copies(2))
    is_np = one_instance(lambda _: defs.np_ratio(single, total) is not None, "")
    rs = list(all_pmfs(3, den))
    never = claim.Exhaustive(never_cdp, lambda _c: itertools.product((1, 2), rs), verdict=PROVED)
    return claim.AllOf(
        (never, is_np),
        method=claim.Method.EXHAUSTIVE,
        holds=lambda n: (
            f"exhaustive over 1-2 duplicated pairs, every R on {{0,1,2}} with denominator {den}, "
            f"T = {{0,..,3}} ({n} cases): the sum is never CDP (ε = ∞: moving one record by 1 "
            "makes the even sum odd). NP only for single-valued R (vacuous); R with ≥ 2 values "
            "gives NP ε = ∞, as the smallest sum given D(i) = a is 2a + 2(n-1)·min R"
        ),
        reading="'might be in NP' read as 'there is an R for which it is NP'",
    )


def correct_global(d: tuple[Any, ...]) -> dict[Any, Fraction]:
    """Example 5's mechanism as printed, with counts over the whole database.

    A value x appearing once and a value y appearing twice (in the whole database) ->
    change the record x to y; output the database.

    Args:
        d: the database, a tuple of record values.

    Returns:
        The deterministic output law ``{database: 1}``.

    References:
        Desfontaines et al., Section 2.2, Example 5 (as printed).
    """
    xs, ys = (sorted(v for v in set(d) if d.count(v) == k) for k in (1, 2))
    if xs and ys:
        d = tuple(ys[0] if v == xs[0] else v for v in d)
    return {d: Fraction(1)}


def correct_triples(d: tuple[Any, ...]) -> dict[Any, Fraction]:
    """The per-triple correction of Example 5 (the corrected reading of its erratum).

    In each block (3k, 3k+1, 3k+2) the odd record is set to the majority value; output the
    database.

    Args:
        d: the database, a tuple of record values (length a multiple of 3).

    Returns:
        The deterministic output law ``{database: 1}``.

    References:
        Desfontaines et al., Section 2.2, Example 5.
    """
    out = list(d)
    for k in range(0, len(d), 3):
        t = d[k : k + 3]
        out[k : k + 3] = [v for v in t if t.count(v) == 2][:1] * 3 or t
    return {tuple(out): Fraction(1)}


@claim.checker("dmkb2020.ex5")
def check_ex5(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.ex5``: the "correcting" mechanism on triplicated records, an erratum.

    As printed (counts over the whole database) the mechanism is ({θ}, 0)-CDP for one triple
    but not for two (ε = ∞ on the first R of the ordered search); the corrected reading,
    per triple (:func:`correct_triples`), is ({θ}, 0)-CDP exactly on every case.

    References:
        Desfontaines et al., Section 2.2, Example 5 and Definition 5.
    """
    den = config.count(2, 3)

    def cases(_c: claim.RunConfig) -> Iterator[Any]:
        for triples, r in itertools.product((1, 2), list(all_pmfs(2, den))):
            if len(r) == 2:
                scn = defs.normalized_scenario([r] * triples, copies(3))
                yield triples, r, scn, {i: [0, 1, 2] for i in range(3 * triples)}

    def printed(case: Any) -> object:
        g = defs.cdp_ratio(case[2], correct_global, domain=case[3])
        cx = claim.Counterexample(triples=case[0], R=case[1], T=[0, 1, 2])
        cx["eps_CDP_printed_mechanism"] = _r(g)
        cx["example"] = (
            "D = (0,0,0,1,1,1), D_(0->1) = (1,0,0,1,1,1): no value appears exactly once, so "
            "nothing is corrected and the output is not a triplicated database"
        )
        return g == 1 or cx

    def corrected(case: Any) -> object:
        ok = defs.cdp_ratio(case[2], correct_triples, domain=case[3]) == 1
        return ok or claim.Counterexample(R=case[1])

    return claim.Erratum(
        claim.Exhaustive(printed, cases, verdict=PROVED),
        claim.Exhaustive(corrected, cases, verdict=PROVED),
        holds=lambda n: (
            "printed: changing a value appearing once (in the whole database) into one appearing "
            "twice is ({θ}, 0)-CDP: true for one triple; for two the first R of the ordered search "
            "breaks it (ε = ∞), as global counts mix triples. Corrected per triple (odd record to "
            "the majority): ({θ}, 0)-CDP exactly on every case (1-2 triples, every non-degenerate "
            f"R on {{0,1}} with denominator ≤ {den}, b ∈ {{0,1,2}}; {n} cases)"
        ),
        reading="'appearing only once/twice' read over the whole database (as printed); the "
        "correction reads it per triple",
    )


@claim.checker("dmkb2020.prop2")
def check_prop2(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.prop2``: independent records, NP ⇔ CDP.

    A sympy proof, corroborated on seeded random scenarios of independent records:
    ``M(D)|θ,B̂,D(i)=b = M(D_{i→b})|θ,B̂,D(i)=a`` exactly, so the smallest NP and CDP ε
    agree.

    References:
        Desfontaines et al., Section 2.2, Proposition 2.
    """

    def draw(rng: random.Random) -> Any:
        scn = finite.random_scenario(rng, correlated=False)
        return scn, finite.random_mechanism(rng, scn.n)[0]

    def cases(cfg: claim.RunConfig) -> Iterator[Any]:
        # (θ, the two sides): every conditional output law, then the two smallest ε
        for scn, mech in seeded_draws(cfg, 102, (40, 600), draw):
            for i, bhat in itertools.product(range(scn.n), scn.knowledge_values()):
                vals = [a for a in scn.record_values(i) if scn.compatible(i, a, bhat)]
                for a, b in itertools.product(vals, vals):
                    changed = defs.changed_pmf(scn, mech, i, a, b, bhat)
                    yield scn, finite.output_pmf(scn, mech, i, b, bhat), changed
            yield scn, defs.np_ratio(scn, mech), defs.cdp_ratio(scn, mech)

    corroboration = generated_forall(
        lambda case: case[1] == case[2] or claim.Counterexample(theta=case[0].joint),
        cases,
        verdict=PROVED,  # corroborates the proof
        fails="for independent records, M(D)|b differs from M(D_(i->b))|a or NP ε != CDP ε",
    )
    return claim.AllOf(
        (claim.Symbolic(pk_independence.proposition2, holds=""), corroboration),
        method=claim.Method.SYMBOLIC,
        reading="T = the support of D(i) (b with positive probability given B̂)",
        holds=lambda n: (
            f"{pk_independence.STEPS_PROP2}. Corroborated: "
            f"{config.count(40, 600)} generated (θ, M), independent Bernoulli records (n ≤ 3, "
            "random known records as B), random M: M(D)|θ,B̂,D(i)=b = M(D_(i→b))|θ,B̂,D(i)=a "
            "exactly for every (i, B̂, a, b), so smallest NP ε = smallest CDP ε (T = support of "
            f"D(i)); {n} checks"
        ),
    )


def _normalization_case(rng: random.Random) -> tuple[Any, Any, int, Any]:
    """φ0 ∈ {0,1}, φ1 ∈ {0,1,2}, φ2 ∈ {0,1} independent; D = (φ0, (φ1 + cφ0) mod 3, φ2)."""
    params = [finite.random_pmf(rng, v, 6, positive=True) for v in ([0, 1], [0, 1, 2], [0, 1])]
    c = rng.choice([0, 1, 2])
    keys = itertools.product((0, 1), (0, 1, 2), (0, 1))
    mech = finite.table_mechanism(random_table(rng, keys, [0, 1, 2, finite.BOTTOM]))
    return params, lambda phi: (phi[0], (phi[1] + c * phi[0]) % 3, phi[2]), c, mech


@claim.checker("dmkb2020.prop3")
def check_prop3(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.prop3``: more background knowledge makes NP no weaker.

    On seeded acceptable normalizations and random mechanisms, for nested index sets
    I2 ⊆ I1: the exact NP ε with B = φ_I2 is at most the one with B = φ_I1.

    References:
        Desfontaines et al., Section 2.3, Proposition 3 and Definitions 7-9.
    """
    nested = (((1, 2), (2,)), ((1, 2), ()), ((1,), ()), ((2,), ()))

    def law(case: Any) -> object:
        (params, theta_hat, c, mech), (known1, known2) = case
        scns = (defs.normalized_scenario(params, theta_hat, k) for k in (known1, known2))
        r1, r2 = (defs.np_ratio(scn, mech, [0]) for scn in scns)
        return (r1 is None or (r2 is not None and r2 <= r1)) or claim.Counterexample(
            phi=params, c=c, I1=list(known1), I2=list(known2), eps_NP_1=_r(r1), eps_NP_2=_r(r2)
        )

    return generated_forall(
        law,
        lambda cfg: itertools.product(
            seeded_draws(cfg, 103, (40, 600), _normalization_case), nested
        ),
        holds=lambda n: (
            f"{config.count(40, 600)} generated acceptable normalizations at i = 0 (independent φ0 "
            "∈ {0,1}, φ1 ∈ {0,1,2}, φ2 ∈ {0,1}; D = (φ0, (φ1 + cφ0) mod 3, φ2), injective; random "
            f"M), I2 ⊆ I1 ∈ {{(1,2)⊇(2), (1,2)⊇∅, (1)⊇∅, (2)⊇∅}}: exact NP ε with B = φ_I2 ≤ with "
            f"B = φ_I1 in all {n} checks"
        ),
        fails="more knowledge, smaller NP ε",
        reading="NP quantified at the normalized index i = 0",
    )


def _example6_scenario(ps: list[Fraction], pc: Fraction) -> Scenario:
    """Example 6: pairs (x, x'), x ~ Bernoulli(p) for p in ``ps``, x' = x with probability pc."""
    pair = {(x, y): pc if x == y else 1 - pc for x, y in BITS2}
    params = [{xy: (p if xy[0] else 1 - p) * q for xy, q in pair.items()} for p in ps]
    return defs.normalized_scenario(params, lambda phi: tuple(v for xy in phi for v in xy))


@claim.checker("dmkb2020.prop4")
def check_prop4(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.prop4``: acceptable Θ, NP ⇔ CDP, an erratum.

    As printed it fails: Definition 8 lets other records depend on φ_0, and the first case
    of an ordered search (like the paper's Example 6) has NP ε ≠ CDP ε. The corrected
    reading (D_{-i} a function of φ_1..φ_k only) gives equal ε exactly on seeded cases.

    References:
        Desfontaines et al., Section 2.3, Proposition 4 and Definition 8.
    """

    def printed(case: Any) -> object:
        # φ0 a uniform bit, D = (φ0, h(φ0)) for h: {0,1} -> {0,1}, B = nothing,
        # deterministic M: {0,1}^2 -> {0,1}; lexicographic
        h, outs = case
        scn = defs.normalized_scenario([{0: HALF, 1: HALF}], lambda phi: (phi[0], h[phi[0]]))
        mech = finite.table_mechanism(det_table(outs))
        r_np, r_cdp = defs.np_ratio(scn, mech, [0]), defs.cdp_ratio(scn, mech, targets=[0])
        if r_np == r_cdp:
            return True
        # the paper's own Example 6, first normalization (φ0 = the pair (D(0), D(1))), target D(1)
        ex6, m0 = _example6_scenario([HALF], Fraction(3, 4)), finite.deterministic(lambda d: d[0])
        e6 = {"p_0": "1/2", "p_c": "3/4", "target": "D(1)", "M": "D(0)"}
        e6["eps_NP"] = _r(defs.np_ratio(ex6, m0, [1]))
        e6["eps_CDP"] = _r(defs.cdp_ratio(ex6, m0, targets=[1]))
        cx = claim.Counterexample(normalization=f"phi0 uniform bit; D = (phi0, h(phi0)), h = {h}")
        cx.update(B="none (I = ∅)", i=0, M=dict(zip(BITS2, outs, strict=True)))
        cx.update(eps_NP=_r(r_np), eps_CDP=_r(r_cdp), example6=e6)
        return cx

    def draw(rng: random.Random) -> Any:
        # D_{-i} a function of φ1..φk only (then D(i) ⊥ (D_{-i}, B)); the rng also draws B
        params, _, c, mech = _normalization_case(rng)
        known = rng.choice([(), (1,), (2,), (1, 2)])
        shift = defs.normalized_scenario(
            params, lambda phi: (phi[0], (phi[1] + c) % 3, phi[2]), known
        )
        return params, shift, mech

    def corrected(case: Any) -> object:
        params, scn, mech = case
        same = defs.np_ratio(scn, mech, [0]) == defs.cdp_ratio(scn, mech, targets=[0])
        return same or claim.Counterexample(phi=params)

    return claim.Erratum(
        claim.Exhaustive(
            printed, lambda _c: itertools.product(BITS2, itertools.product((0, 1), repeat=4))
        ),
        generated_forall(corrected, lambda cfg: seeded_draws(cfg, 104, (40, 600), draw)),
        holds=lambda n: (
            "printed: for acceptable Θ, NP ⇔ CDP. Definition 8 lets other records depend on φ0 "
            "(duplicates are acceptable): the first case of an ordered search has NP ε ≠ CDP ε, "
            "as has the paper's Example 6 (first normalization, target D(1), M = D(0); in the "
            "counterexample). Corrected (D_(-i) a function of φ1..φk only, so D(i) ⊥ (D_(-i), B) "
            "as in Proposition 2): NP ε = CDP ε exactly on generated cases (φ0 ∈ {0,1}, φ1 ∈ "
            f"{{0,1,2}}, φ2 ∈ {{0,1}}, random B and M; {n} cases in all)"
        ),
        method=claim.Method.GENERATED,
        reading="Definition 8 as printed (only D(i) and B are constrained)",
    )


@claim.checker("dmkb2020.ex6")
def check_ex6(config: claim.RunConfig) -> claim.Property:
    """Checker of ``dmkb2020.ex6``: the two acceptable normalizations of the paired referendum.

    Exhaustive over small exact instances: both normalizations are mutually independent
    parameters (joint = product of marginals, exactly) that recover D injectively.

    References:
        Desfontaines et al., Section 2.3, Example 6 and Definitions 7-8.
    """
    ps_grid = [ps for k in (1, 2) for ps in itertools.product([Fraction(1, 3), HALF], repeat=k)]

    def law(case: Any) -> object:
        ps, pc = case
        dist = {d: p for (d, _), p in _example6_scenario(list(ps), pc).joint.items()}
        # A: φ_k = (D(2k), D(2k+1)); B: φ_2k = [D(2k) = D(2k+1)], φ_2k+1 = D(2k)
        fa = [lambda d, k=k: (d[2 * k], d[2 * k + 1]) for k in range(len(ps))]
        fb = [f for g in fa for f in (lambda d, g=g: len(set(g(d))) == 1, lambda d, g=g: g(d)[0])]
        valid = all(
            independent_family(dist, fam)
            and len({tuple(f(d) for f in fam) for d in dist}) == len(dist)
            for fam in (fa, fb)
        )
        return valid or claim.Counterexample(p=[str(p) for p in ps], p_c=str(pc))

    return claim.Exhaustive(
        law,
        lambda _c: itertools.product(ps_grid, [Fraction(1, 4), Fraction(2, 3)]),
        verdict=PROVED,
        holds=lambda n: (
            f"exhaustive over {n} exact instances (1 or 2 pairs, p_i ∈ {{1/3, 1/2}}, p_c ∈ "
            "{1/4, 2/3}): both normalizations are mutually independent parameters (joint = product "
            "of marginals, exactly) that recover D injectively; in the first φ0 fixes D(1), in the "
            "second the sensitive φ0 = [D(0) = D(1)] is independent of φ1 = D(0), which the "
            "attacker may know"
        ),
        fails="a normalization is not valid",
    )
