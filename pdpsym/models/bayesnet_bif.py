"""The BIF grammar (the format of the bnlearn network repository) for
:mod:`pdpsym.models.bayesnet`: a small tokenizer and recursive-descent parser that
returns the node specifications in the JSON form, each with its line for errors.

**BIF** (the Bayesian Interchange Format of the bnlearn network repository) is read by a
small strict grammar of our own rather than by a maintained parser such as pgmpy's: the
parser must keep probabilities exact (pgmpy reads them into float64 arrays, after which the
decimal ``0.1`` is no longer ``1/10``), must never evaluate text, must report errors with
the line they are on, and must not pull a heavy optional dependency (pgmpy brings torch,
pandas and networkx) into a library whose other models need none. The grammar::

    network NAME { (property ...;)* }
    variable NAME { type discrete [ K ] { s1, ..., sK }; (property ...;)* }
    probability ( CHILD [| P1, ..., Pm] ) {
        table p1, ..., pK;                         (a root only)
        (u1, ..., um) p1, ..., pK;                 (one line per parent configuration)
        (property ...;)*
    }

``//`` and ``/* */`` comments are skipped. Each probability is a decimal read exactly
(``0.95`` is ``19/20``), and each row must sum to exactly 1: the bnlearn files checked
(``child``, ``asia``, ``survey`` among them) do, so by default no normalization is applied
and a row that does not sum to 1 is refused, by line. Many files round their rows
(bnlearn's alarm, sachs, insurance, water, hepar2 and munin1 have sums such as
``0.9999999``): ``tolerance=t`` reads a row whose sum ``s`` has ``|s - 1| <= t`` as that
row divided by ``s``, exactly, and the network lists each such row
(``BayesianNetwork.renormalized``): a documented reading, never a silent one. ``default`` rows and ``table`` for a node with parents (whose
order differs between writers) are refused rather than guessed.
"""

from __future__ import annotations

import re
from typing import Any

from pdpsym.core.errors import InputError

# --- BIF -----------------------------------------------------------------------------

#: the most variables a BIF file may declare (the bnlearn networks have at most 1041)
MAX_NODES = 100_000

_TOKEN = re.compile(r'\s+|//[^\n]*|/\*.*?\*/|"[^"\n]*"|[{}()\[\],;|]|[^\s{}()\[\],;|"]+', re.S)


def _tokens(text: str, max_nodes: int = MAX_NODES) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    pos, line = 0, 1
    declared = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:  # an unterminated string or comment
            raise InputError(f"line {line}", "unterminated quoted string or comment")
        tok = m.group()
        if not (tok[0].isspace() or tok.startswith(("//", "/*"))):
            out.append((tok[1:-1] if tok.startswith('"') else tok, line))
            if tok == "variable":
                declared += 1
                if declared > max_nodes:
                    raise InputError(
                        f"line {line}",
                        f"more than {max_nodes} variables, the most a network may have",
                    )
        line += tok.count("\n")
        pos = m.end()
    return out


class _Bif:
    def __init__(self, text: str, max_nodes: int) -> None:
        self.toks = _tokens(text, max_nodes)
        self.k = 0

    def line(self) -> int:
        if self.k < len(self.toks):
            return self.toks[self.k][1]
        return self.toks[-1][1] if self.toks else 1

    def peek(self) -> str | None:
        return self.toks[self.k][0] if self.k < len(self.toks) else None

    def next(self, what: str) -> str:
        if self.k >= len(self.toks):
            raise InputError(f"line {self.line()}", f"unexpected end of file, expected {what}")
        tok = self.toks[self.k][0]
        self.k += 1
        return tok

    def expect(self, tok: str) -> None:
        line = self.line()
        got = self.next(repr(tok))
        if got != tok:
            raise InputError(f"line {line}", f"expected {tok!r}, got {got!r}")

    def word(self, what: str) -> str:
        line = self.line()
        tok = self.next(what)
        if tok in "{}()[],;|":
            raise InputError(f"line {line}", f"expected {what}, got {tok!r}")
        return tok

    def skip_property(self) -> None:
        while self.next("';'") != ";":
            pass

    def numbers_until_semicolon(self) -> list[str]:
        """``p1, ..., pK;`` (bnlearn's form) or ``p1 p2 ... pK;`` (other writers')."""
        out = [self.word("a probability")]
        while True:
            tok = self.next("a probability or ';'")
            if tok == ";":
                return out
            if tok in "{}()[]|":
                raise InputError(
                    f"line {self.line()}", f"expected a probability or ';', got {tok!r}"
                )
            out.append(self.word("a probability") if tok == "," else tok)

    def words_until(self, end: str, what: str) -> list[str]:
        """``w1, w2, ..., wn`` then ``end``."""
        out = [self.word(what)]
        while True:
            line = self.line()
            tok = self.next(f"',' or {end!r}")
            if tok == end:
                return out
            if tok != ",":
                raise InputError(f"line {line}", f"expected ',' or {end!r}, got {tok!r}")
            out.append(self.word(what))


def parse_bif(
    text: str, max_nodes: int = MAX_NODES
) -> tuple[list[tuple[str, dict[str, Any]]], dict[str, str]]:
    """Parse BIF text into the JSON form's node specifications.

    Args:
        text: the whole BIF file.
        max_nodes: the most variables to read (a larger file is refused at the first
            variable past it).

    Returns:
        ``(specs, lines)``: the node specifications ``[(name, spec), ...]`` in file order,
        each ``spec`` in the JSON form with the field prefix ``line N`` of its variable
        block, and ``lines`` mapping the fields of its parents and table to the line of
        its probability block, and each CPT row's field to ``line N`` of that row, so
        that errors name the line that holds the mistake.

    Raises:
        InputError: on a syntax error, naming the line.

    References:
        The Interchange Format for Bayesian networks (BIF 0.15), as served by the bnlearn
        network repository (Scutari, bnlearn).
    """
    p = _Bif(text, max_nodes)
    variables: dict[str, dict[str, Any]] = {}
    where: dict[str, str] = {}
    probs: dict[str, int] = {}
    lines: dict[str, str] = {}
    while p.peek() is not None:
        line = p.line()
        kw = p.next("a block")
        if kw == "network":
            p.word("a network name")
            p.expect("{")
            while p.peek() != "}":
                p.skip_property()
            p.expect("}")
        elif kw == "variable":
            name = p.word("a variable name")
            if name in variables:
                raise InputError(f"line {line}", f"duplicate variable {name!r}")
            p.expect("{")
            states: list[str] | None = None
            while p.peek() != "}":
                tline = p.line()
                if p.peek() == "type":
                    p.next("type")
                    kind = p.word("'discrete'")
                    if kind != "discrete":
                        raise InputError(f"line {tline}", f"only discrete variables, got {kind!r}")
                    p.expect("[")
                    count = p.word("a state count")
                    p.expect("]")
                    p.expect("{")
                    states = p.words_until("}", "a state name")
                    p.expect(";")
                    if not count.isdigit() or int(count) != len(states):
                        raise InputError(
                            f"line {tline}",
                            f"{name!r} declares [ {count} ] states but lists {len(states)}",
                        )
                else:
                    p.skip_property()
            p.expect("}")
            if states is None:
                raise InputError(f"line {line}", f"variable {name!r} has no type line")
            variables[name] = {"name": name, "states": states}
            where[name] = f"line {line}"
        elif kw == "probability":
            p.expect("(")
            child = p.word("a variable name")
            parents: list[str] = []
            tok = p.next("'|' or ')'")
            if tok == "|":
                parents = p.words_until(")", "a parent name")
            elif tok != ")":
                raise InputError(f"line {line}", f"expected '|' or ')', got {tok!r}")
            if child not in variables:
                raise InputError(f"line {line}", f"probability of an undeclared variable {child!r}")
            if child in probs:
                raise InputError(f"line {line}", f"second probability block for {child!r}")
            probs[child] = line
            spec = variables[child]
            spec["parents"] = parents
            prefix = where[child]
            lines[f"{prefix}.parents"] = lines[f"{prefix}.cpt"] = f"line {line}"
            rows: dict[str, list[str]] = {}
            p.expect("{")
            while p.peek() != "}":
                rline = p.line()
                head = p.peek()
                if head in ("table", "default"):
                    p.next(head)
                    if parents:
                        raise InputError(
                            f"line {rline}",
                            f"a '{head}' for {child!r}, which has parents, is not read "
                            "(its order differs between writers): list one row per "
                            "parent configuration",
                        )
                    key = ""
                elif head == "(":
                    p.next("(")
                    key = ",".join(p.words_until(")", "a parent state"))
                else:
                    p.skip_property()
                    continue
                if key in rows:
                    raise InputError(f"line {rline}", "repeated parent configuration")
                rows[key] = p.numbers_until_semicolon()
                lines[f"{prefix}.cpt[{key}]"] = f"line {rline}"
            p.expect("}")
            spec["cpt"] = rows if parents else rows.get("", [])
            if not parents:
                lines[f"{prefix}.cpt[0]"] = lines.get(f"{prefix}.cpt[]", f"line {line}")
        else:
            raise InputError(
                f"line {line}", f"expected 'network', 'variable' or 'probability', got {kw!r}"
            )
    if not variables:
        raise InputError("line 1", "no variable declared")
    for name in variables:
        if name not in probs:
            raise InputError(where[name], f"variable {name!r} has no probability block")
        for parent in variables[name].get("parents", []):  # named where the block names it
            if parent not in variables:
                raise InputError(
                    f"line {probs[name]}", f"unknown parent {parent!r} of {name!r} (not declared)"
                )
    return [(where[v], spec) for v, spec in variables.items()], lines
