"""Every notion over an interval class of laws (an interval chain or an interval product):
per notion and figure, the sup over the class, certified (the sup, or an enclosure of
it) where a proof gives an upper bound over the whole class, and otherwise a certified
**lower** bound, labelled so (only where a search found no finite upper bound).

The laws evaluated are a grid of the parameter box (``grid`` points per parameter, its
corners and centre among them; for a k-state chain, the vertices of the rows' polytopes
and a member inside; for an interval product, the member of largest support),
and, for an interval chain, the worst law of the branch and bound below; each by today's
single-law engine (:func:`pdpsym.audit.audit`). Then, per figure:

* ``dp`` and ``dependent-dp`` (every figure): classic DP compares point masses over the
  product of the records' declared domains, and Liu et al.'s dependent neighbours (the
  default reading) point masses over the record's dependence group: neither involves the
  law beyond that group. The group is the whole run of linked steps at every member
  whose two rows differ and ``{i}`` otherwise (a product: always ``{i}``), and a box of
  positive width has a corner whose rows differ, so the max over the evaluated laws
  (the corners among them) **is** the sup.
* ``apkdp``, ``np`` and ``ppkdp``, their ε (δ = 0) for Laplace noise on an integer
  weighted sum: that ε is Li et al.'s Eq. 2 of ``A(target, known)`` (Desfontaines et
  al., Theorem 1, for ppkdp at δ = 0), whose sup over the class is enclosed by
  :func:`~pdpsym.loss.class_search.class_leakage` (the certified branch and bound over
  the box, with proven upper bounds on every sub-box; for a product, the member of
  largest support, Li et al. Theorem 1). The enclosure is kept as a sup when the search
  found a finite upper bound.
* For an interval chain and a discrete mechanism on the sum (the count, the threshold,
  geometric noise), every hockey-stick notion over the laws given the target and the
  known records (apkdp, np, ppkdp, cdp): ε (δ = 0) and δ(ε) are enclosed by the branch
  and bound of :mod:`pdpsym.audit.class_audit_boxes` (proven upper bounds on every
  sub-box, exact values at its centre): the sup to the asked digits when every sub-box
  closed (:data:`~pdpsym.audit.class_audit.SUP`), otherwise an enclosure of the sup
  (:data:`ENCLOSED`). For Laplace noise on the sum, the same notions' δ(ε), with the
  sub-box bounds of :mod:`pdpsym.audit.class_audit_laplace`.
* ε(δ) of those notions: the figures' search proves ``sup δ(ε*) <= δ`` at an ``ε*``
  just above the evaluated laws' max (then ``[max, ε*]`` is the sup to 3 digits).
* An interval product: the members listed by
  :func:`~pdpsym.audit.class_audit_product.candidate_laws` (the widest member first;
  the others' row vertices, the known records' too for ppkdp) are audited, and every
  figure of apkdp, np, ppkdp and cdp (and of every hockey-stick notion under randomized
  response) is their max, which is the class's sup (the proof in that module).
* A k-state chain runs the same searches on the enclosures of
  :mod:`pdpsym.audit.class_box_laws_k` (no gradients: first-order bounds); dependent-dp
  is a sup only when every vertex was evaluated (a vertex has differing rows whenever a
  member has).
* IBCDP for the discrete mechanisms on an interval chain: its figures are enclosed by a
  search of their own, with the posterior bounds of
  :mod:`pdpsym.audit.class_audit_posteriors` (so that the hockey-stick figures' search
  is the same with or without it).
* cdp's ε (δ = 0) for Laplace noise on an interval chain: at most ``|w_i| span / λ`` at
  every law (:func:`laplace_kernel_bound`), so the max over the laws evaluated is the sup
  when it reaches that bound, and ``[max, bound]`` encloses it otherwise.
* Randomized response: apkdp, np and ppkdp by the figures' search over the report
  vectors (:func:`~pdpsym.audit.class_figure_search.reports_as_outputs`); dp and cdp
  compare the target's own report alone (:func:`local_reports`: law-free).
* IBCDP for Laplace noise on an interval chain: every figure enclosed by ``[max over
  the laws evaluated, a law-free bound]`` (:func:`laplace_kernel_bound`).
* distributional-dp, cdp and IBCDP, each figure still without a proven bound (every
  figure of distributional-dp; a product's IBCDP δ(ε), ε(δ) for a target of 3+ values):
  ``[max over the laws evaluated, a law-free bound from dp]`` (:func:`dp_enclosed`, the
  proof there). dp is law-free, so its figure at one member is the class's: it is
  computed (once, at the first law) when ``dp`` was not asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, cast

from pdpsym.audit import registry
from pdpsym.audit.class_audit import (
    LOWER,
    SUP,
    ClassFigure,
    ClassNotion,
    audit_job,
    sups_of,
)
from pdpsym.audit.class_audit_boxes import bounded, report_keep
from pdpsym.audit.class_audit_product import product_audit, product_member, product_notion
from pdpsym.audit.class_dp_bound import (
    DP_BOUNDED,
    ENCLOSED,
    OPEN,
    dp_enclosed,
    has_lower,
    posterior_enclosed,
)
from pdpsym.audit.class_dp_bound import within as _within
from pdpsym.audit.class_figure_search import BoxFigure, BoxSearch, search_figures
from pdpsym.audit.results import Audit
from pdpsym.core.exp_sqrt_sums import log_enclosure
from pdpsym.core.parallel import ordered_map
from pdpsym.loss.class_search import ClassLeakage, class_leakage
from pdpsym.mechanisms.base import QueryMechanism
from pdpsym.models.interval_chain_k import IntervalChainK
from pdpsym.models.interval_rows import VERTEX_LIMIT, IntervalChainBase
from pdpsym.models.law_class import IntervalChain, IntervalProduct

#: notions whose every figure depends on the law only through the dependence group: they
#: compare neighbouring databases (point masses over the domains or the dependence group)
LAW_FREE = tuple(
    n.name
    for n in registry.REGISTRY
    if n.default and n.pairs in (registry.Pairs.NEIGHBOURS, registry.Pairs.DEPENDENT)
)
#: notions whose ε (δ = 0) for Laplace noise is Li et al.'s Eq. 2 of A(target, known)
EQ2_NOTIONS = tuple(sorted(n.name for n in registry.REGISTRY if n.eq2_at_zero))


@dataclass(frozen=True)
class IntervalAudit:
    """An interval class's audit: per notion its figures (each a sup or a lower bound),
    the laws evaluated (parameter tuples of an interval chain, or one law per record of
    an interval product's candidate member), their audits, and the Eq. 2 search
    (None when no notion needed it)."""

    notions: tuple[ClassNotion, ...]
    laws: tuple[tuple[Fraction, ...] | str, ...]
    audits: tuple[Audit, ...]
    search: ClassLeakage | None
    boxes: BoxSearch | None = None
    #: the posterior notions' search (IBCDP; None when not asked for)
    posterior_boxes: BoxSearch | None = None


def laplace_of(mechanism: Any) -> tuple[Fraction, dict[str, int] | None] | None:
    """The scale and integer weights of Laplace noise on a weighted sum, else None.

    Args:
        mechanism: a :class:`~pdpsym.mechanisms.base.SumMechanism`, Laplace noise,
            or another mechanism.

    Returns:
        ``(lam, weights)`` (weights None for the plain sum), or None when the
        mechanism is not Laplace noise on an integer-weighted sum.

    References:
        Li et al. (2019), Sec. III (the Laplace mechanism on a linear query).
    """
    if not isinstance(mechanism, QueryMechanism):
        return None
    kernel = mechanism.on_sum()
    if kernel.kind != "laplace" or kernel.lam is None:
        return None
    lam, weights = kernel.lam, kernel.weights
    if weights is None:
        return lam, None
    if any(Fraction(w).denominator != 1 for w in weights.values()):
        return None
    return lam, {k: int(Fraction(w)) for k, w in weights.items()}


def interval_class_audit(
    cls: IntervalChain | IntervalChainK | IntervalProduct,
    mechanism: Any,
    target: str,
    known: Sequence[str] = (),
    eps: Sequence[Any] = (),
    delta: Fraction | None = None,
    notions: Sequence[str] = (registry.DP.name,),
    *,
    grid: int = 3,
    max_boxes: int = 2000,
    figure_boxes: int = 300,
    posterior_boxes: int | None = None,
    digits: int = 3,
    jobs: int = 1,
    on_step: Callable[[int], None] | None = None,
) -> IntervalAudit:
    """Every notion's sup over an interval class (module docstring).

    Args:
        cls: the interval chain or product.
        mechanism: the mechanism (on the weighted sum, or randomized response).
        target: the target record.
        known: the records the attacker knows.
        eps: the ε values at which δ is reported.
        delta: the δ at which the smallest ε is reported.
        notions: the notions (names of :data:`pdpsym.audit.notions.NOTIONS`).
        grid: points per parameter of the box evaluated exactly (interval chains).
        max_boxes: the Eq. 2 branch and bound's limit.
        figure_boxes: the limit of the figures' branch and bound
            (:func:`~pdpsym.audit.class_audit_boxes.search_figures`).
        posterior_boxes: the limit of the posterior notions' search (None: as
            ``figure_boxes``).
        digits: the digits that branch and bound aims at.
        jobs: worker processes for the laws' audits.
        on_step: progress (a box bounded, or a law audited).

    Returns:
        The :class:`IntervalAudit`.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1; Li et al. (2019), Eq. 2 and
        Theorem 1; Desfontaines et al., Theorem 1; Liu et al., Definition 4.
    """
    known = tuple(known)
    lap = laplace_of(mechanism)
    search = None
    if lap is not None and any(n in EQ2_NOTIONS for n in notions):
        search = class_leakage(
            cls, [target], known, lap[0], lap[1], digits=15, max_boxes=max_boxes, on_step=on_step
        )
    laws: list[tuple[Fraction, ...] | str]
    models: list[Any]
    boxes = post = None
    every_vertex = True  # every vertex of the parameter set evaluated
    if cls.box_search:  # an interval chain (else an interval product)
        chain = cast(IntervalChainBase, cls)
        laws = list(chain.audit_laws(grid))
        every_vertex = chain.vertex_count() <= VERTEX_LIMIT
        worst = search.targets[0].law if search is not None else None
        if isinstance(worst, tuple) and worst not in laws:
            laws.append(worst)
        # the hockey-stick figures in one search, the posterior ones (IBCDP) in another:
        # each closes on its own figures
        groups = [
            [n for n in notions if bounded(n, mechanism) and posterior(n) is want]
            for want in (False, True)
        ]
        found = []
        for names, limit in zip(groups, (figure_boxes, posterior_boxes or figure_boxes)):
            found.append(
                None
                if not names
                else search_figures(
                    chain,
                    *(mechanism, target, known, eps, names),
                    digits=digits,
                    max_boxes=limit,
                    on_step=on_step,
                )
            )
        boxes, post = found
        for res in found:
            laws += [f.law for f in res.figures if f.law not in laws] if res else []
        models = [chain.member(t) for t in laws]  # type: ignore[arg-type]
        jobs_in = [(m, mechanism, target, known, list(eps), delta, list(notions)) for m in models]
        audits = ordered_map(audit_job, jobs_in, jobs, on_done=on_step)
        raws = sups_of(audits)
    else:  # the members where each proven figure's sup is attained (class_audit_product)
        laws, audits, raws = product_audit(  # type: ignore[assignment]
            cast(IntervalProduct, cls),
            mechanism,
            target,
            known,
            eps,
            delta,
            notions,
            jobs=jobs,
            on_step=on_step,
        )
    rows = []
    for row in raws:
        if row.notion in LAW_FREE and (every_vertex or row.notion == registry.DP.name):
            rows.append(row)
            continue
        if cls.box_search and local_reports(mechanism, row.notion):
            rows.append(row)
            continue
        eps_fig = _lower(row.epsilon)
        if row.notion in EQ2_NOTIONS and search is not None:
            eps_fig = _eq2_figure(row.epsilon, search, laws)
        mine = {
            f.figure: f
            for res in (boxes, post)
            if res
            for f in res.figures
            if f.notion == row.notion
        }
        if -1 in mine:
            eps_fig = _box_figure(row.epsilon, mine[-1], laws, True)
        span = laplace_kernel_bound(cls, mechanism, target, row.notion)
        if span is not None and not posterior(row.notion):
            eps_fig = _within(row.epsilon, span)
        rows.append(
            ClassNotion(
                row.notion,
                eps_fig,
                tuple(
                    (e, _box_figure(f, mine[k], laws, False) if k in mine else _lower(f))
                    for k, (e, f) in enumerate(row.delta_at_epsilon)
                ),
                None
                if row.epsilon_at_delta is None
                else (
                    row.epsilon_at_delta[0],
                    _eps_at_delta(
                        row.epsilon_at_delta[1],
                        row.notion,
                        row.epsilon_at_delta[0],
                        (cls, mechanism, target, known, digits, figure_boxes),
                    )
                    if (boxes or post) is not None and bounded(row.notion, mechanism)
                    else _lower(row.epsilon_at_delta[1]),
                ),
                row.note,
            )
        )
    if isinstance(cls, IntervalProduct):  # the max over the candidates, where proven
        rows = [
            product_notion(cls, mechanism, target, raw, row)
            for raw, row in zip(raws, rows, strict=True)
        ]
    rows = [
        posterior_enclosed(r, laplace_kernel_bound(cls, mechanism, target, r.notion))
        if posterior(r.notion)
        else r
        for r in rows
    ]
    if any(r.notion in DP_BOUNDED and has_lower(r) for r in rows):
        dp = next((r for r in raws if r.notion == registry.DP.name), None)
        if dp is None:  # law-free: one member's dp is the class's
            first: Any = laws[0]  # a product's member: one law per record
            probe = product_member(cls, first) if isinstance(cls, IntervalProduct) else models[0]
            job = (probe, mechanism, target, known, list(eps), delta, [registry.DP.name])
            dp = sups_of([audit_job(job)])[0]
        rows = [dp_enclosed(r, dp) for r in rows]
    return IntervalAudit(tuple(rows), tuple(laws), tuple(audits), search, boxes, post)


def posterior(notion: str) -> bool:
    """Whether a notion compares posteriors of the target (IBCDP).

    Args:
        notion: a notion's name.

    Returns:
        True for :attr:`~pdpsym.audit.registry.Compare.POSTERIOR`.

    References:
        Desfontaines et al. (2020), Definition 6.
    """
    return registry.notion(notion).compare is registry.Compare.POSTERIOR


def _box_figure(
    fig: ClassFigure, box: BoxFigure, laws: Sequence[tuple[Fraction, ...] | str], ratio: bool
) -> ClassFigure:
    """A figure enclosed by the figures' branch and bound, widened to contain every
    evaluated law's enclosure; ``ratio``: the search's ends are ``e^ε`` (logged here)."""
    if not isinstance(fig.bounds, tuple):
        return fig  # unbounded at an evaluated law (the sup is too), or absent
    if box.lo is None:
        return ClassFigure("inf", laws.index(box.law))
    if box.hi is None or (ratio and box.lo <= 0):
        return _lower(fig)
    lo, hi = log_enclosure(box.lo, box.hi, 128) if ratio else (box.lo, box.hi)
    member = laws.index(box.law) if lo >= fig.bounds[0] else fig.member
    return ClassFigure(
        (max(lo, fig.bounds[0]), max(hi, fig.bounds[1])), member, SUP if box.tight else ENCLOSED
    )


def _eps_at_delta(
    fig: ClassFigure, notion: str, delta: Fraction, job: tuple[Any, ...]
) -> ClassFigure:
    """ε(δ) of a bounded notion: δ(ε) decreases in ε, so every law's ε(δ) is at most
    ``ε*`` once the figures' search proves ``sup δ(ε*) <= δ`` over the box; ``ε*`` is the
    evaluated laws' max raised by ``10^-3`` (relative) and ``10^-6``, so ``[max, ε*]`` is
    the sup to 3 digits. Otherwise the figure stays a lower bound.

    Desfontaines et al. (2020), Lemma 1 (ε(δ) is the least ε with δ(ε) <= δ)."""
    if not isinstance(fig.bounds, tuple):
        return fig
    cls, mechanism, target, known, digits, figure_boxes = job
    raw = fig.bounds[1] * (1 + Fraction(1, 10**3)) + Fraction(1, 10**6)
    star = Fraction(-((-raw.numerator * 10**9) // raw.denominator), 10**9)  # rounded up
    res = search_figures(
        cls, mechanism, target, known, [star], [notion], digits=digits, max_boxes=figure_boxes
    )
    at = next(f for f in res.figures if f.figure == 0)
    if at.hi is None or at.hi > delta:
        return _lower(fig)
    return ClassFigure((fig.bounds[0], star), fig.member, SUP)


def laplace_kernel_bound(cls: Any, mechanism: Any, target: str, notion: str) -> Fraction | None:
    """A law-free bound of a notion's ε under Laplace noise on the sum over an interval
    chain: ``|w_i| span / λ`` for the changed database's hockey stick (cdp), ``2 |w_i|
    span / λ`` for IBCDP's posteriors (``span``: max - min of the target's domain).

    **cdp.** Each pair compares the output law given ``x_i = a, x_K = v`` with the same
    law translated by ``d = w_i (b - a)`` (Desfontaines et al., Definition 5): ``p(y) =
    Σ_s P(s) K(y - s)`` against ``p_d(y) = Σ_s P(s) K(y - s - d)``. For the Laplace
    kernel ``K(y - s) / K(y - s - d) = e^{(|y - s - d| - |y - s|)/λ} <= e^{|d|/λ}`` (the
    triangle inequality), so the ratio of the two sums, a mediant of these ratios, is at
    most ``e^{|d|/λ}``, and ``|d| <= |w_i| span``, whatever ``P``. It is attained in the
    tails (``y -> ±∞``) by every law with a pair across the domain.

    **IBCDP** (Definition 6). For a known value ``v``, a value ``b`` and an output ``t``,
    ``post_1(a) = u_1(a) / Σ u_1`` and ``post_2(a) = u_2(a) / Σ u_2`` with ``u_1(a) =
    Σ_s J(a, v, s) K(t - s)`` and ``u_2(a) = Σ_s J(a, v, s) K(t - s - d_a)``, ``d_a = w_i
    (b - a)``. As above ``u_2(a) / u_1(a)`` lies in ``[e^{-D/λ}, e^{D/λ}]``, ``D = |w_i|
    span``, so ``post_1(a) / post_2(a) = (u_1(a) / u_2(a)) (Σ u_2 / Σ u_1) <= e^B``, ``B
    = 2 D / λ``, and the same for ``post_2 / post_1``: ε (δ = 0) and ε(δ) are at most
    ``B``; with ``post_1 <= e^B post_2``, ``post_1 - e^ε post_2 <= post_1 (1 - e^{ε -
    B})``, so δ(ε) <= ``max(0, 1 - e^{ε - B})``.

    Args:
        cls: the class.
        mechanism: the mechanism.
        target: the target record.
        notion: the notion's name.

    Returns:
        The bound of ε (exact), or None (not an interval chain, not Laplace noise on the
        sum, or neither cdp's pairs nor IBCDP's).

    References:
        Desfontaines et al. (2020), Definitions 5, 6 and Lemma 1; Dwork and Roth (2014),
        Theorem 3.6 (the Laplace kernel's ratio).
    """
    n = registry.notion(notion)
    span = _laplace_span(cls, mechanism, target)
    if span is None:
        return None
    if n.pairs is registry.Pairs.CHANGED and n.compare is registry.Compare.HOCKEY_STICK:
        return span
    if n.compare is registry.Compare.POSTERIOR:
        return 2 * span
    return None


def _laplace_span(cls: Any, mechanism: Any, target: str) -> Fraction | None:
    """``|w_i| (max - min of the target's domain) / λ`` for Laplace noise on the sum over
    an interval chain, else None."""
    if not cls.box_search or not hasattr(mechanism, "on_sum"):
        return None
    kernel = mechanism.on_sum()
    if kernel.kind != "laplace" or kernel.lam is None:
        return None
    w = Fraction((kernel.weights or {}).get(target, 1))
    dom = cls.domain(target)
    return abs(w) * (max(dom) - min(dom)) / kernel.lam


def local_reports(mechanism: Any, notion: str) -> bool:
    """Whether a notion's every figure is law-free under randomized response: the changed
    database's pairs (cdp) compare the target's own report alone (changing ``x_i`` changes
    only ``o_i``), whose pair depends on ``(a, b)``, ``keep`` and the domain only. The
    pairs a law has are those of a support and of compatible known values, the largest
    at the member inside the box (its entries positive wherever any member's are), which
    is evaluated: the max over the laws evaluated is the sup.

    Args:
        mechanism: the audited mechanism.
        notion: the notion's name.

    Returns:
        True for randomized response and a hockey-stick notion over the changed pairs.

    References:
        Desfontaines et al. (2020), Definition 5; Warner (1965).
    """
    n = registry.notion(notion)
    return (
        report_keep(mechanism) is not None
        and n.pairs is registry.Pairs.CHANGED
        and n.compare is registry.Compare.HOCKEY_STICK
    )


def _lower(fig: ClassFigure) -> ClassFigure:
    """A max over evaluated laws, labelled a lower bound of the class's sup (an
    unbounded figure or an absent one is what it is)."""
    if isinstance(fig.bounds, tuple):
        return replace(fig, status=LOWER)
    return fig


def _eq2_figure(
    fig: ClassFigure, search: ClassLeakage, laws: Sequence[tuple[Fraction, ...] | str]
) -> ClassFigure:
    """ε of an Eq. 2 notion: the search's enclosure of the sup, widened to contain every
    evaluated law's enclosure, with the worst law; a lower bound when the search found
    no finite upper bound."""
    t = search.targets[0]
    if t.value is None or not isinstance(fig.bounds, tuple):
        return _lower(fig)  # an unbounded figure stays unbounded (the sup is too)
    lo = max(t.value.lo, fig.bounds[0])
    if t.open_above:
        return ClassFigure((lo, max(t.value.hi, fig.bounds[1])), fig.member, LOWER)
    hi = max(t.value.hi, fig.bounds[1])
    member = fig.member
    if t.value.lo >= fig.bounds[0] and t.law is not None:
        law = t.law if isinstance(t.law, tuple) else "widest"
        member = laws.index(law) if law in laws else member
    return ClassFigure((lo, hi), member, SUP)


__all__ = [
    "DP_BOUNDED",
    "ENCLOSED",
    "OPEN",
    "EQ2_NOTIONS",
    "LAW_FREE",
    "IntervalAudit",
    "interval_class_audit",
    "laplace_kernel_bound",
    "laplace_of",
    "local_reports",
    "dp_enclosed",
    "posterior",
]
