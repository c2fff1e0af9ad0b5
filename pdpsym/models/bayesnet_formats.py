"""Other ways in and out of a :class:`~pdpsym.models.bayesnet.BayesianNetwork`: pgmpy
models, XMLBIF and UAI files. Each returns node specifications in the JSON form (or a
pgmpy model), so the one validator of :mod:`pdpsym.models.bayesnet_build` checks them.

**pgmpy** (an optional dependency: ``pip install 'pdpsym[pgmpy]'``) keeps every table as
float64. :func:`pgmpy_specs` reads each probability from its shortest round-tripping
decimal text (Python's ``repr``), exactly: a table written in decimal with at most 15
significant digits (``0.95``, ``0.0001``) comes back as that decimal exactly (``19/20``).
Digits are lost where a float cannot hold the decimal: probabilities computed rather
than written (``1/3`` is stored as ``0.3333333333333333``), or written with 16 or more
significant digits. Rows of such floats do not sum to exactly 1 and are renormalized
within the caller's tolerance, listed in ``BayesianNetwork.renormalized``.
:func:`to_pgmpy` converts the other way with ``float()`` (the nearest float64, the
digits pgmpy can hold).

**XMLBIF and UAI** are read by small strict grammars of our own rather than pgmpy's
readers, for the reasons the BIF grammar gives (:mod:`pdpsym.models.bayesnet_bif`):
exact decimals, no evaluation of text, errors that name their line, and no optional
dependency needed to read a file. XMLBIF (0.3) is parsed with the standard library's
expat (no DTD, no external entities are fetched; its line numbers name errors);
``<VARIABLE>``, ``<OUTCOME>``, ``<DEFINITION>``, ``<FOR>``, ``<GIVEN>`` and ``<TABLE>``
are read (the table lists the ``FOR`` variable's states fastest, then the last
``GIVEN``), every other element is skipped. UAI (the format of the UAI inference
competitions) must be of type ``BAYES``: variables ``v0, v1, ...`` with states ``0, 1,
...``; each function's child is its scope's last variable, and its table lists that
variable fastest (the format's rule) unless only the other order (the child slowest,
then the parents from the last listed: pgmpy's writer) gives rows summing to 1: a
documented reading.
"""

from __future__ import annotations

import itertools
import math
import re
from typing import Any

from pdpsym.core.errors import InputError

# --- pgmpy -------------------------------------------------------------------------------


def pgmpy_specs(model: Any) -> list[tuple[str, dict[str, Any]]]:
    """Node specifications of a pgmpy discrete Bayesian network.

    Args:
        model: a pgmpy ``DiscreteBayesianNetwork`` (or the older ``BayesianNetwork``)
            with a ``TabularCPD`` on every node.

    Returns:
        ``[(field prefix, spec), ...]`` in the model's node order; each probability the
        exact rational of its float's shortest decimal text.

    Raises:
        InputError: ``model`` when it is not such a model or a node has no CPD.

    References:
        Ankan and Textor, pgmpy: a Python toolkit for Bayesian networks, JMLR 25 (2024).
    """
    if not hasattr(model, "get_cpds") or not hasattr(model, "nodes"):
        raise InputError("model", "expected a pgmpy discrete Bayesian network")
    specs = []
    for k, name in enumerate(model.nodes()):
        cpd = model.get_cpds(name)
        if cpd is None:
            raise InputError(f"nodes[{k}]", f"node {name!r} has no CPD")
        names = cpd.state_names
        parents = [str(u) for u in cpd.variables[1:]]
        values = cpd.get_values()  # (child states, parent configurations), last parent fastest
        rows = [
            [repr(float(values[s][c])) for s in range(values.shape[0])]
            for c in range(values.shape[1])
        ]
        specs.append(
            (
                f"nodes[{k}]",
                {
                    "name": str(name),
                    "states": [str(s) for s in names[name]],
                    "parents": parents,
                    "cpt": rows if parents else rows[0],
                },
            )
        )
    return specs


def to_pgmpy(network: Any) -> Any:
    """The network as a pgmpy ``DiscreteBayesianNetwork`` (float64 tables).

    Args:
        network: a :class:`~pdpsym.models.bayesnet.BayesianNetwork`.

    Returns:
        The pgmpy model, checked by its ``check_model``.

    Raises:
        ImportError: pgmpy is not installed (``pip install 'pdpsym[pgmpy]'``).

    References:
        Ankan and Textor (2024), pgmpy.
    """
    # imported here: pgmpy is an optional dependency, loaded only when asked for
    from pgmpy.factors.discrete import TabularCPD  # noqa: PLC0415
    from pgmpy.models import DiscreteBayesianNetwork  # noqa: PLC0415

    edges = [(u, v) for v in network.variables for u in network.nodes[v].parents]
    out = DiscreteBayesianNetwork()
    out.add_nodes_from(network.variables)  # first: pgmpy keeps this order
    out.add_edges_from(edges)
    for v in network.variables:
        node = network.nodes[v]
        configs = itertools.product(*(range(len(network.nodes[u].states)) for u in node.parents))
        cols = [node.cpt[c] for c in configs]
        values = [[float(col[s]) for col in cols] for s in range(len(node.states))]
        out.add_cpds(
            TabularCPD(
                v,
                len(node.states),
                values,
                evidence=list(node.parents) or None,
                evidence_card=[len(network.nodes[u].states) for u in node.parents] or None,
                state_names={u: list(network.nodes[u].states) for u in (v, *node.parents)},
            )
        )
    out.check_model()
    return out


# --- XMLBIF --------------------------------------------------------------------------------


def parse_xmlbif(text: str) -> tuple[list[tuple[str, dict[str, Any]]], dict[str, str]]:
    """Node specifications of an XMLBIF (0.3) document.

    Args:
        text: the whole file.

    Returns:
        ``(specs, lines)`` as :func:`pdpsym.models.bayesnet_bif.parse_bif` returns them:
        each node's field is the line of its ``<VARIABLE>``, its parents and table the
        line of its ``<DEFINITION>``.

    Raises:
        InputError: naming ``line N`` of a malformed document or a missing element.

    References:
        Cozman, The Interchange Format for Bayesian Networks (XMLBIF 0.3), 1998.
    """
    stack: list[tuple[str, int]] = []
    text_of: list[str] = []
    variables: dict[str, dict[str, Any]] = {}
    where: dict[str, str] = {}
    lines: dict[str, str] = {}
    current: dict[str, Any] = {}
    # imported here: the XML parser loads only for an XMLBIF file (start-up of every
    # other command)
    from xml.parsers import expat  # noqa: PLC0415

    parser = expat.ParserCreate()

    def start(tag: str, _attrs: dict[str, str]) -> None:
        stack.append((tag.upper(), parser.CurrentLineNumber))
        text_of.clear()
        if tag.upper() in ("VARIABLE", "DEFINITION"):
            current.clear()
            current.update(kind=tag.upper(), line=parser.CurrentLineNumber, given=[], outcomes=[])

    def chars(data: str) -> None:
        text_of.append(data)

    def end(tag: str) -> None:
        tag_u, line = stack.pop()
        body = "".join(text_of).strip()
        text_of.clear()
        kind = current.get("kind")
        if tag_u == "NAME" and kind == "VARIABLE":
            current["name"] = body
        elif tag_u == "OUTCOME" and kind == "VARIABLE":
            current["outcomes"].append(body)
        elif tag_u == "FOR" and kind == "DEFINITION":
            current["for"] = body
        elif tag_u == "GIVEN" and kind == "DEFINITION":
            current["given"].append(body)
        elif tag_u == "TABLE" and kind == "DEFINITION":
            current["table"] = (body.split(), line)
        elif tag_u == "VARIABLE":
            _variable(current, variables, where)
            current.clear()
        elif tag_u == "DEFINITION":
            _definition(current, variables, where, lines)
            current.clear()

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.EntityDeclHandler = _no_entities
    try:
        parser.Parse(text, True)
    except expat.ExpatError as err:
        raise InputError(
            f"line {err.lineno}", f"not well-formed XML: {expat.errors.messages[err.code]}"
        ) from None
    if not variables:
        raise InputError("line 1", "no <VARIABLE> declared")
    for name, spec in variables.items():
        if "cpt" not in spec:
            raise InputError(where[name], f"variable {name!r} has no <DEFINITION>")
    return [(where[v], spec) for v, spec in variables.items()], lines


def _no_entities(*_args: Any) -> None:
    raise InputError("MODEL", "entity declarations are not read in XMLBIF files")


def _variable(cur: dict[str, Any], variables: dict[str, Any], where: dict[str, str]) -> None:
    field = f"line {cur['line']}"
    name = cur.get("name")
    if not name:
        raise InputError(field, "a <VARIABLE> without a <NAME>")
    if name in variables:
        raise InputError(field, f"duplicate variable {name!r}")
    if not cur["outcomes"]:
        raise InputError(field, f"variable {name!r} has no <OUTCOME>")
    variables[name] = {"name": name, "states": list(cur["outcomes"])}
    where[name] = field


def _definition(
    cur: dict[str, Any], variables: dict[str, Any], where: dict[str, str], lines: dict[str, str]
) -> None:
    field = f"line {cur['line']}"
    child = cur.get("for")
    if child not in variables:
        raise InputError(field, f"<DEFINITION> of an undeclared variable {child!r}")
    spec = variables[child]
    if "cpt" in spec:
        raise InputError(field, f"second <DEFINITION> for {child!r}")
    if "table" not in cur:
        raise InputError(field, f"<DEFINITION> of {child!r} has no <TABLE>")
    parents = list(cur["given"])
    for u in parents:
        if u not in variables:
            raise InputError(field, f"unknown parent {u!r} of {child!r}")
    probs, tline = cur["table"]
    k = len(spec["states"])
    n_rows = 1
    for u in parents:
        n_rows *= len(variables[u]["states"])
    if len(probs) != k * n_rows:
        raise InputError(
            f"line {tline}", f"<TABLE> of {child!r} has {len(probs)} numbers, expected {k * n_rows}"
        )
    rows = [probs[r * k : (r + 1) * k] for r in range(n_rows)]
    spec["parents"] = parents
    spec["cpt"] = rows if parents else rows[0]
    prefix = where[child]
    lines[f"{prefix}.parents"] = lines[f"{prefix}.cpt"] = field
    for r in range(n_rows):
        lines[f"{prefix}.cpt[{r}]"] = f"line {tline}"


# --- UAI -----------------------------------------------------------------------------------

_UAI_TOKEN = re.compile(r"\S+")


def parse_uai(text: str) -> tuple[list[tuple[str, dict[str, Any]]], dict[str, str]]:
    """Node specifications of a UAI file of type ``BAYES``.

    Args:
        text: the whole file.

    Returns:
        ``(specs, lines)`` as :func:`parse_xmlbif` returns them; variables are named
        ``v0, v1, ...`` and their states ``0, 1, ...``.

    Raises:
        InputError: naming ``line N`` of the first mistake.

    References:
        The UAI inference competition file format (UAI 2008-2022), "BAYES" networks.
    """
    toks: list[tuple[str, int]] = []
    for number, row in enumerate(text.splitlines(), 1):
        toks.extend((m.group(), number) for m in _UAI_TOKEN.finditer(row))
    pos = 0

    def take(what: str) -> tuple[str, int]:
        nonlocal pos
        if pos >= len(toks):
            last = toks[-1][1] if toks else 1
            raise InputError(f"line {last}", f"unexpected end of file, expected {what}")
        pos += 1
        return toks[pos - 1]

    def count(what: str, most: int) -> tuple[int, int]:
        tok, line = take(what)
        if not tok.isdigit() or int(tok) > most:
            raise InputError(
                f"line {line}", f"expected {what} (an integer up to {most}), got {tok!r}"
            )
        return int(tok), line

    kind, line = take("the network type")
    if kind != "BAYES":
        raise InputError(f"line {line}", f"only BAYES networks are read, got {kind!r}")
    n, _ = count("the number of variables", 100_000)
    cards = [count("a domain size", 10_000)[0] for _ in range(n)]
    m, mline = count("the number of functions", 100_000)
    if m != n:
        raise InputError(
            f"line {mline}", f"a BAYES network has one function per variable ({n}), got {m}"
        )
    scopes: list[tuple[list[int], int]] = []
    for _ in range(m):
        size, sline = count("a scope size", n)
        scope = [count("a variable index", n - 1)[0] for _ in range(size)]
        if not scope:
            raise InputError(f"line {sline}", "an empty scope")
        scopes.append((scope, sline))
    specs: dict[int, dict[str, Any]] = {}
    lines: dict[str, str] = {}
    tables = []
    for scope, _ in scopes:
        entries, eline = count("the number of table entries", 10**8)
        if entries != math.prod(cards[u] for u in scope):
            raise InputError(
                f"line {eline}",
                f"expected {math.prod(cards[u] for u in scope)} table entries, got {entries}",
            )
        tables.append(([take("a probability") for _ in range(entries)], eline))
    slowest = _child_slowest(scopes, cards, tables)
    for (scope, sline), (probs, eline) in zip(scopes, tables, strict=True):
        child, parents = scope[-1], scope[:-1]
        if child in specs:
            raise InputError(f"line {sline}", f"a second function for v{child}")
        rows = _rows(scope, cards, slowest, probs)
        prefix = f"line {sline}"
        specs[child] = {
            "name": f"v{child}",
            "states": [str(j) for j in range(cards[child])],
            "parents": [f"v{u}" for u in parents],
            "cpt": [[p for p, _ in r] for r in rows] if parents else [p for p, _ in rows[0]],
        }
        lines[f"{prefix}.parents"] = prefix
        lines[f"{prefix}.cpt"] = f"line {eline}"
        for r, cells in enumerate(rows):
            lines[f"{prefix}.cpt[{r}]"] = f"line {cells[0][1]}"
    if pos < len(toks):
        raise InputError(
            f"line {toks[pos][1]}", f"unexpected {toks[pos][0]!r} after the last table"
        )
    missing = [v for v in range(n) if v not in specs]
    if missing:
        raise InputError("line 1", f"no function for v{missing[0]}")
    line_of = {scope[-1]: sline for scope, sline in scopes}
    return [(f"line {line_of[v]}", specs[v]) for v in range(n)], lines


def _rows(
    scope: list[int], cards: list[int], slowest: bool, probs: list[tuple[str, int]]
) -> list[list[tuple[str, int]]]:
    """The rows of the child (the scope's last variable), one per configuration of its
    parents (the last fastest), from a table listed with the scope's last variable
    fastest, or (``slowest``) with the child slowest, then its parents from the last
    listed to the first (pgmpy's writer lists them reversed)."""
    child = len(scope) - 1
    layout = [child, *reversed(range(child))] if slowest else list(range(len(scope)))
    stride = {j: math.prod(cards[scope[i]] for i in layout[k + 1 :]) for k, j in enumerate(layout)}
    rows = []
    for config in itertools.product(*(range(cards[u]) for u in scope[:-1])):
        base = sum(stride[j] * x for j, x in enumerate(config))
        rows.append([probs[base + stride[child] * s] for s in range(cards[scope[child]])])
    return rows


def _child_slowest(
    scopes: list[tuple[list[int], int]],
    cards: list[int],
    tables: list[tuple[list[tuple[str, int]], int]],
) -> bool:
    """Whether the tables list the child slowest: the format lists the scope's last
    variable (the child) fastest, and the other order is read only when it alone gives
    rows summing to 1 (pgmpy's writer)."""

    def fits(slowest: bool) -> bool:
        for (scope, _), (probs, _) in zip(scopes, tables, strict=True):
            try:
                rows = _rows(scope, cards, slowest, probs)
                if any(abs(sum(float(p) for p, _ in r) - 1) > 1e-3 for r in rows):
                    return False
            except ValueError:
                return False
        return True

    return not fits(False) and fits(True)


__all__ = ["parse_uai", "parse_xmlbif", "pgmpy_specs", "to_pgmpy"]
