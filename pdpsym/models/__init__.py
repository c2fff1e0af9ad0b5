"""Data models: exact finite joint distributions (and, later, Gaussian models)."""

from pdpsym.models.joint import JointDistribution

__all__ = ["JointDistribution"]
