"""Bitmasks of WHG nodes: ``K`` as a bitmask of known tuples, and the ternary
configurations (known 0, known 1, unknown) of the batch tensors."""

from __future__ import annotations

import numpy as np


def popcounts(m: int) -> np.ndarray:
    """The number of set bits of every mask ``0 .. 2^m - 1``.

    Args:
        m: the number of bits (>= 0).

    Returns:
        An int64 array of length ``2^m``: entry ``mask`` is its number of set bits (so a
        node's layer is ``n`` minus the popcount of its mask of known tuples).

    References:
        Knuth, TAOCP vol. 4A, Section 7.1.3 (bitwise tricks; sideways addition).
    """
    masks = np.arange(1 << m, dtype=np.int64)
    pc = np.zeros(1 << m, dtype=np.int64)
    for p in range(m):
        pc += (masks >> p) & 1
    return pc


def local_masks(m: int) -> np.ndarray:
    """Bit ``k`` of entry ``c``: axis ``k`` of configuration ``c`` (C order over ``m``
    ternary axes, state 2 = unknown) is known.

    Args:
        m: the number of ternary axes (>= 0).

    Returns:
        An int64 array of length ``3^m``: the known-set bitmask of every configuration.

    References:
        Knuth, TAOCP vol. 4A, Section 7.2.1.1 (mixed-radix enumeration); the configurations
        are Li et al. (2019)'s adversaries ``A(i, K)`` with known values (Section III-A1).
    """
    mask = np.zeros(1, dtype=np.int64)
    for k in range(m):
        bit = 1 << k
        mask = np.stack([mask | bit, mask | bit, mask], axis=-1).reshape(-1)
    return mask
