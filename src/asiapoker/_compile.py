"""Compiling a user-written house way into the fast form the solver uses.

A house way is asked once for each of the 829,504 classes of seven cards (a rank multiset, or
the ranks of a flush suit plus the other ranks; see ``_classes``).  Its answers are kept as one
split index per class, cached on disk under a key the user controls, and looked up in the core
by class key.  This is exact when the way's strengths depend on suits only through the flushes
they make, which compilation checks on a sample, together with suit symmetry.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _cache, _core
from ._classes import class_representatives
from ._progress import Progress, ProgressCallback
from ._validate import run_kernel, whole_number
from .cards import Card, card_of
from .errors import AsiaPokerError, FileError, HouseWayError
from .rules import Rules
from .setting import SPLIT_POSITIONS, Setting, chosen_strengths, setting_of, setting_of_split

_SPLIT_OF = {(sum(1 << p for p in h), lo): k for k, (h, _, lo) in enumerate(SPLIT_POSITIONS)}

WayFunction = Callable[[tuple[Card, ...]], Any]


def _keys(hands: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    arr = np.ascontiguousarray(hands)
    out = np.empty(len(arr), dtype=np.int64)
    run_kernel(_core.class_keys_kernel, arr, "hands", out)
    return out


CLASS_CACHE = "class-table-cache"
SEVEN_CARD_CLASSES = 829_504
"""The classes of seven cards up to suit renaming and equal strengths (the class table's size)."""
_SAMPLED_REPS = 4096
"""Representatives of the cached class table whose keys are computed again on reading it."""


@functools.cache
def _build_class_table() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    reps = class_representatives()
    keys = _keys(reps)
    order = np.argsort(keys)
    return keys[order], reps[order]


def _cached_class_table() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The class table from the disk cache (:mod:`asiapoker._cache`: verified, and what it
    means checked), else built and saved."""
    if not _cache.enabled():
        return _build_class_table()
    identity = {"code_sha256": _cache.code_digest()}
    path = _cache.cache_path(_cache.default_cache_dir(), CLASS_CACHE, identity)
    arrays = _cache.load(path, CLASS_CACHE, identity, "class-table",
                         lambda a: _check_class_table(a, str(path)))
    if arrays is not None:
        return arrays["keys"], arrays["reps"].astype(np.int64)
    keys, reps = _build_class_table()
    _cache.save(path, CLASS_CACHE, identity, {"keys": keys, "reps": reps.astype(np.int8)},
                "class-table")
    return keys, reps


def _check_class_table(arrays: dict[str, npt.NDArray[Any]], where: str) -> None:
    """What a cached class table must be: distinct sorted keys, one for each class, and (on a
    sample spread over the table) every row a hand of sorted, distinct ids of the class its
    key names; with distinct sorted keys, as many as there are classes, that is every class
    once."""
    keys, reps = arrays.get("keys"), arrays.get("reps")
    if (keys is None or reps is None or set(arrays) != {"keys", "reps"}
            or keys.dtype != np.int64 or reps.dtype != np.int8
            or reps.shape != (SEVEN_CARD_CLASSES, 7) or keys.shape != (len(reps),)
            or not (np.diff(keys) > 0).all()
            or int(reps.min(initial=0)) < 0 or int(reps.max(initial=0)) > 52):
        raise FileError(f"{where!r} does not hold the class table")
    some = np.sort(np.random.default_rng(0).choice(len(reps), _SAMPLED_REPS, replace=False))
    try:
        same = bool(all((reps[:, c + 1] > reps[:, c]).all() for c in range(6))
                    and (_keys(reps[some]) == keys[some]).all())
    except AsiaPokerError:
        same = False
    if not same:
        raise FileError(f"{where!r}: its representatives are not of their classes")


@functools.cache
def class_table() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(keys, representatives) of the 829,504 classes of seven cards, sorted by key; read-only
    (built once, then read from the disk cache by later processes).  A way stored as a class
    table holds one split index per class, in the order of the representative's (sorted)
    ids."""
    keys, reps = _cached_class_table()
    reps.setflags(write=False)
    keys.setflags(write=False)
    return keys, reps


def splits_digest(splits: npt.NDArray[np.uint8]) -> str:
    """The sha256 of a class table of split indices (what identifies a stored way)."""
    return hashlib.sha256(np.ascontiguousarray(splits, dtype=np.uint8).tobytes()).hexdigest()


class CompiledWay:
    """A way stored as a class table: one split per class of seven cards, and, for a
    user-written way, the function that gave them (``fn`` is None for a derived way)."""

    def __init__(self, fn: WayFunction | None, name: str, keys: npt.NDArray[np.int64],
                 reps: npt.NDArray[np.int64], splits: npt.NDArray[np.uint8]) -> None:
        self.fn, self.name = fn, name
        self.keys, self.reps = keys, reps
        self.splits = splits
        self.cache_file: Path | None = None

    @property
    def splits(self) -> npt.NDArray[np.uint8]:
        """The split of every class (index into the representative's sorted ids)."""
        return self._splits

    @splits.setter
    def splits(self, value: npt.NDArray[np.uint8]) -> None:
        self._splits = value
        self._digest: str | None = None
        self._tri: dict[int, npt.NDArray[np.int32]] = {}

    @property
    def digest(self) -> str:
        """sha256 of the class table (computed once)."""
        if self._digest is None:
            self._digest = splits_digest(self._splits)
        return self._digest

    def answer(self, ids: tuple[int, ...]) -> Setting:
        """The function's answer for seven checked ids, validated (never trusted): what
        compilation asks.  The way's setting of a hand is :meth:`setting`."""
        if self.fn is None:
            return self.setting(ids, Rules())
        hand = tuple(card_of(i) for i in ids)
        try:
            raw = self.fn(hand)
        except AsiaPokerError as exc:
            raise HouseWayError(f"house way {self.name!r} failed on "
                                f"{' '.join(map(str, hand))}: {exc}") from exc
        except (Exception, SystemExit) as exc:   # the user's code: say which way and hand
            raise HouseWayError(f"house way {self.name!r} raised {type(exc).__name__} on "
                                f"{' '.join(map(str, hand))}: {exc}") from exc
        return setting_of(raw, ids, f"house way {self.name!r}")

    def setting(self, ids: tuple[int, ...], rules: Rules) -> Setting:
        """The way's setting of seven checked ids: the first split of the sorted ids with the
        strengths the table gives their class (rule 5.5: the same cards in any order get the
        same setting, in every path: house_way, splits, solve, simulate)."""
        ids = tuple(sorted(ids))
        arr = np.array([ids], dtype=np.int64)
        tri = self.strengths(arr, rules)
        k = np.empty(1, dtype=np.int16)
        run_kernel(_core.match_split_kernel, arr, "hands", rules.a234_low, tri, k)
        return setting_of_split(ids, int(k[0]))

    def split_of(self, ids: tuple[int, ...], setting: Setting) -> int:
        """Index (in SPLIT_POSITIONS order of ``ids``) of ``setting``."""
        pos = {c: i for i, c in enumerate(ids)}
        mask = sum(1 << pos[int(c)] for c in setting.high)
        return _SPLIT_OF[(mask, pos[int(setting.low[0])])]

    def triples(self, rules: Rules) -> npt.NDArray[np.int32]:
        """(high, medium, low) strengths of every class's answer under ``rules``; raises if an
        answer is illegal under them."""
        tri = self._tri.get(rules.a234_low)
        if tri is None:
            tri = chosen_strengths(self.reps, self.splits, rules)
            illegal = np.flatnonzero(~((tri[:, 0] > tri[:, 1]) & (tri[:, 1] > tri[:, 2])))
            if len(illegal):
                i = int(illegal[0])
                ids = tuple(int(c) for c in self.reps[i])
                setting = setting_of_split(ids, int(self.splits[i]))
                raise HouseWayError(
                    f"house way {self.name!r} sets {' '.join(str(card_of(c)) for c in ids)} "
                    f"as {setting}, which is not legal ({rules.describe()})")
            self._tri[rules.a234_low] = tri
        return tri

    # the back-end interface HouseWay calls (BuiltinWay in house_way.py is the other one)
    @property
    def key(self) -> tuple[str, Any]:
        """What the way does, as a value: the digest of its table."""
        return ("table", self.digest)

    @property
    def code(self) -> None:
        """A stored way has no definition in the core."""
        return None

    @property
    def table(self) -> npt.NDArray[np.uint8]:
        """The split of every class."""
        return self.splits

    def strengths(self, hands: npt.NDArray[Any], rules: Rules) -> npt.NDArray[np.int32]:
        """(high, medium, low) strengths of the way's setting of each checked-shape row."""
        out = np.empty((len(hands), 3), dtype=np.int32)
        run_kernel(_core.classify_kernel, hands, "hands", self.keys, self.triples(rules), out)
        return out

    def class_table(self, rules: Rules) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
        """(sorted class keys, strengths per class)."""
        return self.keys, self.triples(rules)


WAY_CACHE = "house-way-cache"
"""The kinds of cache file (see :mod:`asiapoker._files`)."""


@functools.cache
def keys_digest() -> str:
    """sha256 of the class keys: the order every class table is in."""
    return hashlib.sha256(class_table()[0].tobytes()).hexdigest()


_CACHE_NAMES = {"house-way-cache": "house-way", "best-response-cache": "best-response"}


def load_cached(path: Path, kind: str, identity: dict[str, Any]) -> npt.NDArray[np.uint8] | None:
    """The cached class table of ``identity``, or None when the file is missing; a damaged or
    foreign file is never used: a warning names it (and the cache, by ``kind``) and the
    caller rebuilds it."""
    def check(arrays: dict[str, npt.NDArray[Any]]) -> None:
        splits = arrays.get("splits")
        if (splits is None or set(arrays) != {"splits"} or splits.dtype != np.uint8
                or splits.shape != (len(class_table()[0]),)
                or int(splits.max(initial=0)) >= 105):
            raise FileError(f"{str(path)!r} does not hold a class table")
    arrays = _cache.load(path, kind, identity, _CACHE_NAMES.get(kind, kind), check)
    return None if arrays is None else arrays["splits"]


def save_cached(path: Path, kind: str, identity: dict[str, Any],
                splits: npt.NDArray[np.uint8]) -> None:
    """Write a cache file (:func:`asiapoker._cache.save`); a read-only or full cache folder is
    a warning, not a failure (the answer is still returned)."""
    _cache.save(path, kind, identity, {"splits": splits}, _CACHE_NAMES.get(kind, kind))


def function_identity(fn: WayFunction) -> dict[str, Any]:
    """What names a Python function exactly: its module, qualified name, a hash of its source
    (None when the source cannot be read) and what it closes over (two closures of one
    factory share their source, not their behaviour)."""
    try:
        source: str | None = hashlib.sha256(inspect.getsource(fn).encode()).hexdigest()
    except (OSError, TypeError):
        source = None
    cells = getattr(fn, "__closure__", None) or ()
    bound = [repr(c.cell_contents) if c.cell_contents is not fn else "<self>" for c in cells
             if _filled(c)]
    bound += [repr(d) for d in getattr(fn, "__defaults__", None) or ()]
    if hasattr(fn, "__self__"):                  # a bound method: what it is bound to
        bound.append(repr(fn.__self__))
    return {"module": getattr(fn, "__module__", None),
            "qualname": getattr(fn, "__qualname__", type(fn).__qualname__),
            "source_sha256": source,
            "bound_sha256": hashlib.sha256("\x00".join(bound).encode()).hexdigest()}


def _filled(cell: Any) -> bool:
    try:
        _ = cell.cell_contents
    except ValueError:              # an empty cell
        return False
    return True


def compile_way(fn: WayFunction, name: str, cache_key: str | None, cache_dir: Path | None,
                progress: bool | ProgressCallback | None, check: int) -> CompiledWay:
    """Ask ``fn`` once per class (or load its cached answers) and check it on a sample."""
    if not callable(fn):
        raise HouseWayError(f"from_function needs a callable, got {fn!r}")
    whole_number(check, "check (how many sample hands to check the way on)", 0, MAX_CHECK,
          HouseWayError)
    keys, reps = class_table()
    identity = {"name": name, "cache_key": cache_key, "function": function_identity(fn),
                "class_keys_sha256": keys_digest()}
    path = None if cache_key is None else _cache.cache_path(
        cache_dir or _cache.default_cache_dir(), WAY_CACHE, identity)
    splits = load_cached(path, WAY_CACHE, identity) if path is not None else None
    way = CompiledWay(fn, name, keys, reps, np.zeros(len(keys), dtype=np.uint8))
    way.cache_file = path
    _check(way, check)
    if splits is not None and not _agrees(way, splits):
        warnings.warn(f"rebuilding the house-way cache {path}: the function no longer gives "
                      "the answers it holds (change the version when the function changes)",
                      stacklevel=3)
        splits = None
    fresh = splits is None
    if splits is None:
        splits = np.empty(len(keys), dtype=np.uint8)
        bar = Progress(len(keys), f"compiling house way {name!r}",
                       True if progress is None else progress)
        for i, row in enumerate(reps.tolist()):
            ids = tuple(row)
            splits[i] = way.split_of(ids, way.answer(ids))
            if not i & 4095:
                bar.update(i)
        bar.update(len(keys))
    way.splits = splits
    way.triples(Rules())        # every answer legal under the default rules, before it is kept
    if fresh and path is not None:
        save_cached(path, WAY_CACHE, identity, splits)
    return way


MAX_CHECK = 100_000
"""The most sample hands ``from_function(check=)`` takes (each is asked twice)."""

PROBES = 256
"""How many classes, spread over the table, a cached way is checked on before it is used."""


def _agrees(way: CompiledWay, splits: npt.NDArray[np.uint8]) -> bool:
    """True when the function still gives the cached answer on :data:`PROBES` classes spread
    over the table (a cache from another function, or from an older version of this one
    under the same key, fails here)."""
    for i in np.linspace(0, len(splits) - 1, PROBES).astype(np.int64).tolist():
        ids = tuple(int(c) for c in way.reps[i])
        if way.split_of(ids, way.answer(ids)) != int(splits[i]):
            return False
    return True


def _sample(n: int) -> npt.NDArray[np.int64]:
    """Random hands, a quarter with the joker and a quarter rich in one suit."""
    rng = np.random.default_rng(20261129)
    hands = np.argsort(rng.random((n, 53)), axis=1)[:, :7]
    q = n // 4
    hands[:q, 0] = np.where((hands[:q] == 52).any(1), hands[:q, 0], 52)
    for i in range(q, 2 * q):       # 4-6 cards of one suit
        k = int(rng.integers(4, 7))
        suited = rng.choice(13, k, replace=False) * 4 + int(rng.integers(4))
        rest = [c for c in rng.permutation(53) if c not in suited and c % 4 != suited[0] % 4]
        hands[i] = np.concatenate([suited, rest[: 7 - k]])
    return hands.astype(np.int64)


def _shape(setting: Setting, rules: Rules) -> tuple[Any, ...]:
    """A setting up to renaming suits: each hand's ranks and the three strengths."""
    parts = (setting.high, setting.medium, setting.low)
    return (*[tuple(sorted(c.rank for c in p)) for p in parts], setting.strengths(rules))


def _check(way: CompiledWay, n: int) -> None:
    """On ``n`` sample hands (default rules): legal answers and suit symmetry first, then the
    same strengths as the hand's class representative (suits matter only through flushes)."""
    if n <= 0:
        return
    rules = Rules()
    hands = _sample(n)
    rng = np.random.default_rng(7)
    answers = []
    for row in hands.tolist():
        ids = tuple(row)
        text = " ".join(str(card_of(c)) for c in ids)
        got = way.answer(ids)
        hml = got.strengths(rules)
        if not hml[0] > hml[1] > hml[2]:
            raise HouseWayError(f"house way {way.name!r} sets {text} as {got}, which is not "
                                f"legal ({rules.describe()})")
        perm = rng.permutation(4)
        while (perm == np.arange(4)).all():
            perm = rng.permutation(4)
        renamed = tuple(c if c == 52 else c // 4 * 4 + int(perm[c % 4]) for c in ids)
        other = way.answer(renamed)
        if _shape(got, rules) != _shape(other, rules):
            raise HouseWayError(
                f"house way {way.name!r} is not suit-symmetric: {text} -> {got}, but the same "
                f"hand with suits renamed, {' '.join(str(card_of(c)) for c in renamed)} -> "
                f"{other}")
        answers.append((text, got, hml))
    for key, (text, got, hml) in zip(_keys(hands).tolist(), answers, strict=True):
        rep = tuple(int(c) for c in way.reps[int(np.searchsorted(way.keys, key))])
        rep_setting = way.answer(rep)
        if rep_setting.strengths(rules) != hml:
            raise HouseWayError(
                f"house way {way.name!r} depends on suits beyond the flushes they make: "
                f"{text} -> {got}, but {' '.join(str(card_of(c)) for c in rep)} (the same "
                f"ranks and flushes) -> {rep_setting}")
