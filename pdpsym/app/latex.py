"""LaTeX tables that compile with plain pdflatex and never run past the line width.

Text cells are escaped (TeX specials, unicode math letters and relations mapped to
math-mode commands, other non-ASCII transliterated), long unbreakable tokens get break
points, and the columns are sized so that only wrapping columns take the free width:
``tabularx`` for a table that fits on a page, ``longtable`` when the rows may need
several pages.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence

# Unicode symbols the papers' notation uses, as math-mode commands.
MATH = {
    "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "ε": r"\varepsilon",
    "ϵ": r"\epsilon", "ζ": r"\zeta", "η": r"\eta", "θ": r"\theta", "ι": r"\iota",
    "κ": r"\kappa", "λ": r"\lambda", "μ": r"\mu", "ν": r"\nu", "ξ": r"\xi", "π": r"\pi",
    "ρ": r"\rho", "σ": r"\sigma", "τ": r"\tau", "υ": r"\upsilon", "φ": r"\varphi",
    "ϕ": r"\phi", "χ": r"\chi", "ψ": r"\psi", "ω": r"\omega", "Γ": r"\Gamma",
    "Δ": r"\Delta", "Θ": r"\Theta", "Λ": r"\Lambda", "Ξ": r"\Xi", "Π": r"\Pi",
    "Σ": r"\Sigma", "Φ": r"\Phi", "Ψ": r"\Psi", "Ω": r"\Omega",
    "≤": r"\leq", "≥": r"\geq", "≠": r"\neq", "≈": r"\approx", "≡": r"\equiv",
    "→": r"\to", "←": r"\leftarrow", "↔": r"\leftrightarrow", "⇒": r"\Rightarrow",
    "⇔": r"\Leftrightarrow", "↦": r"\mapsto", "∞": r"\infty", "·": r"\cdot", "⋅": r"\cdot",
    "−": "-", "×": r"\times", "÷": r"\div", "±": r"\pm", "∓": r"\mp", "∈": r"\in",
    "∉": r"\notin", "⊆": r"\subseteq", "⊂": r"\subset", "∪": r"\cup", "∩": r"\cap",
    "∅": r"\emptyset", "∑": r"\sum", "∏": r"\prod", "∫": r"\int", "√": r"\surd",
    "∂": r"\partial", "∇": r"\nabla", "∀": r"\forall", "∃": r"\exists", "¬": r"\neg",
    "∧": r"\wedge", "∨": r"\vee", "⌈": r"\lceil", "⌉": r"\rceil", "⌊": r"\lfloor",
    "§": r"\S", "¶": r"\P", "°": r"^\circ", "⌋": r"\rfloor", "∣": r"\mid", "′": r"\prime", "∘": r"\circ", "ℓ": r"\ell",
}  # fmt: skip

# ASCII characters special to TeX, and typographic characters with a text command.
# Characters the OT1 roman font lacks come from the typewriter font, so that no
# TS1 (textcomp) bitmap font is ever needed.
TEXT = {
    "&": r"\&", "%": r"\%", "$": r"{\ttfamily\char36}", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
    "~": r"{\ttfamily\char126}", "^": r"{\ttfamily\char94}", "\\": r"{\ttfamily\char92}",
    '"': r"{\ttfamily\char34}", "`": r"{\ttfamily\char18}", "-": "-{}",
    "–": "--", "—": "---", "‘": "`", "’": "'", "“": "``", "”": "''", "…": r"\ldots{}",
    "\u00a0": "~",
}  # fmt: skip

# Combining marks that a text accent command reproduces (B̂ -> \^{B}).
ACCENTS = {"\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0304": "=",
           "\u0306": "u", "\u0307": ".", "\u0308": '"', "\u030a": "r", "\u030c": "v"}  # fmt: skip

# Combining marks over a math letter (θ̂ -> \hat{\theta}).
MATH_ACCENTS = {"\u0302": r"\hat", "\u0303": r"\tilde", "\u0304": r"\bar", "\u0307": r"\dot",
                "\u0308": r"\ddot", "\u0301": r"\acute", "\u0300": r"\grave",
                "\u0306": r"\breve", "\u030a": r"\mathring", "\u030c": r"\check"}  # fmt: skip

BREAK_AFTER = set("/,:;=_+([{")  # a token longer than LONG_TOKEN may break after these
LONG_TOKEN = 8  # characters
DOTTED_TOKEN = 15  # a "." is a break point only in longer tokens (claim ids stay whole)
CHUNK = 6  # digits; a longer run of digits gets a break point every CHUNK

REQUIRES_LONG = r"% requires \usepackage{array,longtable}"
REQUIRES_FLOAT = r"% requires \usepackage{array,tabularx}"


def _char(c: str) -> tuple[str, str]:
    """One character as ("text" | "math", LaTeX)."""
    if c in MATH:
        return "math", MATH[c]
    if c in "<>|":
        return "math", c
    if c in TEXT:
        return "text", TEXT[c]
    if c.isascii():
        return "text", c
    decomposition = unicodedata.decomposition(c)
    if decomposition.startswith(("<super>", "<sub>")):
        base = "".join(chr(int(h, 16)) for h in decomposition.split()[1:])
        inner = "".join(t for _, t in map(_char, base))
        return "math", ("^{" if decomposition.startswith("<super>") else "_{") + inner + "}"
    plain = unicodedata.normalize("NFKD", c)
    if plain != c and all(ch.isascii() or ch in ACCENTS for ch in plain):
        out = ""
        for ch in plain:
            out = "\\" + ACCENTS[ch] + "{" + out + "}" if ch in ACCENTS else out + _char(ch)[1]
        return "text", out
    return "text", rf"\texttt{{[U+{ord(c):04X}]}}"


def escape(text: str) -> str:
    """Plain text (any unicode) as pdflatex-safe LaTeX, with break points in long tokens."""
    text = unicodedata.normalize("NFC", text)
    out = []
    for i, token in enumerate(re.split(r"( +)", text)):
        if i % 2:
            out.append(" ")
            continue
        out.append(_token(token))
    return "".join(out)


def _pieces(token: str) -> list[str]:
    """``token`` cut where a line may break: after a hyphen, and in a long token after
    punctuation and inside long digit runs."""
    pieces = [""]
    digits = 0
    long = len(token) > LONG_TOKEN
    for c in token:
        pieces[-1] += c
        digits = digits + 1 if c.isdigit() else 0
        if (
            c == "-"
            or (long and (c in BREAK_AFTER or digits >= CHUNK))
            or (c == "." and len(token) > DOTTED_TOKEN)
        ):
            pieces.append("")
            digits = 0
    return [p for p in pieces if p]


def _token(token: str) -> str:
    out = []
    for piece in _pieces(token):
        chars: list[tuple[str, str]] = []  # (kind, latex) per character
        for c in piece:
            if c in ACCENTS and chars:
                # A mark NFC could not compose (B̂): accent the character before it.
                kind, tex = chars.pop()
                accent = MATH_ACCENTS[c] if kind == "math" else "\\" + ACCENTS[c]
                chars.append((kind, accent + "{" + tex + "}"))
            else:
                chars.append(_char(c))
        parts: list[tuple[str, str]] = []  # adjacent math merged into one $...$
        for kind, tex in chars:
            if parts and parts[-1][0] == kind == "math":
                parts[-1] = ("math", parts[-1][1] + tex)
            else:
                parts.append((kind, tex))
        out.append("".join(f"${tex}$" if kind == "math" else tex for kind, tex in parts))
    # Zero glue (not \allowbreak) so that TeX may still hyphenate the word that follows.
    return r"\hspace{0pt}".join(out)


def _mathy(cell: str) -> bool:
    """Cells already in LaTeX math (``$...$``) pass through unescaped."""
    return len(cell) > 1 and cell.startswith("$") and cell.endswith("$")


def _cell(cell: object) -> str:
    text = str(cell)
    return text if _mathy(text) else escape(text)


NARROW = set("ijlrtf.,:;'!|()[]{}- ")  # about 0.3 em in cmr10


def _width_em(text: str) -> float:
    """A generous estimate of the width of ``text`` in cmr10, in em."""
    em = 0.0
    for c in text:
        if c in NARROW:
            em += 0.33
        elif c in "mwMW%@":
            em += 0.9
        elif c.isupper():
            em += 0.75
        else:
            em += 0.53
    return em


def _math_em(cell: str) -> float:
    """A rough width of a ``$...$`` cell: its visible characters, fractions counted once."""
    body = re.sub(r"\\(left|right|frac)\b", "", cell[1:-1])
    body = re.sub(r"\\[a-zA-Z]+", "xx", body)
    return 0.5 * len(re.sub(r"[\s{}^_]", "", body)) * 0.8


def _min_em(cell: str) -> float:
    """The widest piece of ``cell`` that cannot be broken; TeX hyphenates long words."""
    if _mathy(cell):
        return _math_em(cell)
    widths = [
        _width_em(p) - _width_em(word) + min(_width_em(word), 3.5)
        if len(word := p.strip("()[]{},.;:'\"-")) > 7 and word.isalpha()
        else _width_em(p)
        for t in cell.split()
        for p in _pieces(t)
    ]
    return max(widths, default=0.0)


NOTE_CHARS = 800  # about 12 lines across an article's text width


def _cut(text: str) -> list[str]:
    """``text`` in pieces of at most ``NOTE_CHARS`` characters, cut at spaces."""
    pieces = [""]
    for word in text.split(" "):
        if pieces[-1] and len(pieces[-1]) + 1 + len(word) > NOTE_CHARS:
            pieces.append(word)
        else:
            pieces[-1] = f"{pieces[-1]} {word}" if pieces[-1] else word
    return pieces


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    caption: str | None = None,
    long: bool = False,
    notes: Mapping[int, str] | None = None,
) -> str:
    """A ``longtable`` (``long``) or a ``tabularx`` float filling ``\\linewidth``.

    ``notes[i]`` is text printed under row ``i`` across the full width (a ``longtable``
    only), cut into rows of at most ``NOTE_CHARS`` characters so that a page can break
    inside a long note.

    Columns whose every cell is short (or already math) keep their natural width; the
    others wrap (ragged right) and share the remaining width in proportion to their
    longest cell. The first line states the packages the fragment needs.
    """
    n = len(headers)
    cells = [[str(c) for c in r] for r in rows]
    columns = [[str(headers[j])] + [r[j] for r in cells] for j in range(n)]
    natural = [max(_math_em(c) if _mathy(c) else _width_em(c) for c in col) for col in columns]
    least = [max(_min_em(c) for c in col) for col in columns]
    # A column wraps when it holds text wider than a short word; math never wraps.
    wraps = [
        any(not _mathy(c) for c in col[1:]) and natural[j] > 4.5 for j, col in enumerate(columns)
    ]
    if not any(wraps):
        wraps[-1] = True
    weight = [min(max(natural[j] - least[j], 1.0), 60.0) if wraps[j] else 0.0 for j in range(n)]
    fixed = sum(natural[j] for j in range(n) if not wraps[j])
    floor = sum(least[j] for j in range(n) if wraps[j])
    ragged = r">{\raggedright\arraybackslash\hspace{0pt}}"
    head = " & ".join(escape(str(h)) for h in headers) + r" \\"
    body = []
    for i, r in enumerate(rows):
        body.append(" & ".join(_cell(c) for c in r) + r" \\")
        if notes and i in notes:
            if not long:
                raise ValueError("notes need a longtable")
            full = ragged + r"p{\dimexpr\linewidth-2\tabcolsep\relax}"
            body += [rf"\multicolumn{{{n}}}{{{full}}}{{{escape(t)}}} \\" for t in _cut(notes[i])]
    if long:
        # Fixed columns get their estimated width; a wrapping column gets its widest
        # unbreakable piece plus a share of what is left.
        free = rf"(\linewidth-{fixed + floor:.2f}em-{2 * n}\tabcolsep)"
        parts = [round(100 * w) for w in weight]
        spec = ""
        for j in range(n):
            if wraps[j]:
                share = rf"{free}*{parts[j]}/{sum(parts)}"
                spec += ragged + rf"p{{\dimexpr{least[j]:.2f}em+{share}\relax}}"
            else:
                spec += ragged + rf"p{{{natural[j]:.2f}em}}"
        lines = [REQUIRES_LONG, rf"\begin{{longtable}}{{{spec}}}"]
        if caption:
            lines.append(rf"\caption{{{escape(caption)}}}\\")
        lines += [r"\hline", head, r"\hline", r"\endfirsthead"]
        lines += [r"\hline", head, r"\hline", r"\endhead", r"\hline", r"\endfoot"]
        lines += body
        lines.append(r"\end{longtable}")
        return "\n".join(lines) + "\n"
    # tabularx needs the X widths (\hsize factors) to add up to the number of X columns;
    # the split assumes an article's 34.5em text width at the \small size used here.
    count = sum(wraps)
    left = max(34.5 / 0.9 - fixed - floor - 2 * n * 0.3 / 0.9, 0.0)
    width = [least[j] + left * weight[j] / sum(weight) if wraps[j] else 0.0 for j in range(n)]
    spec = ""
    for j in range(n):
        if wraps[j]:
            spec += ragged[:-1] + rf"\hsize={count * width[j] / sum(width):.4f}\hsize}}X"
        else:
            spec += "l"
    lines = [REQUIRES_FLOAT, r"\begin{table}[ht]", r"\centering\small\setlength{\tabcolsep}{3pt}"]
    lines += [rf"\begin{{tabularx}}{{\linewidth}}{{{spec}}}", r"\hline", head, r"\hline"]
    lines += body
    lines += [r"\hline", r"\end{tabularx}"]
    if caption:
        lines.append(rf"\caption{{{escape(caption)}}}")
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"
