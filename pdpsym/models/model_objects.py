"""Structured model kinds: built from their JSON ``"kind"`` field, and the views the
engines ask a model for (its chain, its network) -- so that nothing outside
:mod:`pdpsym.models` asks which class a model is."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pdpsym.core.errors import InputError
from pdpsym.models.counts import CountModel
from pdpsym.models.joint import JointDistribution
from pdpsym.models.markov import MarkovChain
from pdpsym.models.product import ProductModel

if TYPE_CHECKING:  # a network's modules load with the first network (a chain never does)
    from pdpsym.models.bayesnet import BayesianNetwork

#: the kinds of classes of laws, by their JSON ``"kind"`` (:mod:`pdpsym.models.law_class`)
CLASS_KINDS = ("model-class", "interval-markov-chain", "interval-product")

#: kind -> constructor from the JSON object
KINDS: dict[str, Any] = {
    "markov-chain": MarkovChain.from_json_object,
    "product": ProductModel.from_json_object,
    "bayesian-network": lambda obj: _network_type(load=True).from_json(obj),
}


def _network_type(load: bool = False) -> Any:
    """:class:`~pdpsym.models.bayesnet.BayesianNetwork`, or None while its module is not
    loaded (no network exists before it is: a chain's run never loads it); ``load``
    loads it."""
    if load:
        from pdpsym.models.bayesnet import BayesianNetwork  # a network is being built

        return BayesianNetwork
    module = sys.modules.get("pdpsym.models.bayesnet")
    return None if module is None else module.BayesianNetwork


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


def is_structured(model: Any) -> bool:
    """Whether ``model`` is one of the structured kinds (a Markov chain, independent
    records, a Bayesian network): it gives the law of a query, never a table of rows.

    Args:
        model: any model.

    Returns:
        True for the kinds of :data:`KINDS`.

    References:
        Li et al. (2019), Section III, Eq. 2 (the query law a structured model gives).
    """
    network = _network_type()
    return isinstance(model, MarkovChain | ProductModel) or (
        network is not None and isinstance(model, network)
    )


def chain_of(model: Any) -> MarkovChain | None:
    """The model as a Markov chain (its initial law and transition matrices), or None.

    The engines that walk a chain (every target at once, the reports around a target,
    the Markov Quilt Mechanism) ask for it; the others use the query law alone.

    Args:
        model: any model.

    Returns:
        The chain, or None when the model is not one.

    References:
        Song, Wang, Chaudhuri (2017), Section 5 (Markov chains).
    """
    return model if isinstance(model, MarkovChain) else None


def network_of(model: Any) -> BayesianNetwork | None:
    """The model as a Bayesian network (its nodes and components), or None.

    Args:
        model: any model.

    Returns:
        The network, or None when the model is not one.

    References:
        Koller and Friedman (2009), Chapter 3 (Bayesian networks).
    """
    network = _network_type()
    return model if network is not None and isinstance(model, network) else None


def is_table(model: Any) -> bool:
    """Whether the model is an explicit joint table (a
    :class:`~pdpsym.models.joint.JointDistribution`): the engines that walk its rows
    take it; the others ask for its query law.

    Args:
        model: any model.

    Returns:
        True for a joint table.

    References:
        Li et al. (2019), Section III (a joint distribution over the records).
    """
    return isinstance(model, JointDistribution)


def product_of(model: Any) -> ProductModel | None:
    """The model as independent records (a product of per-record laws), or None.

    Args:
        model: any model.

    Returns:
        The model itself when it is a :class:`~pdpsym.models.product.ProductModel`.

    References:
        Li et al. (2019), Section IV, Theorem 1 (independent tuples).
    """
    return model if isinstance(model, ProductModel) else None


def is_class_object(obj: Mapping[str, Any]) -> bool:
    """Whether a model object is a class (its ``"kind"`` is one of :data:`CLASS_KINDS`).

    Args:
        obj: a model file's object.

    Returns:
        True for a class.

    References:
        Kifer and Machanavajjhala (2014), Definition 3.1.
    """
    return obj.get("kind") in CLASS_KINDS


__all__ = [
    "CLASS_KINDS",
    "is_class_object",
    "KINDS",
    "chain_of",
    "count_model_from_object",
    "is_structured",
    "is_table",
    "network_of",
    "product_of",
    "structured_from_object",
]
