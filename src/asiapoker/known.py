"""Known cards: what the player knows beyond his hand.

``dead`` cards are known NOT to be in the dealer's hand (another spot's hand, a card exposed
or burned); ``dealer`` cards are known to BE in it (a dealer card exposed).  The dealer then
holds every ``dealer`` card and the rest of his seven from the cards left: with d dead and k
dealer cards, C(46 - d - k, 7 - k) hands, equally likely.

>>> known_cards((0, 1, 2, 3, 4, 5, 6), "Kd", "As")
((45,), (51,))
>>> dealer_hands(7, 0), dealer_hands(0, 1)
(15380937, 8145060)
>>> known_cards((0, 1, 2, 3, 4, 5, 6), "2c", None)
Traceback (most recent call last):
...
asiapoker.errors.KnownCardError: dead card 2c is in the hand
>>> known_cards((0, 1, 2, 3, 4, 5, 6), "Kd", "Kd")
Traceback (most recent call last):
...
asiapoker.errors.KnownCardError: card Kd is both dead and the dealer's
"""

from __future__ import annotations

from math import comb
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from .cards import CardsLike, card_of, to_ids
from .errors import CardError, KnownCardError

__all__ = ["MAX_DEAD", "KnownSpec", "check_count", "dealer_hands", "known_cards", "known_rows",
           "read_known"]

MAX_DEAD = 39
"""The most dead cards a solve takes: 53 - 7 (the hand) - 7 (the dealer's)."""


def dealer_hands(n_dead: int, n_dealer: int) -> int:
    """Dealer hands consistent with ``n_dead`` dead and ``n_dealer`` dealer cards:
    C(46 - n_dead - n_dealer, 7 - n_dealer)."""
    return comb(46 - n_dead - n_dealer, 7 - n_dealer)


def _names(ids: Any) -> str:
    return " ".join(str(card_of(int(i))) for i in ids)


def _check(hand: tuple[int, ...], dead: tuple[int, ...], dealer: tuple[int, ...],
           where: str = "") -> None:
    """Raise KnownCardError (prefixed by ``where``) unless the hand, dead and dealer cards are
    distinct and leave the dealer seven cards."""
    for what, cards in (("dead", dead), ("dealer", dealer)):
        inside = [c for c in cards if c in hand]
        if inside:
            raise KnownCardError(f"{where}{what} card {_names(inside[:1])} is in the hand")
    both = [c for c in dead if c in dealer]
    if both:
        raise KnownCardError(f"{where}card {_names(both[:1])} is both dead and the dealer's")
    if len(dealer) > 7:
        raise KnownCardError(f"{where}the dealer holds 7 cards, {len(dealer)} named as his: "
                             f"{_names(dealer)}")
    if len(dead) > MAX_DEAD:
        raise KnownCardError(f"{where}{len(dead)} dead cards leave the dealer "
                             f"{53 - 7 - len(dead)} cards to hold 7 from (at most {MAX_DEAD} "
                             f"dead cards)")


def known_cards(hand: tuple[int, ...], dead: CardsLike | None,
                dealer: CardsLike | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The checked ids of ``dead`` and ``dealer`` (cards as text, ``Card``s or ids; ``None``
    for none) for the checked ``hand``, or an error naming the card: a
    :class:`asiapoker.errors.KnownCardError` for one in the hand, both dead and the
    dealer's, more than 7 dealer cards or too few cards left for the dealer, and a
    :class:`asiapoker.errors.DuplicateCardError` for one named twice in a list."""
    d = _ids(dead, "dead cards")
    k = _ids(dealer, "dealer cards")
    _check(hand, d, k)
    return d, k


def _ids(cards: Any, label: str) -> tuple[int, ...]:
    """``to_ids`` of known cards, its errors prefixed by ``label`` (which list they are)."""
    if cards is None:
        return ()
    try:
        return to_ids(cards, what="list")
    except CardError as exc:
        raise type(exc)(f"{label}: {exc}") from None


KnownSpec: TypeAlias = tuple[int, ...] | npt.NDArray[np.int8] | None
"""Known cards read once (:func:`read_known`): none, one list for every row, or an n x w
int8 array of each row's cards padded with -1."""


def _is_card(x: Any) -> bool:
    return isinstance(x, (str, np.integer)) or (isinstance(x, int) and not isinstance(x, bool))


def read_known(spec: Any, what: str) -> KnownSpec:
    """Known cards (``what``: "dead" or "dealer") read once, whole, into their final form, by
    one rule:

    - None: no cards;
    - text (``"Qh 3c"``), or a flat collection whose every item is one card (a ``Card``, an
      id, a one-card string): one list for every row;
    - a 2-D integer array (padded with -1), or a collection whose every item is a list, tuple
      or 1-D array of cards: one list per row.

    Any iterable is read once (an iterator, generator or ``map`` is taken whole), and a
    collection that mixes cards and lists is refused: a
    :class:`asiapoker.errors.KnownCardError` naming the item.

    Parameters
    ----------
    spec : CardsLike, array_like or None
        The known cards.
    what : str
        ``"dead"`` or ``"dealer"``, for messages.

    Raises
    ------
    KnownCardError
        A collection that mixes cards and lists (the message names the item).
    CardError
        Something that is not a card.

    Examples
    --------
    >>> read_known(["Qh", "3c"], "dead"), read_known(iter([50, 51]), "dead")
    ((42, 4), (50, 51))
    >>> read_known([["Qh"], ("3c", "Ah")], "dead").tolist()
    [[42, -1], [4, 50]]
    >>> read_known(["Qs 4h", ["Ah"]], "dead")
    Traceback (most recent call last):
    ...
    asiapoker.errors.KnownCardError: dead cards mix a card (item 0, 'Qs 4h') and a list ...
    """
    if spec is None:
        return None
    if isinstance(spec, str):
        return _ids(spec, f"{what} cards")
    if isinstance(spec, np.ndarray) and spec.ndim == 2:
        return _array_rows(spec, what)
    if isinstance(spec, np.ndarray) and spec.ndim != 1:
        raise KnownCardError(f"{what} cards must be one list, or one list per row (a 2-D "
                             f"array), got an array of shape {spec.shape}")
    try:
        items = list(spec)
    except TypeError:
        raise KnownCardError(f"{what} cards must be text, a list of cards or one list per "
                             f"row, got {spec!r}"[:300]) from None
    cards = [i for i, x in enumerate(items) if _is_card(x)]          # a Card is an int
    lists = [i for i, x in enumerate(items) if isinstance(x, (list, tuple, np.ndarray))]
    if cards and lists:
        c, k = cards[0], lists[0]
        raise KnownCardError(f"{what} cards mix a card (item {c}, {items[c]!r}) and a list "
                             f"(item {k}): give one list of cards for every row, or one list "
                             f"per row"[:400])
    if not lists:
        for i in cards:
            if isinstance(items[i], str) and len(_ids(items[i], f"{what} item {i}")) > 1:
                raise KnownCardError(f"{what} cards: item {i} ({items[i]!r}) is several cards; "
                                     f"in a list, each item is one card (one list per row: a "
                                     f"list of lists)")
        return _ids(items, f"{what} cards")
    listed = set(lists)
    other = [i for i in range(len(items)) if i not in listed]
    if other:
        raise KnownCardError(f"{what} cards per row: item {other[0]} is {items[other[0]]!r}, "
                             f"not a list of cards"[:300])
    rows = [_ids(r, f"{what} row {i}") for i, r in enumerate(items)]
    out = np.full((len(rows), max([1, *map(len, rows)])), -1, dtype=np.int8)
    for i, ids in enumerate(rows):
        out[i, :len(ids)] = ids
    return out


def _array_rows(spec: npt.NDArray[Any], what: str) -> npt.NDArray[np.int8]:
    """A per-row array of known cards, checked: integer ids, -1 for none, none twice."""
    if spec.dtype.kind not in "iu":
        raise KnownCardError(f"{what} must be an integer array of card ids (-1 for none), "
                             f"got dtype {spec.dtype}")
    bad = np.argwhere((spec < -1) | (spec > 52))
    if len(bad):
        i, j = (int(x) for x in bad[0])
        raise KnownCardError(f"{what} row {i}: card id {int(spec[i, j])} is outside 0..52 "
                             f"(-1 for none)")
    arr = -np.sort(-spec.astype(np.int8), axis=1)       # the cards first, then -1
    twice = np.argwhere((arr[:, 1:] == arr[:, :-1]) & (arr[:, 1:] >= 0))
    if len(twice):
        i, j = (int(x) for x in twice[0])
        raise KnownCardError(f"{what} row {i}: card {_names([arr[i, j]])} named twice")
    if not arr.shape[1]:
        return np.full((len(arr), 1), -1, np.int8)
    width = max(1, int((arr >= 0).sum(1).max(initial=0)))
    return np.ascontiguousarray(arr[:, :width])


def _rows(spec: KnownSpec, n: int, what: str) -> npt.NDArray[np.int8]:
    """Known cards read by :func:`read_known` as an n x w int8 array padded with -1."""
    if spec is None:
        return np.full((n, 1), -1, dtype=np.int8)
    if isinstance(spec, tuple):
        out = np.full((n, max(1, len(spec))), -1, dtype=np.int8)
        out[:, :len(spec)] = spec
        return out
    check_count(spec, n, what)
    return spec


def check_count(spec: KnownSpec, n: int, what: str) -> None:
    """Raise a :class:`asiapoker.errors.KnownCardError` unless ``spec`` (as
    :func:`read_known` gives it) fits ``n`` rows: per-row cards need one list a row.

    Parameters
    ----------
    spec : KnownSpec
        Known cards as :func:`read_known` gives them.
    n : int
        The number of rows.
    what : str
        ``"dead"`` or ``"dealer"``, for the message.
    """
    if isinstance(spec, np.ndarray) and len(spec) != n:
        raise KnownCardError(f"{what} needs one list of cards per hand ({n} lists: one row per "
                             f"hand), got {len(spec)}")


def known_rows(hands: npt.NDArray[Any], dead: Any, dealer: Any
               ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """Known cards for each row of the n x 7 ``hands``, as two n x w int8 arrays
    padded with -1 (the form the core takes).  ``dead`` and ``dealer`` are each None, one list
    of cards for every row (text such as ``"Kd 7c"`` or ids), or one list per row (n lists or
    tuples, or an n x w integer array padded with -1).  Raises a
    :class:`asiapoker.errors.KnownCardError` naming the row and the card (the rows
    themselves are checked by the core, which names a bad one)."""
    n = len(hands)
    d = _rows(read_known(dead, "dead"), n, "dead")
    k = _rows(read_known(dealer, "dealer"), n, "dealer")
    # every row at once: bit masks of the hand, dead and dealer cards; the first row that
    # fails is checked again card by card, for its message
    one = np.uint64(1)

    def masks(a: npt.NDArray[Any]) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
        card = (a >= 0) & (a <= 52)            # -1 pads; a bad hand id is the core's to name
        bits = np.where(card, one << np.where(card, a, 0).astype(np.uint64), np.uint64(0))
        return np.bitwise_or.reduce(bits, axis=1), (a >= 0).sum(1)

    hm, _ = masks(np.asarray(hands, dtype=np.int64))
    dm, dn = masks(d.astype(np.int64))
    km, kn = masks(k.astype(np.int64))
    bad = ((dm & hm != 0) | (km & hm != 0) | (dm & km != 0) | (kn > 7) | (dn > MAX_DEAD))
    for i in np.flatnonzero(bad)[:1]:
        _check(tuple(int(x) for x in hands[i]), tuple(int(x) for x in d[i] if x >= 0),
               tuple(int(x) for x in k[i] if x >= 0), f"row {i}: ")
    return d, k
