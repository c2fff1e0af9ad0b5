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
import io
import json
import stat
import tomllib
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from pdpsym.app.budget import MAX_FILE_BYTES
from pdpsym.app.text import shown
from pdpsym.core.errors import InputError
from pdpsym.models.joint import JointDistribution
from pdpsym.models.model_objects import is_table, structured_from_object
from pdpsym.models.query_law import StructuredModel

if TYPE_CHECKING:  # a Gaussian model loads sympy, a network its graph passes: each
    # is imported where one is read
    from pdpsym.models.bayesnet import BayesianNetwork
    from pdpsym.models.gaussian import GaussianModel
    from pdpsym.models.law_class import LawClass

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
    """A path or value for a message: escaped (one line) and elided when long."""
    return shown(p, 120)


class JsonNumber(str):
    """A JSON number kept as the decimal text it spells (parsed exactly later), and told
    apart from a JSON string (a variable name must be a string, not the number 1)."""

    __slots__ = ()


def _no_duplicates(field: str) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in pairs:
            if k in out:
                raise InputError(field, f"invalid JSON: the key {quote(k)!r} appears twice")
            out[k] = v
        return out

    return hook


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def parse_json(
    text: str,
    field: str,
    number: Callable[[str], Any] = JsonNumber,
    integer: Callable[[str], Any] | None = None,
) -> Any:
    """Strict JSON: duplicate keys, NaN/Infinity and deep nesting are refused naming ``field``;
    numbers stay exact text (``number``; ``integer`` for integers, default ``number``)."""
    try:
        return json.loads(
            text,
            parse_float=number,
            parse_int=number if integer is None else integer,
            parse_constant=_no_constant,
            object_pairs_hook=_no_duplicates(field),
        )
    except json.JSONDecodeError as err:
        raise InputError(field, f"invalid JSON: {err.msg} at line {err.lineno}") from None
    except RecursionError:
        raise InputError(field, "invalid JSON: nested too deeply") from None
    except InputError:
        raise
    except ValueError as err:  # NaN, Infinity
        raise InputError(field, f"invalid JSON: {quote(err)} is not an exact number") from None


def read_json(
    path: str | Path,
    field: str,
    number: Callable[[str], Any] = JsonNumber,
    integer: Callable[[str], Any] | None = None,
) -> Any:
    """A JSON file read the one way every command reads it: a regular file (pipes and
    devices refused before reading), at most MAX_FILE_BYTES, strict JSON (:func:`parse_json`)."""
    return parse_json(read_text_file(Path(path), field), field, number, integer)


def read_model_object(path: str | Path) -> dict[str, Any]:
    """Read a model file into a plain object (JSON, TOML or CSV by extension)."""
    p = Path(path)
    text = read_text_file(p, "MODEL")
    suffix = p.suffix.lower()
    if suffix == ".toml":
        try:
            obj: Any = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise InputError("MODEL", f"invalid TOML: {quote(err)}") from None
        except RecursionError:
            raise InputError("MODEL", "invalid TOML: nested too deeply") from None
    elif suffix == ".csv":
        obj = _csv_object(text)
    elif suffix == ".txt":
        obj = _p_values_object(text)
    else:
        obj = parse_json(text, "MODEL")
    if not isinstance(obj, dict):
        raise InputError("MODEL", "expected a JSON object")
    names = obj.get("variables")
    if isinstance(names, list):
        for k, name in enumerate(names):
            if not isinstance(name, str) or isinstance(name, JsonNumber):
                raise InputError(
                    f"variables[{k}]", f"a variable name must be a string, got {quote(name)}"
                )
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
        rows = [
            r for r in csv.reader(io.StringIO(text, newline="")) if r and any(c.strip() for c in r)
        ]
    except csv.Error as err:  # e.g. a field over the csv module's size limit
        raise InputError("MODEL", f"malformed CSV: {quote(err)}") from None
    if not rows:
        raise InputError("MODEL", "empty CSV file")
    for r, row in enumerate(rows):
        for k, cell in enumerate(row):
            if "\n" in cell or "\r" in cell:  # a quoted line break: never silently joined
                where = f"header[{k}]" if r == 0 else f"rows[{r - 1}][{k}]"
                raise InputError(where, f"a line break inside a CSV field: {quote(cell)}")
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
    from pdpsym.models.gaussian import GaussianModel  # noqa: PLC0415 (loads sympy)

    return GaussianModel.from_json_object(read_model_object(path))


#: network file suffixes (each also gzipped, ``.bif.gz``) -> their format
NETWORK_SUFFIXES = {".bif": "bif", ".xmlbif": "xmlbif", ".xml": "xmlbif", ".uai": "uai"}


def network_format(path: str | Path) -> str | None:
    """The format of a network file by its name (``bif``, ``xmlbif``, ``uai``), or None."""
    name = Path(path).name.lower().removesuffix(".gz")
    return next((f for s, f in NETWORK_SUFFIXES.items() if name.endswith(s)), None)


def is_bif(path: str | Path) -> bool:
    """Whether a model file is a network file by its name (BIF, XMLBIF or UAI)."""
    return network_format(path) is not None


def read_bif_text(p: Path) -> str:
    """The text of a network file, or of a gzipped one (``.bif.gz``) (at most MAX_FILE_BYTES, also
    once uncompressed)."""
    if not p.name.lower().endswith(".gz"):
        return read_text_file(p, "MODEL")
    import gzip  # noqa: PLC0415 (only gzipped files need it)

    if p.exists() and not stat.S_ISREG(p.stat().st_mode):
        raise InputError("MODEL", f"not a regular file: {quote(p)}")
    try:
        with gzip.open(p, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise InputError("MODEL", f"no such file: {quote(p)}") from None
    except (OSError, EOFError) as err:
        raise InputError("MODEL", f"cannot read {quote(p)} as gzip: {err}") from None
    if len(data) > MAX_FILE_BYTES:
        raise InputError("MODEL", f"larger than {MAX_FILE_BYTES} bytes uncompressed: {quote(p)}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("MODEL", f"not UTF-8 text: {quote(p)}") from None


def load_bayesian_network(
    path: str | Path, tolerance: Fraction | None = None
) -> BayesianNetwork | None:
    """A Bayesian network from a ``.bif``, ``.xmlbif`` or ``.uai`` file (each may be
    gzipped: ``.bif.gz``) or a ``"kind":
    "bayesian-network"`` JSON or TOML object; None for any other model file.

    ``tolerance`` (None: rows must sum to exactly 1) is the network's row tolerance;
    when rows were renormalized, one note on stderr says how many, the largest deviation
    and its line.
    """
    p = Path(path)
    try:
        kind = network_format(p)
        obj = None if kind is not None else read_model_object(p)
        if obj is not None and obj.get("kind") != "bayesian-network":
            return None
        # the network's modules load here, where a network is read (a chain never does)
        from pdpsym.models.bayesnet import BayesianNetwork

        if kind is not None:
            net = BayesianNetwork.from_text(read_bif_text(p), kind, tolerance=tolerance)
        else:
            net = BayesianNetwork.from_json(cast(dict[str, Any], obj), tolerance=tolerance)
    except InputError as err:
        # a row that sums to 0 has no tolerance to offer (9999999/10000000 does)
        if "probabilities sum to" in err.message and "sum to 0," not in err.message:
            hint = "--row-tolerance T reads rows within T of 1" if tolerance is not None else ""
            hint = hint or "drop --exact-rows to read rows within 1e-6 of 1"
            raise InputError(err.field, f"{err.message} ({hint})") from None
        raise
    if net.renormalized:
        where, worst = max(net.renormalized, key=lambda r: r[1])
        NOTES.append(
            f"{quote(p.name)}: {len(net.renormalized)} table rows sum to 1 only "
            f"within {float(tolerance or 0):g} (largest deviation {float(worst):.3g}, {where}); "
            "each was divided by its sum, exactly (--exact-rows refuses them)"
        )
    return net


#: notes on how a model file was read, printed on stderr when the command succeeds (an
#: error is one line alone)
NOTES: list[str] = []


def load_model(
    path: str | Path, tolerance: Fraction | None = None
) -> JointDistribution | GaussianModel | BayesianNetwork | StructuredModel:
    """Load a model file: a discrete joint distribution, a Gaussian model (``cov``), or a
    structured model (``"kind": "markov-chain"``, ``"product"`` or ``"bayesian-network"``).

    JSON, TOML or CSV by extension; numbers are strings parsed exactly ("3/10", "0.3").
    A ``.bif`` file, or an object with ``"kind": "bayesian-network"``, is a Bayesian network
    (``tolerance``: see :func:`load_bayesian_network`).

    Examples:
        >>> import pdpsym as ps
        >>> ps.load_model("docs/examples/correlated3.json").variables
        ('x1', 'x2', 'x3')
    """
    network = load_bayesian_network(path, tolerance)
    if network is not None:
        return network
    obj = read_model_object(path)
    if "kind" in obj:
        return structured_from_object(obj)
    if "cov" in obj or "mean" in obj:
        from pdpsym.models.gaussian import GaussianModel  # noqa: PLC0415 (loads sympy)

        return GaussianModel.from_json_object(obj)
    return JointDistribution.from_json_object(obj)


def load_law_class(path: str | Path, obj: dict[str, Any] | None = None) -> LawClass:
    """A class of laws (``"kind"``: ``model-class``, ``interval-markov-chain`` or
    ``interval-product``; :mod:`pdpsym.models.law_class`).

    A ``model-class`` member is an inline model object or a model file's name, relative
    to the class file's folder (JSON, TOML, CSV, ``.bif``, a p-values ``.txt``): a table
    (a joint distribution) or a structured model (a Markov chain, independent records, a
    Bayesian network); the members are all tables or all structured models.
    """
    p = Path(path)
    if obj is None:
        obj = read_model_object(p)

    def member(entry: object, field: str) -> Any:
        if isinstance(entry, str) and not isinstance(entry, JsonNumber):
            try:
                model = load_model(p.parent / entry)
            except InputError as err:
                raise InputError(field, f"{quote(entry)}: {err.message}") from None
        elif isinstance(entry, dict):
            try:
                if "kind" in entry:
                    model = structured_from_object(entry)
                elif "cov" in entry or "mean" in entry:
                    raise InputError("kind", "a Gaussian model cannot be a member")
                else:
                    model = JointDistribution.from_json_object(entry)
            except InputError as err:
                raise InputError(f"{field}.{err.field}", err.message) from None
        else:
            raise InputError(field, "expected a model object or a model file's name")
        if not hasattr(model, "target_factors") and not is_table(model):
            raise InputError(field, "a member must be a table or a structured model")
        return model

    # imported here: the classes of laws (interval chains, boxes) load only for a class
    # file, not for every model a command reads (about 2 ms of start-up)
    from pdpsym.models.law_class import class_from_object  # noqa: PLC0415

    cls = class_from_object(obj, member)
    members = getattr(cls, "members", ())
    tables = [is_table(m) for m in members]
    if any(tables) and not all(tables):
        j = tables.index(not tables[0])
        raise InputError(f"members[{j}]", "mixes tables and structured models (give one kind)")
    return cls
