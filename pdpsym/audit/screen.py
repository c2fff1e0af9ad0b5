"""Randomized response audited fast: float64 ranks the cases, exact Fractions decide.

For randomized response (:class:`~pdpsym.mechanisms.discrete.RandomizedResponse`) the
mechanism is a product over records, ``M(o | D) = prod_j R_j(o_j | D(j))`` with
``R_j(o | x) = keep`` if ``o = x`` and ``(1 - keep) / (|X_j| - 1)`` otherwise. The
cases of :mod:`pdpsym.audit.notions` then need no loop over (database, output) pairs:

* ``apkdp``/``np``, ``ppkdp``, ``cdp``: the law of ``M(D)`` given ``D(i) = a, B = B̂``
  is ``R_i(. | a) ⊗ R_K(. | B̂) ⊗ g_{a,B̂}``, where ``g_{a,B̂}`` is the conditional law
  of the other records contracted with their ``R_j`` (a tensor contraction, one record
  axis at a time); ``cdp``'s changed law swaps ``R_i(. | a)`` for ``R_i(. | b)``. The
  known records' factor ``R_K(. | B̂)`` is common to both laws of a case and sums to 1,
  so each case's hockey-stick divergence (Desfontaines et al. Lemma 1) and its largest
  likelihood ratio are those of the reduced laws on ``(o_i, o_others)``.
* ``dp``: ``M(D)`` and ``M(D_{i→b})`` differ only in record ``i``'s factor, so the
  curve of the case ``(D, b)`` is the one-record curve of ``R_i(. | D(i))`` against
  ``R_i(. | b)``: every case with the same ``(D(i), b)`` has the same curve, and the
  first of them in the order of :func:`~pdpsym.audit.notions.dp_cases` stands for them
  (the exact maxima keep the first case attaining them, so the witness is unchanged).

The method: every case's reduced laws are computed in float64 with numpy, vectorized over
the outputs; the floats only rank. For ε at δ = 0 a case is kept when its float largest
ratio lies within :func:`~pdpsym.core.compare.screen_tolerance` of the float maximum;
for δ at ε, when its float δ does; for ε at a δ > 0, when its float δ at
``τ = (1 - 10^-9) t*`` exceeds δ less the tolerance, ``t*`` being the *exact* ``e^ε`` of
the float leader (a case's ``e^ε(δ)`` exceeds ``τ`` iff its δ at ``τ`` exceeds δ, so
every maximizer is kept), plus every case whose mass on outputs with ``Q = 0`` may
exceed δ (an infinite ε). The first case is always kept (an exact tie keeps the first
case), and so is every case whose floats are not finite. The kept cases, in their
original order, are then built exactly (Fractions, the same PMFs as
:mod:`pdpsym.audit.notions` builds, output for output and in the same order) and given
to :func:`~pdpsym.loss.curve.worst_ratio` / :func:`~pdpsym.loss.curve.worst_delta`, so
ε, δ(ε), ε(δ) and the witnesses are exactly those of the exhaustive path.

Why the floats are safe to rank with: the reduced laws are sums of products of at most
``n + 2`` non-negative floats, so each has relative error below ``(n + 4) 2^-53``, and
a float is zero exactly where the exact value is (screening is refused, and every case
decided exactly, when a product could leave the normal float range). The error of a
float δ is then below ``10^-13`` and that of a ratio below ``10^-14`` relative, far
inside the ``10^-7`` tolerance.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from pdpsym.audit import registry
from pdpsym.audit.registry import SCREENED_PAIRS, Notion, Pairs
from pdpsym.core.compare import screen_tolerance, screenable_float
from pdpsym.core.eps import Eps
from pdpsym.loss.curve import Case, CurvePoint, worst_delta, worst_ratio
from pdpsym.mechanisms.base import ReportMechanism
from pdpsym.mechanisms.discrete import RandomizedResponse
from pdpsym.models.joint import JointDistribution
from pdpsym.models.neighbours import databases
from pdpsym.models.scenario import PMF, Scenario

ONE = Fraction(1)

#: a float below this may have lost relative precision (or underflowed to zero)
_SAFE_LOW = 1e-280
#: τ sits this far (relatively) below the exact leader's e^ε(δ)
_BELOW = 1e-9


def applies(notion: Notion | str, model: JointDistribution, mech: Any) -> bool:
    """Whether :class:`Screened` handles this notion for this mechanism and model.

    It does for the notions whose pairs are among
    :data:`~pdpsym.audit.registry.SCREENED_PAIRS` when ``mech`` is randomized response
    over as many records as the model has, each record's response domain without
    repeats and holding every value of the model's domain.

    Args:
        notion: the notion (or its name).
        model: the joint law of the records.
        mech: the mechanism.

    Returns:
        True when the screened path applies, else False (walk every case exactly).

    References:
        Warner (1965) (randomized response); Desfontaines et al. (2020), Section 3.1,
        Lemma 1 (the hockey-stick divergence of a case).
    """
    if isinstance(notion, str):
        notion = registry.notion(notion)
    if (
        notion.pairs not in SCREENED_PAIRS
        or not isinstance(mech, ReportMechanism)
        or mech.symmetric_keep() is None
    ):
        return False
    if len(mech.domains) != model.n:
        return False
    for dom, mdom in zip(mech.domains, model.domains, strict=True):
        if len(set(dom)) != len(dom) or any(x not in dom for x in mdom):
            return False
    return True


class Screened:
    """One notion's cases for randomized response: floats to rank, exact to decide."""

    def __init__(
        self,
        notion: Notion,
        model: JointDistribution,
        mech: RandomizedResponse,
        target: str,
        known: Sequence[str],
    ) -> None:
        self.pairs = notion.pairs
        self.model, self.mech = model, mech
        self.i = i = model.index(target)
        self.K = [model.index(k) for k in known]
        self.sc = Scenario.from_model(model, known)
        self.F = [j for j in range(model.n) if j != i and j not in self.K]
        self._exact: dict[int, Case] = {}
        # exact counts in (target, known..., others...) order: C[a, B̂, rest] / L = θ
        ct = np.asarray(model.counts).transpose([i, *self.K, *self.F])
        mi = len(model.domains[i])
        self.mk = math.prod(len(model.domains[j]) for j in self.K)
        self.Ct = ct.reshape(mi, self.mk, -1)
        self.Z = [[int(v) for v in row] for row in self.Ct.sum(axis=2)]
        self.pos = [{v: k for k, v in enumerate(d)} for d in model.domains]
        self.keys: list[Any] = []
        self.P: np.ndarray | None = None
        self.Q: np.ndarray | None = None
        self._build()

    # --- positions ---------------------------------------------------------------------

    def _bidx(self, bhat: tuple[Any, ...]) -> int:
        dims = [len(self.model.domains[j]) for j in self.K]
        idx = [self.pos[j][v] for j, v in zip(self.K, bhat, strict=True)]
        return int(np.ravel_multi_index(idx, dims)) if dims else 0

    def _compatible(self, a: Any, kb: int) -> bool:
        return self.Z[self.pos[self.i][a]][kb] > 0

    # --- the kernels -------------------------------------------------------------------

    def _float_kernel(self, j: int) -> np.ndarray | None:
        """``R_j(o | x)`` as floats, rows the model's values, columns the outputs."""
        keep, dom = self.mech.keep, self.mech.domains[j]
        other = (1 - keep) / (len(dom) - 1) if len(dom) > 1 else Fraction(0)
        fk, fo = screenable_float(keep), screenable_float(other)
        if fk is None or fo is None:
            return None
        return np.array([[fk if o == x else fo for o in dom] for x in self.model.domains[j]])

    def _int_kernel(self, j: int) -> tuple[np.ndarray, int]:
        """``R_j`` as integers over one common denominator."""
        keep, dom = self.mech.keep, self.mech.domains[j]
        if keep == 1:
            den, on, off = 1, 1, 0
        else:
            s = len(dom) - 1
            den, on, off = (
                keep.denominator * s,
                keep.numerator * s,
                keep.denominator - keep.numerator,
            )
        rows = [[on if o == x else off for o in dom] for x in self.model.domains[j]]
        return np.array(rows, dtype=object), den

    # --- the cases and their float laws --------------------------------------------------

    def _build(self) -> None:
        sc, i = self.sc, self.i
        if self.pairs is Pairs.NEIGHBOURS:
            self._dp_keys()
            return  # one case per (D(i), b): every one is decided exactly
        support = sc.record_values(i)
        kvals = [(bh, self._bidx(bh)) for bh in sc.knowledge_values()]
        g = self._float_g()
        Ri = self._float_kernel(i)
        ok = g is not None and Ri is not None
        rows_p: list[np.ndarray] = []
        rows_q: list[np.ndarray] = []
        pi = self.pos[i]

        def red(a: Any, c: Any, kb: int) -> np.ndarray:
            # the reduced law R_i(. | c) ⊗ g_{a, B̂} on (o_i, o_others)
            assert g is not None and Ri is not None
            return np.outer(Ri[pi[c]], g[pi[a], kb]).ravel()

        if self.pairs is Pairs.GIVEN_KNOWN:
            for a, b in itertools.permutations(support, 2):
                for bh, kb in kvals:
                    if self._compatible(a, kb) and self._compatible(b, kb):
                        self.keys.append((a, b, bh, kb))
                        if ok:
                            rows_p.append(red(a, a, kb))
                            rows_q.append(red(b, b, kb))
        elif self.pairs is Pairs.WEIGHTED_KNOWN:
            for a, b in itertools.permutations(support, 2):
                za = sum(self.Z[pi[a]])
                terms = [(bh, kb) for bh, kb in kvals if self.Z[pi[a]][kb]]
                self.keys.append((a, b, terms))
                if ok:
                    ps, qs = [], []
                    for _, kb in terms:
                        w = self.Z[pi[a]][kb] / za
                        ps.append(w * red(a, a, kb))
                        qs.append(
                            w * red(b, b, kb) if self._compatible(b, kb) else np.zeros_like(ps[-1])
                        )
                    rows_p.append(np.concatenate(ps))
                    rows_q.append(np.concatenate(qs))
        else:  # Pairs.CHANGED
            dom = list(self.model.domains[i])
            for bh, kb in kvals:
                for a in support:
                    if not self._compatible(a, kb):
                        continue
                    for b in dom:
                        if b == a or (b in support and not self._compatible(b, kb)):
                            continue
                        for forward in (True, False):
                            self.keys.append((a, b, bh, kb, forward))
                            if ok:
                                pa, pc = red(a, a, kb), red(a, b, kb)
                                rows_p.append(pa if forward else pc)
                                rows_q.append(pc if forward else pa)
        if ok and rows_p:
            width = max(len(r) for r in rows_p)
            self.P = np.zeros((len(rows_p), width))
            self.Q = np.zeros((len(rows_p), width))
            for k, (p, q) in enumerate(zip(rows_p, rows_q, strict=True)):
                self.P[k, : len(p)], self.Q[k, : len(q)] = p, q

    def _float_g(self) -> np.ndarray | None:
        """``g[a, B̂, o_others]``: the others' conditional law pushed through their R_j."""
        if not self._in_float_range():
            return None
        mi = self.Ct.shape[0]
        shape = [mi * self.mk, *(len(self.model.domains[j]) for j in self.F)]
        h = np.asarray(self.Ct, dtype=float).reshape(shape)
        for ax, j in enumerate(self.F, start=1):
            r = self._float_kernel(j)
            if r is None:
                return None
            h = np.moveaxis(np.tensordot(h, r, axes=([ax], [0])), -1, ax)
        z = np.asarray(self.Z, dtype=float).reshape(mi * self.mk, *([1] * len(self.F)))
        with np.errstate(divide="ignore", invalid="ignore"):
            g = np.where(z > 0, h / np.where(z > 0, z, 1.0), 0.0)
        return g.reshape(mi, self.mk, -1)

    def _in_float_range(self) -> bool:
        """Every product the float laws take stays normal: the smallest positive value is
        at least ``rmin^(n+1) / total^2`` (the kernels' smallest positive entry, a count
        of at least 1 over the conditional total, a PPKDP weight of at least 1/total)."""
        total = sum(sum(row) for row in self.Z)
        keep = self.mech.keep
        kmax = max(len(d) for d in self.mech.domains)
        rmin = min(keep, (1 - keep) / (kmax - 1)) if keep < 1 and kmax > 1 else keep
        try:
            low = (self.model.n + 1) * math.log(rmin) - 2 * math.log(total)
            return low > math.log(_SAFE_LOW) and math.isfinite(float(total))
        except (ValueError, OverflowError):  # rmin below the float range, a huge total
            return False

    def _dp_keys(self) -> None:
        i, dom = self.i, self.model.domains[self.i]
        want = len(dom) * (len(dom) - 1)
        seen: set[tuple[Any, Any]] = set()
        for d in databases(self.model):
            for b in dom:
                if b != d[i] and (d[i], b) not in seen:
                    seen.add((d[i], b))
                    self.keys.append((d, b))
            if len(seen) == want:
                break

    # --- the exact cases -----------------------------------------------------------------

    def exact(self, c: int) -> Case:
        """Case ``c`` built exactly, as :mod:`pdpsym.audit.notions` builds it."""
        if c not in self._exact:
            self._exact[c] = self._make(self.keys[c])
        return self._exact[c]

    def _make(self, key: Any) -> Case:
        if self.pairs is Pairs.NEIGHBOURS:
            d, b = key
            e = tuple(b if j == self.i else x for j, x in enumerate(d))
            pd, pe = self.point_law(d), self.point_law(e)
            return Case({"a": d[self.i], "b": b, "database": d}, ((ONE, pd, pe),))
        if self.pairs is Pairs.GIVEN_KNOWN:
            a, b, bh, _ = key
            return Case(
                {"a": a, "b": b, "known": bh}, ((ONE, self.law(a, a, bh), self.law(b, b, bh)),)
            )
        if self.pairs is Pairs.WEIGHTED_KNOWN:
            a, b, terms = key
            out = []
            for bh, kb in terms:
                w = Fraction(self.Z[self.pos[self.i][a]][kb], sum(self.Z[self.pos[self.i][a]]))
                pb = self.law(b, b, bh) if self._compatible(b, kb) else {}
                out.append((w, self.law(a, a, bh), pb))
            return Case({"a": a, "b": b}, tuple(out))
        a, b, bh, _, forward = key
        pa, pc = self.law(a, a, bh), self.law(a, b, bh)
        where = {"a": a, "b": b, "known": bh}
        if forward:
            return Case(where, ((ONE, pa, pc),))
        return Case({**where, "direction": "changed vs actual"}, ((ONE, pc, pa),))

    def point_law(self, d: tuple[Any, ...]) -> PMF:
        """``M(D)`` exactly, as the mechanism lists it (keep < 1: every output, in product
        order of the domains, each the product of its records' integer kernel entries
        over the product of their denominators)."""
        if self.mech.keep == 1:
            return _pmf(self.mech, d)
        num, den = np.ones(1, dtype=object), 1
        for j, x in enumerate(d):
            r, dj = self._int_kernel(j)
            num = np.multiply.outer(num, r[self.pos[j][x]]).ravel()
            den *= dj
        outs = itertools.product(*self.mech.domains)
        return {o: Fraction(int(v), den) for o, v in zip(outs, num, strict=True)}

    def law(self, a: Any, c: Any, bhat: tuple[Any, ...]) -> PMF:
        """``P[M(D_{i→c}) = . | D(i) = a, B = B̂]`` exactly (``c = a``: the plain law), with
        the outputs in the order the exhaustive path lists them."""
        i, sc, mech = self.i, self.sc, self.mech
        if mech.keep == 1:  # one output per database: the databases' own order
            out: PMF = {}
            for d, p in sc.conditional(i, a, bhat).items():
                e = tuple(c if j == i else x for j, x in enumerate(d))
                for o, q in mech(e).items():
                    out[o] = out.get(o, Fraction(0)) + p * q
            return out
        # every output has positive probability, listed in product order of the domains
        t = np.zeros(self.model.counts.shape, dtype=object)
        sel: list[Any] = [slice(None)] * self.model.n
        src = list(sel)
        src[i], sel[i] = self.pos[i][a], self.pos[i][c]
        for j, v in zip(self.K, bhat, strict=True):
            src[j] = sel[j] = self.pos[j][v]
        t[tuple(sel)] = np.asarray(self.model.counts, dtype=object)[tuple(src)]
        den = self.Z[self.pos[i][a]][self._bidx(bhat)]
        for j in range(self.model.n):
            r, dj = self._int_kernel(j)
            t = np.moveaxis(np.tensordot(t, r, axes=([j], [0])), -1, j)
            den *= dj
        flat = t.ravel()
        return {
            o: Fraction(int(x), den)
            for o, x in zip(itertools.product(*mech.domains), flat, strict=True)
        }

    # --- screening ---------------------------------------------------------------------

    def _all(self) -> list[int]:
        return list(range(len(self.keys)))

    def _pick(self, keep: np.ndarray) -> list[int]:
        keep = keep.copy()
        keep[0] = True  # an exact tie keeps the first case
        return [int(c) for c in np.flatnonzero(keep)]

    def _near_top(self, v: np.ndarray) -> list[int]:
        finite = np.isfinite(v)
        if not finite.any():
            return self._all()
        top = float(v[finite].max())
        tol = screen_tolerance(top)
        if math.isinf(tol):
            return self._all()
        return self._pick(~finite | (v >= top - tol))

    def _delta_rows(self, t: float) -> np.ndarray:
        assert self.P is not None and self.Q is not None
        with np.errstate(over="ignore", invalid="ignore"):
            return np.maximum(0.0, self.P - t * self.Q).sum(axis=1)

    def candidates_zero(self) -> list[int]:
        """The cases that may attain the largest ratio (ε at δ = 0)."""
        if self.P is None or self.Q is None:
            return self._all()
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.where(self.P > 0, self.P / self.Q, 0.0)
        return self._near_top(np.maximum(1.0, r.max(axis=1)))

    def candidates_eps(self, eps: Eps) -> list[int]:
        """The cases that may attain the largest δ at ``eps``."""
        if self.P is None:
            return self._all()
        t = _float_exp(eps)
        if t is None:
            return self._all()
        return self._near_top(self._delta_rows(t))

    def candidates_delta(self, delta: Fraction) -> list[int]:
        """The cases that may attain the largest ``e^ε`` at ``delta`` (or an infinite ε)."""
        if self.P is None or self.Q is None:
            return self._all()
        P, Q = self.P, self.Q
        dl = float(delta)
        tol = screen_tolerance(dl)
        q0 = np.where(Q == 0, P, 0.0).sum(axis=1)
        maybe_inf = q0 > dl - tol
        rest = np.flatnonzero(~maybe_inf)
        if not rest.size:
            return self._all()
        lead = int(rest[np.argmax(self._float_ratio_at(dl)[rest])])
        t_lead = self.exact(lead).ratio_at_delta(delta)
        if t_lead is None:
            return self._all()
        tau = screenable_float(t_lead)
        if tau is None:
            return self._all()
        d_tau = self._delta_rows(tau * (1 - _BELOW))
        return self._pick(maybe_inf | ~np.isfinite(d_tau) | (d_tau > dl - tol))

    def _float_ratio_at(self, dl: float) -> np.ndarray:
        """A float guess of each case's ``e^ε(δ)`` (geometric bisection; only picks the
        leader, whose value is then computed exactly)."""
        assert self.P is not None and self.Q is not None
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.where((self.P > 0) & (self.Q > 0), self.P / self.Q, 1.0)
        lo = np.ones(len(self.keys))
        hi = np.maximum(1.0, r.max(axis=1))
        for _ in range(64):
            mid = np.sqrt(lo * hi)
            with np.errstate(over="ignore", invalid="ignore"):
                d = np.maximum(0.0, self.P - mid[:, None] * self.Q).sum(axis=1)
            below = d <= dl
            hi = np.where(below, mid, hi)
            lo = np.where(below, lo, mid)
        return hi

    # --- the three figures ---------------------------------------------------------------

    def _cases(self, idx: list[int]) -> Iterator[Case]:
        return (self.exact(c) for c in idx)

    def zero(self) -> CurvePoint:
        """``e^ε`` at δ = 0 and its witness, as :func:`worst_ratio` gives over every case."""
        return worst_ratio(self._cases(self.candidates_zero()))

    def at_eps(self, eps: Eps) -> CurvePoint:
        """δ at ``eps`` and its witness, as :func:`worst_delta` gives over every case."""
        return worst_delta(self._cases(self.candidates_eps(eps)), eps)

    def at_delta(self, delta: Fraction) -> CurvePoint:
        """``e^ε`` at ``delta`` and its witness, as :func:`worst_ratio` gives."""
        if delta == 0:
            return self.zero()
        return worst_ratio(self._cases(self.candidates_delta(delta)), delta)


def _pmf(mech: Callable[[Any], Any], d: Any) -> PMF:
    return {o: Fraction(p) for o, p in mech(d).items() if p}


def _float_exp(eps: Eps) -> float | None:
    """``e^ε`` as a float, None when it is out of float range."""
    w = eps.exact_exp()
    if w is not None:
        return screenable_float(w)
    e = eps.eps
    assert e is not None
    try:
        t = math.exp(float(e))
    except OverflowError:
        return None
    return t if math.isfinite(t) else None


__all__ = ["Screened", "applies"]
