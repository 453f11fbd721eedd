"""Fixtures shared by the test modules."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from asiapoker import HouseWay
from tests.classic_in_python import classic_py

ROOT = Path(__file__).resolve().parents[1]


def load_example():
    """examples/rack_card.py as a module."""
    spec = importlib.util.spec_from_file_location("rack_card", ROOT / "examples" / "rack_card.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261129)


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("ways")


@pytest.fixture(scope="session")
def classic_copy(cache_dir):
    """The classic way written in Python, compiled (once a session)."""
    return HouseWay.from_function(classic_py, "classic-py", cache_dir=cache_dir, progress=False)


@pytest.fixture(scope="session")
def rack(cache_dir):
    """The rack-card example way, compiled (once a session)."""
    mod = load_example()
    return HouseWay.from_function(mod.rack_card, "rack-card", mod.VERSION, cache_dir=cache_dir,
                                  progress=False)
