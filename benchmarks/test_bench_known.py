"""Known cards: a solve that sees dead cards or the dealer's cards, against a plain solve.

``pytest benchmarks/test_bench_known.py --benchmark-columns=median,rounds -s`` times
``solve`` on 100 fixed random hands, plain and with known cards (the next cards of a
fixed-seed deck: 7 dead, 1 or 2 the dealer shows, a whole table of 35 dead), and prints each
median over the plain median measured in the same run.
"""

import numpy as np
import pytest

from asiapoker import solve

N = 100
_rng = np.random.default_rng(2026)
DECKS = [_rng.permutation(53).tolist() for _ in range(N)]
CASES = {"plain": (0, 0), "dead 7": (7, 0), "dealer shows 1": (0, 1),
         "dealer shows 2": (0, 2), "table (35 dead)": (35, 0)}
MEDIANS: dict[str, float] = {}


@pytest.fixture(scope="module", autouse=True)
def warm():
    solve(DECKS[0][:7])                      # build the class tables outside the timing


@pytest.mark.parametrize("case", list(CASES))
def test_solve_with_known_cards(benchmark, case):
    nd, nk = CASES[case]
    args = [(d[:7], d[7:7 + nd] or None, d[7 + nd:7 + nd + nk] or None) for d in DECKS]
    it = iter(range(10**9))

    def one():
        hand, dead, dealer = args[next(it) % N]
        return solve(hand, dead=dead, dealer=dealer)

    benchmark.pedantic(one, rounds=2 * N, iterations=1, warmup_rounds=3)
    MEDIANS[case] = benchmark.stats.stats.median
    benchmark.extra_info["median_ms"] = round(MEDIANS[case] * 1e3, 3)
    if case != "plain" and "plain" in MEDIANS:
        ratio = MEDIANS[case] / MEDIANS["plain"]
        benchmark.extra_info["x_plain"] = round(ratio, 2)
        print(f"\n{case}: {MEDIANS[case] * 1e3:.2f} ms median, {ratio:.2f}x the plain solve "
              f"({MEDIANS['plain'] * 1e3:.2f} ms)")
