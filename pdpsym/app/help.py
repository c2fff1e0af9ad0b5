"""The help of every command: a one-line summary and the ``--help`` description.

Kept in one place so that the command reference of the docs is generated from the same
text that ``--help`` prints.
"""

from __future__ import annotations

FORMAT = "pdpsym-oracle/1"  # the oracle's vector format (pdpsym.app.oracle uses it)

COMMANDS: dict[str, tuple[str, str]] = {
    "gaussian": (
        "exact PDP leakage for a multivariate Gaussian model (Theorem 6)",
        "Leakage of the Laplace mechanism on f = sum_k w_k x_k for x ~ N(mean, cov) "
        "(Li et al. Section VI): PL(A(i,K)) = |c| (u_i - l_i) / lam, where c is the "
        "coefficient of x_i in E[f | x_i, x_K] (Lemma 1). For the sum this is the "
        "paper's |c| Delta_i / lam. MODEL is a JSON/TOML file {variables, mean, cov, ranges}.",
    ),
    "leakage": (
        "exact PDP leakage (Li et al. Eq. 2) of one adversary",
        "Exact Eq. 2 leakage of the adversary A(target, known) for the Laplace mechanism "
        "of scale LAM on a linear query (default: the sum). Prints the exact value, certified "
        "digits with their enclosure, and a witness (x_i, x_i', x_K, r) where the sup is "
        "attained; or the outcome no-compatible-pair. MODEL may be a class of laws "
        "(model-class, interval-markov-chain, interval-product): the sup over the class, "
        "certified, with the worst law; e.g. `pdpsym leakage "
        "docs/examples/estimated-chain.json --all-targets --lam 1` (docs/uncertain-laws.md). "
        "A Bayesian network (.bif, .xmlbif, .uai, "
        "also gzipped): every record at once with --all-targets, a count with --count, e.g. "
        "pdpsym leakage alarm.bif --all-targets --lam 2 --count HYPOVOLEMIA,LVFAILURE=TRUE",
    ),
    "table": (
        "write an exact table of the papers' examples",
        "Exact tables: li2019-examples = Examples 2-4 of Li et al. (Tables (a)-(d)).",
    ),
    "oracle": (
        "regression vectors of Eq. 2 for testing other implementations",
        "Regression oracle for implementations of Li et al. Eq. 2 (Laplace mechanism, sum "
        "query). `export` writes certified vectors; `check` decides, exactly, whether an "
        "implementation's answers lie within tolerance of them.",
    ),
    "oracle export": (
        "write a vector file",
        f"Write a {FORMAT} vector file: Eq. 2 of every adversary of every table in the "
        "family, for each --lam, certified to --digits digits. Families: li2019-examples "
        "(Tables (a)-(d) of Li et al.), random-binary (--count seeded random binary "
        "--n-tuple tables; defaults n = 3, count = 10, seed = 0), exhaustive-2x2 (every 2x2 "
        "table with denominator <= --n, default 4). The file is written atomically.",
    ),
    "oracle check": (
        "check an implementation's answers against a vector file",
        'ANSWERS is {"answers": [{"id": ..., "value": <number, decimal string or null>}]}, '
        "one entry per case. An answer passes when it is within max(rel_tol |v|, abs_tol) "
        "of every point v of the certified enclosure (decided exactly), or when it is null "
        "for a case with no number: a no-compatible-pair case, or an infinite one (status "
        '"infinite": the leakage or epsilon is +infinity, and the only passing answer is '
        "null). Exit 0: all pass; 1: some fail or are undecided; "
        "2: bad input.",
    ),
    "counting": (
        "exact (eps, delta) of a noiseless counting query vs Theorem 3 / Prop. 7",
        "Exact delta(eps) of M(D) = sum_i D(i) over independent Bernoulli(p_i) records "
        "(DMKB20 Section 4.1), worst target and direction, next to Theorem 3 (closed form "
        "and the blanket bound of its proof) and Proposition 7 (GK17).",
    ),
    "threshold": (
        "Theorem 4 (thresholding) vs the exact delta of M_T",
        "Theorem 4's (r, eps, delta) for the T-thresholding mechanism M_T (DMKB20 "
        "Definition 15) with n records Bernoulli(p) and |B| known records, and the "
        "mechanism's exact delta at that eps (or --eps): PPK (Definition 13), maximized "
        "over both directions; with |B| <= 50 also the active (APK) delta.",
    ),
    "verify": (
        "give a computed verdict on every catalogued claim",
        "Run the checker of each catalogued claim of the three papers and print its "
        "verdict (proved, supported, refuted, erratum, unresolved) with the evidence: "
        "the method, the class of cases, the count, and the reading used: one line per claim, "
        "the evidence clipped to the line (--format md prints it in full). Refuted and "
        "erratum verdicts come with an exact counterexample, one field a line under the "
        "claim (--json prints every object in full). `--list` prints the "
        "catalogue: each claim's id, paper section, label and statement.",
    ),
    "whg": (
        "WHG of a discrete model: each node's exact Eq. 2 and chain-rule value",
        "Build the weighted hierarchical graph of Li et al. Section V: every adversary "
        "A(i, K) as a node (layer 1 = knows all others, top layer = knows nothing). "
        "Prints each node's exact Eq. 2 leakage and its chain-rule value (Theorem 4 at "
        "layer 1, Theorem 2 steps with edges from Eq. 9-11, minimum over children as in "
        "Algorithm 1; --fast K keeps only the K largest nodes of each layer). Binary "
        "tables of full support with the sum query are certified in batch at near float "
        "speed (up to 14 tuples); other models, --fast and --exact-forms (the closed "
        "forms) use the exact engine (up to 12). With --edges FILE, runs the chain rule "
        "on given edge values instead.",
    ),
    "figure": (
        "a paper's figure as certified data (CSV, JSON) or a plot (PNG, SVG, PDF)",
        "Compute a figure of the three papers with the project's exact or certified "
        "machinery: every value in the CSV/JSON is a certified decimal (each printed digit is "
        "correct) or empty with a reason, and the parameters are written above the header. "
        "Where a printed formula is an erratum the corrected curve is drawn next to the "
        "printed one. --scale paper uses the paper's parameters; --scale quick a small "
        "version. Plots need the [plots] extra (matplotlib). --list shows the figure ids.",
    ),
}

# The commands by task, each with one example, for ``pdpsym --help``. A command in no
# task is listed under "more" (so a new command is never left out of the help).
TASKS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    (
        "check a paper's claims",
        ("verify", "counting", "threshold"),
        "pdpsym verify --claim li2019.thm4",
    ),
    (
        "measure leakage of your data",
        ("leakage", "audit", "temporal", "gaussian", "whg"),
        "pdpsym audit docs/examples/pair.json docs/examples/table.json --target x1",
    ),
    ("calibrate noise", ("calibrate",), "pdpsym calibrate docs/examples/chain100.json --eps 1"),
    (
        "make figures and tables",
        ("figure", "table"),
        "pdpsym figure li2019.fig4a --scale quick --format csv",
    ),
    (
        "test another implementation",
        ("oracle",),
        "pdpsym oracle export --family li2019-examples --out vectors.json",
    ),
)

# one or two examples per command, printed at the end of its --help; each runs from the
# root of the repository (tests/test_docs_examples.py runs them)
EXAMPLES: dict[str, tuple[str, ...]] = {
    "verify": ("pdpsym verify --claim li2019.thm4", "pdpsym verify --claim li2019.ex4 --format md"),
    "leakage": (
        "pdpsym leakage docs/examples/correlated3.json --target x1 --known x2 --lam 1/2",
        "pdpsym leakage docs/examples/chain6.json --all-targets --lam 1",
    ),
    "table": ("pdpsym table li2019-examples --format md",),
    "counting": (
        "pdpsym counting --n 100 --p 1/2 --eps 1/10",
        "pdpsym counting --p-values docs/examples/p_values.txt --eps 1/10",
    ),
    "threshold": (
        "pdpsym threshold --n 100 --p 1/2 --T 60 --eps 1/2",
        "pdpsym threshold --p-values docs/examples/p_values.txt --T 3 --eps 1/2",
    ),
    "gaussian": (
        "pdpsym gaussian docs/examples/gaussian3.json --target x1 --known x2 --lam 1",
        "pdpsym gaussian docs/examples/gaussian3.json --all",
    ),
    "whg": ("pdpsym whg docs/examples/correlated3.json --lam 1",),
    "oracle": ("pdpsym oracle export --family li2019-examples --out vectors.json",),
    "oracle export": ("pdpsym oracle export --family li2019-examples --out vectors.json",),
    "oracle check": (
        "pdpsym oracle export --family li2019-examples --out vectors.json",
        "pdpsym oracle check vectors.json docs/examples/answers.json",
    ),
    "audit": (
        "pdpsym audit docs/examples/pair.json docs/examples/table.json --target x1 --eps 'ln(2)'",
        "pdpsym audit docs/examples/chain6.json docs/examples/laplace2.json --target x3 --known x1",
    ),
    "figure": ("pdpsym figure --list", "pdpsym figure li2019.fig4a --scale quick --format csv"),
    "calibrate": (
        "pdpsym calibrate docs/examples/chain100.json --eps 1",
        "pdpsym calibrate docs/examples/estimated-chain.json --eps 1",
    ),
    "temporal": (
        "pdpsym temporal docs/examples/chain3_tkde.json --eps 'ln(3)'",
        "pdpsym temporal docs/examples/chain3_tkde.json --mechanism docs/examples/rr3.json",
    ),
}


def overview(commands: list[str]) -> str:
    """The end of ``pdpsym --help``: the commands grouped by task, one example each."""
    lines = ["start here, by task (run the examples from the repository root):"]
    grouped = {c for _, cs, _ in TASKS for c in cs}
    tasks = [*TASKS]
    more = tuple(c for c in commands if c not in grouped)
    if more:
        tasks.append(("more", more, f"pdpsym {more[0]} --help"))
    for title, cs, example in tasks:
        present = [c for c in cs if c in commands]
        if present:
            lines += [f"  {title}: {', '.join(present)}", f"      $ {example}"]
    lines += [
        "",
        "Each command's --help ends with examples. The guides are in docs/ (start with",
        "docs/index.md); docs/examples/ holds the model and mechanism files used above.",
    ]
    return "\n".join(lines) + "\n"


def examples(command: str) -> str:
    """The examples ending a command's ``--help`` (empty when it has none)."""
    shown = EXAMPLES.get(command, ())
    if not shown:
        return ""
    return "\nexamples (from the repository root):\n" + "".join(f"  $ {e}\n" for e in shown)
