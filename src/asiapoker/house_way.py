"""House ways: how the dealer sets seven cards.

Built-in ways run in the compiled core:

- ``"standard"`` (the default): a rack card of 40 plain rules (:mod:`asiapoker.rack`), shipped
  as a class table; ``explain`` names the rule that decided.
- ``"equilibrium"``: a fixed point of the dealer's exact best response (rule 5.6 d,
  :mod:`asiapoker.equilibrium`), shipped as a class table.
- earlier versions of the shipped ways, kept loadable by their versioned names (saved runs
  and cards name them): ``"equilibrium-v1"``.
- ``"classic"``: pairs stay together, two pairs split high/medium, three pairs put the top
  pair medium, quads split 2 + 2, ... then the best medium hand.
- priority ways: ``"medium-first"`` (medium, then low, then high), ``"high-first"`` (high,
  medium, low), or any order, e.g. ``HouseWay.priority("low", "medium", "high")``, also named
  ``"low-medium-high"``.

Ties left after the priority (equal strengths in all three hands) go to the first split, in
:data:`asiapoker.SPLIT_POSITIONS` order, of the seven cards sorted by id.

>>> str(house_way("Kc Kd Jh Js 7c 7d 2s", "classic"))
'Js Jh 7d 7c | Kd Kc | 2s'
>>> str(house_way("Kc Kd Jh Js 7c 7d 2s"))             # standard
'Kc Js Jh 2s | 7d 7c | Kd'
>>> HouseWay.named("mystery")
Traceback (most recent call last):
...
asiapoker.errors.HouseWayError: unknown house way 'mystery' (built in: standard, equilibrium, \
classic, medium-first, high-first, or an order such as 'low-medium-high'; earlier versions: \
equilibrium-v1)
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeAlias

import numpy as np
import numpy.typing as npt

from . import _core, _files
from ._compile import (
    CompiledWay,
    WayFunction,
    class_table,
    compile_way,
    keys_digest,
    splits_digest,
)
from ._progress import ProgressCallback
from ._validate import as_card_array, index_array, run_kernel
from .cards import CardsLike, to_ids
from .errors import FileError, HouseWayError
from .rack import SHAPES, RackCard, apply_card
from .ranks import CATEGORIES
from .rules import Rules, resolve
from .setting import Setting, setting_of_split, split_in_row_order

__all__ = ["HouseWay", "WayLike", "dealer_strengths", "house_way", "house_way_splits"]

_HANDS = ("high", "medium", "low")
WAY_TABLE = "house-way-table"
"""The kind of a saved way table (see :mod:`asiapoker._files`)."""
_ALIASES = {"medium-first": ("medium", "low", "high"), "high-first": ("high", "medium", "low")}


class WayBackEnd(Protocol):
    """What :class:`HouseWay` calls on its back end: :class:`BuiltinWay` (a way defined in the
    core) or :class:`asiapoker._compile.CompiledWay` (a way stored as a class table)."""

    @property
    def key(self) -> tuple[str, Any]:
        """What the way does, as a value."""

    @property
    def code(self) -> tuple[int, int, int, int] | None:
        """Its definition in the core, if it has one."""

    @property
    def table(self) -> npt.NDArray[np.uint8] | None:
        """Its split of every class, if it is stored as a table."""

    @property
    def cache_file(self) -> Path | None:
        """The cache file its table was read from or written to, if any."""

    def setting(self, ids: tuple[int, ...], rules: Rules) -> Setting:
        """The way's setting of seven checked ids."""

    def strengths(self, hands: npt.NDArray[Any], rules: Rules) -> npt.NDArray[np.int32]:
        """(high, medium, low) strengths of the way's setting of each checked row."""

    def class_table(self, rules: Rules) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
        """(sorted class keys, strengths per class)."""


class BuiltinWay:
    """The back end of a way defined in the core (``_core.BUILTIN_WAYS``): classic or a
    priority order (a :class:`WayBackEnd`)."""

    __slots__ = ("code",)

    def __init__(self, code: tuple[int, int, int, int]) -> None:
        self.code = code

    @property
    def key(self) -> tuple[str, Any]:
        """What the way does, as a value: its definition."""
        return ("builtin", self.code)

    @property
    def table(self) -> None:
        """A way defined in the core is not stored as a table."""
        return None

    @property
    def cache_file(self) -> None:
        """A way defined in the core has no cache file."""
        return None

    def setting(self, ids: tuple[int, ...], rules: Rules) -> Setting:
        """The way's setting of seven checked ids."""
        k, _ = _core.choose_one(ids, rules.a234_low, *self.code)
        if k < 0:  # pragma: no cover - every seven cards have a legal setting
            raise HouseWayError(f"no legal setting for {ids}")
        return setting_of_split(sorted(ids), k)          # k indexes the ascending order

    def strengths(self, hands: npt.NDArray[Any], rules: Rules) -> npt.NDArray[np.int32]:
        """(high, medium, low) strengths of the way's setting of each checked-shape row."""
        out = np.empty((len(hands), 3), dtype=np.int32)
        run_kernel(_core.house_way_kernel, hands, "hands", rules.a234_low, *self.code, out)
        return out

    def class_table(self, rules: Rules) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
        """(sorted class keys, strengths per class), computed once per way and rule set."""
        keys, reps = class_table()
        key = (self.code, rules.a234_low)
        with _BUILTIN_LOCK:                      # one computation however many threads ask
            if key not in _BUILTIN_TABLES:
                _BUILTIN_TABLES[key] = self.strengths(reps, rules)
            return keys, _BUILTIN_TABLES[key]


class HouseWay:
    """A house way: a rule that sets any seven cards to one legal setting.

    Make one with :meth:`named` (the built-in ways), :meth:`priority`, :meth:`from_function`
    (your function), :meth:`from_card` (a rack card), :meth:`from_table` or :meth:`load` (a
    stored table); ``str(way)`` is its name.  What it does lives in its back end: a way
    defined in the core, or one stored as a class table.

    Parameters
    ----------
    name : str
        The way's name.
    code : tuple of 4 int or None
        A way defined in the core: its definition in ``_core.BUILTIN_WAYS``; None otherwise.
    description : str
        One line saying what the way is.
    back_end : WayBackEnd, optional
        What sets the hands (default: the core's way for ``code``).
    card : RackCard, optional
        The rack card the way was compiled from, for :meth:`explain`.

    Raises
    ------
    HouseWayError
        Neither ``code`` nor ``back_end``.
    """

    __slots__ = ("_way", "card", "description", "name")

    def __init__(self, name: str, code: tuple[int, int, int, int] | None, description: str,
                 back_end: WayBackEnd | None = None, card: RackCard | None = None) -> None:
        self.name = name
        self.description = description
        if back_end is None:
            if code is None:
                raise HouseWayError(f"house way {name!r} needs a definition or a table")
            back_end = BuiltinWay(code)
        self._way: WayBackEnd = back_end
        self.card = card

    @classmethod
    def from_function(cls, fn: WayFunction, name: str, version: str = "1", *,
                      cache_key: str | None = None, cache: bool = True,
                      cache_dir: str | os.PathLike[str] | None = None,
                      progress: bool | ProgressCallback | None = None,
                      check: int = 400) -> HouseWay:
        """A house way from a Python function of the seven cards.

        The function is asked once for each of the 829,504 classes of seven cards (a rank
        multiset, or a flush suit's ranks and the other ranks) and its answers are compiled to
        the fast form built-in ways use; every answer is checked (seven cards, each once; legal
        under the rules in force when used).  The function must treat suits symmetrically, and
        its strengths may depend on suits only through the flushes they make; both are checked on
        ``check`` sample hands.

        The compiled way answers with the first split (in the order of the hand's cards) whose
        three hand strengths equal those of your function's setting, so where two settings tie in
        strength (two cards of one rank swapped, say) it may give back the other arrangement: the
        same strengths, hence the same results.

        Parameters
        ----------
        fn : callable
            ``fn(cards)``: takes the seven cards (a tuple of :class:`asiapoker.Card`) and returns
            a :class:`asiapoker.Setting` or its three hands (anything
            :meth:`asiapoker.Setting.coerce` reads).
        name : str
            The way's name (not a built-in way's).
        version : str, default "1"
            The cache key when ``cache_key`` is not given: change it when the function changes in
            a way its source does not show (a helper it calls).
        cache_key : str, optional
            The key of the cached answers in place of ``version``.  The cache entry is keyed by
            the way's whole identity: ``name``, this key, and the function's module, name, source
            and what it closes over, so two functions never share an entry.
        cache : bool, default True
            Keep the compiled answers in the cache; ``False`` compiles without it.  A missing,
            stale or damaged cache is rebuilt.
        cache_dir : path, optional
            The cache folder (default: ``$ASIAPOKER_CACHE_DIR`` or ``~/.cache/asiapoker``).
        progress : bool or callable, optional
            Progress of a compile (about a minute) goes to stderr: a bar on a terminal, else a
            plain line every few seconds; ``False`` turns it off, and a function
            ``progress(done, total)`` is called instead of printing.
        check : int, default 400
            Sample hands the suit symmetry and the flush-only use of suits are checked on.

        Returns
        -------
        HouseWay
            The compiled way.

        Raises
        ------
        HouseWayError
            ``fn`` is not callable, ``name`` is a built-in way's, or the function raised,
            returned a bad or illegal setting, or broke suit symmetry (the message shows the
            hand or the two hands).
        """
        if not isinstance(name, str) or not name.strip():
            raise HouseWayError(f"a user-written house way needs a name, got {name!r}")
        try:
            cls.named(name)
        except HouseWayError:
            pass
        else:
            raise HouseWayError(f"{name!r} is the name of a built-in house way")
        key = cache_key if cache_key is not None else str(version)
        compiled = compile_way(fn, name, key if cache else None,
                               None if cache_dir is None else Path(cache_dir), progress, check)
        return cls(name, None, f"user-written way {name!r} (version {version})", compiled)

    @classmethod
    def from_table(cls, splits: npt.ArrayLike, name: str, description: str = "") -> HouseWay:
        """A way stored as a class table, as :func:`asiapoker.equilibrium.best_response` makes
        them.

        Parameters
        ----------
        splits : array_like
            One split index (in the order of the class representative's sorted ids) for each of
            the 829,504 classes, in class-key order.
        name : str
            The way's name.
        description : str, default ""
            One line saying what the way is.

        Returns
        -------
        HouseWay
            The way; every answer is checked legal under the default rules.

        Raises
        ------
        HouseWayError
            ``name`` is empty, ``splits`` does not have 829,504 indices in 0..104, or a split is
            illegal.
        """
        if not isinstance(name, str) or not name.strip():
            raise HouseWayError(f"a stored house way needs a name, got {name!r}")
        keys, reps = class_table()
        arr = index_array(splits, len(keys), f"house way {name!r}: the class table", 105,
                          HouseWayError)
        table = np.array(arr, dtype=np.uint8)
        table.setflags(write=False)
        compiled = CompiledWay(None, name, keys, reps, table)
        compiled.triples(Rules())
        return cls(name, None, description or f"stored way {name!r}", compiled)

    @classmethod
    def from_card(cls, card: RackCard, name: str | None = None, description: str = "") -> HouseWay:
        """A way that sets hands by a rack card (:mod:`asiapoker.rack`), compiled to a class
        table (about five seconds on two cores) so it runs in the core; :meth:`explain` names
        the rule that decided.

        Parameters
        ----------
        card : RackCard
            The card; it must set every hand itself (no ``"house-way"`` fallback).
        name : str, optional
            The way's name (default: the card's).
        description : str, default ""
            One line saying what the way is (default: the card's name).

        Returns
        -------
        HouseWay
            The compiled way, keeping ``card``.

        Raises
        ------
        HouseWayError
            ``card`` is not a :class:`asiapoker.rack.RackCard`, or it falls back on the house way.
        """
        if not isinstance(card, RackCard):
            raise HouseWayError(f"from_card needs an asiapoker.rack.RackCard, got {card!r}")
        if card.fallback == "house-way":
            raise HouseWayError(f"card {card.name!r} falls back on the house way: a house way "
                                "needs a card that sets every hand itself")
        way = cls.from_table(card_table(card), name or card.name,
                             description or f"rack card {card.name!r}")
        way.card = card
        return way

    def save(self, path: str | os.PathLike[str]) -> str:
        """Write a stored way (a class table) to an ``.npz`` file with its sha256 digest and
        description; returns the digest.  Built-in ways are names, not tables.

        Parameters
        ----------
        path : path
            The file to write (replaced atomically).

        Raises
        ------
        HouseWayError
            A built-in way: nothing to save.
        FileWriteError
            The file could not be written.
        """
        table = self._way.table
        if table is None:
            raise HouseWayError(f"{self.name!r} is a built-in way: nothing to save")
        digest = splits_digest(table)
        identity = {"name": self.name, "description": self.description,
                    "splits_sha256": digest, "class_keys_sha256": keys_digest()}
        _files.write(path, WAY_TABLE, identity, {"splits": table}, compress=True)
        return digest

    @classmethod
    def load(cls, path: str | os.PathLike[str], name: str | None = None) -> HouseWay:
        """A way saved by :meth:`save`, used only when the file's description, its checksum and
        the table's digest all check.

        Parameters
        ----------
        path : path
            The file :meth:`save` wrote.
        name : str, optional
            A name for the loaded way (default: the name it was saved under).

        Returns
        -------
        HouseWay
            The stored way.

        Raises
        ------
        HouseWayError
            The file is missing, not a house-way table, damaged (its checksum or digest fails),
            or over another list of classes; the message names the file.
        """
        where = str(path)
        try:
            meta, arrays = _files.read(path, WAY_TABLE, max_bytes=1 << 24)
            info = meta["identity"]
            if not isinstance(info, dict) or info.get("class_keys_sha256") != keys_digest():
                raise FileError(f"{where!r} holds a table over another list of classes")
            digest, stored_name = info.get("splits_sha256"), info.get("name")
            description = info.get("description")
            splits = arrays.get("splits")
            if splits is None or set(arrays) != {"splits"} or splits.dtype.kind not in "iu":
                raise FileError(f"{where!r} holds no house-way table")
            if splits_digest(splits.astype(np.uint8)) != digest or int(splits.max(
                    initial=0)) >= 105 or int(splits.min(initial=0)) < 0:
                raise FileError(f"the house-way table in {where!r} does not match its "
                                "digest: the file is damaged")
        except FileError as exc:
            raise HouseWayError(f"cannot read a house-way table: {exc}") from None
        return cls.from_table(splits, name or str(stored_name), str(description or ""))

    @classmethod
    def named(cls, name: str | HouseWay) -> HouseWay:
        """A built-in way by name.

        Parameters
        ----------
        name : str or HouseWay
            ``"standard"`` (the default, a rack card), ``"equilibrium"``, ``"classic"``,
            ``"medium-first"``, ``"high-first"``, or an order such as ``"low-medium-high"``
            (case and spaces ignored).  A :class:`HouseWay` is returned as it is.

        Returns
        -------
        HouseWay
            The way.

        Raises
        ------
        HouseWayError
            No built-in way has that name (the message lists them).

        Examples
        --------
        >>> HouseWay.named("classic").name
        'classic'
        >>> HouseWay.named("house")
        Traceback (most recent call last):
        ...
        asiapoker.errors.HouseWayError: unknown house way 'house' (built in: standard, ...
        """
        if isinstance(name, HouseWay):
            return name
        if not isinstance(name, str):
            raise HouseWayError(f"a house way is a name or a HouseWay, got {name!r}")
        key = name.strip().lower()
        if key == "classic":
            return CLASSIC
        if key in STORED_WAYS:
            return _stored_way(key)
        order = _ALIASES.get(key) or tuple(key.split("-"))
        if len(order) == 3 and sorted(order) == sorted(_HANDS):
            return cls.priority(*order)
        raise HouseWayError(
            f"unknown house way {name!r} (built in: standard, equilibrium, classic, "
            "medium-first, high-first, or an order such as 'low-medium-high'; earlier "
            f"versions: {', '.join(EARLIER_WAYS)})"
        )

    @classmethod
    def priority(cls, *order: str) -> HouseWay:
        """The priority way (rule 5.3) that maximises the hands in this order.

        Parameters
        ----------
        *order : str
            ``"high"``, ``"medium"`` and ``"low"``, each once, the first maximised first: e.g.
            ``priority("medium", "low", "high")``.

        Returns
        -------
        HouseWay
            The way, named by its order (``"low-medium-high"``), or ``"medium-first"`` and
            ``"high-first"`` for the two the regulations name.

        Raises
        ------
        HouseWayError
            ``order`` is not the three hands, each once.
        """
        if len(order) != 3 or sorted(order) != sorted(_HANDS):
            raise HouseWayError(f"a priority is an order of high, medium, low; got {order!r}")
        o0, o1, o2 = (_HANDS.index(h) for h in order)
        name = next((a for a, o in _ALIASES.items() if o == order), "-".join(order))
        text = f"the legal setting with the best {', then '.join(order)} hand"
        return cls(name, (0, o0, o1, o2), text)

    def set(self, seven: CardsLike, rules: Rules | None = None) -> Setting:
        """The setting this way gives seven cards.

        Parameters
        ----------
        seven : CardsLike
            Seven cards.
        rules : Rules, optional
            The rule options (A-2-3-4's place); default ``Rules()``.

        Raises
        ------
        HandSizeError
            Not seven cards.
        CardError
            Not cards, or a card twice.
        """
        return self._set(to_ids(seven, 7, what="seven-card hand"), resolve(rules))[0]

    def _set(self, ids: tuple[int, ...], rules: Rules) -> tuple[Setting, tuple[int, int, int]]:
        setting = self._way.setting(ids, rules)
        hml = setting.strengths(rules)
        if not hml[0] > hml[1] > hml[2]:   # a table made under other rules, say
            raise HouseWayError(f"house way {self.name!r} sets {setting}, which is not legal "
                                f"({rules.describe()})")
        return setting, hml

    def explain(self, seven: CardsLike, rules: Rules | None = None) -> tuple[Setting, str]:
        """The setting and a short reason a dealer could read: for a rack-card way, the rule
        that decided.

        Parameters
        ----------
        seven : CardsLike
            Seven cards.
        rules : Rules, optional
            The rule options (A-2-3-4's place); default ``Rules()``.

        Raises
        ------
        HandSizeError
            Not seven cards.
        CardError
            Not cards, or a card twice.
        """
        ids = to_ids(seven, 7, what="seven-card hand")
        setting, hml = self._set(ids, resolve(rules))
        if self.card is not None:
            _, rule = apply_card(self.card, np.array([sorted(ids)], dtype=np.int64))
            i = int(rule[0])
            why = (f"rule {i + 1}: {self.card.rules[i].text()}" if i >= 0 else
                   f"the last clause, {self.card.fallback_text()}")
            return setting, f"{why} -> {_placement(setting, hml)} ({self.name})"
        return setting, f"{_shape(ids)}: {_placement(setting, hml)} ({self.name})"

    def __repr__(self) -> str:
        return f"HouseWay.named({self.name!r})"

    def __str__(self) -> str:
        return self.name

    @property
    def code(self) -> tuple[int, int, int, int] | None:
        """A built-in way's definition in the core (``_core.BUILTIN_WAYS``), None for a way
        stored as a class table."""
        return self._way.code

    @property
    def cache_file(self) -> Path | None:
        """The cache file of a way made by :meth:`from_function` (None without a cache)."""
        return self._way.cache_file

    @property
    def table(self) -> npt.NDArray[np.uint8] | None:
        """A way stored as a class table: its split for each of the 829,504 classes (index
        into the sorted ids of the class representative, class-key order; read-only), as
        :meth:`from_table` takes it.  None for a built-in way."""
        return self._way.table

    def strengths(self, hands: Any, rules: Rules | None = None) -> npt.NDArray[np.int32]:
        """The way's (high, medium, low) strengths for an n x 7 array of card ids: an n x 3
        int32 array, computed in the core with the GIL released (every row checked).

        Parameters
        ----------
        hands : array_like
            An n x 7 array of card ids, or rows of card ids or text.
        rules : Rules, optional
            The rule options (A-2-3-4's place); default ``Rules()``.

        Raises
        ------
        CardError
            A row holds something that is not a card, or a card twice (the message names the row).
        HandSizeError
            A row does not have seven cards.
        """
        r = resolve(rules)
        arr = as_card_array(hands, 7, "hands")
        return self._way.strengths(arr, r)

    def splits(self, hands: Any, rules: Rules | None = None) -> npt.NDArray[np.int16]:
        """The way's split of each row of an n x 7 array of card ids, as an index into
        :data:`asiapoker.SPLIT_POSITIONS` of the row as given: the setting :meth:`set` gives
        the same cards (the first split of the sorted cards with the way's strengths, so the
        row's order never changes the setting, rule 5.5); an n int16 array.

        Parameters
        ----------
        hands : array_like
            An n x 7 array of card ids, or rows of card ids or text.
        rules : Rules, optional
            The rule options (A-2-3-4's place); default ``Rules()``.

        Raises
        ------
        CardError
            A row holds something that is not a card, or a card twice (the message names the row).
        HandSizeError
            A row does not have seven cards.
        """
        r = resolve(rules)
        arr = as_card_array(hands, 7, "hands")
        tri = self.strengths(arr, r)
        order = np.argsort(arr, axis=1, kind="stable")
        ordered = np.ascontiguousarray(np.take_along_axis(arr, order, axis=1))
        out = np.empty(len(arr), dtype=np.int16)
        run_kernel(_core.match_split_kernel, ordered, "hands", r.a234_low, tri, out)
        return split_in_row_order(order, out)

    def class_table(self, rules: Rules | None = None
                    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
        """``(keys, strengths)``: the way as a table over the 829,504 classes of seven cards
        (sorted class keys, and the (high, medium, low) strengths the way gives each class),
        read-only.  Cython code passes both to ``table_way7`` (``asiapoker/capi.pxd``) to
        set hands by any way, compiled ways included, without the GIL.

        Parameters
        ----------
        rules : Rules, optional
            The rule options (A-2-3-4's place); default ``Rules()``.
        """
        r = resolve(rules)
        keys, tri = self._way.class_table(r)
        tri.setflags(write=False)
        return keys, tri

    @property
    def key(self) -> tuple[str, Any]:
        """What the way does, as a value: its table's digest for a stored way, its definition
        for a built-in one.  Two ways with one key set every hand alike."""
        return self._way.key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HouseWay):
            return NotImplemented
        return self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


# built-in ways' class tables, by (code, a234 flag): made on first use by HouseWay.class_table
_BUILTIN_TABLES: dict[tuple[tuple[int, int, int, int] | None, int], npt.NDArray[np.int32]] = {}
_BUILTIN_LOCK = threading.Lock()

CLASSIC = HouseWay(
    "classic", _core.BUILTIN_WAYS["classic"],
    "pairs, trips and quads kept together (quads may split 2 + 2 high/medium), "
    "then the best medium, low and high hand (rule 5.4)",
)

WayLike: TypeAlias = HouseWay | str
"""A house way: a :class:`HouseWay` or the name of a built-in one (``"standard"``, ``"classic"``,
``"equilibrium"``, ...)."""

DEFAULT_WAY = "standard"
"""The default house way: the written rack card "standard" (see docs/house-ways.md)."""

STORED_WAYS = {
    "standard": "the default: a rack card of 40 plain rules a dealer can follow (below), "
                "derived from equilibrium-v1: close to it and hard to exploit",
    "equilibrium": "the dealer's exact best response (rule 5.6 d), iterated from "
                   "equilibrium-v1",
    "equilibrium-v1": "the equilibrium way of the first builds: the sixth iterate of the "
                      "dealer's best response from classic, not a fixed point (1.45 % of hands "
                      "still changed at its last step)",
}
"""Ways shipped as class tables in the package: name -> what it is."""
EARLIER_WAYS = ("equilibrium-v1",)
"""Earlier versions of the shipped ways, loadable by these names (saved runs and cards name
them); each is a file of the package, verified like the others."""
_DATA = Path(__file__).with_name("data")
_STORED: dict[str, HouseWay] = {}


_STORED_LOCK = threading.Lock()


def _stored_way(name: str) -> HouseWay:
    """A shipped way, loaded once however many threads ask at once; its file is verified."""
    with _STORED_LOCK:
        way = _STORED.get(name)
        if way is None:
            way = HouseWay.load(_DATA / f"{name}.npz", name)
            if name == "standard":
                from ._standard import STANDARD
                way.card = STANDARD
            _STORED[name] = way
        return way


def card_class_splits(card: RackCard, rules: Rules | None = None
                      ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(split, deciding rule) of a rack card for every class of the class table, in class-key
    order (:func:`asiapoker.rack.apply_card` on the representatives, in pieces on all cores:
    numpy releases the GIL); split -1 where a card falls back on the house way."""
    _, reps = class_table()
    split = np.empty(len(reps), dtype=np.int64)
    rule = np.empty(len(reps), dtype=np.int64)
    step = 1 << 15

    def piece(lo: int) -> None:
        split[lo:lo + step], rule[lo:lo + step] = apply_card(card, reps[lo:lo + step], rules)

    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        list(pool.map(piece, range(0, len(reps), step)))
    return split, rule


def card_table(card: RackCard) -> npt.NDArray[np.uint8]:
    """The class table of a rack card: its split for every class, in class-key order."""
    return card_class_splits(card)[0].astype(np.uint8)


def resolve_way(way: WayLike | None) -> HouseWay:
    """A :class:`HouseWay` from a name, a way, or None (the default, "standard")."""
    return HouseWay.named(DEFAULT_WAY if way is None else way)


def house_way(seven: CardsLike, way: WayLike = DEFAULT_WAY,
              rules: Rules | None = None) -> Setting:
    """The dealer's setting of seven cards under ``way`` (a name or a :class:`HouseWay`).

    Parameters
    ----------
    seven : CardsLike
        Seven cards.
    way : WayLike, default "standard"
        The house way: a :class:`HouseWay` or a built-in way's name.
    rules : Rules, optional
        The rule options (A-2-3-4's place); default ``Rules()``.

    Raises
    ------
    HandSizeError
        Not seven cards.
    CardError
        Not cards, or a card twice.
    HouseWayError
        ``way`` is not a house way.
    """
    return resolve_way(way).set(seven, rules)


def dealer_strengths(hands: Any, way: WayLike = DEFAULT_WAY,
                     rules: Rules | None = None) -> npt.NDArray[np.int32]:
    """The house way's (high, medium, low) strengths for an n x 7 array of card ids: an
    n x 3 int32 array (:meth:`HouseWay.strengths`).

    Parameters
    ----------
    hands : array_like
        An n x 7 array of card ids, or rows of card ids or text.
    way : WayLike, default "standard"
        The house way: a :class:`HouseWay` or a built-in way's name.
    rules : Rules, optional
        The rule options (A-2-3-4's place); default ``Rules()``.

    Raises
    ------
    CardError
        A row holds something that is not a card, or a card twice (the message names the row).
    HandSizeError
        A row does not have seven cards.
    HouseWayError
        ``way`` is not a house way.
    """
    return resolve_way(way).strengths(hands, rules)


def house_way_splits(hands: Any, way: WayLike = DEFAULT_WAY,
                     rules: Rules | None = None) -> npt.NDArray[np.int16]:
    """The house way's split of each row of an n x 7 array of card ids, as an index into
    :data:`asiapoker.SPLIT_POSITIONS` of the row as given (:meth:`HouseWay.splits`).

    Parameters
    ----------
    hands : array_like
        An n x 7 array of card ids, or rows of card ids or text.
    way : WayLike, default "standard"
        The house way: a :class:`HouseWay` or a built-in way's name.
    rules : Rules, optional
        The rule options (A-2-3-4's place); default ``Rules()``.

    Raises
    ------
    CardError
        A row holds something that is not a card, or a card twice (the message names the row).
    HandSizeError
        A row does not have seven cards.
    HouseWayError
        ``way`` is not a house way.

    Examples
    --------
    >>> house_way_splits([[51, 50, 47, 46, 43, 42, 0]], "classic").tolist()
    [92]
    """
    return resolve_way(way).splits(hands, rules)


def _shape(ids: tuple[int, ...]) -> str:
    """The hand's shape in the words rack cards use (:data:`asiapoker.rack.SHAPES`), e.g.
    "no pair", "two pairs", "trips and a pair" (the joker counts as an ace)."""
    counts = Counter(12 if i == 52 else i >> 2 for i in ids)
    return SHAPES[tuple(sorted(counts.values(), reverse=True))]


def _placement(setting: Setting, hml: tuple[int, int, int]) -> str:
    words = []
    for part, strength, name in zip((setting.high, setting.medium, setting.low), hml, _HANDS,
                                    strict=True):
        words.append(f"{name} {' '.join(map(str, part))} ({CATEGORIES[strength >> 16]})")
    return ", ".join(words)
