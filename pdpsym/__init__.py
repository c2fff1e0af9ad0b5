"""pdpsym: exact and certified privacy leakage under correlation and partial knowledge.

It computes, exactly, and checks claim by claim:

* Li, Ren, Yang, Yang, "Impact of Prior Knowledge and Data Correlation on Privacy
  Leakage: A Unified Analysis" (prior differential privacy, PDP): :func:`leakage`
  (Eq. 2), :func:`gaussian_leakage` (Theorem 6) -- :mod:`pdpsym.papers.li2019`;
* Desfontaines, Mohammadi, Krahmer, Basin, "Differential Privacy with Partial
  Knowledge": :func:`apkdp_delta`, :func:`ppkdp_delta` (Definitions 12-13) --
  :mod:`pdpsym.papers.dmkb2020`;
* Liu, Chakraborty, Mittal, "Dependence Makes You Vulnerable": :func:`dependent_dp_level`
  (Definition 4) -- :mod:`pdpsym.papers.lmm2016`.

Every number is exact (a rational or a sympy expression) or certified (an arb ball whose
stated digits are certain); see :mod:`pdpsym.core`.

>>> import pdpsym as ps
>>> m = ps.JointDistribution.from_rows(["x1", "x2"], [[0, 0, "1/2"], [1, 1, "1/2"]])
>>> ps.leakage(m, target="x1", lam=1).expression()
2
>>> sc = ps.Scenario.from_model(m, knowledge=["x2"])
>>> ps.apkdp_delta(sc, ps.mechanisms.count(), ps.Eps.log(2)).delta.sympy()
0
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from pdpsym._version import __version__

if TYPE_CHECKING:  # the names below load on first use (a light `import pdpsym`)
    from pdpsym import mechanisms
    from pdpsym.app.readers import load_model
    from pdpsym.audit import audit
    from pdpsym.audit.calibrate import calibrate
    from pdpsym.claims.catalogue import CATALOGUE
    from pdpsym.claims.figure import FigureData
    from pdpsym.core.errors import InputError, Undecided
    from pdpsym.loss.count_leakage import structured_leakage
    from pdpsym.loss.gaussian import gaussian_leakage
    from pdpsym.loss.histogram import histogram_leakage
    from pdpsym.loss.leakage import leakage
    from pdpsym.loss.plrv import Eps, apkdp_delta, ppkdp_delta
    from pdpsym.mechanisms.laplace import LinearQuery
    from pdpsym.models.bayesnet import BayesianNetwork
    from pdpsym.models.gaussian import GaussianModel
    from pdpsym.models.joint import JointDistribution
    from pdpsym.models.markov import MarkovChain
    from pdpsym.models.neighbours import DDPReading, DependenceReading
    from pdpsym.models.product import ProductModel
    from pdpsym.models.scenario import Scenario
    from pdpsym.papers.lmm2016.mechanism import dependent_dp_level
    from pdpsym.verify import ClaimResult

_LAZY: dict[str, str] = {
    "mechanisms": "pdpsym.mechanisms",
    "load_model": "pdpsym.app.readers",
    "InputError": "pdpsym.core.errors",
    "Undecided": "pdpsym.core.errors",
    "Eps": "pdpsym.loss.plrv",
    "apkdp_delta": "pdpsym.loss.plrv",
    "ppkdp_delta": "pdpsym.loss.plrv",
    "LinearQuery": "pdpsym.mechanisms.laplace",
    "BayesianNetwork": "pdpsym.models.bayesnet",
    "GaussianModel": "pdpsym.models.gaussian",
    "JointDistribution": "pdpsym.models.joint",
    "MarkovChain": "pdpsym.models.markov",
    "ProductModel": "pdpsym.models.product",
    "structured_leakage": "pdpsym.loss.count_leakage",
    "calibrate": "pdpsym.audit.calibrate",
    "histogram_leakage": "pdpsym.loss.histogram",
    "Scenario": "pdpsym.models.scenario",
    "CATALOGUE": "pdpsym.claims.catalogue",
    "leakage": "pdpsym.loss.leakage",
    "gaussian_leakage": "pdpsym.loss.gaussian",
    "DependenceReading": "pdpsym.models.neighbours",
    "DDPReading": "pdpsym.models.neighbours",
    "dependent_dp_level": "pdpsym.papers.lmm2016.mechanism",
    "ClaimResult": "pdpsym.verify",
    "audit": "pdpsym.audit",
}


def __getattr__(name: str) -> Any:
    # PEP 562: the public names import their modules on first use, so that the command
    # line starts (and installs its Ctrl-C handler) before sympy and flint load
    if name in _LAZY:
        module = importlib.import_module(_LAZY[name])
        value = module if name in ("mechanisms", "audit") else getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'pdpsym' has no attribute {name!r}")


def verify(
    claim_id: str | None = None, *, thorough: bool = False, seed: int = 20191
) -> ClaimResult | list[ClaimResult]:
    """Run one catalogued claim's checker, or every claim's when ``claim_id`` is None.

    (``pdpsym.verify`` is also the subpackage of the runner; importing it keeps this
    call working: the subpackage is callable the same way.)

    Args:
        claim_id: a catalogue id such as ``"dmkb2020.thm4"`` (``CATALOGUE`` lists them).
        thorough: run the larger case classes.
        seed: the seed of the case generators.

    Returns:
        One :class:`ClaimResult` (verdict, method, cases, evidence, counterexample), or
        the list of all of them in catalogue order.

    >>> import pdpsym as ps
    >>> r = ps.verify("li2019.thm4")
    >>> r.verdict.value, r.counterexample["printed_value"], r.counterexample["corrected_value"]
    ('erratum', '2', '1')
    """
    from pdpsym.verify import verify_claims  # lazy: loading every paper waits for a call

    return verify_claims(claim_id, thorough=thorough, seed=seed)


def figure(figure_id: str, scale: str = "paper", jobs: int = 1) -> FigureData:
    """One of the papers' figures as certified data (what ``pdpsym figure ID`` prints).

    Args:
        figure_id: an id such as ``"dmkb2020.fig4"`` (``pdpsym figure --list``).
        scale: ``"paper"`` (the paper's parameters) or ``"quick"`` (a small version).
        jobs: processes to compute the points on; the result does not depend on it.

    Returns:
        A frozen :class:`~pdpsym.claims.figure.FigureData`: parameters, caption, columns and
        rows of certified decimals (empty cells carry a reason).

    Examples:
        >>> import pdpsym as ps
        >>> f = ps.figure("dmkb2020.fig4", scale="quick")
        >>> f.columns[:5], f.rows[0]["T"], f.rows[0]["r"]
        (('n', 'T', 'r', 'epsilon', 'delta'), '6', '0.836683417085427')
    """
    # lazy, as every name of the package: `import pdpsym` loads no engine
    from pdpsym.claims.figure import Scale
    from pdpsym.core.errors import InputError
    from pdpsym.core.parallel import ordered_map
    from pdpsym.verify.figures import all_figures as figures

    specs = figures()
    if figure_id not in specs:
        raise InputError("figure_id", f"unknown figure {figure_id!r}; known: {', '.join(specs)}")
    if scale not in ("paper", "quick"):
        raise InputError("scale", "is 'paper' or 'quick'")
    spec = specs[figure_id]
    return spec.build(Scale(scale), lambda f, xs: ordered_map(f, xs, jobs))


__all__ = [
    "BayesianNetwork",
    "CATALOGUE",
    "ClaimResult",
    "DDPReading",
    "DependenceReading",
    "Eps",
    "GaussianModel",
    "InputError",
    "JointDistribution",
    "LinearQuery",
    "MarkovChain",
    "ProductModel",
    "Scenario",
    "Undecided",
    "__version__",
    "apkdp_delta",
    "audit",
    "calibrate",
    "dependent_dp_level",
    "figure",
    "gaussian_leakage",
    "histogram_leakage",
    "leakage",
    "load_model",
    "mechanisms",
    "ppkdp_delta",
    "structured_leakage",
    "verify",
]
