"""Hostile inputs for every command: malformed files, mutated flags, huge and tiny
numbers, unicode, deep nesting, special files.

``draw(rng, tmp)`` returns one argv (files it needs are written under ``tmp``);
``run(argv)`` runs it in-process and classifies the outcome. Used by
tests/app/test_fuzz_cli.py (a bounded run, and a larger one marked slow) and by
``python tests/fuzz_cases.py N`` (the recorded run in docs/reliability.md).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import resource
import signal
import sys
import time
import warnings
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any
from unittest import mock

NUMBERS = [
    "1",
    "1/2",
    "0",
    "-1",
    "3/10",
    "0.3",
    "1e-3",
    "1e-320",
    "1e-400",
    "1e309",
    "1e9999",
    "-0",
    "2/0",
    "abc",
    "",
    " ",
    "nan",
    "inf",
    "-inf",
    "１",
    "1_000",
    "0x10",
    "1e",
    "1/",
    "9" * 5000,
    "1/" + "7" * 4400,
    "0." + "0" * 5000 + "1",
    "1e-9999",
    "ln(2)",
    "log(3/2)",
    "ln(0)",
    "ln(-1)",
    "ln(x)",
    "__import__('os')",
    "1;2",
    "1\n2",
    "\udcff",
    "10**10",
]
NAMES = ["x1", "x2", "x3", "x9", "", " ", "x1,x2", "x1\nx2", "ü", "\udcff", "x" * 5000, "-", ","]
FLAGS_BAD = ["--nope", "--json=1", "--", "-x", "--lam", "--target"]


#: x1 -> x2, two fair-ish bits: the network the fuzz corrupts, and the tests' smallest one
TWO_NODE_NETWORK: dict[str, Any] = {
    "kind": "bayesian-network",
    "nodes": [
        {"name": "x1", "states": ["0", "1"], "cpt": ["1/2", "1/2"]},
        {
            "name": "x2",
            "states": ["0", "1"],
            "parents": ["x1"],
            "cpt": [["3/4", "1/4"], ["1/4", "3/4"]],
        },
    ],
}


def _structured(rng: random.Random) -> Any:
    """A small chain, product or network, corrupted at one field half of the time."""
    kind = rng.choice(["markov-chain", "product", "bayesian-network"])
    if kind == "markov-chain":
        obj: Any = {
            "kind": kind,
            "length": rng.choice([1, 2, 4, 6]),
            "states": ["0", "1"],
            "initial": rng.choice([["1/2", "1/2"], "stationary", ["1/3", "2/3"]]),
            "transition": [["9/10", "1/10"], ["1/10", "9/10"]],
        }
        bad = {
            "length": rng.choice([0, -1, 10**9, "6", 1.5, None, 10**400]),
            "states": rng.choice([["0"], ["0", "0"], [], "01", ["0", "1", "2"]]),
            "initial": rng.choice([["1/2"], ["1", "1"], ["-1/2", "3/2"], "x", ["nan", "1"]]),
            "transition": rng.choice(
                [[["1", "1"], ["0", "1"]], [["1/2", "1/2"]], [["a", "b"], ["c", "d"]], [], 3]
            ),
        }
    elif kind == "product":
        obj = {
            "kind": kind,
            "records": [
                {"values": ["0", "1"], "probs": [rng.choice(["1/2", "1/3", "0"]), "1/2"]}
                for _ in range(rng.choice([1, 2, 3]))
            ],
        }
        for r in obj["records"]:  # each law sums to 1
            r["probs"] = [str(1 - Fraction(r["probs"][0])), r["probs"][0]]
        bad = {
            "records": rng.choice(
                [[], "r", [{"values": ["0"], "probs": ["1/2"]}], [{"values": ["0", "1"]}]]
            ),
        }
    else:
        obj = copy.deepcopy(TWO_NODE_NETWORK)
        bad = {
            "nodes": rng.choice(
                [
                    [{"name": "x1", "states": ["0", "1"], "parents": ["x1"], "cpt": []}],
                    [{"name": "x1", "states": ["0", "1"], "parents": ["zz"], "cpt": []}],
                    [{"name": "x1", "states": ["0", "1"], "cpt": ["1", "1"]}],
                    [],
                    "n",
                ]
            ),
        }
    if rng.random() < 0.5:
        key = rng.choice(list(bad))
        obj[key] = bad[key]
    return obj


def _model(rng: random.Random) -> Any:
    if rng.random() < 0.3:
        return _structured(rng)
    n = rng.choice([1, 2, 3])
    names = [f"x{k + 1}" for k in range(n)]
    import itertools

    cells = list(itertools.product(["0", "1"], repeat=n))
    w = [rng.randint(1, 5) for _ in cells]
    rows = [[*c, f"{x}/{sum(w)}"] for c, x in zip(cells, w)]
    return {"variables": names, "rows": rows}


def _mutate(rng: random.Random, obj: Any) -> Any:
    obj = json.loads(json.dumps(obj))
    k = rng.randrange(16)
    if k == 0:
        obj.pop(rng.choice(list(obj)), None)
    elif k == 1:
        obj["variables"] = rng.choice(
            ["ab", 12, 1.5, None, [], ["x1", "x1"], [""], [1, 2], {"a": 1}]
        )
    elif k == 2:
        obj["rows"] = rng.choice(
            [[], "rows", [[]], [["0", "1"]], None, [[0, 0, 1.5]], [["0"] * 40]]
        )
    elif k == 3 and obj.get("rows"):
        r = rng.choice(obj["rows"])
        r[rng.randrange(len(r))] = rng.choice(NUMBERS)
    elif k == 4:
        obj[rng.choice(["extra", "Domains", "mean", "cov", "\n"])] = 1
    elif k == 5:
        obj["domains"] = rng.choice(
            [
                {"x1": ["0", "1", "2"]},
                {"x1": []},
                "x",
                {"zz": ["0"]},
                {"x1": ["0", "10" + "0" * 30]},
            ]
        )
    elif k == 6:
        obj["rows"] = f"__DEEP__{rng.choice([50, 5000])}"  # nested lists, spliced in by _write
    elif k == 7 and obj.get("variables"):
        obj["variables"][0] = rng.choice(NAMES)
    elif k == 8 and obj.get("rows"):
        for r in obj["rows"]:
            r[-1] = "1/" + str(len(obj["rows"]) + rng.choice([0, 1]))
    elif k == 9:
        obj["variables"] = [f"x{i}" for i in range(rng.choice([30, 40]))]
        obj["rows"] = [
            ["0"] * len(obj["variables"]) + ["1/2"],
            ["1"] * len(obj["variables"]) + ["1/2"],
        ]
    elif k == 11:
        obj["variables"] = rng.choice([[1, 2], ["x1", 2], ["x\u202e1", "x2"], ["x1\n", "x2"]])
    elif k == 12 and obj.get("variables"):
        obj["__RAWCSV__"] = rng.choice(['"x\n1",x2,p\n0,0,1\n', 'x1,"x\r2",p\n0,0,1\n'])
    elif k == 10 and obj.get("rows"):
        for r in obj["rows"]:
            r[0] = rng.choice(["0", "10" + "0" * 19, "10" + "0" * 29, "1e30"])
    return obj


def _gaussian(rng: random.Random) -> Any:
    g: dict[str, Any] = {
        "variables": ["x1", "x2"],
        "mean": ["0", "0"],
        "cov": [["1", "1/2"], ["1/2", "1"]],
        "ranges": {"x1": ["0", "1"], "x2": ["0", "1"]},
    }
    k = rng.randrange(8)
    if k == 0:
        g["cov"] = [["1", "2"], ["2", "1"]]
    elif k == 1:
        g["cov"] = [["0", "0"], ["0", "0"]]
    elif k == 2:
        g["extra"] = 1
    elif k == 3:
        g["variables"] = [f"x{i}" for i in range(16)]
        g["mean"] = ["0"] * 16
        g["cov"] = [["1" if i == j else "0" for j in range(16)] for i in range(16)]
        g["ranges"] = {v: ["0", "1"] for v in g["variables"]}
    elif k == 4:
        g["mean"] = [rng.choice(NUMBERS), "0"]
    return g


def _write(tmp: Path, name: str, obj: Any, rng: random.Random) -> str:
    path = tmp / name
    if isinstance(obj, dict) and "__RAWCSV__" in obj:
        path = path.with_suffix(".csv")
        path.write_text(obj["__RAWCSV__"])
        return str(path)
    if isinstance(obj, dict) and "__RAW__" in obj:
        path = path.with_suffix(".json")
        path.write_text(obj["__RAW__"])
        return str(path)
    fmt = rng.randrange(12)
    if fmt == 0 and isinstance(obj, dict) and isinstance(obj.get("rows"), list):
        path = path.with_suffix(".csv")
        try:
            lines = [",".join(map(str, [*obj.get("variables", []), "p"]))]
            lines += [",".join(map(str, r)) if isinstance(r, list) else str(r) for r in obj["rows"]]
        except TypeError:
            lines = ["x"]
        path.write_text("\n".join(lines), encoding="utf-8", errors="surrogateescape")
    elif fmt == 1:
        path = path.with_suffix(".toml")
        path.write_text(
            rng.choice(["variables = 1.5", "variables = ['x1']\nrows = 3", "[[[", "a = 1"])
        )
    elif fmt == 2:
        path.write_bytes(rng.choice([b"", b"\xff\xfe", b"{", b"[]", b"null", b'{"a":' * 3000]))
    else:
        path = path.with_suffix(".json")
        text = json.dumps(obj)
        for depth in (50, 5000):
            text = text.replace(f'"__DEEP__{depth}"', "[" * depth + "1" + "]" * depth)
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return str(path)


def _opt(rng: random.Random, flag: str, good: str) -> list[str]:
    r = rng.random()
    if r < 0.7:
        return [flag, good]
    if r < 0.9:
        return [flag, rng.choice(NUMBERS + NAMES)]
    return []


def _mild(rng: random.Random, flag: str, good: str) -> list[str]:
    """``_opt`` with a hostile value one time in ten (the new draws, which mostly aim at
    what runs: several hostile flags at once end at the first)."""
    r = rng.random()
    if r < 0.9:
        return [flag, good]
    if r < 0.97:
        return [flag, rng.choice(NUMBERS + NAMES)]
    return []


def _reader(path: Path) -> None:
    """Drain a named pipe in the background (a FIFO output with a reader, as in a shell
    pipeline); gives up after 30 s."""
    import os
    import threading

    def drain() -> None:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            return
        seen, end = False, time.monotonic() + 30
        try:
            while time.monotonic() < end:
                try:
                    chunk = os.read(fd, 65536)
                except BlockingIOError:  # a writer, nothing written yet
                    seen = True
                    time.sleep(0.01)
                    continue
                if chunk:
                    seen = True
                elif seen:  # the writer closed: done
                    return
                else:  # no writer yet
                    time.sleep(0.01)
        finally:
            os.close(fd)

    threading.Thread(target=drain, daemon=True).start()


def hostile_path(rng: random.Random, tmp: Path, output: bool) -> str:
    """A path from the hostile-filesystem set, made under ``tmp``: a FIFO (drained by a
    reader when it is an output), a symlink to /dev/full, /dev/null or /dev/zero (the
    system's devices are reached only through a link in ``tmp``), a directory, a
    read-only file, a symlink loop, a dangling symlink, a missing directory, an empty
    path, a symlink to a regular file."""
    import os

    kind = rng.choice(
        [
            "fifo",
            "full",
            "null",
            "zero",
            "dir",
            "readonly",
            "loop",
            "dangling",
            "missing",
            "empty",
            "link-file",
            "plain",
        ]
    )
    path = tmp / f"h-{kind}-{rng.randrange(10**6)}"
    if kind == "fifo":
        os.mkfifo(path)
        if output:
            _reader(path)
    elif kind in ("full", "null", "zero"):
        path.symlink_to(f"/dev/{kind}")
    elif kind == "dir":
        path.mkdir()
    elif kind == "readonly":
        path.write_text("{}")
        path.chmod(0o444)
    elif kind == "loop":
        path.symlink_to(path)
    elif kind == "dangling":
        path.symlink_to(tmp / f"absent-{rng.randrange(10**6)}.out")
    elif kind == "missing":
        path = tmp / "no-such-dir" / "f.out"
    elif kind == "empty":
        return ""
    elif kind == "link-file":
        real = tmp / f"real-{rng.randrange(10**6)}.out"
        real.write_text("previous")
        path.symlink_to(real)
    return str(path)


def snapshot(tmp: Path) -> dict[str, tuple[int, str]]:
    """Each entry under ``tmp``: its file type and, for a symlink, where it points."""
    import os
    import stat

    out: dict[str, tuple[int, str]] = {}
    for root, dirs, files in os.walk(tmp, followlinks=False):
        for name in dirs + files:
            p = os.path.join(root, name)
            st = os.lstat(p)
            out[p] = (stat.S_IFMT(st.st_mode), os.readlink(p) if stat.S_ISLNK(st.st_mode) else "")
    return out


def destroyed(before: dict[str, tuple[int, str]], after: dict[str, tuple[int, str]]) -> list[str]:
    """Paths whose type or link target changed, or a temporary file left behind."""
    bad = [p for p, v in before.items() if p in after and after[p] != v]
    bad += [p for p in after if p not in before and Path(p).name.startswith(".")]
    return bad


TABLE_ROWS = ["x", None, 3, {}, [[]], [["x"]], [None], [[1, 2]], {"rows": []}]
RAW_JSON = [
    '{"kind": "randomized-response", "keep": "3/4", "keep": "1/2"}',
    '{"variables": ["x1", "x1"], "rows": []}',
    '{"kind": NaN}',
    '{"kind": "table", "rows": [["0", "0", "a\u202eb", "1"]]}',
    "[" * 3000 + "]" * 3000,
]
ARGS_WEIRD = ["a\nb", "a\rb", "\u202ex", "\u2028", "x" * 3000, "--\n"]


def _chain(rng: random.Random, length: int | None = None) -> dict[str, Any]:
    """A valid chain on two or three states (a random homogeneous one)."""
    k = rng.choice([2, 2, 3])
    row = {2: [["9/10", "1/10"], ["1/5", "4/5"]], 3: [["1/2", "1/4", "1/4"]] * 3}[k]
    return {
        "kind": "markov-chain",
        "length": length or rng.choice([1, 2, 3, 4, 6]),
        "states": ["0", "1", "2"][:k],
        "initial": rng.choice(
            ["stationary", ["1/3", "2/3", "0"][:k] if k == 2 else ["1/3", "1/3", "1/3"]]
        ),
        "transition": row,
    }


def _temporal_chain(rng: random.Random) -> Any:
    """A chain for ``temporal``, hostile at one field a third of the time, or another kind."""
    obj: Any = _chain(rng)
    r = rng.random()
    if r < 0.25:
        key = rng.choice(["length", "states", "initial", "transition", "kind", "extra"])
        obj[key] = rng.choice(
            {
                "length": [0, -1, 10**6, 10**400, "3", 1.5, None],
                "states": [["0"], ["0", "0"], [], "01", ["a", "b", "c", "d"]],
                "initial": [["1/2"], ["1", "1"], ["-1/2", "3/2"], "x", ["nan", "1"], []],
                "transition": [
                    [["1", "1"], ["0", "1"]],
                    [["1/2", "1/2"]],
                    [["a", "b"], ["c", "d"]],
                    [],
                    [["1", "0"], ["0", "1"]],
                    [["0", "1"], ["1", "0"]],
                    [["1e-400", "1"], ["1/2", "1/2"]],
                    [[["1/2", "1/2"], ["1/2", "1/2"]], [["1/2", "1/2"], ["1/2", "1/2"]]],
                ],
                "kind": ["product", "nope", "", None, "interval-markov-chain"],
                "extra": [1],
            }[key]
        )
    elif r < 0.33:
        obj = rng.choice([_model(rng), _class_model(rng), copy.deepcopy(TWO_NODE_NETWORK)])
    elif r < 0.4:  # a long chain, one matrix per step, or many states
        obj["length"] = rng.choice([100, 1000, 5000])
        if rng.random() < 0.5:
            obj["transition"] = [obj["transition"]] * (obj["length"] - 1)
    return obj


def _interval(rng: random.Random, lo: str, hi: str) -> Any:
    r = rng.random()
    if r < 0.95:
        return [lo, hi]
    return rng.choice([[hi, lo], lo, [], [lo], [lo, hi, hi], ["nan", hi], [lo, "2"], "x", None])


def _class_model(rng: random.Random) -> Any:
    """A class of laws: model-class, interval-markov-chain or interval-product, valid or
    hostile (an interval with lo > hi, no law inside, an empty class, mixed records)."""
    kind = rng.choice(["model-class", "interval-markov-chain", "interval-product"])
    if kind == "model-class":
        n = rng.choice([4, 4, 4, 6])
        members: list[Any] = [_chain(rng, 4) for _ in range(rng.choice([1, 2, 3]))]
        r = rng.random()
        if r < 0.1:
            members = []
        elif r < 0.2:
            members.append(_chain(rng, n))  # records differ when n != 4
        elif r < 0.3:
            members.append(rng.choice([_structured(rng), _model(rng), TWO_NODE_NETWORK]))
        elif r < 0.4:
            members.append(rng.choice(["absent.json", "../x.json", "", "/dev/zero", 3, None]))
        elif r < 0.45:
            members.append({"kind": "model-class", "members": [_chain(rng, 4)]})
        elif r < 0.5:
            members = "m"  # type: ignore[assignment]
        elif r < 0.6:  # products
            members = [
                {
                    "kind": "product",
                    "records": [
                        {"values": ["0", "1"], "probs": [p, str(1 - Fraction(p))]} for _ in range(3)
                    ],
                }
                for p in rng.sample(["1/2", "1/3", "1/10", "0"], rng.choice([1, 2]))
            ]
        elif r < 0.65:  # networks
            members = [copy.deepcopy(TWO_NODE_NETWORK) for _ in range(2)]
            members[1]["nodes"][0]["cpt"] = ["1/3", "2/3"]
        return {"kind": kind, "members": members, **({"x": 1} if rng.random() < 0.03 else {})}
    if kind == "interval-markov-chain":
        obj: dict[str, Any] = {
            "kind": kind,
            "length": rng.choice([1, 2, 4, 4, 6, 6, 50] * 3 + [0, -1]),
            "states": rng.choice([["0", "1"]] * 20 + [["0", "1", "2"], ["0"], []]),
            "initial": rng.choice(
                [
                    "stationary",
                    "stationary",
                    "stationary",
                    ["1/3", "2/3"],
                    [["1/4", "1/2"], ["1/2", "3/4"]],
                    [["3/4", "1/2"], ["1/2", "3/4"]],
                    "x",
                    [["1", "1"], ["1", "1"]],
                ]
            ),
            "transition": [
                [_interval(rng, "4/5", "9/10"), _interval(rng, "1/10", "1/5")],
                [_interval(rng, "3/20", "3/10"), _interval(rng, "7/10", "17/20")],
            ],
        }
        if rng.random() < 0.15:
            obj["transition"] = rng.choice(
                [
                    [[["9/10", "1"], ["1/5", "1/2"]], [["0", "1"], ["0", "1"]]],  # sums > 1
                    [[["0", "1/10"], ["0", "1/10"]], [["0", "1"], ["0", "1"]]],  # sums < 1
                    [["1/2", "1/2"], ["1/2", "1/2"]],  # points
                    [[["0", "1"], ["0", "1"]], [["0", "1"], ["0", "1"]]],  # everything
                    [],
                    "t",
                ]
            )
        return obj
    if rng.random() < 0.5:
        bern = [_interval(rng, "1/10", "1/5"), _interval(rng, "1/3", "1/2")]
        bern = bern[: rng.choice([0, 1, 2, 2, 2])] + (
            [["0", "1"]] * 30 if rng.random() < 0.05 else []
        )
        return {"kind": kind, "bernoulli": bern}
    return {
        "kind": kind,
        "records": [
            {
                "values": rng.choice([["0", "1", "3"]] * 4 + [["0", "0", "1"], ["a", "b", "c"]]),
                "probs": [
                    _interval(rng, "0", "1/2"),
                    _interval(rng, "1/4", "1/2"),
                    _interval(rng, "0", "1/4"),
                ][: rng.choice([3, 3, 3, 2])],
            }
            for _ in range(rng.choice([0, 1, 2]))
        ],
    }


def _three_node_network(rng: random.Random) -> dict[str, Any]:
    net = copy.deepcopy(TWO_NODE_NETWORK)
    net["nodes"].append(
        {
            "name": "x3",
            "states": ["0", "1", "2"],
            "parents": ["x2"],
            "cpt": [["1/2", "1/4", "1/4"], ["1/4", "1/4", "1/2"]],
        }
    )
    return net if rng.random() < 0.7 else copy.deepcopy(TWO_NODE_NETWORK)


QUERY_COUNT = [
    "x1,x2=1",
    "x1=0",
    "x1,x2,x3=1",
    "x3=2",
    "x1=9",
    "zz=1",
    "=1",
    "x1=",
    "x1,x1=1",
    "",
    ",",
    "x1,x2",
    "x1=1=1",
    "x1 ,x2=1",
]
QUERY_SUM = ["x1,x2", "x1,x2,x3", "x1", "zz", "", "x1,x1", ",", "x1=1"]


def _query_argv(rng: random.Random, tmp: Path, cmd: str) -> list[str]:
    """leakage/audit/calibrate on a network with --count/--sum, or on a chain or product
    with the histogram query (the flag, or "query" in audit's mechanism file)."""
    net = rng.random() < 0.5
    if net:
        model: Any = _three_node_network(rng)
        extra: list[str] = []
        r = rng.random()
        if r < 0.45:
            extra = ["--count", rng.choice(QUERY_COUNT)]
        elif r < 0.85:
            extra = ["--sum", rng.choice(QUERY_SUM)]
        else:
            extra = ["--count", "x1=1", "--sum", "x1"]
        if rng.random() < 0.1:
            extra += ["--query", "histogram"]
    else:
        model = rng.choice([_chain(rng), _chain(rng), _structured(rng), _class_model(rng)])
        extra = ["--query", "histogram"] if rng.random() < 0.8 else []
        if rng.random() < 0.1:
            extra += ["--count", "x1=1"]
    mfile = _write(tmp, "q", model, rng) if rng.random() < 0.9 else str(tmp / "absent.json")
    if cmd == "leakage":
        tgt = rng.choice([["--target", "x1"], ["--target", "x2"], ["--all-targets"], []])
        return [
            "leakage",
            mfile,
            *tgt,
            *_mild(rng, "--known", "x2"),
            *_mild(rng, "--lam", "2"),
            *_mild(rng, "--digits", "12"),
            *extra,
        ]
    if cmd == "calibrate":
        return [
            "calibrate",
            mfile,
            *_mild(rng, "--eps", "1"),
            *_mild(rng, "--target", "x1"),
            *_mild(rng, "--known", "x2"),
            *_mild(rng, "--mechanism", rng.choice(["laplace", "geometric"])),
            *extra,
        ]
    mech: dict[str, Any] = rng.choice(
        [
            {"kind": "laplace", "lam": "2"},
            {"kind": "geometric", "alpha": "1/2"},
            {"kind": "randomized-response", "keep": "3/4"},
        ]
    )
    if not net and rng.random() < 0.5:
        mech["query"] = rng.choice(["histogram", "histogram", "sum", "nope", 1])
        extra = [a for a in extra if a not in ("--query", "histogram")]
    if net and rng.random() < 0.3:
        mech["count"] = rng.choice(
            [
                {"nodes": ["x1", "x2"], "state": "1"},
                {"nodes": [], "state": "1"},
                {"nodes": ["zz"], "state": "1"},
                {"nodes": ["x1"]},
                "x1",
                {"nodes": ["x1"], "state": "9"},
            ]
        )
    kfile = _write(tmp, "qk", mech, rng)
    return [
        "audit",
        mfile,
        kfile,
        *_mild(rng, "--target", "x1"),
        *_mild(rng, "--known", "x2"),
        # the histogram audit reports epsilon at delta = 0 alone
        *(_mild(rng, "--eps", "1") if net or rng.random() < 0.2 else []),
        *_mild(rng, "--notions", rng.choice(["dp,apkdp", "all", "dp"])),
        *extra,
    ]


def _class_argv(rng: random.Random, tmp: Path, cmd: str) -> list[str]:
    """leakage/audit/calibrate on a class of laws; a model-class's file member is written
    beside the class file."""
    _write(tmp, "member", _chain(rng, 4), random.Random(3))  # m.json, the JSON form
    model = _class_model(rng)
    if model.get("kind") == "model-class" and isinstance(model["members"], list):
        if rng.random() < 0.3:
            model["members"].append("member.json")
    mfile = _write(tmp, "cls", model, rng)
    tgt = rng.choice(["x2", "x3", "x4"] * 5 + ["x1", "x50", "x9"])
    if cmd == "leakage":
        which = ["--target", tgt] if rng.random() < 0.7 else ["--all-targets"]
        return [
            "leakage",
            mfile,
            *which,
            *_mild(rng, "--known", "x1"),
            *_mild(rng, "--lam", "1"),
            *_mild(rng, "--digits", "8"),
        ]
    if cmd == "calibrate":
        return [
            "calibrate",
            mfile,
            *_mild(rng, "--eps", "1"),
            *_mild(rng, "--target", tgt),
            *_mild(rng, "--known", "x1"),
            *(["--no-baselines"] if rng.random() < 0.5 else []),
        ]
    mech = rng.choice(
        [
            {"kind": "laplace", "lam": "2"},
            {"kind": "randomized-response", "keep": "3/4"},
            {"kind": "geometric", "alpha": "1/2"},
        ]
    )
    kfile = _write(tmp, "ck", mech, rng)
    return [
        "audit",
        mfile,
        kfile,
        *_mild(rng, "--target", tgt),
        *_mild(rng, "--known", "x1"),
        *_mild(rng, "--eps", "1"),
        *_mild(rng, "--notions", rng.choice(["dp,apkdp", "all"])),
    ]


TEMPORAL_MECH = [
    {"kind": "randomized-response", "keep": "3/4"},
    {"kind": "randomized-response", "keep": "3/5"},
    {"kind": "geometric", "alpha": "1/2"},
    {"kind": "laplace", "lam": "2"},
]


def _temporal_argv(rng: random.Random, tmp: Path) -> list[str]:
    """``temporal``: chains, eps lists, mechanisms and budgets, valid and hostile."""
    chain = _temporal_chain(rng)
    mfile = _write(tmp, "t", chain, rng) if rng.random() < 0.92 else hostile_path(rng, tmp, False)
    T = chain.get("length") if isinstance(chain, dict) else None
    T = T if isinstance(T, int) and 0 < T < 50 else 3
    argv = ["temporal", mfile]
    r = rng.random()
    if r < 0.5:
        argv += ["--eps", rng.choice(["1", "1/10", "ln(3)", "0.5", "log(3/2)"])]
    elif r < 0.7:
        vals = [rng.choice(["1", "1/2", "ln(2)", "1/10"]) for _ in range(T)]
        if rng.random() < 0.3:
            vals = vals[: rng.randrange(len(vals) + 1)] + (["1"] if rng.random() < 0.5 else [])
        if rng.random() < 0.2 and vals:
            vals[rng.randrange(len(vals))] = rng.choice(NUMBERS)
        argv += ["--eps", ",".join(vals)]
    elif r < 0.85:
        argv += ["--eps", rng.choice(NUMBERS + [",", "1,", ",1", "1,,1"])]
    if rng.random() < 0.6:
        mech: Any = copy.deepcopy(rng.choice(TEMPORAL_MECH))
        q = rng.random()
        if q < 0.3:
            key = next(iter(set(mech) - {"kind"}))
            mech[key] = rng.choice(NUMBERS)
        elif q < 0.4:
            mech[rng.choice(["extra", "query", "weights"])] = rng.choice(["1", "histogram"])
        elif q < 0.5:
            mech = rng.choice(
                [
                    {"kind": "threshold", "T": "1"},
                    {"kind": "table", "rows": []},
                    {"kind": None},
                    [],
                    {"__RAW__": rng.choice(RAW_JSON)},
                    {"kind": "laplace"},
                ]
            )
        kfile = (
            _write(tmp, "tk", mech, rng) if rng.random() < 0.92 else hostile_path(rng, tmp, False)
        )
        argv += ["--mechanism", kfile]
    if rng.random() < 0.35:
        argv += ["--budget", rng.choice(["1", "1/2", "3", "ln(2)", "1/100"] * 3 + NUMBERS)]
    if rng.random() < 0.3:
        argv += ["--format", rng.choice(["csv", "text", "csv", "md"])]
    if rng.random() < 0.2:
        argv += ["--digits", rng.choice(["5", "30", "0", "abc", "1e9999"])]
    return argv


COMMANDS = (
    "leakage",
    "whg",
    "gaussian",
    "counting",
    "threshold",
    "table",
    "verify",
    "oracle",
    "audit",
    "figure",
    "calibrate",
    # appended after the eleven first ones, so each of those draws as before
    "temporal",
    "class",  # leakage, audit or calibrate on a class of laws
    "query",  # leakage, audit or calibrate with --count/--sum on a network or a histogram
)


def draw(rng: random.Random, tmp: Path, command: str | None = None) -> list[str]:
    cmd = command or rng.choice(COMMANDS)
    model = _model(rng)
    mfile = _write(tmp, "m", _mutate(rng, model) if rng.random() < 0.4 else model, rng)
    if rng.random() < 0.05:
        mfile = rng.choice(["/nonexistent", str(tmp), "x" * 300])
    elif rng.random() < 0.08:
        mfile = hostile_path(rng, tmp, output=False)
    argv: list[str]
    if cmd == "temporal":
        argv = _temporal_argv(rng, tmp)
    elif cmd in ("class", "query"):
        sub = rng.choice(["leakage", "audit", "calibrate"])
        argv = (_class_argv if cmd == "class" else _query_argv)(rng, tmp, sub)
    elif cmd == "leakage":
        argv = [
            "leakage",
            mfile,
            *_opt(rng, "--target", "x1"),
            *_opt(rng, "--known", "x2"),
            *_opt(rng, "--lam", "1"),
            *_opt(rng, "--weights", "x1=2"),
            *_opt(rng, "--digits", "20"),
        ]
    elif cmd == "whg":
        argv = [
            "whg",
            mfile,
            *_opt(rng, "--lam", "1"),
            *_opt(rng, "--fast", "2"),
            *_opt(rng, "--digits", "10"),
        ]
    elif cmd == "gaussian":
        g = _write(tmp, "g", _gaussian(rng), rng)
        argv = ["gaussian", g, *_opt(rng, "--target", "x1"), *_opt(rng, "--lam", "1")]
        if rng.random() < 0.3:
            argv = ["gaussian", g, "--all"]
    elif cmd == "counting":
        argv = [
            "counting",
            *_opt(rng, "--n", "50"),
            *_opt(rng, "--p", "1/3"),
            *_opt(rng, "--eps", "1/2"),
            *_opt(rng, "--known", "1"),
            *_opt(rng, "--lambda", "1/10"),
        ]
    elif cmd == "threshold":
        argv = [
            "threshold",
            *_opt(rng, "--n", "50"),
            *_opt(rng, "--p", "1/3"),
            *_opt(rng, "--T", "3"),
            *_opt(rng, "--eps", "1/2"),
            *_opt(rng, "--bmax", "1"),
            *_opt(rng, "--known-size", "1"),
        ]
    elif cmd == "table":
        argv = [
            "table",
            rng.choice(["li2019-examples", "nope", ""]),
            *_opt(rng, "--format", "md"),
            *_opt(rng, "--digits", "10"),
        ]
    elif cmd == "verify":
        argv = [
            "verify",
            rng.choice(["--list", "--claim", "--paper"]),
            rng.choice(["li2019.eq3", "nope", "li2019", "", "lmm2016"]),
        ]
        if argv[1] == "--list":
            argv = argv[:2]
    elif cmd == "figure":
        ids = ["lmm2016.fig6", "dmkb2020.fig5", "li2019.fig4c", "li2019.fig4d", "dmkb2020.fig1"]
        fid = rng.choice([*ids, "li2019.fig5a", "dmkb2020.fig2", "nope", "", "li2019.fig5a\n"])
        heavy = fid not in ids
        argv = ["figure", fid, "--scale", rng.choice(["quick"] * 6 + ["paper"] * 3 + ["x"])]
        if heavy or rng.random() < 0.5:  # the heavy ones are refused by the estimate
            argv += ["--max-work", rng.choice(["1", "1001", "abc", "0", "-5", "10000", ""])]
        elif argv[3] == "paper":
            argv[3] = "quick"
        if rng.random() < 0.6:
            argv += ["--out", hostile_path(rng, tmp, output=True)]
        argv += _opt(rng, "--format", rng.choice(["csv", "json", "svg"]))
        argv += ["--jobs", "1"]
    elif cmd == "calibrate":
        argv = [
            "calibrate",
            mfile,
            *_opt(rng, "--eps", "1"),
            *_opt(rng, "--mechanism", rng.choice(["laplace", "geometric", "nope"])),
            *_opt(rng, "--known", "x2"),
            *_opt(rng, "--target", "x1"),
        ]
    elif cmd == "oracle":
        if rng.random() < 0.5:
            argv = [
                "oracle",
                "export",
                *_opt(rng, "--family", "li2019-examples"),
                *_opt(rng, "--n", "3"),
                *_opt(rng, "--count", "2"),
                *_opt(rng, "--lam", "1"),
                *_opt(rng, "--digits", "10"),
                "--out",
                rng.choice(
                    [
                        str(tmp / rng.choice(["o.json", "x" * 300, "d/o.json", ""])),
                        hostile_path(rng, tmp, output=True),
                    ]
                ),
            ]
            if rng.random() < 0.3:  # the audit's vectors, with flags that do not apply
                k = _write(tmp, "k", {"kind": "table", "rows": rng.choice(TABLE_ROWS)}, rng)
                argv[2:2] = ["--model", mfile, "--mechanism", k, *_opt(rng, "--target", "x1")]
                argv += _opt(rng, "--notions", rng.choice(["", " , ", "dp", "all", "nope"]))
        else:
            vec = _write(
                tmp,
                "v",
                rng.choice([{}, {"format": "pdpsym-oracle/1", "cases": []}, [], model]),
                rng,
            )
            ans = _write(
                tmp, "a", rng.choice([{"answers": []}, {"answers": [{"id": 1}]}, "x"]), rng
            )
            if rng.random() < 0.2:
                vec = hostile_path(rng, tmp, output=False)
            argv = ["oracle", "check", vec, ans]
    else:
        mech = rng.choice(
            [
                {"kind": "randomized-response", "keep": rng.choice(NUMBERS)},
                {"kind": "threshold", "T": rng.choice(NUMBERS)},
                {"kind": "table", "rows": [["0", "0", "a", rng.choice(NUMBERS)]]},
                {"kind": rng.choice(["nope", "", None, 1])},
                {"kind": "geometric", "alpha": rng.choice(NUMBERS)},
                {"kind": "laplace", "lam": rng.choice(NUMBERS)},
                {"kind": "count", "extra": 1},
                {"kind": "table", "rows": rng.choice(TABLE_ROWS)},
                {"__RAW__": rng.choice(RAW_JSON)},
                {
                    "kind": "geometric",
                    "alpha": "1/2",
                    "weights": {"x1": rng.choice(["1", "100000"])},
                },
            ]
        )
        kfile = _write(tmp, "k", mech, rng)
        argv = [
            "audit",
            mfile,
            kfile,
            *_opt(rng, "--target", "x1"),
            *_opt(rng, "--known", "x2"),
            *_opt(rng, "--eps", "ln(2)"),
            *_opt(rng, "--delta", "1/10"),
            *_opt(rng, "--notions", rng.choice(["dp,apkdp", "distributional-dp", "", "all"])),
        ]
        if rng.random() < 0.3:
            argv += ["--curve", hostile_path(rng, tmp, output=True)]
            argv += _opt(rng, "--grid", rng.choice(["0:1:3", "0:2:10000", "1:0:3", "a"]))
    if rng.random() < 0.05:
        argv.insert(rng.randrange(1, len(argv) + 1), rng.choice(FLAGS_BAD))
    if rng.random() < 0.05:
        argv.insert(rng.randrange(1, len(argv) + 1), rng.choice(ARGS_WEIRD))
    if rng.random() < 0.05:
        argv += ["--max-work", rng.choice(["abc", "0", "-5", "1", "1e9999", ""])]
    if rng.random() < 0.3:
        argv.append("--json")
    return argv


class _Hang(BaseException):  # not an Exception: the CLI's boundary must not catch it
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Hang


#: the work limit every fuzz input runs under unless it draws its own ``--max-work``: 5 s
#: at the rate the estimates are calibrated for (10^6 steps a CPU second, each estimate
#: within 3x of the time), so an input admitted by its estimate that runs past the 20 s
#: alarm is an estimate that does not track time, reported as a hang
FUZZ_MAX_WORK = 5 * 10**6
#: the wall-clock backstop for an input blocked without using CPU (a pipe nobody writes)
WALL_FACTOR = 15


def _cpu() -> float:
    """CPU seconds (user + system) of this process and of its finished children."""
    me, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run(
    argv: list[str], limit_s: int = 20, watch: Path | None = None
) -> tuple[str, int | None, str]:
    """Run one argv in-process: (outcome, exit code, stderr).

    Outcomes: ``ok`` (exit 0, 1 or 2 with at most one stderr line and no traceback),
    ``internal`` (exit 1 "internal error"), ``multiline``, ``traceback``, ``memory``,
    ``warning`` (a Python or numpy warning raised, each one caught however often it
    repeats, or a line naming a warning on stderr),
    ``hang`` (over ``limit_s`` CPU seconds, the process's and its workers', or over
    ``WALL_FACTOR`` times that on the wall clock: timings on a shared machine are CPU
    time), ``destroyed`` (under ``watch``, a path changed
    type, a symlink its target, or a temporary file was left behind).
    """
    from pdpsym.app import budget  # the package is imported at the first run, not at import
    from pdpsym.app.cli import main
    from pdpsym.app.commands import law_class

    before = snapshot(watch) if watch is not None else {}

    out, err = io.StringIO(), io.StringIO()
    old = signal.signal(signal.SIGALRM, _alarm)
    old_prof = signal.signal(signal.SIGPROF, _alarm)
    signal.alarm(limit_s * WALL_FACTOR)
    signal.setitimer(signal.ITIMER_PROF, limit_s)  # this process's CPU time
    start = _cpu()
    code: int | None
    try:
        with (
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
            warnings.catch_warnings(record=True) as caught,
            mock.patch.object(budget, "DEFAULT_MAX_WORK", FUZZ_MAX_WORK),
            # a class's default is 20 single laws' (fixed when the module loads)
            mock.patch.object(law_class, "CLASS_MAX_WORK", 20 * FUZZ_MAX_WORK),
        ):
            warnings.simplefilter("always")  # a warning seen before is still reported
            try:
                code = main(argv)
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else 2
    except _Hang:
        return "hang", None, err.getvalue()
    except MemoryError:
        return "memory", None, err.getvalue()
    except Exception:  # noqa: BLE001 - anything escaping main is a traceback for the user
        import traceback

        return "traceback", None, traceback.format_exc()
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        signal.signal(signal.SIGPROF, old_prof)
    text = err.getvalue()
    if _cpu() - start > limit_s:  # the workers' time, counted once they have ended
        return "hang", code, text
    if watch is not None and (gone := destroyed(before, snapshot(watch))):
        return "destroyed", code, f"{gone[:3]} {text}"
    if "Traceback" in text:
        return "traceback", code, text
    if caught or "Warning:" in text:
        shown = "; ".join(f"{w.category.__name__}: {w.message}" for w in caught[:3])
        return "warning", code, f"{shown} {text}"
    if text.count("\n") > 1:
        return "multiline", code, text
    if code == 1 and "internal error" in text:
        return "internal", code, text
    if code not in (0, 1, 2):
        return "badexit", code, text
    return "ok", code, text


def campaign(
    n: int,
    seed: int = 0,
    tmp: Path | None = None,
    log: Any = None,
    only: range | None = None,
) -> dict[str, Any]:
    """``n`` inputs, round-robin over the commands; counts per command and outcome.

    ``only``: run the inputs of these indices alone (every input is still drawn, so a
    range of the campaign runs the same inputs as the whole, and ranges can run side by
    side)."""
    import tempfile

    rng = random.Random(seed)
    per: dict[str, Counter[str]] = {c: Counter() for c in COMMANDS}
    bad: list[tuple[list[str], str, str]] = []
    with tempfile.TemporaryDirectory() as d:
        base = Path(d) if tmp is None else tmp
        for k in range(n):
            cmd = COMMANDS[k % len(COMMANDS)]
            case_dir = base / f"c{k % 50}"
            case_dir.mkdir(exist_ok=True)
            argv = draw(rng, case_dir, cmd)
            if only is not None and k not in only:
                continue
            outcome, code, err = run(argv, watch=case_dir)
            per[cmd][outcome if outcome != "ok" else f"exit {code}"] += 1
            if outcome != "ok":
                bad.append((argv, outcome, err[-400:]))
                if log is not None:
                    log(f"{k} {outcome} {[a[:60] for a in argv]} {err[-300:]!r}")
            if log is not None and (k + 1) % 500 == 0:
                log(f"{k + 1} inputs, {len(bad)} failures")
    return {"per_command": per, "failures": bad}


#: a two-record table (x2 = x1, each value 1/2): the model of the audits below
TWO_RECORD_TABLE = {"variables": ["x1", "x2"], "rows": [["0", "0", "1/2"], ["1", "1", "1/2"]]}


def audit_case(
    tmp: Path, mech: object, *extra: str, model: object = None, raw: str | None = None
) -> tuple[str, int | None, str]:
    """Run ``audit MODEL MECH --target x1 EXTRA`` on :data:`TWO_RECORD_TABLE` (or
    ``model``) and the mechanism ``mech`` (or the raw text ``raw``): :func:`run`'s
    outcome."""
    m, k = tmp / "m.json", tmp / "k.json"
    m.write_text(json.dumps(TWO_RECORD_TABLE if model is None else model))
    k.write_text(raw if raw is not None else json.dumps(mech))
    return run(["audit", str(m), str(k), "--target", "x1", *extra])


if __name__ == "__main__":  # python tests/fuzz_cases.py N [SEED [START:STOP]]
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    start, _, stop = (sys.argv[3] if len(sys.argv) > 3 else f"0:{n}").partition(":")
    t0, c0 = time.perf_counter(), _cpu()
    res = campaign(
        n, seed, log=lambda line: print(line, flush=True), only=range(int(start), int(stop))
    )
    print(
        f"{n} inputs, seed {seed}, range {start}:{stop}, {time.perf_counter() - t0:.0f} s, "
        f"{_cpu() - c0:.0f} s CPU"
    )
    for cmd, c in res["per_command"].items():
        print(
            f"| {cmd} | {sum(c.values())} | "
            + ", ".join(f"{k}: {v}" for k, v in sorted(c.items()))
            + " |"
        )
    for argv, outcome, err in res["failures"][:40]:
        print(outcome, [a[:60] for a in argv], repr(err[-300:]))
