"""A model's states as the bins of a histogram query.

The histogram of a query over ``T`` records of ``k`` states counts the records in each
state. The engines of :mod:`pdpsym.loss.histogram` compute it as one integer sum by
relabelling each state with a mixed-radix digit weight; this module is where each kind of
model says what its bins are and how it is relabelled.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pdpsym.core.errors import InputError
from pdpsym.core.numbers import fraction_str
from pdpsym.models.counts import CountModel
from pdpsym.models.markov import MarkovChain
from pdpsym.models.model_objects import network_of
from pdpsym.models.product import ProductModel

if TYPE_CHECKING:  # a network's modules load with the first network
    from pdpsym.models.bayesnet import BayesianNetwork


def histogram_states(model: CountModel) -> tuple[Any, ...]:
    """The bins of the histogram: a chain's states (their names), or the distinct values
    of independent records, in order.

    Args:
        model: a Markov chain or a product model.

    Returns:
        One label per bin.

    Raises:
        InputError: ``model``, for another kind of model.

    References:
        Song, Wang, Chaudhuri (2017), Section 6 (the histogram of a chain's states).
    """
    if isinstance(model, MarkovChain):
        return model.state_names
    shown = model if isinstance(model, ProductModel) else network_of(model)
    if shown is not None:
        return tuple(fraction_str(v) for v in bin_values(shown))
    raise InputError(
        "model", "the histogram query takes a markov-chain, product or bayesian-network model"
    )


def bin_values(model: ProductModel | BayesianNetwork) -> tuple[Fraction, ...]:
    """The distinct values of a product's or a network's records, in order (its bins).

    Args:
        model: a product model or a Bayesian network.

    Returns:
        The sorted distinct values.

    References:
        Song, Wang, Chaudhuri (2017), Section 6 (the histogram query).
    """
    network = network_of(model)
    if network is not None:
        return tuple(sorted({v for name in network.variables for v in network.domain(name)}))
    return tuple(sorted({v for vals, _ in model.laws for v in vals}))  # type: ignore[union-attr]


def coded_by_bin(model: CountModel) -> tuple[CountModel, dict[Fraction, Fraction], int, int]:
    """The model with each state's value replaced by its mixed-radix digit weight.

    Summing the relabelled records gives the histogram as one integer: state 0 weighs 0
    and state ``s`` weighs ``(T+1)^(s-1)``, so the count of each state is a digit.

    Args:
        model: a Markov chain, a product model or a Bayesian network.

    Returns:
        ``(shadow, code_of, k, T)``: the relabelled model, each value's weight, the
        number of bins and of records.

    Raises:
        InputError: ``model``, for another kind of model.

    References:
        Song, Wang, Chaudhuri (2017), Section 6 (the histogram of a chain's states).
    """
    if isinstance(model, MarkovChain):
        k, T = model.k, model.length
        codes = [Fraction(0)] + [Fraction((T + 1) ** (s - 1)) for s in range(1, k)]
        mats: Any = model.matrices[0] if len(model.matrices) == 1 else list(model.matrices)
        shadow: CountModel = MarkovChain(
            codes, T, list(model.initial_law), mats, list(model.variables)
        )
        return shadow, dict(zip(model.states, codes, strict=True)), k, T
    if isinstance(model, ProductModel):
        values = bin_values(model)
        k, T = len(values), len(model.laws)
        code = {
            v: Fraction(0) if j == 0 else Fraction((T + 1) ** (j - 1)) for j, v in enumerate(values)
        }
        laws = [(tuple(code[v] for v in vals), ps) for vals, ps in model.laws]
        return ProductModel(laws, list(model.variables)), code, k, T
    network = network_of(model)
    if network is not None:
        values = bin_values(network)
        k, T = len(values), len(network.variables)
        code = {
            v: Fraction(0) if j == 0 else Fraction((T + 1) ** (j - 1)) for j, v in enumerate(values)
        }
        nodes = {
            name: dataclasses.replace(node, values=tuple(code[v] for v in node.values))
            for name, node in network.nodes.items()
        }
        return dataclasses.replace(network, nodes=nodes), code, k, T  # type: ignore[return-value]
    raise InputError(
        "model", "the histogram query takes a markov-chain, product or bayesian-network model"
    )


def independent_supports(model: CountModel) -> dict[str, int] | None:
    """Each record's number of values of positive probability, for independent records.

    Args:
        model: any count model.

    Returns:
        For a product, or a chain whose every step has identical rows, each record's
        number of possible values; None otherwise.

    References:
        Li et al. (2019), Section IV, Theorem 1 (independent records).
    """
    if isinstance(model, ProductModel):
        return {
            name: sum(1 for p in ps if p > 0)
            for name, (_, ps) in zip(model.variables, model.laws, strict=True)
        }
    if isinstance(model, MarkovChain) and all(
        all(row == m[0] for row in m) for m in model.matrices
    ):
        laws = [model.initial_law] + [model.matrix(t)[0] for t in range(model.length - 1)]
        return {
            name: sum(1 for p in law if p > 0)
            for name, law in zip(model.variables, laws, strict=True)
        }
    return None
