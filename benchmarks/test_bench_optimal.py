"""Optimal play read from a table: the lookup of a million hands on one core (class, best split,
ties and all), a first call in a fresh process (the table and the class index loaded), and
simulate with optimal players against house-way players on one core."""

import os
import subprocess
import sys

from asiapoker import best_splits
from asiapoker.optimal import _index, shipped_table
from asiapoker.simulation import simulate

from .conftest import random_hands


def test_best_splits_a_million_hands(benchmark):
    hands = random_hands(1_000_000, 7)
    shipped_table()
    _index()
    benchmark.pedantic(best_splits, args=(hands,), rounds=5)
    benchmark.extra_info["million_hands_per_s_at_median"] = round(
        len(hands) / benchmark.stats.stats.median / 1e6, 2)


# the peak is the process's own high-water mark since it started (VmHWM, in kB), not
# ru_maxrss, which also counts the benchmark process the child was forked from
FIRST = ("import numpy as np, asiapoker as ap;"
         "ap.best_splits(np.array([[0, 5, 10, 15, 20, 25, 52]], dtype=np.int8));"
         "print([line.split()[1] for line in open('/proc/self/status') "
         "if line.startswith('VmHWM')][0])")


def test_first_call_in_a_fresh_process(benchmark):
    """Import, the class list (cached), the class index, the table and its checks of meaning
    (the legality pass, the way's dealer model, the sampled solves), one lookup: as an
    installed package runs, with its bytecode compiled (pip compiles it when it installs a
    wheel; PYTHONDONTWRITEBYTECODE, which some environments set, is left out here, and a first
    run writes the bytecode)."""
    best_splits(random_hands(1, 7))                      # the caches are written
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-c", FIRST], check=True, capture_output=True, env=env)
    peak = []

    def run():
        out = subprocess.run([sys.executable, "-c", FIRST], check=True, capture_output=True,
                             text=True, env=env).stdout
        peak.append(int(out.split()[-1]))

    benchmark.pedantic(run, rounds=5)
    benchmark.extra_info["peak_rss_mb"] = round(max(peak) / 1024, 1)


def _sim(player):
    return simulate(200_000, workers=1, seed=1, player=player)


def test_simulate_optimal_one_core(benchmark):
    shipped_table()
    _index()
    sim = benchmark.pedantic(_sim, args=("optimal",), rounds=3)
    assert sim.table is not None
    benchmark.extra_info["million_player_hands_per_s_at_median"] = round(
        sim.hands / benchmark.stats.stats.median / 1e6, 2)


def test_simulate_house_way_one_core(benchmark):
    sim = benchmark.pedantic(_sim, args=("house-way",), rounds=3)
    benchmark.extra_info["million_player_hands_per_s_at_median"] = round(
        sim.hands / benchmark.stats.stats.median / 1e6, 2)
