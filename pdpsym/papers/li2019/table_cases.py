"""Case generators and small helpers shared by the checkers of Li et al. Sections IV-V.

The edge checkers (``claims_edges``) and the WHG checkers (``claims_whg``) walk the same
exhaustive classes of small tables, ordered from small to large (fewest tuples, then
smallest domains, then smallest denominator ``N``, then lexicographically), so that no
checker module reaches another's private names.

References:
    Li, Ren, Yang, Yang (2019), "Impact of Prior Knowledge and Data Correlation on Privacy
    Leakage: A Unified Analysis", Sections IV-V.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from pdpsym.claims import claim
from pdpsym.core.certify import certify
from pdpsym.models.families import tables_up_to
from pdpsym.models.joint import JointDistribution

READING = "Eq. 9 right tail (r -> +inf), pairs ordered w_i x_i^a > w_i x_i^b"
Classes = Sequence[tuple[Sequence[int], int]]  # (domain sizes, max denominator N)


def classes(config: claim.RunConfig, *specs: tuple[list[int], int, int]) -> Classes:
    """The classes of tables a run walks.

    Args:
        config: the run's configuration (``thorough`` picks the larger bound).
        *specs: one ``(domain sizes, max N default, max N thorough)`` per class.

    Returns:
        One ``(domain sizes, max denominator N)`` per class.

    References:
        Li et al. (2019), Section V (the exhaustive small-table classes of the checkers).
    """
    return [(sizes, config.count(d, t)) for sizes, d, t in specs]


def tables(cls: Classes) -> Iterator[JointDistribution]:
    """Every table of the classes, in order from small to large.

    Args:
        cls: the classes, from :func:`classes`.

    Yields:
        Each joint distribution with the class's domain sizes and denominators up to ``N``.

    References:
        Li et al. (2019), Section III (the joint distribution of the records).
    """
    for sizes, max_n in cls:
        yield from tables_up_to(sizes, max_n, full_support_values=False)


def class_text(cls: Classes) -> str:
    """The classes in words, for a verdict's text.

    Args:
        cls: the classes, from :func:`classes`.

    Returns:
        E.g. ``"2x2 N<=4, 2x3 N<=3"``.

    References:
        Li et al. (2019), Section V (the exhaustive small-table classes of the checkers).
    """
    return ", ".join("x".join(map(str, sizes)) + f" N<={m}" for sizes, m in cls)


def cj(v: Any) -> dict[str, Any]:
    """A value as certified JSON (20 digits), for a counterexample.

    Args:
        v: an exact or certified value.

    Returns:
        The JSON form of its certified enclosure.

    References:
        Johansson, Arb (2017), ball arithmetic.
    """
    return certify(v, 20).as_json()


def node(target: str, known: Sequence[str]) -> str:
    """The adversary ``A(i, K)`` in words.

    Args:
        target: the target tuple's name.
        known: the names of the known tuples.

    Returns:
        E.g. ``"A(x1, {x2, x3})"``.

    References:
        Li et al. (2019), Section IV, Definition of the adversary A(i, K).
    """
    return f"A({target}, {{{', '.join(known)}}})"
