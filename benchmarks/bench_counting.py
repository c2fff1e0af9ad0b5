"""Benchmark: exact certified counting / thresholding curves vs Google's dp_accounting PLD.

Run: ``.venv/bin/python benchmarks/bench_counting.py`` (about a minute). For each case it
prints pdpsym's certified value (15 significant digits, every one certain), its time, and
dp_accounting's pessimistic PLD estimate (value_discretization_interval 1e-4 and 1e-6), its
time and its relative error against the certified value. Results are recorded in
docs/counting-thresholding.md.

``--p-values``: whole processes over 10^5 heterogeneous records (p = 1/10 .. 7/10 in
turn), ``pdpsym counting --p-values FILE --eps 1/10`` and ``pdpsym threshold --p-values
FILE --T T --eps 1/10`` for T from 10 to 99990 (one run each: wall, CPU of the child,
peak memory). Results are recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

from dp_accounting.pld import privacy_loss_distribution as pld

from pdpsym.core.certify import certify
from pdpsym.core.eps import Eps
from pdpsym.mechanisms.count_law import CountLaw
from pdpsym.mechanisms.counting import counting_delta_fast
from pdpsym.papers.dmkb2020 import thresholding as pt

DIGITS = 15


def _log_binom(m: int, p: float) -> dict[int, float]:
    lg = math.lgamma
    return {
        s: lg(m + 1) - lg(s + 1) - lg(m - s + 1) + s * math.log(p) + (m - s) * math.log1p(-p)
        for s in range(m + 1)
    }


def _peer(lower: dict, upper: dict, eps: float, interval: float) -> tuple[float, float]:
    t = time.perf_counter()
    d = pld.from_two_probability_mass_functions(
        lower,
        upper,
        pessimistic_estimate=True,
        value_discretization_interval=interval,
        symmetric=False,
    ).get_delta_for_epsilon(eps)
    return float(d), time.perf_counter() - t


def _logsumexp(vals: list[float]) -> float:
    m = max(vals)
    return m + math.log(sum(math.exp(v - m) for v in vals))


def bench_counting() -> None:
    print("## counting query: delta(eps), worst direction")
    print(
        "| n | p | eps | pdpsym (certified) | s | PLD 1e-4 | s | rel.err | PLD 1e-6 | s | rel.err |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for n, p, eps in (
        (10**4, Fraction(1, 2), Fraction(1, 20)),
        (10**4, Fraction(1, 10), Fraction(1, 10)),
        (10**5, Fraction(1, 2), Fraction(1, 50)),
        (10**5, Fraction(1, 10), Fraction(1, 20)),
    ):
        t = time.perf_counter()
        law = CountLaw.homogeneous(n - 1, p)
        c = certify(counting_delta_fast(law, Eps.of(eps)), DIGITS)
        ours_t = time.perf_counter() - t
        ours = float(c.decimal)
        logs = _log_binom(n - 1, float(p))
        zero, one = logs, {s + 1: v for s, v in logs.items()}
        row = [str(n), str(p), str(eps), c.decimal, f"{ours_t:.2f}"]
        for interval in (1e-4, 1e-6):
            # dp_accounting: take the larger of the two orders, as the exact value does
            d1, t1 = _peer(zero, one, float(eps), interval)
            d2, t2 = _peer(one, zero, float(eps), interval)
            d = max(d1, d2)
            row += [f"{d:.15g}", f"{t1 + t2:.2f}", f"{(d - ours) / ours:.2e}"]
        print("| " + " | ".join(row) + " |")


def bench_threshold() -> None:
    n, p = 10**5, Fraction(1, 200)
    print("\n## thresholding, n = 10^5, p = 1/200, |B| = 0 (Figure 4, bottom)")
    print(
        "| T | Thm 4 eps | Thm 4 delta | exact delta at eps (certified) | s | PLD 1e-6 | s | rel.err |"
    )
    print("|---|---|---|---|---|---|---|---|")
    logs = _log_binom(n - 1, float(p))
    for T in (540, 560, 600, 650, 700):
        t = time.perf_counter()
        row = pt.figure4_rows(n, p, [T], DIGITS)[0]
        ours_t = time.perf_counter() - t
        if "epsilon" not in row:
            print(f"| {T} | n/a | | | | | | |")
            continue
        eps = float(row["epsilon"])
        # output laws of M_T: ⊥ for counts <= T, else the count; D(i)=0: S, D(i)=1: S+1
        bot0 = _logsumexp([v for s, v in logs.items() if s <= T])
        bot1 = _logsumexp([v for s, v in logs.items() if s + 1 <= T])
        zero = {"bot": bot0, **{s: v for s, v in logs.items() if s > T}}
        one = {"bot": bot1, **{s + 1: v for s, v in logs.items() if s + 1 > T}}
        d1, t1 = _peer(zero, one, eps, 1e-6)
        d2, t2 = _peer(one, zero, eps, 1e-6)
        d = max(d1, d2)
        ours = float(row["exact_delta_at_epsilon"])
        print(
            f"| {T} | {row['epsilon']} | {row['delta']} | {row['exact_delta_at_epsilon']} | "
            f"{ours_t:.2f} | {d:.15g} | {t1 + t2:.2f} | {(d - ours) / ours:.2e} |"
        )


def bench_million() -> None:
    """n = 10^6: pdpsym certified, against dp_accounting at the coarsest discretization
    (of 1e-4, 1e-5, 1e-6) whose relative error is at most 1e-3."""
    n = 10**6
    print("\n## n = 10^6 (counting p = 3/10, eps = 1/100; thresholding p = 1/200, T = 5200)")
    print("| mechanism | pdpsym (certified) | s | PLD interval | PLD | s | rel.err |")
    print("|---|---|---|---|---|---|---|")
    p, eps = Fraction(3, 10), Fraction(1, 100)
    t = time.perf_counter()
    ours = float(
        certify(counting_delta_fast(CountLaw.homogeneous(n - 1, p), Eps.of(eps)), DIGITS).decimal
    )
    ours_t = time.perf_counter() - t
    logs = _log_binom(n - 1, float(p))
    zero, one = logs, {s + 1: v for s, v in logs.items()}
    for interval in (1e-4, 1e-5, 1e-6):
        d1, t1 = _peer(zero, one, float(eps), interval)
        d2, t2 = _peer(one, zero, float(eps), interval)
        d = max(d1, d2)
        if abs(d - ours) / ours <= 1e-3 or interval == 1e-6:
            print(
                f"| counting | {ours:.15g} | {ours_t:.2f} | {interval:g} | {d:.15g} | {t1 + t2:.2f} | {(d - ours) / ours:.2e} |"
            )
            break
    p, T = Fraction(1, 200), 5200
    t = time.perf_counter()
    row = pt.figure4_rows(n, p, [T], DIGITS)[0]
    ours_t = time.perf_counter() - t
    ours, eps_f = float(row["exact_delta_at_epsilon"]), float(row["epsilon"])
    logs = _log_binom(n - 1, float(p))
    bot0 = _logsumexp([v for s, v in logs.items() if s <= T])
    bot1 = _logsumexp([v for s, v in logs.items() if s + 1 <= T])
    zero = {"bot": bot0, **{s: v for s, v in logs.items() if s > T}}
    one = {"bot": bot1, **{s + 1: v for s, v in logs.items() if s + 1 > T}}
    for interval in (1e-4, 1e-5, 1e-6):
        d1, t1 = _peer(zero, one, eps_f, interval)
        d2, t2 = _peer(one, zero, eps_f, interval)
        d = max(d1, d2)
        if abs(d - ours) / ours <= 1e-3 or interval == 1e-6:
            print(
                f"| threshold | {ours:.15g} | {ours_t:.2f} | {interval:g} | {d:.15g} | {t1 + t2:.2f} | {(d - ours) / ours:.2e} |"
            )
            break


def _whole_process(argv: list[str]) -> tuple[float, float, float, str]:
    """Wall and CPU seconds (user + system) of one child process, its peak RSS in MB
    (``wait4``: this child alone), and its first output line."""
    t = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert p.stdout is not None
    out = p.stdout.read()
    p.stdout.close()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit(f"{argv} exited with {p.returncode}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, out.splitlines()[0]


def bench_p_values() -> None:
    """10^5 heterogeneous records, whole processes, one run each."""
    n = 100_000
    print(f"\n## --p-values: {n} records, p = 1/10 .. 7/10 in turn, eps = 1/10")
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    print("| command | wall (s) | CPU (s) | peak RSS (MB) | first line |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "p.txt"
        f.write_text("\n".join(f"{1 + k % 7}/10" for k in range(n)) + "\n")
        base = [sys.executable, "-m", "pdpsym"]
        cases = [("counting", [*base, "counting", "--p-values", str(f), "--eps", "1/10"])]
        for T in (10, 30000, 40000, 50000, 70000, 99990):
            argv = [*base, "threshold", "--p-values", str(f), "--T", str(T), "--eps", "1/10"]
            cases.append((f"threshold --T {T}", argv))
        for name, argv in cases:
            wall, cpu, rss, line = _whole_process(argv)
            print(f"| {name} | {wall:.2f} | {cpu:.2f} | {rss:.0f} | {line} |")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    if "--p-values" in sys.argv:
        bench_p_values()
    elif "--million" in sys.argv:
        bench_million()
    else:
        bench_counting()
        bench_threshold()
