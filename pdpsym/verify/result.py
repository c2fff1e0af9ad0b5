"""The verdict of one claim, as the runner reports it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pdpsym.claims.claim import Method, Verdict


@dataclass(frozen=True)
class ClaimResult:
    """A computed verdict with its evidence: how it was shown, over which class, how many
    cases, and (for ``refuted`` and ``erratum``) an exact counterexample.

    Examples:
        >>> import pdpsym as ps
        >>> r = ps.verify("li2019.thm4")
        >>> r.verdict.value, r.method.value
        ('erratum', 'exhaustive')
    """

    id: str
    verdict: Verdict
    evidence: str
    reading: str | None = None
    method: Method = Method.NONE
    cases: int | None = None
    counterexample: dict[str, Any] | None = None
    details: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if self.verdict in (Verdict.REFUTED, Verdict.ERRATUM) and self.counterexample is None:
            raise ValueError(f"{self.id}: a {self.verdict} verdict needs a counterexample")

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "verdict": self.verdict.value,
            "reading": self.reading,
            "evidence": self.evidence,
            "counterexample": self.counterexample,
            "method": self.method.value,
            "cases": self.cases,
            "details": self.details,
            "seconds": round(self.seconds, 3),
        }
