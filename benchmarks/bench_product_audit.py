"""The audit's work estimate on independent records (product models, every p_i distinct)
under Laplace noise of scale 2, against measured CPU time, as whole processes.

    python benchmarks/bench_product_audit.py            # every case (about 3 minutes)
    python benchmarks/bench_product_audit.py --quick    # dp and the smallest sizes

Each case is ``pdpsym audit MODEL laplace2 --target x5 --known x1,x2 --eps 1/2
--notions NOTION --max-work 1e18``; its estimate (``shared + own`` of
:func:`pdpsym.app.product_audit_work.product_work`, a step a microsecond) against its
CPU time (user + system of the child process). The ratio measured / estimated should
lie in [1/3, 3]. The models are generated here, seeded (p_i = k / 10^9, k distinct).
docs/benchmarks.md records a run.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pdpsym.app.product_audit_work import product_work  # noqa: E402
from pdpsym.mechanisms.sum_kernels import LaplaceSum  # noqa: E402
from pdpsym.models.product import ProductModel  # noqa: E402

LAPLACE = ROOT / "docs" / "examples" / "laplace2.json"
# (notion, sizes): dp at the sizes the issue names; the notions that compare exact
# Laplace mixtures where they finish in seconds (their estimate refuses 10^3 and more)
CASES = [
    ("dp", (1000, 10000, 100000)),
    ("apkdp", (30, 40, 50)),
    ("np", (30, 40, 50)),
    ("ppkdp", (30, 40, 50)),
    ("cdp", (30, 40, 50)),
    ("dependent-dp", (30, 40, 60)),
    ("ibcdp", (12, 16, 20)),
]


def model_file(n: int, where: Path) -> Path:
    """A product model of ``n`` records with distinct p_i (seeded)."""
    rng = random.Random(n)
    ks = rng.sample(range(1, 10**9), n)
    path = where / f"product{n}.json"
    if not path.exists():
        obj = {"kind": "product", "bernoulli": [f"{k}/1000000000" for k in ks]}
        path.write_text(json.dumps(obj))
    return path


def estimate(path: Path, notion: str) -> int:
    """The estimate the audit compares with --max-work (shared part and the notion's)."""
    obj = json.loads(path.read_text())
    model = ProductModel.bernoulli(obj["bernoulli"])
    args = argparse.Namespace(max_work=str(10**18), ddp_reading=None, delta=None)
    mech = LaplaceSum(None, lam=2)
    shared, own, _ = product_work(args, model, mech, "x5", ["x1", "x2"], [notion], 1)
    return shared + own[notion]


def measure(path: Path, notion: str) -> float:
    """CPU seconds of the whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = [sys.executable, "-m", "pdpsym", "audit", str(path), str(LAPLACE), "--target", "x5"]
    cmd += ["--known", "x1,x2", "--eps", "1/2", "--notions", notion, "--max-work", "1e18"]
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    """Print one line per case: notion, records, CPU, estimate, ratio."""
    quick = "--quick" in sys.argv
    print(f"{'notion':14} {'records':>8} {'CPU s':>8} {'estimate s':>11} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for notion, sizes in CASES:
            for n in sizes[:1] if quick else sizes:
                path = model_file(n, Path(tmp))
                est = estimate(path, notion) / 10**6
                cpu = measure(path, notion)
                print(f"{notion:14} {n:>8} {cpu:>8.2f} {est:>11.2f} {cpu / est:>6.2f}", flush=True)


if __name__ == "__main__":
    main()
