"""Li et al.'s Eq. 2 for the histogram of a structured model, noise on every bin.

The query is the histogram ``h(x) = (n_0, ..., n_{k-1})``: how many records take each of
the ``k`` states (a chain's states; for independent records or a Bayesian network's
nodes, the distinct values of all records, a node's states standing for their values). The mechanism adds independent Laplace noise of scale ``lambda`` to every bin
(or two-sided geometric noise ``P(eta) ~ e^{-|eta|/lambda}`` on the integers: the same
leakage, see :mod:`pdpsym.loss.histogram_grid`). The adversary ``A(i, K)`` compares the laws of
``h`` given ``x_i = a`` and ``x_K``:

    PL = max_{x_K} max_{a != b} sup_{y in R^k} ln P(y | x_i = a, x_K) / P(y | x_i = b, x_K).

**The law of the histogram** comes from the model's own exact forward-backward (a
network: its variable elimination) with a k-variate count polynomial, written as one
variable by a mixed radix: state ``s >= 1``
contributes ``R^{s-1}`` (``R = T + 1``), state 0 nothing, so the sum's value
``sum_s n_s R^{s-1}`` has the counts ``n_1, ..., n_{k-1}`` as its digits (each at most
``T < R``) and ``n_0 = T - sum``. Every record counts, the known ones and the target
included. The sup is the max over the integer grid ``{0..T}^k`` (the grid lemma), found
by the certified float screen and decided by balls (:func:`pdpsym.loss.histogram_grid.grid_sup`).

**The complement lemma.** The forward-backward's integer weight of ``(n, x_i = a)`` (given
``x_K``) is ``D P(n, x_i = a, x_K)`` with one scale ``D`` (the initial law's and every
step's common denominators), so summed over ``a`` it is ``D P(n, x_K)``: the same integers
for every target. Once the first target's ``k`` laws are computed their sum is kept, and
each later target computes ``k - 1`` products ``F B`` and gets the last value's weights as
the exact difference (integers, never negative; chains with a relabelling take the
relabelling lemma instead).

**Monotone in lambda** (for calibration): per bin, ``Lap(l2)`` is ``Lap(l1)`` followed by
independent noise (the module docstring of :mod:`pdpsym.loss.count_leakage`), so the
mechanism at ``l2 > l1`` is a post-processing of the one at ``l1`` and no target's leakage
grows.

**Independent records** (a product, or a chain whose steps have identical rows): the
target's value moves one count between two bins and the rest of the histogram has the
same law either way, so the ratio is at most ``e^{2/lambda}`` and reaches it where
``y_a >= T`` and ``y_b <= 0``: Eq. 2 is ``2/lambda`` exactly (the Laplace mechanism).

**Two states** (a test, not a shortcut): ``(n_0, n_1) = (T - c, c)``, and on the
anti-diagonal ``y_0 = T - y_1`` the kernel is ``q^{2|y_1 - c|}``: the histogram at scale
``lambda`` leaks exactly what the count does at ``lambda/2``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from pdpsym.core import poly
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str
from pdpsym.loss import (
    histogram_chain,
    histogram_complement,
    histogram_grid,
    histogram_products,
    histogram_symmetry,
)
from pdpsym.loss.count_leakage import checked_known, known_assignments
from pdpsym.loss.count_leakage_work import assignment_count
from pdpsym.loss.leakage_result import Enclosed, TargetLeakage
from pdpsym.models.counts import CountModel, record_count
from pdpsym.models.histogram_bins import coded_by_bin, histogram_states, independent_supports
from pdpsym.models.model_objects import chain_of, network_of

#: targets whose count polynomials one forward-backward pass keeps at a time
BATCH = 16
#: the checkpointed forward-backward of a one-matrix chain (about three sweeps on
#: smaller integers, :mod:`pdpsym.loss.histogram_chain`) in :data:`BATCH` passes
REDUCED_PASSES = 4


def histogram_work(model: CountModel, n_targets: int, known: Sequence[str]) -> int:
    """An estimate of the steps of :func:`histogram_leakage`, from the model's shape.

    In the project's unit (a step is about a microsecond of CPU, :mod:`pdpsym.app.budget`).
    Per known assignment: the forward-backward on mixed-radix polynomials (``k^2 T``
    operations on ``T (T+1)^{k-2}`` coefficients, ``k^2 T degree passes / 240`` steps: one
    pass per :data:`BATCH` targets, or :data:`REDUCED_PASSES` for the checkpointed one of
    a one-matrix chain, :mod:`pdpsym.loss.histogram_chain`), and per computed target
    ``(k_c + v) (T+1)^k / 100`` steps: ``k_c`` float grids of ``(T+1)^k`` points (the laws
    not given by a relabelling, :func:`~pdpsym.loss.histogram_symmetry.relabellings`) with their exact laws, and the
    envelope: ``v = k`` passes of max and min over the grid, or ``v = 1`` on a chain with
    every relabelling (the sorted outputs only, :func:`~pdpsym.loss.histogram_symmetry.law_symmetric`). A
    reversal-symmetric chain with no known record computes half of its targets (the
    mirrors). Measured CPU seconds times ``10^6`` on all-target runs (``lambda = 4``, stay
    7/10; docs/benchmarks.md) against the estimate: chains moving uniformly (``k_c = v =
    1``, mirrored) 3 states and 200 records 1.7e7 (estimate 1.7e7), 4 and 50 3.9e6
    (5.1e6), 3 and 100 1.4e6 (1.2e6), 4 and 30 6.0e5 (5.1e5), 5 and 20 1.7e6 (2.4e6);
    chains moving unevenly (circulant: ``k_c = 1`` by the rotations, ``v = k``, mirrored
    by the reversal up to a relabelling) 3 and 100 1.6e6 (2.2e6), 4 and 30 8.1e5
    (9.2e5), 5 and 20 3.0e6 (4.0e6), 4 and 50 7.9e6 (1.0e7), 3 and 200 2.4e7 (3.4e7);
    chains with no symmetry (``k_c = k - 1``: the last law's floats by the complement of
    :mod:`pdpsym.loss.histogram_complement`; ``v = k``, every target; ``k - 1`` exact
    products each by the complement lemma) 3 and 100 3.4e6 (5.3e6), 4 and 30 1.4e6
    (2.2e6), 4 and 50 1.7e7 (2.5e7), 3 and 200 5.7e7 (8.2e7, at a load of 2 to 4); with
    two-digit prime denominators 3 and 100 5.1e6 (5.3e6), 4 and 30 2.1e6 (2.2e6): within
    1.6x.

    Args:
        model: a Markov chain or a product model.
        n_targets: the number of targets.
        known: the known records.

    Returns:
        The estimated number of steps (a budget unit, not a time).

    References:
        Li et al. (2019), Section V-D (the cost of computing the leakage).
    """
    k = len(histogram_states(model))
    T = record_count(model)
    degree = T * (T + 1) ** max(k - 2, 0) + 1
    computed = k - len(histogram_symmetry.relabellings(model, {})) if not known else k
    if computed == k and chain_of(model) is not None and network_of(model) is None:
        computed = k - 1  # the last law's floats by the complement (histogram_complement)
    n_eff = max(n_targets, 1)
    if not known and n_targets > 1 and histogram_symmetry.reversible(model):
        n_eff = -(-n_eff // 2)
    markov = chain_of(model)
    if markov is not None and network_of(model) is None and len(markov.matrices) == 1 and n_eff > 2:
        passes = REDUCED_PASSES  # one checkpointed forward-backward for every target
    else:
        passes = max(1, -(-n_targets // BATCH))
    per_pass = k * k * T * degree * passes // 8
    # the envelope: k passes of max and min over the grid, or gathers at the sorted
    # outputs only (about 1/k! of them) on a chain with every relabelling
    views = 1 if not known and histogram_symmetry.law_symmetric(model, {}) else k
    per_target = -(-(computed + views) * (T + 1) ** k // 100)
    return assignment_count(model, known) * (-(-per_pass // 30) + n_eff * per_target)


def histogram_laws(
    model: CountModel, targets: Sequence[str], assignment: dict[str, Fraction]
) -> Any:
    """Each target's laws of the histogram given each of its values and ``x_K``.

    Args:
        model: a Markov chain or a product model.
        targets: the target records.
        assignment: the known records' values.

    Yields:
        ``(target, {value: (counts, weights)})``: each value's support (int array of count
        vectors) and exact integer weights (proportional to the probabilities; absent
        when the value is incompatible with ``x_K``).

    References:
        Li et al. (2019), Section III, Eq. 2 (the conditional law of the query).
    """
    for name, laws, _ in _target_laws(model, targets, assignment):
        yield name, laws


def _target_laws(
    model: CountModel, targets: Sequence[str], assignment: dict[str, Fraction]
) -> Iterator[tuple[str, dict[Fraction, Any], histogram_complement.Total | None]]:
    """:func:`histogram_laws` with, per target, the every-value total when the last law
    was derived from it (the complement lemma), else None."""
    shadow, code, k, T = coded_by_bin(model)
    known = {name: code[Fraction(v)] for name, v in assignment.items()}
    if network_of(shadow) is not None:
        # one variable elimination per value (the network's own exact query law)
        for name in targets:
            laws: dict[Fraction, Any] = {}
            for value in model.domain(name):
                law = shadow.query_law(name, code[value], known)
                if law:
                    den = math.lcm(*(p.denominator for p in law.values()))
                    codes = sorted(law)
                    counts = histogram_grid.decode_counts([int(c) for c in codes], k, T + 1, T)
                    laws[value] = (counts, [int(law[c] * den) for c in codes])
            yield name, laws, None
        return
    # the codes of every count vector (n_1..n_{k-1} with sum <= T): the only degrees a
    # law's polynomial can use
    simplex = simplex_codes(k, T)
    all_counts = histogram_grid.decode_counts(simplex, k, T + 1, T)
    moves = histogram_symmetry.relabellings(model, assignment)
    values = list(code)
    markov = chain_of(shadow)
    contents = None
    if markov is not None and len(markov.matrices) == 1:
        # the row-content lemma: F B with each row's common factor taken out
        contents = histogram_products.RowContents(markov.matrices[0], T, simplex, all_counts)
    # the joint weights of (n, x_i = a) summed over a: the same for every target (the
    # complement lemma in the module docstring), kept once the first target has them all
    total: np.ndarray | None = None
    kept: histogram_complement.Total | None = None
    reduced = markov is not None and contents is not None and len(targets) > 2
    for name, factors in _factors(shadow, targets, known, contents if reduced else None):
        laws = {}
        complete = not moves and all(c in factors for c in code.values())
        derived = values[-1] if complete and total is not None else None
        direct: list[np.ndarray] = []
        for value, code_value in code.items():
            if code_value not in factors:
                continue
            perm = moves.get(value)
            if perm is not None and values[0] in laws:
                # the relabelling lemma: law a is law 0 with its bins permuted
                counts0, weights0 = laws[values[0]]
                laws[value] = (counts0[:, list(perm)], weights0)
                continue
            if value == derived:
                assert total is not None
                coeffs = total - _summed(direct)
                if (coeffs < 0).any():  # pragma: no cover - exact identity
                    raise ArithmeticError("the complement law has a negative weight")
            else:
                pair = list(factors[code_value])
                if reduced:
                    assert contents is not None
                    coeffs = contents.reduced_law(pair[0], pair[1])
                elif (
                    markov is not None
                    and contents is not None
                    and contents.active
                    and len(pair) == 2
                ):
                    at = values.index(value)
                    coeffs = contents.law(pair[0], pair[1], at, markov.index(name) + 1)
                else:
                    coeffs = np.array(
                        poly.coefficients_at(poly.product(pair), simplex), dtype=object
                    )
                direct.append(coeffs)
            nz = np.flatnonzero(coeffs != 0)
            if not len(nz):
                continue
            laws[value] = (all_counts[nz], coeffs[nz].tolist())
        if complete and total is None:
            total = _summed(direct)
            nz = np.flatnonzero(total != 0)
            kept = histogram_complement.Total((all_counts[nz], total[nz].tolist()))
        last = derived is not None and next(reversed(laws), None) == derived
        yield name, laws, kept if last else None


def _factors(
    shadow: CountModel,
    targets: Sequence[str],
    known: dict[str, Fraction],
    contents: histogram_products.RowContents | None,
) -> Iterator[tuple[str, dict[Fraction, tuple[Any, Any]]]]:
    """Each target's ``{code: (F, B)}``: with ``contents`` (a one-matrix chain), the
    reduced forward-backward's ``F~`` and ``B~`` (:mod:`pdpsym.loss.histogram_chain`,
    one checkpointed pass for every target), else the model's own in batches of
    :data:`BATCH` targets."""
    markov = chain_of(shadow)
    if contents is None or markov is None:
        for start in range(0, len(targets), BATCH):
            yield from shadow.target_factors(targets[start : start + BATCH], known)
        return
    d0 = math.lcm(*(p.denominator for p in markov.initial_law))
    init = [int(p * d0) for p in markov.initial_law]
    codes = [int(c) for c in markov.states]
    fixed = {markov.index(n): markov.states.index(v) for n, v in known.items()}
    by_pos: dict[int, list[str]] = {}
    for name in targets:
        by_pos.setdefault(markov.index(name), []).append(name)
    found: dict[str, dict[Fraction, tuple[Any, Any]]] = {}
    at = 0  # the targets are handed out in the caller's order, each as soon as it can be
    for t, pairs in histogram_chain.reduced_factors(
        init, contents.reduced, contents.terminal, codes, markov.length, sorted(by_pos), fixed
    ):
        for name in by_pos[t]:
            found[name] = dict(zip(markov.states, pairs, strict=True))
        while at < len(targets) and targets[at] in found:
            yield targets[at], found.pop(targets[at])
            at += 1


def _summed(arrays: Sequence[np.ndarray]) -> np.ndarray:
    """The elementwise sum of equal-length object arrays of Python ints (exact)."""
    out = arrays[0].copy()
    for a in arrays[1:]:
        out = out + a
    return out


def simplex_codes(k: int, T: int) -> list[int]:
    """The mixed-radix codes ``sum_{s >= 1} n_s (T+1)^(s-1)`` of every count vector of ``T``
    records over ``k`` bins (``n_1 + ... + n_{k-1} <= T``), increasing.

    Args:
        k: the number of bins, ``>= 1``.
        T: the number of records.

    Returns:
        The codes, ``binom(T + k - 1, k - 1)`` of them.

    References:
        Knuth, TAOCP vol. 2, Section 4.1 (mixed-radix numbers).

    Examples:
        >>> simplex_codes(3, 2)
        [0, 1, 2, 3, 4, 6]
    """
    if k <= 1:
        return [0]
    digits = np.indices((T + 1,) * (k - 1)).reshape(k - 1, -1)
    codes = ((T + 1) ** np.arange(k - 1)) @ digits
    return sorted(int(c) for c in codes[digits.sum(axis=0) <= T])


class LawCache:
    """The exact laws of an all-targets pass, kept for later passes on the same model and
    for one target's bisection (the laws do not depend on the noise's scale, and
    :func:`_target_laws` gives every target the same integers whichever targets it is
    asked for: one forward-backward for many, or one target's own products).

    A pass's laws are kept under its targets and known assignment, in its order (the
    complement's every-value total goes with the targets after the first, as computed).
    """

    def __init__(self) -> None:
        self._passes: dict[tuple[tuple[str, ...], tuple[Any, ...]], list[Any]] = {}

    def pass_laws(
        self, model: CountModel, targets: Sequence[str], assignment: dict[str, Fraction]
    ) -> list[tuple[str, dict[Fraction, Any], histogram_complement.Total | None]]:
        """Each target's laws as :func:`_target_laws` gives them, computed once.

        Args:
            model: the model (the same for every call on one cache).
            targets: the targets of the pass.
            assignment: the known records' values.

        Returns:
            ``[(target, {value: law}, total or None)]`` in the targets' order.

        References:
            Li et al. (2019), Section III, Eq. 2 (the conditional law of the query).
        """
        key = (tuple(targets), tuple(sorted(assignment.items())))
        if key not in self._passes:
            made = list(_target_laws(model, targets, assignment))
            # the supports repeat from target to target (often the whole simplex): one
            # read-only array for each distinct support, not one per law and target
            seen: dict[tuple[tuple[int, ...], int], np.ndarray] = {}
            for _, laws, _ in made:
                for value, (counts, weights) in laws.items():
                    twin = seen.setdefault((counts.shape, hash(counts.tobytes())), counts)
                    if twin is not counts and np.array_equal(twin, counts):
                        laws[value] = (twin, weights)
                    twin.flags.writeable = False
            self._passes[key] = made
        return self._passes[key]

    def target_laws(self, name: str, assignment: dict[str, Fraction]) -> dict[Fraction, Any] | None:
        """One target's laws from a pass already made (None when no pass had it).

        Args:
            name: the target.
            assignment: the known records' values.

        Returns:
            ``{value: law}`` as :func:`histogram_laws` yields it, or None.

        References:
            Li et al. (2019), Section III, Eq. 2.
        """
        fixed = tuple(sorted(assignment.items()))
        for (_, key), made in self._passes.items():
            if key == fixed:
                for target, laws, _ in made:
                    if target == name:
                        return laws
        return None


def histogram_leakage(
    model: CountModel,
    targets: Sequence[str],
    known: Sequence[str] = (),
    lam: Fraction | int = 1,
    *,
    digits: int = 15,
    on_target: Callable[[str], None] | None = None,
    alpha: Fraction | None = None,
    workspace: histogram_grid.Workspace | None = None,
    laws: LawCache | None = None,
) -> list[TargetLeakage]:
    """Eq. 2 for the histogram with noise of scale ``lam`` on every bin, every target.

    Args:
        model: a Markov chain or a product model.
        targets: the target records (none of them known).
        known: the records K the adversary knows (the max runs over their values).
        lam: the per-bin Laplace (or geometric) scale, ``> 0``.
        digits: the certified significant digits wanted.
        on_target: called once per target and known assignment (progress).
        alpha: two-sided geometric noise ``P(eta) ~ alpha^|eta|`` on every bin instead,
            ``0 < alpha < 1`` rational (``lam`` is then ignored).
        workspace: the float screen's arrays, to share with other calls (a calibration's
            passes and its bisected target: one set of grid-sized arrays); None: fresh.
        laws: the exact laws of earlier calls on the same model (:class:`LawCache`: they
            do not depend on ``lam``, so a calibration's passes compute them once); None:
            computed here and not kept.

    Returns:
        One :class:`~pdpsym.loss.leakage_result.TargetLeakage` per target, its value a
        certified enclosure.

    References:
        Li et al. (2019), Section IV-A, Eq. 2; Song, Wang, Chaudhuri (2017), Section 6
        (histograms of chains released with Laplace noise on every bin).

    Examples:
        Two independent fair coins: by hand the histogram ``(n_0, n_1)`` moves by one in
        each bin when ``x1`` flips, so the leakage is ``2/lambda`` (the count's at
        ``lambda/2``), here ``1``:

        >>> import pdpsym as ps
        >>> coins = ps.ProductModel([(["0", "1"], ["1/2", "1/2"])] * 2)
        >>> r = histogram_leakage(coins, ["x1"], lam=2, digits=10)[0]
        >>> r.value.as_json(10)["decimal"]
        '1.000000000'
    """
    lam = Fraction(lam)
    if lam <= 0:
        raise InputError("lam", f"must be > 0, got {fraction_str(lam)}")
    if alpha is not None and not 0 < alpha < 1:
        raise InputError("alpha", "must lie in (0, 1)")
    histogram_states(model)
    known = checked_known(model, targets, known)
    T = record_count(model)
    rate = 1 / lam
    lo: dict[str, Fraction] = {}
    hi: dict[str, Fraction] = {}
    sizes = independent_supports(model) if alpha is None else None
    if sizes is not None:
        # independent records: the target moves one count from bin b to bin a and the
        # rest of the histogram has one law either way, so the ratio is at most
        # e^{2/lambda}, attained (y_a >= T, y_b <= 0): Eq. 2 is 2/lambda exactly
        for name in targets:
            if on_target is not None:
                on_target(name)
        return [
            TargetLeakage(t, "ok", Enclosed(2 * rate, 2 * rate))
            if sizes[t] >= 2
            else TargetLeakage(t, "no-compatible-pair")
            for t in targets
        ]
    workspace = workspace or histogram_grid.Workspace()
    for assignment in known_assignments(model, known):
        stands = histogram_symmetry.mirrored_targets(model, targets, assignment)
        reps = [t for t in targets if t not in stands]
        found: dict[str, tuple[Fraction, Fraction] | None] = {}
        made = (
            _target_laws(model, reps, assignment)
            if laws is None
            else laws.pass_laws(model, reps, assignment)
        )
        for name, target_laws, kept in made:
            found[name] = histogram_grid.grid_sup(
                list(target_laws.values()),
                T,
                rate,
                digits,
                alpha,
                workspace,
                histogram_symmetry.law_perms(model, assignment, target_laws),
                symmetric=histogram_symmetry.law_symmetric(model, assignment),
                complement=kept,
            )
        for name in targets:
            res = found[stands.get(name, name)]
            if on_target is not None:
                on_target(name)
            if res is None:
                continue
            lo[name] = max(lo.get(name, res[0]), res[0])
            hi[name] = max(hi.get(name, res[1]), res[1])
    return [
        TargetLeakage(t, "ok", Enclosed(lo[t], hi[t]))
        if t in lo
        else TargetLeakage(t, "no-compatible-pair")
        for t in targets
    ]


__all__ = [
    "LawCache",
    "histogram_laws",
    "histogram_leakage",
    "histogram_states",
    "histogram_work",
    "simplex_codes",
]
