"""Verification: run each catalogued claim's Property and report its verdict.

Importing this package imports every paper's checker module so that their
``@checker`` registrations take effect.
"""

from __future__ import annotations

import importlib

from pdpsym.papers.catalogue import CATALOGUE, PAPERS
from pdpsym.papers.claim import Method, RunConfig, Verdict
from pdpsym.verify.result import ClaimResult
from pdpsym.verify.runner import evaluate, run_claim, select

CHECKER_MODULES: tuple[str, ...] = (
    "pdpsym.papers.dmkb2020.claims",
    "pdpsym.papers.dmkb2020.claims_section4",
    "pdpsym.papers.li2019.claims",
    "pdpsym.papers.li2019.claims_whg",
    "pdpsym.papers.lmm2016.claims",
    "pdpsym.papers.li2019.claims_gaussian",
)

for _name in CHECKER_MODULES:
    importlib.import_module(_name)

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
]
