"""The one runner: turns a checker's Property into a verdict with its evidence.

It enumerates or draws the cases, counts them, keeps the first failure (the smallest
one, for classes enumerated smallest first), encodes it, and times the whole check. A
checker that crashes is reported as ``unresolved`` with the error, never hidden.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from pdpsym.claims.catalogue import CATALOGUE
from pdpsym.claims.claim import (
    CHECKERS,
    AllOf,
    Counterexample,
    Erratum,
    ForAll,
    Method,
    Property,
    RunConfig,
    Symbolic,
    Unresolved,
    Verdict,
)
from pdpsym.core.parallel import ordered_map
from pdpsym.verify.encode import encode
from pdpsym.verify.result import ClaimResult


@dataclass
class Outcome:
    """What running one Property showed."""

    verdict: Verdict
    method: Method
    evidence: str
    cases: int | None = None
    counterexample: dict[str, Any] | None = None
    reading: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def holds(self) -> bool:
        return self.verdict in (Verdict.PROVED, Verdict.SUPPORTED)


def _failure(result: object, case: Any, encoder: Any) -> dict[str, Any] | None:
    """None if the law held on the case, else the encoded counterexample."""
    if result is None or result is True:
        return None
    if isinstance(result, Counterexample):
        return encode(dict(result))
    if result is False:
        return encode(encoder(case) if encoder is not None else case)
    raise TypeError(f"a law returned {type(result).__name__}; expected bool or Counterexample")


def _text(text: str | Callable[[int | None], str], cases: int | None) -> str:
    """Evidence is a plain string, or a function of the number of cases checked."""
    return text(cases) if callable(text) else text


def _run_forall(prop: ForAll, config: RunConfig) -> Outcome:
    n, bad = 0, None
    try:
        for case in prop.cases(config):
            n += 1
            bad = _failure(prop.law(case), case, prop.encode)
            if bad is not None:
                break
    except Unresolved as why:
        return Outcome(Verdict.UNRESOLVED, prop.method, str(why), n, None, prop.reading)
    verdict, text = (prop.verdict, prop.holds) if bad is None else (Verdict.REFUTED, prop.fails)
    details = prop.details() if prop.details else {}
    return Outcome(verdict, prop.method, _text(text, n), n, bad, prop.reading, details)


def _run_symbolic(prop: Symbolic) -> Outcome:
    try:
        bad = _failure(prop.proof(), None, None)
    except Unresolved as why:
        return Outcome(Verdict.UNRESOLVED, Method.SYMBOLIC, str(why), prop.cases)
    details = prop.details() if prop.details else {}
    verdict, text = (Verdict.PROVED, prop.holds) if bad is None else (Verdict.REFUTED, prop.fails)
    return Outcome(
        verdict, Method.SYMBOLIC, _text(text, prop.cases), prop.cases, bad, prop.reading, details
    )


_RANK = {Verdict.PROVED: 0, Verdict.SUPPORTED: 1, Verdict.UNRESOLVED: 2}


def _joined(methods: Iterable[Method]) -> Method:
    seen = list(dict.fromkeys(methods))
    if len(seen) == 1:
        return seen[0]
    return Method("+".join(m.value for m in seen))


def _sum_cases(outs: list[Outcome]) -> int | None:
    counts = [o.cases for o in outs if o.cases is not None]
    return sum(counts) if counts else None


def _run_all(prop: AllOf, config: RunConfig) -> Outcome:
    outs: list[Outcome] = []
    for part in prop.parts:
        out = evaluate(part, config)
        outs.append(out)
        if not out.holds:
            return replace(out, cases=_sum_cases(outs), method=prop.method or out.method)
    verdict = max((o.verdict for o in outs), key=lambda v: _RANK[v])
    details: dict[str, Any] = {}
    for o in outs:
        details.update(o.details)
    evidence = (
        _text(prop.holds, _sum_cases(outs)) if prop.holds else "; ".join(o.evidence for o in outs)
    )
    return Outcome(
        verdict,
        prop.method or _joined(o.method for o in outs),
        evidence,
        _sum_cases(outs),
        None,
        prop.reading or next((o.reading for o in outs if o.reading), None),
        details,
    )


def _run_erratum(prop: Erratum, config: RunConfig) -> Outcome:
    printed = evaluate(prop.printed, config)
    method = prop.method or printed.method
    reading = prop.reading or printed.reading
    if printed.holds:
        return replace(printed, method=method, reading=reading)
    if printed.verdict is Verdict.UNRESOLVED:
        return printed
    corrected = evaluate(prop.corrected, config)
    cases = _sum_cases([printed, corrected])
    details = {**printed.details, **corrected.details}
    if corrected.holds:
        evidence = (
            _text(prop.holds, cases) if prop.holds else f"{printed.evidence}; {corrected.evidence}"
        )
        return Outcome(
            Verdict.ERRATUM, method, evidence, cases, printed.counterexample, reading, details
        )
    return replace(corrected, cases=cases, method=method, reading=reading)


def evaluate(prop: Property, config: RunConfig) -> Outcome:
    """Run one Property."""
    if isinstance(prop, ForAll):
        return _run_forall(prop, config)
    if isinstance(prop, Symbolic):
        return _run_symbolic(prop)
    if isinstance(prop, AllOf):
        return _run_all(prop, config)
    if isinstance(prop, Erratum):
        return _run_erratum(prop, config)
    raise TypeError(f"not a Property: {type(prop).__name__}")


def run_claim(claim_id: str, config: RunConfig | None = None) -> ClaimResult:
    """Run the checker of one catalogue id and return its verdict and evidence."""
    if claim_id not in CATALOGUE:
        raise KeyError(claim_id)
    config = config or RunConfig()
    start = time.perf_counter()
    fn = CHECKERS.get(claim_id)
    if fn is None:
        out = Outcome(Verdict.UNRESOLVED, Method.NONE, "not yet checked")
    else:
        try:
            out = evaluate(fn(config), config)
        except Exception as exc:  # a checker bug must surface as such, not as a verdict
            tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
            out = Outcome(Verdict.UNRESOLVED, Method.ERROR, f"checker error: {tb}")
    return ClaimResult(
        id=claim_id,
        verdict=out.verdict,
        evidence=out.evidence,
        reading=out.reading,
        method=out.method,
        cases=out.cases,
        counterexample=out.counterexample
        if out.verdict in (Verdict.REFUTED, Verdict.ERRATUM)
        else None,
        details=encode(out.details),
        seconds=time.perf_counter() - start,
    )


def select(ids: Iterable[str] = (), paper: str | None = None) -> list[str]:
    """Catalogue ids in catalogue order, filtered by explicit ids and/or paper."""
    wanted = list(ids)
    out = [cid for cid in CATALOGUE if (paper is None or cid.split(".")[0] == paper)]
    if wanted:
        out = [cid for cid in out if cid in wanted]
    return out


def _run_one(args: tuple[str, RunConfig]) -> ClaimResult:
    return run_claim(*args)


def run_claims(
    ids: Iterable[str],
    config: RunConfig | None = None,
    jobs: int = 1,
    on_done: Callable[[str], None] | None = None,
    scheduler: str | None = None,
) -> list[ClaimResult]:
    """Run several claims, on ``jobs`` processes or a Dask ``scheduler``
    (:func:`pdpsym.core.parallel.ordered_map`); results come back in the order of ``ids``.

    Each checker is seeded from ``config`` alone, so the verdicts do not depend on
    ``jobs``, the scheduler, or the order in which the processes finish.
    """
    ids = list(ids)
    config = config or RunConfig()
    # progress callbacks stay in this process; the workers need none
    plain = RunConfig(thorough=config.thorough, seed=config.seed)
    return ordered_map(
        _run_one,
        [(cid, plain) for cid in ids],
        jobs,
        None if on_done is None else (lambda i: on_done(ids[i])),
        scheduler,
    )
