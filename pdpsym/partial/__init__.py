"""Desfontaines et al., differential privacy with partial knowledge (seed 004)."""
