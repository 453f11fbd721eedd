"""Several spots played by one player who sees all their hands (two adjacent areas, rule 6.3,
or a whole table sharing its cards).

The spots meet the same dealer hand, so the player's expected value is the sum of the spots'
expected values over the dealer hands consistent with every card he sees; each term depends
on its own spot's setting only.  The best settings therefore separate exactly: each spot is
solved with the other spots' cards dead, and nothing is gained by setting them jointly.

>>> two = solve_spots(["Qc 9h As 5s 7c Qs 2s", "3h 7d 8h Js Td Jk Ah"])
>>> [str(s.best.setting) for s in two.spots]
['Qs Qc 5s 2s | As 7c | 9h', 'Jk Td 8h 7d | Ah 3h | Js']
>>> str(two.alone[0].setting)              # what the first hand alone would be set to
'Qs Qc 5s 2s | As 9h | 7c'
>>> two.total, round(two.value, 6)        # what seeing the other hand was worth, per round
(15380937, 0.023134)
>>> solve_spots(["As Kd 7h 7c Jk 2s 9d", "As Kh Qc Qd 5c 5h 3d"])
Traceback (most recent call last):
...
asiapoker.errors.KnownCardError: spot 2: As is also in spot 1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import CardsLike, card_of, to_ids
from .errors import KnownCardError, OptionError
from .house_way import DEFAULT_WAY, WayLike, resolve_way
from .rules import Rules, resolve
from .solver import SettingResult, Solution, solve

__all__ = ["SpotsSolution", "solve_spots"]


@dataclass(frozen=True, slots=True)
class SpotsSolution:
    """One player's spots, each solved seeing every spot's hand (``spots``), and for each the
    setting best for its hand alone, valued over the same dealer hands (``alone``).  Expected
    values are per round with one unit on each spot."""

    spots: tuple[Solution, ...]
    alone: tuple[SettingResult, ...]

    @property
    def total(self) -> int:
        """Dealer hands consistent with everything the player sees (the same for every
        spot)."""
        return self.spots[0].total

    @property
    def ev(self) -> float:
        """The player's expected value seeing every spot: the sum of the spots' best."""
        return sum(s.ev for s in self.spots)

    @property
    def ev_alone(self) -> float:
        """The expected value (over the same dealer hands) of setting each spot as if alone."""
        return sum(r.ev for r in self.alone)

    @property
    def value(self) -> float:
        """What seeing the other spots was worth this round: ``ev - ev_alone`` (>= 0)."""
        return self.ev - self.ev_alone

    def describe(self) -> str:
        """The house way, rules and known cards the figures depend on."""
        first = self.spots[0]
        extra = "".join(f"; {what} {' '.join(map(str, cards))}" for what, cards in (
            ("dead", _outside(first, self.spots)), ("dealer shows", first.dealer)) if cards)
        return (f"house way {first.way}; {first.rules.describe()}; {len(self.spots)} spots seen "
                f"together{extra}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"spots": [{**s.to_dict(), "alone": {"index": a.index, "setting": str(a.setting),
                                                    "wins": a.wins, "ev": a.ev}}
                          for s, a in zip(self.spots, self.alone, strict=True)],
                "total": self.total, "ev": self.ev, "ev_alone": self.ev_alone,
                "value": self.value}


def _outside(first: Solution, spots: Sequence[Solution]) -> tuple[Any, ...]:
    """The dead cards that belong to no spot."""
    held = {c for s in spots for c in s.cards}
    return tuple(c for c in first.dead if c not in held)


def solve_spots(hands: Sequence[CardsLike], way: WayLike = DEFAULT_WAY,
                rules: Rules | None = None, *, dead: CardsLike | None = None,
                dealer: CardsLike | None = None) -> SpotsSolution:
    """Solve 2 to 6 spots of one player who sees all their hands.

    Each spot's best setting is counted over the dealer hands consistent with everything seen
    (the other spots' cards are dead), and beside it the setting best for its hand alone
    (seeing only ``dead`` and ``dealer``), valued over the same hands.

    Parameters
    ----------
    hands : sequence of CardsLike
        The spots' seven-card hands, 2 to 6 of them, no card in two.
    way : WayLike, default "standard"
        The dealer's house way: a :class:`asiapoker.HouseWay` or a built-in way's name.
    rules : Rules, optional
        The rule options (A-2-3-4's place, the payout); default ``Rules()``.
    dead : CardsLike, optional
        Cards known not to be in the dealer's hand (another spot's hand, cards exposed or
        burned).
    dealer : CardsLike, optional
        Cards known to be in the dealer's hand (a dealer card exposed).

    Returns
    -------
    SpotsSolution
        Per spot: the best setting, the alone-best setting and their wins; the way and rules.

    Raises
    ------
    OptionError
        Fewer than 2 or more than 6 hands.
    KnownCardError
        A card in two spots, or known cards that cannot be.
    CardError
        A hand holds something that is not a card.
    HandSizeError
        A hand does not have seven cards.
    HouseWayError
        ``way`` is not a house way.
    RuleError
        ``rules`` is not a :class:`asiapoker.Rules`.
    """
    w, r = resolve_way(way), resolve(rules)
    try:                                    # read once, whole: an iterator is taken in full
        given = None if isinstance(hands, str) else list(hands)
    except TypeError:
        given = None
    if given is None or not 2 <= len(given) <= 6:
        got = (f"{len(given)} hand{'s' * (len(given) != 1)}" if given is not None
               else repr(hands))
        raise OptionError(f"two spots or more are solved together: give 2 to 6 seven-card "
                          f"hands (one a spot), got {got}"[:300])
    ids = [to_ids(h, 7, what=f"spot {i + 1}'s seven-card hand") for i, h in enumerate(given)]
    seen: dict[int, int] = {}
    for i, spot in enumerate(ids):
        for c in spot:
            if c in seen:
                raise KnownCardError(f"spot {i + 1}: {card_of(c)} is also in spot {seen[c] + 1}")
            seen[c] = i
    extra = () if dead is None else to_ids(dead, what="list")
    shown = None if dealer is None else to_ids(dealer, what="list")
    for c in extra:
        if c in seen:
            raise KnownCardError(f"dead card {card_of(c)} is in spot {seen[c] + 1}")
    spots, alone = [], []
    for i, spot in enumerate(ids):
        others = [c for j, s in enumerate(ids) if j != i for c in s]
        sol = solve(spot, w, r, dead=[*others, *extra], dealer=shown)
        by_self = solve(spot, w, r, dead=extra or None, dealer=shown).best.index
        spots.append(sol)
        alone.append(next(x for x in sol.settings if x.index == by_self))
    return SpotsSolution(tuple(spots), tuple(alone))
