"""The language in which the papers state what ``verify`` checks, below the papers.

* :mod:`pdpsym.claims.catalogue` -- every claim, in our words (``docs/claims.md`` is
  generated from it);
* :mod:`pdpsym.claims.claim` -- the Property API (``Exhaustive``, ``Generated``,
  ``ForAll``, ``Symbolic``, ``AllOf``, ``Erratum``) and the ``@checker`` registry;
* :mod:`pdpsym.claims.figure` -- the ``@figure`` declaration and the figure registry.

A paper's checkers and figures import this package; :mod:`pdpsym.verify` runs what they
register. It imports nothing of the library but itself.
"""
