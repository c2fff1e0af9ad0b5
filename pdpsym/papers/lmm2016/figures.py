"""Liu et al.'s Fig. 6 as certified data (see :mod:`pdpsym.claims.figure`).

Fig. 6 ("Separation for different queries under dependent tuples", Sec. VI) is lost with
the fragment's figures, as are its parameters; the text around it survives. It defines the
*separation* of a noisy query ``A(D) = Q(D) + Lap(1/eps)`` as the largest log-ratio
``sup_S |ln P(A([D_i = d1, D_j]) = S) / P(A([D_i = d2, D_j]) = S)|`` over the two values
of ``D_i``, where ``D_j`` follows its law given ``D_i``; it compares the queries sum,
subtraction and multiplication of two tuples in ``[0, 1]``, and says that under
independence each separation is the DP guarantee ``eps``, and that when a change of
``D_i`` moves ``D_j`` by at most 0.5 the sum's sensitivity becomes 1.5.

What is shown instead (our model, stated here and in the caption): ``D_i`` in ``{0, 1}``,
``D_j = c D_i + (1 - c) B`` with ``B`` a fair bit independent of ``D_i``, so a change of
``D_i`` moves ``D_j`` by exactly ``c``; ``eps = 1`` (Laplace scale 1). Against ``c``, each
query's separation under this dependence is computed exactly -- the output laws given
``D_i = 0`` and ``D_i = 1`` are Laplace mixtures, and the sup of their log-ratio over
outputs is attained in a tail or at a support point
(:func:`pdpsym.loss.laplace_mixture.mixture_candidates`) -- next to the independent
separation ``eps * max_v |Q(1, v) - Q(0, v)|`` (``D_j`` held at each value ``v``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from pdpsym.claims.figure import FigureSpec, Line, Multiples, Plot, Scale, Words
from pdpsym.core.certify import certify
from pdpsym.core.numbers import fraction_str
from pdpsym.loss.laplace_mixture import decided_sup, mixture_candidates

DIGITS = 15
SCALE = Fraction(1)  # Laplace scale 1/eps with eps = 1
HALF = Fraction(1, 2)
QUERIES: dict[str, Callable[[Fraction, Fraction], Fraction]] = {
    "sum": lambda a, b: a + b,
    "subtraction": lambda a, b: a - b,
    "multiplication": lambda a, b: a * b,
}
COLUMNS = ("query", "c", "separation_independent", "separation_dependent")
LINES = (
    Line("separation_dependent", "dependent tuples"),
    Line("separation_independent", "independent tuples", dashed=True),
)
PLOT = Plot(
    "c", LINES, "c (change of D_j per unit change of D_i)", "separation (eps = 1)", group="query"
)


def output_law(query: str, d: Fraction, c: Fraction) -> dict[Fraction, Fraction]:
    """The law of ``Q(d, D_j)`` given ``D_i = d``: ``D_j = c d + (1 - c) B``, ``B`` a fair bit.

    Args:
        query: ``"sum"``, ``"subtraction"`` or ``"multiplication"`` (a key of ``QUERIES``).
        d: the value of D_i, 0 or 1.
        c: how far a unit change of D_i moves D_j, in [0, 1].

    Returns:
        A dict query value -> exact probability.

    References:
        Liu et al. (2016), Section VI, Fig. 6 (the queries sum, subtraction and
        multiplication over two dependent tuples; the model of D_j is ours, the
        figure's parameters being lost).
    """
    law: dict[Fraction, Fraction] = {}
    for b in (Fraction(0), Fraction(1)):
        q = QUERIES[query](d, c * d + (1 - c) * b)
        law[q] = law.get(q, Fraction(0)) + HALF
    return law


def separation_dependent(query: str, c: Fraction) -> object:
    """``sup_S |ln P(A | D_i = 0)(S) / P(A | D_i = 1)(S)|`` of ``A = Q + Lap(1)``, exact.

    Args:
        query: ``"sum"``, ``"subtraction"`` or ``"multiplication"``.
        c: how far a unit change of D_i moves D_j, in [0, 1].

    Returns:
        The separation as an exact :class:`~pdpsym.core.exp_polynomials.LogRatio` (the sup over
        outputs of a log-ratio of two Laplace mixtures, decided exactly).

    References:
        Liu et al. (2016), Section VI, Fig. 6 and the separation metric defined in its
        text (Laplace noise of parameter 1/eps, eps = 1).
    """
    w0, w1 = output_law(query, Fraction(0), c), output_law(query, Fraction(1), c)
    cands = mixture_candidates(w0, w1, SCALE) + mixture_candidates(w1, w0, SCALE)
    return decided_sup(cands)[0]


def separation_independent(query: str) -> Fraction:
    """``eps * max_v |Q(1, v) - Q(0, v)|`` over ``v`` in ``[0, 1]`` (the DP guarantee).

    The extremes are at ``v = 0`` or ``1`` for these queries (each is affine in v for fixed
    D_i), with eps = 1.

    Args:
        query: ``"sum"``, ``"subtraction"`` or ``"multiplication"``.

    Returns:
        The separation under independent tuples, an exact Fraction.

    References:
        Liu et al. (2016), Section VI, Fig. 6 ("assuming independent tuples, the separation
        for each noisy query output is the same eps as guaranteed by DP").
    """
    f = QUERIES[query]
    return max(abs(f(Fraction(1), v) - f(Fraction(0), v)) for v in (Fraction(0), Fraction(1)))


#: The values of c plotted: ``0, 1/k, ..., 1`` with k = 8 (paper) or 4 (quick). Liu et al.
#: (2016), Section VI, Fig. 6 (c = 1/2 is the text's example).
cs = Multiples(paper=(Fraction(1, 8), 0, 8), quick=(Fraction(1, 4), 0, 4))


def points(scale: Scale) -> list[tuple[str, Fraction]]:
    """One point per (query, c).

    Args:
        scale: the figure scale.

    Returns:
        The list of ``(query, c)`` arguments, query-major.

    References:
        Liu et al. (2016), Section VI, Fig. 6.
    """
    return [(q, c) for q in QUERIES for c in cs(scale)]


def point(args: tuple[str, Fraction]) -> list[dict[str, str]]:
    """The row of one (query, c): both separations as certified decimals.

    Args:
        args: ``(query, c)`` as listed by :func:`points`.

    Returns:
        One row (column -> text); the separations as certified decimals (15 significant
    digits, each correct).

    References:
        Liu et al. (2016), Section VI, Fig. 6.
    """
    query, c = args
    sep_independent = certify(separation_independent(query), DIGITS).decimal
    sep_dependent = certify(separation_dependent(query, c), DIGITS).decimal  # type: ignore[arg-type]
    return [
        dict(zip(COLUMNS, (query, fraction_str(c), sep_independent, sep_dependent), strict=True))
    ]


def _fig6_params(scale: Scale) -> dict[str, str]:
    """Fig. 6's params at ``scale`` (its values of c differ)."""
    return {
        "eps": "1",
        "D_i": "{0, 1}",
        "D_j": "c D_i + (1-c) B, B ~ Bernoulli(1/2)",
        "c": ",".join(fraction_str(c) for c in cs(scale)),
    }


FIG6 = FigureSpec(
    "lmm2016.fig6",
    "Separation for different queries under dependent tuples",
    points,
    point,
    Words(
        "Separation of sum, subtraction and multiplication under dependent tuples",
        "Separation sup_S |ln P(A(D_i = 0, D_j) = S)/P(A(D_i = 1, D_j) = S)| of "
        "A = Q(D_i, D_j) + Lap(1/eps), eps = 1, for D_i in {0, 1} and D_j = c D_i + "
        "(1-c) B, B a fair bit (a change of D_i moves D_j by c), against c; dashed: the "
        "independent separation eps max_v |Q(1, v) - Q(0, v)|. The paper's figure and "
        "its parameters are lost; this model is ours, chosen so that c = 1/2 is the "
        "text's example (the sum's sensitivity becomes 1.5).",
        _fig6_params,
    ),
    columns=COLUMNS,
    plot=PLOT,
).register()
