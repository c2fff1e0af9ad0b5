"""Bayesian networks over records: a DAG with conditional probability tables, exact.

A :class:`BayesianNetwork` is a list of nodes (the records); node ``v`` has finite states,
parents ``pa(v)`` and a conditional probability table ``P(v | pa(v))`` with one row per
configuration of its parents. The joint law is the chain rule
``theta(x) = prod_v P(x_v | x_pa(v))``; it is never listed (see :meth:`query_law`).

**State values.** A query sums rational values, so every state has one: when *every*
state name of a node is a number in the strict grammar of :mod:`pdpsym.core.numbers`
(``"0"``, ``"1"``, ``"2.5"``, ``"1/3"``), the states are those numbers; otherwise state
``j`` (in declared order) has value ``j`` (0, 1, 2, ...). JSON may give an explicit
``"values"`` list instead. The values of one node must be distinct.

**JSON** (numbers as strings, so that they stay exact): ``{"kind": "bayesian-network",
"nodes": [{"name", "states", "parents"?, "cpt", "values"?}, ...]}``; ``"cpt"`` lists one
row per parent configuration (``itertools.product`` order, the last parent fastest) or
maps comma-joined parent states to rows (:mod:`pdpsym.models.bayesnet_build` checks it).

**BIF** (the Bayesian Interchange Format of the bnlearn network repository) is read by a
small strict grammar of our own (:mod:`pdpsym.models.bayesnet_bif`, which says why and
gives the grammar); probabilities stay exact, errors name their line, and rows rounded
in the file are read only within an explicit ``tolerance``.

**Queries.** :meth:`BayesianNetwork.query_law` is exact variable elimination whose factor
entries are integer polynomials in ``z`` (the generating function of the weighted sum of
the records eliminated so far), in min-fill order on the moral graph; every target at
once is one junction-tree calibration over the same polynomials
(:mod:`pdpsym.models.bayesnet_jtree`). Induced width and work are known before anything
is computed, and work beyond ``max_work`` is refused by name.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from pdpsym.core import poly as intpoly
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str, parse_rational
from pdpsym.models.bayesnet_bif import parse_bif
from pdpsym.models.bayesnet_build import Node, ancestors, build_nodes, moral_graph
from pdpsym.models.bayesnet_elimination import Factor, Poly, convolve
from pdpsym.models.bayesnet_formats import parse_uai, parse_xmlbif, pgmpy_specs, to_pgmpy
from pdpsym.models.bayesnet_jtree import (
    CliqueTree,
    PFactor,
    all_marginals,
    clique_tree,
    min_fill,
)
from pdpsym.models.bayesnet_query import count_values, joint_table, sum_values
from pdpsym.models.bayesnet_supports import sparse_tree
from pdpsym.models.bayesnet_validate import markov_blanket_of
from pdpsym.models.counts import Contributions, TargetFactors, check_known, contributions
from pdpsym.models.joint import JointDistribution
from pdpsym.models.query_law import Known, QueryLaw, QueryWeights
from pdpsym.models.variables import NamedVariables

#: the default limit on the estimated elimination work (factor cells times possible sums)
DEFAULT_MAX_WORK = 50_000_000

#: the most rows :meth:`BayesianNetwork.to_joint` lists (product of the domain sizes)
DEFAULT_MAX_JOINT_ROWS = 1 << 18


@dataclass(frozen=True)
class EliminationPlan:
    """The elimination order of a query, its induced width and its estimated work."""

    order: tuple[str, ...]
    width: int
    work: int


@dataclass(frozen=True, eq=False)
class BayesianNetwork(NamedVariables):
    """A discrete Bayesian network with exact rational tables (see the module docstring).

    Build it with :meth:`from_json`, :meth:`from_bif` / :meth:`from_bif_text` or
    :meth:`from_nodes`, which validate; ``variables`` is the declaration order.

    Examples:
        >>> import pdpsym as ps
        >>> net = ps.BayesianNetwork.from_json({"kind": "bayesian-network", "nodes": [
        ...     {"name": "rain", "states": ["0", "1"], "cpt": ["4/5", "1/5"]},
        ...     {"name": "wet", "states": ["0", "1"], "parents": ["rain"],
        ...      "cpt": [["9/10", "1/10"], ["1/10", "9/10"]]}]})
        >>> net.variables
        ('rain', 'wet')
    """

    variables: tuple[str, ...]
    nodes: Mapping[str, Node]
    max_work: int = DEFAULT_MAX_WORK
    #: the rows read within a tolerance and divided by their sum: (field or line, |sum - 1|)
    renormalized: tuple[tuple[str, Fraction], ...] = field(default=(), compare=False)
    #: the query's per-state values (None: every record's state values; else the listed
    #: records' values, the others 0): see :meth:`count_query` and :meth:`sum_query`
    query_values: Mapping[str, tuple[Fraction, ...]] | None = field(default=None, compare=False)

    # --- constructors --------------------------------------------------------------

    @classmethod
    def from_nodes(
        cls,
        specs: Sequence[Mapping[str, Any]],
        max_work: int = DEFAULT_MAX_WORK,
        tolerance: Fraction | None = None,
    ) -> BayesianNetwork:
        """Build from node objects ``{"name", "states", "parents"?, "cpt", "values"?}``
        (the JSON schema of the module docstring); errors name ``nodes[k]...``.

        Args:
            specs: the node objects.
            max_work: the limit on the estimated work of one query.
            tolerance: None (the default) requires every table row to sum to exactly 1;
                a rational ``t`` reads a row whose sum ``s`` has ``|s - 1| <= t`` as the
                row divided by ``s`` exactly (for files whose rows were rounded, such as
                ``0.333333`` three times).
        """
        return _build([(f"nodes[{k}]", s) for k, s in enumerate(specs)], {}, max_work, tolerance)

    @classmethod
    def from_json(
        cls, obj: Any, max_work: int = DEFAULT_MAX_WORK, tolerance: Fraction | None = None
    ) -> BayesianNetwork:
        """The model file form ``{"kind": "bayesian-network", "nodes": [...]}`` (see
        :meth:`from_nodes` for ``max_work`` and ``tolerance``)."""
        if not isinstance(obj, Mapping):
            raise InputError("model", "expected a JSON object")
        kind = obj.get("kind", "bayesian-network")
        if kind != "bayesian-network":
            raise InputError("kind", f"expected 'bayesian-network', got {kind!r}")
        extra = set(obj) - {"kind", "nodes", "name", "description"}
        if extra:
            raise InputError(sorted(extra)[0], "unknown field in a bayesian-network model")
        nodes = obj.get("nodes")
        if not isinstance(nodes, list) or not nodes:
            raise InputError("nodes", "expected a non-empty list of node objects")
        return cls.from_nodes(nodes, max_work, tolerance)

    @classmethod
    def from_bif_text(
        cls, text: str, max_work: int = DEFAULT_MAX_WORK, tolerance: Fraction | None = None
    ) -> BayesianNetwork:
        """Parse BIF text (the grammar of the module docstring); errors name ``line N``
        (see :meth:`from_nodes` for ``max_work`` and ``tolerance``)."""
        specs, lines = parse_bif(text)
        return _build(specs, lines, max_work, tolerance)

    @classmethod
    def from_bif(
        cls, path: str | Path, max_work: int = DEFAULT_MAX_WORK, tolerance: Fraction | None = None
    ) -> BayesianNetwork:
        """Read a BIF file (UTF-8). See :meth:`from_bif_text`.

        >>> import pdpsym as ps
        >>> net = ps.BayesianNetwork.from_bif_text(
        ...     "variable a { type discrete [ 2 ] { 0, 1 }; }\\n"
        ...     "probability ( a ) { table 0.25, 0.75; }"
        ... )
        >>> net.query_law("a", Fraction(1), {})
        {Fraction(1, 1): Fraction(1, 1)}
        """
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise InputError("path", f"not UTF-8 text: {p}") from None
        except OSError as err:
            raise InputError("path", f"cannot read {p}: {err.strerror}") from None
        return cls.from_bif_text(text, max_work, tolerance)

    @classmethod
    def from_text(
        cls,
        text: str,
        kind: str,
        max_work: int = DEFAULT_MAX_WORK,
        tolerance: Fraction | None = None,
    ) -> BayesianNetwork:
        """Parse a network file's text: ``kind`` is ``"bif"``, ``"xmlbif"`` or ``"uai"``
        (:mod:`pdpsym.models.bayesnet_formats`); errors name ``line N``."""
        parsers = {"bif": parse_bif, "xmlbif": parse_xmlbif, "uai": parse_uai}
        if kind not in parsers:
            raise InputError("kind", f"expected one of {', '.join(parsers)}, got {kind!r}")
        specs, lines = parsers[kind](text)
        return _build(specs, lines, max_work, tolerance)

    @classmethod
    def from_pgmpy(
        cls,
        model: Any,
        max_work: int = DEFAULT_MAX_WORK,
        tolerance: Fraction | None = Fraction(1, 10**6),
    ) -> BayesianNetwork:
        """A pgmpy discrete Bayesian network, each float read exactly from its shortest
        decimal text (:mod:`pdpsym.models.bayesnet_formats` says where digits are lost);
        rows off 1 by at most ``tolerance`` are renormalized and listed."""
        return _build(pgmpy_specs(model), {}, max_work, tolerance)

    def to_pgmpy(self) -> Any:
        """This network as a pgmpy ``DiscreteBayesianNetwork`` (float64 tables; needs
        ``pip install 'pdpsym[pgmpy]'``)."""
        return to_pgmpy(self)

    # --- the StructuredModel protocol -------------------------------------------------

    def domain(self, name: str) -> tuple[Fraction, ...]:
        """The values of record ``name``, in state order."""
        self.index(name)
        return self.nodes[name].values

    def size_hint(self) -> int:
        """The estimated work of the unconditioned query with unit weights (the work
        unit of ``max_work``: factor cells times possible sums, summed over the steps)."""
        return self.plan({}, {v: 1 for v in self.variables}).work

    def query_law(
        self, target: str, value: Fraction, known: Known, weights: QueryWeights = None
    ) -> QueryLaw | None:
        """The exact law of ``f(x) = sum_k w_k x_k`` given ``x_target = value`` and
        ``x_K = known``, by variable elimination with a count accumulator.

        Args:
            target: the target record.
            value: its value (one of :meth:`domain`).
            known: the known records' values.
            weights: integer weight per record (default 1; a record missing from a given
                mapping has weight 1, as everywhere in the package).

        Returns:
            ``{f value: probability}`` (exact, summing to 1), or None when the event
            ``x_target = value, x_K = known`` has probability 0.

        Raises:
            InputError: unknown names or values (``target``, ``value``, ``known``,
                ``weights``), or an elimination whose estimated work exceeds
                ``max_work`` (the message names the induced width).

        References:
            Li et al., Sec. III, Eq. 2 (the conditional law of the query behind
            ``p(r | x_i, x_K)``); variable elimination: Zhang and Poole (1994).
        """
        self.index(target, "target")
        evidence = {target: self._state_of(target, value, "value")}
        for name, v in known.items():
            self.index(name, "known")
            if name == target:
                raise InputError("known", f"the target {name!r} cannot also be known")
            evidence[name] = self._state_of(name, v, f"known.{name}")
        w = self._weights(weights)
        return self._eliminate(evidence, w, self._bounded_plan(evidence, w))

    # --- elimination -------------------------------------------------------------------

    def _bounded_plan(
        self, evidence: Mapping[str, int], weights: Mapping[str, int]
    ) -> EliminationPlan:
        """:meth:`plan`, refused when its estimated work exceeds ``max_work``."""
        plan = self.plan(evidence, weights)
        if plan.work > self.max_work:
            raise InputError(
                "max_work",
                f"variable elimination has induced width {plan.width} and an estimated "
                f"work of {plan.work} units, over the limit {self.max_work}",
            )
        return plan

    def _state_of(self, name: str, value: Any, field: str) -> int:
        node = self.nodes[name]
        q = value if isinstance(value, Fraction) else parse_rational(value, field)
        try:
            return node.values.index(q)
        except ValueError:
            shown = ", ".join(fraction_str(x) for x in node.values)
            raise InputError(
                field, f"{fraction_str(q)} is not a value of {name!r} (values: {shown})"
            ) from None

    def _weights(self, weights: Mapping[str, int] | None) -> dict[str, int]:
        out = {v: 1 for v in self.variables}
        for name, wt in (weights or {}).items():
            self.index(name, "weights")
            if isinstance(wt, bool) or not isinstance(wt, int):
                raise InputError(f"weights.{name}", f"expected an integer, got {wt!r}")
            out[name] = wt
        return out

    def _scale(self, w: Mapping[str, int]) -> int:
        """The common denominator D of every ``w_k x_k``: the sums are integers / D."""
        return math.lcm(
            1, *((w[v] * x).denominator for v in self.variables for x in self._query(v))
        )

    def plan(self, evidence: Mapping[str, int], weights: Mapping[str, int]) -> EliminationPlan:
        """The min-fill elimination order of the unobserved records, its induced width
        and the estimated work (cells of each product factor times the number of sums it
        can carry), computed without building any factor.

        Args:
            evidence: the observed records (target and known), as state indices.
            weights: the integer weight of every record.

        Returns:
            The :class:`EliminationPlan` (order, induced width, work units).

        References:
            Min-fill: Kjaerulff (1990); Koller and Friedman, Sec. 9.4.3.
        """
        adj = moral_graph(self.nodes, self.variables, evidence, self.variables)
        D = self._scale(weights)
        spans = {
            v: (
                max(weights[v] * x for x in self._query(v))
                - min(weights[v] * x for x in self._query(v))
            )
            * D
            for v in adj
        }
        position = {v: k for k, v in enumerate(self.variables)}
        order, neighbours = min_fill(list(adj), adj, position)
        width = 0
        work = 0
        span_done = 0
        for v in order:
            nb = neighbours[v]
            width = max(width, len(nb))
            span_done += int(spans[v])
            cells = len(self.nodes[v].states) * math.prod(len(self.nodes[u].states) for u in nb)
            work += cells * (span_done + 1)
        return EliminationPlan(tuple(order), width, work)

    def _eliminate(
        self, evidence: Mapping[str, int], w: Mapping[str, int], plan: EliminationPlan
    ) -> dict[Fraction, Fraction] | None:
        D = self._scale(w)
        contrib = {v: [int(w[v] * x * D) for x in self._query(v)] for v in self.variables}
        offset = sum(contrib[v][s] for v, s in evidence.items())
        total = self._counts(evidence, contrib, plan, False)
        z = sum(total.values())
        if z == 0:
            return None
        return {Fraction(s + offset, D): Fraction(c, z) for s, c in sorted(total.items()) if c}

    def _counts(
        self,
        evidence: Mapping[str, int],
        shifts: Mapping[str, Sequence[int]],
        plan: EliminationPlan,
        shift_evidence: bool,
    ) -> Poly:
        """``sum -> weight`` proportional to ``P(S = sum, evidence)`` (every table scaled
        to integers), each record adding ``shifts[v][state]`` to ``S`` (the observed ones
        too when ``shift_evidence``)."""
        factors: list[Factor] = [
            self._factor(v, evidence, shifts[v], shift_evidence) for v in self.variables
        ]
        for v in plan.order:
            touching = [f for f in factors if v in f.scope]
            factors = [f for f in factors if v not in f.scope]
            product = touching[0]
            for f in touching[1:]:
                product = product.times(f)
            factors.append(product.sum_out(v))
        total: Poly = {0: 1}
        for f in factors:  # every scope is empty now
            total = convolve(total, f.table.get((), {}))
        return total

    # --- the CountModel protocol (pdpsym.models.counts) ---------------------------------

    @property
    def assignment_invariant(self) -> bool:
        """False: the known records' values change the law, not only shift it."""
        return False

    def contributions(self, weights: QueryWeights = None) -> Contributions:
        """The integer contributions of the query (:func:`pdpsym.models.counts.contributions`)."""
        return contributions(self.variables, [self._query(v) for v in self.variables], weights)

    def target_factors(
        self,
        targets: Sequence[str],
        known: Known,
        weights: QueryWeights = None,
        on_step: Callable[[int, int], None] | None = None,
    ) -> Iterator[tuple[str, TargetFactors]]:
        """For each target ``i`` and value ``a``, one integer polynomial ``J_{i,a}(z) =
        sum_c n_c z^c`` with ``n_c`` proportional to ``P(S = c, x_i = a, x_K = v)`` (the
        same factor, the product of the tables' scales, for every target and value).

        Every target at once, by one upward and one downward pass of the clique tree of
        the unobserved records (:mod:`pdpsym.models.bayesnet_jtree`); records that are
        neither ancestors of a target, a known record nor a record the query counts
        are barren and dropped first (their tables sum to their scale).

        Args:
            targets: the target records.
            known: the known records' values.
            weights: integer query weights (default 1).
            on_step: called as ``on_step(done, total)`` after each clique of the two
                passes (progress).

        Returns:
            ``(target, {value: (J,)})`` in the order of ``targets``.

        Raises:
            InputError: unknown names or values, or a clique tree whose estimated work
                exceeds ``max_work`` (the message names the induced width).

        References:
            Li et al., Sec. III, Eq. 2; Shafer and Shenoy (1990) and Aji and McEliece
            (2000) for the junction tree over a semiring.
        """
        contrib = self.contributions(weights)
        shifts = dict(zip(self.variables, contrib.table, strict=True))
        kv = check_known(self.variables, {v: self.nodes[v].values for v in self.variables}, known)
        observed = {k: self.nodes[k].values.index(x) for k, x in kv.items()}
        for t in targets:
            self.index(t, "targets")
            if t in kv:
                raise InputError("known", f"the target {t!r} cannot also be known")
        counted = [v for v in self.variables if any(shifts[v])]
        keep = ancestors(self.nodes, [*targets, *kv, *counted])
        tree = self.clique_tree(observed, keep, contrib.span)
        factors: list[PFactor] = []
        for v in self.variables:
            if v not in keep:
                continue
            f = self._factor(v, observed, shifts[v], True)
            factors.append(
                (
                    f.scope,
                    {k: intpoly.monomial(c, d) for k, p in f.table.items() for d, c in p.items()},
                )
            )
        barren = math.prod(self._den(v) for v in self.variables if v not in keep)
        if barren != 1:
            factors.append(((), {(): intpoly.monomial(barren, 0)}))
        free_targets = [t for t in dict.fromkeys(targets)]
        steps = [0, 2 * len(tree.order)]

        def step() -> None:
            steps[0] += 1
            if on_step is not None:
                on_step(steps[0], steps[1])

        laws = all_marginals(tree, factors, free_targets, step)
        for t in targets:
            law = laws.get(t, {})
            yield t, {a: (law.get(s, intpoly.zero()),) for s, a in enumerate(self.nodes[t].values)}

    def clique_tree(
        self, evidence: Mapping[str, int], keep: Iterable[str] | None = None, span: int = 0
    ) -> CliqueTree:
        """The clique tree of the unobserved records of ``keep`` (default all), refused
        when its estimated work exceeds ``max_work``.

        Args:
            evidence: the observed records (state indices).
            keep: the records to include (the others are barren).
            span: the query's span in count units.

        Returns:
            The :class:`~pdpsym.models.bayesnet_jtree.CliqueTree`.

        Raises:
            InputError: ``max_work``, naming the induced width and the estimate.

        References:
            Koller and Friedman, Sec. 10.4.1.
        """
        kept = self.variables if keep is None else keep
        adj = moral_graph(self.nodes, self.variables, evidence, kept)
        position = {v: k for k, v in enumerate(self.variables)}
        sizes = {v: len(self.nodes[v].states) for v in adj}
        bits = sum(self._den(v).bit_length() for v in kept)
        dense = clique_tree(list(adj), adj, position, sizes, span, bits)
        tree = sparse_tree(dense, self.nodes, evidence, kept)
        if tree.work > self.max_work:
            raise InputError(
                "max_work",
                f"the junction tree has induced width {tree.width} and an estimated work "
                f"of {tree.work:.2e} units, over the limit {self.max_work:.2e}",
            )
        return tree

    def targets_work(
        self,
        known: Sequence[str] = (),
        weights: QueryWeights = None,
        targets: Sequence[str] | None = None,
    ) -> CliqueTree:
        """The clique tree of :meth:`target_factors` given that ``known`` are observed
        (its width and work, for a caller's limit), without the ``max_work`` check.

        Args:
            known: the known records (any values: the shape does not depend on them).
            weights: integer query weights (default 1).
            targets: the targets (default: every record); the barren records of
                :meth:`target_factors` are left out as it leaves them out.

        Returns:
            The :class:`~pdpsym.models.bayesnet_jtree.CliqueTree`.
        """
        contrib = self.contributions(weights)
        kept: Iterable[str] = self.variables
        if targets is not None:
            counted = [v for v, row in zip(self.variables, contrib.table, strict=True) if any(row)]
            needed = ancestors(self.nodes, [*targets, *known, *counted])  # once, not per record
            kept = [v for v in self.variables if v in needed]
        evidence = dict.fromkeys(known, 0)
        adj = moral_graph(self.nodes, self.variables, evidence, kept)
        position = {v: k for k, v in enumerate(self.variables)}
        sizes = {v: len(self.nodes[v].states) for v in adj}
        bits = sum(self._den(v).bit_length() for v in kept)
        tree = clique_tree(list(adj), adj, position, sizes, contrib.span, bits)
        return sparse_tree(tree, self.nodes, {k: -1 for k in known}, kept)

    def count_query(self, names: Sequence[str], state: str) -> BayesianNetwork:
        """This network with the query ``f(x) = #{v in names : x_v = state}`` (``state``
        by name); see :mod:`pdpsym.models.bayesnet_query`."""
        return dataclasses.replace(self, query_values=count_values(self.nodes, names, state))

    def sum_query(self, names: Sequence[str]) -> BayesianNetwork:
        """This network with the query ``f(x) = sum_{v in names} value(x_v)`` (the other
        records count 0); see :mod:`pdpsym.models.bayesnet_query`."""
        return dataclasses.replace(self, query_values=sum_values(self.nodes, names))

    def state_query(self) -> BayesianNetwork:
        """This network with the default query (the sum of the records' state values)."""
        return self if self.query_values is None else dataclasses.replace(self, query_values=None)

    def _query(self, v: str) -> tuple[Fraction, ...]:
        """Record ``v``'s per-state values in the query."""
        if self.query_values is None:
            return self.nodes[v].values
        q = self.query_values.get(v)
        return q if q is not None else (Fraction(0),) * len(self.nodes[v].states)

    def _den(self, v: str) -> int:
        """The integer scale of ``v``'s table (the lcm of its denominators)."""
        return math.lcm(*(p.denominator for row in self.nodes[v].cpt.values() for p in row))

    def dependence_groups(self) -> list[tuple[str, ...]]:
        """The connected components of the network's skeleton (records in different
        components are independent), in declaration order."""
        groups: list[set[str]] = []
        for v in self.variables:
            family = {v, *self.nodes[v].parents}
            linked = [g for g in groups if g & family]
            groups = [g for g in groups if not g & family] + [family.union(*linked)]
        first = {v: k for k, v in enumerate(self.variables)}
        groups.sort(key=lambda g: min(first[v] for v in g))
        return [tuple(v for v in self.variables if v in g) for g in groups]

    def _factor(
        self,
        v: str,
        evidence: Mapping[str, int],
        contrib: Sequence[int],
        shift_evidence: bool = False,
    ) -> Factor:
        node = self.nodes[v]
        family = (*node.parents, v)
        scope = tuple(u for u in family if u not in evidence)
        den = self._den(v)
        table: dict[tuple[int, ...], Poly] = {}
        for config, row in node.cpt.items():
            for s, p in enumerate(row):
                if p == 0:
                    continue
                full = (*config, s)
                if any(evidence.get(u, k) != k for u, k in zip(family, full, strict=True)):
                    continue
                key = tuple(k for u, k in zip(family, full, strict=True) if u not in evidence)
                shift = 0 if v in evidence and not shift_evidence else contrib[s]
                table[key] = {shift: int(p * den)}
        return Factor(scope, table)

    def markov_blanket(self, name: str) -> tuple[str, ...]:
        """Parents, children and children's other parents of ``name`` (declaration order)."""
        self.index(name, "target")
        return markov_blanket_of({v: self.nodes[v].parents for v in self.variables}, name)

    def to_joint(self, max_rows: int = DEFAULT_MAX_JOINT_ROWS) -> JointDistribution:
        """The full joint table by the chain rule (for cross-checks on small networks).

        Args:
            max_rows: the most rows (product of the domain sizes) to list.

        Returns:
            The :class:`~pdpsym.models.joint.JointDistribution` of the network, over
            ``variables`` with the states' values as domains.

        Raises:
            InputError: ``max_rows`` when the product of the domain sizes exceeds it.
        """
        return joint_table(self.variables, self.nodes, max_rows)

    def ancestral(self, names: Iterable[str]) -> BayesianNetwork:
        """The sub-network on ``names`` and all their ancestors: a Bayesian network with
        the same tables whose law is the marginal of this one on those records.

        Args:
            names: records of this network.

        Returns:
            The ancestral sub-network, in this network's declaration order.
        """
        keep: set[str] = set()
        stack = list(names)
        while stack:
            v = stack.pop()
            self.index(v, "names")
            if v not in keep:
                keep.add(v)
                stack.extend(self.nodes[v].parents)
        kept = tuple(v for v in self.variables if v in keep)
        qv = self.query_values
        query = None if qv is None else {v: q for v, q in qv.items() if v in keep}
        return BayesianNetwork(kept, {v: self.nodes[v] for v in kept}, self.max_work, (), query)

    def __repr__(self) -> str:
        return f"BayesianNetwork(nodes={len(self.variables)})"


def _build(
    specs: Sequence[tuple[str, Any]],
    lines: Mapping[str, str],
    max_work: int,
    tolerance: Fraction | None = None,
) -> BayesianNetwork:
    """Validate node specs into a network (:func:`~pdpsym.models.bayesnet_build.build_nodes`)."""
    if isinstance(max_work, bool) or not isinstance(max_work, int) or max_work < 1:
        raise InputError("max_work", f"must be a positive integer, got {max_work!r}")
    built = build_nodes(specs, lines, tolerance)
    return BayesianNetwork(built.order, built.nodes, max_work, built.renormalized)


__all__ = ["DEFAULT_MAX_WORK", "BayesianNetwork", "EliminationPlan"]
