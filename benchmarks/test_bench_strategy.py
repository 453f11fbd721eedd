"""Strategy cards: generating a 20-rule card against classic from 20,000 hands solved exactly
(the shipped cards use 60,000: about three times this), and pricing a card on a sample."""

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
