"""The thresholding mechanism's worst target when the attacker knows some records
(``mechanisms.population_known``), against references written here: a Fraction brute
force of Definition 13 over every target (n <= 13), a float64 divide and conquer over every
target's leave-one-out law (a few hundred records), and Lemma E's sign check by hand."""

from __future__ import annotations

import contextlib
import io
import json
import math
import random
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest

from pdpsym.app.cli import main
from pdpsym.core.certify import certified_float
from pdpsym.core.eps import Eps
from pdpsym.mechanisms import population_known, thresholding
from pdpsym.mechanisms.thresholding import ppk_delta_heterogeneous

# --- references written here ------------------------------------------------------------


def pmf(ps: list[F]) -> list[F]:
    """The exact law of a sum of independent Bernoulli(ps) records, one record at a time."""
    out = [F(1)]
    for q in ps:
        nxt = [F(0)] * (len(out) + 1)
        for s, w in enumerate(out):
            nxt[s] += w * (1 - q)
            nxt[s + 1] += w * q
        out = nxt
    return out


def brute_ppk(ps: list[F], T: int, size: int, c: F) -> tuple[F, int]:
    """Definition 13 of M_T (Definition 15) straight from the outputs: for every target
    and direction, sum_b P[b] sum_o (P[o | a, b] - c P[o | a', b])_+ over o in {⊥, T+1..n},
    P[⊥ | a, b] = P[S <= T - b - a], P[k | a, b] = P[S = k - b - a]; the largest value and
    its first target."""
    n, w, unknown = len(ps), pmf(ps[:size]), ps[size:]
    best: tuple[F, int] | None = None
    for i in range(len(unknown)):
        f = pmf(unknown[:i] + unknown[i + 1 :])
        m = len(f) - 1
        at = lambda s, f=f, m=m: f[s] if 0 <= s <= m else F(0)  # noqa: E731
        cdf = lambda s, f=f, m=m: sum(f[: min(s, m) + 1], F(0)) if s >= 0 else F(0)  # noqa: E731
        for a, a2 in ((1, 0), (0, 1)):
            total = F(0)
            for b, wb in enumerate(w):
                d = max(F(0), cdf(T - b - a) - c * cdf(T - b - a2))
                for k in range(T + 1, n + 1):
                    d += max(F(0), at(k - b - a) - c * at(k - b - a2))
                total += wb * d
            if best is None or total > best[0]:
                best = (total, size + i)
    assert best is not None
    return best


def float_ppk(ps: list[float], T: int, size: int, eps: float) -> np.ndarray:
    """Every target's PPK delta in float64: the leave-one-out laws by divide and conquer
    over a product tree (out(child) = out(node) * law(sibling)), then Definition 13."""
    c = math.exp(eps)
    w = np.array([1.0])
    for q in ps[:size]:
        w = np.convolve(w, [1 - q, q])
    unknown = ps[size:]
    n = len(ps)
    laws: dict[tuple[int, int], np.ndarray] = {}

    def build(a: int, b: int) -> np.ndarray:
        if b - a == 1:
            laws[(a, b)] = np.array([1 - unknown[a], unknown[a]])
        else:
            mid = (a + b) // 2
            laws[(a, b)] = np.convolve(build(a, mid), build(mid, b))
        return laws[(a, b)]

    build(0, len(unknown))
    out = np.zeros(len(unknown))

    def curve(f: np.ndarray) -> float:
        m = len(f) - 1
        cdf = np.concatenate(([0.0], np.cumsum(f)))  # cdf[s + 1] = P[S <= s]

        def cd(s: int) -> float:
            return 0.0 if s < 0 else float(cdf[min(s, m) + 1])

        fk = np.concatenate((f, np.zeros(n + 3)))
        best = 0.0
        for a, a2 in ((1, 0), (0, 1)):
            total = 0.0
            for b, wb in enumerate(w):
                d = max(0.0, cd(T - b - a) - c * cd(T - b - a2))
                ks = np.arange(T + 1, n + 1)
                pa = np.where(ks - b - a >= 0, fk[np.maximum(ks - b - a, 0)], 0.0)
                pb = np.where(ks - b - a2 >= 0, fk[np.maximum(ks - b - a2, 0)], 0.0)
                d += float(np.maximum(pa - c * pb, 0.0).sum())
                total += wb * d
            best = max(best, total)
        return best

    def down(a: int, b: int, outside: np.ndarray) -> None:
        if b - a == 1:
            out[a] = curve(outside)
            return
        mid = (a + b) // 2
        down(a, mid, np.convolve(outside, laws[(mid, b)]))
        down(mid, b, np.convolve(outside, laws[(a, mid)]))

    down(0, len(unknown), np.array([1.0]))
    return out


def population(seed: int, n: int, size: int, den: int = 100) -> list[F]:
    """``size`` known records (p near 1/2, where the known law is widest), then ``n - size``
    all-distinct unknown p in (0, 1)."""
    r = random.Random(seed)
    ps = [F(r.randint(7, 13), 20) for _ in range(size)]
    vals: set[F] = set()
    while len(vals) < n - size:
        vals.add(F(r.randint(1, den - 1), den))
    return ps + sorted(vals, key=lambda _: r.random())


# --- the search against the brute force ------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_search_equals_fraction_brute_force(seed: int) -> None:
    # source: brute_ppk above (Definition 13 over every target, Fractions), for n <= 13
    r = random.Random(1000 + seed)
    size = r.randint(1, 4)
    n = size + r.randint(9, 9 + (4 - size))
    ps = population(seed, n, size)
    T = r.randint(0, n - 1)
    c = F(r.choice([1, 3, 2, 5, 11]), r.choice([1, 2]))
    c = max(c, 1 / c)
    value, target, _ = ppk_delta_heterogeneous(ps, T, size, Eps.log(c))
    expected, first = brute_ppk(ps, T, size, c)
    assert F(str(value)) == expected
    assert target == first


def test_search_is_used_and_fallback_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    # source: brute_ppk above; the search runs (a spy counts it), and with Lemma E's check
    # forced to fail the loop over every target gives the same value and target
    ps = population(7, 13, 3)
    c, T = F(3, 2), 6
    calls: list[object] = []
    real = population_known.candidate_values_known

    def spy(*args: object, **kw: object) -> object:
        out = real(*args, **kw)  # type: ignore[arg-type]
        calls.append(out)
        return out

    monkeypatch.setattr(thresholding, "candidate_values_known", spy)
    searched = ppk_delta_heterogeneous(ps, T, 3, Eps.log(c))
    assert calls and calls[0] is not None
    expected, first = brute_ppk(ps, T, 3, c)
    assert F(str(searched[0])) == expected and searched[1] == first
    monkeypatch.setattr(population_known, "single_crossing", lambda *a: False)
    monkeypatch.setattr(thresholding, "candidate_values_known", real)
    full = ppk_delta_heterogeneous(ps, T, 3, Eps.log(c))
    assert F(str(full[0])) == expected and full[1] == first


def test_search_equals_float_reference_on_three_hundred() -> None:
    # source: float_ppk above (float64 divide and conquer over every target's law); the
    # certified value agrees to 1e-9 relative, and the chosen target's float value is the
    # float maximum to 1e-9 (floats cannot order near-ties)
    ps = population(3, 300, 5, 10**4)
    T = 170
    value, target, _ = ppk_delta_heterogeneous(ps, T, 5, Eps.of(F(1, 4)))
    ref = float_ppk([float(q) for q in ps], T, 5, 0.25)
    got = certified_float(value)
    assert got == pytest.approx(ref.max(), rel=1e-9)
    assert ref[target - 5] == pytest.approx(ref.max(), rel=1e-9)


# --- Lemma E's hypothesis ---------------------------------------------------------------


def test_single_crossing_by_hand() -> None:
    # source: hand derivation. mu = (1, 3) at r = 0, 1: a(-1) = 1, a(0) = 3 - c, a(1) = -3c:
    # one change for every c. mu = (1, 1/10, 1): a = 1, 1/10 - 1, 1 - 1/10, -1 at c = 1:
    # + - + -, two changes. mu = (1, 1/2) at c = 1: 1, -1/2, -1/2.
    one = Eps.of(0)
    assert population_known.single_crossing(((F(1), 1), (F(3), 2)), Eps.log(F(5)))
    assert not population_known.single_crossing(((F(1), 1), (F(1, 10), 2), (F(1), 3)), one)
    assert population_known.single_crossing(((F(1), 1), (F(1, 2), 2)), one)


def test_functionals_by_hand() -> None:
    # source: hand derivation from Lemma D: |B| = 1, w = (2/3, 1/3), T = 5, m = 9; the
    # 1,0 side's thresholds max(6 - b, tau) for tau in {3, 4}; the 0,1 side's
    # min(m - T + b + 1, tau) = min(5 + b, tau) for tau in {5, 6}, over b >= beta
    w = [F(2, 3), F(1, 3)]
    ups, downs = population_known.functionals(w, 5, 9, 4, 6)
    assert ups == [((F(2, 3), 6), (F(1, 3), 5)), ((F(2, 3), 6), (F(1, 3), 5))]
    assert ((F(2, 3), 5), (F(1, 3), 5)) in downs
    assert ((F(1, 3), 5),) in downs
    assert ((F(2, 3), 5), (F(1, 3), 6)) in downs
    assert ((F(1, 3), 6),) in downs


def test_cli_known_size_search(tmp_path: Path) -> None:
    # source: brute_ppk above (Fractions, Definition 13) for the file's 13 records with
    # |B| = 2, at eps = 0 (c = 1, so the brute force is rational)
    ps = population(11, 13, 2)
    path = tmp_path / "ps.txt"
    path.write_text("".join(f"{q}\n" for q in ps))
    argv = ["threshold", "--p-values", str(path), "--T", "6", "--eps", "0"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([*argv, "--known-size", "2", "--json"])
    assert code == 0
    got = json.loads(out.getvalue())["exact"]
    expected, first = brute_ppk(ps, 6, 2, F(1))
    assert F(got["delta_at_epsilon"]["exact"]) == expected
    assert got["target"] == first
