"""li2019.eq3 -- Li et al. 2019 (prior differential privacy), Section IV-A, Eq. 3.

Claim. For an adversary ``A(i, K)`` who knows ``x_K`` and sees the output ``r``, the gain
in posterior log-odds of two values ``a, b`` of the target ``x_i`` equals the log of the
Eq. 2 likelihood ratio:

    ln [P(x_i = a | r, x_K) / P(x_i = b | r, x_K)] - ln [P(x_i = a | x_K) / P(x_i = b | x_K)]
        = ln [p(r | a, x_K) / p(r | b, x_K)],

so bounding Eq. 2 bounds what the output teaches about ``x_i``.

Argument.
1. Bayes' rule: ``P(x_i = a | r, x_K) = θ_a p_a / Z`` with ``θ_a = P(x_i = a | x_K)``,
   ``p_a = p(r | a, x_K)`` and the evidence ``Z = p(r | x_K) = Σ_v θ_v p_v``.
2. In the ratio of two posteriors the evidence ``Z`` cancels; taking logs, the prior
   log-odds ``ln θ_a/θ_b`` separates and what is left is ``ln p_a/p_b``.
Checked symbolically (``Z`` a free positive symbol), then at 50 digits on random priors
and Laplace-mixture likelihoods (``p(r | v) = Σ_s θ(s | v) e^{-|r - s|}/2``) with the
evidence computed as the full normalizing sum over three values of ``x_i``.
"""

from __future__ import annotations

import sympy as sp
from spot import holds_at_random_points, positive_rational, rational, run

CLAIM = "li2019.eq3"


def main() -> bool:
    """Eq. 3: posterior log-odds gain = log likelihood ratio; True when every step holds."""
    ta, tb, pa, pb, z = sp.symbols("theta_a theta_b p_a p_b Z", positive=True)
    gain = sp.log((ta * pa / z) / (tb * pb / z)) - sp.log(ta / tb)
    assert sp.simplify(sp.expand_log(gain - sp.log(pa / pb), force=True)) == 0, "Bayes step"
    # spot check: three values of x_i, each with a two-point Laplace mixture likelihood
    r = sp.Symbol("r")
    th = sp.symbols("t1:4")
    w = sp.symbols("w1:7")
    s = sp.symbols("s1:7")
    lik = [
        (
            w[2 * k] * sp.exp(-sp.Abs(r - s[2 * k]))
            + w[2 * k + 1] * sp.exp(-sp.Abs(r - s[2 * k + 1]))
        )
        / (2 * (w[2 * k] + w[2 * k + 1]))
        for k in range(3)
    ]
    evidence = sum(t * p for t, p in zip(th, lik, strict=True))
    post = [t * p / evidence for t, p in zip(th, lik, strict=True)]
    lhs = sp.log(post[0] / post[1]) - sp.log(th[0] / th[1])
    draws = [(x, positive_rational) for x in (*th, *w)] + [(x, rational) for x in (*s, r)]
    return holds_at_random_points(lhs, sp.log(lik[0] / lik[1]), draws)


if __name__ == "__main__":
    run(CLAIM, main)
