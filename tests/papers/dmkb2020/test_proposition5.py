"""Proposition 5's f-divergence form (Desfontaines et al. Sec. 3.4): both readings of ``f``
against ``D_f`` written out from its definition, the sup over sets, and PPK."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from pdpsym.core.eps import Eps
from pdpsym.loss.plrv import ppk
from pdpsym.mechanisms.finite import random_mechanism, random_scenario
from pdpsym.papers.dmkb2020.proposition5 import FForm, f_divergence, ppk_f_divergence

#: e^ε rational, so every D_f is a Fraction the brute forces can compare exactly
RATIOS = [Fraction(1), Fraction(2), Fraction(3, 2), Fraction(5)]

pmf_weights = st.lists(st.integers(0, 4), min_size=3, max_size=3).filter(lambda w: sum(w) > 0)


def _pmf(w: list[int]) -> dict[int, Fraction]:
    return {o: Fraction(x, sum(w)) for o, x in enumerate(w) if x}


def _d_f(p: dict[int, Fraction], q: dict[int, Fraction], f, f_inf: Fraction) -> Fraction:
    """Csiszár's ``D_f(P||Q) = Σ_{Q>0} Q f(P/Q) + P(Q=0) f'(∞)``, term by term."""
    outs = set(p) | set(q)
    return sum(
        (q[o] * f(p.get(o, Fraction(0)) / q[o]) if o in q else p[o] * f_inf for o in outs),
        Fraction(0),
    )


def _sup_over_sets(p: dict[int, Fraction], q: dict[int, Fraction], w: Fraction) -> Fraction:
    """Definition 1's ``sup_X P(X) - e^ε Q(X)`` over every subset of the outputs."""
    outs = sorted(set(p) | set(q))
    return max(
        sum((p.get(o, 0) - w * q.get(o, 0) for o in xs), Fraction(0))
        for r in range(len(outs) + 1)
        for xs in itertools.combinations(outs, r)
    )


@given(pmf_weights, pmf_weights, st.sampled_from(RATIOS))
def test_each_reading_is_csiszar_divergence_of_its_f(
    wp: list[int], wq: list[int], w: Fraction
) -> None:
    p, q, eps = _pmf(wp), _pmf(wq), Eps.log(w)
    printed = _d_f(p, q, lambda x: max(Fraction(0), 1 - w * x), Fraction(0))
    corrected = _d_f(p, q, lambda x: max(Fraction(0), x - w), Fraction(1))
    assert f_divergence(p, q, eps, FForm.PRINTED).rational() == printed
    assert f_divergence(p, q, eps, FForm.CORRECTED).rational() == corrected


@given(pmf_weights, pmf_weights, st.sampled_from(RATIOS))
def test_corrected_reading_is_the_sup_over_sets(wp: list[int], wq: list[int], w: Fraction) -> None:
    p, q = _pmf(wp), _pmf(wq)
    assert f_divergence(p, q, Eps.log(w), FForm.CORRECTED).rational() == _sup_over_sets(p, q, w)
    # the printed f is the hockey stick of the reversed pair
    assert f_divergence(p, q, Eps.log(w), FForm.PRINTED).rational() == _sup_over_sets(q, p, w)


def test_printed_reading_differs_on_a_point_mass() -> None:
    # by hand, e^ε = 2, P = δ_0, Q = (1/2, 1/2): Σ max(0, P - 2Q) = 0 + 0,
    # Σ max(0, Q - 2P) = max(0, 1/2 - 2) + 1/2 = 1/2
    p, q, eps = {0: Fraction(1)}, {0: Fraction(1, 2), 1: Fraction(1, 2)}, Eps.log(2)
    assert f_divergence(p, q, eps, FForm.CORRECTED).rational() == 0
    assert f_divergence(p, q, eps, FForm.PRINTED).rational() == Fraction(1, 2)


@given(st.integers(0, 10**6), st.sampled_from(RATIOS))
def test_corrected_form_is_ppk_per_ordered_pair(seed: int, w: Fraction) -> None:
    rng = random.Random(seed)
    scn = random_scenario(rng)
    mech, _ = random_mechanism(rng, scn.n)
    eps = Eps.log(w)
    for i in range(scn.n):
        if not scn.fully_compatible(i):
            continue
        for a, b in ((0, 1), (1, 0)):
            assert ppk(scn, mech, i, a, b, eps) == ppk_f_divergence(
                scn, mech, i, a, b, eps, FForm.CORRECTED
            )
