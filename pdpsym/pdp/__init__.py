"""Li et al., prior differential privacy (PDP): leakage (Eq. 2-4), edges, WHG, Gaussian."""
