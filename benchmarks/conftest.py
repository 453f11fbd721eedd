import numpy as np
import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Benchmarks run in this one process: the suite's settings ask pytest-xdist for one
    process a core, and timings taken beside other tests would mean nothing (pytest-benchmark
    would switch itself off)."""
    if getattr(config.option, "dist", "no") != "no":
        config.option.dist = "no"
        config.option.numprocesses = None


def random_hands(n: int, width: int, seed: int = 7) -> np.ndarray:
    """n rows of ``width`` distinct card ids (0..52), int8."""
    rng = np.random.default_rng(seed)
    decks = np.tile(np.arange(53, dtype=np.int8), (n, 1))
    rng.permuted(decks, axis=1, out=decks)
    return np.ascontiguousarray(decks[:, :width])


@pytest.fixture(scope="session")
def hands4() -> np.ndarray:
    return random_hands(2_000_000, 4)


@pytest.fixture(scope="session")
def hands7() -> np.ndarray:
    return random_hands(200_000, 7)
