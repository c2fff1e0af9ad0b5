"""Mechanism files as ``audit`` (and ``oracle`` and the class audit) read them: the JSON
of a mechanism, its errors naming the field inside the file (the exact ε grammar of the
flags is :func:`pdpsym.app.options.parse_eps`)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pdpsym.app.commands import audit_models as structured
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import parse_rational

if TYPE_CHECKING:
    from pdpsym.mechanisms.finite import Mechanism
    from pdpsym.mechanisms.laplace import LaplaceNoise
    from pdpsym.models.joint import JointDistribution

KINDS = (
    "table",
    "randomized-response",
    "laplace",
    "geometric",
    "count",
    "threshold",
    "histogram",
)


def read_json_file(path: str, field: str) -> Any:
    """The JSON object of a mechanism file (the one strict reader of app/readers.py)."""
    from pdpsym.app.readers import read_json  # imported here (engines load after --help)

    return read_json(path, field)  # the one strict reader (app/readers.py)


def _weights(obj: Any, model: JointDistribution, field: str) -> dict[str, Fraction] | None:
    if obj is None:
        return None
    if not isinstance(obj, Mapping):
        raise InputError(field, "expected an object NAME -> weight")
    out = {}
    for k, v in obj.items():
        model.index(k, field)
        out[k] = parse_rational(v, f"{field}.{k}")
    return out


def load_mechanism(path: str, model: JointDistribution) -> Mechanism | LaplaceNoise:
    """Build the mechanism a JSON file describes, for databases of ``model``."""
    from pdpsym.mechanisms import discrete  # imported here (engines load after --help)
    from pdpsym.mechanisms.laplace import laplace

    obj = read_json_file(path, "MECHANISM")
    if not isinstance(obj, dict):
        raise InputError("MECHANISM", "expected a JSON object")
    kind = obj.get("kind")
    if kind not in KINDS:
        raise InputError("kind", f"unknown kind {kind!r}; known: {', '.join(KINDS)}")
    if kind == "table":
        structured.only_keys(obj, {"kind", "rows"})
        rows = obj.get("rows")
        if not isinstance(rows, list) or not rows:
            raise InputError("rows", "expected a non-empty list of rows")
        n = model.n
        table: dict[tuple[Fraction, ...], dict[str, Fraction]] = {}
        for k, row in enumerate(rows):
            if not isinstance(row, list) or len(row) != n + 2:
                raise InputError(f"rows[{k}]", f"expected {n} values, an output and a probability")
            d = tuple(parse_rational(v, f"rows[{k}]") for v in row[:n])
            for j, v in enumerate(d):
                if v not in model.domains[j]:
                    raise InputError(f"rows[{k}]", f"value {row[j]!r} is not in the domain")
            out = row[n]
            if not isinstance(out, str):
                raise InputError(f"rows[{k}]", "the output must be a string")
            p = parse_rational(row[n + 1], f"rows[{k}]")
            if not 0 <= p <= 1:
                raise InputError(f"rows[{k}]", "probability outside [0, 1]")
            pmf = table.setdefault(d, {})
            if out in pmf:
                raise InputError(f"rows[{k}]", f"output {out!r} repeated for this database")
            pmf[out] = p
        return discrete.table(table)
    if kind == "randomized-response":
        structured.only_keys(obj, {"kind", "keep"})
        keep = parse_rational(obj.get("keep"), "keep")
        if not 0 < keep <= 1:
            raise InputError("keep", "must lie in (0, 1]")
        return discrete.randomized_response(keep, model.domains)
    if kind == "laplace":
        structured.only_keys(obj, {"kind", "lam", "weights"})
        return laplace(obj.get("lam", "1"), _weights(obj.get("weights"), model, "weights"))
    weights = _weights(obj.get("weights"), model, "weights")
    wlist = None if weights is None else [weights.get(v, Fraction(1)) for v in model.variables]
    if kind == "geometric":
        structured.only_keys(obj, {"kind", "alpha", "weights"})
        ws = wlist or [Fraction(1)] * model.n
        lo = sum(
            (min(w * v for v in dom) for w, dom in zip(ws, model.domains, strict=True)), Fraction(0)
        )
        hi = sum(
            (max(w * v for v in dom) for w, dom in zip(ws, model.domains, strict=True)), Fraction(0)
        )
        if lo.denominator != 1 or hi.denominator != 1:
            raise InputError("weights", "geometric noise needs an integer-valued query")
        return discrete.geometric(obj.get("alpha"), int(lo), int(hi), wlist)
    if kind == "count":
        structured.only_keys(obj, {"kind", "weights"})
        return discrete.count(wlist)
    if kind == "threshold":
        structured.only_keys(obj, {"kind", "T", "weights"})
        if "T" not in obj:
            raise InputError("T", "missing")
        return discrete.threshold(parse_rational(obj["T"], "T"), wlist)
    structured.only_keys(obj, {"kind"})
    return discrete.histogram()


def read_mechanism(path: str, model: JointDistribution) -> Mechanism | LaplaceNoise:
    """:func:`load_mechanism`, its errors naming the field inside the mechanism file
    (``mechanism.rows[3]``), as distinct from the model file's (``rows[3]``)."""
    with structured.mechanism_fields():
        return load_mechanism(path, model)


__all__ = ["KINDS", "load_mechanism", "read_json_file", "read_mechanism"]
