"""Every target of a large Bayesian network at once in float64, with a proven relative
error on every coefficient.

The junction tree of :mod:`pdpsym.models.bayesnet_jtree` over integer polynomials is
exact but its big integers make each product cost 5 to 200 microseconds a cell; on
andes or pigs its passes run for many minutes. The same passes (same clique tree, same
Shafer-Shenoy messages) are run here on float64 arrays whose last axis holds the
polynomial's coefficients. They are **not** used to rank only: every coefficient they
return comes with a rigorous relative error bound, so that the caller can turn them into
certified enclosures.

**The bound.** Every quantity of the passes is a sum of products of non-negative
numbers: table entries (each ``float(p)``, correctly rounded: ``p (1 + delta)``,
``|delta| <= u = 2^-53``), products (one rounding each) and sums (one rounding per
addition, in any order). Without underflow or overflow, a computed value is
``v (1 + theta)`` with ``|theta| <= gamma_k = k u / (1 - k u)`` where ``k`` is counted
along the computation (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd
ed., Lemma 3.1 and Lemma 3.3): a table entry has ``k = 1``; a product of values with
``k_a`` and ``k_b`` has ``k_a + k_b + 1``; a sum of ``m`` non-negative values each with
at most ``k`` has ``k + m - 1`` (every term passes through at most ``m - 1`` additions
whatever the order, and with all terms non-negative the bound of each term bounds the
sum). Each array carries one ``k`` (the largest of its entries): :attr:`FFactor.kappa`.
Scaling by a power of two is exact (each message is scaled so that its largest entry
is in ``[1/2, 1)``; the exponent is kept).

**Underflow and overflow** would break the bound (a product below ``2^-1022`` loses
relative accuracy). Before every product the smallest positive entries of the two
operands are multiplied: if that is below ``2^-1000`` (a margin for the additions'
scaling), or the largest entries could overflow, :class:`FloatRange` is raised and no
value is returned. Zero entries are exact (a product with 0 is 0), so the supports of
the returned polynomials are exactly those of the exact engine.

References:
    Higham, Accuracy and Stability of Numerical Algorithms (2002), Sec. 3.1 and 3.3;
    Shafer and Shenoy (1990); Aji and McEliece (2000); Koller and Friedman (2009),
    Sec. 10.2.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from pdpsym.core import poly
from pdpsym.core.errors import InputError
from pdpsym.core.poly import IntPoly
from pdpsym.models.bayesnet_build import ancestors, moral_graph
from pdpsym.models.bayesnet_jtree import (
    CliqueTree,
    all_but_one,
    clique_tree,
    pass_down,
    pass_up,
)
from pdpsym.models.bayesnet_supports import sparse_tree
from pdpsym.models.counts import check_known

#: the unit roundoff of float64 (round to nearest)
UNIT = Fraction(1, 2**53)
#: the smallest product of two operands' positive entries allowed (no underflow)
TINY = 2.0**-1000
#: the largest product of two operands' entries allowed (no overflow)
HUGE = 2.0**1000


class FloatRange(ArithmeticError):
    """A product could underflow or overflow float64: the error bound would not hold."""


@dataclass(frozen=True)
class FFactor:
    """A float factor: ``arr[config..., c]`` is ``2^exp`` times the coefficient of
    ``z^c`` for the configuration ``config`` of ``scope``, each entry within a relative
    ``gamma_kappa`` of the exact one."""

    scope: tuple[str, ...]
    arr: np.ndarray
    kappa: int
    exp: int = 0


def gamma(kappa: int) -> Fraction:
    """Higham's ``gamma_k = k u / (1 - k u)`` for float64, exactly.

    Args:
        kappa: the number of roundings ``k`` (``k u < 1``).

    Returns:
        ``gamma_k`` as a Fraction.

    References:
        Higham (2002), Lemma 3.1.
    """
    ku = kappa * UNIT
    if ku >= 1:
        raise FloatRange(f"{kappa} roundings: no float64 error bound")
    return ku / (1 - ku)


def log_ratio_bound(kappa: int) -> Fraction:
    """A rational upper bound of ``ln((1 + g)/(1 - g))``, ``g = gamma_kappa``: how far the
    logarithm of a ratio of two sums of non-negative coefficients can move when each
    coefficient is off by a relative ``g`` (``ln(1 + g) <= g``, ``-ln(1 - g) <= g/(1 - g)``).

    Args:
        kappa: the roundings of the coefficients.

    Returns:
        The bound (a Fraction).

    References:
        Higham (2002), Lemma 3.1 (the relative error of each coefficient).
    """
    g = gamma(kappa)
    return g + g / (1 - g)


def _minpos(a: np.ndarray) -> float:
    pos = a[a > 0]
    return float(pos.min()) if pos.size else math.inf


def _aligned(f: FFactor, scope: Sequence[str]) -> np.ndarray:
    """``f.arr`` with its record axes in ``scope``'s order (size 1 where absent); the
    polynomial axis stays last."""
    fs = f.scope
    order = sorted(range(len(fs)), key=lambda k: scope.index(fs[k]))
    arr = f.arr.transpose([*order, len(fs)])
    shape = [f.arr.shape[fs.index(u)] if u in fs else 1 for u in scope]
    return arr.reshape([*shape, f.arr.shape[-1]])


def fmul(a: FFactor, b: FFactor) -> FFactor:
    """The product factor: records joined, polynomials convolved, with its ``kappa``.

    Args:
        a: a factor.
        b: a factor.

    Returns:
        The product; ``kappa = kappa_a + kappa_b + 1 + d`` where ``d + 1`` is the most
        terms of one convolution sum (the smaller degree plus one).

    Raises:
        FloatRange: a product could underflow or overflow.

    References:
        Higham (2002), Lemma 3.3; Koller and Friedman, Definition 4.2.
    """
    if _minpos(a.arr) * _minpos(b.arr) < TINY and a.arr.any() and b.arr.any():
        raise FloatRange("a product could underflow")
    da, db = a.arr.shape[-1] - 1, b.arr.shape[-1] - 1
    if float(a.arr.max(initial=0.0)) * float(b.arr.max(initial=0.0)) * (min(da, db) + 1) > HUGE:
        raise FloatRange("a product could overflow")
    if da > db:
        a, b, da, db = b, a, db, da
    scope = a.scope + tuple(u for u in b.scope if u not in a.scope)
    x = _aligned(a, scope)
    y = _aligned(b, scope)
    shape = np.broadcast_shapes(x.shape[:-1], y.shape[:-1])
    out = np.zeros([*shape, da + db + 1])
    tmp = np.empty([*shape, db + 1])  # one buffer for every shifted product (no reallocation)
    for i in range(da + 1):
        xi = x[..., i : i + 1]
        if xi.any():
            np.multiply(xi, y, out=tmp)
            out[..., i : i + db + 1] += tmp
    return FFactor(scope, out, a.kappa + b.kappa + 1 + da, a.exp + b.exp)


def _rescaled(scope: tuple[str, ...], arr: np.ndarray, kappa: int, exp: int) -> FFactor:
    """The factor scaled by a power of two so that its largest entry is in ``[1/2, 1)``
    (exact: checked to stay clear of the subnormal range)."""
    top = float(arr.max(initial=0.0))
    if top > 0:
        e = math.frexp(top)[1]
        arr = np.ldexp(arr, -e)
        if _minpos(arr) < 2.0**-1021:
            raise FloatRange("a message spans too many orders of magnitude")
        exp += e
    last = np.nonzero(arr.reshape(-1, arr.shape[-1]).any(axis=0))[0]
    if last.size and last[-1] + 1 < arr.shape[-1]:
        arr = arr[..., : last[-1] + 1]
    return FFactor(scope, arr, kappa, exp)


def fsum(f: FFactor, keep: Sequence[str]) -> FFactor:
    """The factor summed over every record of its scope not in ``keep``.

    Args:
        f: a factor.
        keep: the records to keep (in this order; those not in the scope are left out).

    Returns:
        The marginal, rescaled; ``kappa`` grows by ``m - 1`` for ``m`` summed cells.

    References:
        Higham (2002), Sec. 3.1 (a sum of ``m`` non-negative terms); Koller and
        Friedman, Definition 9.3.
    """
    kept = [u for u in keep if u in f.scope]
    axes = tuple(k for k, u in enumerate(f.scope) if u not in kept)
    m = math.prod(f.arr.shape[k] for k in axes)
    arr = f.arr.sum(axis=axes) if axes else f.arr
    order = [tuple(u for u in f.scope if u in kept).index(u) for u in kept]
    arr = arr.transpose([*order, len(kept)])
    return _rescaled(tuple(kept), np.ascontiguousarray(arr), f.kappa + m - 1, f.exp)


def leaf(
    scope: tuple[str, ...],
    entries: Mapping[tuple[int, ...], tuple[Fraction, int]],
    sizes: Sequence[int],
) -> FFactor:
    """A table as a float factor: ``entries[config] = (p, shift)`` puts ``float(p)`` (one
    correct rounding: ``kappa = 1``) at ``z^shift``.

    Args:
        scope: the free records of the table.
        entries: each configuration of positive probability: its probability and the
            count it adds.
        sizes: the records' numbers of states.

    Returns:
        The factor.

    References:
        Higham (2002), Sec. 2.2 (correctly rounded conversion).
    """
    top = max((s for _, s in entries.values()), default=0)
    arr = np.zeros([*sizes, top + 1])
    for key, (p, s) in entries.items():
        arr[(*key, s)] = float(p)
    if arr.any() and _minpos(arr) < 2.0**-1021:
        raise FloatRange("a table entry is below the normal range")
    return FFactor(scope, arr, 1)


def float_marginals(
    tree: CliqueTree,
    factors: Sequence[FFactor],
    targets: Sequence[str],
    on_clique: Callable[[], None] | None = None,
) -> dict[str, FFactor]:
    """Each target's factor on ``(target,)``: its polynomials ``J_{t,a}`` in float64 with
    their ``kappa``, by one upward and one downward pass (as
    :func:`pdpsym.models.bayesnet_jtree.all_marginals`, over floats).

    Args:
        tree: the clique tree of the free records.
        factors: the evidence-reduced tables as float factors (an empty scope is a
            constant polynomial).
        targets: the free records whose polynomials are wanted.
        on_clique: called once per clique of each pass (progress).

    Returns:
        ``{target: FFactor on (target,)}`` (the other trees' totals and the constants
        multiplied in).

    Raises:
        FloatRange: a product could underflow or overflow.

    References:
        Shafer and Shenoy (1990); Aji and McEliece (2000); Higham (2002), Sec. 3.3.
    """
    order = tree.order
    rank = {v: k for k, v in enumerate(order)}
    unit = FFactor((), np.ones(1), 0)
    assigned: dict[str, list[FFactor]] = {v: [] for v in order}
    constant = unit
    for f in factors:
        if not f.scope:
            constant = fmul(constant, f)
        else:
            assigned[min(f.scope, key=rank.__getitem__)].append(f)
    local = {v: functools.reduce(fmul, assigned[v], unit) for v in order}
    kids, up = pass_up(tree, local, fmul, fsum, on_clique)
    roots = [v for v in order if tree.parent[v] is None]
    beliefs, root_of = pass_down(tree, local, kids, up, fmul, fsum, set(targets), on_clique)
    others = dict(zip(roots, all_but_one(constant, [up[r] for r in roots], unit, fmul)))
    return {v: fmul(fsum(whole, (v,)), others[root_of[v]]) for v, whole in beliefs.items()}


def to_intpoly(coefficients: np.ndarray) -> IntPoly:
    """The float coefficients as one integer polynomial, exactly (each float is a dyadic
    rational: all are multiplied by one power of two).

    Args:
        coefficients: non-negative finite float64 values.

    Returns:
        The integer polynomial ``2^-E * sum_c coefficients[c] z^c`` for the smallest
        power ``E`` that makes every coefficient an integer.

    References:
        IEEE 754 (every finite float is ``m 2^e``).
    """
    parts = [Fraction(float(x)) for x in coefficients]
    den = max((q.denominator for q in parts), default=1)
    return poly.from_coefficients([int(q * den) for q in parts])


def float_target_laws(
    tree: CliqueTree,
    factors: Sequence[FFactor],
    targets: Sequence[str],
    states: Mapping[str, Sequence[Any]],
    on_clique: Callable[[], None] | None = None,
) -> Iterator[tuple[str, dict[Any, tuple[IntPoly]], int]]:
    """For each target: ``{value: (J,)}`` with ``J`` the float polynomial as an integer
    one (:func:`to_intpoly`), and the ``kappa`` bounding every coefficient's relative
    error (the same for every value of the target).

    Args:
        tree: the clique tree of the free records.
        factors: the float tables.
        targets: the targets (free records).
        states: each target's values, in state order.
        on_clique: progress.

    Returns:
        ``(target, values, kappa)`` in the order of ``targets``.

    Raises:
        FloatRange: a product could underflow or overflow.

    References:
        Higham (2002), Sec. 3.3.
    """
    laws = float_marginals(tree, factors, targets, on_clique)
    for t in targets:
        f = laws[t]
        values = {a: (to_intpoly(f.arr[s]),) for s, a in enumerate(states[t])}
        yield t, values, f.kappa


#: the most floats of one clique's polynomials (512 MB) the float passes take on (the
#: passes peak at about five such arrays: andes, every record, 5.9e7 floats, 2.4 GB)
FLOAT_CELLS = 1 << 26
#: the exact tree's work (units) above which the float passes are used when cheaper
EXACT_WORK = 10**8


def float_work(tree: CliqueTree, span: int) -> int:
    """The estimated work of :func:`float_marginals` on ``tree`` (units of about a
    microsecond of CPU): every clique-sized product (``cells * (2 + children)``, as the
    exact estimate counts them on the tables' supports) priced ``(span^2 + 600) / 3000``
    units, a convolution of two polynomials of degree up to the span plus the array
    overhead; more than the exact work (the floats are not used) when the largest
    clique's polynomials exceed :data:`FLOAT_CELLS` floats.

    Args:
        tree: the clique tree.
        span: the query's span in count units.

    Returns:
        The estimate.

    References:
        Fitted on andes (every record: 41 s of CPU for the passes, span 223; a count of
        20 records: 0.6 s) and checked on pigs (docs/benchmarks.md).
    """
    if tree.largest * (span + 1) > FLOAT_CELLS:
        return tree.work + 1  # its largest clique's polynomials would not fit in memory
    cells = tree.work // max(tree.price, 1)
    return cells * (span * span + 600) // 3000 + 10**5


def prefers_floats(tree: CliqueTree, span: int) -> bool:
    """Whether the float passes replace the exact ones: the exact tree's work is over
    :data:`EXACT_WORK` (below it every output stays the exact engine's) and the float
    estimate is smaller.

    Args:
        tree: the exact clique tree (its work on the tables' supports).
        span: the query's span in count units.

    Returns:
        True to run :func:`network_float_laws`.

    References:
        Higham (2002), Sec. 3.3 (the bound that makes the float values certified).
    """
    return tree.work > EXACT_WORK and float_work(tree, span) < tree.work


def network_float_laws(
    network: Any,
    targets: Sequence[str],
    known: Mapping[str, Any],
    weights: Mapping[str, int] | None = None,
    on_step: Callable[[int, int], None] | None = None,
) -> Iterator[tuple[str, dict[Any, tuple[IntPoly]], int]]:
    """:meth:`~pdpsym.models.bayesnet.BayesianNetwork.target_factors` in float64 with a
    proven error: for each target, ``{value: (J,)}`` and the ``kappa`` of its
    coefficients (:func:`float_target_laws`); barren records dropped as there.

    Args:
        network: a :class:`~pdpsym.models.bayesnet.BayesianNetwork`.
        targets: the target records.
        known: the known records' values.
        weights: integer query weights (default 1).
        on_step: called as ``on_step(done, total)`` after each clique of the two passes.

    Returns:
        ``(target, values, kappa)`` in the order of ``targets``.

    Raises:
        FloatRange: a product could underflow or overflow.
        InputError: ``max_work``, when the float estimate is over the network's limit
            (the message names the induced width).

    References:
        Li et al., Sec. III, Eq. 2; Higham (2002), Sec. 3.3.
    """
    contrib = network.contributions(weights)
    shifts = dict(zip(network.variables, contrib.table, strict=True))
    nodes = network.nodes
    values = {v: nodes[v].values for v in network.variables}
    kv = check_known(network.variables, values, known)
    observed = {k: nodes[k].values.index(x) for k, x in kv.items()}
    counted = [v for v in network.variables if any(shifts[v])]
    keep = ancestors(nodes, [*targets, *kv, *counted])
    adj = moral_graph(nodes, network.variables, observed, keep)
    position = {v: k for k, v in enumerate(network.variables)}
    sizes = {v: len(nodes[v].states) for v in adj}
    tree = sparse_tree(
        clique_tree(list(adj), adj, position, sizes, contrib.span), nodes, observed, keep
    )
    work = float_work(tree, contrib.span)
    if work > network.max_work:
        raise InputError(
            "max_work",
            f"the float junction tree has induced width {tree.width} and an estimated work "
            f"of {work:.2e} units, over the limit {network.max_work:.2e}",
        )
    factors = []
    for v in network.variables:
        if v not in keep:
            continue
        family = (*nodes[v].parents, v)
        scope = tuple(u for u in family if u not in observed)
        entries: dict[tuple[int, ...], tuple[Fraction, int]] = {}
        for config, row in nodes[v].cpt.items():
            for s, p in enumerate(row):
                full = (*config, s)
                if p == 0 or any(
                    observed.get(u, k) != k for u, k in zip(family, full, strict=True)
                ):
                    continue
                key = tuple(k for u, k in zip(family, full, strict=True) if u not in observed)
                entries[key] = (p, shifts[v][s])
        factors.append(leaf(scope, entries, [len(nodes[u].states) for u in scope]))
    steps = [0, 2 * len(tree.order)]

    def step() -> None:
        steps[0] += 1
        if on_step is not None:
            on_step(steps[0], steps[1])

    yield from float_target_laws(tree, factors, list(dict.fromkeys(targets)), values, step)


__all__ = [
    "FFactor",
    "FLOAT_CELLS",
    "EXACT_WORK",
    "FloatRange",
    "float_marginals",
    "float_target_laws",
    "float_work",
    "fmul",
    "fsum",
    "gamma",
    "leaf",
    "log_ratio_bound",
    "network_float_laws",
    "prefers_floats",
    "to_intpoly",
]
