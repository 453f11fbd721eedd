"""Optimal play as a lookup table: the exact best split of every one of the 6,972,147 classes
of player hands (:func:`asiapoker.suit_classes.player_classes`) against one house way under
one A-2-3-4 option, made from a finished whole-game run (:func:`asiapoker.analyze` with
``out=``), and read back for any hand in the row's own card order at millions of hands a
second.  The package ships tables for ``standard``, ``equilibrium`` and ``classic`` (A-2-3-4
high) and ``standard`` with A-2-3-4 low; ``docs/optimal-tables.md`` says how they were made.

The best setting does not depend on what a win pays (with no pushes the expected value,
(pays + 1) * wins / total - 1, grows with the wins), so one table serves every ``pays``.

>>> import numpy as np
>>> from asiapoker import solve_many
>>> hands = np.array([[48, 49, 0, 5, 22, 31, 52], [3, 7, 11, 15, 19, 23, 27]], dtype=np.int8)
>>> best_splits(hands).tolist() == solve_many(hands).best.tolist()
True
>>> best_splits(hands, "high-first")
Traceback (most recent call last):
...
asiapoker.errors.OptimalTableError: no optimal-play table for house way high-first (a234=high): ...
"""

from __future__ import annotations

import functools
import hashlib
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from . import _core, _files
from ._runs import RUN_FILE, RunDir, chunk_bounds, digest
from ._validate import as_card_array, run_kernel
from .cards import Card
from .equilibrium import way_digest
from .errors import FileError, HouseWayError, OptimalTableError, OptionError, RunError
from .house_way import DEFAULT_WAY, HouseWay, WayLike, resolve_way
from .rules import Rules, resolve
from .setting import chosen_strengths, setting_of_split
from .solver import DEALER_HANDS, count_splits, solve_many
from .suit_classes import PLAYER_CLASSES, class_groups, player_classes

__all__ = ["TABLE_KIND", "OptimalTable", "OptimalTableLike", "best_splits", "make_optimal_table",
           "shipped_table"]

TABLE_KIND = "optimal-table"
"""What a table file records as its kind."""
CLASS_LIST_SHA256 = "213af37e3f00008c6ccf79e5c5de4f98c3009c5b4b7574ad69ae7cdd666fa901"
"""sha256 of :func:`player_classes`' hands (n x 7 int8, C order): a table names the class list
it indexes by this, and one made for another list is refused."""
TIED = -1
"""``best`` of a class whose best settings differ in strengths (they are in ``tie_mask``)."""
MISSING = -2
"""``best`` of a class the table does not cover (a table made from a shard)."""
_MASK_BYTES = 14                                 # 105 bits
SAMPLED_CLASSES = 96
"""Classes a table is solved on when it is first used against a way, spread over the table
(and half as many again among those that hold A-2-3-4: :meth:`OptimalTable.check`)."""
_DATA = Path(__file__).parent / "data"
SHIPPED = {(w, a): f"optimal-{w}-{a}.npz" for w, a in (
    ("standard", "high"), ("equilibrium", "high"), ("classic", "high"), ("standard", "low"))}
"""the shipped tables: (way, a234) -> file name in ``asiapoker/data``"""


# --------------------------------------------------------------------------------------------
# the class index: group keys (rank counts) and each class's local code (its suits)
# --------------------------------------------------------------------------------------------

Index = tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.uint16]]


def _build_index() -> Index:
    """(first class of each rank multiset's slot, the end of its classes, the local code of
    every class): a class is found by its slot, then by a binary search of its code."""
    hands, _ = player_classes()
    groups = class_groups()
    slots = np.empty(len(hands), dtype=np.int32)
    local = np.empty(len(hands), dtype=np.uint16)
    run_kernel(_core.index_codes_kernel, hands, "classes", slots, local)
    first = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    ends = np.r_[first[1:], len(hands)]
    start = np.zeros(_core.SLOT_COUNT, dtype=np.int32)
    end = np.zeros(_core.SLOT_COUNT, dtype=np.int32)
    start[slots[first]] = first
    end[slots[first]] = ends
    index = (start, end, local)
    # every class of a multiset in its multiset's slot, a slot for each multiset
    if (len(np.unique(slots[first])) != len(first)
            or not (slots == np.repeat(slots[first], ends - first)).all()):  # pragma: no cover
        raise OptimalTableError("the class index: rank multisets that share a slot")
    _check_index(index, "the class index just built")
    return index


def _check_index(index: Index, where: str) -> None:
    """What the lookup relies on: the slots' class ranges tile the classes, and the local
    codes ascend strictly within each range (so that a binary search finds them)."""
    start, end, local = index
    ok = (start.dtype == np.int32 and end.dtype == np.int32 and local.dtype == np.uint16
          and start.shape == end.shape == (_core.SLOT_COUNT,)
          and local.shape == (PLAYER_CLASSES,))
    if ok:
        used = end > start
        ok = bool((end[~used] == start[~used]).all())
        s, e = np.sort(start[used]), np.sort(end[used])
        ok = ok and (int(s[0]) == 0 and int(e[-1]) == PLAYER_CLASSES
                     and bool((s[1:] == e[:-1]).all()))
    if ok:
        ascends = local[1:] > local[:-1]      # ascends[i]: local[i + 1] > local[i]
        firsts = start[used]
        ascends[firsts[firsts > 0] - 1] = True  # a range's first code follows another range
        ok = bool(ascends.all())
    if not ok:
        raise FileError(f"{where} is not the class index")


_INDEX_LOCK = threading.Lock()


@functools.cache
def _index_unlocked() -> Index:
    return _build_index()


def _index() -> Index:
    """The class index, built on first use from the class list (a quarter of a second once
    :func:`player_classes` is listed, which the table checks need anyway: so it is not kept
    on disk, and no file can forge it); read-only, one per process."""
    with _INDEX_LOCK:
        index = _index_unlocked()
        for a in index:
            a.setflags(write=False)
        return index


def _text(row: Any) -> str:
    return " ".join(str(Card(int(c))) for c in row)


def _illegal(hands: npt.NDArray[Any], splits: npt.NDArray[Any], a234: str
             ) -> npt.NDArray[np.intp]:
    """The rows whose split (``splits[i] >= 0``; -1 and -2 are not splits) is not legal: high >
    medium > low fails (:func:`asiapoker.setting.chosen_strengths`)."""
    answered = splits >= 0
    st = chosen_strengths(hands, np.where(answered, splits, np.int64(0)),
                          Rules(a234=a234))  # type: ignore[arg-type]
    return np.flatnonzero(answered & ~((st[:, 0] > st[:, 1]) & (st[:, 1] > st[:, 2])))


# --------------------------------------------------------------------------------------------
# the table
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class OptimalTable:
    """The best split of every class against one house way under one A-2-3-4 option.

    ``best[c]`` is a split (:data:`asiapoker.SPLIT_POSITIONS`) of class ``c``'s least member,
    :data:`TIED` when the class's best settings differ in strengths (then every best split is
    a bit of ``tie_mask[i]`` for ``tie_class[i] == c``), :data:`MISSING` when the table does not
    cover the class; ``wins`` (optional) the best split's exact wins of the C(46, 7) dealer
    hands.  Make one with :func:`make_optimal_table`, read one with :meth:`load`."""

    way: str
    """The house way's name."""
    way_digest: str
    """The way's digest (:func:`asiapoker.equilibrium.way_digest`)."""
    a234: str
    """Where A-2-3-4 ranks: ``"high"`` or ``"low"``."""
    best: npt.NDArray[np.int8] = field(repr=False)
    """Each class's best split, :data:`TIED` or :data:`MISSING`."""
    tie_class: npt.NDArray[np.int32] = field(repr=False)
    """The classes whose best settings differ in strengths, ascending."""
    tie_mask: npt.NDArray[np.uint8] = field(repr=False)
    """Their best splits, a 105-bit mask each (14 bytes)."""
    wins: npt.NDArray[np.int32] | None = field(default=None, repr=False)
    """Each class's best wins, when the table was made with them."""
    source: str = ""
    """Where the table came from (the run it was made of)."""
    _checked: set[str] = field(default_factory=set, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def __post_init__(self) -> None:
        arrays = {"best": self.best, "tie_class": self.tie_class, "tie_mask": self.tie_mask,
                  "wins": self.wins}
        for name, a in arrays.items():    # the table's own C-ordered copies: the caller's
            if a is not None:             # arrays stay as they were (writable, any layout)
                if not isinstance(a, np.ndarray):
                    raise OptimalTableError(f"{self.source or 'an optimal-play table'}: "
                                            f"{name} must be a numpy array, got "
                                            f"{type(a).__name__}")
                object.__setattr__(self, name, np.array(a, order="C", copy=True))
        b, tc, tm = self.best, self.tie_class, self.tie_mask
        problem = None
        if self.a234 not in ("high", "low"):
            problem = f"a234 {self.a234!r}"
        elif b.dtype != np.int8 or b.shape != (PLAYER_CLASSES,):
            problem = f"best of shape {b.shape} ({b.dtype}), not ({PLAYER_CLASSES},) int8"
        elif int(b.min()) < MISSING or int(b.max()) >= 105:
            problem = "a best split outside -2..104"
        elif (tc.dtype != np.int32 or tc.ndim != 1 or tm.dtype != np.uint8
              or tm.shape != (len(tc), _MASK_BYTES)):
            problem = "tie arrays of the wrong types or shapes"
        elif len(tc) and (not (np.diff(tc) > 0).all() or int(tc[0]) < 0
                          or int(tc[-1]) >= PLAYER_CLASSES):
            problem = "tied classes not strictly ascending class numbers"
        elif not np.array_equal(tc, np.flatnonzero(b == TIED)):
            problem = "tied classes that are not the classes marked tied"
        elif len(tc) and (not tm.any(axis=1).all() or (tm[:, -1] >> 1).any()):
            problem = "a tied class with no best split, or a bit past split 104"
        elif self.wins is not None and (self.wins.dtype != np.int32
                                        or self.wins.shape != (PLAYER_CLASSES,)
                                        or int(self.wins.min()) < 0
                                        or int(self.wins.max()) > DEALER_HANDS):
            problem = "wins of the wrong type, shape or range"
        if problem:
            raise OptimalTableError(f"{self.source or 'an optimal-play table'}: {problem}")
        for a in (b, tc, tm) + (() if self.wins is None else (self.wins,)):
            a.setflags(write=False)

    @property
    def classes(self) -> int:
        """How many classes the table covers (all 6,972,147 unless made from a shard)."""
        return int(np.count_nonzero(self.best != MISSING))

    @property
    def complete(self) -> bool:
        """Whether the table covers every class."""
        return self.classes == PLAYER_CLASSES

    def describe(self) -> str:
        """The house way and rule option the table is for, and what it covers."""
        cover = ("every class" if self.complete else
                 f"{self.classes:,} of {PLAYER_CLASSES:,} classes")
        return (f"optimal play against house way {self.way} (a234={self.a234}; any pays), "
                f"{cover}" + (", with exact wins" if self.wins is not None else ""))

    def matches(self, way: HouseWay, rules: Rules) -> bool:
        """Whether the table is for ``way`` under ``rules`` (their digest; ``pays`` aside).

        Parameters
        ----------
        way : HouseWay
            The house way.
        rules : Rules
            The rule options.
        """
        return way_digest(way, rules) == self.way_digest and rules.a234 == self.a234

    def identity(self) -> dict[str, Any]:
        """What a file of this table records and is checked against."""
        return {"way": self.way, "way_digest": self.way_digest, "a234": self.a234,
                "classes": PLAYER_CLASSES, "class_list_sha256": CLASS_LIST_SHA256}

    def save(self, path: str | os.PathLike[str]) -> str:
        """Write the table (compressed, verified on reading); returns its contents' sha256.

        Parameters
        ----------
        path : path
            The file to write (replaced atomically).

        Raises
        ------
        FileWriteError
            The file could not be written.
        """
        arrays: dict[str, npt.NDArray[Any]] = {"best": self.best, "tie_class": self.tie_class,
                                               "tie_mask": self.tie_mask}
        if self.wins is not None:
            arrays["wins"] = self.wins
        return _files.write(path, TABLE_KIND, self.identity(), arrays, compress=True)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> OptimalTable:
        """A table file, verified: its kind, its class list, its checksum, its contents and
        that every best split it holds is legal for its class (a damaged, truncated or
        foreign file is a :class:`asiapoker.errors.FileError` naming it, a forged one an
        :class:`asiapoker.errors.OptimalTableError`; what it means against its way is checked
        when it is used against one: :meth:`check`).

        Parameters
        ----------
        path : path
            The file :meth:`save` or :func:`make_optimal_table` wrote.

        Raises
        ------
        FileError
            The file is missing, damaged, truncated, of another kind or over another class list
            (the message names it).
        OptimalTableError
            A best split of the table is not legal for its class.
        """
        meta, arrays = _files.read(path, TABLE_KIND)
        ident = meta.get("identity")
        where = repr(str(path))
        if (not isinstance(ident, dict) or set(ident) != {"way", "way_digest", "a234",
                                                          "classes", "class_list_sha256"}
                or ident["classes"] != PLAYER_CLASSES
                or ident["class_list_sha256"] != CLASS_LIST_SHA256):
            raise FileError(f"{where} is an optimal-play table for another class list")
        if not set(arrays) <= {"best", "tie_class", "tie_mask", "wins"} or not {
                "best", "tie_class", "tie_mask"} <= set(arrays):
            raise FileError(f"{where} does not hold an optimal-play table's arrays")
        try:
            table = cls(str(ident["way"]), str(ident["way_digest"]), str(ident["a234"]),
                        arrays["best"], arrays["tie_class"], arrays["tie_mask"],
                        arrays.get("wins"), source=str(path))
        except OptimalTableError as exc:
            raise FileError(f"{where} is not a sound optimal-play table: {exc}") from None
        with table._lock:
            table._check_legal()         # what it means without its way: every split legal
        return table

    def lookup(self, hands: Any) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int64]]:
        """(best split in each row's order, or -1 where the table lacks the class; the class)
        of checked seven-card rows.

        Parameters
        ----------
        hands : array_like
            An n x 7 array of card ids, or rows of card ids or text.

        Raises
        ------
        CardError
            A row holds something that is not a card, or a card twice (the message names the row).
        HandSizeError
            A row does not have seven cards.
        """
        arr = as_card_array(hands, 7, "hands")
        start, end, local = _index()
        out = np.empty(len(arr), dtype=np.int16)
        cls_ = np.empty(len(arr), dtype=np.int64)
        run_kernel(_core.best_splits_kernel, arr, "hands", start, end, local, self.best,
                   self.tie_class, self.tie_mask, 1 if self.a234 == "low" else 0, out, cls_)
        return out, cls_

    def best_splits(self, hands: Any) -> npt.NDArray[np.int16]:
        """The best split of each row (an index into :data:`asiapoker.SPLIT_POSITIONS` of the
        row as given): the same as ``solve_many(hands, way, rules).best``, ties included.  A
        row whose class the table lacks is an :class:`asiapoker.errors.OptimalTableError`.

        Parameters
        ----------
        hands : array_like
            An n x 7 array of card ids, or rows of card ids or text.

        Raises
        ------
        CardError
            A row holds something that is not a card, or a card twice (the message names the row).
        HandSizeError
            A row does not have seven cards.
        OptimalTableError
            A row's class is not in the table (a table made from a shard).
        """
        arr = as_card_array(hands, 7, "hands")
        out, _ = self.lookup(arr)
        missing = np.flatnonzero(out < 0)
        if len(missing):
            raise OptimalTableError(f"row {int(missing[0])} of hands: its class is not in "
                                    f"this table ({self.describe()})")
        self.check_answers(arr, out)
        return out

    def check_answers(self, hands: npt.NDArray[Any], splits: npt.NDArray[np.int16]) -> None:
        """Raise :class:`asiapoker.errors.OptimalTableError` unless every answered split
        (``splits[i] >= 0``) sets row ``hands[i]`` legally (a vectorized check of every
        answer, so that a forged table cannot make a player foul).

        Parameters
        ----------
        hands : numpy.ndarray
            Checked seven-card rows.
        splits : numpy.ndarray
            Their splits, -1 where unanswered.
        """
        bad = _illegal(hands, splits, self.a234)
        if len(bad):
            i = int(bad[0])
            raise OptimalTableError(
                f"{self.source or 'the optimal-play table'} answers row {i} "
                f"({_text(hands[i])}) with split {int(splits[i])}, "
                f"{setting_of_split([int(c) for c in hands[i]], int(splits[i]))}, which is "
                f"not legal: the table is not a sound one")

    def check(self, way: HouseWay, rules: Rules) -> None:
        """Check what the table means against ``way`` under ``rules``, once per way (kept):
        every best split of every class is legal for the class, and a sample of
        :data:`SAMPLED_CLASSES` classes (spread over the table, with more among those that
        hold A-2-3-4 and some tied ones) solved
        against the way gives exactly the table's best splits, ties included.  A table that
        fails is an :class:`asiapoker.errors.OptimalTableError` naming it.  (A forged table
        that is legal everywhere and right on the sampled classes still passes: see
        ``docs/optimal-tables.md``.)

        Parameters
        ----------
        way : HouseWay
            The house way the table must be for.
        rules : Rules
            The rule options.

        Raises
        ------
        OptimalTableError
            The table is not for ``way`` and ``rules``, sets a class illegally, or differs
            from the solver on a sampled class.
        """
        key = way_digest(way, rules)
        with self._lock:
            if key in self._checked:
                return
            if not self.matches(way, rules):
                raise OptimalTableError(
                    f"{self.source or 'the optimal-play table'} is for house way {self.way} "
                    f"(a234={self.a234}, way digest {self.way_digest[:12]}...), not for "
                    f"{way.name} under {rules.describe()} (way digest {key[:12]}...)")
            self._check_legal()
            self._check_sample(way, rules)
            self._checked.add(key)

    def _fail(self, c: int, what: str) -> OptimalTableError:
        hand = _text(player_classes()[0][c])
        return OptimalTableError(f"{self.source or 'the optimal-play table'}: class {c:,} "
                                 f"({hand}) {what}: not a sound table for house way "
                                 f"{self.way} (a234={self.a234})")

    def _check_legal(self) -> None:
        if "legal" in self._checked:
            return
        hands = player_classes()[0]
        step = 1 << 20                        # in pieces: bounded memory
        for lo in range(0, PLAYER_CLASSES, step):
            b = self.best[lo:lo + step]
            bad = _illegal(hands[lo:lo + step], b, self.a234)
            if len(bad):
                raise self._fail(lo + int(bad[0]), f"has best split {int(b[bad[0]])}, which "
                                 f"is not legal")
        bits = np.unpackbits(self.tie_mask, axis=1, bitorder="little")[:, :105]
        row, k = np.nonzero(bits)
        if len(row):
            bad = _illegal(hands[self.tie_class[row]], k.astype(np.int64), self.a234)
            if len(bad):
                raise self._fail(int(self.tie_class[row[bad[0]]]), f"has best split "
                                 f"{int(k[bad[0]])} among its tied ones, which is not legal")
        self._checked.add("legal")

    def _check_sample(self, way: HouseWay, rules: Rules) -> None:
        covered = np.flatnonzero(self.best != MISSING)
        if not len(covered):
            return
        rng = np.random.default_rng(20261206)
        some = rng.choice(covered, min(SAMPLED_CLASSES, len(covered)), replace=False)
        # and classes the A-2-3-4 option can change: four of A, 2, 3, 4 with the joker
        pool = rng.choice(covered, min(4096, len(covered)), replace=False)
        ranks = player_classes()[0][pool] // 4               # the joker is rank 13
        held = sum((ranks == k).any(axis=1) for k in (12, 0, 1, 2))
        a234 = pool[held + (ranks == 13).any(axis=1) >= 4]
        some = np.r_[some, a234[:SAMPLED_CLASSES // 2]]
        if len(self.tie_class):
            some = np.r_[some, rng.choice(self.tie_class, min(8, len(self.tie_class)),
                                          replace=False)]
        some = np.unique(some)
        counts = count_splits(player_classes()[0][some], way, rules)
        top = counts.max(axis=1)
        for c, row, t in zip(some.tolist(), counts, top.tolist(), strict=True):
            b = int(self.best[c])
            if b >= 0 and b != int(np.argmax(row)):
                raise self._fail(c, f"has best split {b}, where the solver's best is "
                                 f"{int(np.argmax(row))} ({int(row[b]):,} against {t:,} wins)")
            if b == TIED:
                i = int(np.searchsorted(self.tie_class, c))
                bits = np.unpackbits(self.tie_mask[i], bitorder="little")[:105].astype(bool)
                if not np.array_equal(bits, row == t):
                    raise self._fail(c, "has tied best splits other than the solver's")
            if self.wins is not None and int(self.wins[c]) != t:
                raise self._fail(c, f"records {int(self.wins[c]):,} best wins, where the "
                                 f"solver counts {t:,}")


# --------------------------------------------------------------------------------------------
# finding and making tables
# --------------------------------------------------------------------------------------------

_SHIPPED_LOCK = threading.Lock()
_SHIPPED_TABLES: dict[tuple[str, str], OptimalTable] = {}


def shipped_table(way: WayLike = DEFAULT_WAY, rules: Rules | None = None) -> OptimalTable | None:
    """The table shipped with the package for ``way`` under ``rules`` (loaded and verified on
    first use, then kept), or None when there is none."""
    w, r = resolve_way(way), resolve(rules)
    table = _shipped(w.name, r.a234)
    return table if table is not None and table.matches(w, r) else None  # a way of that name,
                                                                         # but another one


def _shipped(name: str, a234: str) -> OptimalTable | None:
    """The shipped table of the built-in way ``name`` (loaded and verified once), or None."""
    file = SHIPPED.get((name, a234))
    if file is None:
        return None
    with _SHIPPED_LOCK:
        table = _SHIPPED_TABLES.get((name, a234))
        if table is None:
            path = _DATA / file
            if not path.exists():  # pragma: no cover - a broken installation
                return None
            table = OptimalTable.load(path)
            table.check(resolve_way(name), Rules(a234=a234))  # type: ignore[arg-type]
            _SHIPPED_TABLES[(name, a234)] = table
    return table


OptimalTableLike: TypeAlias = OptimalTable | str | os.PathLike[str]
"""An optimal-play table, or the path of its file."""


def resolve_table(table: OptimalTableLike | bool | None, way: HouseWay,
                  rules: Rules) -> OptimalTable | None:
    """``table`` (a table or its file) checked to be for ``way`` and ``rules``; the shipped
    one when ``table`` is None (None when there is none) or True (an error when there is
    none); None when it is False."""
    if table is False:
        return None
    if table is None or table is True:
        found = shipped_table(way, rules)
        if found is None and table is True:
            raise _no_table(way, rules)
        return found
    if not isinstance(table, (OptimalTable, str, os.PathLike)):
        raise OptimalTableError(f"an optimal-play table must be a table, its file, True, "
                                f"False or None, got {table!r}")
    t = table if isinstance(table, OptimalTable) else OptimalTable.load(table)
    t.check(way, rules)
    return t


def best_splits(hands: Any, way: WayLike = DEFAULT_WAY, rules: Rules | None = None, *,
                table: OptimalTableLike | None = None,
                solve: bool = False) -> npt.NDArray[np.int16]:
    """The best split of each row against ``way`` (an index into
    :data:`asiapoker.SPLIT_POSITIONS` of the row as given), read from an optimal-play table:
    ``table`` (a table or its file) or the one shipped for ``way`` and ``rules``.  The same
    as ``solve_many(hands, way, rules).best`` row for row, ties included (the first best
    split in the row's own order), some thousand times faster.

    Without a table for ``way`` and ``rules`` (or for a row's class, in a table made from a
    shard) it is an :class:`asiapoker.errors.OptimalTableError` saying so, unless ``solve``
    is true: then those rows are solved.

    Parameters
    ----------
    hands : array_like
        An n x 7 array of card ids, or rows of card ids or text.
    way : WayLike, default "standard"
        The house way the settings are best against.
    rules : Rules, optional
        The rule options (A-2-3-4's place); default ``Rules()``.
    table : OptimalTable or path, optional
        The table to read (default: the one shipped for ``way`` and ``rules``); it must be
        for them.
    solve : bool, default False
        Solve the rows the table cannot answer instead of raising.

    Returns
    -------
    numpy.ndarray
        n int16 split indices.

    Raises
    ------
    OptimalTableError
        No table for ``way`` and ``rules``, a ``table`` for others (or not sound: see
        :meth:`OptimalTable.check`), or a row whose class the table lacks (without ``solve``).
    OptionError
        ``solve`` is not True or False.
    CardError
        A row holds something that is not a card, or a card twice (the message names the row).
    HandSizeError
        A row does not have seven cards.
    """
    if not isinstance(solve, (bool, np.bool_)):
        raise OptionError(f"solve must be True or False, got {solve!r}"[:200])
    if isinstance(table, (bool, np.bool_)):
        raise OptimalTableError(f"table must be an optimal-play table, its file, or None (the "
                                f"one shipped for the way), got {table!r}; to solve the "
                                f"hands instead, pass solve=True or call solve_many")
    r = resolve(rules)
    if table is None and not solve and isinstance(way, str):
        # a built-in way by name: its shipped table, without loading the way itself (a test
        # holds every shipped table to its way's digest; from_function takes no built-in name)
        t = _shipped(way.strip().lower(), r.a234)
        if t is not None:
            return t.best_splits(hands)
    w = resolve_way(way)
    arr = as_card_array(hands, 7, "hands")
    t = resolve_table(table, w, r)
    if t is None:
        if solve:
            return solve_many(arr, w, r, columns="summary").best
        raise _no_table(w, r)
    if not solve:
        return t.best_splits(arr)
    out, _ = t.lookup(arr)
    t.check_answers(arr, out)
    missing = np.flatnonzero(out < 0)
    if len(missing):
        out[missing] = solve_many(arr[missing], w, r, columns="summary").best
    return out


def _no_table(way: HouseWay, rules: Rules) -> OptimalTableError:
    return OptimalTableError(f"no optimal-play table for house way {way.name} "
                             f"(a234={rules.a234}): make one from a whole run with "
                             f"`asiapoker optimal-table RUN --out FILE`, or solve these hands")


def _run_params(run: Path) -> dict[str, Any]:
    params = _files.read_json(run / RUN_FILE, "run description")
    if not isinstance(params, dict) or params.get("format") != 3:
        raise RunError(f"{str(run)!r} is not a run of this version (its chunks do not record "
                       f"tied best settings); run analyze again into a new directory")
    return params


def make_optimal_table(run: str | os.PathLike[str], out: str | os.PathLike[str] | None = None,
                       *, way: WayLike | None = None, wins: bool = False) -> OptimalTable:
    """The optimal-play table of a whole-game run directory (``analyze(..., out=run)``): the
    best split of every class it solved, exactly, and with ``wins`` their exact wins (28 MB
    more in memory, 20 MB more on disk).  The classes whose best settings differ in strengths
    are solved again to record all of them.  ``way`` is needed for a way that is not built
    in (its digest must be the run's).  A run of a shard gives a table of its classes only.
    Written to ``out`` when given.

    Every chunk is verified as it is read; a run of another class list, a way whose digest
    is not the run's, or a run with no finished chunk is a :class:`asiapoker.errors.RunError`.

    Parameters
    ----------
    run : path
        The run directory.
    out : path, optional
        The file to write the table to.
    way : WayLike, optional
        The run's way, when it is not built in.
    wins : bool, default False
        Also keep every class's best wins.

    Returns
    -------
    OptimalTable
        The table, for the run's way and rules.

    Raises
    ------
    RunError
        Not a run, a run of another class list, a way whose digest is not the run's, or no
        finished chunk.
    FileWriteError
        ``out`` could not be written.
    """
    path = Path(run)
    params = _run_params(path)
    rd = RunDir(path, {k: v for k, v in params.items() if k != "format"}, create=False)
    try:
        r = Rules(**params["rules"])
        w = resolve_way(params["way"] if way is None else way)
    except (TypeError, KeyError) as exc:
        raise RunError(f"{str(path)!r}: a run description without its way or rules "
                       f"({exc})") from None
    except HouseWayError:
        raise RunError(f"{str(path)!r} is a run against house way {params.get('way')!r}, "
                       f"which is not built in: pass that way (--way FILE on the command "
                       f"line, way= in Python)") from None
    recorded = params.get("way_digest")
    if way_digest(w, r) != recorded:
        other = Rules(a234="low" if r.a234 == "high" else "high")
        why = (f"its rules record a234={r.a234}, but its way digest is {w.name}'s under "
               f"a234={other.a234}: run.json was changed" if way_digest(w, other) == recorded
               else f"its way digest {str(recorded)[:12]}... is not {w.name}'s under "
                    f"a234={r.a234} ({way_digest(w, r)[:12]}...); pass the run's own way")
        raise RunError(f"{str(path)!r} does not fit house way {w.name!r}: {why}")
    edges = chunk_bounds(class_groups())
    if params.get("classes") != PLAYER_CLASSES or params.get("chunk_digest") != digest([edges]):
        raise RunError(f"{str(path)!r} is a run over another class list")
    best = np.full(PLAYER_CLASSES, MISSING, dtype=np.int8)
    ties = np.zeros(PLAYER_CLASSES, dtype=bool)
    best_wins = np.zeros(PLAYER_CLASSES, dtype=np.int32)
    found = 0
    for c in range(len(edges) - 1):
        if not rd.chunk_path(c).exists():
            continue
        data = rd.load(c)
        lo, hi = int(edges[c]), int(edges[c + 1])
        if any(k not in data or data[k].shape != (hi - lo,)
               for k in ("best", "best_ties", "best_wins")):
            raise RunError(f"{rd.chunk_path(c)} lacks the best splits, ties or wins")
        best[lo:hi] = data["best"]
        ties[lo:hi] = data["best_ties"] > 0
        best_wins[lo:hi] = data["best_wins"]
        found += 1
    if not found:
        raise RunError(f"{str(path)!r} has no finished chunk")
    tie_class = np.flatnonzero(ties).astype(np.int32)
    tie_mask = np.zeros((len(tie_class), _MASK_BYTES), dtype=np.uint8)
    if len(tie_class):
        counts = count_splits(player_classes()[0][tie_class], w, r)
        top = counts.max(axis=1)
        if not (top == best_wins[tie_class]).all():
            raise RunError(f"{str(path)!r}: the solver disagrees with the run's best wins")
        bits = np.zeros((len(tie_class), _MASK_BYTES * 8), dtype=bool)
        bits[:, :105] = counts == top[:, None]
        tie_mask = np.packbits(bits, axis=1, bitorder="little")
        best[tie_class] = TIED
    table = OptimalTable(w.name, params["way_digest"], r.a234, best, tie_class, tie_mask,
                         best_wins if wins else None, source=str(path))
    if out is not None:
        table.save(out)
    return table


def class_list_sha256() -> str:
    """sha256 of the class list's hands, computed (:data:`CLASS_LIST_SHA256` is its value)."""
    return hashlib.sha256(np.ascontiguousarray(player_classes()[0]).tobytes()).hexdigest()
