"""The seven-card hands up to the 24 renamings of suits: 6,972,147 classes (every figure of
the game is the same for all hands of a class, since house ways and hand ranks do not look at
suit names), their weights, and the class of any hand.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _cache, _core
from ._classes import multisets, rank_counts
from ._files import contents_digest
from ._validate import as_card_array, run_kernel
from .cards import to_ids
from .errors import AsiaPokerError, FileError

__all__ = ["PLAYER_CLASSES", "PLAYER_HANDS", "class_codes", "class_groups", "class_of",
           "player_classes"]

# --------------------------------------------------------------------------------------------
# player hands up to suit renaming
# --------------------------------------------------------------------------------------------

PLAYER_HANDS = math.comb(53, 7)
"""The number of seven-card hands from the 53 cards, C(53, 7)."""
PLAYER_CLASSES = 6_972_147
"""The number of classes of seven-card hands up to suit renaming (:func:`player_classes`)."""


CLASS_LIST_DIGEST = "8979f390d3fadf6ab39dc7f4c60cf6411536a3792e2d1829b664544beafe4332"
"""The class list's own digest (:func:`asiapoker._files.contents_digest` of its hands, weights
as uint8 and rank-multiset groups): a copy in the disk cache is used only when its contents
have exactly this digest, so no file can change the list."""
CLASS_LIST_CACHE = "class-list-cache"


def _build_classes() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64],
                              npt.NDArray[np.int32]]:
    ms7, ms6 = multisets(7, 4), multisets(6, 4)
    counts = np.concatenate([rank_counts(ms7), rank_counts(ms6)]).astype(np.int8)
    joker = np.r_[np.zeros(len(ms7), np.uint8), np.ones(len(ms6), np.uint8)]
    cap = 7_000_000
    out = np.zeros((cap, 7), dtype=np.int8)
    weight = np.zeros(cap, dtype=np.int64)
    group = np.zeros(cap, dtype=np.int32)
    n = _core.suit_classes_kernel(counts, joker, out, weight, group)
    if n < 0:  # pragma: no cover - the count is fixed
        raise AsiaPokerError("more classes than expected")
    return out[:n].copy(), weight[:n].copy(), group[:n].copy()


def _check_list(arrays: dict[str, npt.NDArray[Any]]) -> None:
    if set(arrays) != {"hands", "weights", "groups"} or contents_digest(
            arrays) != CLASS_LIST_DIGEST:
        raise FileError("a cached class list that is not the class list")


@functools.cache
def _classes() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """The class list: from the disk cache when a copy there has :data:`CLASS_LIST_DIGEST`
    (a tenth of a second to read and check), else listed in the core (about 1.5 s) and
    saved."""
    identity = {"classes": PLAYER_CLASSES, "digest": CLASS_LIST_DIGEST}
    path = _cache.cache_path(_cache.default_cache_dir(), CLASS_LIST_CACHE, identity)
    cached = (_cache.load(path, CLASS_LIST_CACHE, identity, "class-list", _check_list)
              if _cache.enabled() else None)
    if cached is not None:
        arrays = (cached["hands"], cached["weights"].astype(np.int64), cached["groups"])
    else:
        arrays = _build_classes()
        if _cache.enabled():
            _cache.save(path, CLASS_LIST_CACHE, identity, {
                "hands": arrays[0], "weights": arrays[1].astype(np.uint8),
                "groups": arrays[2]}, "class-list")
    for a in arrays:
        a.setflags(write=False)
    return arrays


def class_groups() -> npt.NDArray[np.int32]:
    """For each class of :func:`player_classes`, the index of its rank multiset (classes of
    one multiset are adjacent; the chunks of a run never split one); read-only."""
    return _classes()[2]


def player_classes() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """The seven-card hands up to renaming of suits: one hand per class (an n x 7 int8 array of
    sorted card ids, the least member of its class) and how many of the C(53, 7) hands each
    stands for (1 to 24; they sum to C(53, 7)).  Classes come ordered by rank multiset, hands
    with the joker last; 6,972,147 of them, about a second to list, then kept; read-only.

    >>> hands, weights = player_classes()
    >>> len(hands), int(weights.sum()) == PLAYER_HANDS, hands[0].tolist(), int(weights[0])
    (6972147, True, [0, 1, 2, 3, 4, 5, 6], 4)
    """
    hands, weights, _ = _classes()
    return hands, weights


def _hand_rows(hands: Any) -> npt.NDArray[Any]:
    """Checked n x 7 card ids from an array, or from a list of hands written as text."""
    if isinstance(hands, (list, tuple)) and hands and all(isinstance(h, str) for h in hands):
        return as_card_array([to_ids(h) for h in hands], 7, "hands")
    return as_card_array(hands, 7, "hands")


def class_codes(hands: Any) -> npt.NDArray[np.int64]:
    """A number that is the same for two rows exactly when one is a suit renaming of the
    other: each rank's suits as a 4-bit mask, least over the 24 renamings (2 ranks first),
    with the joker as bit 52.  Rows are checked seven-card hands.

    Parameters
    ----------
    hands : array_like
        Seven-card rows (an n x 7 array of card ids, or rows of ids or text).

    Raises
    ------
    CardError
        A row holds something that is not a card, or a card twice.
    HandSizeError
        A row does not have seven cards.
    """
    arr = _hand_rows(hands)
    out = np.empty(len(arr), dtype=np.int64)
    run_kernel(_core.class_codes_kernel, arr, "hands", out)
    return out


@functools.cache
def _sorted_codes() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    codes = class_codes(player_classes()[0])
    order = np.argsort(codes)
    return codes[order], order


def class_of(hands: Any) -> npt.NDArray[np.int64]:
    """The index in :func:`player_classes` of each row's class (seven-card rows, checked).

    Parameters
    ----------
    hands : array_like
        Seven-card rows (an n x 7 array of card ids, or rows of ids or text).

    Raises
    ------
    CardError
        A row holds something that is not a card, or a card twice.
    HandSizeError
        A row does not have seven cards.

    Examples
    --------
    >>> hands, _ = player_classes()
    >>> int(class_of(["Ac Kc Qc Jc Tc 9c 8c"])[0]) == int(class_of(["As Ks Qs Js Ts 9s 8s"])[0])
    True
    """
    arr = _hand_rows(hands)
    keys, order = _sorted_codes()
    codes = class_codes(arr)
    pos = np.minimum(np.searchsorted(keys, codes), len(keys) - 1)
    if not (keys[pos] == codes).all():  # pragma: no cover - every hand has a class
        raise AsiaPokerError("a hand without a class")
    return order[pos]
