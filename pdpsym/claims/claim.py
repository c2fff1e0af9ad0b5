"""How a claim is checked: a Property (cases and a law), never a hand-built verdict.

A checker is a function ``(config) -> Property`` registered with :func:`checker` under a
catalogue id. It states *what* is checked; :mod:`pdpsym.verify.runner` does the rest:
it seeds, enumerates or draws the cases, counts them, stops at the first failure,
encodes the counterexample as JSON and turns the outcome into a :class:`Verdict`.

The kinds of Property:

* :class:`ForAll` -- a law over every case of a class. ``Exhaustive`` states a finite
  class (every case is run); ``Generated`` draws ``count`` seeded cases. All holding
  gives ``verdict`` (``supported`` unless the class is complete for the claim, when a
  checker may say ``proved``).
* :class:`Symbolic` -- a sympy proof; it holds when it returns ``True``.
* :class:`AllOf` -- every part must hold (a proof plus its exhaustive side-conditions).
* :class:`Erratum` -- the printed statement and its correction. The printed one failing
  while the correction holds is an ``erratum``; both failing is ``refuted`` (with the
  correction's counterexample); the printed one holding gives that property's verdict.

A law returns ``True``/``None`` when a case holds, and ``False`` or a
:class:`Counterexample` (the facts that show the failure, as plain objects: the runner
encodes Fractions, sympy values, models and tuples) when it fails. It may raise
:class:`Unresolved` when the case cannot be decided.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from pdpsym.claims.catalogue import CATALOGUE


class Verdict(StrEnum):
    """The computed verdict of a claim."""

    PROVED = "proved"
    SUPPORTED = "supported"
    REFUTED = "refuted"
    ERRATUM = "erratum"
    UNRESOLVED = "unresolved"


class Method(StrEnum):
    """How a verdict was reached."""

    SYMBOLIC = "symbolic"
    EXHAUSTIVE = "exhaustive"
    GENERATED = "generated"
    EXACT_INSTANCE = "exact-instance"
    EXHAUSTIVE_GENERATED = "exhaustive+generated"
    SYMBOLIC_EXHAUSTIVE = "symbolic+exhaustive"
    ERROR = "error"
    NONE = "none"


class Counterexample(dict[str, Any]):
    """The facts of a failing case, as plain objects (the runner encodes them)."""


class Unresolved(Exception):
    """A case that cannot be decided (the verdict becomes ``unresolved`` with this reason)."""


@dataclass(frozen=True)
class RunConfig:
    """How hard a checker works: ``thorough`` raises case counts; ``seed`` fixes generators."""

    thorough: bool = False
    seed: int = 20191
    progress: Callable[[str], None] | None = None

    def count(self, default: int, thorough: int) -> int:
        """The number of cases to run: ``thorough`` when the run is thorough, else ``default``."""
        return thorough if self.thorough else default

    def rng(self, salt: int = 0) -> random.Random:
        """The seeded generator of one checker (``salt`` keeps checkers independent)."""
        return random.Random(self.seed * 1000 + salt)


Law = Callable[[Any], object]

# Evidence: a plain string, or a function of the number of cases checked.
Evidence = str | Callable[[int | None], str]


@dataclass(frozen=True)
class ForAll:
    """``law(case)`` holds for every case in ``cases(config)``."""

    law: Law
    cases: Callable[[RunConfig], Iterable[Any]]
    method: Method = Method.EXHAUSTIVE
    holds: Evidence = ""
    fails: Evidence = "the law fails on a case"
    verdict: Verdict = Verdict.SUPPORTED
    reading: str | None = None
    encode: Callable[[Any], Any] | None = None
    details: Callable[[], dict[str, Any]] | None = None


def Exhaustive(law: Law, cases: Callable[[RunConfig], Iterable[Any]], **kw: Any) -> ForAll:
    """Every case of a stated finite class (enumerated smallest first, so the first
    failure is a minimal one).

    Args:
        law: the law of one case; returns ``True``/``None`` when it holds, ``False`` or a
            :class:`Counterexample` when it fails, or raises :class:`Unresolved`.
        cases: the enumeration of the class, given the run's :class:`RunConfig`; it
            should yield the smallest cases first.
        **kw: the other fields of :class:`ForAll` (``holds``, ``fails``, ``verdict``,
            ``reading``, ``encode``, ``details``, and ``method``, which defaults to
            ``Method.EXHAUSTIVE``).

    Returns:
        The :class:`ForAll` property (the runner, not this function, runs it).

    References:
        Claessen and Hughes, "QuickCheck" (ICFP 2000), for the law-over-cases form of a
        property; each checker's own docstring names the paper's claim.
    """
    return ForAll(law, cases, method=kw.pop("method", Method.EXHAUSTIVE), **kw)


def Generated(
    law: Law,
    draw: Callable[[random.Random], Any],
    count: tuple[int, int],
    salt: int = 0,
    **kw: Any,
) -> ForAll:
    """``count`` (default, thorough) cases drawn by ``draw(rng)`` from a seeded generator.

    Args:
        law: the law of one case (as for :func:`Exhaustive`).
        draw: draws one case from the seeded ``random.Random`` it is given.
        count: the number of cases, as ``(default, thorough)``.
        salt: keeps this property's stream apart from other checkers' (see
            :meth:`RunConfig.rng`).
        **kw: the other fields of :class:`ForAll` (``method`` defaults to
            ``Method.GENERATED``).

    Returns:
        The :class:`ForAll` property whose cases are the ``count`` seeded draws.

    References:
        Claessen and Hughes, "QuickCheck" (ICFP 2000), for random testing of a law;
        Python docs, random (the seeded Mersenne Twister).
    """

    def cases(config: RunConfig) -> Iterator[Any]:
        rng = config.rng(salt)
        for _ in range(config.count(*count)):
            yield draw(rng)

    return ForAll(law, cases, method=kw.pop("method", Method.GENERATED), **kw)


@dataclass(frozen=True)
class Symbolic:
    """A symbolic proof: ``proof()`` returns True, or a Counterexample when it fails."""

    proof: Callable[[], object]
    holds: Evidence
    fails: Evidence = "the symbolic derivation fails"
    reading: str | None = None
    cases: int | None = None
    details: Callable[[], dict[str, Any]] | None = None


@dataclass(frozen=True)
class AllOf:
    """Every part holds. The verdict is the weakest part's; the method joins the parts'."""

    parts: tuple[Property, ...]
    holds: Evidence = ""
    reading: str | None = None
    method: Method | None = None


@dataclass(frozen=True)
class Erratum:
    """The printed statement (expected to fail) and its correction (expected to hold)."""

    printed: Property
    corrected: Property
    holds: Evidence = ""
    reading: str | None = None
    method: Method | None = None


Property = ForAll | Symbolic | AllOf | Erratum

Checker = Callable[[RunConfig], Property]

CHECKERS: dict[str, Checker] = {}


def checker(claim_id: str) -> Callable[[Checker], Checker]:
    """Register ``fn`` as the checker of ``claim_id`` (which must be in the catalogue).

    Every checker has this one signature, documented here once rather than on each
    checker: it takes the run's :class:`RunConfig` (``thorough`` raises the case counts,
    ``seed`` fixes the generators) and returns the claim's :class:`Property` (a symbolic
    proof, an exhaustive class, generated cases or a counterexample search, whose kind
    is the verdict's method). A checker's own docstring says what it checks and cites
    the claim.

    Args:
        claim_id: the catalogue id (``"li2019.thm2"``); a ``KeyError`` is raised at
            registration when it is not in the catalogue or already has a checker.

    Returns:
        A decorator that records the decorated ``(config) -> Property`` function in
        ``CHECKERS`` and returns it unchanged.

    References:
        The claims catalogue, :mod:`pdpsym.claims.catalogue` (each id names its paper's
        theorem, lemma or equation).
    """

    def register(fn: Checker) -> Checker:
        if claim_id not in CATALOGUE:
            raise KeyError(f"{claim_id} is not in the claims catalogue")
        if claim_id in CHECKERS:
            raise KeyError(f"{claim_id} already has a checker")
        CHECKERS[claim_id] = fn
        return fn

    return register


@dataclass
class Tally:
    """Counts of outcomes a law records while it runs (reported as ``details``)."""

    counts: dict[str, int] = field(default_factory=dict)

    def add(self, key: str, k: int = 1) -> None:
        """Add ``k`` (default 1) to the count of ``key``."""
        self.counts[key] = self.counts.get(key, 0) + k

    def __getitem__(self, key: str) -> int:
        return self.counts.get(key, 0)
