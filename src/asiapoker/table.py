"""The table (rule 3, 4, 6; NY 5324.40(c)-(g); NJ 13:69F-31.12): the regulation round engine.

Positions are numbered 1 to 7 clockwise: position 1 is the dealer, seat ``k`` (1-6) is position
``k + 1``, so seat 1 sits at the dealer's left and seat 6 at the dealer's right.  Cards are dealt
clockwise from the starting position; hands are exposed, settled and paid from the dealer's
right counter-clockwise (seat 6 first).

>>> table = Table(seed=1)
>>> result = table.play_round([Wager(seat=2, amount=10, bonus=5)])
>>> len(result.leftover), sorted(p.position for p in result.positions)
(4, [1, 2, 3, 4, 5, 6, 7])
>>> result.house_net + sum(result.seat_nets().values())
Decimal('0.00')
>>> table.play_round([Wager(seat=3, amount=0, bonus=5)])
Traceback (most recent call last):
...
asiapoker.errors.WagerError: seat 3: a bonus wager needs an Asia poker wager beside it
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Context, Decimal, localcontext
from typing import Any, Literal, TypeAlias

import numpy as np

from ._validate import call_user, whole_number
from .bonus import PayTable, TableLike, bonus_hand
from .cards import Card, card_of
from .errors import AsiaPokerError, IllegalSettingError, OptionError, WagerError
from .house_way import DEFAULT_WAY, WayLike, resolve_way
from .optimal import shipped_table
from .rules import Rules, resolve
from .setting import Setting, setting_of, setting_of_split, settle

__all__ = [
    "SURRENDER",
    "PositionRecord",
    "RoundResult",
    "Strategy",
    "Table",
    "Wager",
]


class _Surrender:
    """What a strategy returns to surrender before its hands are exposed (rule 3.5)."""

    _instance: _Surrender | None = None

    def __new__(cls) -> _Surrender:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "SURRENDER"


SURRENDER = _Surrender()

Strategy: TypeAlias = Literal["house-way", "optimal"] | Callable[[tuple[Card, ...]], Any]
"""How a seat sets its hands: ``"house-way"``, ``"optimal"``, or a function from the seven
cards to a setting (anything :meth:`Setting.coerce` reads, or ``SURRENDER``)."""
CENT = Decimal("0.01")
MAX_AMOUNT = Decimal(10**15)
"""The largest wager (or payout limit) a table takes: money is settled exactly in cents, and
every product and sum of a round stays far inside the precision it is computed with."""
MAX_PAYOUT = Decimal(10**24)
"""The largest bonus payout a wager may be able to reach (wager times the table's top odds)."""
_EXACT = Context(prec=60)            # exact for every amount the checks let through


def _money(value: Any, what: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal, str)):
        raise WagerError(f"{what} must be a number, got {value!r}")
    try:
        amount = Decimal(str(value))
        if not amount.is_finite() or amount < 0:
            raise WagerError(f"{what} must be a finite amount >= 0, got {value!r}")
        if amount > MAX_AMOUNT:
            raise WagerError(f"{what} must be at most {MAX_AMOUNT:,.2f}, got {value!r}")
        with localcontext(_EXACT):
            if amount != amount.quantize(CENT):
                raise WagerError(f"{what} must be in whole cents, got {value!r}")
            return amount.quantize(CENT)
    except ArithmeticError:             # not a number
        raise WagerError(f"{what} must be an amount in whole cents, got {value!r}") from None


@dataclass(frozen=True, slots=True)
class Wager:
    """One betting area: ``seat`` 1-6, the Asia poker wager ``amount``, an optional ``bonus``
    beside it, the ``player`` who holds it (to play two adjacent areas) and the ``strategy``
    that sets its hands (default: the table's)."""

    seat: int
    amount: Any
    bonus: Any = 0
    player: str | None = None
    strategy: Strategy | None = None


@dataclass(frozen=True, slots=True)
class PositionRecord:
    """Everything that happened at one position in a round."""

    position: int
    """The position, 1 (the dealer) to 7."""
    seat: int | None
    """The seat at it, None for the dealer."""
    stack: int
    """Which dealt stack (1-7) it received."""
    cards: tuple[str, ...]
    """Its seven cards."""
    wagered: bool
    """Whether anyone played the position."""
    player: str | None = None
    """Who played it, if anyone."""
    strategy: str | None = None
    """How its hands were set (``"house-way"``, ``"optimal"`` or a function's name)."""
    surrendered: bool = False
    """Whether the hand was surrendered."""
    setting: str | None = None
    """The setting played."""
    hands: tuple[str, str, str] | None = None
    """The (high, medium, low) comparisons with the dealer: ``"win"``, ``"lose"`` or
    ``"copy"``."""
    result: str | None = None
    """``"win"``, ``"lose"``, ``"foul"`` or ``"surrender"``."""
    amount: Decimal = Decimal("0.00")
    """The main wager."""
    main_net: Decimal = Decimal("0.00")
    """What the main wager won (negative: lost)."""
    bonus: Decimal = Decimal("0.00")
    """The bonus wager."""
    bonus_category: str | None = None
    """The bonus category the hand paid, if any."""
    bonus_net: Decimal = Decimal("0.00")
    """What the bonus wager won (negative: lost)."""

    @property
    def net(self) -> Decimal:
        """What the position won (+) or lost (-) on both wagers."""
        with localcontext(_EXACT):
            return self.main_net + self.bonus_net


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A whole round, enough to reconstruct it for a dispute (NJ 31.12(j)); ``to_json()``."""

    round: int
    """The round's number at the table, from 1."""
    dealing: str
    """How the cards were dealt."""
    deck: tuple[str, ...]
    """The shuffled deck, in the order it was dealt."""
    dice: tuple[int, int, int] | None
    """The three dice, when they chose the start."""
    start_position: int
    """The position the deal started from."""
    positions: tuple[PositionRecord, ...]
    """Every position's record, by position, the dealer first."""
    leftover: tuple[str, ...]
    """The cards not dealt."""
    dealer_setting: str
    """The dealer's setting."""
    set_order: tuple[int, ...]
    """Seats, in the order their hands were set."""
    settle_order: tuple[int, ...]
    """Seats, in the order they were settled."""
    way: str
    """The dealer's house way."""
    rules: Rules
    """The rule options."""
    bonus_table: str
    """The bonus pay table."""
    payout_limit: Decimal | None
    """The most a round paid one player, if limited."""
    house_net: Decimal = field(default=Decimal("0.00"))
    """What the house won in the round (negative: lost)."""

    def seat(self, seat: int) -> PositionRecord:
        """The record of seat ``seat``."""
        return self.positions[seat]

    def seat_nets(self) -> dict[int, Decimal]:
        """Net result of each wagered seat."""
        return {p.seat: p.net for p in self.positions if p.seat is not None and p.wagered}

    def player_nets(self) -> dict[str, Decimal]:
        """Net result of each named player (both areas together)."""
        out: dict[str, Decimal] = {}
        with localcontext(_EXACT):
            for p in self.positions:
                if p.player is not None:
                    out[p.player] = out.get(p.player, Decimal("0.00")) + p.net
        return out

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (money as strings)."""
        def plain(v: Any) -> Any:
            if isinstance(v, Decimal):
                return str(v)
            if isinstance(v, Rules):
                return v.to_dict()
            if isinstance(v, tuple):
                return [plain(x) for x in v]
            if isinstance(v, PositionRecord):
                return {k: plain(getattr(v, k)) for k in v.__slots__}
            return v
        return {k: plain(getattr(self, k)) for k in self.__slots__}

    def to_json(self) -> str:
        """The round as JSON."""
        return json.dumps(self.to_dict(), indent=2)


class Table:
    """An Asia Poker table that plays regulation rounds, for simulators that embed the game.

    Parameters
    ----------
    seats : int, default 6
        Player positions at the table, 1 to 6 (the dealer is a seventh).
    way : WayLike, default "standard"
        The dealer's house way: a :class:`asiapoker.HouseWay` or a built-in way's name.
    rules : Rules, optional
        The rule options (A-2-3-4's place, the payout); default ``Rules()``.
    bonus_table : TableLike, default "A"
        The bonus bet's pay table.
    payout_limit : amount, optional
        The most a round pays one player (in whole cents: a ``Decimal``, int or text); no
        limit by default.
    dealing : {"shoe", "hand", "auto-shoe"}, default "shoe"
        ``"shoe"``: one card at a time from the starting position; ``"hand"``: seven stacks
        dealt left to right, then right to left, ...; ``"auto-shoe"``: stacks of seven.
    seed : int, optional
        Seeds the table's random source, when ``rng`` is not given.
    rng : numpy.random.Generator, optional
        The random source itself.
    start : {"dice", "random"}, default "dice"
        ``"dice"``: three dice counted from the dealer as position one; ``"random"``: 1-7.
    strategy : Strategy, default "house-way"
        How players set their hands unless a wager names its own.  With ``"optimal"``, a
        player on two adjacent areas sets each hand seeing both (the other area's cards are
        dead: :func:`asiapoker.spots.solve_spots`); on one area, from the shipped optimal-play
        table when there is one for the way and rules.

    Raises
    ------
    OptionError
        ``seats``, ``dealing``, ``start``, ``rng`` or ``seed`` is not one the table takes.
    WagerError
        ``strategy`` or ``payout_limit`` is not one the table takes.
    BonusError
        ``bonus_table`` is not a pay table.
    HouseWayError
        ``way`` is not a house way.
    RuleError
        ``rules`` is not a :class:`asiapoker.Rules`.
    """

    def __init__(self, seats: int = 6, way: WayLike = DEFAULT_WAY, rules: Rules | None = None,
                 bonus_table: TableLike = "A", payout_limit: Any = None,
                 dealing: Literal["shoe", "hand", "auto-shoe"] = "shoe",
                 seed: int | None = None, rng: np.random.Generator | None = None,
                 start: Literal["dice", "random"] = "dice",
                 strategy: Strategy = "house-way") -> None:
        whole_number(seats, "seats", 1, 6, error=OptionError)
        if dealing not in ("shoe", "hand", "auto-shoe"):
            raise OptionError(f"dealing must be 'shoe', 'hand' or 'auto-shoe', got {dealing!r}")
        if start not in ("dice", "random"):
            raise OptionError(f"start must be 'dice' or 'random', got {start!r}")
        if rng is not None and not isinstance(rng, np.random.Generator):
            raise OptionError(f"rng must be a numpy Generator, got {rng!r}")
        if seed is not None:
            whole_number(seed, "seed", 0, error=OptionError)
        self.seats = seats
        self.way = resolve_way(way)
        self.rules = resolve(rules)
        self.bonus_table = PayTable.named(bonus_table)
        self.payout_limit = None if payout_limit is None else _money(payout_limit,
                                                                     "payout_limit")
        self.dealing = dealing
        self.start = start
        self.strategy = _check_strategy(strategy, "strategy")
        self.rng = rng if rng is not None else np.random.default_rng(seed)
        self.rounds_played = 0

    # -- wagers ---------------------------------------------------------------------------
    def _wagers(self, wagers: Iterable[Wager] | Mapping[int, Any]) -> dict[int, Wager]:
        items: list[Wager] = []
        if isinstance(wagers, Mapping):
            for seat, spec in wagers.items():
                if isinstance(spec, Wager):
                    if spec.seat != seat:
                        raise WagerError(f"wagers[{seat!r}] is a wager on seat {spec.seat!r}: "
                                         f"a dict's key is the seat its wager is on")
                    items.append(spec)
                elif isinstance(spec, tuple):
                    items.append(Wager(seat, *spec))
                else:
                    items.append(Wager(seat, spec))
        elif isinstance(wagers, (str, bytes, Wager)) or not isinstance(wagers, Iterable):
            raise WagerError(f"wagers must be Wager(seat, amount, bonus) objects (a list) or a "
                             f"dict of seat: amount, got {wagers!r}"[:300])
        else:
            items = list(wagers)
        out: dict[int, Wager] = {}
        for w in items:
            if not isinstance(w, Wager):
                raise WagerError(f"a wager is a Wager(seat, amount, bonus), got {w!r}")
            whole_number(w.seat, f"wager on seat {w.seat!r}: the seat", 1, self.seats,
                         error=WagerError)
            if w.seat in out:
                raise WagerError(f"seat {w.seat}: two wagers on one area")
            if w.player is not None and not isinstance(w.player, str):
                raise WagerError(f"seat {w.seat}: the player must be a name (text) or None, got "
                                 f"{w.player!r}"[:300])
            amount = _money(w.amount, f"seat {w.seat}: the wager")
            bonus = _money(w.bonus, f"seat {w.seat}: the bonus wager")
            if bonus * max(self.bonus_table.pays.values()) > MAX_PAYOUT:
                raise WagerError(f"seat {w.seat}: the bonus wager {bonus} at the table's top "
                                 f"odds would pay more than {MAX_PAYOUT:,.0f}")
            if amount == 0:
                if bonus > 0:
                    raise WagerError(f"seat {w.seat}: a bonus wager needs an Asia poker "
                                     "wager beside it")
                raise WagerError(f"seat {w.seat}: the wager must be more than 0")
            strategy = None if w.strategy is None else _check_strategy(
                w.strategy, f"seat {w.seat}: strategy")
            out[w.seat] = Wager(w.seat, amount, bonus, w.player, strategy)
        players: dict[str, list[int]] = {}
        for w in out.values():
            if w.player is not None:
                players.setdefault(w.player, []).append(w.seat)
        for name, seats in players.items():
            if len(seats) > 2:
                raise WagerError(f"player {name!r} wagers on {len(seats)} areas; at most two")
            if len(seats) == 2 and abs(seats[0] - seats[1]) != 1:
                raise WagerError(f"player {name!r} wagers on seats {sorted(seats)}, which are "
                                 "not adjacent")
        return out

    # -- dealing --------------------------------------------------------------------------
    def _start(self) -> tuple[tuple[int, int, int] | None, int]:
        if self.start == "random":
            return None, int(self.rng.integers(1, 8))
        dice = tuple(int(d) for d in self.rng.integers(1, 7, size=3))
        return (dice[0], dice[1], dice[2]), (sum(dice) - 1) % 7 + 1

    def _deal(self, deck: list[int]) -> tuple[
            dict[int, tuple[int, list[int]]], list[int], tuple[int, int, int] | None, int]:
        """Cards of each position (with its stack number), the leftover, dice and start."""
        stacks: list[list[int]] = [[] for _ in range(7)]
        if self.dealing == "shoe":
            dice, start = self._start()
            for i, card in enumerate(deck[:49]):
                stacks[i % 7].append(card)       # stack j goes to start + j, clockwise
        elif self.dealing == "hand":
            for i, card in enumerate(deck[:49]):
                j = i % 7
                stacks[j if (i // 7) % 2 == 0 else 6 - j].append(card)
            dice, start = self._start()
        else:
            for s in range(7):
                stacks[s] = deck[7 * s: 7 * s + 7]
            dice, start = self._start()
        leftover = deck[49:]
        if len(leftover) != 4 or any(len(s) != 7 for s in stacks):  # pragma: no cover
            raise AsiaPokerError("the deal did not leave exactly four cards")
        positions = {(start - 1 + s) % 7 + 1: (s + 1, stacks[s]) for s in range(7)}
        return positions, leftover, dice, start

    # -- a round --------------------------------------------------------------------------
    def play_round(self, wagers: Iterable[Wager] | Mapping[int, Any]) -> RoundResult:
        """Play one round: shuffle, deal, set, settle and pay.  On any error nothing changes:
        the random source is as it was and no chips move.

        Parameters
        ----------
        wagers : iterable of Wager, or mapping of int to amount
            The round's wagers: ``Wager(seat, amount, bonus)`` objects, or a dict of
            ``{seat: amount}`` (or ``{seat: (amount, bonus)}``, or ``{seat: Wager}``).

        Returns
        -------
        RoundResult
            Every position's cards, setting, result and payouts, the dealer's setting, and the
            house's net.

        Raises
        ------
        WagerError
            A wager the table cannot take (no such position, a bonus alone, non-adjacent areas,
            more than it allows).
        StrategyError
            A strategy function raised or returned something that is not a setting.
        """
        checked = self._wagers(wagers)
        saved = self.rng.bit_generator.state
        try:
            with localcontext(_EXACT):
                result = self._play(checked)
        except BaseException:
            self.rng.bit_generator.state = saved
            raise
        self.rounds_played += 1
        return result

    def _play(self, wagers: dict[int, Wager]) -> RoundResult:
        deck = [int(c) for c in self.rng.permutation(53)]
        positions, leftover, dice, start = self._deal(deck)
        settle_order = tuple(s for s in range(self.seats, 0, -1) if s in wagers)
        set_order = _set_order(wagers, settle_order)
        settings: dict[int, Setting | _Surrender] = {}
        strategy_names: dict[int, str] = {}
        for seat in set_order:
            strategy = wagers[seat].strategy or self.strategy
            strategy_names[seat] = strategy if isinstance(strategy, str) else getattr(
                strategy, "__name__", "custom")
            partner = [s for s in wagers if s != seat and wagers[seat].player is not None
                       and wagers[s].player == wagers[seat].player]
            seen = [c for s in partner for c in positions[s + 1][1]]
            settings[seat] = self._set(seat, positions[seat + 1][1], strategy, seen)
        dealer_cards = positions[1][1]
        dealer = self.way.set(dealer_cards, self.rules)
        records: dict[int, PositionRecord] = {}
        house = Decimal("0.00")
        for seat in settle_order:
            rec, net = self._settle(seat, wagers[seat], positions[seat + 1],
                                    settings[seat], strategy_names[seat], dealer)
            records[seat + 1] = rec
            house -= net
        for pos in range(1, 8):
            if pos not in records:
                stack, cards = positions[pos]
                records[pos] = PositionRecord(pos, None if pos == 1 else pos - 1, stack,
                                              tuple(_text(cards)),
                                              wagered=False, setting=str(dealer)
                                              if pos == 1 else None)
        return RoundResult(
            round=self.rounds_played + 1, dealing=self.dealing, deck=tuple(_text(deck)),
            dice=dice, start_position=start,
            positions=tuple(records[p] for p in range(1, 8)), leftover=tuple(_text(leftover)),
            dealer_setting=str(dealer), set_order=set_order, settle_order=settle_order,
            way=self.way.name, rules=self.rules, bonus_table=self.bonus_table.name,
            payout_limit=self.payout_limit, house_net=house,
        )

    def _set(self, seat: int, cards: list[int], strategy: Strategy,
             seen: list[int]) -> Setting | _Surrender:
        """The setting of ``seat``'s hand; ``seen``: the player's other area's cards."""
        if strategy == "house-way":
            return self.way.set(cards, self.rules)
        if strategy == "optimal":
            if not seen:         # one spot: the shipped optimal-play table, when there is one
                found = shipped_table(self.way, self.rules)
                if found is not None:
                    ids = np.array([cards], dtype=np.int8)
                    return setting_of_split(cards, int(found.best_splits(ids)[0]))
            from .solver import solve
            return solve(cards, self.way, self.rules, dead=seen or None).best.setting
        assert callable(strategy)
        hand = tuple(card_of(c) for c in cards)
        name = getattr(strategy, "__name__", "custom")
        answer = call_user(strategy, f"seat {seat}: the strategy {name!r}", hand)
        if isinstance(answer, _Surrender):
            return answer
        setting = setting_of(answer, cards, f"seat {seat}: the strategy")
        h, m, lo = setting.strengths(self.rules)
        if not h > m > lo:
            raise IllegalSettingError(f"seat {seat}: the strategy set {setting}, which is not "
                                      f"legal (high > medium > low)")
        return setting

    def _settle(self, seat: int, wager: Wager, dealt: tuple[int, list[int]],
                setting: Setting | _Surrender, strategy: str,
                dealer: Setting) -> tuple[PositionRecord, Decimal]:
        stack, cards = dealt
        amount, bonus = Decimal(wager.amount), Decimal(wager.bonus)
        common: dict[str, Any] = {"position": seat + 1, "seat": seat, "stack": stack,
                                  "cards": tuple(_text(cards)), "wagered": True,
                                  "player": wager.player, "strategy": strategy,
                                  "amount": amount, "bonus": bonus}
        if isinstance(setting, _Surrender):      # rule 3.5: the bonus cannot be shown either
            rec = PositionRecord(**common, surrendered=True, result="surrender",
                                 main_net=-amount, bonus_net=-bonus)
            return rec, rec.net
        out = settle(setting, dealer, self.rules)
        main = (amount * Decimal(str(self.rules.pays))).quantize(CENT, ROUND_DOWN) \
            if out.result == "win" else -amount
        category, bonus_net = None, Decimal("0.00")
        if bonus > 0:
            category = bonus_hand(cards, self.bonus_table)
            odds = self.bonus_table.pay(category)
            bonus_net = bonus * odds if odds > 0 else -bonus
            if self.payout_limit is not None:
                bonus_net = min(bonus_net, self.payout_limit)
        rec = PositionRecord(**common, setting=str(setting), hands=out.hands,
                             result=out.result, main_net=main, bonus_category=category,
                             bonus_net=bonus_net)
        return rec, rec.net


def _text(ids: Iterable[int]) -> list[str]:
    return [str(card_of(c)) for c in ids]


def _check_strategy(strategy: Any, what: str) -> Strategy:
    if callable(strategy) or (isinstance(strategy, str) and strategy in ("house-way",
                                                                         "optimal")):
        return strategy  # type: ignore[no-any-return]
    raise WagerError(f"{what} must be 'house-way', 'optimal' or a function, got {strategy!r}")


def _set_order(wagers: dict[int, Wager], settle_order: tuple[int, ...]) -> tuple[int, ...]:
    """Seats in the order hands are set: from the dealer's right; a player with two areas sets
    the larger wager first (equal: counter-clockwise, the higher seat first)."""
    order: list[int] = []
    for seat in settle_order:
        if seat in order:
            continue
        player = wagers[seat].player
        pair = [s for s in settle_order if player is not None and wagers[s].player == player]
        if len(pair) == 2:
            pair.sort(key=lambda s: (-Decimal(wagers[s].amount), -s))
            order.extend(pair)
        else:
            order.append(seat)
    return tuple(order)


# --------------------------------------------------------------------------------------------
# fast simulation
# --------------------------------------------------------------------------------------------
