"""Bonus speed: exact odds by counting, the enumerating reference path, and classification
through the batch API."""

from asiapoker import bonus_hands
from asiapoker.bonus import _counted_masks, mask_counts


def test_bonus_odds_by_counting(benchmark):
    def fresh():
        _counted_masks.cache_clear()
        return mask_counts("count")

    hist = benchmark.pedantic(fresh, rounds=5)
    assert hist.sum() == 154_143_080


def test_bonus_odds_by_enumerating(benchmark):
    hist = benchmark.pedantic(mask_counts, args=("enumerate",), rounds=1)
    assert hist.sum() == 154_143_080


def test_bonus_hands_batch(benchmark, hands7):
    out = benchmark(bonus_hands, hands7)
    assert out.shape == (len(hands7),)
    benchmark.extra_info["million_hands_per_s_at_median"] = round(
        len(hands7) / benchmark.stats.stats.median / 1e6, 2)
