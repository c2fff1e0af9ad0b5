"""Case generators and small helpers shared by the checkers of Desfontaines et al.

The Section 2, 3, 4 and 5 checker modules (``claims_section2`` to ``claims_section5``)
draw their scenarios, mechanisms and tables here, so that no checker module reaches
another's private names. Everything is exact (Fractions); draws are seeded by the run's
configuration.

References:
    Desfontaines, Mohammadi, Krahmer, Basin (2020), "Differential privacy with partial
    knowledge", Sections 2-5.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from typing import Any

from pdpsym.claims import claim
from pdpsym.core.certify import certify
from pdpsym.core.compare import compare
from pdpsym.core.numbers import fraction_str
from pdpsym.loss.plrv import Eps
from pdpsym.mechanisms import finite

HALF = Fraction(1, 2)
# the class random_scenario and random_mechanism draw from
RANDOM_CLASS = (
    "binary records n ≤ 3, independent with known records or full-support correlated (D, B); "
    "randomized or deterministic M"
)
BITS2 = tuple(itertools.product((0, 1), repeat=2))
PROVED = claim.Verdict.PROVED
EPS_CHOICES = (Eps.of(0), Eps.log(Fraction(3, 2)), Eps.log(2), Eps.log(3), Eps.of(HALF), Eps.of(1))
# every p in (0, 1) with denominator 2, 3, 4, by denominator then numerator
PS = [Fraction(a, d) for d in range(2, 5) for a in range(1, d) if math.gcd(a, d) == 1]
OUTS4 = list(itertools.product((0, 1), repeat=4))  # every M: {0,1}² → {0,1}, lexicographic
GEN = claim.Method.GENERATED
AB = ((0, 1), (1, 0))  # both ordered pairs of binary record values


def seeded_draws(
    config: claim.RunConfig, salt: int, count: tuple[int, int], draw: Callable[[random.Random], Any]
) -> Iterator[Any]:
    """``config.count(*count)`` cases drawn by ``draw`` from a generator seeded by ``salt``.

    Args:
        config: the run's configuration (seed, thorough or default).
        salt: added to the seed, so that checkers draw independently.
        count: the (default, thorough) number of draws.
        draw: one case from a seeded ``random.Random``.

    Returns:
        The drawn cases, lazily.

    References:
        Python docs, random (a seeded ``random.Random`` reproduces its sequence).
    """
    rng = random.Random(config.seed + salt)
    for _ in range(config.count(*count)):
        yield draw(rng)


def generated_forall(law: claim.Law, cases: Any, **kw: Any) -> claim.ForAll:
    """A :class:`~pdpsym.claims.claim.ForAll` over generated cases (method ``generated``).

    Args:
        law: the law every case must satisfy.
        cases: ``config -> iterable of cases``.
        **kw: the other ForAll fields (evidence, reading, verdict).

    Returns:
        The Property.

    References:
        Desfontaines et al., Sections 2-5 (the claims these properties check).
    """
    return claim.ForAll(law, cases, method=claim.Method.GENERATED, **kw)


def all_pmfs(outputs: int, den: int) -> Iterator[dict[Any, Fraction]]:
    """Every pmf on ``0..outputs-1`` with denominator ``den``, in lexicographic order.

    Outputs of probability 0 are left out of each dict.

    Args:
        outputs: the number of outputs, ≥ 1.
        den: the common denominator, ≥ 1.

    Yields:
        Dicts output -> exact probability.

    References:
        Knuth, TAOCP vol. 4A, Section 7.2.1.3 (combinations with repetition, i.e.
        compositions of ``den`` into ``outputs`` parts).
    """
    for cuts in itertools.combinations_with_replacement(range(den + 1), outputs - 1):
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, den], strict=True)]
        yield {k: Fraction(c, den) for k, c in enumerate(parts) if c}


def det_table(outs: Iterable[Any], dbs: Iterable[Any] = BITS2) -> dict[Any, dict[Any, Fraction]]:
    """The table of the deterministic mechanism ``dbs[k] -> outs[k]``.

    Args:
        outs: the output of each database, in the order of ``dbs``.
        dbs: the databases (default: the four of {0,1}², lexicographic).

    Returns:
        A dict database -> ``{output: 1}``.

    References:
        Desfontaines et al., Section 1.3 (a mechanism as a map from databases to output
        distributions; here noiseless).
    """
    return {d: {o: Fraction(1)} for d, o in zip(dbs, outs, strict=True)}


def random_table(rng: random.Random, keys: Iterable[Any], outs: list[Any]) -> dict[Any, Any]:
    """A random kernel ``key -> PMF on outs`` (denominators 1 to 3, zeros allowed).

    Args:
        rng: the seeded generator.
        keys: the inputs of the kernel (databases or outputs).
        outs: the possible outputs.

    Returns:
        A dict key -> exact PMF on ``outs``.

    References:
        Desfontaines et al., Section 2.3 (random mechanisms on normalized distributions,
        Propositions 3-4) and Section 3.4, Proposition 5 (randomized post-processing).
    """
    return {k: finite.random_pmf(rng, outs, rng.choice([1, 2, 3]), positive=False) for k in keys}


def copies(k: int) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """θ̂ that repeats each parameter ``k`` times (duplicated records).

    Args:
        k: the number of copies of each parameter, ≥ 1.

    Returns:
        The map ``φ -> (φ_0, ..., φ_0, φ_1, ...)``, each value ``k`` times.

    References:
        Desfontaines et al., Section 2.2, Examples 2, 4 (duplicated records) and 5
        (triplicated records).
    """
    return lambda phi: tuple(v for v in phi for _ in range(k))


def one_instance(law: Callable[[None], object], holds: Any, **kw: Any) -> claim.ForAll:
    """A claim about one exact instance: proved when the instance shows it.

    Args:
        law: the law, called once with None; it computes the instance.
        holds: the evidence printed when it holds.
        **kw: other ForAll fields (they override method ``exact-instance`` and verdict
            ``proved``).

    Returns:
        The :class:`~pdpsym.claims.claim.ForAll` property.

    References:
        Desfontaines et al., Sections 2-5 (the examples checked on one instance).
    """
    kw = {"method": claim.Method.EXACT_INSTANCE, "verdict": PROVED, **kw}
    return claim.Exhaustive(law, lambda _c: [None], holds=holds, **kw)


def independent_family(dist: dict[Any, Fraction], fam: list[Any]) -> bool:
    """Whether the functions ``fam`` of D ~ ``dist`` are mutually independent, exactly.

    Args:
        dist: the law of D, value -> exact probability.
        fam: functions of D.

    Returns:
        True iff the joint law of ``(f(D) for f in fam)`` is the product of the
        marginals (exact Fraction arithmetic).

    References:
        Desfontaines et al., Section 2.3, Definition 7 (mutually independent parameters)
        and Section 5.1, Proposition 9 (independent parts).
    """
    joint: dict[tuple[Any, ...], Fraction] = {}
    margs: list[dict[Any, Fraction]] = [{} for _ in fam]
    for d, p in dist.items():
        key = tuple(f(d) for f in fam)
        joint[key] = joint.get(key, Fraction(0)) + p
        for m, v in zip(margs, key, strict=True):
            m[v] = m.get(v, Fraction(0)) + p
    return all(
        joint.get(key, Fraction(0))
        == math.prod((m[v] for m, v in zip(margs, key, strict=True)), start=Fraction(1))
        for key in itertools.product(*(sorted(m, key=repr) for m in margs))
    )


def det_json(outs: Any) -> dict[str, str]:
    """The deterministic mechanism ``BITS2[k] -> outs[k]`` as JSON.

    Args:
        outs: the output of each of the four databases of {0,1}², lexicographic.

    Returns:
        A dict ``repr(database) -> repr(output)``.

    References:
        Desfontaines et al., Section 1.3 (a mechanism as a map from databases to outputs).
    """
    return {repr(d): repr(o) for d, o in zip(BITS2, outs, strict=True)}


def frac_text(q: Fraction | int) -> str:
    """An integer or fraction as exact text (``"3/2"``).

    Args:
        q: the number.

    Returns:
        Its exact text.

    References:
        Python docs, fractions.
    """
    return fraction_str(Fraction(q))


def dec(x: Any, digits: int = 12) -> str:
    """A value's certified decimal (every printed digit certain), for a verdict's text.

    Args:
        x: an exact or certified value.
        digits: the significant digits.

    Returns:
        The certified decimal.

    References:
        Johansson, Arb (2017), ball arithmetic.
    """
    return certify(x, digits).decimal


def decided_le(x: Any, y: Any) -> bool:
    """Whether ``x <= y``, decided exactly.

    Args:
        x: an exact or certified value.
        y: an exact or certified value.

    Returns:
        True when ``x <= y``.

    References:
        Johansson, Arb (2017), ball arithmetic (screen, then decide exactly).
    """
    return compare(x, y).sign <= 0


def exact_cx(facts: dict[str, Any]) -> claim.Counterexample:
    """The facts of a failing case, with integers and fractions as exact text.

    Args:
        facts: the case's facts by name.

    Returns:
        The counterexample.

    References:
        Desfontaines et al. (2020), Section 4 (the checked statements' quantities).
    """
    return claim.Counterexample(
        {k: frac_text(v) if isinstance(v, int | Fraction) else v for k, v in facts.items()}
    )
