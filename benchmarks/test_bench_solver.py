"""Solver speed.

``pytest benchmarks/test_bench_solver.py --benchmark-columns=median,rounds -s`` prints the
per-hand median of the fast path over 200 fixed random hands (with and without the joker),
the enumerate path on a few hands, their ratio, and the workers=2 / workers=1 speed-up.
"""

import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import pytest

from asiapoker import solve, solve_many

from .conftest import random_hands

HANDS = random_hands(200, 7, seed=2026)
HANDS[:60, 0] = np.where((HANDS[:60] == 52).any(1), HANDS[:60, 0], 52)   # joker hands
MANY = random_hands(1000, 7, seed=2027)        # solve_many: enough rows to keep both cores busy
RESULTS: dict[str, float] = {}


@pytest.fixture(scope="module", autouse=True)
def warm():
    solve_many(HANDS[:2], workers=1)          # build the class tables outside the timing


@pytest.mark.parametrize("way", ["standard", "classic"])
def test_fast_per_hand(benchmark, way):
    """The default way's dealer model has about twice the triples and flush corrections of
    classic's, so a hand costs more against it; classic shows the code's own speed."""
    rows = [row.tolist() for row in HANDS]
    it = iter(range(10**9))
    solve(rows[0], way)

    def one():
        return solve(rows[next(it) % len(rows)], way)

    benchmark.pedantic(one, rounds=len(rows) * 2, iterations=1, warmup_rounds=5)
    if way == "standard":
        RESULTS["fast_ms"] = benchmark.stats.stats.median * 1e3
    benchmark.extra_info["median_ms_per_hand"] = round(benchmark.stats.stats.median * 1e3, 3)


def test_solve_many_one_worker(benchmark):
    benchmark.pedantic(solve_many, args=(MANY,), kwargs={"workers": 1}, rounds=3)
    RESULTS["many1_ms"] = benchmark.stats.stats.median / len(MANY) * 1e3
    benchmark.extra_info["median_ms_per_hand"] = round(RESULTS["many1_ms"], 3)


def test_solve_many_two_workers(benchmark):
    benchmark.pedantic(solve_many, args=(MANY,), kwargs={"workers": 2}, rounds=3)
    RESULTS["many2_ms"] = benchmark.stats.stats.median / len(MANY) * 1e3
    benchmark.extra_info["median_ms_per_hand"] = round(RESULTS["many2_ms"], 3)
    benchmark.extra_info["speedup_vs_one_worker"] = round(
        RESULTS["many1_ms"] / RESULTS["many2_ms"], 2)


def test_enumerate_few_hands(benchmark):
    rows = [HANDS[0].tolist(), HANDS[100].tolist()]
    times = []
    for row in rows:
        t = time.perf_counter()
        slow = solve(row, method="enumerate")
        times.append(time.perf_counter() - t)
        fast = solve(row)
        assert [r.wins for r in fast.settings] == [r.wins for r in slow.settings]
    benchmark.pedantic(lambda: None, rounds=1)
    RESULTS["enum_ms"] = statistics.median(times) * 1e3
    benchmark.extra_info["enumerate_median_ms"] = round(RESULTS["enum_ms"], 1)
    benchmark.extra_info["fast_over_enumerate"] = RESULTS["fast_ms"] / RESULTS["enum_ms"]
    print(f"\nfast {RESULTS['fast_ms']:.3f} ms/hand, enumerate {RESULTS['enum_ms']:.0f} ms/hand,"
          f" ratio fast/enumerate = 1/{RESULTS['enum_ms'] / RESULTS['fast_ms']:.0f}; "
          f"solve_many 1 worker {RESULTS['many1_ms']:.3f} ms/hand, 2 workers "
          f"{RESULTS['many2_ms']:.3f} ms/hand (x{RESULTS['many1_ms'] / RESULTS['many2_ms']:.2f})")


def test_first_call_in_a_fresh_process(benchmark, tmp_path):
    """A first ``solve`` in a fresh process: once with an empty cache folder (the class table
    and the default way's dealer model are built and saved), then three times reading them."""
    # peak memory from VmHWM (this process's own address space; ru_maxrss would carry the
    # parent's peak over fork + exec)
    code = ("import time, json, re; t=time.perf_counter(); import asiapoker; "
            "asiapoker.solve('As Kd 7h 7c Jk 2s 9d'); dt=time.perf_counter()-t; "
            "hwm=int(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read())[1]); "
            "print(json.dumps([dt, hwm]))")
    env = {**os.environ, "ASIAPOKER_CACHE_DIR": str(tmp_path)}
    env.pop("ASIAPOKER_MODEL_CACHE", None)
    runs = []
    for _ in range(4):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, env=env)
        runs.append(json.loads(out.stdout))
    benchmark.pedantic(lambda: None, rounds=1)
    cold, warm = runs[0], runs[1:]
    first = statistics.median(r[0] for r in warm)
    rss_mb = max(r[1] for r in warm) / 1024
    benchmark.extra_info["first_call_median_s"] = round(first, 3)
    benchmark.extra_info["max_rss_mb"] = round(rss_mb, 1)
    benchmark.extra_info["cold_s"] = round(cold[0], 3)
    benchmark.extra_info["cold_rss_mb"] = round(cold[1] / 1024, 1)
    print(f"\nfirst call in a fresh process: median {first:.2f} s, peak RSS {rss_mb:.0f} MB "
          f"(caches read); with an empty cache folder {cold[0]:.2f} s, {cold[1] / 1024:.0f} MB")
