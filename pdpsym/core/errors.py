"""Errors a user can cause.

Bad input is reported as :class:`InputError`, which names the offending field. The CLI
turns it into exit status 2 and one line on stderr; nothing else ever reaches the user
as a traceback for malformed input.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any


class InputError(ValueError):
    """Malformed user input: a model file, a parameter or a command-line value.

    Examples:
        >>> from pdpsym import InputError
        >>> err = InputError("lam", "must be > 0")
        >>> err.field, err.message
        ('lam', 'must be > 0')
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        """Pickle by the two fields, so an error raised in a worker process reaches the
        caller as itself (the default pickles ``args``, the one joined line, and fails
        to rebuild)."""
        return (type(self), (self.field, self.message))


class Undecided(ArithmeticError):
    """A comparison could not be decided at the maximum working precision.

    Examples:
        >>> from pdpsym import Undecided
        >>> Undecided("x > y", 4096).prec
        4096
    """

    def __init__(self, what: str, prec: int) -> None:
        super().__init__(f"undecided at precision {prec} bits: {what}")
        self.what = what
        self.prec = prec

    def __reduce__(self) -> tuple[Any, tuple[str, int]]:
        """Pickle by the two fields (as :class:`InputError`: raised in a worker)."""
        return (type(self), (self.what, self.prec))


def check_fields(
    obj: Mapping[str, Any], allowed: Collection[str], what: str, required: Iterable[str] = ()
) -> None:
    """Refuse a JSON object with a field outside ``allowed`` or without a required one.

    Args:
        obj: the object read from a file.
        allowed: the fields it may have.
        what: what it is, for the message (``"a markov-chain model"``).
        required: the fields it must have, checked in this order.

    Raises:
        InputError: the first unknown field in sorted order (``unknown field of what``),
            else the first missing required field (``missing field of what``).

    References:
        The JSON forms of the models (their modules' docstrings): fields are checked by
        name.

    Examples:
        >>> check_fields({"kind": "x", "size": 1}, {"kind"}, "a thing")
        Traceback (most recent call last):
        ...
        pdpsym.core.errors.InputError: size: unknown field of a thing
    """
    extra = sorted(set(obj) - set(allowed))
    if extra:
        raise InputError(extra[0], f"unknown field of {what}")
    for key in required:
        if key not in obj:
            raise InputError(key, f"missing field of {what}")
