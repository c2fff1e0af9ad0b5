"""Regression vectors: exact Eq. 2 answers for testing faster implementations against.

The vectors are certified values of Li et al.'s prior-differential-privacy leakage (Sec. III,
Eq. 2) for the Laplace mechanism on a linear query::

    PL(A(i,K)) = sup_{x_i != x_i', x_K, r}  ln p(r | x_i, x_K) / p(r | x_i', x_K)

An engineer who writes a float, C or GPU version of Eq. 2 exports a vector file once, runs
the implementation on every case, and checks the answers. The check is decided with exact
rational arithmetic against each case's certified enclosure, so it never passes or fails
on the rounding of the oracle itself.

**Vector file** (JSON, one case per line so that diffs stay readable)::

    {"format": "pdpsym-oracle/1",
     "digits": D,                                   certified significant digits
     "generator": {"family": ..., "lam": [...], ...},   how the file was made
     "cases": [
       {"id": "li2019:a:A(x1,{x2}):lam=1",
        "model": {"variables", "domains", "rows"},  the model file form
        "target": "x1", "known": ["x2"],
        "lam": "1",                                  Laplace scale, an exact string
        "weights": null,                             null = the sum; else {"x1": "2", ...}
        "status": "ok" | "no-compatible-pair",
        "value": {"exact", "decimal", "enclosure": [lo, hi]} | null,
        "witness": {"x_i", "x_i_prime", "x_K", "r"} | null}, ...]}

Every number is a string parsed by the strict grammar of :mod:`pdpsym.core.numbers`.
``value.exact`` is a sympy-readable expression, ``value.decimal`` has ``D`` certain
significant digits, and the exact value lies in ``[lo, hi]`` (decimal strings, rounded
outward at ``D + 3`` digits).

Answers are checked by :mod:`pdpsym.app.oracle_check`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from pdpsym.app.budget import Progress
from pdpsym.app.help import FORMAT
from pdpsym.app.output import safe_json, write_atomic
from pdpsym.app.readers import read_json
from pdpsym.core.certify import certify
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str, parse_rational
from pdpsym.core.parallel import ordered_map
from pdpsym.loss.adversary import Adversary
from pdpsym.loss.table_leakage import leakage_all
from pdpsym.mechanisms.laplace import LinearQuery
from pdpsym.models.families import random_table, tables_up_to
from pdpsym.models.joint import JointDistribution
from pdpsym.papers.li2019.examples import li2019_table

FAMILIES = ("li2019-examples", "random-binary", "exhaustive-2x2")
STATUSES = ("ok", "no-compatible-pair", "infinite")
# statuses whose case has no number: only a null answer passes
NULL_STATUSES = ("no-compatible-pair", "infinite")

# family parameter ranges: large enough for real use, small enough to finish
MAX_BINARY_N = 10
MAX_COUNT = 10_000
MAX_DENOMINATOR = 24

# --- families of models --------------------------------------------------------------


# each family's parameters and their defaults (a family takes no others)
FAMILY_DEFAULTS: dict[str, dict[str, int]] = {
    "li2019-examples": {},
    "random-binary": {"n": 3, "count": 10, "seed": 0},
    "exhaustive-2x2": {"n": 4},
}
_RANGES = {"n": (1, MAX_BINARY_N), "count": (1, MAX_COUNT), "seed": (0, 2**63 - 1)}


def family_params(
    family: str, n: int | None = None, count: int | None = None, seed: int | None = None
) -> dict[str, int]:
    """The family's parameters, defaults filled in and ranges checked."""
    if family not in FAMILY_DEFAULTS:
        raise InputError("--family", f"unknown family {family!r} (one of {', '.join(FAMILIES)})")
    out = dict(FAMILY_DEFAULTS[family])
    for name, value in (("n", n), ("count", count), ("seed", seed)):
        if value is None:
            continue
        # a parameter the family ignores is almost always a mistake in a script: say so
        if name not in out:
            raise InputError(f"--{name}", f"not used by the family {family}")
        lo, hi = _RANGES[name]
        if family == "exhaustive-2x2" and name == "n":
            hi = MAX_DENOMINATOR
        if not lo <= value <= hi:
            raise InputError(f"--{name}", f"must be between {lo} and {hi}, got {value}")
        out[name] = value
    return out


def family_models(
    family: str, n: int | None = None, count: int | None = None, seed: int | None = None
) -> list[tuple[str, JointDistribution]]:
    """The tagged tables of a family, in a fixed order.

    * ``li2019-examples``: Tables (a)-(d) of Li et al. Examples 2-4 (no parameters);
    * ``random-binary``: ``count`` seeded random binary ``n``-tuple tables (default n = 3,
      count = 10, seed = 0); cells are zero with probability 1/5, so now and then an
      adversary has no compatible pair (about 1 in 9 for n = 2, 1 in 160 for n = 3);
    * ``exhaustive-2x2``: every 2x2 table over {0, 1} with probabilities ``k/d``,
      ``d <= n`` (default 4), counted once each, including tables where a value never occurs.
    """
    params = family_params(family, n, count, seed)
    if family == "li2019-examples":
        return [(f"li2019:{t}", li2019_table(t)) for t in ("a", "b", "c", "d")]
    if family == "random-binary":
        n, seed = params["n"], params["seed"]
        rng = random.Random(seed)
        return [
            (f"random-binary:n{n}:seed{seed}:{j}", random_table(rng, [2] * n))
            for j in range(params["count"])
        ]
    tables = tables_up_to([2, 2], params["n"], full_support_values=False)
    return [(f"2x2:d{params['n']}:{j}", t) for j, t in enumerate(tables)]


# --- export --------------------------------------------------------------------------


def _adversary_id(adv: Adversary) -> str:
    return f"A({adv.target},{{{','.join(adv.known)}}})"


def case_count(models: Iterable[tuple[str, JointDistribution]], n_lam: int) -> int:
    """How many cases :func:`export_vectors` will produce: ``n 2^(n-1)`` per table and lambda."""
    return n_lam * sum(m.n * 2 ** (m.n - 1) for _, m in models)


def export_vectors(
    models: Sequence[tuple[str, JointDistribution]],
    lam_values: Sequence[Fraction],
    digits: int = 30,
    *,
    generator: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
) -> dict[str, Any]:
    """A vector file object: Eq. 2 for every adversary of every (tag, model) and lambda.

    The (model, lambda) pairs run on ``jobs`` processes or a Dask ``scheduler``; the
    cases come in the same order whatever runs them.

    The query is the sum (``weights`` null). Each value is certified to ``digits``
    significant digits; ids are ``TAG:A(i,{K}):lam=L`` and unique when the tags are.
    """
    if not 1 <= digits <= 1000:
        raise InputError("--digits", "must be between 1 and 1000")
    if not lam_values:
        raise InputError("--lam", "at least one lambda is needed")
    for lam in lam_values:
        if lam <= 0:
            raise InputError("--lam", f"must be > 0, got {fraction_str(lam)}")
    items = [(tag, model, lam, digits) for tag, model in models for lam in lam_values]
    sizes = [model.n * 2 ** (model.n - 1) for _, model, _, _ in items]

    def done(k: int) -> None:
        if progress is not None:
            progress.update(sizes[k])

    parts = ordered_map(_cases_of, items, jobs, on_done=done, scheduler=scheduler)
    cases = [case for part in parts for case in part]
    ids = [c["id"] for c in cases]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate case ids: the model tags must be unique")
    return {
        "format": FORMAT,
        "digits": digits,
        "generator": dict(generator or {}),
        "cases": cases,
    }


def _cases_of(item: tuple[str, JointDistribution, Fraction, int]) -> list[dict[str, Any]]:
    """The cases of one model and lambda (a module-level function: it runs in workers)."""
    tag, model, lam, digits = item
    model_obj = model.to_json_object()
    out_cases = []
    for res in leakage_all(model, lam, LinearQuery.sum(model.variables)):
        out = res.as_json(digits)
        out_cases.append(
            {
                "id": f"{tag}:{_adversary_id(res.adversary)}:lam={fraction_str(lam)}",
                "model": model_obj,
                "target": out["target"],
                "known": out["known"],
                "lam": out["lam"],
                "weights": None,
                "status": out["status"],
                "value": out["value"],
                "witness": out["witness"],
            }
        )
    return out_cases


def dumps_vectors(vectors: Mapping[str, Any]) -> str:
    """The vector file text: the header keys, then one compact JSON line per case."""
    head = [(k, v) for k, v in vectors.items() if k != "cases"]
    lines = ["{"]
    lines += [
        f"  {json.dumps(k)}: {safe_json(json.dumps(v, ensure_ascii=False))}," for k, v in head
    ]
    cases = list(vectors.get("cases", []))
    lines.append('  "cases": [')
    for j, case in enumerate(cases):
        sep = "," if j < len(cases) - 1 else ""
        lines.append("    " + safe_json(json.dumps(case, ensure_ascii=False)) + sep)
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def write_vectors(vectors: Mapping[str, Any], path: str | Path) -> None:
    """Write a vector file atomically (see :func:`write_atomic`)."""
    write_atomic(path, dumps_vectors(vectors))


# --- reading files -------------------------------------------------------------------


class JsonNumber(str):
    """A JSON number kept as the decimal text it spells (so it is parsed exactly)."""


def read_oracle_json(path: str | Path, role: str) -> Any:
    """The one strict reader (app/readers.py): a regular file only (a named pipe or a
    device is refused at once), size-capped, duplicate keys refused."""
    return read_json(path, role, number=JsonNumber, integer=int)


def load_vectors(path: str | Path) -> dict[str, Any]:
    """Read and validate a vector file (every field, every case)."""
    obj = read_oracle_json(path, "VECTORS")
    parse_cases(obj)
    return obj


@dataclass(frozen=True)
class VectorCase:
    id: str
    status: str
    decimal: str | None
    lo: Fraction | None
    hi: Fraction | None


def parse_cases(obj: Any) -> list[VectorCase]:
    """Validate a vector object; an :class:`InputError` names the first bad field."""
    if not isinstance(obj, dict):
        raise InputError("VECTORS", "expected a JSON object")
    if obj.get("format") != FORMAT:
        raise InputError("VECTORS format", f"expected {FORMAT!r}, got {obj.get('format')!r}")
    digits = obj.get("digits")
    if not isinstance(digits, int) or isinstance(digits, bool) or digits < 1:
        raise InputError("VECTORS digits", f"expected a positive integer, got {digits!r}")
    cases = obj.get("cases")
    if not isinstance(cases, list):
        raise InputError("VECTORS cases", "expected a list")
    out: list[VectorCase] = []
    seen: set[str] = set()
    for j, case in enumerate(cases):
        where = f"VECTORS cases[{j}]"
        if not isinstance(case, dict):
            raise InputError(where, "expected an object")
        audit_case = case.get("kind") == "audit"
        keys = (
            ("id", "notion", "figure", "status", "value")
            if audit_case
            else ("id", "model", "target", "known", "lam", "weights", "status", "value")
        )
        for key in keys:
            if key not in case:
                raise InputError(f"{where}.{key}", "missing")
        cid = case["id"]
        if not isinstance(cid, str) or isinstance(cid, JsonNumber) or not cid:
            raise InputError(f"{where}.id", f"expected a non-empty string, got {cid!r}")
        if cid in seen:
            raise InputError(f"{where}.id", f"duplicate id {cid!r}")
        seen.add(cid)
        if not audit_case:
            _check_adversary(case, where)
        status = case["status"]
        if status not in STATUSES:
            raise InputError(f"{where}.status", f"expected one of {STATUSES}, got {status!r}")
        value = case["value"]
        if status in NULL_STATUSES:
            if value is not None:
                raise InputError(f"{where}.value", f"must be null for {status}")
            out.append(VectorCase(cid, status, None, None, None))
            continue
        if not isinstance(value, dict):
            raise InputError(f"{where}.value", 'expected {"exact", "decimal", "enclosure"}')
        enc = value.get("enclosure")
        if not isinstance(enc, list) or len(enc) != 2 or not all(isinstance(e, str) for e in enc):
            raise InputError(f"{where}.value.enclosure", "expected two number strings [lo, hi]")
        lo = parse_rational(enc[0], f"{where}.value.enclosure[0]")
        hi = parse_rational(enc[1], f"{where}.value.enclosure[1]")
        if lo > hi:
            raise InputError(f"{where}.value.enclosure", "lo > hi")
        decimal = value.get("decimal")
        if not isinstance(decimal, str):
            raise InputError(f"{where}.value.decimal", "expected a string")
        out.append(VectorCase(cid, status, decimal, lo, hi))
    return out


def _check_adversary(case: Mapping[str, Any], where: str) -> None:
    """The model, target, known, lam and weights of a case are well formed."""
    try:
        model = JointDistribution.from_json_object(case["model"])
    except InputError as err:
        raise InputError(f"{where}.model.{err.field}", err.message) from None
    target, known = case["target"], case["known"]
    if not isinstance(target, str):
        raise InputError(f"{where}.target", "expected a variable name")
    if not isinstance(known, list) or not all(isinstance(k, str) for k in known):
        raise InputError(f"{where}.known", "expected a list of variable names")
    try:
        Adversary.of(model, target, known)
    except InputError as err:
        name = "target" if err.field == "target" else "known"
        raise InputError(f"{where}.{name}", err.message) from None
    lam = parse_rational(case["lam"], f"{where}.lam")
    if lam <= 0:
        raise InputError(f"{where}.lam", f"must be > 0, got {fraction_str(lam)}")
    weights = case["weights"]
    if weights is not None:
        if not isinstance(weights, dict):
            raise InputError(f"{where}.weights", "expected null or an object NAME -> number")
        for name, w in weights.items():
            model.index(name, f"{where}.weights")
            parse_rational(w, f"{where}.weights.{name}")


def audit_vectors(result: Any, digits: int, generator: Mapping[str, Any]) -> dict[str, Any]:
    """Regression vectors of one audit (:func:`pdpsym.audit.audit`): each notion's
    epsilon, delta at each epsilon and epsilon at delta, certified, as ``kind: audit``
    cases (``figure`` names which one; an infinite value has status ``infinite``)."""
    import sympy  # sympy loads only when an audit is exported

    def case(notion: str, figure: str, v: Any, enclosure: Any = None) -> dict[str, Any] | None:
        cid = f"audit:{notion}:{figure}"
        base = {"id": cid, "kind": "audit", "notion": notion, "figure": figure}
        if enclosure is not None:
            return {**base, "status": "ok", "value": enclosure}
        if v is None:
            return None
        if v == sympy.oo:
            return {**base, "status": "infinite", "value": None}
        return {**base, "status": "ok", "value": certify(v, digits).as_json()}

    cases: list[dict[str, Any]] = []
    for r in result.results:
        enc = None
        if r.ratio_enclosure is not None:
            lo, hi = r.ratio_enclosure
            a = certify(sympy.log(sympy.Rational(lo.numerator, lo.denominator)), digits)
            b = certify(sympy.log(sympy.Rational(hi.numerator, hi.denominator)), digits)
            enc = {
                "exact": None,
                "decimal": a.decimal,
                "enclosure": [a.enclosure[0], b.enclosure[1]],
            }
        items = [case(r.notion, "epsilon", r.epsilon, enc)]
        items += [case(r.notion, f"delta@eps={e}", d) for e, d, _ in r.delta_at_epsilon]
        if r.epsilon_at_delta is not None:
            d, v, _ = r.epsilon_at_delta
            items.append(case(r.notion, f"epsilon@delta={fraction_str(d)}", v))
        cases += [c for c in items if c is not None]
    return {"format": FORMAT, "digits": digits, "generator": dict(generator), "cases": cases}
