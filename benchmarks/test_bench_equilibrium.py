"""Deriving ways: the dealer's best response on a slice of 2,048 classes of whole rank
multisets (the whole run over 829,504 classes is extrapolated from it: x 405), compiling a
rack card to its class table, and the exploitability estimate on 1,000 hands."""

import numpy as np
import pytest

from asiapoker import HouseWay, exploitability
from asiapoker._compile import class_table
from asiapoker._standard import STANDARD
from asiapoker.equilibrium import best_response_splits
from asiapoker.house_way import card_table
from asiapoker.rules import Rules
from asiapoker.solver import dealer_model

SLICE = 2048


@pytest.fixture(scope="module")
def classes():
    """SLICE classes made of whole rank multisets drawn at random (the last one cut): a
    whole run solves every multiset's classes together, so a slice must hold them together
    too to stand for it."""
    _, reps = class_table()
    r = np.where(reps == 52, 13, reps >> 2).astype(np.int64)
    r.sort(axis=1)
    multiset = (r << (4 * np.arange(7))).sum(axis=1)
    rng = np.random.default_rng(3)
    picked = []
    for m in rng.permutation(np.unique(multiset)):
        picked.extend(np.flatnonzero(multiset == m).tolist())
        if len(picked) >= SLICE:
            break
    return reps[np.sort(picked[:SLICE])]


@pytest.mark.parametrize("way", ["classic", "equilibrium"])
def test_best_response_slice(benchmark, classes, way):
    w = HouseWay.named(way)
    dealer_model(w, Rules())                       # built once per process, as in a full run
    out = benchmark.pedantic(best_response_splits, args=(w, Rules(), "dealer", classes, 2),
                             rounds=3)
    assert len(out) == SLICE
    full = benchmark.stats.stats.median * len(class_table()[0]) / SLICE
    benchmark.extra_info["whole_run_minutes_extrapolated"] = round(full / 60, 1)


def test_compile_standard_card(benchmark):
    table = benchmark.pedantic(card_table, args=(STANDARD,), rounds=1)
    assert (table == HouseWay.named("standard").table).all()


def test_exploitability_1000_hands(benchmark):
    e = benchmark.pedantic(exploitability, args=("standard",), kwargs={"hands": 1000},
                           rounds=1)
    assert e.hands == 1000
