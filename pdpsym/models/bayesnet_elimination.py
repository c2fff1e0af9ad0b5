"""Variable elimination's factors for :mod:`pdpsym.models.bayesnet`: state
configurations of a scope mapped to integer polynomials in the running count (sum ->
unnormalized integer weight), multiplied and summed out exactly."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

Poly = dict[int, int]  # scaled integer sum -> unnormalized integer weight


@dataclass(frozen=True)
class Factor:
    """A factor of the elimination: state configurations of ``scope`` -> polynomial."""

    scope: tuple[str, ...]
    table: Mapping[tuple[int, ...], Poly]

    def times(self, other: Factor) -> Factor:
        """The product factor, on the union of the two scopes (shared states agree)."""
        shared = [u for u in self.scope if u in other.scope]
        scope = self.scope + tuple(u for u in other.scope if u not in self.scope)
        si = [self.scope.index(u) for u in shared]
        oi = [other.scope.index(u) for u in shared]
        rest = [k for k, u in enumerate(other.scope) if u not in shared]
        by_key: dict[tuple[int, ...], list[tuple[tuple[int, ...], Poly]]] = {}
        for key, poly in other.table.items():
            by_key.setdefault(tuple(key[k] for k in oi), []).append(
                (tuple(key[k] for k in rest), poly)
            )
        table: dict[tuple[int, ...], Poly] = {}
        for key, poly in self.table.items():
            for tail, opoly in by_key.get(tuple(key[k] for k in si), ()):
                table[key + tail] = convolve(poly, opoly)
        return Factor(scope, table)

    def sum_out(self, v: str) -> Factor:
        """The factor with record ``v`` summed out of its scope."""
        k = self.scope.index(v)
        scope = self.scope[:k] + self.scope[k + 1 :]
        table: dict[tuple[int, ...], Poly] = {}
        for key, poly in self.table.items():
            acc = table.setdefault(key[:k] + key[k + 1 :], {})
            for s, c in poly.items():
                acc[s] = acc.get(s, 0) + c
        return Factor(scope, table)


def convolve(a: Poly, b: Poly) -> Poly:
    """The product of two polynomials in the running count, exactly.

    Args:
        a: ``{sum: integer weight}``.
        b: ``{sum: integer weight}``.

    Returns:
        ``{s + t: Σ a[s] b[t]}``, the law of the summed counts (unnormalized).

    References:
        Koller and Friedman, Probabilistic Graphical Models (2009), Section 9.3 (factor
        product in variable elimination).
    """
    if len(a) == 1:
        ((s, c),) = a.items()
        return {s + t: c * d for t, d in b.items()}
    if len(b) == 1:
        ((t, d),) = b.items()
        return {s + t: c * d for s, c in a.items()}
    out: Poly = {}
    for s, c in a.items():
        for t, d in b.items():
            out[s + t] = out.get(s + t, 0) + c * d
    return out
