"""Proposition 5's proof: PPK as an expected f-divergence, as printed and as corrected.

The proof of Desfontaines et al.'s Proposition 5 (Section 3.4) writes PPKDP as
``Σ_B̂ P[B̂ | D(i)=a] D_f(O_{a,B̂} || O_{b,B̂}) ≤ δ`` with ``D_f(P||Q) = Σ_O Q f(P/Q)``
and prints ``f(x) = max(0, 1 - e^ε x)``. Two readings of ``f``:

* ``FForm.PRINTED``: the printed ``f``; each term is ``max(0, Q - e^ε P)``, the hockey
  stick of the *reversed* pair, so per ordered pair the sum is not ``PPK_{i,a,b}``;
* ``FForm.CORRECTED``: ``f(x) = max(0, x - e^ε)``; ``D_f(P||Q)`` is the hockey stick
  ``H(P||Q)`` of :func:`pdpsym.loss.plrv.hockey_stick`, and the per-pair identity with
  :func:`pdpsym.loss.plrv.ppk` is exact.

The claim ``dmkb2020.prop5`` checks both on generated scenarios. Since PPKDP quantifies
over every ordered ``(a, b)``, the proposition's "iff" holds under either reading.
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction
from typing import Any

from pdpsym.core.eps import Eps
from pdpsym.loss.exp_linear import WLin, positive_part
from pdpsym.mechanisms.finite import Mechanism, output_pmf
from pdpsym.models.scenario import PMF, Scenario


class FForm(Enum):
    """Which ``f`` the f-divergence form of PPKDP uses (``D_f(P||Q) = Σ_O Q f(P/Q)``)."""

    PRINTED = "printed"  # f(x) = max(0, 1 - e^ε x), as printed in the proof of Prop. 5
    CORRECTED = "corrected"  # f(x) = max(0, x - e^ε): D_f(P||Q) is the hockey-stick H(P||Q)


def f_divergence(p: PMF, q: PMF, eps: Eps, form: FForm) -> WLin:
    """``D_f(P||Q) = Σ_{Q>0} Q f(P/Q) + P(Q=0)·f'(∞)`` for the chosen ``f``.

    ``FForm.PRINTED`` is ``f(x) = max(0, 1 - e^ε x)`` as printed (each term
    ``max(0, Q - e^ε P)``, ``f'(∞) = 0``); ``FForm.CORRECTED`` is ``f(x) = max(0, x - e^ε)``
    (each term ``max(0, P - e^ε Q)``, ``f'(∞) = 1``), whose divergence is the hockey stick.

    Args:
        p: the exact PMF ``P``.
        q: the exact PMF ``Q``.
        eps: ε.
        form: which ``f``.

    Returns:
        The exact :class:`WLin`.

    References:
        Desfontaines et al. (2020), Section 3.4, proof of Proposition 5; Csiszár (1967)
        for f-divergences.
    """
    total = WLin.const(0, eps)
    for o in set(p) | set(q):
        po, qo = Fraction(p.get(o, 0)), Fraction(q.get(o, 0))
        if form is FForm.PRINTED:
            # Q f(P/Q) = max(0, Q - e^ε P); f'(∞) = 0
            total = total + positive_part(WLin(qo, -po, eps))
        else:
            # Q f(P/Q) = max(0, P - e^ε Q); f'(∞) = 1
            total = total + positive_part(WLin(po, -qo, eps))
    return total


def ppk_f_divergence(
    scenario: Scenario, mech: Mechanism, i: int, a: Any, b: Any, eps: Eps, form: FForm
) -> WLin:
    """``Σ_B̂ P[B̂ | D(i)=a] · D_f(O_{a,B̂} || O_{b,B̂})``: the f-divergence form of PPK.

    Args:
        scenario: the joint law θ.
        mech: the mechanism.
        i: the target record's index (0-based).
        a: the target's value the weights condition on.
        b: the target's alternative value.
        eps: ε.
        form: which ``f`` (:class:`FForm`).

    Returns:
        The exact :class:`WLin`.

    References:
        Desfontaines et al. (2020), Section 3.4, proof of Proposition 5.
    """
    total = WLin.const(0, eps)
    for bhat in scenario.knowledge_values():
        w = scenario.prob_knowledge_given(i, a, bhat)
        if w:
            pa = output_pmf(scenario, mech, i, a, bhat)
            pb = output_pmf(scenario, mech, i, b, bhat)
            total = total + f_divergence(pa, pb, eps, form).scale(w)
    return total


__all__ = ["FForm", "f_divergence", "ppk_f_divergence"]
