"""Claims: the catalogue, the registry, and the checker modules (one per paper part).

Importing this package imports every checker module listed in ``CHECKER_MODULES`` so
that their ``@checker`` registrations take effect.
"""

from __future__ import annotations

import importlib

from pdpsym.papers.catalogue import CATALOGUE, PAPERS
from pdpsym.papers.claim import ClaimResult, RunConfig, checker, run_claim, select

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

__all__ = ["CATALOGUE", "PAPERS", "ClaimResult", "RunConfig", "checker", "run_claim", "select"]
