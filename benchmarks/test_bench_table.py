"""Simulation speed: house way against house way on one core (player hands settled a second),
and the regulation round engine."""

from asiapoker.simulation import simulate
from asiapoker.table import Table, Wager

ALL = [Wager(s, 10, 1) for s in range(1, 7)]


def test_simulate_one_core(benchmark):
    sim = benchmark.pedantic(simulate, args=(200_000,), kwargs={"workers": 1, "seed": 1},
                             rounds=3)
    benchmark.extra_info["million_player_hands_per_s_at_median"] = round(
        sim.hands / benchmark.stats.stats.median / 1e6, 2)


def test_simulate_one_core_with_bonus(benchmark):
    sim = benchmark.pedantic(simulate, args=(200_000,),
                             kwargs={"workers": 1, "seed": 1, "bonus_table": "A"}, rounds=3)
    benchmark.extra_info["million_player_hands_per_s_at_median"] = round(
        sim.hands / benchmark.stats.stats.median / 1e6, 2)


def test_play_round(benchmark):
    table = Table(seed=1)
    result = benchmark(table.play_round, ALL)
    assert len(result.positions) == 7
