"""Checkers for Li et al. (PDP) claims that rest on Eq. 2 directly."""
