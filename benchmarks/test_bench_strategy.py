"""Strategy cards: generating a 20-rule card against classic from 20,000 hands solved exactly
(a sample search of 60,000 hands: about three times this) and against standard on every
class of an every-split shard, pricing a card on a sample, and the tree search on the shard."""

import pytest

from asiapoker.card_search import generate
from asiapoker.pricing import price


@pytest.fixture(scope="module")
def card():
    return generate("classic", max_rules=20, hands=5000, seed=1).card


def test_generate_card(benchmark):
    g = benchmark.pedantic(generate, args=("classic",),
                           kwargs={"max_rules": 20, "hands": 20_000, "seed": 0, "workers": 2},
                           rounds=1)
    assert len(g.card.rules) <= 20


def test_price_card_sample(benchmark, card):
    p = benchmark.pedantic(price, args=(card, "classic"),
                           kwargs={"hands": 10_000, "seed": 2, "workers": 2}, rounds=1)
    assert p.hands == 10_000


@pytest.fixture(scope="module")
def every_split_shard(tmp_path_factory):
    from asiapoker.analysis import analyze
    out = tmp_path_factory.mktemp("every")
    analyze("standard", shard="0/200", out=out, every_split=True, workers=2, progress=False)
    return out


def test_generate_card_on_an_every_split_shard(benchmark, every_split_shard):
    """The search on every class of a run's shard (0/200: 40,436 classes, about 1/170 of the
    whole game's): its two passes over the run and 20 greedy steps, each exact."""
    g = benchmark.pedantic(generate, args=("standard",),
                           kwargs={"max_rules": 20, "run": every_split_shard, "partial": True,
                                   "workers": 2}, rounds=3)
    assert g.exact and len(g.steps) > 1


def test_generate_tree_card_on_an_every_split_shard(benchmark, every_split_shard):
    """The tree search on the same shard: a 40-rule card that sets every hand itself (the
    way ``tools/derive_rack.py --method tree`` derives house ways), beside the greedy one."""
    g = benchmark.pedantic(generate, args=("standard",),
                           kwargs={"max_rules": 40, "run": every_split_shard, "partial": True,
                                   "workers": 2, "method": "tree", "fallback": "best MLH"},
                           rounds=3)
    assert g.exact and len(g.card.rules) <= 40
