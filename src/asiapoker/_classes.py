"""Rank and flush classes of seven-card hands, shared by the solver and the bonus counts.

Most properties of seven cards depend on their ranks alone; flushes depend on one suit that
holds many of them.  Counting by class means: one representative hand per rank multiset
(suits spread so no flush can form), and one per flush class (suit 0 holds exactly the ranks
F, the other cards lie in suits 1-3), each weighted with binomial coefficients.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]


@functools.cache
def multisets(size: int, cap: int) -> IntArray:
    """Rank multisets (sorted rank rows) of ``size`` cards with at most ``cap`` per rank
    (read-only: computed once)."""
    flat = np.fromiter(itertools.chain.from_iterable(
        itertools.combinations_with_replacement(range(13), size)), dtype=np.int64)
    rows = flat.reshape(-1, size) if size else np.zeros((1, 0), dtype=np.int64)
    if size > cap:              # sorted rows: a rank repeats more than cap times in a window
        rows = rows[~(rows[:, cap:] == rows[:, :size - cap]).any(1)]
    rows = np.ascontiguousarray(rows)
    rows.setflags(write=False)
    return rows


def subsets(k: int) -> IntArray:
    """All k-subsets of the 13 ranks, as sorted rows."""
    return np.array(list(itertools.combinations(range(13), k)), dtype=np.int64).reshape(-1, k)


def spread(ranks: IntArray, first_suit: int, nsuits: int) -> IntArray:
    """Card ids for sorted rank rows: card i in suit ``first_suit + i % nsuits``, so equal ranks
    get distinct suits and no suit gets more than ceil(width / nsuits) cards."""
    suits = first_suit + np.arange(ranks.shape[1]) % nsuits
    return ranks * 4 + suits


def with_joker(ids: IntArray, joker: bool) -> IntArray:
    """``ids`` with the joker (52) appended to every row when ``joker``."""
    if not joker:
        return ids
    return np.hstack([ids, np.full((len(ids), 1), 52, dtype=np.int64)])


def rank_counts(rows: IntArray) -> IntArray:
    """n x 13 counts of each rank in each row."""
    n = len(rows)
    cells = (np.arange(n, dtype=np.int64)[:, None] * 13 + rows).ravel()
    return np.bincount(cells, minlength=n * 13).reshape(n, 13)


def flush_classes(joker: bool, min_flush: int) -> list[tuple[IntArray, IntArray]]:
    """(F, O) blocks: suit 0 holds exactly the ranks F (at least ``min_flush`` of them), the
    other ranks O (at most 3 per rank) lie in other suits; 7 cards with the joker counted."""
    n = 6 if joker else 7
    blocks = []
    for fsize in range(min_flush, n + 1):
        fs, os_ = subsets(fsize), multisets(n - fsize, 3)
        fi, oi = np.divmod(np.arange(len(fs) * len(os_)), len(os_))
        blocks.append((fs[fi], os_[oi]))
    return blocks


def flush_rep(f: IntArray, o: IntArray, joker: bool) -> IntArray:
    """A hand of the class: F in suit 0, O spread over suits 1-3."""
    return with_joker(np.hstack([f * 4, spread(o, 1, 3)]), joker)


def rank_rep(ranks: IntArray, joker: bool) -> IntArray:
    """A hand with these ranks in which no flush can form (at most 2 cards of a suit)."""
    return with_joker(spread(np.sort(ranks, axis=1), 0, 4), joker)


def class_representatives() -> IntArray:
    """One hand (7 sorted ids) for every class: the rank classes, the one-flush-suit classes
    (F, O) and the two-flush-suit classes (3 + 3 + joker), without repeats."""
    blocks = []
    for joker in (False, True):
        blocks.append(rank_rep(multisets(6 if joker else 7, 4), joker))
        for f, o in flush_classes(joker, 3 if joker else 4):
            blocks.append(flush_rep(f, o, joker))
    f3 = subsets(3)
    i1, i2 = np.divmod(np.arange(len(f3) ** 2), len(f3))
    blocks.append(with_joker(np.hstack([f3[i1] * 4, f3[i2] * 4 + 1]), True))
    return np.sort(np.concatenate(blocks), axis=1)
