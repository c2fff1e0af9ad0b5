"""Structured model kinds by their JSON ``"kind"`` field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pdpsym.core.errors import InputError
from pdpsym.models.bayesnet import BayesianNetwork
from pdpsym.models.counts import CountModel
from pdpsym.models.markov import MarkovChain
from pdpsym.models.product import ProductModel

#: kind -> constructor from the JSON object
KINDS: dict[str, Any] = {
    "markov-chain": MarkovChain.from_json_object,
    "product": ProductModel.from_json_object,
    "bayesian-network": BayesianNetwork.from_json,
}


def structured_from_object(obj: Mapping[str, Any]) -> MarkovChain | ProductModel | BayesianNetwork:
    """Build a structured model from its JSON object (dispatch on ``"kind"``).

    Args:
        obj: the JSON object; ``"kind"`` is one of :data:`KINDS`.

    Returns:
        The Markov chain, product model or Bayesian network it describes.

    References:
        Song, Wang, Chaudhuri (2017), Section 5 (Markov chains); Desfontaines et al.,
        Section 4 (independent records); Koller and Friedman (2009), Chapter 3 (Bayesian
        networks).
    """
    kind = obj.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise InputError("kind", f"unknown model kind {kind!r} (known: {', '.join(sorted(KINDS))})")
    return KINDS[kind](obj)  # type: ignore[no-any-return]


def count_model_from_object(obj: Mapping[str, Any]) -> CountModel:
    """A structured model whose count laws the leakage and calibration engines take.

    Args:
        obj: the JSON object, as for :func:`structured_from_object`.

    Returns:
        The model, typed as a :class:`~pdpsym.models.counts.CountModel`.

    References:
        Li et al. (2019), Section III, Eq. 2 (the law the engines take from it).
    """
    return structured_from_object(obj)


__all__ = ["KINDS", "count_model_from_object", "structured_from_object"]
