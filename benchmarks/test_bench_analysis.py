"""The whole-game analysis: a fixed shard (0/200: every 200th chunk, at least 1/200 of the
classes) timed on two threads, and the whole run extrapolated from it by class count; and
the grouped solver against the per-hand one on the same 2,000 classes, with the rows the
grouped solver gave back to be solved one by one (none, for every built-in way)."""

import numpy as np
import pytest

from asiapoker import _core
from asiapoker.analysis import analyze
from asiapoker.house_way import resolve_way
from asiapoker.rules import Rules
from asiapoker.solver import dealer_model
from asiapoker.suit_classes import class_groups, player_classes

SHARD = "0/200"


@pytest.mark.parametrize("way", ["standard", "classic", "high-first"])
def test_analyze_shard(benchmark, way):
    dealer_model(resolve_way(way), Rules())           # built once, as in a full run
    player_classes()
    a = benchmark.pedantic(analyze, args=(way,), kwargs={"shard": SHARD, "workers": 2,
                                                          "progress": False}, rounds=1)
    share = a.classes / len(player_classes()[0])
    assert share >= 1 / 200
    benchmark.extra_info["classes"] = a.classes
    benchmark.extra_info["whole_run_minutes_extrapolated"] = round(
        benchmark.stats.stats.median / share / 60, 1)


@pytest.fixture(scope="module")
def slice_2000():
    hands, _ = player_classes()
    groups = class_groups()
    lo = int(np.searchsorted(groups, groups[len(groups) // 2]))      # a rank multiset's start
    return np.ascontiguousarray(hands[lo:lo + 2000])


@pytest.mark.parametrize("kernel", ["solve_groups", "solve_rows"])
@pytest.mark.parametrize("way", ["standard", "high-first"])
def test_grouped_vs_per_hand(benchmark, slice_2000, way, kernel):
    """``high-first`` (675,296 flush entries and 81,796 two-flush ones, against 440,562 and
    5,186 for ``standard``): the heaviest built-in way for the grouped solver."""
    m = dealer_model(resolve_way(way), Rules())
    out = np.empty((len(slice_2000), 105), dtype=np.int64)
    if kernel == "solve_rows":
        tot = np.empty(len(slice_2000), dtype=np.int64)
        benchmark.pedantic(m.solve_rows, args=(slice_2000, out, tot), rounds=3)
    else:
        _core.group_fallback_rows()
        benchmark.pedantic(_core.solve_groups_kernel, args=(slice_2000, m, out), rounds=3)
        benchmark.extra_info["rows_solved_one_by_one"] = _core.group_fallback_rows()
    benchmark.extra_info["ms_per_hand"] = round(benchmark.stats.stats.median / 2000 * 1e3, 4)
