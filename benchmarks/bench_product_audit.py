"""The audit's work estimate on independent records (product models, every p_i distinct)
under Laplace noise of scale 2, against measured CPU time, as whole processes, and the
float64 baseline (``benchmarks/float_product_audit.py``).

    python benchmarks/bench_product_audit.py            # dp and the ball notions
    python benchmarks/bench_product_audit.py --quick    # the smallest sizes
    python benchmarks/bench_product_audit.py --exact    # also the exact path (<= 50)
    python benchmarks/bench_product_audit.py --kernels  # count and threshold only

Each case is ``pdpsym audit MODEL laplace2 --target x5 --known x1,x2 --eps EPS
--notions NOTION --max-work 1e18`` (dependent-dp in its conditional reading, the one
that reads a law); its estimate (``shared + own`` of
:func:`pdpsym.app.commands.audit_models.check_work`, which hands independent records under
Laplace noise to :func:`pdpsym.app.product_audit_work.product_work`; a step a microsecond)
against its CPU time (user + system of the child process). The ratio measured / estimated should
lie in [1/3, 3]. Past 50 records the notions other than dp run in balls
(:mod:`pdpsym.audit.product_shifts`) at ε = 1/4 (below ``|shift|/λ = 1/2``, where δ is
positive and has to be enclosed); the float baseline computes the same δ in float64.
ibcdp and distributional-dp take the closed forms of
:mod:`pdpsym.audit.product_posteriors` (distributional-dp also at ε = 1/8, below
``|shift|/(2λ)``), also under geometric noise (``docs/examples/geometric-half.json``);
their float baseline is ``benchmarks/float_product_posteriors.py``.
Under count and threshold noise (``--kernels``: ``{"kind": "count"}`` and
``docs/examples/threshold1.json``) the notions compare exact laws of the count at
ε = 1/4 (the estimate of :func:`pdpsym.app.product_audit_work.laws_to_notions`), each
run cut at ``CAP`` seconds of CPU (a run cut is a lower bound, printed with ``>=``).
The models are generated here, seeded (p_i = k / 10^9, k distinct). docs/benchmarks.md
records a run.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pdpsym.app.commands import audit_models  # noqa: E402
from pdpsym.mechanisms.sum_kernels import LaplaceSum  # noqa: E402
from pdpsym.models.product import ProductModel  # noqa: E402

LAPLACE = ROOT / "docs" / "examples" / "laplace2.json"
# (notion, sizes): dp at the sizes the issue names; the notions that compare exact
# Laplace mixtures where they finish in seconds (their estimate refuses 10^3 and more)
BIG = (1000, 10000, 100000)
CASES = [
    ("dp", BIG),
    ("apkdp", BIG),
    ("np", BIG),
    ("ppkdp", BIG),
    ("cdp", BIG),
    ("dependent-dp", BIG),
    ("ibcdp", BIG),  # closed forms (pdpsym.audit.product_posteriors)
    ("distributional-dp", BIG),
    ("distributional-dp:1/8", BIG),  # below 1/(2 lambda): two hockey sticks more
]
EXACT_CASES = [
    ("apkdp", (30, 40, 50)),
    ("np", (30, 40, 50)),
    ("ppkdp", (30, 40, 50)),
    ("cdp", (30, 40, 50)),
    ("dependent-dp", (30, 40, 50)),
    ("ibcdp", (12, 16, 20)),
]
FLOAT = ROOT / "benchmarks" / "float_product_audit.py"
FLOAT_POSTERIORS = ROOT / "benchmarks" / "float_product_posteriors.py"
CLOSED = ("ibcdp", "distributional-dp")
GEOMETRIC = ROOT / "docs" / "examples" / "geometric-half.json"
# the closed forms under two-sided geometric noise (alpha = 1/2; ε* = ln(2)/2 ≈ 0.35)
GEOMETRIC_CASES = [
    ("ibcdp@geometric", BIG),
    ("distributional-dp@geometric", BIG),
    ("distributional-dp:1/8@geometric", BIG),
]
# count and threshold noise: the six notions that read a law, 10^2 .. 10^3 records
KERNEL_SIZES = (100, 250, 500, 1000)
KERNEL_NOTIONS = ("apkdp", "np", "ppkdp", "cdp", "ibcdp", "dependent-dp")
KERNEL_CASES = [
    (f"{name}@{kind}", KERNEL_SIZES) for kind in ("count", "threshold") for name in KERNEL_NOTIONS
]
# past 10^3 records: the growth steepens (the runs of minutes the default limit refuses)
KERNEL_BEYOND = [
    ("apkdp@count", (1500, 2000)),
    ("apkdp@threshold", (1500,)),
    ("cdp@count", (1500,)),
    ("dependent-dp@count", (2000,)),
    # p_i = k / 2^bits instead: the cost grows with the bits of the probabilities
    ("apkdp@count/10", (500, 1000)),
    ("cdp@count/10", (1000,)),
    ("apkdp@count/60", (500, 1000)),
    # held out of the fit (measured after it)
    ("cdp@threshold/10", (1000,)),
    ("dependent-dp@count/60", (1000,)),
    ("apkdp@threshold/45", (750,)),
    ("ibcdp@count/60", (750,)),
]
THRESHOLD = ROOT / "docs" / "examples" / "threshold1.json"
CAP = 400  # CPU seconds a kernel case may run


def model_file(n: int, where: Path, bits: int = 0) -> Path:
    """A product model of ``n`` records with distinct p_i (seeded): ``k / 10^9``, or
    ``k / 2^bits`` when ``bits`` is given (seeded as tests/app/test_product_audit_work.py
    does)."""
    if bits:
        rng = random.Random(n * 100 + bits)
        path = where / f"k{n}_{bits}.json"
        ps = [f"{k}/{2**bits}" for k in rng.sample(range(1, 2**bits), n)]
        path.write_text(json.dumps({"kind": "product", "bernoulli": ps}))
        return path
    rng = random.Random(n)
    ks = rng.sample(range(1, 10**9), n)
    path = where / f"product{n}.json"
    if not path.exists():
        obj = {"kind": "product", "bernoulli": [f"{k}/1000000000" for k in ks]}
        path.write_text(json.dumps(obj))
    return path


def mech_file(kernel: str, where: Path) -> Path:
    """The mechanism file of a kernel case (Laplace of scale 2 when none is named)."""
    if kernel == "count":
        path = where / "count.json"
        path.write_text('{"kind": "count"}')
        return path
    return {"geometric": GEOMETRIC, "threshold": THRESHOLD}.get(kernel, LAPLACE)


def estimate(
    path: Path, notion: str, eps: str, geometric: bool = False, mech: Path = LAPLACE
) -> int:
    """The estimate the audit compares with --max-work (shared part and the notion's;
    ``mech`` other than Laplace: the command's own estimate)."""
    obj = json.loads(path.read_text())
    model = ProductModel.bernoulli(obj["bernoulli"])
    args = argparse.Namespace(
        max_work=str(10**18),
        ddp_reading="eq11-conditional",
        delta=None,
        eps=[eps],
        curve=None,
        target="x5",
    )
    if geometric or mech != LAPLACE:  # the general estimate, then the product's
        spec = json.loads((GEOMETRIC if geometric else mech).read_text())
        sm = audit_models.read_mechanism(spec, model)
    else:
        sm = LaplaceSum(None, lam=2)
    shared, own, _ = audit_models.check_work(args, model, sm, "x5", ["x1", "x2"], [notion], 1)
    return shared + own[notion]


def _cap() -> None:
    """Cut the child at CAP seconds of CPU."""
    resource.setrlimit(resource.RLIMIT_CPU, (CAP, CAP + 5))


def cpu_of(cmd: list[str], capped: bool = False) -> float:
    """CPU seconds (user + system) of one whole child process (``capped``: cut at CAP,
    a run cut is not an error)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    pre = _cap if capped else None
    subprocess.run(cmd, check=not capped, capture_output=True, cwd=ROOT, preexec_fn=pre)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(
    path: Path, notion: str, eps: str, geometric: bool = False, mech: Path = LAPLACE
) -> float:
    """CPU seconds of the whole audit process (cut at CAP under another mechanism)."""
    capped = mech != LAPLACE
    mech = GEOMETRIC if geometric else mech
    cmd = [sys.executable, "-m", "pdpsym", "audit", str(path), str(mech), "--target", "x5"]
    cmd += ["--known", "x1,x2", "--eps", eps, "--notions", notion, "--max-work", "1e18"]
    if notion == "dependent-dp":
        cmd += ["--ddp-reading", "eq11-conditional"]
    return cpu_of(cmd, capped)


def baseline(path: Path, notion: str, eps: str = "0.25", geometric: bool = False) -> float:
    """CPU seconds of the float64 baseline (the known records left in for dependent-dp)."""
    if notion in CLOSED:
        noise = "alpha=0.5" if geometric else "2"
        cmd = [sys.executable, str(FLOAT_POSTERIORS), str(path), noise, eps, "x5", notion]
        cmd.append("x1,x2")
        return cpu_of(cmd)
    known = [] if notion == "dependent-dp" else ["x1,x2"]
    return cpu_of([sys.executable, str(FLOAT), str(path), "2", "0.25", "x5", *known])


def main() -> None:
    """Print one line per case: notion, records, CPU, estimate, ratio, float CPU, ratio."""
    quick = "--quick" in sys.argv
    cases = CASES + GEOMETRIC_CASES + (EXACT_CASES if "--exact" in sys.argv else [])
    if "--kernels" in sys.argv:
        cases = KERNEL_CASES + ([] if quick else KERNEL_BEYOND)
    head = f"{'notion':32} {'records':>8} {'CPU s':>8} {'estimate s':>11} {'ratio':>6}"
    print(head + f" {'float s':>8} {'CPU/float':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for label, sizes in cases:  # "notion", "notion:eps", "...@geometric", "...@count/bits"
            for n in sizes[:1] if quick else sizes:
                case, _, kernel = label.partition("@")
                kernel, _, bits = kernel.partition("/")
                path = model_file(n, Path(tmp), int(bits or 0))
                geo = kernel == "geometric"
                mech = mech_file(kernel, Path(tmp)) if not geo else LAPLACE
                notion, _, at = case.partition(":")
                balls = n > 50 and notion != "dp"
                eps = at or ("1/4" if balls or mech != LAPLACE else "1/2")
                est = estimate(path, notion, eps, geo, mech) / 10**6
                cpu = measure(path, notion, eps, geo, mech)
                cut = ">=" if mech != LAPLACE and cpu >= CAP else ""
                line = f"{label:32} {n:>8} {cut:>2}{cpu:>6.2f} {est:>11.2f} {cpu / est:>6.2f}"
                if balls and mech == LAPLACE:
                    fl = baseline(path, notion, str(float(Fraction(eps))), geo)
                    line += f" {fl:>8.2f} {cpu / fl:>9.1f}"
                print(line, flush=True)


if __name__ == "__main__":
    main()
