"""Named tuples (variables) of a model: the access shared by the discrete and Gaussian
models."""

from __future__ import annotations

from pdpsym.core.errors import InputError


class NamedVariables:
    """A model over ``self.variables`` (a tuple of names): ``n`` and ``index``."""

    variables: tuple[str, ...]

    @property
    def n(self) -> int:
        return len(self.variables)

    def index(self, name: str, field_name: str = "variable") -> int:
        """The position of ``name``; an :class:`InputError` naming ``field_name`` if unknown."""
        try:
            return self.variables.index(name)
        except ValueError:
            raise InputError(field_name, f"unknown variable {name!r}") from None
