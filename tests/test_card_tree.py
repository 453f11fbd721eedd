"""The tree search of cards (asiapoker.card_search.tree): its counts against the card it
returns set by the plain reference of rack cards, its splits against every condition tried
one by one, and its errors."""

from __future__ import annotations

import numpy as np
import pytest

from asiapoker import solve_many
from asiapoker.card_search import _atom_index, _best_split, _shapes, generate
from asiapoker.errors import OptionError
from asiapoker.rack import FEATURES, hand_facts
from asiapoker.sampling import random_hands
from asiapoker.setting import setting_of_split
from asiapoker.strategy import card_splits

from . import reference as ref
from .reference_rack import rack_setting

RANKLESS = ("made", "joker", "flush", "straight", "made_pair", "made_joker", "made_count")


@pytest.fixture(scope="module")
def sample():
    rows = random_hands(2500, 31)
    solved = solve_many(rows, "equilibrium")
    return rows, solved


def test_the_tree_counts_each_hand_as_the_card_it_returns_sets_it(sample):
    """The tree's last step costs what the card's own splits lose on the sample, and the
    card sets hands (one in twelve checked) as the plain reference of rack cards does."""
    rows, solved = sample
    g = generate("equilibrium", hands=len(rows), seed=31, max_rules=14, method="tree",
                 fallback="best MLH")
    assert 8 <= len(g.card.rules) <= 14
    k, rule = card_splits(g.card, rows)
    wins = np.asarray(solved.wins, dtype=np.int64)
    lost = int((solved.best_wins - wins[np.arange(len(rows)), k]).sum())
    assert g.steps[-1].cost == lost
    assert g.steps[0].cost > lost                  # the rules save against the fallback alone
    plain = [(r.shape, r.placement, r.conditions) for r in g.card.rules]
    for i in range(0, len(rows), 12):
        seven = [ref.card_text(int(c)) for c in rows[i]]
        values, j = rack_setting(plain, seven)
        assert j == rule[i]
        s = setting_of_split([int(x) for x in rows[i]], int(k[i]))
        parts = tuple([ref.card_text(int(c)) for c in hand] for hand in (s.high, s.medium, s.low))
        assert tuple(ref.value(p) for p in parts) == values


def _plain_split(sd, rows):
    """The best condition to split the rows, every condition tried one by one: each side
    takes the placement that fits all its hands and loses least."""
    def side(mask):
        best = np.inf
        for j in range(len(sd.placements)):
            c = sd.cost[j, rows[mask]]
            if np.isfinite(c).all():
                best = min(best, float(c.sum()))
        return best
    whole = side(np.ones(len(rows), dtype=bool))
    best = 0.0
    for (feat, op, val), _, _ in _atom_index(sd):
        x = sd.feature[rows, FEATURES.index(feat)]
        m = {"==": x == val, ">=": x >= val, "<=": x <= val}[op]
        if feat not in RANKLESS:
            m &= x != 0
        if m.any() and not m.all():
            best = max(best, whole - side(m) - side(~m))
    return best


def test_the_tree_splits_where_every_condition_tried_alone_says(sample):
    rows, solved = sample
    groups = _shapes(hand_facts(rows), np.asarray(solved.wins, dtype=np.int64), 8, None, 1.0,
                     None)
    tried = 0
    for sd in sorted(groups, key=lambda g: -len(g.rows))[:4]:
        index = _atom_index(sd)
        everything = np.arange(sd.feature.shape[0])
        for part in (everything, everything[::2]):
            gain, cond = _best_split(sd, part, index)
            assert gain == _plain_split(sd, part)
            assert (cond is None) == (gain == 0)
            tried += 1
    assert tried == 8


def test_the_tree_method_errors():
    with pytest.raises(OptionError, match="unknown method 'forest'"):
        generate("classic", hands=10, method="forest", fallback="best MLH")
    with pytest.raises(OptionError, match="priority fallback"):
        generate("classic", hands=10, method="tree")
    with pytest.raises(OptionError, match="top"):
        generate("classic", hands=10, top=0)
