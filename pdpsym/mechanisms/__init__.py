"""Mechanisms: Laplace on linear queries, and (later) geometric, counting, thresholding."""
