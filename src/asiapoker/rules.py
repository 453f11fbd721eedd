"""Rule options the regulations leave to the casino."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from .errors import RuleError

__all__ = ["MAX_PAYS", "Rules", "pays_text"]

MAX_PAYS = 1000
"""The most a winning wager may pay, to 1.  Tables pay 1:1 (rule 3.4); the bound is far above
any real table and keeps every expected value finite as a float and in JSON."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule options: ``a234`` places A-2-3-4 as the second straight and top straight
    flush (``"high"``, rule 2.4) or as the lowest of both (``"low"``, rule 2.5); ``pays`` is what
    a winning wager pays to 1 (rule 3.4; from 1 to :data:`MAX_PAYS`).

    >>> Rules(a234="low")
    Rules(a234='low', pays=1.0)
    >>> Rules(pays=0.5)
    Traceback (most recent call last):
    ...
    asiapoker.errors.RuleError: pays must be a number from 1 to 1000 (to 1), got 0.5
    """

    a234: Literal["high", "low"] = "high"
    pays: float = 1.0

    def __post_init__(self) -> None:
        if self.a234 not in ("high", "low"):
            raise RuleError(f"a234 must be 'high' or 'low', got {self.a234!r}")
        pays = self.pays
        if isinstance(pays, bool) or not isinstance(pays, (int, float)):
            raise RuleError(f"pays must be a number from 1 to {MAX_PAYS} (to 1), got {pays!r}")
        try:
            finite = math.isfinite(pays)
        except OverflowError:                           # an int too large for a float
            finite = False
        if not finite or not 1 <= pays <= MAX_PAYS:
            raise RuleError(f"pays must be a number from 1 to {MAX_PAYS} (to 1), got {pays!r}")
        object.__setattr__(self, "pays", float(pays))

    @property
    def a234_low(self) -> int:
        """1 when A-2-3-4 ranks lowest, else 0: the flag the core's functions take."""
        return 1 if self.a234 == "low" else 0

    def to_dict(self) -> dict[str, str | float]:
        """The options as JSON-ready data."""
        return {"a234": self.a234, "pays": self.pays}

    def describe(self) -> str:
        """The options as text, for results that depend on them."""
        return f"a234={self.a234}, pays={pays_text(self.pays)}:1"


def pays_text(x: float) -> str:
    """A payout ``x`` in the fewest digits that read back as exactly ``x`` (1.0 as "1").

    >>> pays_text(1.0), pays_text(1.0000001), pays_text(2.5)
    ('1', '1.0000001', '2.5')
    """
    text = repr(float(x))
    return text[:-2] if text.endswith(".0") else text


DEFAULT_RULES = Rules()


def resolve(rules: Rules | None) -> Rules:
    """``rules`` or the default; a non-Rules value is an error."""
    if rules is None:
        return DEFAULT_RULES
    if not isinstance(rules, Rules):
        raise RuleError(f"rules must be a Rules instance, got {rules!r}")
    return rules
