"""Fast simulation of many rounds (house way or optimal play against the house way): blocks of
independently seeded, uniformly shuffled decks dealt in stacks, settled in arrays.  The
regulation round engine, card by card, is :mod:`asiapoker.table`.

>>> sim = simulate(20_000, seats=2, way="classic", seed=3, workers=1)
>>> sim.hands, sim.describe()
(40000, 'house way classic; player house-way; a234=high, pays=1:1')
>>> simulate(0)
Traceback (most recent call last):
...
asiapoker.errors.OptionError: rounds must be 1 to 10000000000, got 0
"""

from __future__ import annotations

import collections
import math
import os
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from . import _core
from ._progress import Progress
from ._validate import MAX_ROUNDS, call_user, index_array, run_kernel, whole_number, workers_count
from .bonus import PayTable, TableLike
from .errors import OptimalTableError, OptionError, StrategyError
from .house_way import DEFAULT_WAY, HouseWay, WayLike, resolve_way
from .optimal import OptimalTable, OptimalTableLike, resolve_table
from .rules import Rules, resolve
from .setting import chosen_strengths
from .solver import DEALER_HANDS, dealer_model, solve_many

__all__ = ["BLOCK", "BatchStrategy", "SimResult", "simulate"]

BLOCK = 8192          # rounds per independently seeded block


@dataclass(frozen=True, slots=True)
class SimResult:
    """Counts from :func:`simulate`; every rate is per player hand (one unit wagered)."""

    rounds: int
    """Rounds played."""
    seats: int
    """Players a round."""
    way: str
    """The dealer's house way."""
    player: str
    """How the players set (``"house-way"``, ``"optimal"`` or the strategy's name)."""
    rules: Rules
    """The rule options played under."""
    seed: int
    """The shuffle's seed."""
    wins: tuple[int, ...]
    """Wagers won, per seat."""
    losses: tuple[int, ...]
    """Wagers lost (fouls included), per seat."""
    fouls: tuple[int, ...]
    """Fouled settings, per seat."""
    round_wins: tuple[int, ...]
    """Rounds in which k seats won, k = 0..seats."""
    bonus_table: str | None
    """The bonus pay table played, if any."""
    bonus_counts: dict[str, int]
    """Bonus hands per paid category (or ``"loses"``), over all seats."""
    bonus_ev: float | None
    """The bonus bet's mean result per hand, if played."""
    elapsed: float
    """Seconds the simulation took."""
    two_spots: bool = False
    """Whether seats 1-2, 3-4 and 5-6 were each one player seeing both hands."""
    table: str | None = None
    """The optimal-play table the players read, if any."""
    dealt_best_wins: int | None = None
    """The best splits' exact wins summed over the hands dealt, when the table holds wins."""
                                          # dealt (from a table that holds wins)

    @property
    def hands(self) -> int:
        """Player hands played."""
        return self.rounds * self.seats

    @property
    def pooled(self) -> dict[str, int]:
        """Win, loss and foul counts over all seats."""
        return {"wins": sum(self.wins), "losses": sum(self.losses), "fouls": sum(self.fouls)}

    @property
    def house_edge(self) -> float:
        """What the house keeps per unit wagered on the Asia poker wager (pooled)."""
        wins = sum(self.wins)
        return -(wins * self.rules.pays - (self.hands - wins)) / self.hands

    @property
    def confidence_interval(self) -> tuple[float, float]:
        """95% interval of the house edge, from the spread of whole rounds (the seats of one
        round share the dealer, so they are not independent)."""
        k = np.arange(self.seats + 1)
        n = np.array(self.round_wins, dtype=float)
        per_round = -(k * (self.rules.pays + 1) - self.seats)      # house take per round
        mean = float((n * per_round).sum() / self.rounds)
        var = float((n * (per_round - mean) ** 2).sum() / max(self.rounds - 1, 1))
        half = 1.96 * math.sqrt(var / self.rounds) / self.seats
        return self.house_edge - half, self.house_edge + half

    @property
    def dealt_ev(self) -> float | None:
        """The exact mean expected value of optimal play over the hands dealt (each hand's
        exact ev, averaged; not sampled), when the table read holds wins; beside
        ``-house_edge`` it shows how far the sample's luck ran."""
        if self.dealt_best_wins is None:
            return None
        return float((self.rules.pays + 1) * self.dealt_best_wins
                     / (self.hands * DEALER_HANDS) - 1)

    @property
    def rounds_per_s(self) -> float:
        """Rounds simulated per second."""
        return self.rounds / self.elapsed if self.elapsed else float("inf")

    def describe(self) -> str:
        """The house way, player strategy and rule options the result depends on."""
        return (f"house way {self.way}; player {self.player}"
                + (" on two spots, seeing both hands" if self.two_spots else "")
                + (" (read from an optimal-play table)" if self.table else "")
                + f"; {self.rules.describe()}"
                + (f"; bonus table {self.bonus_table}" if self.bonus_table else ""))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        lo, hi = self.confidence_interval
        return {"rounds": self.rounds, "seats": self.seats, "hands": self.hands,
                "way": self.way, "player": self.player, "two_spots": self.two_spots,
                "rules": self.rules.to_dict(), "seed": self.seed,
                "wins": list(self.wins), "losses": list(self.losses), "fouls": list(self.fouls),
                "pooled": self.pooled,
                "house_edge": self.house_edge, "confidence_interval": [lo, hi],
                "bonus_table": self.bonus_table, "bonus_counts": self.bonus_counts,
                "bonus_ev": self.bonus_ev, "elapsed_s": self.elapsed,
                "rounds_per_s": self.rounds_per_s, "table": self.table,
                "dealt_ev": self.dealt_ev}


BatchStrategy: TypeAlias = Callable[[npt.NDArray[np.int8]], Any]
"""A player that sets many hands at once: a function of an n x 7 int8 array of hands that
returns n split indices (positions in :data:`asiapoker.SPLIT_POSITIONS` of each row)."""


def strategy_splits(strategy: BatchStrategy, rows: npt.NDArray[np.int8]) -> npt.NDArray[np.intp]:
    """A batch strategy's split of every row (index into SPLIT_POSITIONS of the row), each
    checked; the strategy's own exceptions become a StrategyError naming it."""
    name = getattr(strategy, "__name__", "strategy")
    splits = call_user(strategy, f"player strategy {name!r}", rows.copy())
    return index_array(splits, len(rows), f"the splits of player strategy {name!r}", 105,
                       StrategyError)


def _block(b: int, rounds: int, seats: int, seed: int, way: HouseWay, rules: Rules,
           player_by: str | BatchStrategy, bonus: bool, two_spots: bool = False,
           table: OptimalTable | None = None) -> tuple[npt.NDArray[np.int64], ...]:
    """Win and foul counts per seat, the round histogram, the bonus mask histogram and the
    best splits' summed wins (from ``table``, when it holds them) of one block."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(b,)))
    decks = np.tile(np.arange(53, dtype=np.int8), (rounds, 1))
    rng.permuted(decks, axis=1, out=decks)
    hands = np.ascontiguousarray(decks[:, : 7 * (seats + 1)].reshape(rounds * (seats + 1), 7))
    dealer_rows = hands[:: seats + 1]
    player_rows = np.ascontiguousarray(
        hands.reshape(rounds, seats + 1, 7)[:, 1:].reshape(rounds * seats, 7))
    dealer = way.strengths(dealer_rows, rules)
    best_wins = np.zeros(1, dtype=np.int64)
    if player_by == "optimal" and table is not None:
        best, cls = table.lookup(player_rows)
        if (best < 0).any():
            raise OptimalTableError(f"the optimal-play table lacks the class of a hand dealt "
                                    f"({table.describe()})")
        if table.wins is not None:
            best_wins[0] = int(table.wins[cls].sum(dtype=np.int64))
        player = chosen_strengths(player_rows, best, rules)
    elif player_by == "optimal":
        # two spots: each seat's partner (seats 2k and 2k + 1) is seen, its cards dead
        partner = (player_rows.reshape(-1, 2, 7)[:, ::-1].reshape(-1, 7) if two_spots
                   else None)
        best = solve_many(player_rows, way, rules, workers=1, dead=partner,
                          columns="summary").best
        player = chosen_strengths(player_rows, best, rules)
    elif callable(player_by):
        player = chosen_strengths(player_rows, strategy_splits(player_by, player_rows), rules)
    else:
        player = way.strengths(player_rows, rules)
    legal = (player[:, 0] > player[:, 1]) & (player[:, 1] > player[:, 2])
    d = np.repeat(dealer, seats, axis=0)
    won = (((player > d).sum(1) >= 2) & legal).reshape(rounds, seats)
    fouls = (~legal).reshape(rounds, seats).sum(0).astype(np.int64)
    seat_wins = won.sum(0).astype(np.int64)
    round_hist = np.bincount(won.sum(1), minlength=seats + 1).astype(np.int64)
    masks = np.zeros(2048, dtype=np.int64)
    if bonus:
        out = np.empty(len(player_rows), dtype=np.int16)
        run_kernel(_core.bonus_kernel, player_rows, "hands", out)
        masks = np.bincount(out, minlength=2048).astype(np.int64)
    return seat_wins, round_hist, masks, fouls, best_wins


def simulate(rounds: int, seats: int = 6, way: WayLike = DEFAULT_WAY,
             player: Literal["house-way", "optimal"] | BatchStrategy = "house-way",
             bonus_table: TableLike | None = None, seed: int = 0,
             workers: int | None = None, rules: Rules | None = None,
             progress: bool | None = None, two_spots: bool = False,
             optimal_table: OptimalTableLike | bool | None = None) -> SimResult:
    """Simulate rounds of players, each one unit on the Asia Poker wager, against the dealer.

    The deck is shuffled uniformly and dealt in stacks (the same distribution as every
    regulation procedure).  The same seed gives the same result for any number of
    ``workers``.

    Parameters
    ----------
    rounds : int
        Rounds to play, 1 to 10^10 (about seven hours on two cores).
    seats : int, default 6
        Players at the table, 1 to 6.
    way : WayLike, default "standard"
        The dealer's house way.
    player : {"house-way", "optimal"} or BatchStrategy, default "house-way"
        How the players set: by the house way, by the exact best setting (``"optimal"``), or
        by a batch strategy (an illegal split is a foul, counted in ``fouls``).
    bonus_table : TableLike, optional
        A bonus pay table: each seat also plays one unit on the bonus bet.
    seed : int, default 0
        The shuffle's seed.
    workers : int, optional
        Threads (default: all cores).
    rules : Rules, optional
        The rule options; default ``Rules()``.
    progress : bool, optional
        A progress bar on stderr (default: when stderr is a terminal).
    two_spots : bool, default False
        With ``player="optimal"`` and an even number of seats: seats 1-2, 3-4 and 5-6 are
        each one player on two adjacent spots who sets each hand seeing both; the edge is his.
    optimal_table : OptimalTable, path or bool, optional
        Where optimal players read their settings (the same settings as solving, over a
        thousand times faster; :mod:`asiapoker.optimal`): that table or its file; None for
        the table shipped for ``way`` and ``rules``, solving when there is none; True for the
        shipped one or an error; False to solve every hand.  Two spots always solve.

    Returns
    -------
    SimResult
        The counts per seat and per round, the house edge with its confidence interval, and
        the way, rules, player and table used.

    Raises
    ------
    OptionError
        ``rounds`` or ``seats`` out of range, an unknown ``player``, ``two_spots`` with an
        odd number of seats or another player, or ``optimal_table`` for players who do not
        read one.
    OptimalTableError
        ``optimal_table`` is for another way, rules or class list, or its file is damaged;
        True with no shipped table.
    StrategyError
        A batch strategy raised or returned something other than n split indices.
    BonusError
        ``bonus_table`` is not a pay table.
    OptionError
        ``workers`` is not a whole number >= 1.
    HouseWayError
        ``way`` is not a house way.
    RuleError
        ``rules`` is not a :class:`asiapoker.Rules`.

    Examples
    --------
    >>> r = simulate(1000, seed=1)
    >>> r.rounds, r.seats, r.way, r.player
    (1000, 6, 'standard', 'house-way')
    """
    whole_number(rounds, "rounds", 1, MAX_ROUNDS, error=OptionError)
    whole_number(seats, "seats", 1, 6, error=OptionError)
    if not callable(player) and player not in ("house-way", "optimal"):
        raise OptionError(f"player must be 'house-way', 'optimal' or a batch strategy (a "
                          f"function of an n x 7 array that returns n split indices), got "
                          f"{player!r}")
    label = player if isinstance(player, str) else getattr(player, "__name__", "strategy")
    if two_spots not in (False, True):
        raise OptionError(f"two_spots must be True or False, got {two_spots!r}")
    if two_spots and (player != "optimal" or seats % 2):
        raise OptionError(f"two_spots needs player='optimal' (the only strategy that uses the "
                          f"other hand) and an even number of seats, got player {label!r} and "
                          f"{seats} seats")
    whole_number(seed, "seed", 0, error=OptionError)
    workers = workers_count(workers, OptionError)
    w, r = resolve_way(way), resolve(rules)
    pay_table = None if bonus_table is None else PayTable.named(bonus_table)
    if optimal_table not in (None, False) and (player != "optimal" or two_spots):
        raise OptionError("optimal_table is for optimal players on one spot "
                          "(player='optimal', two_spots=False)")
    lookup = (None if player != "optimal" or two_spots
              else resolve_table(optimal_table, w, r))
    nblocks = (rounds + BLOCK - 1) // BLOCK
    seat_wins = np.zeros(seats, dtype=np.int64)
    round_hist = np.zeros(seats + 1, dtype=np.int64)
    masks = np.zeros(2048, dtype=np.int64)
    seat_fouls = np.zeros(seats, dtype=np.int64)
    bar = Progress(rounds, "simulating", (progress if progress is not None
                                          else os.isatty(2)) and rounds >= 10 * BLOCK)
    t0 = time.perf_counter()
    if player == "optimal" and lookup is None:
        dealer_model(w, r)                    # build the tables once, outside the threads
    done = 0
    dealt = 0
    # at most two blocks per worker in flight: memory stays flat whatever ``rounds`` is, and an
    # interrupt waits only for the blocks already running
    pending: collections.deque[tuple[Future[Any], int]] = collections.deque()
    with ThreadPoolExecutor(workers) as pool:
        try:
            b = 0
            while b < nblocks or pending:
                while b < nblocks and len(pending) < 2 * workers:
                    n = min(BLOCK, rounds - b * BLOCK)
                    pending.append((pool.submit(_block, b, n, seats, seed, w, r, player,
                                                pay_table is not None, two_spots, lookup), n))
                    b += 1
                fut, n = pending.popleft()
                sw, rh, mk, fl, bw = fut.result()
                dealt += int(bw[0])
                seat_wins += sw
                seat_fouls += fl
                round_hist += rh
                masks += mk
                done += n
                bar.update(done)
        except BaseException:
            for fut, _ in pending:
                fut.cancel()
            raise
    elapsed = time.perf_counter() - t0
    bonus_counts: dict[str, int] = {}
    bonus_ev = None
    if pay_table is not None:
        paid = pay_table.paid_counts(masks)
        bonus_counts = {c or "loses": n for c, n in paid.items()}
        bonus_ev = float(pay_table.ev(paid))
    losses = tuple(int(rounds - x - f) for x, f in zip(seat_wins, seat_fouls, strict=True))
    return SimResult(rounds, seats, w.name, label, r, seed, tuple(int(x) for x in seat_wins),
                     losses, tuple(int(x) for x in seat_fouls), tuple(int(x) for x in round_hist),
                     None if pay_table is None else pay_table.name, bonus_counts, bonus_ev,
                     elapsed, two_spots, None if lookup is None else lookup.describe(),
                     dealt if lookup is not None and lookup.wins is not None else None)

