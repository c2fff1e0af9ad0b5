"""The multivariate Gaussian model of Li et al. Section VI-A, with exact rational entries.

``x ~ N(mu, Sigma)`` over named tuples ``x_1..x_n``. Only a target's range is bounded,
``x_i in [l_i, u_i]`` (Section VI-B; the local sensitivity of a target is its range).
The model validates exactly: ``Sigma`` is symmetric and positive definite (every pivot
of an exact LDL^T factorization is > 0, which for a symmetric matrix is equivalent to
all leading principal minors being > 0), the mean has one entry per variable, every
range has ``l < u``, and names are unique.

JSON: ``{"variables": [...], "mean": [...], "cov": [[...], ...],
"ranges": {"x1": ["0", "1"]}}``; numbers are strings parsed by
:func:`pdpsym.core.numbers.parse_rational` (never evaluated).

The exact linear algebra below works on :class:`fractions.Fraction` lists (fast); the
model also offers its mean and covariance as sympy matrices.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str, parse_rational, to_sympy
from pdpsym.models.variables import NamedVariables, check_names

if TYPE_CHECKING:
    import sympy

FMatrix = list[list[Fraction]]


# --- exact linear algebra over the rationals -------------------------------------------


def ldl_pivots(m: Sequence[Sequence[Fraction]]) -> list[Fraction]:
    """The pivots d_k of the exact LDL^T factorization of a symmetric matrix.

    Elimination stops at the first pivot that is <= 0 (that pivot is returned last):
    a symmetric matrix is positive definite iff every pivot is > 0, and the k-th pivot
    is the ratio of the k-th to the (k-1)-th leading principal minor.

    Args:
        m: a symmetric matrix of rationals.

    Returns:
        The pivots, in order, up to and including the first one that is <= 0.

    References:
        Golub and Van Loan, "Matrix Computations" (4th ed., 2013), Section 4.1 (LDL^T)
        and Section 4.2 (positive definite systems).
    """
    a = [[Fraction(v) for v in row] for row in m]
    n = len(a)
    pivots: list[Fraction] = []
    for k in range(n):
        d = a[k][k]
        pivots.append(d)
        if d <= 0:
            break
        for r in range(k + 1, n):
            f = a[r][k] / d
            if f:
                for c in range(k + 1, n):
                    a[r][c] -= f * a[k][c]
    return pivots


def is_positive_definite(m: Sequence[Sequence[Fraction]]) -> bool:
    """Whether a symmetric rational matrix is positive definite (every LDL^T pivot > 0).

    Args:
        m: a symmetric matrix of rationals.

    Returns:
        True when every pivot of :func:`ldl_pivots` is positive, exactly.

    References:
        Golub and Van Loan, "Matrix Computations" (4th ed., 2013), Section 4.2;
        Li et al. (2019), Section VI-A (a Gaussian model's covariance).
    """
    piv = ldl_pivots(m)
    return len(piv) == len(m) and all(d > 0 for d in piv)


def solve(m: Sequence[Sequence[Fraction]], rhs: Sequence[Sequence[Fraction]]) -> FMatrix:
    """Exact solution X of ``m X = rhs`` (Gauss-Jordan with a nonzero pivot search).

    Args:
        m: a square matrix of rationals.
        rhs: the right-hand sides, as the columns of a matrix with ``len(m)`` rows.

    Returns:
        X, with one column per column of ``rhs``.

    Raises:
        ZeroDivisionError: ``m`` is singular.

    References:
        Golub and Van Loan, "Matrix Computations" (4th ed., 2013), Section 3.2
        (Gaussian elimination; exact over the rationals, so any nonzero pivot serves).
    """
    n = len(m)
    k_cols = len(rhs[0]) if rhs else 0
    a = [[Fraction(v) for v in m[r]] + [Fraction(v) for v in rhs[r]] for r in range(n)]
    for col in range(n):
        piv = next((r for r in range(col, n) if a[r][col] != 0), None)
        if piv is None:
            raise ZeroDivisionError("singular matrix")
        a[col], a[piv] = a[piv], a[col]
        p = a[col][col]
        row = [v / p for v in a[col]]
        a[col] = row
        for r in range(n):
            if r != col and a[r][col] != 0:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], row, strict=True)]
    return [row[n : n + k_cols] for row in a]


def submatrix(m: Sequence[Sequence[Fraction]], rows: Sequence[int], cols: Sequence[int]) -> FMatrix:
    """The block of ``m`` on the given rows and columns (``Sigma_{AB}`` in the paper).

    Args:
        m: a matrix.
        rows: the row indices, in order.
        cols: the column indices, in order.

    Returns:
        The submatrix as a list of rows.

    References:
        Li et al. (2019), Section VI-A, Lemma 1 (the blocks of the covariance).
    """
    return [[m[r][c] for c in cols] for r in rows]


# --- the model ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class GaussianModel(NamedVariables):
    """``N(mean, cov)`` over named tuples, with ranges ``[l, u]`` for possible targets.

    Examples:
        >>> import pdpsym as ps
        >>> g = ps.GaussianModel.from_json_object({"variables": ["x1", "x2"], "mean": ["0", "0"],
        ...     "cov": [["1", "0"], ["0", "1"]], "ranges": {"x1": ["0", "1"]}})
        >>> g.variables, g.range_of("x1")
        (('x1', 'x2'), (Fraction(0, 1), Fraction(1, 1)))
    """

    variables: tuple[str, ...]
    mean: tuple[Fraction, ...]
    cov: tuple[tuple[Fraction, ...], ...]
    ranges: Mapping[str, tuple[Fraction, Fraction]]

    @classmethod
    def build(
        cls,
        variables: Sequence[str],
        mean: Sequence[Any],
        cov: Sequence[Sequence[Any]],
        ranges: Mapping[str, Sequence[Any]] | None = None,
    ) -> GaussianModel:
        """Validate and build; numbers may be strings ("3/10"), ints or Fractions."""
        names = check_names(variables)
        n = len(names)
        if not isinstance(mean, list | tuple) or len(mean) != n:
            got = len(mean) if isinstance(mean, list | tuple) else type(mean).__name__
            raise InputError("mean", f"expected {n} entries (one per variable), got {got}")
        mu = tuple(parse_rational(v, f"mean[{k}]") for k, v in enumerate(mean))
        if not isinstance(cov, list | tuple) or len(cov) != n:
            raise InputError("cov", f"expected a {n}x{n} matrix")
        rows: list[tuple[Fraction, ...]] = []
        for r, row in enumerate(cov):
            if not isinstance(row, list | tuple) or len(row) != n:
                raise InputError(f"cov[{r}]", f"expected {n} entries")
            rows.append(tuple(parse_rational(v, f"cov[{r}][{c}]") for c, v in enumerate(row)))
        for r in range(n):
            for c in range(r + 1, n):
                if rows[r][c] != rows[c][r]:
                    raise InputError(
                        "cov",
                        f"not symmetric: cov[{r}][{c}] = {fraction_str(rows[r][c])} but "
                        f"cov[{c}][{r}] = {fraction_str(rows[c][r])}",
                    )
        piv = ldl_pivots(rows)
        if len(piv) < n or piv[-1] <= 0:
            k = len(piv)
            if piv[-1] == 0:
                why = f"singular: leading principal minor of order {k} is zero"
            else:
                why = f"leading principal minor of order {k} is negative"
            raise InputError("cov", f"not positive definite ({why})")
        rng: dict[str, tuple[Fraction, Fraction]] = {}
        for name, pair in (ranges or {}).items():
            if name not in names:
                raise InputError("ranges", f"unknown variable {name!r}")
            if not isinstance(pair, list | tuple) or len(pair) != 2:
                raise InputError(f"ranges.{name}", "expected [l, u]")
            lo = parse_rational(pair[0], f"ranges.{name}[0]")
            hi = parse_rational(pair[1], f"ranges.{name}[1]")
            if not lo < hi:
                raise InputError(f"ranges.{name}", f"need l < u, got [{pair[0]}, {pair[1]}]")
            rng[name] = (lo, hi)
        return cls(names, mu, tuple(rows), rng)

    @classmethod
    def from_json_object(cls, obj: Mapping[str, Any]) -> GaussianModel:
        """Build from the JSON object (see the module docstring); fields are checked by name."""
        if not isinstance(obj, Mapping):
            raise InputError("model", "expected an object")
        for key in ("variables", "mean", "cov"):
            if key not in obj:
                raise InputError(key, "missing (a Gaussian model needs variables, mean, cov)")
        extra = set(obj) - {"variables", "mean", "cov", "ranges", "name", "description"}
        if extra:
            raise InputError(sorted(map(str, extra))[0], "unknown field in a Gaussian model")
        ranges = obj.get("ranges", {})
        if not isinstance(ranges, Mapping):
            raise InputError("ranges", "expected an object {name: [l, u]}")
        return cls.build(obj["variables"], obj["mean"], obj["cov"], ranges)

    # --- access ----------------------------------------------------------------------

    def range_of(self, name: str, field: str = "target") -> tuple[Fraction, Fraction]:
        """The range ``[l_i, u_i]`` of target ``name``; an InputError naming ``ranges``
        when none was given."""
        if name not in self.ranges:
            raise InputError("ranges", f"no range [l, u] given for target {name!r} ({field})")
        return self.ranges[name]

    def mean_matrix(self) -> sympy.Matrix:
        """The mean as a sympy column vector."""
        import sympy  # only the matrix forms need sympy (reading a model file does not)

        return sympy.Matrix([[to_sympy(v)] for v in self.mean])

    def cov_matrix(self) -> sympy.Matrix:
        """The covariance as a sympy matrix."""
        import sympy  # only the matrix forms need sympy (reading a model file does not)

        return sympy.Matrix([[to_sympy(v) for v in row] for row in self.cov])

    def cov_list(self) -> FMatrix:
        """A copy of the covariance as a list of rational rows."""
        return [list(row) for row in self.cov]

    def permuted(self, order: Sequence[int]) -> GaussianModel:
        """The same model with variables listed in ``order`` (for invariance checks)."""
        return GaussianModel(
            tuple(self.variables[k] for k in order),
            tuple(self.mean[k] for k in order),
            tuple(tuple(self.cov[r][c] for c in order) for r in order),
            dict(self.ranges),
        )


def gaussian_of(model: Any) -> GaussianModel | None:
    """The model as a multivariate Gaussian, or None (a view, as
    :func:`pdpsym.models.model_objects.chain_of` is for chains).

    Args:
        model: any model.

    Returns:
        The model itself when it is a :class:`GaussianModel`, else None.

    References:
        Li et al. (2019), Section VI (Gaussian models).
    """
    return model if isinstance(model, GaussianModel) else None


def equicorrelated(
    n: int, rho: Fraction, rng: tuple[Fraction, Fraction] = (Fraction(0), Fraction(1))
) -> GaussianModel:
    """Section VII-A: unit variances, every covariance ``rho`` (domain size 1).

    Args:
        n: the number of tuples, named ``x1`` ... ``xn``.
        rho: the common covariance; the matrix must be positive definite
            (``-1/(n-1) < rho < 1``; ``InputError("cov")`` otherwise).
        rng: every tuple's range ``[l, u]`` (default ``[0, 1]``: domain size 1).

    Returns:
        The exact Gaussian model, mean 0.

    References:
        Li et al. (2019), Section VII-A (the simulations' continuous data: 15 tuples, domain
        size 1; the paper adjusts the diagonal, here the variances are 1).
    """
    names = [f"x{k + 1}" for k in range(n)]
    cov = [[Fraction(1) if r == c else rho for c in range(n)] for r in range(n)]
    return GaussianModel.build(names, [0] * n, cov, {nm: list(rng) for nm in names})


__all__ = [
    "equicorrelated",
    "gaussian_of",
    "GaussianModel",
    "is_positive_definite",
    "ldl_pivots",
    "solve",
    "submatrix",
]
