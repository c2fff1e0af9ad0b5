"""The runner turns Properties into verdicts by the rules stated in claims/claim.py.

Each test builds a tiny Property whose outcome is known by hand (the laws are
arithmetic facts about small integers), so the expected verdicts come from the rules,
not from the code under test.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from pdpsym.claims import claim
from pdpsym.claims.claim import (
    AllOf,
    Counterexample,
    Erratum,
    Exhaustive,
    Generated,
    Method,
    RunConfig,
    Symbolic,
    Unresolved,
    Verdict,
)
from pdpsym.verify import evaluate, run_claim
from pdpsym.verify.result import ClaimResult

CFG = RunConfig()


def _upto(n: int):
    return lambda config: range(n)


def test_a_law_that_holds_on_every_case_is_supported_with_the_count() -> None:
    out = evaluate(Exhaustive(lambda k: k * k >= 0, _upto(7), holds=lambda n: f"{n} squares"), CFG)
    assert (out.verdict, out.cases, out.evidence) == (Verdict.SUPPORTED, 7, "7 squares")


def test_the_first_failure_is_kept_and_encoded_as_json() -> None:
    # k^2 < 10 first fails at k = 4 (16 >= 10): five cases were run, 0..4.
    def law(k: int) -> object:
        return k * k < 10 or Counterexample(k=k, square=Fraction(k * k), half=Fraction(k, 2))

    out = evaluate(Exhaustive(law, _upto(100)), CFG)
    assert out.verdict is Verdict.REFUTED and out.cases == 5
    assert out.counterexample == {"k": 4, "square": "16", "half": "2"}


def test_a_false_law_reports_the_case_itself() -> None:
    out = evaluate(Exhaustive(lambda k: k != (1, 2), lambda c: [(0, 0), (1, 2)]), CFG)
    assert out.counterexample == [1, 2] and out.cases == 2


def test_generated_cases_are_seeded_and_counted() -> None:
    drawn: list[int] = []

    def draw(rng):
        drawn.append(rng.randint(0, 10**9))
        return drawn[-1]

    prop = Generated(lambda x: True, draw, count=(5, 50), salt=3)
    first = evaluate(prop, RunConfig(seed=1))
    again = list(drawn)
    drawn.clear()
    evaluate(prop, RunConfig(seed=1))
    assert first.cases == 5 and first.method is Method.GENERATED and drawn == again
    assert evaluate(prop, RunConfig(seed=1, thorough=True)).cases == 50


def test_symbolic_true_is_proved() -> None:
    out = evaluate(Symbolic(lambda: 2 + 2 == 4, holds="arithmetic"), CFG)
    assert (out.verdict, out.method) == (Verdict.PROVED, Method.SYMBOLIC)


def test_all_of_takes_the_weakest_part_and_joins_methods() -> None:
    prop = AllOf((Symbolic(lambda: True, holds="a"), Exhaustive(lambda k: True, _upto(3))))
    out = evaluate(prop, CFG)
    assert out.verdict is Verdict.SUPPORTED and out.method is Method.SYMBOLIC_EXHAUSTIVE
    assert out.cases == 3


def test_erratum_needs_the_printed_form_to_fail_and_the_correction_to_hold() -> None:
    # printed: k < 3 for k in 0..9 (fails at 3); corrected: k < 10 (holds).
    printed = Exhaustive(lambda k: k < 3 or Counterexample(k=k), _upto(10))
    corrected = Exhaustive(lambda k: k < 10, _upto(10))
    out = evaluate(Erratum(printed, corrected, reading="k < 10"), CFG)
    assert out.verdict is Verdict.ERRATUM and out.counterexample == {"k": 3}
    assert out.reading == "k < 10"
    # both fail: refuted with the correction's counterexample
    wrong = Exhaustive(lambda k: k < 5 or Counterexample(k=k), _upto(10))
    out = evaluate(Erratum(printed, wrong), CFG)
    assert out.verdict is Verdict.REFUTED and out.counterexample == {"k": 5}
    # the printed form holds: its own verdict
    out = evaluate(Erratum(corrected, wrong), CFG)
    assert out.verdict is Verdict.SUPPORTED


def test_an_undecidable_case_is_unresolved() -> None:
    def law(k: int) -> object:
        raise Unresolved("undecided at 64 bits")

    out = evaluate(Exhaustive(law, _upto(3)), CFG)
    assert out.verdict is Verdict.UNRESOLVED and "undecided" in out.evidence


def test_unchecked_ids_are_unresolved_not_yet_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(claim.CHECKERS, "li2019.ex4")
    r = run_claim("li2019.ex4")
    assert r.verdict is Verdict.UNRESOLVED and r.evidence == "not yet checked"


def test_a_crashing_checker_is_reported_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(config: RunConfig):
        raise ZeroDivisionError("bug")

    monkeypatch.setitem(claim.CHECKERS, "li2019.ex4", boom)
    r = run_claim("li2019.ex4")
    assert r.verdict is Verdict.UNRESOLVED and r.method is Method.ERROR
    assert "ZeroDivisionError" in r.evidence


def test_refutations_require_counterexamples() -> None:
    with pytest.raises(ValueError):
        ClaimResult("li2019.ex4", Verdict.REFUTED, "no example")


def test_verdicts_do_not_depend_on_the_number_of_processes() -> None:
    from pdpsym.verify.runner import run_claims

    ids = ["li2019.thm4", "dmkb2020.lemma1", "lmm2016.rho", "li2019.eq3"]
    one = [r.as_json() for r in run_claims(ids, CFG, jobs=1)]
    two = [r.as_json() for r in run_claims(ids, CFG, jobs=2)]
    for a, b in zip(one, two, strict=True):
        a.pop("seconds")
        b.pop("seconds")
    assert one == two and [r["id"] for r in one] == ids
