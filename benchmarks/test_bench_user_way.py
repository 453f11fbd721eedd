"""User-written ways: compiling the rack-card example, and dealer strengths through the
compiled form (compared with the built-ins)."""

import importlib.util
from pathlib import Path

import pytest

from asiapoker import HouseWay, dealer_strengths

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def rack_card():
    spec = importlib.util.spec_from_file_location("rack_card", ROOT / "examples" / "rack_card.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.rack_card


@pytest.fixture(scope="module")
def compiled(rack_card):
    return HouseWay.from_function(rack_card, "rack-card-bench", cache=False, progress=False)


def test_compile_rack_card(benchmark, rack_card):
    way = benchmark.pedantic(HouseWay.from_function, args=(rack_card, "rack-card-bench"),
                             kwargs={"cache": False, "progress": False}, rounds=1)
    assert way.name == "rack-card-bench"


def test_compiled_dealer_strengths(benchmark, hands7, compiled):
    out = benchmark(dealer_strengths, hands7, compiled)
    assert out.shape == (len(hands7), 3)
    benchmark.extra_info["million_hands_per_s_at_median"] = round(
        len(hands7) / benchmark.stats.stats.median / 1e6, 2)
