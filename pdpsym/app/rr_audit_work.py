"""The work estimate of ``pdpsym audit`` under randomized response on a Markov chain or
independent records (:mod:`pdpsym.audit.rr_reports`): each notion's own steps (about a
microsecond each), from what the engine lists.

Per law, every notion lists at most:

* **the local pair** (dp, cdp, and the notions not computed on a structured model): the
  target's own report, ``k`` outcomes;
* **the dependence group's pair** (dependent-dp, Liu et al.'s neighbours): the law of the
  counts of reports equal to each side's record over the group, about ``g`` outcomes for
  two states and ``g^2 / 2`` for more (``g`` records, exact up to
  :data:`~pdpsym.audit.rr_reports.MAX_GROUP`);
* **the segment's report laws** (APKDP, NP, PPKDP, dependent-dp's conditional reading):
  per case (an ordered pair of target values and the values of the nearest known records
  around the target: ``m (m - 1) k^sides`` cases) one pair of laws of the
  ``S = k^(r - l - 1)`` reports between them, walked at the ε / δ points; when ``S``
  passes :data:`~pdpsym.audit.rr_reports.MAX_OUTCOMES` the two windows' laws of
  :mod:`pdpsym.audit.rr_report_windows` instead (the upper one with its boundary states),
  and ε by the extremes' programme (two states: ``5 n^2`` per case) or the cones' extreme
  rays (more states: :func:`pdpsym.audit.rr_report_cones.cone_work`, passed in).

The constants were measured (``benchmarks/bench_rr_audit_work.py``, docs/benchmarks.md):
about ``17 (points + 2)`` steps per listed outcome of a case.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

#: a notion not computed on a structured model (its note alone)
NOT_COMPUTED = 20
#: steps per listed outcome of one case, per point walked (the ε / δ points plus 2)
PER_OUTCOME = 17
#: a listed notion's fixed steps per law (its cases found, its result built)
LISTED_BASE = 300


def listed_work(outcomes: int, cases: int, points: int) -> int:
    """Steps of one notion that lists ``cases`` pairs of laws of ``outcomes`` outcomes
    each, walked at ``points`` ε / δ points.

    Args:
        outcomes: the outcomes of each listed law (a window pair's two laws summed).
        cases: the pairs of laws.
        points: the ε values and δ asked for.

    Returns:
        ``LISTED_BASE + PER_OUTCOME (points + 2) outcomes cases``.

    References:
        Desfontaines et al., Definition 12 (one pair of output laws per case).
    """
    return LISTED_BASE + PER_OUTCOME * (points + 2) * outcomes * cases


def law_work(k: int, n: int, laws: int) -> int:
    """Steps of one law's audit that every notion shares (the model checked, the known
    records' laws read): ``100 k + 40 n`` for ``n`` records of ``k`` values, and
    ``k^2 n`` per law of the known records (``laws``: the target's values times the
    known records' assignments, plus two).

    Args:
        k: the records' domain size.
        n: the records.
        laws: the laws of the known records read.

    Returns:
        ``100 k + 40 n + laws k^2 n``.

    References:
        Rabiner (1989) (one pass over the chain).
    """
    return 100 * k + 40 * n + laws * k * k * n


def local_work(k: int, points: int) -> int:
    """Steps of a notion on the target's own report (a local pair of ``k`` outcomes).

    Args:
        k: the target's domain size.
        points: the ε values and δ asked for.

    Returns:
        ``100 k + 50 k points``.

    References:
        Warner (1965) (the local randomized response).
    """
    return 100 * k + 50 * k * points


def group_work(k: int, g: int, points: int, max_group: int) -> int:
    """Steps of dependent-dp's worst pair: the multinomial law of the group's ``g`` local
    pairs (``g`` above ``max_group``: ε alone, a closed form).

    Args:
        k: the records' domain size.
        g: the records of the target's dependence group.
        points: the ε values and δ asked for.
        max_group: the largest group whose law is listed.

    Returns:
        ``(200 + 100 g + c g^2) (points + 2) / 3``, ``c`` 2 for two values and 20 for
        more (the counts' law has ``g + 1`` outcomes, or about ``g^2 / 2``).

    References:
        Liu et al. (2016), Definition 4 (dependent neighbours).
    """
    if g > max_group:
        return local_work(k, points)
    c = 2 if k <= 2 else 20
    return (200 + 100 * g + c * g * g) * (points + 2) // 3


def segment_work(chain: Any, m: int, points: int, cone: int) -> int:
    """Steps of one notion over the segment's report laws of ``chain`` (a
    :class:`~pdpsym.audit.rr_report_laws.ReportChain`): listed whole, or between two windows
    with ε by the extremes' programme (``cone``: the cones' estimate, more states).

    Args:
        chain: the report chain around the target (its known records ``l``, ``r``).
        m: the target's domain size.
        points: the ε values and δ asked for.
        cone: the extreme rays' estimate (0 for two states).

    Returns:
        The estimated steps.

    References:
        Desfontaines et al., Definitions 12 and 13; Rabiner (1989).
    """
    # the audit layer (the windows' widths, the listing limit) loads after --help
    from pdpsym.audit.rr_report_windows import window
    from pdpsym.audit.rr_reports import MAX_OUTCOMES

    k = chain.k
    sides = (chain.l is not None) + (chain.r is not None)
    cases = m * (m - 1) * k**sides
    if chain.outcomes <= MAX_OUTCOMES:
        return listed_work(chain.outcomes, cases, points)
    lo = 0 if chain.l is None else chain.l + 1
    hi = chain.m.length - 1 if chain.r is None else chain.r - 1
    left, right = window(chain)
    inner = k ** (right - left + 1)
    upper = inner * k ** ((left > lo) + (right < hi))
    n = chain.m.length
    # the windows' laws are built in one pass each (measured: 3/4 of a listed law's steps)
    programme = cases * 5 * n * n if k == 2 else cone  # ε: the extremes, or the cones
    return listed_work((inner + upper) * 3 // 4, cases, points) + programme


def rr_notion_work(
    model: Any,
    keep: Fraction,
    target: str,
    known: Sequence[str],
    notions: Sequence[str],
    points: int,
    conditional: bool,
    cone: int,
) -> dict[str, int]:
    """Each notion's own steps under randomized response on a chain or independent
    records (module docstring).

    Args:
        model: the chain or the independent records.
        keep: the probability of reporting the true value.
        target: the target record.
        known: the known records.
        notions: the notions asked for.
        points: the ε values and δ asked for.
        conditional: dependent-dp's conditional reading (Liu et al., Eq. 11).
        cone: the cones' estimate of the segment with the known records (more states).

    Returns:
        notion -> its steps per law.

    References:
        Desfontaines et al., Definitions 3, 5, 12 and 13; Liu et al. (2016), Definition 4
        and Eq. 11; Warner (1965).
    """
    # the audit layer and the models load after --help
    from pdpsym.audit.registry import Compare, Pairs, notion
    from pdpsym.audit.rr_report_laws import ReportChain
    from pdpsym.audit.rr_reports import MAX_GROUP
    from pdpsym.models.model_objects import chain_of

    names = tuple(model.variables)
    n, m = len(names), len(model.domain(target))
    as_chain = chain_of(model)
    out: dict[str, int] = {}
    segments: dict[bool, int] = {}

    def segment(with_known: bool) -> int:
        if with_known not in segments:
            if as_chain is None:  # independent records: the local pair, every case
                segments[with_known] = local_work(m, points) * max(m - 1, 1)
            else:
                chain = ReportChain(as_chain, keep, target, known if with_known else ())
                segments[with_known] = segment_work(chain, m, points, cone)
        return segments[with_known]

    for name in notions:
        kind = notion(name)
        if kind.compare is not Compare.HOCKEY_STICK:  # not computed: a note
            out[name] = NOT_COMPUTED
        elif kind.pairs in (Pairs.NEIGHBOURS, Pairs.CHANGED):
            out[name] = local_work(m, points)
        elif kind.pairs is Pairs.DEPENDENT and not conditional:
            out[name] = group_work(m, n if as_chain is not None else 1, points, MAX_GROUP)
        else:
            out[name] = segment(kind.pairs is not Pairs.DEPENDENT)
    return out


__all__ = [
    "LISTED_BASE",
    "NOT_COMPUTED",
    "PER_OUTCOME",
    "group_work",
    "law_work",
    "listed_work",
    "local_work",
    "rr_notion_work",
    "segment_work",
]
