"""Estimates from random hands: each hand solved exactly, the mean over the sample with a 95 %
confidence interval.

:func:`exploitability` (rule 5.6 a) solves ``hands`` random seven-card hands exactly against
the way and reports:

- ``gain``: what optimal play gains over copying the house way, per unit wagered;
- ``house_edge_house_way``: the house edge when the player copies the way (house way against
  house way);
- ``house_edge_optimal``: the house edge when the player sets every hand optimally.

Every hand's figure is an exact integer count; only the mean over the sample is an estimate.
The same ``seed`` deals the same hands, so two ways measured with one seed are compared on the
same hands.

>>> exploitability("classic", hands=0)
Traceback (most recent call last):
...
asiapoker.errors.OptionError: hands must be 2 to 10000000, got 0
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from ._validate import MAX_HANDS, whole_number
from .house_way import DEFAULT_WAY, WayLike, resolve_way
from .rules import Rules, resolve
from .solver import DEALER_HANDS, solve_many

__all__ = ["Z95", "Estimate", "Exploitability", "exploitability", "random_hands"]

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """A sample mean with its standard error; ``exact`` is the sample mean as a fraction."""

    exact: Fraction
    se: float
    """Its standard error."""

    @property
    def mean(self) -> float:
        """The sample mean."""
        return float(self.exact)

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95 % confidence interval (normal approximation)."""
        return (self.mean - Z95 * self.se, self.mean + Z95 * self.se)

    def __str__(self) -> str:
        lo, hi = self.ci95
        return f"{self.mean:+.4%} (95% CI {lo:+.4%} to {hi:+.4%})"


def _estimate(units: npt.NDArray[Any], scale: int) -> Estimate:
    """Mean and standard error of ``units / scale`` (Python integers, so the mean is exact
    whatever their size)."""
    n = len(units)
    mean = Fraction(int(units.sum()), n * scale)
    x = units.astype(np.float64) / scale
    return Estimate(mean, float(x.std(ddof=1) / math.sqrt(n)))


@dataclass(frozen=True, slots=True)
class Exploitability:
    """Exploitability and house edges of a way, from ``hands`` random hands (``seed``)."""

    way: str
    """The house way."""
    rules: Rules
    """The rule options."""
    hands: int
    seed: int
    gain: Estimate
    """What optimal play gains per hand over copying the way: the way's exploitability."""
    house_edge_house_way: Estimate
    """The house edge against house-way play."""
    house_edge_optimal: Estimate
    """The house edge against optimal play."""

    def describe(self) -> str:
        """What the figures depend on."""
        return (f"house way {self.way}; {self.rules.describe()}; {self.hands:,} random hands, "
                f"seed {self.seed}")

    def __str__(self) -> str:
        return (f"optimal play gains {self.gain}\n"
                f"house edge, player copies the way: {self.house_edge_house_way}\n"
                f"house edge, player sets optimally: {self.house_edge_optimal}\n"
                f"({self.describe()})")


def random_hands(n: int, seed: int) -> npt.NDArray[np.int8]:
    """``n`` uniformly random seven-card hands from the 53 cards (rows of sorted ids).

    Parameters
    ----------
    n : int
        How many hands (at least 2).
    seed : int
        The seed of numpy's default generator.

    Raises
    ------
    OptionError
        ``n`` is not a whole number >= 2.
    """
    rng = np.random.default_rng(seed)
    out = np.empty((n, 7), dtype=np.int8)
    for lo in range(0, n, 1 << 16):
        k = min(1 << 16, n - lo)
        out[lo:lo + k] = np.sort(np.argsort(rng.random((k, 53)), axis=1)[:, :7], axis=1)
    return out


def exploitability(way: WayLike = DEFAULT_WAY, rules: Rules | None = None, *, hands: int = 20_000,
                   seed: int = 0, workers: int | None = None) -> Exploitability:
    """Exploitability of ``way`` and both house edges, from ``hands`` random hands solved
    exactly (about 0.4 ms a hand on two cores).

    Parameters
    ----------
    way : WayLike, default "standard"
        The house way.
    rules : Rules, optional
        The rule options; default ``Rules()``.
    hands : int, default 20000
        Random hands to solve, 2 to 10^7.
    seed : int, default 0
        Their seed.
    workers : int, optional
        Threads (default: all cores).

    Returns
    -------
    Exploitability
        What a best response gains over the house way, and both house edges, with standard
        errors.

    Raises
    ------
    OptionError
        ``hands`` is not a whole number >= 2, or a bad ``workers``.
    HouseWayError
        ``way`` is not a house way.
    """
    whole_number(hands, "hands", 2, MAX_HANDS)
    whole_number(seed, "seed", 0)
    r = resolve(rules)
    w = resolve_way(way)
    rows = random_hands(hands, seed)
    b = solve_many(rows, w, r, workers=workers)
    # per hand, in units of 1 / (DEALER_HANDS * den), as Python integers: exact for any pays
    # (a float pays is the fraction it is, whose numerator can be near 2**53)
    pays = Fraction(r.pays)
    num, den = pays.numerator, pays.denominator
    best, hw = b.best_wins.astype(object), b.house_way_wins.astype(object)
    scale = DEALER_HANDS * den
    # ev = (wins * pays - (N - wins)) / N = (wins * (num + den) - N * den) / (N * den)
    ev_best = best * (num + den) - DEALER_HANDS * den
    ev_hw = hw * (num + den) - DEALER_HANDS * den
    return Exploitability(
        w.name, r, hands, seed,
        gain=_estimate(ev_best - ev_hw, scale),
        house_edge_house_way=_estimate(-ev_hw, scale),
        house_edge_optimal=_estimate(-ev_best, scale),
    )
