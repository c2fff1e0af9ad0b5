"""``pdpsym audit`` of a histogram: Laplace or geometric noise on every bin of the
histogram of a structured model's states (``"query": "histogram"`` in the mechanism
file, or ``--query histogram``).

The output is k-dimensional, so the audit reports each notion's ε at δ = 0: ``dp`` is
``2/lambda`` (one record moves two bins by one; geometric: ``-2 ln alpha``), and
``apkdp``, ``ppkdp`` and ``np`` are Li et al.'s Eq. 2 leakage of ``A(target, known)``
(with δ = 0 the active and passive notions coincide, Desfontaines et al. Theorem 1),
certified by :func:`pdpsym.loss.histogram.histogram_leakage`. δ(ε) curves and the other
notions are refused by name.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from pdpsym.app import budget
from pdpsym.app.output import print_json
from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str, parse_int, parse_rational


def histogram_notions() -> tuple[str, ...]:
    """The notions the histogram audit reports (their ε at δ = 0): of the default ones, the
    one over every pair of neighbours (two bins move by one) and those whose ε at δ = 0 is
    Li et al.'s Eq. 2."""
    from pdpsym.audit import registry  # engines load after --help

    return tuple(
        n.name
        for n in registry.REGISTRY
        if n.default and (n.pairs is registry.Pairs.NEIGHBOURS or n.eq2_at_zero)
    )


def wants_histogram(args: argparse.Namespace, spec: Any) -> bool:
    """Whether the audit is of the histogram (the flag or the mechanism file says so)."""
    in_file = isinstance(spec, Mapping) and spec.get("query") is not None
    if in_file and spec.get("query") not in ("sum", "histogram"):
        raise InputError("mechanism.query", 'expected "sum" or "histogram"')
    return getattr(args, "query", "sum") == "histogram" or (
        in_file and spec.get("query") == "histogram"
    )


def _noise(spec: Any) -> tuple[Fraction, Fraction | None]:
    """``(lam, alpha)`` of a laplace or geometric mechanism object."""
    if not isinstance(spec, Mapping):
        raise InputError("MECHANISM", "expected a JSON object")
    kind = spec.get("kind")
    extra = sorted(set(spec) - {"kind", "lam", "alpha", "query"})
    if extra:
        raise InputError(f"mechanism.{extra[0]}", "unknown key of a histogram mechanism")
    if kind == "laplace" and "alpha" not in spec:
        lam = parse_rational(spec.get("lam", "1"), "mechanism.lam")
        if lam <= 0:
            raise InputError("mechanism.lam", "must be > 0")
        return lam, None
    if kind == "geometric" and "lam" not in spec:
        alpha = parse_rational(spec.get("alpha"), "mechanism.alpha")
        if not 0 < alpha < 1:
            raise InputError("mechanism.alpha", "must lie in (0, 1)")
        return Fraction(1), alpha
    raise InputError(
        "mechanism.kind", 'the histogram takes {"kind": "laplace", "lam"} or "geometric", "alpha"'
    )


def run_histogram(
    args: argparse.Namespace, spec: Any, known: Sequence[str], notions: Sequence[str]
) -> int:
    """The histogram audit (see the module docstring): exit 0 with the report."""
    from pdpsym.app.commands import audit_models  # the audit layer loads after --help
    from pdpsym.core.certify import certify
    from pdpsym.core.numbers import to_sympy
    from pdpsym.loss.histogram import histogram_leakage, histogram_work

    if args.eps or args.delta is not None or args.curve is not None:
        flag = "--eps" if args.eps else "--delta" if args.delta is not None else "--curve"
        raise InputError(flag, "the histogram audit reports each notion's epsilon at delta = 0")
    from pdpsym.audit import registry  # engines load after --help

    allowed = histogram_notions()
    default = set(notions) >= set(allowed)  # the default list, or all
    bad = [n for n in notions if n not in allowed]
    if bad and not default:
        raise InputError("--notions", f"the histogram audit has {', '.join(allowed)}, not {bad[0]}")
    asked = [n for n in notions if n in allowed]
    if not audit_models.is_structured(args.model):
        raise InputError("MODEL", "the histogram audit needs a markov-chain or product model")
    model = audit_models.load(args.model)
    lam, alpha = _noise(spec)
    digits = parse_int(args.digits, "--digits", 1, 1000)
    budget.check(args, histogram_work(model, 1, known), "this histogram audit")
    res = histogram_leakage(model, [args.target], known, lam, digits=digits, alpha=alpha)[0]
    if alpha is None:
        dp = certify(to_sympy(Fraction(2) / lam), digits).as_json()
    else:
        import sympy  # imported here: the exact log of alpha

        dp = certify(-2 * sympy.log(to_sympy(alpha)), digits).as_json()
    eq2 = res.value.as_json(digits) if res.value is not None else None
    rows: dict[str, dict[str, Any]] = {}
    for n in asked:
        every_pair = registry.notion(n).pairs is registry.Pairs.NEIGHBOURS
        rows[n] = {
            "notion": n,
            "epsilon": dp if every_pair else eq2,
            "note": "two bins move by one" if every_pair else "Li et al. Eq. 2 (delta = 0)",
        }
    head = {"target": args.target, "known": list(known), "query": "histogram"}
    head["mechanism"] = (
        {"kind": "laplace", "lam": fraction_str(lam)}
        if alpha is None
        else {"kind": "geometric", "alpha": fraction_str(alpha)}
    )
    if args.json:
        print_json({**head, "notions": rows})
        return 0
    lines = [f"audit of target {args.target}, known {{{', '.join(known)}}} (histogram)"]
    for n, r in rows.items():
        v = r["epsilon"]
        shown = (
            "-" if v is None else f"{v['decimal']} (in [{v['enclosure'][0]}, {v['enclosure'][1]}])"
        )
        lines += [f"\n{n}:", f"  epsilon (delta = 0): {shown}", f"  note: {r['note']}"]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


__all__ = ["histogram_notions", "run_histogram", "wants_histogram"]
