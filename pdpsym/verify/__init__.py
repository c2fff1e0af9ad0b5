"""Verification: run each catalogued claim's Property and report its verdict.

Importing this package imports every paper's checker module so that their
``@checker`` registrations take effect.
"""

from __future__ import annotations

import sys
import types

import pdpsym.papers.dmkb2020.claims_section2  # noqa: F401  (registers its checkers)
import pdpsym.papers.dmkb2020.claims_section3  # noqa: F401  (registers its checkers)
import pdpsym.papers.dmkb2020.claims_section4_counting  # noqa: F401  (registers its checkers)
import pdpsym.papers.dmkb2020.claims_section4_kanonymity  # noqa: F401  (registers its checkers)
import pdpsym.papers.dmkb2020.claims_section4_thresholding  # noqa: F401  (registers its checkers)
import pdpsym.papers.dmkb2020.claims_section5  # noqa: F401  (registers its checkers)
import pdpsym.papers.li2019.claims  # noqa: F401  (registers its checkers)
import pdpsym.papers.li2019.claims_edges  # noqa: F401  (registers its checkers)
import pdpsym.papers.li2019.claims_gaussian  # noqa: F401  (registers its checkers)
import pdpsym.papers.li2019.claims_sec7  # noqa: F401  (registers its checkers)
import pdpsym.papers.li2019.claims_whg  # noqa: F401  (registers its checkers)
import pdpsym.papers.lmm2016.claims  # noqa: F401  (registers its checkers)
from pdpsym.claims.catalogue import CATALOGUE, PAPERS
from pdpsym.claims.claim import Method, RunConfig, Verdict
from pdpsym.core.errors import InputError
from pdpsym.verify.result import ClaimResult
from pdpsym.verify.runner import evaluate, run_claim, select


def verify_claims(
    claim_id: str | None = None, *, thorough: bool = False, seed: int = 20191
) -> ClaimResult | list[ClaimResult]:
    """One claim's result, or every claim's in catalogue order (``pdpsym.verify``)."""
    config = RunConfig(thorough=thorough, seed=seed)
    if claim_id is None:
        return [run_claim(cid, config) for cid in select()]
    if claim_id not in CATALOGUE:
        raise InputError("claim_id", f"unknown claim id {claim_id!r}")
    return run_claim(claim_id, config)


class _CallableModule(types.ModuleType):
    """Importing this subpackage rebinds ``pdpsym.verify`` to it; calling it keeps the
    public ``pdpsym.verify(claim_id)`` working either way."""

    def __call__(
        self, claim_id: str | None = None, *, thorough: bool = False, seed: int = 20191
    ) -> ClaimResult | list[ClaimResult]:
        return verify_claims(claim_id, thorough=thorough, seed=seed)


sys.modules[__name__].__class__ = _CallableModule

__all__ = [
    "CATALOGUE",
    "PAPERS",
    "ClaimResult",
    "Method",
    "RunConfig",
    "Verdict",
    "evaluate",
    "run_claim",
    "select",
    "verify_claims",
]
