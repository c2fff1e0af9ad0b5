"""Claims: the catalogue, the registry, and the checker modules (one per paper part).

Importing this package imports every checker module listed in ``CHECKER_MODULES`` so
that their ``@checker`` registrations take effect.
"""

from __future__ import annotations

import importlib

from pdpsym.claims.catalogue import CATALOGUE, PAPERS
from pdpsym.claims.registry import ClaimResult, RunConfig, checker, run_claim, select

CHECKER_MODULES: tuple[str, ...] = (
    "pdpsym.claims.dmkb2020_general",
    "pdpsym.claims.dmkb2020_section4",
    "pdpsym.claims.li2019",
    "pdpsym.claims.li2019_whg",
    "pdpsym.claims.lmm2016",
    "pdpsym.claims.li2019_gaussian",
)

for _name in CHECKER_MODULES:
    importlib.import_module(_name)

__all__ = ["CATALOGUE", "PAPERS", "ClaimResult", "RunConfig", "checker", "run_claim", "select"]
