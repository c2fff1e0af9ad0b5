"""Finite mechanisms with exact PMFs (Desfontaines et al. Sections 2-3, Table 1).

A mechanism ``M`` maps a database (a tuple of records) to an exact distribution over
outputs, possibly the special output ``⊥``: a callable ``D -> {output: probability}``.
This module builds them (deterministic, table, composition, post-processing, mixture),
pushes a :class:`~pdpsym.models.scenario.Scenario` through one (:func:`output_pmf`),
and draws small random scenarios and mechanisms for the checkers.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from pdpsym.models.scenario import PMF, Database, Scenario, check_pmf

BOTTOM = "⊥"

Mechanism = Callable[[Database], Mapping[Any, Fraction]]


# --- mechanisms ------------------------------------------------------------------


def deterministic(f: Callable[[Database], Any]) -> Mechanism:
    """The mechanism that outputs ``f(D)`` with probability 1 (a noiseless query).

    Args:
        f: the query; maps a database (a tuple of records) to a hashable output.

    Returns:
        A mechanism ``D -> {f(D): Fraction(1)}``.

    References:
        Desfontaines et al. (2020), Section 2.1, Definition 3 (noiseless privacy).
    """

    def mech(d: Database) -> PMF:
        return {f(d): Fraction(1)}

    return mech


def output_pmf(scenario: Scenario, mech: Mechanism, i: int, a: Any, bhat: Any | None = None) -> PMF:
    """The output law ``P[M(D) = . | D(i) = a, B = bhat]`` under the scenario's θ.

    Sums ``θ(D | D(i) = a, B = bhat) · P[M(D) = o]`` over the databases of the support;
    outputs of probability 0 are left out.

    Args:
        scenario: the joint law θ of the database and the partial knowledge ``B``.
        mech: the mechanism.
        i: the target record's index (0-based).
        a: the target's value ``D(i) = a``.
        bhat: the value of the partial knowledge to condition on; ``None`` conditions on
            ``D(i) = a`` only.

    Returns:
        The exact output PMF ``{output: Fraction}``.

    Raises:
        InputError: (field ``condition``) when ``D(i) = a, B = bhat`` has probability 0.

    References:
        Desfontaines et al. (2020), Section 3.1, Definition 11 (the two laws the PLRV
        compares).
    """
    out: PMF = {}
    for d, p in scenario.conditional(i, a, bhat).items():
        for o, q in mech(d).items():  # type: ignore[arg-type]
            if q:
                out[o] = out.get(o, Fraction(0)) + p * Fraction(q)
    return out


def compose(m1: Mechanism, m2: Mechanism) -> Mechanism:
    """The composition ``M(D) = (M1(D), M2(D))`` with independent internal randomness.

    Args:
        m1: the first mechanism.
        m2: the second mechanism.

    Returns:
        A mechanism whose outputs are pairs ``(o1, o2)`` with probability ``p1 · p2``.

    References:
        Desfontaines et al. (2020), Section 5.1, Theorem 6.
    """

    def mech(d: Database) -> PMF:
        return {(o1, o2): p1 * p2 for o1, p1 in m1(d).items() for o2, p2 in m2(d).items()}

    return mech


def post_process(m: Mechanism, f: Callable[[Any], Mapping[Any, Fraction]]) -> Mechanism:
    """The mechanism ``f(M(D))`` for a (possibly randomized) post-processing kernel ``f``.

    Args:
        m: the mechanism.
        f: the kernel; maps an output ``o`` to an exact PMF over new outputs (a
            deterministic map returns ``{g(o): 1}``).

    Returns:
        A mechanism with ``P[o2] = Σ_o P[M(D) = o] · f(o)[o2]``.

    References:
        Desfontaines et al. (2020), Section 3.4, Proposition 5 (post-processing axiom).
    """

    def mech(d: Database) -> PMF:
        out: PMF = {}
        for o, p in m(d).items():
            for o2, q in f(o).items():
                out[o2] = out.get(o2, Fraction(0)) + Fraction(p) * Fraction(q)
        return out

    return mech


def mixture(m1: Mechanism, m2: Mechanism, p: Fraction) -> Mechanism:
    """The mechanism that runs ``M1`` with probability ``p`` and ``M2`` otherwise.

    Args:
        m1: the mechanism run with probability ``p``.
        m2: the mechanism run with probability ``1 - p``.
        p: the mixing weight, an exact probability in [0, 1] (not checked here).

    Returns:
        A mechanism with output law ``p · M1(D) + (1 - p) · M2(D)``.

    References:
        Desfontaines et al. (2020), Section 3.4, Proposition 5 (convexity axiom).
    """

    def mech(d: Database) -> PMF:
        out: PMF = {}
        for o, q in m1(d).items():
            out[o] = out.get(o, Fraction(0)) + p * Fraction(q)
        for o, q in m2(d).items():
            out[o] = out.get(o, Fraction(0)) + (1 - p) * Fraction(q)
        return out

    return mech


# --- generators for checks (exact, seeded) ------------------------------------------------


def random_pmf(rng: Any, keys: Sequence[Any], denominator: int, positive: bool) -> PMF:
    """A random exact PMF on ``keys`` whose probabilities share one denominator.

    Cuts ``[0, denominator]`` at ``len(keys) - 1`` random integer points.

    Args:
        rng: a seeded ``random.Random``.
        keys: the support candidates, in order.
        denominator: the common denominator (raised to ``len(keys)`` when ``positive``).
        positive: if true, every key gets a positive probability; otherwise keys whose
            share is 0 are left out of the result.

    Returns:
        ``{key: Fraction}`` summing to exactly 1.

    References:
        Knuth, TAOCP vol. 2, Section 3.4.2 (random sampling), for the random cuts.
    """
    k = len(keys)
    if positive:
        denominator = max(denominator, k)
        cuts = sorted(rng.sample(range(1, denominator), k - 1))
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, denominator], strict=True)]
    else:
        cuts = sorted(rng.randint(0, denominator) for _ in range(k - 1))
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, denominator], strict=True)]
    return {key: Fraction(c, denominator) for key, c in zip(keys, parts, strict=True) if c}


def random_scenario(rng: Any, n: int | None = None, correlated: bool | None = None) -> Scenario:
    """A small random θ over binary records, for the checkers.

    Either independent Bernoulli records with probabilities in ``{1/6, ..., 5/6}`` whose
    partial knowledge is a random subset of records ``1..n-1`` (record 0 is never known),
    or a full-support correlated joint over ``(D, B)`` with binary ``B`` (so every ``B̂`` is
    compatible with every ``D(i)``).

    Args:
        rng: a seeded ``random.Random``.
        n: the number of records; ``None`` draws 2 or 3.
        correlated: which of the two kinds; ``None`` draws one with probability 1/2.

    Returns:
        The exact :class:`~pdpsym.models.scenario.Scenario`.

    References:
        Desfontaines et al. (2020), Section 2, Definitions 3-5 (θ over ``D × B``).
    """
    n = n if n is not None else rng.choice([2, 2, 3])
    correlated = correlated if correlated is not None else rng.random() < 0.5
    dbs = list(itertools.product((0, 1), repeat=n))
    if not correlated:
        ps = [Fraction(rng.randint(1, 5), 6) for _ in range(n)]
        known = [j for j in range(1, n) if rng.random() < 0.5]
        return Scenario.bernoulli(ps, known)
    keys = [(d, b) for d in dbs for b in (0, 1)]
    return Scenario.from_joint(random_pmf(rng, keys, rng.choice([24, 36, 48]), positive=True))


def random_mechanism(
    rng: Any, n: int, outputs: Sequence[Any] = (0, 1, 2, BOTTOM)
) -> tuple[Mechanism, dict[Database, PMF]]:
    """A random mechanism on binary databases of ``n`` records, for the checkers.

    With probability 0.4 every database maps to one random output (deterministic);
    otherwise each row is a random exact PMF with denominator 2, 3 or 4.

    Args:
        rng: a seeded ``random.Random``.
        n: the number of records.
        outputs: the possible outputs (``⊥`` included by default).

    Returns:
        The mechanism and its table ``{database: PMF}``.

    References:
        Desfontaines et al. (2020), Section 3.1 (mechanisms with countable outputs).
    """
    table: dict[Database, PMF] = {}
    det = rng.random() < 0.4
    for d in itertools.product((0, 1), repeat=n):
        if det:
            table[d] = {rng.choice(list(outputs)): Fraction(1)}
        else:
            table[d] = random_pmf(rng, list(outputs), rng.choice([2, 3, 4]), positive=False)

    def mech(d: Database) -> PMF:
        return table[d]

    return mech, table


def check_law(pmf: Mapping[Any, Any], field: str) -> None:
    """Check that ``pmf`` is a probability law.

    The values must be exact rationals, non-negative, and sum to exactly 1 (a sub- or
    super-probability row would otherwise give a silently wrong δ, such as 0).

    Args:
        pmf: ``{output: probability}``.
        field: the field named by the error.

    Raises:
        InputError: naming ``field`` when ``pmf`` is not a probability law.

    References:
        Desfontaines et al. (2020), Section 3.1, Definition 10 (output probabilities).
    """
    check_pmf(pmf, field)


def check_mechanism(scenario: Scenario, mech: Mechanism, field: str = "mech") -> None:
    """Check that every database of the scenario's support is mapped to a probability law.

    Args:
        scenario: the joint law θ; only databases of positive probability are checked.
        mech: the mechanism.
        field: the field prefix of the error (``field[D]``).

    Raises:
        InputError: naming ``field[D]`` for the first database whose row is not a law.

    References:
        Desfontaines et al. (2020), Section 3.1, Definition 10.
    """
    seen: set[Database] = set()
    for (d, _), p in scenario.joint.items():
        if p and d not in seen:
            seen.add(d)
            check_law(mech(d), f"{field}[{d!r}]")


def table_mechanism(table: Mapping[Database, Mapping[Any, Fraction]]) -> Mechanism:
    """The mechanism given by an explicit table ``D -> PMF``.

    Every row is checked to be a probability law. The returned mechanism looks the
    database up in the table, so a database missing from it raises ``KeyError``.

    Args:
        table: ``{database: {output: probability}}``.

    Returns:
        The mechanism ``D -> table[D]``.

    Raises:
        InputError: naming ``table[D]`` for a row that is not a probability law.

    References:
        Desfontaines et al. (2020), Section 3.1, Definition 10.
    """
    for d, row in table.items():
        check_law(row, f"table[{d!r}]")

    def mech(d: Database) -> Mapping[Any, Fraction]:
        return table[d]

    return mech
