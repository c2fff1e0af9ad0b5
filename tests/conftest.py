import sys
from collections.abc import Iterator
from pathlib import Path

import mpmath
import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

# the default suite draws 25 examples a property (it drew 40: the suite must stay under
# 3 minutes on 2 cores), the same ones on every run (derandomized: random draws made one
# property take 2 s on one run and 19 s on the next, so the suite's time was a lottery);
# `--hypothesis-profile thorough` draws 400 new ones each run
settings.register_profile(
    "ci",
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough", max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci")


@pytest.fixture(scope="session", autouse=True)
def _mpmath_precision_is_restored() -> Iterator[None]:
    """Precision is only ever a restored context: the suite ends at the precision it began."""
    start = (mpmath.mp.dps, mpmath.mp.prec)
    yield
    end = (mpmath.mp.dps, mpmath.mp.prec)
    assert end == start, f"mpmath precision leaked: (dps, prec) {start} -> {end}"


@pytest.fixture
def fifty_digits() -> Iterator[None]:
    """The test runs at 50 digits of mpmath precision, restored afterwards."""
    with mpmath.workdps(50):
        yield
