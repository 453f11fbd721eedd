"""Foundation speed: batch strengths, settle, legality of all 105 splits.

Run: ``pytest benchmarks/test_bench_core.py --benchmark-columns=median,ops`` and read the
per-hand figures printed in the benchmark's extra_info.
"""

from asiapoker import Setting, legal_splits, settle, strengths


def test_batch_strengths_4_cards(benchmark, hands4):
    out = benchmark(strengths, hands4)
    assert out.shape == (len(hands4),)
    benchmark.extra_info["hands"] = len(hands4)
    benchmark.extra_info["million_hands_per_s_at_median"] = round(
        len(hands4) / benchmark.stats.stats.median / 1e6, 1)


def test_settle_prepared_settings(benchmark):
    player = Setting("As Ks Qs Js", "7h 7d", "2c")
    dealer = Setting("9c 9d 4h 4s", "Ad Qc", "Kh")
    out = benchmark(settle, player, dealer)
    assert out.result == "win"


def test_legality_of_105_splits(benchmark, hands7):
    out = benchmark(legal_splits, hands7)
    assert out.shape == (len(hands7), 105)
    benchmark.extra_info["us_per_hand_at_median"] = round(
        benchmark.stats.stats.median / len(hands7) * 1e6, 3)
