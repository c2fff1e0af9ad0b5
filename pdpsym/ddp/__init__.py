"""Liu, Mittal, Mittal, dependent differential privacy (seed 003)."""
