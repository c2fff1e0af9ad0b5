"""The product ``F B`` of a chain's forward and backward count polynomials with smaller
integers: each row's common factor taken out while multiplying, exactly.

:func:`pdpsym.models.markov.MarkovChain.target_factors` writes a chain with one matrix
``P`` as integers ``A = d P`` (``d`` the common denominator). Let ``g_s`` be the gcd of
row ``s`` of ``A`` and ``L = lcm_s g_s``, so ``A[s][j] = g_s A'[s][j]`` with integer
``A'``. A sequence's weight ``init(x_1) prod_{t<T} A[x_t][x_{t+1}]`` then carries the
factor ``prod_{t<T} g_{x_t}``: one ``g_s`` per record in state ``s``, except the last.

**The row-content lemma.** For the target at position ``i`` (1-based) and value ``a``,
the forward polynomial ``F`` counts records ``1..i`` (``x_i = a``), whose ``from`` states
are ``x_1..x_{i-1}``, so its coefficient at counts ``n'`` is divisible by ``prod_s
g_s^{n'_s} / g_a``: ``F~(n') = F(n') g_a / prod_s g_s^{n'_s}`` is an integer. The backward
polynomial ``B`` counts records ``i+1..T`` with ``from`` states ``x_i..x_{T-1}``, whose
factor is ``g_a prod_s g_s^{m_s} / g_{x_T}``, so ``B~(m) = B(m) L / (g_a prod_s g_s^{m_s})``
is an integer (``L / g_{x_T}`` is; for ``i = T``, ``B = 1`` and ``B~ = L / g_a``). Both
scalings are the substitution ``z_s -> z_s / g_s`` up to a constant, which commutes with
the product, so ``(F B)(n) = (F~ B~)(n) prod_s g_s^{n_s} / L`` exactly, with ``F~`` and
``B~`` about ``T log2 g`` bits smaller than ``F`` and ``B`` (fast multiplication costs
in proportion to the bits; Schönhage and Strassen; FLINT's ``fmpz_poly_mul``).

**A check that the integers are right.** Every division is exact by the lemma; the code
floors them anyway and compares ``sum_n (F B)(n)`` with ``F(1) B(1)``: flooring can only
lower a non-negative coefficient, so equal sums mean every coefficient is exact (else
the plain product is used).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from pdpsym.core import poly
from pdpsym.loss import histogram_grid


class RowContents:
    """The row factors ``g_s`` of a one-matrix chain and the exact scaled product.

    Args:
        matrix: the chain's transition matrix (rationals).
        T: the number of records.
        simplex: the codes at which the product's coefficients are wanted.
        counts: the count vectors of ``simplex`` (``(len(simplex), k)`` ints).
    """

    def __init__(
        self,
        matrix: Sequence[Sequence[Any]],
        T: int,
        simplex: Sequence[int],
        counts: np.ndarray,
    ) -> None:
        d = math.lcm(*(p.denominator for row in matrix for p in row))
        self.g = [math.gcd(*(int(p * d) for p in row)) for row in matrix]
        self.L = math.lcm(*self.g)
        #: ``A' = A / g_s`` row by row, and ``L / g_s``: the integers of the reduced
        #: forward-backward (:mod:`pdpsym.loss.histogram_chain`), whose ``F'`` and ``B'``
        #: are this lemma's ``F~`` and ``B~``
        self.reduced = [
            [int(p * d) // g for p in row] for row, g in zip(matrix, self.g, strict=True)
        ]
        self.terminal = [self.L // g for g in self.g]
        self.k, self.T = len(matrix), T
        self.active = self.L > 1
        self.fallbacks = 0  # products whose sum check failed (none, by the lemma)
        self.simplex = simplex
        self._pow = [np.array([g**e for e in range(T + 1)], dtype=object) for g in self.g]
        self._law_pow = self._powers(counts) if self.active else None
        if self._law_pow is not None:
            # prod_s g_s^{n_s} / L = mult / div in lowest terms: (F~ B~)(n) is divisible
            # by div (the lemma: the product times mult/div is an integer, gcd(div,
            # mult) = 1), so the law is (F~ B~)(n) // div * mult, a small exact division
            common = np.array([math.gcd(int(p), self.L) for p in self._law_pow], dtype=object)
            self._div = self.L // common
            self._mult = self._law_pow // common
            #: the codes whose divisor is not 1 (few: most counts carry every factor of L)
            self._uneven = np.flatnonzero(self._div != 1)

    def _powers(self, counts: np.ndarray) -> np.ndarray:
        """``prod_s g_s^{n_s}`` for each row of ``counts`` (non-negative counts)."""
        out = np.ones(len(counts), dtype=object)
        for s, g in enumerate(self.g):
            if g > 1:
                out = out * self._pow[s][counts[:, s]]
        return out

    def _scaled(self, p: Any, records: int, num: int, den: int) -> list[int]:
        """``p(n) num / (den prod_s g_s^{n_s})`` floored, for the ``records`` records it
        counts (zero coefficients left zero)."""
        c = np.array([int(x) for x in p.coeffs()], dtype=object)
        nz = np.flatnonzero(c != 0)
        if len(nz):
            counts = histogram_grid.decode_counts(nz.tolist(), self.k, self.T + 1, records)
            c[nz] = c[nz] * num // (den * self._powers(counts))
        return c.tolist()

    def law(self, forward: Any, backward: Any, a: int, position: int) -> np.ndarray:
        """The coefficients of ``F B`` at the simplex codes, exact (object array of ints).

        Args:
            forward: ``F``, counting records ``1..position`` (``x_position = a``).
            backward: ``B``, counting records ``position+1..T``.
            a: the target's state.
            position: the target's position, 1-based.

        Returns:
            ``(F B)(n)`` for each code of ``simplex``.

        References:
            The row-content lemma of this module's docstring.
        """
        plain = None
        if self.active:
            f = self._scaled(forward, position, self.g[a], 1)
            b = self._scaled(backward, self.T - position, self.L, self.g[a])
            prod = poly.from_coefficients(f) * poly.from_coefficients(b)
            assert self._law_pow is not None
            w = np.array(poly.coefficients_at(prod, self.simplex), dtype=object)
            w = w * self._law_pow // self.L
            if sum(w.tolist()) == poly.total(forward) * poly.total(backward):
                return w
            self.fallbacks += 1
        plain = poly.coefficients_at(poly.product([forward, backward]), self.simplex)
        return np.array(plain, dtype=object)

    def reduced_law(self, forward: Any, backward: Any) -> np.ndarray:
        """The coefficients of ``F B`` at the simplex codes from ``F~`` and ``B~`` (the
        reduced forward-backward's polynomials), exact: ``(F~ B~)(n) prod_s g_s^{n_s} / L``.

        Args:
            forward: ``F~`` (:func:`pdpsym.loss.histogram_chain.reduced_factors`).
            backward: ``B~``, with the terminal ``L / g_s``.

        Returns:
            ``(F B)(n)`` for each code of ``simplex`` (object array of ints).

        References:
            The row-content lemma of this module's docstring (the division by ``L`` is
            exact).
        """
        w = np.array(poly.coefficients_at(forward * backward, self.simplex), dtype=object)
        if not self.active:
            return w
        out = w * self._mult  # exact where the divisor is 1
        at = self._uneven
        out[at] = w[at] // self._div[at] * self._mult[at]
        return out


__all__ = ["RowContents"]
