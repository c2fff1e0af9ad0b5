"""Checking an implementation's answers against the oracle's regression vectors
(:mod:`pdpsym.app.oracle`), exactly.

**Answer file**: ``{"answers": [{"id": ..., "value": <number, decimal string or null>}]}``,
one entry per case. JSON numbers are read as the exact decimal they spell (so ``repr`` of
a float64 is checked as that float up to half an ulp, and a long decimal string is checked
at its full precision); ``NaN``/``Infinity`` are accepted and fail.

**Decision.** An answer ``a`` to a case with enclosure ``[lo, hi]`` is within tolerance of
a point ``v`` when ``|a - v| <= max(rel_tol |v|, abs_tol)``. The points ``v`` that pass form
an interval around ``a`` (``rel_tol < 1``), so it suffices to test the two ends exactly:
both within tolerance -> *pass* (the exact value is certainly within tolerance); the
widened interval misses ``[lo, hi]`` entirely -> *fail*; otherwise *undecided* (the
tolerance boundary falls inside the enclosure: re-export with more digits). A
no-compatible-pair case passes only with a null answer.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

from pdpsym.app.help import FORMAT
from pdpsym.app.oracle import NULL_STATUSES, JsonNumber, VectorCase, parse_cases, read_oracle_json
from pdpsym.app.tables import render
from pdpsym.core.decimals import format_decimal, round_significant
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str, parse_rational

DEFAULT_REL_TOL = Fraction(1, 10**9)
DEFAULT_ABS_TOL = Fraction(1, 10**12)

Outcome = Literal["pass", "fail", "undecided"]


def load_answers(path: str | Path) -> dict[str, Any]:
    """Read an answer file into ``{id: raw value}``; ids must be strings and unique."""
    obj = read_oracle_json(path, "ANSWERS")
    if not isinstance(obj, dict) or "answers" not in obj:
        raise InputError("ANSWERS answers", 'missing: expected {"answers": [...]}')
    entries = obj["answers"]
    if not isinstance(entries, list):
        raise InputError("ANSWERS answers", "expected a list")
    out: dict[str, Any] = {}
    for j, entry in enumerate(entries):
        where = f"ANSWERS answers[{j}]"
        if not isinstance(entry, dict):
            raise InputError(where, 'expected an object {"id", "value"}')
        if "id" not in entry:
            raise InputError(f"{where}.id", "missing")
        if "value" not in entry:
            raise InputError(f"{where}.value", "missing (use null for no-compatible-pair)")
        cid = entry["id"]
        if not isinstance(cid, str) or isinstance(cid, JsonNumber):
            raise InputError(f"{where}.id", f"expected a string, got {cid!r}")
        if cid in out:
            raise InputError(f"{where}.id", f"duplicate id {cid!r}")
        _answer_value(entry["value"], f"{where}.value")  # reject malformed values up front
        out[cid] = entry["value"]
    return out


@dataclass(frozen=True)
class _NonFinite:
    text: str


def _answer_value(raw: Any, where: str) -> Fraction | _NonFinite | None:
    """An answer as an exact rational (None = null; NaN/inf kept so that they fail)."""
    if raw is None:
        return None
    if isinstance(raw, bool):
        raise InputError(where, f"expected a number, a decimal string or null, got {raw!r}")
    if isinstance(raw, float):
        if not math.isfinite(raw):
            return _NonFinite(repr(raw))
        return Fraction(raw)  # a float is a binary rational: exact
    if isinstance(raw, int | Fraction | str):
        return parse_rational(raw, where)
    raise InputError(where, f"expected a number, a decimal string or null, got {raw!r}")


def _answer_text(raw: Any) -> str:
    if raw is None:
        return "null"
    if isinstance(raw, Fraction):
        return fraction_str(raw)
    return str(raw) if isinstance(raw, str) else repr(raw)


def short_decimal(q: Fraction) -> str:
    """Shortest exact decimal text of ``q`` (``1e-9``), or ``p/q`` when none has <= 17 digits."""
    if q == 0:
        return "0"
    m, e = round_significant(q, 17)
    if Fraction(m) * Fraction(10) ** e != q:
        return fraction_str(q)
    while m % 10 == 0:
        m, e = m // 10, e + 1
    return format_decimal(m, e)


def _within(a: Fraction, v: Fraction, rel_tol: Fraction, abs_tol: Fraction) -> bool:
    return abs(a - v) <= max(rel_tol * abs(v), abs_tol)


@dataclass(frozen=True)
class CaseCheck:
    """The verdict on one answer."""

    id: str
    outcome: Outcome
    status: str
    expected: str
    answer: str
    reason: str

    def as_json(self) -> dict[str, Any]:
        out = asdict(self)
        for key in ("expected", "answer"):  # the JSON null travels as the text "null"
            out[key] = None if out[key] == "null" else out[key]
        return out


@dataclass
class CheckReport:
    """Every case's verdict, with the tolerances used."""

    rel_tol: Fraction
    abs_tol: Fraction
    checks: list[CaseCheck] = field(default_factory=list)

    def count(self, outcome: Outcome) -> int:
        return sum(1 for c in self.checks if c.outcome == outcome)

    @property
    def ok(self) -> bool:
        return all(c.outcome == "pass" for c in self.checks)

    @property
    def failures(self) -> list[CaseCheck]:
        """The cases that did not pass (failed or undecided), in file order."""
        return [c for c in self.checks if c.outcome != "pass"]

    def as_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "cases": len(self.checks),
            "passed": self.count("pass"),
            "failed": self.count("fail"),
            "undecided": self.count("undecided"),
            "rel_tol": short_decimal(self.rel_tol),
            "abs_tol": short_decimal(self.abs_tol),
            "failures": [c.as_json() for c in self.failures],
        }

    def markdown(self) -> str:
        tol = f"rel_tol {short_decimal(self.rel_tol)}, abs_tol {short_decimal(self.abs_tol)}"
        n, passed = len(self.checks), self.count("pass")
        if self.ok:
            return f"oracle check: all {n} cases pass ({tol})\n"
        caption = (
            f"oracle check: {passed} of {n} cases pass, {self.count('fail')} fail, "
            f"{self.count('undecided')} undecided ({tol})"
        )
        headers = ["id", "outcome", "expected", "answer", "reason"]
        rows = [[c.id, c.outcome, c.expected, c.answer, c.reason] for c in self.failures]
        return render(headers, rows, "md", caption=caption)


def check_vectors(
    vectors: Mapping[str, Any],
    answers: Mapping[str, Any],
    rel_tol: Fraction = DEFAULT_REL_TOL,
    abs_tol: Fraction = DEFAULT_ABS_TOL,
) -> CheckReport:
    """Check ``answers`` (``{id: float | decimal string | None}``) against the vectors.

    Every case needs an answer and every answer a case (else :class:`InputError`). The
    decision is exact (see the module docstring): pass, fail, or undecided when the
    tolerance boundary falls inside the certified enclosure.
    """
    rel_tol, abs_tol = Fraction(rel_tol), Fraction(abs_tol)
    if not 0 <= rel_tol < 1:
        raise InputError("--rel-tol", f"must be >= 0 and < 1, got {short_decimal(rel_tol)}")
    if abs_tol < 0:
        raise InputError("--abs-tol", f"must be >= 0, got {short_decimal(abs_tol)}")
    cases = parse_cases(vectors)
    ids = {c.id for c in cases}
    missing = [c.id for c in cases if c.id not in answers]
    if missing:
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        raise InputError("ANSWERS answers", f"no answer for case id {missing[0]!r}{more}")
    extra = [a for a in answers if a not in ids]
    if extra:
        raise InputError("ANSWERS answers", f"unknown case id {extra[0]!r}")
    report = CheckReport(rel_tol, abs_tol)
    for case in cases:
        raw = answers[case.id]
        a = _answer_value(raw, f"ANSWERS {case.id}")
        report.checks.append(_check_one(case, a, _answer_text(raw), rel_tol, abs_tol))
    return report


def _check_one(
    case: VectorCase,
    a: Fraction | _NonFinite | None,
    text: str,
    rel_tol: Fraction,
    abs_tol: Fraction,
) -> CaseCheck:
    def verdict(outcome: Outcome, reason: str) -> CaseCheck:
        return CaseCheck(case.id, outcome, case.status, case.decimal or "null", text, reason)

    if case.status in NULL_STATUSES:
        if a is None:
            return verdict("pass", "")
        if case.status == "infinite":
            return verdict("fail", "expected null: the exact value is infinite")
        return verdict("fail", "expected null: no x_K is compatible with two target values")
    if a is None:
        return verdict("fail", "expected a number, got null")
    if isinstance(a, _NonFinite):
        return verdict("fail", "not a finite number")
    assert case.lo is not None and case.hi is not None
    lo_ok = _within(a, case.lo, rel_tol, abs_tol)
    hi_ok = _within(a, case.hi, rel_tol, abs_tol)
    if lo_ok and hi_ok:
        return verdict("pass", "")
    inside = case.lo <= a <= case.hi
    if lo_ok or hi_ok or inside:
        return verdict(
            "undecided",
            "the tolerance boundary falls inside the enclosure; re-export with more --digits",
        )
    dist = case.lo - a if a < case.lo else a - case.hi
    return verdict("fail", f"outside tolerance: {short_decimal_approx(dist)} from the enclosure")


def short_decimal_approx(q: Fraction) -> str:
    """``q`` to 3 significant digits (display only; the decision was exact)."""
    m, e = round_significant(q, 3)
    return "~" + format_decimal(m, e)


__all__ = [
    "DEFAULT_ABS_TOL",
    "DEFAULT_REL_TOL",
    "CaseCheck",
    "CheckReport",
    "check_vectors",
    "load_answers",
    "short_decimal",
    "short_decimal_approx",
]
