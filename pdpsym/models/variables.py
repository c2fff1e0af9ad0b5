"""Named tuples (variables) of a model: the access shared by the discrete and Gaussian
models."""

from __future__ import annotations

from typing import Any

from pdpsym.core.errors import InputError


def check_names(names: Any, field_name: str = "variables") -> tuple[str, ...]:
    """Variable names: a non-empty list or tuple of distinct, non-blank, printable strings
    (a string such as ``"ab"`` is not a list of names), stripped; an :class:`InputError`
    otherwise.

    Args:
        names: the names as given (a list or tuple).
        field_name: the field an :class:`InputError` names.

    Returns:
        The stripped names, as a tuple.

    References:
        Python docs, str.isprintable and str.strip (the checks applied).
    """
    if not isinstance(names, list | tuple) or not names:
        raise InputError(field_name, "expected a non-empty list of variable names")
    out: list[str] = []
    for k, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"{field_name}[{k}]", f"not a variable name: {name!r}")
        if not name.isprintable():  # a newline, a control character, a lone surrogate
            raise InputError(f"{field_name}[{k}]", f"unprintable character in {name!r}")
        if name.strip() in out:
            raise InputError(field_name, f"duplicate variable name {name.strip()!r}")
        out.append(name.strip())
    return tuple(out)


class NamedVariables:
    """A model over ``self.variables`` (a tuple of names): ``n`` and ``index``."""

    variables: tuple[str, ...]

    @property
    def n(self) -> int:
        """The number of variables."""
        return len(self.variables)

    def index(self, name: str, field_name: str = "variable") -> int:
        """The position of ``name``; an :class:`InputError` naming ``field_name`` if unknown."""
        try:
            return self.variables.index(name)
        except ValueError:
            raise InputError(field_name, f"unknown variable {name!r}") from None
