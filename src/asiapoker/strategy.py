"""Strategy cards as strategies: a card (a rack card, :mod:`asiapoker.rack`: ordered rules
keyed on the shape of the seven cards and simple features, each naming a placement in words)
sets arrays of hands; :class:`CardStrategy` makes it a batch strategy (for
:func:`asiapoker.simulate` and :func:`asiapoker.analysis.analyze`); cards travel as JSON.

Making a card is :mod:`asiapoker.card_search`, pricing it :mod:`asiapoker.pricing`, printing it
:mod:`asiapoker.card_page`.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ._compile import _keys as class_keys
from ._compile import class_table
from ._files import parse_json
from .equilibrium import way_digest
from .errors import HouseWayError
from .house_way import HouseWay, WayLike, card_class_splits, house_way_splits, resolve_way
from .rack import (
    RackCard,
    Rule,
    apply_card,
)
from .rules import Rules, resolve
from .setting import SPLIT_POSITIONS

__all__ = ["CardStrategy", "card_classes", "card_from_json", "card_made_for", "card_splits",
           "card_to_json", "class_card_splits", "made_for_warning"]

# split index from (high positions as a 7-bit mask, low position)
_SPLIT_OF = np.full(128 * 8, -1, dtype=np.int64)
for _k, (_h, _m, _lo) in enumerate(SPLIT_POSITIONS):
    _SPLIT_OF[sum(1 << p for p in _h) * 8 + _lo] = _k
_POS = np.array([[*h, *m, lo] for h, m, lo in SPLIT_POSITIONS], dtype=np.int64)


def card_splits(card: RackCard, hands: npt.NDArray[Any], rules: Rules | None = None,
                way: WayLike | None = None) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(split, rule) per row of checked seven-card ids: the card's split as an index into
    :data:`asiapoker.SPLIT_POSITIONS` of the row AS GIVEN, and the rule that decided (-1: no
    rule fits, the fallback; a card that falls back on the house way needs ``way``).

    Parameters
    ----------
    card : RackCard
        The card.
    hands : numpy.ndarray
        An n x 7 array of seven-card rows already checked (as the package's own callers
        pass them: no row is checked again).
    rules : Rules, optional
        The rule options (A-2-3-4's place); default ``Rules()``.
    way : WayLike, optional
        The house way, for a card that falls back on it.

    Raises
    ------
    StrategyError
        A card that falls back on the house way, without ``way``.
    """
    rows = np.asarray(hands, dtype=np.int64)
    order = np.argsort(rows, axis=1, kind="stable")
    srt = np.take_along_axis(rows, order, axis=1)
    k, rule = apply_card(card, srt, rules)
    if card.fallback == "house-way":
        rest = k < 0
        if rest.any():
            if way is None:
                raise HouseWayError(f"card {card.name!r} falls back on the house way: name "
                                    "the way")
            k[rest] = house_way_splits(np.ascontiguousarray(srt[rest]), way, rules)
    pos = np.take_along_axis(order, _POS[k], axis=1)      # sorted positions -> the row's
    high = (1 << pos[:, :4]).sum(axis=1)
    return _SPLIT_OF[high * 8 + pos[:, 6]], rule


_CARD_WAYS: dict[tuple[Any, ...], tuple[HouseWay, npt.NDArray[np.int16]] | None] = {}
_CARD_WAYS_LOCK = threading.Lock()


def card_classes(card: RackCard, rules: Rules | None = None, way: WayLike | None = None
                 ) -> tuple[HouseWay, npt.NDArray[np.int16]] | None:
    """The card at the level of the 829,504 classes of seven cards (the house ways' class
    table, :meth:`asiapoker.HouseWay.class_table`): the card as a stored way (its split of
    every class, the house way's where it falls back on it) and the rule that decides each
    class (-1: the fallback).  A card decides alike for every hand of a class (it reads only
    ranks and the strengths of the splits), so a whole game's hands are set by a lookup
    instead of the card's rules: :func:`class_card_splits`.  Kept for the process; None when
    the card's splits are not a way of the default rules (then set hands one by one).

    Parameters
    ----------
    card : RackCard
        The card.
    rules : Rules, optional
        The rule options (A-2-3-4's place); default ``Rules()``.
    way : WayLike, optional
        The house way, for a card that falls back on it.
    """
    r = resolve(rules)
    w = resolve_way(way) if card.fallback == "house-way" else None
    key = (card, r.a234, None if w is None else way_digest(w, r))
    with _CARD_WAYS_LOCK:
        if key in _CARD_WAYS:
            return _CARD_WAYS[key]
        splits, rule = card_class_splits(card, r)
        rest = splits < 0                # the card falls back on the house way there
        if rest.any() and w is not None:
            splits[rest] = house_way_splits(np.ascontiguousarray(class_table()[1][rest]), w, r)
        try:
            found: tuple[HouseWay, npt.NDArray[np.int16]] | None = (
                HouseWay.from_table(splits, f"card:{card.name}", f"rack card {card.name!r}"),
                rule.astype(np.int16))
        except HouseWayError:            # a split legal only under A-2-3-4 low
            found = None
        _CARD_WAYS[key] = found
        return found


def class_card_splits(card: RackCard, hands: npt.NDArray[Any], rules: Rules | None = None,
                      way: WayLike | None = None
                      ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """:func:`card_splits` through :func:`card_classes` (the same answers; a lookup a hand
    once the card's class table is made, about ten seconds a card).

    Parameters
    ----------
    card : RackCard
        The card.
    hands : numpy.ndarray
        Checked seven-card rows.
    rules : Rules, optional
        The rule options; default ``Rules()``.
    way : WayLike, optional
        The house way, for a card that falls back on it.
    """
    found = card_classes(card, rules, way)
    if found is None:
        return card_splits(card, hands, rules, way)
    table, rule = found
    rows = np.ascontiguousarray(hands)
    keys, _ = class_table()
    where = np.searchsorted(keys, class_keys(rows.astype(np.int64)))
    return (house_way_splits(rows, table, rules).astype(np.int64),
            rule[where].astype(np.int64))


@dataclass(frozen=True)
class CardStrategy:
    """A card as a batch strategy: called on an n x 7 array of hands, it returns n split
    indices (picklable, so it runs on Dask workers too)."""

    card: RackCard
    """The card."""
    rules: Rules = field(default_factory=Rules)
    """The rule options it sets under."""
    way: Any = None
    """The house way, for a card that falls back on it."""

    @property
    def __name__(self) -> str:               # strategies are named by their __name__
        return self.card.name

    def __call__(self, hands: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
        return card_splits(self.card, hands, self.rules, self.way)[0]

    def as_house_way(self) -> HouseWay | None:
        """The card as a stored way of the class table (:func:`card_classes`): the same
        split of every hand, set by a lookup; None when it cannot be one."""
        found = card_classes(self.card, self.rules, self.way)
        return None if found is None else found[0]


def card_to_json(card: RackCard, made_for: dict[str, Any] | None = None) -> str:
    """The card as JSON: its name and rules as [shape, placement, [[feature, op, value]]], and
    (``made_for``) the house way and rule options it was made for.

    Parameters
    ----------
    card : RackCard
        The card.
    made_for : dict, optional
        ``{"way": name, "rules": Rules.to_dict()}``: what the card was made and priced for
        (:func:`card_made_for` reads it back).
    """
    data: dict[str, Any] = {"name": card.name, "fallback": card.fallback, "rules": [
        [r.shape, r.placement, [list(c) for c in r.conditions]] for r in card.rules]}
    if made_for is not None:
        data["made_for"] = made_for
    return json.dumps(data, indent=1)


def card_made_for(text: str | bytes) -> dict[str, Any] | None:
    """The house way and rule options a card's JSON says it was made for (None when it says
    nothing: a card written by hand).

    Parameters
    ----------
    text : str or bytes
        The card's JSON.
    """
    data = parse_json(text, "the card")
    made = data.get("made_for") if isinstance(data, dict) else None
    return made if isinstance(made, dict) else None


def made_for_warning(made: dict[str, Any] | None, way: str, rules: Rules) -> str | None:
    """One line when a card made for one way or rule options is used with others.

    Parameters
    ----------
    made : dict or None
        What the card records (:func:`card_made_for`).
    way : str
        The way it is used against.
    rules : Rules
        The rule options it is used under.
    """
    if made is None:
        return None
    if made.get("way") == way and made.get("rules", {}).get("a234") == rules.a234:
        return None
    theirs = made.get("rules", {})
    return (f"the card was made for house way {made.get('way')} (a234="
            f"{theirs.get('a234')}), not {way} (a234={rules.a234}): its figures and rules "
            f"are for that way")


def card_from_json(text: str | bytes) -> RackCard:
    """A card from :func:`card_to_json`'s text, every rule checked.

    Parameters
    ----------
    text : str or bytes
        The JSON.

    Raises
    ------
    HouseWayError
        Not a card's JSON, or a rule that is not one (the message names it).
    """
    try:
        data = parse_json(text, "the card")
        rules = tuple(Rule(s, p, tuple((f, o, v) for f, o, v in conds))
                      for s, p, conds in data["rules"])
        name = data["name"]
        fallback = data.get("fallback", "best MLH")
    except HouseWayError:
        raise
    except (ValueError, KeyError, TypeError) as exc:
        raise HouseWayError(f"not a strategy card: {type(exc).__name__}: {exc}") from None
    if not isinstance(name, str):
        raise HouseWayError("not a strategy card: its name is not text")
    return RackCard(name, rules, fallback)
