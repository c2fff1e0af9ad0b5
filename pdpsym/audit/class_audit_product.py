r"""Every notion over an interval product (independent records whose laws are known to
intervals): the finitely many member laws at which each certified figure's sup over the
class is attained, with the proof.

**Setting.** Record ``j`` has values ``V_j`` and a law ``p_j`` in its row polytope
``P_j = {p : lo_j <= p <= hi_j, Σ p = 1}``; the class is the product ``Π_j P_j``. The
query is ``f = Σ_j w_j x_j``, ``i`` the target, ``K`` the known records and ``R`` the
others. Given ``x_i = a`` and ``x_K = v`` the records of ``R`` keep their own laws, so
the law of ``f`` is ``L_R`` (the law of ``Σ_R w_j x_j``) shifted by ``w_i a + Σ_K w_k
v_k``; ``L_R`` is linear in each ``p_j`` (``j ∈ R``) with the others fixed (``L_R =
Σ_x p_j(x) L_{R∖j}(· - w_j x)``, a Poisson-binomial law for Bernoulli records). The
output law of a mechanism on the sum is a kernel applied to the law of ``f``: linear.

**Lemma 1 (the rest: vertices).** For a notion comparing pairs of output laws given
``(a, v)`` (apkdp, np: Desfontaines et al. Definitions 12 and 3; cdp, Definition 5, whose
changed law is a shift of the same law; ppkdp, Definition 13, whose pairs are weighted by
``P[x_K = v | x_i = a] = p_K(v)``, free of ``p_R``), each pair's two laws ``(P, Q)`` are
linear in ``p_j`` for ``j ∈ R``. The hockey stick ``Σ_y max(0, P(y) - e^ε Q(y))`` (or its
integral) is convex in ``(P, Q)``, so each pair's ``δ(ε)`` is convex in ``p_j``, and a max
(or a non-negative weighted sum) over pairs is convex. The largest ratio
``sup_y P(y) / Q(y)`` (``ε`` at ``δ = 0``; ``0/0`` read as 0, ``P > 0 = Q`` as ``∞``) is
quasi-convex in ``p_j``: ``{P(y) <= t Q(y)}`` is a half-space, so each sublevel set of the
sup over ``y`` and over pairs is convex. A convex or quasi-convex function on the polytope
``P_j`` is at most its largest value at a vertex of ``P_j``.

**Lemma 2 (the target and the known records: supports).** Under independence
``P[x_K = v | x_i = a] = p_K(v)`` is free of ``a``, so every ``v`` of positive probability
is compatible with every ``a``: apkdp, np and cdp range over the pairs ``a, b`` of
the target's support (cdp: ``b`` over its domain) and ``v`` of ``x_K``'s support, and the
laws compared do not involve ``p_i`` or ``p_K`` otherwise. So these figures depend on
``p_i`` and ``p_K`` only through their supports and grow with them: the member in which
every value of positive upper end has positive probability
(:meth:`~pdpsym.models.law_class.IntervalProduct.widest_member`) has the largest. For
ppkdp, ``δ(ε) = Σ_v p_K(v) δ_v(ε)`` is multilinear in the known records' laws (linear in
each ``p_k``): at most its value at a vertex of ``P_k``; its ``ε`` at ``δ = 0``, the
largest ratio over the ``v`` of positive weight, depends on ``p_K`` through its support.

**Theorem.** Let ``C_j`` be, per record, the widest law for the target, the widest law and
(with ppkdp) the vertices of ``P_k`` for a known record, and the vertices of ``P_j`` for
the others. Every figure of apkdp, np, ppkdp and cdp (ε at δ = 0, each δ(ε), and ε(δ))
has its sup over ``Π_j P_j`` attained in ``Π_j C_j``. *Proof.* For ε and δ(ε): from any
member, replace ``p_1`` by a maximizer of the figure over ``P_1`` that lies in ``C_1``
(Lemmas 1-2), then ``p_2``, and so on; the figure never decreases and ends in ``Π C_j``.
For ε(δ), the least ``ε`` with ``δ(ε) <= δ`` (Desfontaines et al. Lemma 1): ``δ_θ(ε)`` is
non-increasing and continuous in ``ε`` for each law ``θ``, so ``sup_θ ε_θ(δ)`` is the least
``ε`` with ``sup_θ δ_θ(ε) <= δ``, and that sup is the max over the finite ``Π C_j`` for
every ``ε``, whence ``sup_θ ε_θ(δ) = max_{θ ∈ Π C_j} ε_θ(δ)``. ∎

``dp`` and ``dependent-dp`` (a product's dependence group is ``{i}``) compare point masses
over the declared domains: free of the laws. Randomized response releases every record's
report; given ``x_i = a`` and ``x_K = v`` the law of the reports is the target's local
report law times one common factor (:mod:`pdpsym.audit.rr_reports`), so every hockey-stick
notion is the local pair over the target's support: the widest member is the worst, and
it is the only law evaluated.

**Symmetry.** Records of the same role with the same values, weight and intervals are
exchangeable in every law compared (the sum's law depends on the multiset of their laws;
ppkdp's weight ``p_K(v)`` with the shift ``Σ_K w_k v_k``, on the multiset too), so each
such group of ``m`` records takes the multisets of ``m`` of its ``V`` candidate laws:
``C(m + V - 1, V - 1)`` members instead of ``V^m`` (``m + 1`` for identical Bernoulli
intervals).

Each notion has its own candidates (:func:`notion_laws`): a member is audited only for
the notions whose candidates hold it (:func:`product_audit`).

**Lemma 3 (ibcdp).** Definition 6 compares, per known value ``v``, changed value ``b``
and output ``t``, the posterior of ``x_i`` given ``M(D) = t`` with the one given
``M(D_{i→b}) = t``. Under independence the changed output's law is the kernel on
``L_R`` shifted by ``b``'s contribution whatever ``x_i`` was, so the second posterior is
the prior ``p_i`` (on the target's support; an output counts when some value makes it
possible). With ``u_a(t)`` the output's mass given ``x_i = a, v`` (linear in each
``p_j``, ``j ∈ R``) and ``U = Σ_a p_i(a) u_a``: the ratios are ``u_a / U`` and ``U /
u_a``, and the hockey sticks are ``Σ_a p_i(a) max(0, u_a - e^ε U) / U`` and ``Σ_a p_i(a)
max(0, U - e^ε u_a) / U`` -- a convex numerator over a positive linear denominator, so
each sublevel set ``{N <= s U}`` is convex (and holds where ``U = 0``, where ``N = 0``):
quasi-convex in ``p_j``, a vertex again. In ``p_i`` the ratios are ratios of linear forms
too, so ε (δ = 0) is quasi-convex in ``p_i`` when the target's support is the same over
its row (every lower end positive, or an upper end 0); the target's vertices are among
its candidates. The hockey sticks are not quasi-convex in ``p_i`` (``p u_1 / U - e^ε p``
is concave for ``u_1 > u_0``): δ(ε) and ε(δ) are the sup when the target's law is a
point; for a binary target :mod:`pdpsym.audit.class_product_ibcdp` takes the sup over
``p_i`` in closed form (every mechanism on the sum), and ε (δ = 0) too when the target's
interval reaches 0 or 1 (a limit there); otherwise they are enclosed by ``[max over
the candidates, a law-free bound from dp]`` (:mod:`pdpsym.audit.class_dp_bound`), and
so is ``distributional-dp`` (the best simulator), which has no vertex proof here.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from pdpsym.audit import registry
from pdpsym.audit.class_audit import LOWER, ClassFigure, ClassNotion, audit_job, sups_of
from pdpsym.audit.class_product_ibcdp import applies as ibcdp_applies
from pdpsym.audit.class_product_ibcdp import ibcdp_rows
from pdpsym.audit.results import Audit
from pdpsym.core.errors import InputError
from pdpsym.core.parallel import ordered_map
from pdpsym.mechanisms.base import ReportMechanism
from pdpsym.models.law_class import Interval, IntervalProduct
from pdpsym.models.product import ProductModel

#: one record's law: its probabilities, in the order of its values
RecordLaw = tuple[Fraction, ...]
#: a member of an interval product: one law per record
ProductLaw = tuple[RecordLaw, ...]

#: notions whose every figure over an interval product is the max over the candidates
#: (the theorem above), for a mechanism on the weighted sum
PROVEN_SUM = (registry.APKDP.name, registry.NP.name, registry.PPKDP.name, registry.CDP.name)
#: notions that read the laws of the others (their candidates are the rows' vertices)
_READS_REST = (*PROVEN_SUM, registry.IBCDP.name, registry.DistributionalDP.name)


def row_vertices(row: Sequence[Interval]) -> list[RecordLaw]:
    """The vertices of a row polytope ``{p : lo <= p <= hi, Σ p = 1}``.

    At a vertex at least ``k - 1`` of the ``2k`` bounds are tight, so every vertex is
    found by fixing all entries but one at an end and solving the sum for the last; the
    candidates inside the box are kept (every vertex among them, and the list may hold
    further points of the polytope: harmless for a max over it).

    Args:
        row: one interval per value, admitting a law
            (:func:`~pdpsym.models.law_class.interval_row`).

    Returns:
        The laws, without repeats, in a fixed order.

    References:
        Ziegler, Lectures on Polytopes (1995), Lecture 0 (vertices as the points where
        ``dim`` independent constraints are tight).
    """
    k = len(row)
    out: dict[RecordLaw, None] = {}
    for free in range(k):
        others = [j for j in range(k) if j != free]
        for ends in itertools.product((0, 1), repeat=len(others)):
            p = [Fraction(0)] * k
            for j, e in zip(others, ends, strict=True):
                p[j] = row[j][e]
            p[free] = 1 - sum(p, Fraction(0))
            if row[free][0] <= p[free] <= row[free][1]:
                out[tuple(p)] = None
    return sorted(out)


def widest_law(row: Sequence[Interval]) -> RecordLaw:
    """The widest member's law of one record: every value with a positive upper end gets
    positive probability (:meth:`~pdpsym.models.law_class.IntervalProduct.widest_member`).

    Args:
        row: one interval per value, admitting a law.

    Returns:
        The probabilities.

    References:
        Li et al. (2019), Theorem 1 (independent records: Eq. 2 depends only on the
        supports).
    """
    left = 1 - sum((lo for lo, _ in row), Fraction(0))
    room = sum((hi - lo for lo, hi in row), Fraction(0))
    return tuple(lo + (left * (hi - lo) / room if room else 0) for lo, hi in row)


def _constant_support(row: Sequence[Interval]) -> bool:
    """Whether every law of the row has the same support (each value's lower end is
    positive, or its upper end is 0)."""
    return all(lo > 0 or hi == 0 for lo, hi in row)


def proven_figures(
    cls: IntervalProduct, mechanism: Any, target: str, notion: str
) -> tuple[bool, bool, bool]:
    """Which figures of ``notion`` over an interval product are the max over the
    candidate members (module docstring), hence the class's sup.

    Args:
        cls: the interval product.
        mechanism: the mechanism (randomized response, or a mechanism on the sum).
        target: the target record.
        notion: a notion's name.

    Returns:
        ``(epsilon, deltas, epsilon_at_delta)``: whether ε (δ = 0), every δ(ε) (for
        ibcdp with a binary interval target: enclosed by
        :mod:`pdpsym.audit.class_product_ibcdp`) and ε(δ) are proven.

    References:
        Desfontaines et al. (2020), Definitions 3, 5, 6, 12, 13 and Lemma 1; Kifer and
        Machanavajjhala (2014), Definition 3.1.
    """
    kind = registry.notion(notion)
    if isinstance(mechanism, ReportMechanism):
        ok = kind.compare is registry.Compare.HOCKEY_STICK
        return ok, ok, ok
    if kind.pairs in (registry.Pairs.NEIGHBOURS, registry.Pairs.DEPENDENT):
        ok = kind.default  # law-free (the default reading of dependent-dp)
        return ok, ok, ok
    if notion in PROVEN_SUM:
        return True, True, True
    if notion == registry.IBCDP.name:
        row = cls.rows[cls.variables.index(target)]
        point = all(lo == hi for lo, hi in row)
        closed = ibcdp_applies(cls, mechanism, target)
        return _constant_support(row) or closed, point or closed, point or closed
    return False, False, False


def product_notion(
    cls: IntervalProduct, mechanism: Any, target: str, raw: ClassNotion, shown: ClassNotion
) -> ClassNotion:
    """A notion's figures over an interval product: each figure proven by
    :func:`proven_figures` is the candidates' max (``raw``, every figure a
    :data:`~pdpsym.audit.class_audit.SUP`), unless ``shown`` already has it as a sup;
    the others stay as ``shown`` labels them (a lower bound, enclosed afterwards by
    :mod:`pdpsym.audit.class_dp_bound` where dp bounds the notion).

    Args:
        cls: the interval product.
        mechanism: the mechanism.
        target: the target record.
        raw: the max over the candidate members (:func:`~pdpsym.audit.class_audit.sups_of`).
        shown: the same notion as labelled without this module's proof.

    Returns:
        The :class:`~pdpsym.audit.class_audit.ClassNotion`.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1.
    """
    eps_ok, delta_ok, at_ok = proven_figures(cls, mechanism, target, raw.notion)

    def pick(ok: bool, r: ClassFigure, s: ClassFigure) -> ClassFigure:
        return r if ok and s.status == LOWER else s

    at = shown.epsilon_at_delta
    if at is not None and raw.epsilon_at_delta is not None:
        at = (at[0], pick(at_ok, raw.epsilon_at_delta[1], at[1]))
    return ClassNotion(
        raw.notion,
        pick(eps_ok, raw.epsilon, shown.epsilon),
        tuple(
            (e, pick(delta_ok, r, f))
            for (e, r), (_, f) in zip(raw.delta_at_epsilon, shown.delta_at_epsilon, strict=True)
        ),
        at,
        raw.note,
    )


def _groups(
    cls: IntervalProduct, mechanism: Any, target: str, known: Sequence[str], notions: Sequence[str]
) -> list[tuple[list[int], list[RecordLaw]]]:
    """The exchangeable groups of records and each group's candidate laws."""
    names = cls.variables
    if target not in names:
        raise InputError("target", f"unknown record {target!r}")
    for k in known:
        if k not in names:
            raise InputError("known", f"unknown record {k!r}")
    report = isinstance(mechanism, ReportMechanism)
    weights = {} if report else dict(getattr(mechanism.on_sum(), "weights", None) or {})
    rest_vertices = not report and any(n in _READS_REST for n in notions)
    known_vertices = not report and registry.PPKDP.name in notions
    target_vertices = not report and registry.IBCDP.name in notions
    groups: dict[tuple[Any, ...], tuple[list[int], list[RecordLaw]]] = {}
    for j, (name, vals, row) in enumerate(zip(names, cls.values, cls.rows, strict=True)):
        role = "target" if name == target else "known" if name in known else "rest"
        cands = [widest_law(row)]
        if (role == "rest" and rest_vertices) or (role == "known" and known_vertices):
            cands = row_vertices(row) + ([] if role == "rest" else cands)
        elif role == "target" and target_vertices:
            cands = [*cands, *row_vertices(row)]
        cands = list(dict.fromkeys(cands))
        key = (role, vals, Fraction(weights.get(name, 1)), row) if role != "target" else (j,)
        groups.setdefault(key, ([], cands))[0].append(j)
    return list(groups.values())


def candidate_count(
    cls: IntervalProduct, mechanism: Any, target: str, known: Sequence[str], notions: Sequence[str]
) -> int:
    """How many members :func:`candidate_laws` lists (computed without listing them).

    Args:
        cls, mechanism, target, known, notions: the question, as for
            :func:`candidate_laws`.

    Returns:
        The number of candidate members.

    References:
        Feller, An Introduction to Probability Theory, Vol. I (3rd ed., 1968), Ch. II.5
        (multisets: ``C(m + V - 1, V - 1)``).

    Raises:
        InputError: ``target`` or ``known`` naming an unknown record.
    """
    return math.prod(
        math.comb(len(idx) + len(c) - 1, len(c) - 1)
        for idx, c in _groups(cls, mechanism, target, known, notions)
    )


def candidate_laws(
    cls: IntervalProduct, mechanism: Any, target: str, known: Sequence[str], notions: Sequence[str]
) -> list[ProductLaw]:
    """The members at which every proven figure's sup over the class is attained (module
    docstring), the widest member first.

    Args:
        cls: the interval product.
        mechanism: the mechanism (on the sum, or randomized response).
        target: the target record.
        known: the known records.
        notions: the notions asked for.

    Returns:
        The members, each one law per record.

    Raises:
        InputError: ``target`` or ``known`` naming an unknown record.

    References:
        Desfontaines et al. (2020), Definitions 3, 5, 12, 13; Kifer and Machanavajjhala
        (2014), Definition 3.1.
    """
    groups = _groups(cls, mechanism, target, known, notions)
    choices = [
        list(itertools.combinations_with_replacement(cands, len(idx))) for idx, cands in groups
    ]
    widest = tuple(widest_law(r) for r in cls.rows)
    out: dict[ProductLaw, None] = {widest: None}
    for pick in itertools.product(*choices):
        law: list[RecordLaw] = list(widest)
        for (idx, _), laws in zip(groups, pick, strict=True):
            for j, p in zip(idx, laws, strict=True):
                law[j] = p
        out[tuple(law)] = None
    return list(out)


def notion_laws(
    cls: IntervalProduct, mechanism: Any, target: str, known: Sequence[str], notions: Sequence[str]
) -> tuple[list[ProductLaw], dict[str, list[int]]]:
    """Each notion's own candidate members (:func:`candidate_laws` of that notion alone),
    and their union: a member is audited only for the notions whose candidates hold it.

    Args:
        cls, mechanism, target, known, notions: the question, as for
            :func:`candidate_laws`.

    Returns:
        The union of the members (the widest first) and, per notion, the indices of its
        candidates in that union.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1.
    """
    laws: dict[ProductLaw, int] = {}
    per: dict[str, list[int]] = {}
    for n in notions:
        idx = []
        for law in candidate_laws(cls, mechanism, target, known, [n]):
            idx.append(laws.setdefault(law, len(laws)))
        per[n] = idx
    return list(laws), per


def union_count(
    cls: IntervalProduct, mechanism: Any, target: str, known: Sequence[str], notions: Sequence[str]
) -> int:
    """An upper bound of the number of members :func:`notion_laws` lists, computed
    without listing them (the sum of the notions' counts).

    Args:
        cls, mechanism, target, known, notions: the question, as for
            :func:`candidate_laws`.

    Returns:
        ``Σ_n (candidate_count(n) + 1)``.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1.
    """
    return sum(candidate_count(cls, mechanism, target, known, [n]) + 1 for n in notions)


def product_audit(
    cls: IntervalProduct,
    mechanism: Any,
    target: str,
    known: Sequence[str],
    eps: Sequence[Any],
    delta: Fraction | None,
    notions: Sequence[str],
    *,
    jobs: int = 1,
    on_step: Callable[[int], None] | None = None,
) -> tuple[list[ProductLaw], list[Audit], list[ClassNotion]]:
    """Every notion's max over its candidate members (module docstring), each member
    audited by the single-law engine for the notions that need it.

    Args:
        cls: the interval product.
        mechanism: the mechanism (on the sum, or randomized response).
        target: the target record.
        known: the known records.
        eps: the ε values at which δ is reported.
        delta: the δ at which the smallest ε is reported.
        notions: the notions.
        jobs: worker processes.
        on_step: progress (a member audited).

    Returns:
        The members, their audits (each with its own notions) and per notion the max
        over its candidates (every figure a :data:`~pdpsym.audit.class_audit.SUP`,
        the worst member an index into the members; :func:`product_notion` relabels
        the figures no proof covers).

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1; Desfontaines et al. (2020),
        Definitions 3, 5, 6, 12, 13.
    """
    laws, per = notion_laws(cls, mechanism, target, known, notions)
    asked = [[n for n in notions if j in set(per[n])] for j in range(len(laws))]
    jobs_in = [
        (product_member(cls, law), mechanism, target, tuple(known), list(eps), delta, asked[j])
        for j, law in enumerate(laws)
    ]
    audits = ordered_map(audit_job, jobs_in, jobs, on_done=on_step)
    rows = []
    for n in notions:
        idx = per[n]
        own = [replace(audits[j], results=(audits[j][n],)) for j in idx]
        row = sups_of(own)[0]

        def back(f: ClassFigure, idx: list[int] = idx) -> ClassFigure:
            return f if f.member is None else replace(f, member=idx[f.member])

        rows.append(
            ClassNotion(
                n,
                back(row.epsilon),
                tuple((e, back(f)) for e, f in row.delta_at_epsilon),
                None
                if row.epsilon_at_delta is None
                else (row.epsilon_at_delta[0], back(row.epsilon_at_delta[1])),
                row.note,
            )
        )
    if registry.IBCDP.name in notions and ibcdp_applies(cls, mechanism, target):
        ask = (target, tuple(known), list(eps), delta)
        ibcdp_rows(cls, mechanism, ask, (laws, audits, rows), per[registry.IBCDP.name])
    return laws, audits, rows


def product_member(cls: IntervalProduct, law: ProductLaw) -> ProductModel:
    """The member of ``cls`` with these record laws.

    Args:
        cls: the interval product.
        law: one law per record (inside its row's intervals).

    Returns:
        The :class:`~pdpsym.models.product.ProductModel`.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1 (a law of the class).
    """
    return ProductModel(list(zip(cls.values, law, strict=True)), cls.names)


def product_law_json(cls: IntervalProduct, law: ProductLaw) -> dict[str, Any]:
    """A member as a ``product`` model object (the worst law, in JSON).

    Args:
        cls: the interval product.
        law: one law per record.

    Returns:
        ``{"kind": "product", "records": [{"values": [...], "probs": [...]}, ...]}``.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1 (a law of the class).
    """
    out: dict[str, Any] = {
        "kind": "product",
        "records": [
            {"values": [str(v) for v in vals], "probs": [str(p) for p in ps]}
            for vals, ps in zip(cls.values, law, strict=True)
        ],
    }
    if cls.names is not None:
        out["names"] = list(cls.names)
    return out


__all__ = [
    "PROVEN_SUM",
    "ProductLaw",
    "candidate_count",
    "candidate_laws",
    "notion_laws",
    "product_audit",
    "product_law_json",
    "product_member",
    "product_notion",
    "proven_figures",
    "row_vertices",
    "union_count",
    "widest_law",
]
