"""Every theorem, lemma, proposition and corollary of the catalogue has its function.

For each catalogue label naming a Theorem/Lemma/Proposition/Corollary N, the paper
package's ``LABELS`` holds that key, and the function is named for it (``theorem4_...``,
``lemma2_...``, ``prop7_...`` or ``proposition7...``, ``cor1_...`` or ``corollary1_...``).
"""

from __future__ import annotations

import importlib
import re

import pytest

from pdpsym.claims.catalogue import CATALOGUE

KINDS = {
    "Theorem": ("theorem",),
    "Lemma": ("lemma",),
    "Proposition": ("prop", "proposition"),
    "Corollary": ("cor", "corollary"),
}
LABEL = re.compile(r"\b(Theorem|Lemma|Proposition|Corollary) (\d+)")
REQUIRED = sorted(
    {
        (cid.split(".")[0], m.group(0))
        for cid, c in CATALOGUE.items()
        for m in LABEL.finditer(c.label)
    }
)


def test_the_catalogue_names_results() -> None:
    assert len(REQUIRED) == 34  # 11 li2019, 18 dmkb2020, 5 lmm2016


@pytest.mark.parametrize(("paper", "label"), REQUIRED, ids=[f"{p}:{lab}" for p, lab in REQUIRED])
def test_every_label_has_its_function_named_for_it(paper: str, label: str) -> None:
    labels = importlib.import_module(f"pdpsym.papers.{paper}").LABELS
    assert label in labels, f"{paper}.LABELS has no {label!r}"
    fn, claim_id = labels[label]
    kind, number = label.split()
    name = fn.__name__
    assert any(
        name == f"{stem}{number}" or name.startswith((f"{stem}{number}_",)) for stem in KINDS[kind]
    ), f"{label} maps to {name}, not a function named for it"
    assert callable(fn) and fn.__doc__, name
    assert claim_id in CATALOGUE and claim_id.startswith(paper + ".")
