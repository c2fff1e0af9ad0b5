"""Li et al. Eq. 2 for structured models (Markov chains, independent records), by
dynamic programming: never by listing databases.

For an adversary ``A(i, K)`` and the Laplace mechanism of scale ``lambda`` on
``f(x) = sum_t w_t x_t``::

    PL = max_{x_K} max_{a != b} sup_r ln p(r | x_i = a, x_K) / p(r | x_i = b, x_K)

which is exactly the Pufferfish leakage of the secret pair ``x_i = a`` vs ``x_i = b``
under the model's law. The law of ``f`` given ``(x_i, x_K)`` comes from the model as an
exact integer generating polynomial (:mod:`pdpsym.models.counts`); the sup over ``r``
is a max over the support points (the breakpoint lemma of
:mod:`pdpsym.loss.laplace_mixture`). Each target's value is a certified enclosure
``[lo, hi]``: all mixture values are arb balls (:func:`pdpsym.core.count_mixtures.mixture_values`)
from the exact integer factors, each rounded down relatively
(:func:`pdpsym.core.poly.relative_floor`, every nonzero coefficient kept to a few bits
beyond the working precision) with the rounding carried into the balls, and the max over support points, value pairs
and known assignments of balls is enclosed by ``[max lo, max hi]`` -- so ties need no
decision for the value. Small laws (support at most :data:`EXACT_SUPPORT`) also get the
exact closed form from :func:`~pdpsym.loss.laplace_mixture.laplace_mixture_sup`.

**Monotonicity in lambda** (used by calibration): for ``l2 > l1`` the Laplace law
``Lap(l2)`` is ``Lap(l1)`` convolved with the probability law
``rho^2 delta_0 + (1 - rho^2) Lap(l2)``, ``rho = l1/l2`` (characteristic functions:
``1/(1 + l2^2 t^2) = 1/(1 + l1^2 t^2) * (rho^2 + (1 - rho^2)/(1 + l2^2 t^2))``). The
mechanism at ``l2`` is thus the one at ``l1`` followed by independent noise, and a sup of
density ratios cannot grow under post-processing: every target's leakage is
non-increasing in ``lambda``. The same holds for the two-sided geometric mechanism
(``alpha = e^{-1/lambda}``: ``|1 - a1 e^{it}|^2 / |1 - a2 e^{it}|^2`` is a positive
combination of 1 and the geometric characteristic function for ``a2 > a1``).

**Independent records** (product models above a size): the closed form of
:mod:`pdpsym.loss.shortcuts`.

**Geometric mechanism.** With integer query values, the two-sided geometric mechanism
``P(r) ~ alpha^{|r - f(x)|}`` on integers has the same candidate set (the support points)
and the same ratio ``sum w_a(s) alpha^{|r-s|} / sum w_b(s) alpha^{|r-s|}``; with
``alpha = e^{-1/lambda}`` its leakage equals the Laplace leakage at scale ``lambda``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from pdpsym.core import poly
from pdpsym.core.decimals import fixed_digits
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str
from pdpsym.loss import (
    chain_all_targets,
    chain_float_screen,
    count_mixtures,
    shortcuts,
)
from pdpsym.loss.count_leakage_work import TargetPlan, target_plan
from pdpsym.loss.leakage_result import Enclosed, TargetLeakage
from pdpsym.loss.shortcuts import independent_closed_form, independent_leakages
from pdpsym.models.counts import Contributions, CountModel
from pdpsym.models.model_objects import chain_of, network_of

if TYPE_CHECKING:  # the closed forms load sympy: only the exact path imports them
    from pdpsym.core.exp_polynomials import LogRatio

#: laws with at most this many support points also get an exact closed form
EXACT_SUPPORT = 48
#: the largest working precision (bits) before a value is reported with fewer digits
MAX_BITS = 2048
#: the reason of an exact 0 (:func:`pdpsym.models.bayesnet_build.independent_targets`)
DSEP = "d-separated from every counted record given the known ones"
#: the reason of an exact 0 found by the tables' values
#: (:mod:`pdpsym.models.bayesnet_vacuous`: an edge they ignore, or an averaged table)
BY_TABLES = "independent of every counted record given the known ones, by the tables' values"


def checked_known(
    model: CountModel, targets: Sequence[str], known: Sequence[str]
) -> tuple[str, ...]:
    """The known records, checked: each a record of the model, none a target, none twice;
    and each target a record of the model.

    Args:
        model: the model.
        targets: the target records.
        known: the records the adversary knows.

    Returns:
        ``tuple(known)``.

    Raises:
        InputError: a known record is a target or given twice (field ``known``), or a
            name is not a record (field ``known`` or ``target``).

    References:
        Li et al. (2019), Sec. III (the adversary's known records and its target).
    """
    known = tuple(known)
    for name in known:
        model.index(name, "known")  # type: ignore[attr-defined]
        if name in targets:
            raise InputError("known", f"the target {name!r} cannot also be known")
    if len(set(known)) != len(known):
        raise InputError("known", "duplicate record")
    for t in targets:
        model.index(t, "target")  # type: ignore[attr-defined]
    return known


def known_assignments(model: CountModel, known: Sequence[str]) -> Iterable[dict[str, Fraction]]:
    """Every assignment ``x_K`` of the known records the max of Eq. 2 runs over.

    For an assignment-invariant model (independent records) the known values only shift
    the count, so one assignment (each record's first value of positive probability)
    stands for all; otherwise the full product of the domains, lazily.

    Args:
        model: the structured model.
        known: the names of the known records ``K``.

    Returns:
        An iterable of ``{name: value}`` dicts (exact values).

    References:
        Li et al. (2019), Section IV-A, Eq. 2 (the max over ``x_K``) and Theorem 1
        (independent tuples: prior knowledge does not change the leakage).
    """
    doms = [model.domain(k) for k in known]
    if getattr(model, "assignment_invariant", False):
        # independent records: the known values only shift the count; any value of
        # positive probability gives the same leakage (zero-probability ones give none)
        laws = getattr(model, "laws", None)
        choice = []
        for name, dom in zip(known, doms, strict=True):
            if laws is not None:
                vals, ps = laws[model.index(name)]  # type: ignore[attr-defined]
                choice.append(next(v for v, p in zip(vals, ps, strict=True) if p > 0))
            else:  # pragma: no cover
                choice.append(dom[0])
        return [dict(zip(known, choice, strict=True))]
    return (dict(zip(known, combo, strict=True)) for combo in itertools.product(*doms))


def _bits(digits: int, span: int) -> int:
    return poly.bits_needed(digits) + 2 * max(span, 1).bit_length() + 16


def _pair_sups(
    values: Mapping[Fraction, tuple[Any, ...]], n: int, rate: Fraction, prec: int
) -> tuple[Fraction, Fraction] | None | Literal["none"]:
    """``[lo, hi]`` of the max over value pairs of the sup over support points, "none"
    when fewer than two values are compatible, None when a ball was not usable."""
    mixes = []
    for _, factors in values.items():
        # J(1) is the product of the factors' totals (exact, without the big product)
        totals = [poly.total(f) for f in factors]
        norm = 1
        for tot in totals:
            norm *= tot
        if norm == 0:
            continue
        cuts = [
            count_mixtures.truncation_shift(tot, poly.degree(f), n, rate, prec)
            for f, tot in zip(factors, totals, strict=True)
        ]
        # each factor rounded relatively to prec + 16 bits (small integers, fast product);
        # the rounding is carried into the balls
        rounded = [poly.relative_floor(f, prec + 16) for f in factors]
        dropped = sum(r[1] for r in rounded)
        if sum(cuts) > dropped + 64:
            # a wide law: drop its tails absolutely, the dropped mass carried exactly
            # (pdpsym.loss.count_mixtures)
            g = poly.product([count_mixtures.floor_shift(f, c) for f, c in zip(factors, cuts)])
            dropped = sum(cuts)
            delta = norm - poly.total(g) * (1 << dropped)
            shift = poly.height_bits(g)
            values_ = count_mixtures.widen_up(
                count_mixtures.mixture_values(g, n, rate, prec, shift), delta, shift + dropped, prec
            )
            mixes.append((values_, poly.scaled_int(norm, shift + dropped, prec)))
            continue
        k = sum(1 for r in rounded if r[1])
        j = poly.product([r[0] for r in rounded])
        shift = poly.height_bits(j)
        values_ = count_mixtures.mixture_values(j, n, rate, prec, shift, (k, prec + 16))
        mixes.append((values_, poly.scaled_int(norm, shift + dropped, prec)))
    if len(mixes) < 2:
        return "none"
    lo: Fraction | None = None
    hi: Fraction | None = None
    for a, b in itertools.combinations(range(len(mixes)), 2):
        res = count_mixtures.log_ratio_sups(
            mixes[a][0], mixes[a][1], mixes[b][0], mixes[b][1], prec
        )
        if res is None:
            return None
        for e_lo, e_hi in res:
            lo = e_lo if lo is None else max(lo, e_lo)
            hi = e_hi if hi is None else max(hi, e_hi)
    assert lo is not None and hi is not None
    return lo, hi


def _exact_sup(values: Mapping[Fraction, tuple[Any, ...]], lam_count: Fraction) -> LogRatio | None:
    # imported here: the closed form loads sympy, which the enclosures do not need
    from pdpsym.loss.laplace_mixture import laplace_mixture_sup  # noqa: PLC0415

    laws = []
    for _, factors in values.items():
        j = poly.product(list(factors))
        norm = poly.total(j)
        if norm == 0:
            continue
        laws.append(
            {Fraction(c): Fraction(v, norm) for c, v in enumerate(poly.coefficients(j)) if v}
        )
    if len(laws) < 2:
        return None
    best: LogRatio | None = None
    for a, b in itertools.permutations(range(len(laws)), 2):
        val, _ = laplace_mixture_sup(laws[a], laws[b], lam_count)
        if best is None or val.exact_compare(best) > 0:
            best = val
    return best


class _Accumulator:
    """The max over known assignments of one target's enclosures."""

    def __init__(self) -> None:
        self.lo: Fraction | None = None
        self.hi: Fraction | None = None
        self.exact: LogRatio | None = None
        self.exact_ok = True

    def add(self, lo: Fraction, hi: Fraction, exact: LogRatio | None) -> None:
        self.lo = lo if self.lo is None else max(self.lo, lo)
        self.hi = hi if self.hi is None else max(self.hi, hi)
        if exact is None:
            self.exact_ok = False
        elif self.exact_ok and (self.exact is None or exact.exact_compare(self.exact) > 0):
            self.exact = exact


def target_enclosure(
    values: Mapping[Fraction, tuple[Any, ...]],
    contrib: Contributions,
    lam: Fraction,
    digits: int,
    exact: bool,
    exact_limit: int = EXACT_SUPPORT,
) -> tuple[Fraction, Fraction, LogRatio | None] | None:
    """One target, one known assignment: the certified max over value pairs of Eq. 2's sup.

    Doubles the working precision until the enclosure fixes ``digits`` digits (or the
    precision reaches ``MAX_BITS``, when fewer digits are certain).

    Args:
        values: each target value -> the integer generating-polynomial factors of the
            query's law given it and the assignment.
        contrib: the query's integer contributions (span and scale of the count).
        lam: the Laplace scale ``λ > 0``, in query units.
        digits: the significant digits wanted.
        exact: also build the exact closed form (small laws only).
        exact_limit: the most support points for which the closed form is built.

    Returns:
        ``(lo, hi, exact)``: rationals with ``lo ≤ PL ≤ hi`` and the exact
        :class:`~pdpsym.core.exp_polynomials.LogRatio` or None; None when fewer than two target
        values are compatible with the assignment.

    References:
        Li et al. (2019), Section IV-A, Eq. 2; Johansson, Arb (2017) for the ball
        arithmetic of the enclosure.
    """
    n = contrib.span
    rate = 1 / (lam * contrib.scale)
    # e^-rate is a usable ball only when the ball of rate itself is exact enough: start
    # (and allow) at least its bits (λ = 10^-9999 needs about 33,000)
    rate_bits = max(rate.numerator.bit_length(), rate.denominator.bit_length()) + 64
    prec = max(_bits(digits, n), rate_bits)
    limit = max(MAX_BITS, 2 * rate_bits)
    while True:
        res = _pair_sups(values, n, rate, prec)
        if res == "none":
            return None
        if res is not None and not isinstance(res, str):
            lo, hi = res
            if fixed_digits(lo, hi, digits) is not None or prec >= limit:
                break
        elif prec >= limit:  # pragma: no cover - needs absurd magnitudes
            raise ArithmeticError("mixture balls not finite at the largest precision")
        prec *= 2
    ex = _exact_sup(values, lam * contrib.scale) if exact and n <= exact_limit else None
    return lo, hi, ex


def _count_chain(
    model: CountModel, assignment: Mapping[str, Fraction], contrib: Contributions
) -> chain_all_targets.CountChain | None:
    """The chain of a Markov model for :mod:`pdpsym.loss.chain_all_targets` (None: not a chain)."""
    chain = chain_of(model)
    if chain is None:
        return None
    model = chain
    fixed = {model.index(n): model.states.index(Fraction(v)) for n, v in assignment.items()}
    return chain_all_targets.CountChain(model.initial_law, model.matrices, contrib.table, fixed)


def _chain_extremes(
    chain: chain_all_targets.CountChain,
    positions: Sequence[int],
    contrib: Contributions,
    lam: Fraction,
    digits: int,
) -> dict[int, tuple[Fraction, Fraction]]:
    """Every target whose value the extremes and the screen enclose to ``digits``: the
    sup at an extreme output, or on a plateau of the ratio near one
    (:func:`chain_float_screen.interior_enclosure`). The extremes are balls
    (:func:`chain_all_targets.extreme_values`); the interior is bounded by the float screen with
    its error bound (:func:`chain_float_screen.interior_screen`). The other targets are left to
    the caller."""
    rate = 1 / (lam * contrib.scale)
    screen = chain_float_screen.interior_screen(chain, positions, rate)
    todo = [p for p in sorted(set(positions)) if screen.top.get(p) is not None]
    prec = _bits(digits, contrib.span)
    done: dict[int, tuple[Fraction, Fraction]] = {}
    tails: dict[int, Any] = {}
    while todo:
        values = chain_all_targets.extreme_values(chain, todo, rate, prec)
        again = []
        found: dict[int, tuple[Fraction, Fraction]] = {}
        for p in todo:
            ball = chain_all_targets.extreme_log_ratio(values[p], prec)
            if ball is not None:
                found[p] = poly.endpoints(ball)
        # the tail lemma's bounds, once, for the targets the screen alone cannot settle
        need = [
            p
            for p, (lo, _) in found.items()
            if not chain_float_screen.interior_below(screen, p, lo)
        ]
        if need and not tails:
            tails = chain_float_screen.tail_bounds(chain, need, rate)
        for p, (lo, hi) in found.items():
            enclosed: tuple[Fraction, Fraction] | None = (lo, hi)
            if p in need:
                pair_balls = chain_all_targets.pair_log_ratios(values[p], prec)
                if pair_balls is None:
                    continue
                pairs = {key: poly.endpoints(b) for key, b in pair_balls.items()}
                enclosed = chain_float_screen.interior_enclosure(screen, tails, p, (lo, hi), pairs)
            if enclosed is None:
                continue
            if fixed_digits(*enclosed, digits) is not None:
                done[p] = enclosed
            elif fixed_digits(lo, hi, digits) is None:
                if prec < MAX_BITS:
                    again.append(p)
                elif enclosed == (lo, hi):
                    done[p] = enclosed  # fewer digits are certain
            # else: the interior's bounds cost digits; the exact path decides
        todo = again
        prec *= 2
    return done


def _chain_values(
    chain: chain_all_targets.CountChain,
    positions: Sequence[int],
    contrib: Contributions,
    lam: Fraction,
    digits: int,
) -> dict[int, tuple[Fraction, Fraction] | None]:
    """Every target the chain's fast paths settle: ``[lo, hi]``, or None for a target
    with fewer than two compatible values. Independent records give the exact value
    (:func:`shortcuts.independent_values`); otherwise the extremes and the screen
    (:func:`_chain_extremes`), run once per mirror pair on a reversal-symmetric chain
    (:func:`shortcuts.reversal_symmetric`). The other targets are left to the caller."""
    rate = 1 / (lam * contrib.scale)
    if shortcuts.independent_records(chain):
        exact = shortcuts.independent_values(chain, positions, rate)
        return {p: (v, v) if v is not None else None for p, v in exact.items()}
    sym = shortcuts.reversal_symmetric(chain)
    rep = {p: shortcuts.mirror(chain, p, sym) for p in positions}
    done = _chain_extremes(chain, sorted(set(rep.values())), contrib, lam, digits)
    return {p: done[r] for p, r in rep.items() if r in done}


def structured_leakage(
    model: CountModel,
    targets: Sequence[str],
    known: Sequence[str] = (),
    lam: Fraction | int = 1,
    weights: Mapping[str, int] | None = None,
    *,
    digits: int = 15,
    exact: bool = True,
    on_target: Callable[[str], None] | None = None,
    exact_limit: int = EXACT_SUPPORT,
    on_step: Callable[[int, int], None] | None = None,
    plan: TargetPlan | None = None,
) -> list[TargetLeakage]:
    """Eq. 2 leakage of ``A(i, K)`` for every ``i`` in ``targets`` (Li et al. Sec. III, Eq. 2).

    Args:
        model: a Markov chain or product model (:class:`~pdpsym.models.counts.CountModel`).
        targets: the target records (none of them known).
        known: the records K the adversary knows (the max runs over their values).
        lam: the Laplace scale (> 0), in query units.
        weights: integer query weights (default: the sum).
        digits: certified significant digits of each value.
        exact: also build the exact closed form for small laws.
        exact_limit: the most support points for which it is built.
        on_target: called once per target and known assignment (progress).
        on_step: a Bayesian network's junction-tree progress, ``(done, total)`` cliques
            per known assignment.
        plan: a Bayesian network's exact zeros and computed targets, when the caller
            has them (:func:`~pdpsym.loss.count_leakage_work.target_plan` of the same
            targets and known records; else computed here).

    Returns:
        One :class:`TargetLeakage` per target, in order.

    References:
        Li et al., Sec. III, Eq. 2; the breakpoint lemma (Sec. IV).

    Examples:
        Independent records: the other records' law does not depend on the target, so the two
        output laws are shifts by the target's range 1 and, by hand, Eq. 2 gives ``1/lam``:

        >>> import pdpsym as ps
        >>> coins = ps.ProductModel([(["0", "1"], ["1/2", "1/2"])] * 3)
        >>> [(r.target, r.value.exact.sympy()) for r in ps.structured_leakage(coins, ["x1"], lam=2)]
        [('x1', 1/2)]
    """
    lam = Fraction(lam)
    if lam <= 0:
        raise InputError("lam", f"must be > 0, got {fraction_str(lam)}")
    known = checked_known(model, targets, known)
    asked = known
    contrib = model.contributions(weights)
    if independent_closed_form(model):
        closed = []
        for t, v in zip(targets, independent_leakages(model, targets, contrib, lam), strict=True):
            if on_target is not None:
                on_target(t)
            if v is None:
                closed.append(TargetLeakage(t, "no-compatible-pair", known=known))
            else:
                closed.append(TargetLeakage(t, "ok", Enclosed(v, v), known))
        return closed
    acc = {t: _Accumulator() for t in targets}
    floats = False
    closed_form = exact and contrib.span <= exact_limit
    network = network_of(model)
    zeros: tuple[str, ...] = ()
    settled: Mapping[str, bool] = {}
    by_tables: frozenset[str] = frozenset()
    singles: dict[str, TargetLeakage] = {}
    full_targets = targets
    if network is not None:  # known records d-separated from the query
        # a network's engines load with the first network (a chain's run never needs them)
        from pdpsym.loss import network_floats
        from pdpsym.models import bayesnet_float_jtree
        from pdpsym.models.bayesnet_build import relevant_known
        from pdpsym.models.bayesnet_zeros import averaged_zeros, zero_plan

        counted = [v for v, row in zip(network.variables, contrib.table, strict=True) if any(row)]
        if plan is None or (plan.targets, plan.known) != (tuple(targets), tuple(known)):
            plan = target_plan(network, zero_plan(network, targets, known, weights, averaged=False))
        zeros, settled, targets = plan.zeros, plan.decided, list(plan.computed)
        by_tables = plan.by_tables
        if plan.per_target:  # each target on its own tree (its barren records left out)
            for t in targets:
                one = TargetPlan((t,), tuple(asked), weights, computed=(t,))
                (alone,) = structured_leakage(
                    model, [t], asked, lam, weights, digits=digits, exact=exact,
                    on_target=on_target, exact_limit=exact_limit, on_step=on_step, plan=one,
                )  # fmt: skip
                singles[t] = alone
            targets = []
        known = relevant_known(network.nodes, [*counted, *targets], known)
        tree = network.targets_work(known, weights, targets)
        floats = bayesnet_float_jtree.prefers_floats(tree, contrib.span)
    for assignment in known_assignments(model, known) if targets else ():
        rest = list(targets)
        stands: dict[str, str] = {}  # a mirrored target -> the one computed for it
        chain = None if closed_form else _count_chain(model, assignment, contrib)
        if chain is not None and (len(set(targets)) > 2 or chain.length <= 64):
            pos = {t: model.index(t) for t in targets}  # type: ignore[attr-defined]
            done = _chain_values(chain, list(pos.values()), contrib, lam, digits)
            sym = shortcuts.reversal_symmetric(chain)
            names = {p: name for name, p in pos.items()}
            rest = []
            for name in targets:
                p = pos[name]
                if p in done:
                    value = done[p]
                    if value is not None:
                        acc[name].add(value[0], value[1], None)
                    if on_target is not None:
                        on_target(name)
                    continue
                rep = names.get(shortcuts.mirror(chain, p, sym), name)
                if rep != name and rep in pos:
                    stands[name] = rep
                else:
                    rest.append(name)
            if not rest and not stands:
                continue
        results: dict[str, tuple[Fraction, Fraction, LogRatio | None] | None] = {}
        if network is not None and floats:
            results = network_floats.float_results(
                bayesnet_float_jtree.network_float_laws(
                    network, rest, assignment, weights, on_step
                ),
                lambda v: target_enclosure(v, contrib, lam, min(digits, 15), False),
            )
        laws = (
            ()
            if results
            else (
                network.target_factors(rest, assignment, weights, on_step)
                if network is not None
                else model.target_factors(rest, assignment, weights)
            )
        )
        for name, values in laws:
            results[name] = target_enclosure(values, contrib, lam, digits, exact, exact_limit)
        for name in targets:
            if name not in results and name not in stands:
                continue
            res = results[stands.get(name, name)]
            if on_target is not None:
                on_target(name)
            if res is not None:
                acc[name].add(*res)
    if network is not None:  # the zeros by averaged tables (computed all the same)
        rest = [t for t in full_targets if t not in zeros]
        averaged = averaged_zeros(network, rest, asked, weights)
        zeros = (*zeros, *averaged)
        settled = {**settled, **averaged}
        by_tables |= set(averaged)
    out = []
    for t in full_targets:
        a = acc[t]
        single = singles.get(t)
        paired = a.lo is not None if single is None else single.value is not None
        if t in zeros and settled.get(t, paired):
            out.append(
                TargetLeakage(
                    t,
                    "ok",
                    Enclosed(Fraction(0), Fraction(0), None, BY_TABLES if t in by_tables else DSEP),
                    asked,
                )
            )
        elif single is not None:
            out.append(single)
        elif a.lo is None or a.hi is None:
            out.append(TargetLeakage(t, "no-compatible-pair", known=asked))
        else:
            closed_form_value = a.exact if a.exact_ok else None
            out.append(TargetLeakage(t, "ok", Enclosed(a.lo, a.hi, closed_form_value), asked))
    return out


@dataclass(frozen=True)
class LeakageMax:
    """The max over targets: its enclosure, the first target that attains it as far as
    the enclosures tell, and every target whose enclosure reaches the max's lower end."""

    value: Enclosed
    target: str
    ties: tuple[str, ...]


def leakage_max(results: Sequence[TargetLeakage]) -> LeakageMax | None:
    """The max over targets of their certified leakages: ``[max lo, max hi]``.

    Args:
        results: the per-target results of :func:`structured_leakage`.

    Returns:
        :class:`LeakageMax` (its exact form when every target has one), or None when no
        target has a value. ``target`` is the first target whose enclosure reaches the
        max's lower end, ``ties`` all of them: the enclosures, not an exact decision, say
        which target attains the max.

    References:
        Li et al. (2019), Section IV-A, Definition 2 (the leakage of the database is the
        max over adversaries).
    """
    ok = [r for r in results if r.value is not None]
    if not ok:
        return None
    lo = max(r.value.lo for r in ok)  # type: ignore[union-attr]
    hi = max(r.value.hi for r in ok)  # type: ignore[union-attr]
    tied = tuple(r.target for r in ok if r.value.hi >= lo)  # type: ignore[union-attr]
    exact = None
    exacts = [r.value.exact for r in ok if r.value is not None]
    if all(e is not None for e in exacts):
        best = None
        for e in exacts:
            assert e is not None
            if best is None or e.exact_compare(best) > 0:
                best = e
        exact = best
    return LeakageMax(Enclosed(lo, hi, exact), tied[0], tied)


__all__ = [
    "EXACT_SUPPORT",
    "Enclosed",
    "LeakageMax",
    "checked_known",
    "TargetLeakage",
    "known_assignments",
    "leakage_max",
    "structured_leakage",
    "target_enclosure",
]
