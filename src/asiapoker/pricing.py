"""Pricing strategy cards: exactly over the whole game from an ``analyze`` run of the card
(``player=CardStrategy(card)``), or on a sample of random hands with confidence intervals;
each rule's share of hands and its cost.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ._files import read_json
from ._runs import RUN_FILE, RunDir, chunk_bounds
from ._validate import MAX_HANDS, whole_number, workers_count
from .cards import Card
from .errors import RunError, StrategyError
from .house_way import DEFAULT_WAY, HouseWay, WayLike, resolve_way
from .rack import (
    RackCard,
    apply_card,
)
from .rules import Rules, resolve
from .sampling import random_hands
from .solver import DEALER_HANDS, solve_many
from .split_counts import SplitCounts
from .strategy import card_classes, card_splits, class_card_splits
from .suit_classes import class_groups, player_classes

__all__ = ["Pricing", "RulePrice", "price"]

@dataclass(frozen=True)
class RulePrice:
    """One rule's share of hands (``frequency``: the hands it decides) and its exact cost: the
    ev the game loses on them against optimal play, per hand of the whole game and per hand
    it decides.  Rule -1 is the fallback (hands no rule fits)."""

    index: int
    """The rule's place on the card (-1: the fallback)."""
    text: str
    """The rule as the card prints it."""
    frequency: Fraction
    cost: Fraction
    """Ev lost against optimal play, per hand of the whole game."""
    cost_per_hand: Fraction
    """Ev lost per hand the rule decides."""


@dataclass(frozen=True)
class Pricing:
    """A card's ev beside house-way play and optimal play against ``way``; ``gap_closed`` is the
    share of the gap between house-way and optimal play the card closes.  ``exact`` when
    priced over every player hand (else ``se`` holds standard errors from ``hands`` random
    hands).  ``worst``: (hand, share of hands, ev lost per hand) of the biggest mistakes,
    weighted by frequency."""

    card: RackCard
    """The card priced."""
    way: str
    rules: Rules
    """The rule options."""
    exact: bool
    hands: int
    ev: dict[str, Fraction]
    """The ev per hand of the card, house-way and optimal play."""
    se: dict[str, float]
    per_rule: tuple[RulePrice, ...]
    """Each rule's price, the fallback (rule -1) last."""
    worst: tuple[tuple[str, Fraction, Fraction], ...]

    @property
    def gap_closed(self) -> Fraction:
        """(card - house way) / (optimal - house way)."""
        gap = self.ev["optimal"] - self.ev["house-way"]
        return (self.ev["card"] - self.ev["house-way"]) / gap if gap else Fraction(1)

    def describe(self) -> str:
        """What the figures depend on."""
        what = ("every player hand, exact" if self.exact
                else f"{self.hands:,} random hands, with 95% CIs")
        return f"house way {self.way}; {self.rules.describe()}; {what}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {"card": self.card.name, "way": self.way, "rules": self.rules.to_dict(),
                "exact": self.exact, "hands": self.hands,
                "ev": {k: float(v) for k, v in self.ev.items()},
                "ev_exact": {k: str(v) for k, v in self.ev.items()} if self.exact else None,
                "se": self.se, "gap_closed": float(self.gap_closed),
                "per_rule": [{"rule": p.index + 1 if p.index >= 0 else None, "text": p.text,
                              "frequency": float(p.frequency), "cost": float(p.cost),
                              "cost_per_hand": float(p.cost_per_hand)}
                             for p in self.per_rule],
                "worst": [{"hand": h, "frequency": float(f), "loss": float(loss)}
                          for h, f, loss in self.worst]}


class _PriceSums:
    """Integer sums over weighted hands."""

    def __init__(self, n_rules: int) -> None:
        self.n = 0
        self.wins = {"optimal": 0, "house-way": 0, "card": 0}
        self.rule_hands = [0] * (n_rules + 1)          # last: the fallback
        self.rule_loss = [0] * (n_rules + 1)
        self.worst: list[tuple[int, int, str]] = []    # (weight x loss, weight, hand)

    def add(self, hands: npt.NDArray[Any], weight: npt.NDArray[np.int64],
            best: npt.NDArray[np.int64], hw: npt.NDArray[np.int64],
            card: npt.NDArray[np.int64], rule: npt.NDArray[np.int64]) -> None:
        self.n += int(weight.sum())
        for key, wins in (("optimal", best), ("house-way", hw), ("card", card)):
            self.wins[key] += int((weight * wins).sum())
        loss = weight * (best - card)
        for i in range(len(self.rule_hands)):
            m = rule == (i if i < len(self.rule_hands) - 1 else -1)
            self.rule_hands[i] += int(weight[m].sum())
            self.rule_loss[i] += int(loss[m].sum())
        top = np.argsort(-loss, kind="stable")[:20]
        self.worst += [(int(loss[t]), int(weight[t]),
                        " ".join(str(Card(int(c))) for c in hands[t])) for t in top
                       if loss[t] > 0]
        self.worst = sorted(self.worst, key=lambda x: -x[0])[:20]

    def pricing(self, card: RackCard, way: str, rules: Rules, exact: bool, hands: int,
                se: dict[str, float]) -> Pricing:
        pays = Fraction(rules.pays)
        scale = pays + 1
        ev = {k: Fraction(w, self.n * DEALER_HANDS) * scale - 1 for k, w in self.wins.items()}
        per_rule = []
        for i in range(len(self.rule_hands)):
            idx = i if i < len(card.rules) else -1
            text = card.rules[i].text() if idx >= 0 else card.fallback_text()
            h = self.rule_hands[i]
            loss = Fraction(self.rule_loss[i], self.n * DEALER_HANDS) * scale
            per_rule.append(RulePrice(idx, text, Fraction(h, self.n), loss,
                                      loss * self.n / h if h else Fraction(0)))
        worst = tuple((hand, Fraction(w, self.n), Fraction(lw, w * DEALER_HANDS) * scale)
                      for lw, w, hand in self.worst)
        return Pricing(card, way, rules, exact, hands, ev, se, tuple(per_rule), worst)


def price(card: RackCard, way: WayLike = DEFAULT_WAY, rules: Rules | None = None, *,
          run: str | Path | None = None, partial: bool = False, hands: int = 20_000,
          seed: int = 1, workers: int | None = None) -> Pricing:
    """Price ``card`` against ``way``: what each of its rules costs a player who follows it.

    Exactly from a finished run, or estimated from random hands solved exactly, with
    standard errors.

    Parameters
    ----------
    card : RackCard
        The strategy card.
    way : WayLike, default "standard"
        The dealer's house way: a :class:`asiapoker.HouseWay` or a built-in way's name.
    rules : Rules, optional
        The rule options (A-2-3-4's place, the payout); default ``Rules()``.
    run : path, optional
        The directory of a finished ``analyze(way, rules, player=CardStrategy(card, rules,
        way), out=run)``, or of an every-split run of the way (``analyze(way, rules,
        every_split=True, out=run)``, for any card): the exact price.
    partial : bool, default False
        With ``run``: price over the chunks it holds, before it is finished.
    hands : int, default 20000
        Without ``run``: random hands the estimate is made from, 2 to 10^7.
    seed : int, default 1
        Their seed.
    workers : int, optional
        Threads (default: all cores).

    Returns
    -------
    Pricing
        The card's ev and each rule's cost, exact or with standard errors, naming the way
        and rules.

    Raises
    ------
    StrategyError
        ``card`` is not a :class:`asiapoker.rack.RackCard`.
    RunError
        ``run`` is not an analyze run of this card, way and rules, or is unfinished without
        ``partial``.
    OptionError
        ``hands``, ``seed`` or ``workers`` is not one it takes.
    HouseWayError
        ``way`` is not a house way.
    RuleError
        ``rules`` is not a :class:`asiapoker.Rules`.
    """
    if not isinstance(card, RackCard):
        raise StrategyError(f"price takes an asiapoker.rack.RackCard, got {card!r}"[:200])
    w, r = resolve_way(way), resolve(rules)
    sums = _PriceSums(len(card.rules))
    if run is not None:
        path = Path(run)
        try:
            params = read_json(path / RUN_FILE, "run description")
            if not isinstance(params, dict):
                raise ValueError("not a JSON object")
        except ValueError as exc:
            raise RunError(f"{path} is not an analyze run: {exc}") from None
        if params.get("every_split") is True and params.get("player") != f"strategy:{card.name}":
            return _price_from_splits(card, w, r, path, partial, sums)
        want = {"way": w.name, "player": f"strategy:{card.name}", "rules": r.to_dict()}
        for k, v in want.items():
            if params.get(k) != v:
                raise RunError(f"{path} is a run with {k}={params.get(k)!r}, not "
                                     f"{k}={v!r}: run asiapoker analyze --way {w.name} "
                                     f"--player CARD.json --out DIR first")
        rd = RunDir(path, {k: v for k, v in params.items() if k != "format"}, create=False)
        (hands_all, weights), groups = player_classes(), class_groups()
        edges = chunk_bounds(groups)
        missing = [c for c in range(len(edges) - 1) if not rd.chunk_path(c).exists()]
        if missing and not partial:
            raise RunError(f"{path} is not finished: {len(missing)} chunks to go (run "
                                 f"the same analyze command again)")
        if len(missing) == len(edges) - 1:
            raise RunError(f"{path} holds no finished chunk: there is nothing to price yet")
        absent = set(missing)
        for c in (c for c in range(len(edges) - 1) if c not in absent):
            lo, hi = int(edges[c]), int(edges[c + 1])
            d = rd.load(c)              # verified: a damaged chunk is an error naming it
            h = hands_all[lo:hi]
            _, rule = apply_card(card, h, r)
            sums.add(h, weights[lo:hi], d["best_wins"], d["house_way_wins"],
                     d["player_wins"], rule)
        return sums.pricing(card, w.name, r, not missing, sums.n, {})

    whole_number(hands, "hands", 2, MAX_HANDS)
    workers = workers_count(workers)
    rows = random_hands(hands, seed)
    solved = solve_many(rows, w, r, workers=workers)
    best, hw = solved.best_wins, solved.house_way_wins
    picks, rule = card_splits(card, rows, r, w)
    mine = solved.wins[np.arange(len(rows)), picks].astype(np.int64)
    sums.add(rows, np.ones(len(rows), dtype=np.int64), best, hw, mine, rule)
    scale = float(r.pays) + 1
    se = {key: float(np.std(v / DEALER_HANDS * scale, ddof=1) / math.sqrt(len(rows)))
          for key, v in (("optimal", best), ("house-way", hw), ("card", mine),
                         ("card-vs-optimal", best - mine))}
    return sums.pricing(card, w.name, r, False, len(rows), se)


def _price_from_splits(card: RackCard, way: HouseWay, rules: Rules, path: Path, partial: bool,
                       sums: _PriceSums) -> Pricing:
    """The exact price of ``card`` from an every-split run of ``way``: each class's split by
    the card looked up among the stored counts."""
    counts = SplitCounts(path, partial).require_way(way, rules)
    hands_all, weights = player_classes()
    card_classes(card, rules, way)               # the card's class table, once, before threads

    def chunk(lo: int, hi: int, d: dict[str, npt.NDArray[Any]]) -> tuple[Any, ...]:
        h = np.ascontiguousarray(hands_all[lo:hi])
        picks, rule = class_card_splits(card, h, rules, way)
        won = np.maximum(d["counts"][np.arange(hi - lo), picks], 0).astype(np.int64)
        return h, weights[lo:hi], d["best_wins"], d["house_way_wins"], won, rule

    for part in counts.map(chunk, workers_count(None)):
        sums.add(*part)
    if not sums.n:
        raise RunError(f"{path} holds no finished chunk: there is nothing to price yet")
    return sums.pricing(card, way.name, rules, not counts.missing, sums.n, {})
