"""Every ``--format latex`` output compiles with pdflatex and runs past no line.

The independent check is pdflatex itself: each output is wrapped in a minimal article
with exactly the packages its first line asks for, compiled with -halt-on-error, and the
log is read for errors ("! ") and for boxes wider than the line by more than 10 pt.
"""

import re
import shutil
import subprocess

import pytest

from pdpsym.app.cli import main
from pdpsym.app.latex import escape, table

pytestmark = pytest.mark.skipif(
    shutil.which("pdflatex") is None,
    reason="pdflatex is not on PATH (install texlive-latex-base, texlive-latex-recommended)",
)

# dmkb2020.thm6 is an erratum with unicode in its evidence (θ, μ, ε, ≥, ∞, B̂);
# li2019.thm2 is refuted with a long JSON counterexample.
CLAIMS = ["--claim", "dmkb2020.thm6", "--claim", "li2019.thm2", "--claim", "li2019.ex2"]


def latex_output(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    out = capsys.readouterr().out
    return out


def compile_fragment(tmp_path, fragment: str) -> str:
    """Compile ``fragment`` in a minimal article; return the log."""
    first = fragment.splitlines()[0]
    match = re.fullmatch(r"% requires \\usepackage\{([a-z,]+)\}", first)
    assert match, f"first line should state the packages: {first!r}"
    doc = (
        "\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n"
        f"\\usepackage{{{match.group(1)}}}\n\\begin{{document}}\n"
        f"{fragment}\n\\end{{document}}\n"
    )
    (tmp_path / "doc.tex").write_text(doc, encoding="utf-8")
    proc = subprocess.run(
        ["pdflatex", "-halt-on-error", "-interaction=nonstopmode", "doc.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        errors="replace",
        check=False,
    )
    log = (tmp_path / "doc.log").read_text(errors="replace")
    assert proc.returncode == 0, proc.stdout[-2000:]
    return log


def assert_clean(log: str) -> None:
    errors = [line for line in log.splitlines() if line.startswith("! ")]
    assert errors == []
    widths = [float(w) for w in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]
    assert all(w <= 10 for w in widths), widths


@pytest.mark.parametrize(
    "argv",
    [
        ["verify", *CLAIMS, "--jobs", "1", "--format", "latex"],
        ["verify", *CLAIMS, "--jobs", "1", "--format", "latex", "--columns", "id,verdict,method"],
        ["table", "li2019-examples", "--format", "latex"],
    ],
    ids=["verify-full", "verify-verdicts", "li2019-examples"],
)
def test_latex_output_compiles_without_overfull_lines(capsys, tmp_path, argv):
    fragment = latex_output(capsys, *argv)
    assert fragment.isascii()  # nothing for inputenc to choke on
    assert_clean(compile_fragment(tmp_path, fragment))


def test_verdict_only_table_has_the_three_columns(capsys):
    fragment = latex_output(
        capsys,
        "verify",
        *CLAIMS,
        "--jobs",
        "1",
        "--format",
        "latex",
        "--columns",
        "id,verdict,method",
    )
    assert "id & verdict & method \\\\" in fragment
    assert "evidence" not in fragment and "counterexample" not in fragment


def test_escape_hand_written_cases():
    # Expected strings written by hand from the LaTeX rules for each character.
    assert escape("a & b % c # d _ e") == r"a \& b \% c \# d \_ e"
    assert escape("ε ≤ 2·μ") == r"$\varepsilon$ $\leq$ 2$\cdot\mu$"
    assert escape("±∞") == r"$\pm\infty$"
    assert escape("é") == r"\'{e}"


def test_every_special_character_compiles(tmp_path):
    nasty = (
        "& % $ # _ { } ~ ^ \\ εδΔθλμνρσ≤≥≠→∞·−×∈ ±∞ B̂ μθ̂ θ̆ é ñ ü ² x₁ 中 – — “q” … "
        '<a> |x| "q" `b` -- 12345678901234567890 § ° a_very_long_identifier/with/slashes'
    )

    for long in (False, True):
        fragment = table(["h&1", "h_2"], [[nasty, "x"], ["$\\frac{1}{2}$", "ok"]], long=long)
        assert fragment.isascii()
        assert_clean(compile_fragment(tmp_path, fragment))
