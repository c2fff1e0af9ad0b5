"""Markov chains at scale: certified ``pdpsym leakage --all-targets`` against the fastest
float64 numpy baselines, as whole processes. Plain script:

    .venv/bin/python benchmarks/bench_chain.py [--T 1000] [--long 10000] [--skip-long]
        [--skip-calibrate] [--skip-degenerate] [--runs 3]

1. A symmetric binary chain (stay 9/10, stationary start, sum query, lambda = 1) of T
   records: ``pdpsym leakage MODEL --all-targets --json --digits 15`` against three
   float64 baselines (``bench_chain.py float-fft|float-direct|float-blas MODEL``), each
   timed as a whole process (CPU = user + system of the child, median of ``--runs``,
   the commands taken in turn so that drifts hit all alike), in one run; each baseline's
   largest relative difference from the certified values, and the ratio to the fastest
   baseline that is correct to 1e-6 relative (and to the FFT one, with its error).
2. T = --long records, one target in the middle: ``pdpsym leakage --target``.
3. ``pdpsym calibrate MODEL --eps 1`` at T (with the group-DP and MQM baselines), under
   the default ``--max-work``.
4. Degenerate and other chains at T, every target, one run each (``--skip-degenerate``
   to skip): independent records (stay 1/2), nearly independent (stay 500001/1000000),
   alternating (stay 1/10, 1/100), stay 99/100, a non-stationary start, a non-symmetric
   matrix, a known record, lambda = 1/2, three states.

The baselines share a forward-backward with a running count in float64 (rescaled every
step), then: ``fft`` -- every target's two conditional laws by one batched FFT
convolution and one matrix product with the Laplace kernel (fast, but the FFT's rounding,
about 1e-16 of the largest probability, swamps the tail probabilities that decide the
sup); ``direct`` -- the laws by direct convolution (sums of non-negative terms, so every
value keeps its relative accuracy) and the mixtures at all breakpoints by the two
first-order recurrences run over all targets at once; ``blas`` -- the same laws and one
BLAS matrix product with the kernel. None is certified (no rounding or underflow is
tracked).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np


def chain_model(T: int, stay: str = "9/10", initial: object = "stationary") -> dict[str, object]:
    num, den = (int(x) for x in stay.split("/"))
    leave = f"{den - num}/{den}"
    return {
        "kind": "markov-chain",
        "length": T,
        "states": ["0", "1"],
        "initial": initial,
        "transition": [[stay, leave], [leave, stay]],
    }


def other_chains(T: int) -> dict[str, tuple[dict[str, object], list[str]]]:
    """The degenerate and other chains of part 4: name -> (model, extra flags)."""
    three = ["99/200", "99/200"]
    out: dict[str, tuple[dict[str, object], list[str]]] = {
        f"stay {s}": (chain_model(T, s), [])
        for s in ("1/2", "500001/1000000", "1/10", "1/100", "99/100")
    }
    out["stay 1/100, start x1 = 0"] = (chain_model(T, "1/100", ["1", "0"]), [])
    out["stay 9/10, start (1/3, 2/3)"] = (chain_model(T, "9/10", ["1/3", "2/3"]), [])
    asym = chain_model(T)
    asym["transition"] = [["1/10", "9/10"], ["1/5", "4/5"]]
    out["rows (1/10, 9/10), (1/5, 4/5)"] = (asym, [])
    out["stay 1/100, known x500"] = (chain_model(T, "1/100"), ["--known", "x500"])
    out["stay 1/100, lambda 1/2"] = (chain_model(T, "1/100"), ["--lam", "1/2"])
    k3 = {
        "kind": "markov-chain",
        "length": T,
        "states": ["0", "1", "2"],
        "initial": "stationary",
        "transition": [["1/100", *three], [three[0], "1/100", three[1]], [*three, "1/100"]],
    }
    out["3 states, stay 1/100"] = (k3, [])
    return out


def float_all_targets(P: np.ndarray, init: np.ndarray, T: int, lam: float) -> np.ndarray:
    """Eq. 2 of every target of a binary 0/1 chain (sum query), float64, uncertified."""
    k, N = P.shape[0], T
    F = np.zeros((T, k, N + 1))
    B = np.zeros((T, k, N + 1))
    F[0, 0, 0], F[0, 1, 1] = init[0], init[1]
    for t in range(1, T):
        prev = F[t - 1]
        F[t, 0] = P[0, 0] * prev[0] + P[1, 0] * prev[1]
        F[t, 1, 1:] = P[0, 1] * prev[0, :-1] + P[1, 1] * prev[1, :-1]
        F[t] /= F[t].max()
    B[T - 1, :, 0] = 1.0
    for t in range(T - 2, -1, -1):
        nxt = B[t + 1]
        shifted = np.zeros(N + 1)
        shifted[1:] = nxt[1, :-1]
        B[t, 0] = P[0, 0] * nxt[0] + P[0, 1] * shifted
        B[t, 1] = P[1, 0] * nxt[0] + P[1, 1] * shifted
        B[t] /= B[t].max()
    size = 1 << (2 * N + 1).bit_length()
    laws = np.fft.irfft(np.fft.rfft(F, size) * np.fft.rfft(B, size), size)[..., : N + 1]
    laws = np.clip(laws, 0.0, None)
    laws /= laws.sum(axis=-1, keepdims=True)
    c = np.arange(N + 1)
    kernel = np.exp(-np.abs(c[:, None] - c[None, :]) / lam)
    mix = laws.reshape(T * k, N + 1) @ kernel
    mix = mix.reshape(T, k, N + 1)
    with np.errstate(divide="ignore"):
        ratio = np.log(mix[:, 1]) - np.log(mix[:, 0])
    return np.maximum(ratio.max(axis=1), (-ratio).max(axis=1))


def _forward_backward(P: np.ndarray, init: np.ndarray, T: int) -> tuple[np.ndarray, np.ndarray]:
    """Prefix and suffix count laws of a binary 0/1 chain, each step rescaled (float64)."""
    N = T
    F = np.zeros((T, 2, N + 1))
    B = np.zeros((T, 2, N + 1))
    F[0, 0, 0], F[0, 1, 1] = init[0], init[1]
    for t in range(1, T):
        prev = F[t - 1]
        F[t, 0] = P[0, 0] * prev[0] + P[1, 0] * prev[1]
        F[t, 1, 1:] = P[0, 1] * prev[0, :-1] + P[1, 1] * prev[1, :-1]
        F[t] *= 1.0 / F[t].max()
    B[T - 1, :, 0] = 1.0
    for t in range(T - 2, -1, -1):
        nxt = B[t + 1]
        B[t, 0] = P[0, 0] * nxt[0]
        B[t, 0, 1:] += P[0, 1] * nxt[1, :-1]
        B[t, 1] = P[1, 0] * nxt[0]
        B[t, 1, 1:] += P[1, 1] * nxt[1, :-1]
        B[t] *= 1.0 / B[t].max()
    return F, B


def float_direct(P: np.ndarray, init: np.ndarray, T: int, lam: float, blas: bool) -> np.ndarray:
    """Eq. 2 of every target, float64, correct: the same forward-backward (rescaled each
    step), each target's two laws by direct convolution (sums of non-negative terms: no
    cancellation, unlike the FFT), then the Laplace mixtures at every breakpoint either by
    one BLAS matrix product with the kernel (``blas``) or by the two first-order
    recurrences run over all targets at once, and the max log ratio. Uncertified."""
    N = T
    F, B = _forward_backward(P, init, T)
    laws = np.empty((2 * T, N + 1))
    for t in range(T):
        for a in range(2):
            law = np.convolve(F[t, a, : t + 2], B[t, a, : T - t])
            laws[2 * t + a] = law[: N + 1]
    laws /= laws.sum(axis=1, keepdims=True)
    q = np.exp(-1.0 / lam)
    if blas:
        c = np.arange(N + 1)
        mix = laws @ np.exp(-np.abs(c[:, None] - c[None, :]) / lam)
    else:
        cols = np.ascontiguousarray(laws.T)
        left = np.empty_like(cols)
        acc = np.zeros(2 * T)
        for c in range(N + 1):
            acc *= q
            acc += cols[c]
            left[c] = acc
        acc = np.zeros(2 * T)
        for c in range(N - 1, -1, -1):
            acc += cols[c + 1]
            acc *= q
            left[c] += acc
        mix = left.T
    logs = np.log(mix).reshape(T, 2, N + 1)
    ratio = logs[:, 1] - logs[:, 0]
    return np.maximum(ratio.max(axis=1), (-ratio).max(axis=1))


def run_float(path: str, kind: str) -> None:
    obj = json.loads(Path(path).read_text())
    T = int(obj["length"])
    P = np.array([[float(eval_fraction(x)) for x in row] for row in obj["transition"]])
    pi = np.array([P[1, 0], P[0, 1]]) / (P[0, 1] + P[1, 0])
    if kind == "fft":
        values = float_all_targets(P, pi, T, 1.0)
    else:
        values = float_direct(P, pi, T, 1.0, blas=kind == "blas")
    print(json.dumps([float(v) for v in values]))


def eval_fraction(text: str) -> float:
    num, _, den = text.partition("/")
    return int(num) / int(den or 1)


def timed(argv: list[str]) -> tuple[float, str]:
    """The child's CPU time (user + system; the machine is shared, so wall time is not
    comparable across runs) and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, out


def median(xs: list[float]) -> float:
    ys = sorted(xs)
    return ys[len(ys) // 2] if len(ys) % 2 else (ys[len(ys) // 2 - 1] + ys[len(ys) // 2]) / 2


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", nargs="?", default="bench")
    ap.add_argument("model", nargs="?")
    ap.add_argument("--T", type=int, default=1000)
    ap.add_argument("--long", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--skip-long", action="store_true")
    ap.add_argument("--skip-calibrate", action="store_true")
    ap.add_argument("--skip-degenerate", action="store_true")
    args = ap.parse_args()
    if args.mode.startswith("float"):
        run_float(args.model, args.mode.partition("-")[2] or "fft")
        return
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "chain.json"
        model.write_text(json.dumps(chain_model(args.T)))
        cmds = {
            kind: [py, __file__, f"float-{kind}", str(model)] for kind in ("fft", "direct", "blas")
        }
        cmds["certified"] = [
            py,
            "-m",
            "pdpsym",
            "leakage",
            str(model),
            "--all-targets",
            "--lam",
            "1",
            "--json",
            "--digits",
            "15",
        ]
        times: dict[str, list[float]] = {k: [] for k in cmds}
        outs: dict[str, str] = {}
        for _ in range(args.runs):
            for kind, argv in cmds.items():
                cpu, outs[kind] = timed(argv)
                times[kind].append(cpu)
        cert = [float(t["value"]["decimal"]) for t in json.loads(outs["certified"])["targets"]]
        t_cert = median(times["certified"])
        print(f"T={args.T}, all targets, CPU seconds (median of {args.runs}):")
        print(f"  certified pdpsym: {t_cert:.3f} s")
        correct = []
        for kind in ("fft", "direct", "blas"):
            floats = json.loads(outs[kind])
            err = max(
                abs(a - b) / abs(b) if np.isfinite(a) else np.inf
                for a, b in zip(floats, cert, strict=True)
            )
            t = median(times[kind])
            if err <= 1e-6:
                correct.append((t, kind))
            print(
                f"  float64 {kind:6s}: {t:.3f} s, ratio {t_cert / t:.2f}x, "
                f"max relative error {err:.1e}"
            )
        if correct:
            t, kind = min(correct)
            print(f"  ratio to the fastest correct baseline ({kind}): {t_cert / t:.2f}x")
        if not args.skip_calibrate:
            t_cal, out = timed(
                [
                    py,
                    "-m",
                    "pdpsym",
                    "calibrate",
                    str(model),
                    "--eps",
                    "1",
                ]
            )
            print(f"T={args.T} calibrate --eps 1 (CPU): {t_cal:.2f} s")
            print(out.strip())
        if not args.skip_degenerate:
            print(f"T={args.T}, every target, other chains (CPU, one run each):")
            for name, (obj, flags) in other_chains(args.T).items():
                model.write_text(json.dumps(obj))
                argv = [py, "-m", "pdpsym", "leakage", str(model), "--all-targets"]
                argv += ["--json", "--digits", "15"]
                argv += flags if "--lam" in flags else [*flags, "--lam", "1"]
                cpu, out = timed(argv)
                best = json.loads(out)["max"]
                print(
                    f"  {name}: {cpu:.2f} s, max {best['value']['decimal']} "
                    f"({len(best['ties'])} tied)"
                )
        if not args.skip_long:
            model.write_text(json.dumps(chain_model(args.long)))
            mid = f"x{args.long // 2}"
            t_long, out = timed(
                [
                    py,
                    "-m",
                    "pdpsym",
                    "leakage",
                    str(model),
                    "--target",
                    mid,
                    "--lam",
                    "1",
                    "--max-work",
                    "1e10",
                    "--digits",
                    "15",
                ]
            )
            print(f"T={args.long} one target ({mid}) (CPU): {t_long:.2f} s")
            print(out.strip())


if __name__ == "__main__":
    main()
