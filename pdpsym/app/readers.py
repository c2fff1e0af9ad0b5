"""Loading models from JSON, TOML and CSV files.

* JSON / TOML: the model object ``{"variables", "domains"?, "rows"}`` (TOML:
  the same keys at top level; numbers should be strings so they stay exact).
* TXT: a ``--p-values`` file, one ``p_i`` a line: independent Bernoulli records.
* CSV: a header row naming the variables, then a last column named ``p`` (or
  ``prob``/``probability``); one row per joint value.

Every number goes through :func:`pdpsym.core.numbers.parse_rational`; nothing is
evaluated. Any problem is an :class:`~pdpsym.core.errors.InputError` naming the field.
"""

from __future__ import annotations

import csv
import json
import stat
import tomllib
from pathlib import Path
from typing import Any

from pdpsym.app.limits import MAX_FILE_BYTES
from pdpsym.core.errors import InputError
from pdpsym.models.bayesnet import BayesianNetwork
from pdpsym.models.gaussian import GaussianModel
from pdpsym.models.joint import JointDistribution
from pdpsym.models.kinds import structured_from_object
from pdpsym.models.structured import StructuredModel

PROB_COLUMNS = ("p", "prob", "probability")


def read_text_file(p: Path, field: str) -> str:
    """A regular file's UTF-8 text, at most MAX_FILE_BYTES (named pipes, devices and
    directories are refused before anything is read)."""
    try:
        st = p.stat()
    except FileNotFoundError:
        raise InputError(field, f"no such file: {quote(p)}") from None
    except OSError as err:
        raise InputError(field, f"cannot read {quote(p)}: {err.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        raise InputError(field, f"not a regular file: {quote(p)}")
    if st.st_size > MAX_FILE_BYTES:
        raise InputError(field, f"larger than {MAX_FILE_BYTES} bytes: {quote(p)}")
    try:
        with p.open("rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise InputError(field, f"larger than {MAX_FILE_BYTES} bytes: {quote(p)}")
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(field, f"not UTF-8 text: {quote(p)}") from None
    except OSError as err:
        raise InputError(field, f"cannot read {quote(p)}: {err.strerror}") from None


def quote(p: object) -> str:
    s = str(p)
    return s if s.isprintable() else repr(s)


def read_model_object(path: str | Path) -> dict[str, Any]:
    """Read a model file into a plain object (JSON, TOML or CSV by extension)."""
    p = Path(path)
    text = read_text_file(p, "MODEL")
    suffix = p.suffix.lower()
    if suffix == ".toml":
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise InputError("MODEL", f"invalid TOML: {err}") from None
    if suffix == ".csv":
        return _csv_object(text)
    if suffix == ".txt":
        return _p_values_object(text)
    try:
        obj = json.loads(text, parse_float=str, parse_int=str)
    except json.JSONDecodeError as err:
        raise InputError("MODEL", f"invalid JSON: {err.msg} at line {err.lineno}") from None
    if not isinstance(obj, dict):
        raise InputError("MODEL", "expected a JSON object")
    return obj


def _p_values_object(text: str) -> dict[str, Any]:
    """A ``--p-values`` file (one ``p_i`` a line, blank lines and ``#`` comments allowed)
    as independent Bernoulli records: ``{"kind": "product", "bernoulli": [...]}``; each
    ``p_i`` is parsed and checked by the model (field ``bernoulli[i]``)."""
    ps = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    ps = [p for p in ps if p]
    if not ps:
        raise InputError("MODEL", "no probabilities in the p-values file")
    return {"kind": "product", "bernoulli": ps}


def _csv_object(text: str) -> dict[str, Any]:
    try:
        rows = [r for r in csv.reader(text.splitlines()) if r and any(c.strip() for c in r)]
    except csv.Error as err:  # e.g. a field over the csv module's size limit
        raise InputError("MODEL", f"malformed CSV: {err}") from None
    if not rows:
        raise InputError("MODEL", "empty CSV file")
    header = [h.strip() for h in rows[0]]
    if header[-1].lower() not in PROB_COLUMNS:
        raise InputError("header", "the last CSV column must be named p, prob or probability")
    return {"variables": header[:-1], "rows": [[c.strip() for c in r] for r in rows[1:]]}


def load_discrete(path: str | Path) -> JointDistribution:
    """Load a finite joint distribution from a JSON, TOML or CSV file."""
    obj = read_model_object(path)
    if "cov" in obj or "mean" in obj:
        raise InputError("MODEL", "this is a Gaussian model; use `pdpsym gaussian`")
    return JointDistribution.from_json_object(obj)


def load_gaussian(path: str | Path) -> GaussianModel:
    """Load a Gaussian model file (JSON or TOML)."""
    return GaussianModel.from_json_object(read_model_object(path))


def load_bayesian_network(path: str | Path) -> BayesianNetwork | None:
    """A Bayesian network from a ``.bif`` file or a ``"kind": "bayesian-network"`` JSON or
    TOML object; None for any other model file."""
    p = Path(path)
    if p.suffix.lower() == ".bif":
        return BayesianNetwork.from_bif_text(read_text_file(p, "MODEL"))
    obj = read_model_object(p)
    if obj.get("kind") == "bayesian-network":
        return BayesianNetwork.from_json(obj)
    return None


def load_model(
    path: str | Path,
) -> JointDistribution | GaussianModel | BayesianNetwork | StructuredModel:
    """Load a model file: a discrete joint distribution, a Gaussian model (``cov``), or a
    structured model (``"kind": "markov-chain"``, ``"product"`` or ``"bayesian-network"``).

    JSON, TOML or CSV by extension; numbers are strings parsed exactly ("3/10", "0.3").
    A ``.bif`` file, or an object with ``"kind": "bayesian-network"``, is a Bayesian network.
    """
    network = load_bayesian_network(path)
    if network is not None:
        return network
    obj = read_model_object(path)
    if "kind" in obj:
        return structured_from_object(obj)
    if "cov" in obj or "mean" in obj:
        return GaussianModel.from_json_object(obj)
    return JointDistribution.from_json_object(obj)
