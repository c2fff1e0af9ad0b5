"""Every privacy notion the audit knows, one class each, in one registry.

A notion says two things: **which pairs** of conditional output laws it compares
(:class:`Pairs`) and **how** it compares them (:class:`Compare`). The engines of
:mod:`pdpsym.audit` (finite tables, Laplace noise on a table, the structured models,
randomized response on chains and networks) build one kind of pair each way they can
and never ask a notion's name: they ask its pairs, its comparison and the readings it
shows. Adding a notion whose pairs an engine already builds is one class here.

Notation: ``i`` the target record, ``B`` (Li et al.'s ``K``) the known records and
``v`` a value of them, ``M`` the mechanism, ``D_{i→b}`` the database ``D`` with record
``i`` set to ``b``.

References:
    Desfontaines et al. (2020), Definitions 3-6, 12, 13 and Theorem 1; Li et al.
    (2019), Eq. 2; Liu et al. (2016), Definition 4 and Eq. 11-12; Mironov (2017),
    "Rényi Differential Privacy", Definitions 3-4 and Table 2.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any, ClassVar

import sympy

from pdpsym.core.errors import InputError
from pdpsym.loss.renyi import laplace_renyi, sup_renyi
from pdpsym.models.neighbours import DDPReading


class Pairs(Enum):
    """Which pairs of conditional output laws a notion compares."""

    #: ``M(D)`` against ``M(D_{i→b})`` over the product of the domains (θ plays no part)
    NEIGHBOURS = "neighbours"
    #: the output law given ``D(i) = a, B = v`` against the one given ``D(i) = b, B = v``
    GIVEN_KNOWN = "given-known"
    #: the same pairs weighted by ``P[B = v | D(i) = a]`` (a ``v`` impossible under
    #: ``b`` counts in full)
    WEIGHTED_KNOWN = "weighted-known"
    #: the output law given ``a, v`` against that of ``D_{i→b}`` given ``a, v``, both ways
    CHANGED = "changed"
    #: the posteriors of ``D(i)`` given the output of ``D`` and of ``D_{i→b}``, both ways
    CHANGED_POSTERIORS = "changed-posteriors"
    #: the output law given ``B = v`` and ``D(i) = a`` against the best simulator's
    SIMULATED = "simulated"
    #: dependent neighbouring databases, or (Eq. 11-12) the laws given ``D(i) = a`` and
    #: ``D(i) = b`` alone, as the reading of Liu et al.'s Definition 4 says
    DEPENDENT = "dependent"


class Compare(Enum):
    """How a notion compares each pair."""

    #: the hockey-stick divergence δ(ε) of the two output laws, and their largest ratio
    #: at δ = 0 (Desfontaines et al. Lemma 1)
    HOCKEY_STICK = "hockey-stick"
    #: the hockey stick (and ratio) of two posterior laws of the target, over the outputs
    POSTERIOR = "posterior"
    #: the best simulator, decided by exact linear programmes
    SIMULATOR_LP = "simulator LP"
    #: Rényi's divergence of order α of the two output laws, its sup over the pairs
    #: (Mironov 2017, Definitions 3-4); δ(ε) does not apply
    RENYI = "renyi"


#: the label of the notions that change ``D(i)`` to every value of its declared domain
WHOLE_DOMAIN = "b ranges over the whole declared domain of the target"


@dataclass(frozen=True)
class TableWork:
    """The work of one finite-table audit's notion, by kind of walk (steps of about a
    microsecond; :func:`pdpsym.app.audit_work.check_work` computes them).

    Args:
        exact: every case built exactly.
        screened: randomized response ranked in floats first (:mod:`pdpsym.audit.screen`).
        lp: the simulator LPs of a distributional notion.
        cells: the rows of the table.
        randomized_response: whether the mechanism is randomized response.
    """

    exact: int
    screened: int
    lp: int
    cells: int
    randomized_response: bool


class Notion:
    """One privacy notion: its name, its pairs, its comparison and the readings shown.

    Subclasses set the class attributes; the engines read them.
    """

    #: the notion's name, as asked for and reported
    name: ClassVar[str]
    #: which pairs of conditional output laws it compares
    pairs: ClassVar[Pairs]
    #: how it compares each pair
    compare: ClassVar[Compare] = Compare.HOCKEY_STICK
    #: computed unless the notions are named (False: asked for by name, or with "all")
    default: ClassVar[bool] = True
    #: one of the notions "all" names (False: asked for by name only)
    in_all: ClassVar[bool] = True
    #: the reading of the definition shown with the figures (None: none)
    reading: ClassVar[str | None] = None
    #: ε at δ = 0 equals APKDP's (Desfontaines et al. Theorem 1), shown with this label
    apk_at_zero: ClassVar[str | None] = None
    #: whether Liu et al.'s reading of Definition 4 chooses the pairs
    uses_reading: ClassVar[bool] = False

    def label(self, ddp_reading: DDPReading) -> str | None:
        """The reading shown with the figures.

        Args:
            ddp_reading: the reading of Liu et al.'s Definition 4 asked for.

        Returns:
            The label, or None.
        """
        return ddp_reading.value if self.uses_reading else self.reading

    @property
    def eq2_at_zero(self) -> bool:
        """Whether, under Laplace noise, ε at δ = 0 is Li et al.'s Eq. 2 leakage of
        ``A(i, B)``: the hockey stick of the output laws given the known records' values
        (APKDP's pairs, NP's; PPKDP's weighted pairs have the same ε at δ = 0,
        Desfontaines et al. Theorem 1)."""
        return self.compare is Compare.HOCKEY_STICK and self.pairs in (
            Pairs.GIVEN_KNOWN,
            Pairs.WEIGHTED_KNOWN,
        )

    @property
    def directions(self) -> int:
        """How many ordered pairs each unordered case gives (2: both directions)."""
        return 2 if self.pairs in (Pairs.CHANGED, Pairs.CHANGED_POSTERIORS) else 1

    @property
    def over_outputs(self) -> bool:
        """Whether the notion compares something other than two output laws (posteriors
        or simulators): under Laplace noise it holds ``e^(span/λ)`` exactly."""
        return self.compare in (Compare.POSTERIOR, Compare.SIMULATOR_LP)

    def table_work(self, w: TableWork) -> int:
        """The estimated work of this notion on a finite table.

        Args:
            w: the walks' figures.

        Returns:
            Steps of about a microsecond.
        """
        if w.randomized_response and self.pairs in SCREENED_PAIRS:
            return w.screened
        if self.pairs is Pairs.DEPENDENT:  # the dependent neighbours: about cells/4 more
            return w.exact * (w.cells // 4 + 1)
        if self.compare is Compare.SIMULATOR_LP:
            return w.exact + w.lp
        return w.exact

    def sup_of_pairs(
        self,
        pairs: Iterable[tuple[Mapping[str, Any], Mapping[Any, Any], Mapping[Any, Any]]],
        order: Fraction,
    ) -> tuple[Any, Mapping[str, Any] | None]:
        """For a notion that compares single pairs by its own divergence
        (:attr:`Compare.RENYI`): the sup over finite pairs of output laws.

        Args:
            pairs: ``(where, P, Q)`` for every pair the notion compares.
            order: the notion's order (α).

        Returns:
            ``(value, where)``.

        Raises:
            InputError: ``notions``, for a notion that does not compare this way.
        """
        raise InputError("notions", f"{self.name} is not a divergence of single pairs")

    def sup_of_laplace(self, sensitivity: Fraction, lam: Fraction, order: Fraction) -> Any:
        """For a notion that compares single pairs by its own divergence: the sup over
        its pairs of Laplace noise of scale ``lam`` on a query of that ``sensitivity``.

        Args:
            sensitivity: the query's sensitivity ``Δ_i`` to the target.
            lam: the Laplace scale λ.
            order: the notion's order (α).

        Returns:
            The exact value.

        Raises:
            InputError: ``notions``, for a notion that does not compare this way.
        """
        raise InputError("notions", f"{self.name} is not a divergence of single pairs")

    def __repr__(self) -> str:
        return f"<notion {self.name}>"


#: the pairs whose cases randomized response ranks in floats first (:mod:`pdpsym.audit.screen`)
SCREENED_PAIRS = (Pairs.NEIGHBOURS, Pairs.GIVEN_KNOWN, Pairs.WEIGHTED_KNOWN, Pairs.CHANGED)


class DP(Notion):
    """Classic DP for record ``i`` (Desfontaines et al. Section 2.1; Dwork et al.)."""

    name = "dp"
    pairs = Pairs.NEIGHBOURS


class APKDP(Notion):
    """Active partial-knowledge DP (Desfontaines et al. Definition 12)."""

    name = "apkdp"
    pairs = Pairs.GIVEN_KNOWN


class PPKDP(Notion):
    """Passive partial-knowledge DP (Desfontaines et al. Definition 13)."""

    name = "ppkdp"
    pairs = Pairs.WEIGHTED_KNOWN
    reading = "a known value impossible under b counts in full (infinite PLRV)"
    apk_at_zero = "delta = 0: APKDP and PPKDP coincide (Theorem 1)"


class NP(Notion):
    """Noiseless privacy (Desfontaines et al. Definition 3): for one θ, APKDP's pairs."""

    name = "np"
    pairs = Pairs.GIVEN_KNOWN
    reading = "for a single θ, Definition 3 compares the same pairs as APKDP"


class CDP(Notion):
    """Causal DP (Desfontaines et al. Definition 5)."""

    name = "cdp"
    pairs = Pairs.CHANGED
    reading = WHOLE_DOMAIN


class IBCDP(Notion):
    """Inference-based causal DP (Desfontaines et al. Definition 6)."""

    name = "ibcdp"
    pairs = Pairs.CHANGED_POSTERIORS
    compare = Compare.POSTERIOR
    reading = WHOLE_DOMAIN


class DependentDP(Notion):
    """Dependent DP (Liu et al. Definition 4), in the reading asked for."""

    name = "dependent-dp"
    pairs = Pairs.DEPENDENT
    uses_reading = True


class DistributionalDP(Notion):
    """Distributional DP (Desfontaines et al. Definition 4): the best simulator; it
    solves LPs, so it is asked for by name (or with "all")."""

    name = "distributional-dp"
    pairs = Pairs.SIMULATED
    compare = Compare.SIMULATOR_LP
    default = False
    reading = "Definition 4 of Desfontaines et al. (not Liu et al.'s dependent DP)"


class RenyiDP(Notion):
    """Rényi DP of order α (Mironov 2017, Definition 4) on classic DP's pairs: ε(α) is the
    sup over ``M(D)`` against ``M(D_{i→b})`` of Rényi's divergence ``D_α(P || Q) =
    1/(α-1) ln E_Q[(P/Q)^α]`` (Definition 3). It reports ε only; asked for by name."""

    name = "renyi-dp"
    pairs = Pairs.NEIGHBOURS
    compare = Compare.RENYI
    default = False
    in_all = False
    reading = "sup over dp's pairs of the Renyi divergence of order alpha; no delta(epsilon)"

    def sup_of_laplace(self, sensitivity: Fraction, lam: Fraction, order: Fraction) -> Any:
        """ε(α) of Laplace noise on a linear query: ``D_α`` of two Laplace laws at the sensitivity.

        Args:
            sensitivity: the query's sensitivity ``Δ_i`` to the target.
            lam: the Laplace scale λ.
            order: α, above 1.

        Returns:
            The exact value.

        References:
            Mironov (2017), Table 2 and Definition 4.
        """
        return laplace_renyi(sensitivity, lam, order)

    def sup_of_pairs(
        self,
        pairs: Iterable[tuple[Mapping[str, Any], Mapping[Any, Any], Mapping[Any, Any]]],
        order: Fraction,
    ) -> tuple[sympy.Expr, Mapping[str, Any] | None]:
        """The sup of ``D_α`` over the pairs, every comparison decided.

        Args:
            pairs: ``(where, P, Q)``, the pairs of classic DP.
            order: α.

        Returns:
            ``(ε(α), where)``, as :func:`pdpsym.loss.renyi.sup_renyi`.

        References:
            Mironov (2017), Definition 4.
        """
        return sup_renyi(pairs, order)


def order(alpha: Any) -> Fraction:
    """The order α of an order-dependent notion (Rényi DP), refused unless above 1.

    Args:
        alpha: the order (a Fraction or an int).

    Returns:
        α as a Fraction.

    Raises:
        InputError: ``alpha``, unless it is a rational above 1.

    References:
        Mironov (2017), Definition 4 (α > 1).
    """
    try:
        a = Fraction(alpha)
    except (TypeError, ValueError, ZeroDivisionError):
        raise InputError("alpha", f"not a rational number: {alpha!r}") from None
    if a <= 1:
        raise InputError("alpha", "must be > 1 (Renyi DP of order alpha)")
    return a


#: every notion, in the order the audit reports them by default
REGISTRY: tuple[Notion, ...] = (
    DP(),
    APKDP(),
    PPKDP(),
    NP(),
    CDP(),
    IBCDP(),
    DependentDP(),
    DistributionalDP(),
    RenyiDP(),
)

_BY_NAME = {n.name: n for n in REGISTRY}

#: the notions computed unless the notions are named
NOTIONS: tuple[str, ...] = tuple(n.name for n in REGISTRY if n.default)

#: every notion "all" names
ALL_NOTIONS: tuple[str, ...] = tuple(n.name for n in REGISTRY if n.in_all)

#: every notion's name, those asked for by name only included
NAMED_NOTIONS: tuple[str, ...] = tuple(n.name for n in REGISTRY)


def notion(name: str) -> Notion:
    """The notion of that name.

    Args:
        name: one of :data:`ALL_NOTIONS`.

    Returns:
        Its :class:`Notion`.

    Raises:
        InputError: ``notions``, for an unknown name.

    References:
        Desfontaines et al. (2020), Definitions 3-6, 12, 13; Liu et al. (2016),
        Definition 4.
    """
    try:
        return _BY_NAME[name]
    except KeyError:
        raise InputError(
            "notions", f"unknown notion {name!r}; known: {', '.join(NAMED_NOTIONS)}"
        ) from None


def first_with(pairs: Pairs) -> Notion:
    """The first registered notion that compares ``pairs`` (e.g. the notion whose cases
    Liu et al.'s Eq. 11 reading reuses with nothing known).

    Args:
        pairs: the kind of pairs.

    Returns:
        The notion.

    References:
        Liu et al. (2016), Eq. 11-12; Desfontaines et al. (2020), Definition 12.
    """
    return next(n for n in REGISTRY if n.pairs is pairs)


def delta_over_lambda(sensitivity: Any, lam: Any) -> tuple[sympy.Expr, dict[str, Any]]:
    """Classic DP's ε of Laplace noise of scale ``λ``: ``Δ_i / λ``, with its witness.

    Args:
        sensitivity: the query's sensitivity ``Δ_i`` to the target (a Fraction).
        lam: the Laplace scale ``λ`` (a Fraction).

    Returns:
        ``(Δ_i / λ, {"sensitivity": Δ_i})``.

    References:
        Dwork et al. (2006), the Laplace mechanism; Li et al. (2019), Section IV-A.
    """
    value = sympy.Rational(sensitivity.numerator, sensitivity.denominator) / sympy.Rational(
        lam.numerator, lam.denominator
    )
    return value, {"sensitivity": sensitivity}


__all__ = [
    "ALL_NOTIONS",
    "NAMED_NOTIONS",
    "NOTIONS",
    "REGISTRY",
    "SCREENED_PAIRS",
    "WHOLE_DOMAIN",
    "Compare",
    "Notion",
    "Pairs",
    "RenyiDP",
    "TableWork",
    "delta_over_lambda",
    "first_with",
    "notion",
    "order",
]
