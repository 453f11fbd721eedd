"""Cards: ids, parsing and canonical text (rule 1).

Card ids are ``rank * 4 + suit`` for the 52 ordinary cards, with ranks ``2..A`` as 0..12 and
suits ``c d h s`` as 0..3, and 52 for the joker.  A :class:`Card` *is* that int, so cards go
straight into numpy arrays.

>>> parse_cards("As 10d Jk")
(Card('As'), Card('Td'), Card('Jk'))
>>> int(Card("2c")), int(Card("As")), int(JOKER)
(0, 51, 52)
>>> parse_cards("As Xs")
Traceback (most recent call last):
...
asiapoker.errors.CardError: unknown rank in 'Xs' (ranks are 23456789TJQKA or 10)
>>> parse_cards("As AS")
Traceback (most recent call last):
...
asiapoker.errors.DuplicateCardError: duplicate card: As
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TypeAlias

from .errors import CardError, DuplicateCardError, HandSizeError

__all__ = ["JOKER", "Card", "CardLike", "CardsLike", "deck", "parse_cards", "to_ids"]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
_SUIT_ALIASES = {
    "c": 0,
    "d": 1,
    "h": 2,
    "s": 3,
    "♣": 0,
    "♦": 1,
    "♥": 2,
    "♠": 3,
    "♧": 0,
    "♢": 1,
    "♡": 2,
    "♤": 3,
}
_JOKER_TOKENS = {"jk", "joker"}
_SPLIT = re.compile(r"[\s,]+")


class Card(int):
    """One card: an int id in 0..52 whose ``str`` is canonical (``As``, ``Td``, ``Jk``).

    Parameters
    ----------
    card : CardLike
        A card id (0-51 by rank then suit, the joker 52), a text (``"As"``, ``"10h"``,
        ``"joker"``; case ignored) or a :class:`Card`.

    Raises
    ------
    CardError
        Not a card: an id outside 0..52, an unknown rank or suit.

    Examples
    --------
    >>> Card("Ah"), Card(51), Card("joker")
    (Card('Ah'), Card('As'), Card('Jk'))
    >>> Card(53)
    Traceback (most recent call last):
    ...
    asiapoker.errors.CardError: card id 53 is outside 0..52
    """

    __slots__ = ()

    def __new__(cls, card: CardLike) -> Card:
        return _CARDS[_card_id(card)]

    @property
    def rank(self) -> int:
        """Rank 0..12 (2..A); the joker is 12 (it counts as an ace)."""
        return 12 if self == 52 else int(self) >> 2

    @property
    def suit(self) -> int | None:
        """Suit 0..3 (c, d, h, s), or None for the joker."""
        return None if self == 52 else int(self) & 3

    @property
    def is_joker(self) -> bool:
        """True for the joker."""
        return int(self) == 52

    def __str__(self) -> str:
        if self == 52:
            return "Jk"
        return RANKS[int(self) >> 2] + SUITS[int(self) & 3]

    def __repr__(self) -> str:
        return f"Card('{self}')"


_CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(53))
JOKER: Card = _CARDS[52]

CardLike: TypeAlias = Card | int | str
"""One card: a :class:`Card`, its id (0-52) or its text (``"As"``, ``"Jk"``)."""
CardsLike: TypeAlias = str | Iterable[CardLike]
"""Cards: a text such as ``"As Kd Jk"`` or any iterable of :data:`CardLike`."""


def _parse_token(token: str) -> int:
    t = token.strip()
    if t.lower() in _JOKER_TOKENS:
        return 52
    if len(t) < 2:
        raise CardError(f"not a card: {token!r}")
    rank_text, suit_text = t[:-1], t[-1]
    if rank_text == "10":
        rank = 8
    elif len(rank_text) == 1 and rank_text.upper() in RANKS:
        rank = RANKS.index(rank_text.upper())
    else:
        raise CardError(f"unknown rank in {token!r} (ranks are 23456789TJQKA or 10)")
    suit = _SUIT_ALIASES.get(suit_text.lower())
    if suit is None:
        raise CardError(f"unknown suit in {token!r} (suits are c d h s or ♣ ♦ ♥ ♠)")
    return rank * 4 + suit


def _card_id(card: object) -> int:
    if isinstance(card, Card):
        return int(card)
    if isinstance(card, str):
        return _parse_token(card)
    index = getattr(card, "__index__", None)  # ints and numpy integers, not bools
    if isinstance(card, bool) or index is None:
        raise CardError(f"not a card: {card!r}")
    try:
        cid = int(index())
    except (TypeError, ValueError, OverflowError):   # e.g. a whole numpy row
        raise CardError(f"not a card: {card!r}") from None
    if not 0 <= cid <= 52:
        raise CardError(f"card id {cid} is outside 0..52")
    return cid


def to_ids(
    cards: CardsLike, count: int | tuple[int, ...] | None = None, what: str = "hand"
) -> tuple[int, ...]:
    """Validate cards given as text, ``Card``s or ints and return their ids.

    ``count`` is the number of cards the call needs (or a tuple of allowed numbers).  Raises
    a :class:`asiapoker.errors.CardError` naming the bad token, a
    :class:`asiapoker.errors.DuplicateCardError` naming the repeated card, or a
    :class:`asiapoker.errors.HandSizeError`.

    Parameters
    ----------
    cards : CardsLike
        The cards.
    count : int or tuple of int, optional
        The number of cards needed (or the numbers allowed); any number when None.
    what : str, default "hand"
        What the cards are, for messages (``"high hand"``, ``"dead cards"``).

    Raises
    ------
    CardError
        A token that is not a card (the message names it).
    DuplicateCardError
        A card twice.
    HandSizeError
        Not ``count`` cards.
    """
    if isinstance(cards, (bytes, bytearray, memoryview)):
        raise CardError(f"expected a {what} of cards as text, Cards or card ids, got bytes "
                        f"{bytes(cards)[:40]!r}: decode it first")
    if isinstance(cards, str):
        tokens: Iterable[object] = [t for t in _SPLIT.split(cards.strip()) if t]
    elif isinstance(cards, (Card, int)):
        raise CardError(f"expected a {what} of cards, got the single value {cards!r}")
    else:
        try:
            tokens = list(cards)
        except TypeError:
            raise CardError(f"expected a {what} of cards, got {cards!r}") from None
    ids: list[int] = []
    seen = 0
    for token in tokens:
        cid = _card_id(token)
        if seen >> cid & 1:
            if cid == 52:
                raise DuplicateCardError(f"a second joker in {what} (the deck has one)")
            raise DuplicateCardError(f"duplicate card: {_CARDS[cid]}")
        seen |= 1 << cid
        ids.append(cid)
    if count is not None:
        allowed = (count,) if isinstance(count, int) else count
        if len(ids) not in allowed:
            need = " or ".join(str(a) for a in allowed)
            shown = " ".join(str(_CARDS[i]) for i in ids) or "nothing"
            noun = "card" if allowed == (1,) else "cards"
            raise HandSizeError(f"a {what} needs {need} {noun}, got {len(ids)}: {shown}")
    return tuple(ids)


def parse_cards(text: CardsLike) -> tuple[Card, ...]:
    """Parse cards (rule 1.2) into a tuple of :class:`Card`; raises on bad input (rule 1.3).

    Parameters
    ----------
    text : CardsLike
        Cards separated by spaces or commas (``"As Kd 10h Jk"``), or an iterable of
        :data:`CardLike`.

    Returns
    -------
    tuple of Card
        The cards in the order given.

    Raises
    ------
    CardError
        A token that is not a card (the message names it).
    DuplicateCardError
        A card, or the joker, twice.
    """
    return tuple(_CARDS[i] for i in to_ids(text, what="list"))


def deck() -> tuple[Card, ...]:
    """All 53 cards in id order (the joker last)."""
    return _CARDS


def card_of(cid: int) -> Card:
    """The :class:`Card` of a checked id."""
    return _CARDS[cid]
