r"""IBCDP and distributional DP on a structured model, from exact conditional laws.

The mechanisms are those of :mod:`pdpsym.audit.sum_mechanisms`: Laplace or geometric noise,
the count or the thresholded count of ``f(x) = Σ_k w_k x_k``. ``i`` is the target, ``K``
the known records, ``v`` a value of ``x_K`` (Desfontaines et al.'s ``B̂``) and ``P(a, s |
v) = P(x_i = a, f = s | x_K = v)``. No database is ever listed.

**The joint law of the target and the query.** A count model's ``J_{i,a}(z) = Σ_c n_c
z^c`` has ``n_c ∝ P(S = c, x_i = a, x_K = v)`` with one factor for every ``a``
(:mod:`pdpsym.models.counts`), so ``P(a, s | v) = n_c / Σ_{a'} J_{i,a'}(1)``
(:func:`~pdpsym.models.counts.exact_joint_law`). The values ``v`` visited are those of
positive probability: the union over ``a`` of the supports of ``P[x_K = · | x_i = a]``.

**IBCDP** (Definition 6). ``D_{i→b}`` is ``D`` with ``x_i`` replaced by ``b``; it shifts
``f`` by ``w_i (b - a)`` on the databases with ``x_i = a``. With a kernel ``K(t | s)``
(the law of the output given ``f = s``) the posterior of ``x_i`` given ``M(D) = t, v`` is
``post_1(a) ∝ Σ_s P(a, s | v) K(t | s)`` and given ``M(D_{i→b}) = t, v`` it is
``post_2(a) ∝ Σ_s P(a, s | v) K(t | s + w_i (b - a))``: the common factor ``P(v)`` cancels.
IBCDP compares ``post_1`` and ``post_2`` for every ``v``, every ``b`` of the target's
declared domain and every output ``t`` both can produce, both ways.

* Laplace: both posteriors are ratios of Laplace mixtures with weights ``P(a, s | v)``
  and ``P(a, s | v)`` moved to ``s + w_i (b - a)``: one
  :class:`~pdpsym.loss.posterior_pieces.PosteriorCase` per ``(v, b)`` and direction, and the
  sup over the continuous output is certified by
  :class:`~pdpsym.loss.posterior.PosteriorSup`.
* Count, threshold: ``K`` is a point mass (at ``s``, or at ``s`` when ``s > T`` and ``⊥``
  otherwise): one exact pair of posteriors per ``(v, b, t)`` and direction.
* Geometric: ``u_a(t) = Σ_s P(a, s | v) α^{|t - s|}``. For ``t`` below the least centre
  ``lo`` of both families (``s`` and ``s + w_i (b - a)``), ``|t - s| = (lo - t) + (s - lo)``
  so ``u_a(t) = α^{lo - t} u_a(lo)``: the same multiple for every ``a`` and both families,
  and the posteriors at ``t`` are those at ``lo`` (likewise above the largest centre
  ``hi``). So the outputs are kept on ``lo..hi`` with the tails lumped
  (:func:`~pdpsym.mechanisms.sum_kernels.geometric_mixture_pmf`; a lumped tail has the
  posteriors of its end): the set of posterior pairs, hence every figure, is that of the
  unbounded output. The table path's :func:`~pdpsym.mechanisms.discrete.geometric` lumps
  beyond the range of ``f`` over every database, which contains ``[lo, hi]``: the outputs
  it keeps in between have the posteriors of ``lo`` or ``hi`` again, so both agree.

**Distributional DP** (Definition 4). The simulator ``Sim`` sees the rest ``D_{-i}``
(the known values among it), so the best simulator is chosen per ``v``; in the block of
``v`` only ``S_a = Σ_r π_a(r) Sim(r)`` enters the LP (:mod:`pdpsym.audit.distributional_lp`),
with ``π_a(r) = P(D_{-i} = r | a, v)`` and rows the values ``a`` compatible with ``v``.

*Lemma (merging columns).* If ``π_a(r) = c_r h_a(g(r))`` for every ``a`` and ``r`` (for a
function ``g`` of the rest and ``c_r ≥ 0``), the LP over the rests and the LP over the
values ``μ`` of ``g`` with ``π'_a(μ) = Σ_{g(r) = μ} π_a(r)`` have the same optimum.
*Proof.* Given ``Sim``, set ``Sim'(μ) = Σ_{g(r) = μ} c_r Sim(r) / Σ_{g(r) = μ} c_r`` (a
probability law: a convex combination; any law where the sum is 0). Then ``Σ_μ π'_a(μ)
Sim'(μ) = Σ_μ h_a(μ) Σ_{g(r)=μ} c_r Sim(r) = S_a`` for every ``a``. Conversely a
simulator ``Sim'`` on the ``μ`` gives ``Sim(r) = Sim'(g(r))`` with the same ``S_a``. The
objective and constraints depend on ``Sim`` only through the ``S_a``, so the two sets of
feasible ``(S_a)_a`` and the optima coincide. ∎

Here ``π_a(r) = P(r | v) P(a | r) / P(a | v)`` (``r`` contains ``v``), and ``P(a | r)``
depends on ``r`` only through the target's Markov blanket (parents, children and the
children's other parents in a network; the linked neighbours ``x_{i-1}``, ``x_{i+1}``
in a chain; nobody for independent records), whose known part is fixed by ``v``. So
``g(r) = μ``, the values of the blanket's unknown records, and ``c_r = P(r | v)``
satisfy the lemma, with ``π'_a(μ) = P(x_{MB∖K} = μ | a, v)``: one query law whose
mixed-radix weights on the blanket make the sum determine ``μ``
(:func:`~pdpsym.models.query_law.records_law`). A model without ``markov_blanket``
gets every other unknown record (``g`` the identity: the table's LP). Each row's output
law is the kernel mixed over the law of ``f`` given ``a, v``: the Laplace centres of
:func:`~pdpsym.audit.distributional_lp.laplace_lp_data`, or the exact output masses
for the finite kernels (geometric tails lumped beyond the block's extreme centres: on
each tail every row is the same shape ``α^{|t - c|}`` times a row constant, so a
simulator on the lumped output spreads over the tail in that shape with the same hockey
sticks, and lumping is a post-processing: the optimum is unchanged). A block whose rows
all have one output law needs no LP (``Sim`` = that law, δ = 0). Certified as in
:mod:`pdpsym.audit.distributional`.

References:
    Desfontaines et al. (2020), Section 2.1, Definition 4; Section 2.2, Definition 6;
    Pearl (1988), Section 3.2 (Markov blankets).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

import sympy

from pdpsym.audit.distributional import DistributionalLoss
from pdpsym.audit.distributional_lp import LPData, Matrix, laplace_lp_data, threshold
from pdpsym.audit.notions import curve_points
from pdpsym.audit.registry import Notion
from pdpsym.audit.results import NotionResult
from pdpsym.core.eps import Eps
from pdpsym.core.errors import InputError
from pdpsym.loss import PrivacyLoss, worst_case
from pdpsym.loss.pmf_pair import PMFPair
from pdpsym.loss.posterior import PosteriorSup
from pdpsym.loss.posterior_pieces import PosteriorCase
from pdpsym.models.counts import exact_joint_law
from pdpsym.models.query_law import records_law

if TYPE_CHECKING:  # the mechanism's class; importing it at run time would be a cycle
    from pdpsym.mechanisms.base import SumMechanism

Law = dict[Fraction, Fraction]
Known = tuple[Fraction, ...]

IBCDP_LAPLACE_NOTE = (
    "certified: the sup over the output is at a piece end or at a stationary point of "
    "closed form (exact signs), enclosed in balls to the digits asked; from the joint law "
    "of the target and the query (no database is listed)"
)


class QueryLaws(Protocol):
    """The conditional query laws of one model, target and known set
    (:mod:`pdpsym.audit.sum_mechanisms` builds them)."""

    model: Any
    target: str
    known: tuple[str, ...]
    weights: dict[str, Fraction]
    int_weights: dict[str, int]
    scale: int
    domains: dict[str, tuple[Fraction, ...]]

    def law(self, a: Fraction, v: Known) -> Law | None:
        """The law of ``f`` given ``x_i = a, x_K = v`` (None: probability zero)."""
        ...

    def known_given(self, a: Fraction) -> dict[Known, Fraction] | None:
        """``P[x_K = v | x_i = a]`` over the ``v`` of positive probability."""
        ...

    def support(self) -> list[Fraction]:
        """The target's values of positive probability."""
        ...

    def shift(self, a: Fraction, b: Fraction) -> Fraction:
        """How much ``f`` moves when the target changes from ``a`` to ``b``."""
        ...


def pushed_laws(mech: SumMechanism, laws: Sequence[Law]) -> list[dict[Any, Fraction]]:
    """The output PMFs of a finite mechanism on the sum mixed over each law, on one range.

    Args:
        mech: a count, threshold or geometric mechanism on the sum.
        laws: laws (or unnormalized weights) of the query value.

    Returns:
        One PMF per law; for geometric noise the outputs ``lo..hi`` (the least and largest
        centre of every law) and the two lumped tails.

    References:
        Desfontaines et al. (2020), Section 4, Definition 15 (thresholding); Section 5.2,
        Definition 19 (geometric noise).
    """
    out = mech.output_laws(laws)
    assert out is not None, "a continuous kernel has no finite output laws"
    return out


def known_values(m: QueryLaws) -> list[Known]:
    """The known values ``v`` of positive probability, in a fixed order.

    Args:
        m: the query laws.

    Returns:
        The union over the target's values of the supports of ``P[x_K = · | x_i = a]``.

    References:
        Desfontaines et al. (2020), Section 3.1 (the attacker's partial knowledge ``B̂``).
    """
    seen: dict[Known, None] = {}
    for a in m.support():
        for v in m.known_given(a) or {}:
            seen.setdefault(v, None)
    return list(seen)


def joint_laws(m: QueryLaws, v: Known) -> dict[Fraction, Law]:
    """``{a: {s: P(x_i = a, f = s | x_K = v)}}`` in the query's own units.

    Args:
        m: the query laws.
        v: a known value of positive probability.

    Returns:
        The joint law of the target and the query given ``v``.

    Raises:
        InputError: (``model``) for a model without count polynomials.

    References:
        Desfontaines et al. (2020), Section 2.2, Definition 6.
    """
    if not hasattr(m.model, "target_factors"):
        raise InputError("model", "ibcdp needs a model with count polynomials")
    raw = exact_joint_law(m.model, m.target, dict(zip(m.known, v, strict=True)), m.int_weights)
    assert raw is not None  # v has positive probability
    return {a: {s / m.scale: p for s, p in law.items()} for a, law in raw.items()}


def _shift(law: Law, d: Fraction) -> Law:
    return {s + d: p for s, p in law.items()}


def ibcdp_loss(m: QueryLaws, mech: SumMechanism) -> PrivacyLoss:
    """The privacy loss of IBCDP (the module docstring): its worst case over every known
    value, changed value and output.

    Args:
        m: the query laws.
        mech: the mechanism on the sum.

    Returns:
        :class:`~pdpsym.loss.posterior.PosteriorSup` for Laplace noise, else the worst
        case of exact posterior pairs.

    References:
        Desfontaines et al. (2020), Section 2.2, Definition 6.
    """
    dom = m.domains[m.target]
    laplace: list[PosteriorCase] = []
    pairs: list[tuple[dict[str, Any], PrivacyLoss]] = []
    for v in known_values(m):
        joint = joint_laws(m, v)
        values = list(joint)
        for b in dom:
            changed = {a: _shift(joint[a], m.shift(a, b)) for a in values}
            where: dict[str, Any] = {"b": b, "known": v}
            back = {**where, "direction": "changed vs actual"}
            if mech.lam is not None:
                laplace.append(PosteriorCase(where, joint, changed))
                laplace.append(PosteriorCase(back, changed, joint))
                continue
            pushed = pushed_laws(mech, [joint[a] for a in values] + [changed[a] for a in values])
            plain, moved = pushed[: len(values)], pushed[len(values) :]
            for t in sorted({o for p in pushed for o in p}, key=repr):
                u1 = {a: p[t] for a, p in zip(values, plain, strict=True) if p.get(t)}
                u2 = {a: p[t] for a, p in zip(values, moved, strict=True) if p.get(t)}
                if not u1 or not u2:
                    continue
                z1, z2 = sum(u1.values()), sum(u2.values())
                post1 = {a: x / z1 for a, x in u1.items()}
                post2 = {a: x / z2 for a, x in u2.items()}
                w = {**where, "output": t}
                wb = {**back, "output": t}
                pairs.append((w, PMFPair(post1, post2, w)))
                pairs.append((wb, PMFPair(post2, post1, wb)))
    if mech.lam is not None:
        return PosteriorSup(laplace, mech.lam)
    return worst_case(pairs)


def blanket(m: QueryLaws) -> tuple[str, ...]:
    """The unknown records of the target's Markov blanket (every other unknown record
    when the model does not give its blanket: sound, with more LP columns).

    Args:
        m: the query laws.

    Returns:
        Record names, in the model's order.

    References:
        Pearl (1988), Section 3.2 (Markov blankets); Desfontaines et al. (2020),
        Section 2.1, Definition 4.
    """
    of = getattr(m.model, "markov_blanket", None)
    near = set(of(m.target)) if of is not None else set(m.model.variables)
    return tuple(r for r in m.model.variables if r in near and r != m.target and r not in m.known)


@dataclass(frozen=True)
class Block:
    """One known value's LP inputs: the rows' values, ``π[a][μ]`` over the blanket's
    values ``μ``, and each row's law of ``f``."""

    known: Known
    values: tuple[Fraction, ...]
    pi: Matrix
    laws: tuple[Law, ...]


def distributional_blocks(m: QueryLaws) -> list[Block]:
    """The blocks of Definition 4, one per known value, on the blanket's values.

    Args:
        m: the query laws.

    Returns:
        One :class:`Block` per known value of positive probability.

    References:
        Desfontaines et al. (2020), Section 2.1, Definition 4 (and the module docstring's
        lemma).
    """
    names = blanket(m)
    out = []
    for v in known_values(m):
        known = dict(zip(m.known, v, strict=True))
        rows, laws = [], []
        for a in m.support():
            if v in (m.known_given(a) or {}):
                law = m.law(a, v)
                pi = records_law(m.model, m.target, a, known, names)
                assert law is not None and pi is not None
                rows.append((a, pi))
                laws.append(law)
        cols = sorted({mu for _, pi in rows for mu in pi})
        matrix = tuple(tuple(pi.get(mu, Fraction(0)) for mu in cols) for _, pi in rows)
        out.append(Block(v, tuple(a for a, _ in rows), matrix, tuple(laws)))
    return out


Levels = Callable[[int], tuple[LPData, LPData]]


def _finite_data(block: Block, mech: SumMechanism) -> LPData | None:
    pushed = pushed_laws(mech, block.laws)
    outs = sorted({o for p in pushed for o in p}, key=repr)
    mm = tuple(tuple(Fraction(p.get(o, 0)) for o in outs) for p in pushed)
    if all(row == mm[0] for row in mm):
        return None  # one output law for every value: δ = 0 with Sim = that law
    return LPData(block.pi, mm, mm)


def _bounded(data: LPData) -> bool:
    """Whether some simulator has a finite ratio (decided exactly from the supports):
    ``Sim(o | μ)`` must vanish where a row that sees ``μ`` cannot output ``o``."""
    G, R, K = len(data.pi), len(data.pi[0]), len(data.m1[0])
    allowed = [
        {k for k in range(K) if all(data.m1[g][k] > 0 for g in range(G) if data.pi[g][r] > 0)}
        for r in range(R)
    ]
    if any(not allowed[r] for r in range(R)):
        return False
    return all(
        any(data.pi[g][r] > 0 and k in allowed[r] for r in range(R))
        for g in range(G)
        for k in range(K)
        if data.m1[g][k] > 0
    )


def distributional_result(
    m: QueryLaws,
    mech: SumMechanism,
    eps: Sequence[Eps],
    delta: Fraction | None,
    notion: Notion,
) -> NotionResult:
    """Distributional DP's ε, δ(ε) and ε(δ), certified (see the module docstring).

    Args:
        m: the query laws.
        mech: the mechanism on the sum.
        eps: the ε values at which δ is reported.
        delta: the δ at which the smallest ε is reported.
        notion: the notion (its name and reading are reported).

    Returns:
        The notion's :class:`~pdpsym.audit.NotionResult`.

    References:
        Desfontaines et al. (2020), Section 2.1, Definition 4 and Lemma 1.
    """
    blocks = distributional_blocks(m)
    if mech.lam is not None:
        lam = mech.lam
        assert lam is not None
        levels: list[tuple[Mapping[str, Any], Levels]] = []
        for blk in blocks:
            if all(law == blk.laws[0] for law in blk.laws):
                continue

            def lap(n: int, blk: Block = blk) -> tuple[LPData, LPData]:
                return laplace_lp_data(blk.pi, blk.laws, lam, n)

            levels.append(({"known": blk.known}, lap))
        ddp = DistributionalLoss(levels)
        return NotionResult.of_loss(
            notion.name,
            ddp,
            eps,
            delta,
            reading=notion.reading,
            note="certified enclosures (the line cut at every query value and evenly "
            "between: cell masses and LP dual weights below, an explicit exponential-spline "
            "simulator above); the simulator sees the values of the target's Markov "
            "blanket (no database is listed)",
        )
    finite: list[tuple[Mapping[str, Any], Levels]] = []
    lo = hi = Fraction(1)
    bounded, worst = True, None
    for blk in blocks:
        data = _finite_data(blk, mech)
        if data is None:
            continue

        def same(n: int, data: LPData = data) -> tuple[LPData, LPData]:
            return data, data

        finite.append(({"known": blk.known}, same))
        if not _bounded(data):
            bounded, worst = False, {"known": blk.known}
            continue
        if bounded:
            a, b, _ = threshold(data, data, Fraction(0))
            lo = max(lo, a)
            if b > hi or worst is None:
                hi, worst = max(hi, b), {"known": blk.known}
    ddp = DistributionalLoss(finite)
    at_eps, at_delta = curve_points(ddp, eps, delta if bounded else None)
    exact = not bounded or lo == hi
    value = sympy.oo if not bounded else sympy.log(sympy.Rational(hi.numerator, hi.denominator))
    return NotionResult(
        notion.name,
        value if exact else None,
        worst,
        at_eps,
        at_delta,
        reading=notion.reading,
        note="e^epsilon enclosed by exact LP bisection: a simulator exists at the upper end "
        "and none at the lower end; delta(epsilon) and epsilon(delta) are certified "
        "enclosures (an explicit simulator and LP dual weights evaluated exactly); the "
        "simulator sees the values of the target's Markov blanket (no database is listed)"
        + (
            ""
            if bounded or delta is None
            else "; no finite epsilon at delta = 0, epsilon(delta) not computed"
        ),
        ratio_enclosure=None if exact else (lo, hi),
    )


__all__ = [
    "Block",
    "QueryLaws",
    "blanket",
    "distributional_blocks",
    "distributional_result",
    "ibcdp_loss",
    "joint_laws",
    "known_values",
    "pushed_laws",
]
