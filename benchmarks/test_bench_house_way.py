"""House-way speed: dealer strengths through the batch API, one core, hands a second, the
shipped table ways (standard, equilibrium) included."""

import pytest

from asiapoker import dealer_strengths


@pytest.mark.parametrize(
    "way", ["standard", "equilibrium", "classic", "medium-first", "high-first"])
def test_dealer_strengths(benchmark, hands7, way):
    out = benchmark(dealer_strengths, hands7, way)
    assert out.shape == (len(hands7), 3)
    benchmark.extra_info["million_hands_per_s_at_median"] = round(
        len(hands7) / benchmark.stats.stats.median / 1e6, 2)
