"""Record every number the tool prints, then check that a change moved none of them.

A refactor must not move one number. This script runs a fixed set of commands against a
checkout and stores what they print:

* every ``pdpsym`` command line of the fenced shell examples of README.md and docs/*.md,
  with ``--json`` added where the command takes it (else its text output);
* ``verify --json`` (every claim's verdict, method and evidence);
* every figure of ``figure --list`` as CSV at ``--scale quick``;
* a matrix over the example models of docs/examples/ (leakage, ``--all-targets``,
  calibrate and audit against each example mechanism), ``--json``.

Outputs are normalized before they are stored or compared: keys naming a duration
(``seconds``, ``time``, ``elapsed``, ``wall``, ``duration``, ``cpu``) are dropped from JSON;
nothing else is touched, so every decimal, exact value, verdict and method must match.

Usage (from the repository root; ``pdpsym`` must run the checkout under test)::

    python benchmarks/golden_outputs.py record DIR     # store the outputs in DIR (adds new ones)
    python benchmarks/golden_outputs.py check DIR      # compare with DIR; exit 1 on change

The record taken before the redesign of the notion registry and the layers (commit
9d9cc32, 92 outputs) is kept in ``benchmarks/golden-9d9cc32/``.

``check`` prints one line per command whose JSON changed (``MOVED``), whose JSON gained
fields or list entries with every recorded value unchanged (``ADDED``: a new baseline is
not a moved number), and whose text-only output changed (``TEXT``, which a change to the
text layout may explain), then a summary line with the number of outputs compared.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHELLS = ("bash", "sh", "shell", "console")
NO_RUN = "<!-- no-run -->"
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
TIMING = re.compile(r"(second|time|elapsed|wall|duration|cpu)", re.IGNORECASE)
# flags after which a command writes elsewhere or in another format: left as written
NO_JSON = ("--json", "--format", "--out", "--curve", "--list", "--help", "--version")
TIMEOUT = 900


def doc_commands() -> list[str]:
    """Every single-line ``pdpsym`` command of the docs' fenced shell examples."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    out: list[str] = []
    for page in pages:
        lines = page.read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            m = FENCE.match(lines[i])
            if not m:
                i += 1
                continue
            _, fence, lang = m.groups()
            end = i + 1
            while end < len(lines) and not lines[end].strip().startswith(fence[0] * len(fence)):
                end += 1
            before = next((ln.strip() for ln in reversed(lines[:i]) if ln.strip()), "")
            body = lines[i + 1 : end]
            prompted = bool(body) and body[0].lstrip().startswith("$ ")
            if before != NO_RUN and (lang in SHELLS or (not lang and prompted)):
                for ln in body:
                    s = ln.strip()
                    s = s[2:] if s.startswith("$ ") else s
                    if s.startswith("pdpsym ") and "|" not in s and ">" not in s:
                        out.append(s)
            i = end + 1
    return out


def figure_ids() -> list[str]:
    proc = subprocess.run(
        ["pdpsym", "figure", "--list"], capture_output=True, text=True, check=False
    )
    ids = []
    for ln in proc.stdout.splitlines():
        tok = ln.split()
        if tok and re.fullmatch(r"[a-z0-9]+\.[\w.-]+", tok[0]):
            ids.append(tok[0])
    return ids


def matrix_commands() -> list[str]:
    """Leakage, calibrate and audit over the example models and mechanisms."""
    ex = "docs/examples"
    cmds = []
    for model, target, known in [
        ("table.json", "x1", ""),
        ("pair.json", "x1", ""),
        ("correlated3.json", "x1", "x2"),
        ("chain3.json", "x2", "x1"),
        ("chain6.json", "x3", ""),
        ("bernoulli3.json", "x1", ""),
        ("network2.json", "rain", "slippery"),
        ("records.json", "x2", "x1"),
    ]:
        k = f" --known {known}" if known else ""
        cmds.append(f"pdpsym leakage {ex}/{model} --target {target}{k} --lam 1 --json")
        for mech in ("laplace2.json", "rr.json", "threshold1.json"):
            cmds.append(
                f"pdpsym audit {ex}/{model} {ex}/{mech} --target {target}{k} --eps 1/2 --json"
            )
    cmds += [
        "pdpsym table li2019-examples --format csv",
        "pdpsym table li2019-examples --format md",
        f"pdpsym whg {ex}/pair.json --lam 1 --json",
        f"pdpsym whg {ex}/correlated3.json --lam 1/2 --reading both --json",
        "pdpsym counting --n 20 --p 1/2 --eps 1/5 --json",
        f"pdpsym counting --p-values {ex}/p_values.txt --eps 1/5 --json",
        "pdpsym threshold --n 20 --p 1/2 --T 12 --json",
        f"pdpsym threshold --p-values {ex}/p_values.txt --T 3 --eps 1/2 --json",
        "pdpsym oracle export --family li2019-examples --out o.json && cat o.json",
        f"pdpsym leakage {ex}/pair.json --all --lam 1 --json",
    ]
    for model in ("chain3.json", "chain6.json", "chain100.json", "records.json", "network2.json"):
        cmds.append(f"pdpsym leakage {ex}/{model} --all-targets --lam 2 --json")
        cmds.append(f"pdpsym calibrate {ex}/{model} --eps 1 --json")
    return cmds


def all_commands() -> list[str]:
    cmds: list[str] = ["pdpsym verify --json"]
    for c in doc_commands():
        if not any(flag in shlex.split(c) for flag in NO_JSON):
            c = c + " --json"
        cmds.append(c)
    cmds += matrix_commands()
    cmds += [f"pdpsym figure {fid} --format csv --scale quick" for fid in figure_ids()]
    seen: set[str] = set()
    return [c for c in cmds if not (c in seen or seen.add(c))]


def _strip(obj: object) -> object:
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if not TIMING.search(str(k))}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def run(cmd: str, work: Path) -> dict[str, object]:
    try:
        proc = subprocess.run(
            ["bash", "-c", cmd],
            cwd=work,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"cmd": cmd, "rc": "timeout", "json": None, "text": ""}
    text = proc.stdout
    parsed: object = None
    if "--json" in shlex.split(cmd):
        try:
            parsed = _strip(json.loads(text))
        except json.JSONDecodeError:
            parsed = None
    # CSV figures carry no timing; text is kept as printed
    return {"cmd": cmd, "rc": proc.returncode, "json": parsed, "text": text}


def _contained(old: object, new: object) -> bool:
    """Whether ``new`` holds every value of ``old`` unchanged (keys or list entries may be
    added: a new baseline or field is not a moved number)."""
    if isinstance(old, dict) and isinstance(new, dict):
        return all(k in new and _contained(v, new[k]) for k, v in old.items())
    if isinstance(old, list) and isinstance(new, list):
        return len(new) >= len(old) and all(_contained(a, b) for a, b in zip(old, new))
    return old == new


def _key(cmd: str) -> str:
    return hashlib.sha1(cmd.encode()).hexdigest()[:16]


def _workdir() -> Path:
    tmp = Path(tempfile.mkdtemp(prefix="golden-"))
    shutil.copytree(ROOT / "docs" / "examples", tmp / "docs" / "examples")
    for entry in ROOT.iterdir():
        if entry.name not in ("docs", ".git", ".venv", "site") and not entry.name.startswith("."):
            (tmp / entry.name).symlink_to(entry)
    return tmp


def record(dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    old = dest / "index.json"
    index: dict[str, str] = json.loads(old.read_text()) if old.exists() else {}
    # a second run records only the commands the first did not have
    cmds = [c for c in all_commands() if _key(c) not in index]
    for n, cmd in enumerate(cmds, 1):
        res = run(cmd, _workdir())
        (dest / f"{_key(cmd)}.json").write_text(json.dumps(res, indent=1, sort_keys=True))
        index[_key(cmd)] = cmd
        print(f"[{n}/{len(cmds)}] rc={res['rc']} {cmd}", file=sys.stderr)
    (dest / "index.json").write_text(json.dumps(index, indent=1, sort_keys=True))


def check(src: Path) -> int:
    index: dict[str, str] = json.loads((src / "index.json").read_text())
    moved, added, text_only, compared = [], [], [], 0
    for key, cmd in sorted(index.items(), key=lambda kv: kv[1]):
        old = json.loads((src / f"{key}.json").read_text())
        new = run(cmd, _workdir())
        compared += 1
        if old["rc"] != new["rc"]:
            moved.append(f"exit {old['rc']} -> {new['rc']}: {cmd}")
        elif old["json"] is not None or new["json"] is not None:
            if old["json"] != new["json"]:
                if _contained(old["json"], new["json"]):
                    added.append(cmd)
                else:
                    moved.append(f"json changed: {cmd}")
        elif old["text"] != new["text"]:
            text_only.append(cmd)
        print(f"[{compared}/{len(index)}] {cmd}", file=sys.stderr)
    for line in moved:
        print("MOVED  " + line)
    for cmd in added:
        print("ADDED  " + cmd)
    for cmd in text_only:
        print("TEXT   " + cmd)
    print(
        f"{compared} outputs compared: {len(moved)} moved, {len(added)} with fields added "
        f"(every recorded value unchanged), {len(text_only)} text-only changes"
    )
    return 1 if moved else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=["record", "check", "list"])
    ap.add_argument("dir", type=Path, nargs="?")
    a = ap.parse_args()
    if a.mode == "list":
        print("\n".join(all_commands()))
        return 0
    if a.dir is None:
        ap.error("DIR is required")
    if a.mode == "record":
        record(a.dir)
        return 0
    return check(a.dir)


if __name__ == "__main__":
    sys.exit(main())
