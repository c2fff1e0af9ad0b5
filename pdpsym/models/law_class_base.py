"""What a class of laws (Pufferfish's ``Theta``) tells its callers about itself, so that
no code outside ``models/`` asks which class it has.

Every class of laws (:class:`~pdpsym.models.law_class.ModelClass`,
:class:`~pdpsym.models.law_class.IntervalProduct`, and the interval chains of
:class:`~pdpsym.models.interval_rows.IntervalChainBase`) derives from
:class:`LawClassBase` and so answers two questions by its flags:

* :attr:`LawClassBase.box_search`: whether its members are the points of a box of
  parameters that a branch and bound searches (the interval chains), or are evaluated one
  by one (a finite class's members; an interval product's member of largest support);
* :attr:`LawClassBase.clipped`: whether a sub-box of those parameters must be clipped to
  the rows' polytopes before it holds members (an interval chain of more than two states,
  whose parameters are the free coordinates of its rows), or is itself a box of members
  (two states: one parameter per row).

The operations on a box of parameters (its corners, centre, the members to evaluate, a
member at a point) are :class:`~pdpsym.models.interval_rows.IntervalChainBase`'s.

References:
    Kifer and Machanavajjhala (TODS 2014), Definition 3.1 (a class of laws ``Theta``).
"""

from __future__ import annotations

from typing import ClassVar


class LawClassBase:
    """The flags every class of laws answers (module docstring).

    Attributes:
        box_search: True when the members are the points of a box of parameters searched
            by a branch and bound (interval chains).
        clipped: True when a sub-box must be clipped to the rows' polytopes to hold
            members (interval chains of more than two states).
        evaluated: what the class's evaluated members are, in words (for notes about the
            laws a figure is the max over).

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1.
    """

    box_search: ClassVar[bool] = False
    clipped: ClassVar[bool] = False
    evaluated: ClassVar[str] = "members"


__all__ = ["LawClassBase"]
