"""User text in messages and outputs: escaped so one line stays one line, and elided.

:func:`escape` turns every character that is not printable (control characters, line
and paragraph separators, the bidirectional overrides and isolates U+202A-U+202E,
U+2066-U+2069, U+200E/U+200F, lone surrogates) into a visible ``\\x..``/``\\u....``
escape. :func:`shown` also elides a long value in the middle, so that an error never
echoes a 5,000-digit number. :func:`one_line` applies both to a whole message, eliding
each long word.
"""

from __future__ import annotations

import re

LONG = 80  # characters of one value shown before eliding its middle
_WORD = re.compile(rf"\S{{{LONG + 1},}}")


def escape(text: object) -> str:
    """``text`` with every non-printable character written as an escape.

    >>> escape("a\\nb\\u202ec")
    'a\\\\nb\\\\u202ec'
    """
    s = str(text)
    if s.isprintable():
        return s
    out = []
    for ch in s:
        if ch.isprintable():
            out.append(ch)
        elif ch in "\n\r\t":
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}[ch])
        elif ord(ch) < 0x100:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    return "".join(out)


def elide(s: str, limit: int = LONG) -> str:
    """``s`` with its middle replaced by ``…(N chars)…`` when longer than ``limit``.

    >>> elide("9" * 5000)
    '9999999999999999999999999999999999999999…(4940 chars)…99999999999999999999'
    """
    if len(s) <= limit:
        return s
    head, tail = limit // 2, limit // 4
    return f"{s[:head]}…({len(s) - head - tail} chars)…{s[len(s) - tail :]}"


def shown(text: object, limit: int = LONG) -> str:
    """A user value for a message: escaped, then elided in the middle."""
    return elide(escape(text), limit)


def one_line(message: str) -> str:
    """A whole message on one line: escaped, and each word longer than LONG elided."""
    return _WORD.sub(lambda m: elide(m.group(0)), escape(message))


WIDTH = 119  # the longest text line a command prints for a person to read


def wrap(line: str, width: int = WIDTH) -> str:
    """``line`` broken at spaces into lines of at most ``width`` characters, each
    continuation indented four spaces more than the line (a word longer than a line is
    broken too, so no line is longer).

    >>> print(wrap("  note: " + "word " * 30, 40))
      note: word word word word word word
          word word word word word word word
          word word word word word word word
          word word word word word word word
          word word word
    """
    if len(line) <= width:
        return line
    import textwrap  # only for the rare long line

    indent = " " * (len(line) - len(line.lstrip(" ")) + 4)
    return textwrap.fill(
        line, width, subsequent_indent=indent, break_on_hyphens=False, break_long_words=True
    )


def exact_form(text: str, width: int = 80) -> str:
    """An exact form for a text line: as is when short, else its length and where to find
    it in full (a closed form of thousands of characters is no use on a terminal).

    >>> exact_form("log(3/2)"), exact_form("x" * 4740)
    ('log(3/2)', '4740 characters, in full with --json')
    """
    return text if len(text) <= width else f"{len(text)} characters, in full with --json"
