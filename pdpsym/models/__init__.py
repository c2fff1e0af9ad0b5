"""Data models: exact finite joint distributions (:mod:`~pdpsym.models.joint`), the
structured models that give the law of a query without listing rows (Markov chains,
independent records, Bayesian networks: :mod:`~pdpsym.models.query_law`), Gaussian
models (:mod:`~pdpsym.models.gaussian`), the records and partial knowledge of an attack
(:mod:`~pdpsym.models.scenario`) and the dependent neighbours of a record
(:mod:`~pdpsym.models.neighbours`)."""

from pdpsym.models.joint import JointDistribution

__all__ = ["JointDistribution"]
