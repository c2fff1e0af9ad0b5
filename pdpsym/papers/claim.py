"""The claims registry: one checker per catalogue id, each returning a computed verdict.

A verdict is never typed in. Each checker computes: it runs a symbolic proof, an
exhaustive search over a stated finite class, or N generated cases, and reports
``proved``, ``supported``, ``refuted`` (with an exact minimal counterexample),
``erratum`` (printed text fails, a stated correction holds) or ``unresolved``. Ids from
the catalogue that have no checker yet are reported ``unresolved`` with the evidence
"not yet checked".
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from pdpsym.papers.catalogue import CATALOGUE

VERDICTS = ("proved", "supported", "refuted", "erratum", "unresolved")


@dataclass
class ClaimResult:
    """A verdict with its evidence: how it was shown, over which class, how many cases."""

    id: str
    verdict: str
    evidence: str
    reading: str | None = None
    method: str = ""
    cases: int | None = None
    counterexample: dict[str, Any] | None = None
    details: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {self.verdict!r}")
        if self.verdict in ("refuted", "erratum") and self.counterexample is None:
            raise ValueError(f"{self.id}: a {self.verdict} verdict needs a counterexample")

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "verdict": self.verdict,
            "reading": self.reading,
            "evidence": self.evidence,
            "counterexample": self.counterexample
            if self.verdict in ("refuted", "erratum")
            else None,
            "method": self.method,
            "cases": self.cases,
            "details": self.details,
            "seconds": round(self.seconds, 3),
        }


@dataclass(frozen=True)
class RunConfig:
    """How hard a checker works: ``thorough`` raises case counts; ``seed`` fixes generators."""

    thorough: bool = False
    seed: int = 20191
    progress: Callable[[str], None] | None = None

    def count(self, default: int, thorough: int) -> int:
        return thorough if self.thorough else default


Checker = Callable[[RunConfig], ClaimResult]

_CHECKERS: dict[str, Checker] = {}


def checker(claim_id: str) -> Callable[[Checker], Checker]:
    """Register ``fn`` as the checker of ``claim_id`` (which must be in the catalogue)."""

    def register(fn: Checker) -> Checker:
        if claim_id not in CATALOGUE:
            raise KeyError(f"{claim_id} is not in the claims catalogue")
        if claim_id in _CHECKERS:
            raise KeyError(f"{claim_id} already has a checker")
        _CHECKERS[claim_id] = fn
        return fn

    return register


def has_checker(claim_id: str) -> bool:
    return claim_id in _CHECKERS


def run_claim(claim_id: str, config: RunConfig) -> ClaimResult:
    """Run one checker. A checker that crashes is reported, not hidden."""
    if claim_id not in CATALOGUE:
        raise KeyError(claim_id)
    start = time.perf_counter()
    fn = _CHECKERS.get(claim_id)
    if fn is None:
        result = ClaimResult(claim_id, "unresolved", "not yet checked", method="none")
    else:
        try:
            result = fn(config)
        except Exception as exc:  # a checker bug must surface as such, not as a verdict
            tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
            result = ClaimResult(claim_id, "unresolved", f"checker error: {tb}", method="error")
    result.seconds = time.perf_counter() - start
    if result.id != claim_id:
        raise RuntimeError(f"checker for {claim_id} returned a result for {result.id}")
    return result


def select(ids: Iterable[str] = (), paper: str | None = None) -> list[str]:
    """Catalogue ids in catalogue order, filtered by explicit ids and/or paper."""
    wanted = list(ids)
    out = [cid for cid in CATALOGUE if (paper is None or cid.split(".")[0] == paper)]
    if wanted:
        out = [cid for cid in out if cid in wanted]
    return out
