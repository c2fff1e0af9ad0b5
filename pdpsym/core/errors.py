"""Errors a user can cause.

Bad input is reported as :class:`InputError`, which names the offending field. The CLI
turns it into exit status 2 and one line on stderr; nothing else ever reaches the user
as a traceback for malformed input.
"""

from __future__ import annotations


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
