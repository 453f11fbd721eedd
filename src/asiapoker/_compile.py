"""Compiling a user-written house way into the fast form the solver uses.

A house way is asked once for each of the 829,504 classes of seven cards (a rank multiset, or
the ranks of a flush suit plus the other ranks; see ``_classes``).  Its answers are kept as one
split index per class, cached on disk under a key the user controls, and looked up in the core
by class key.  This is exact when the way's strengths depend on suits only through the flushes
they make, which compilation checks on a sample, together with suit symmetry.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import sys
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from ._classes import class_representatives
from ._progress import Progress
from ._validate import whole
from .cards import Card, card_of
from .errors import AsiaPokerError, HouseWayError
from .rules import Rules
from .setting import SPLIT_POSITIONS, Setting, chosen_strengths, setting_of, setting_of_split

FORMAT = 1
_SPLIT_OF = {(sum(1 << p for p in h), lo): k for k, (h, _, lo) in enumerate(SPLIT_POSITIONS)}

WayFunction = Callable[[tuple[Card, ...]], Any]


def default_cache_dir() -> Path:
    """``$ASIAPOKER_CACHE_DIR``, else ``$XDG_CACHE_HOME/asiapoker``, else
    ``~/.cache/asiapoker``."""
    if os.environ.get("ASIAPOKER_CACHE_DIR"):
        return Path(os.environ["ASIAPOKER_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "asiapoker"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._") or "way"


def _keys(hands: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    out = np.empty(len(hands), dtype=np.int64)
    _core.class_keys_kernel(np.ascontiguousarray(hands), out)
    return out


@functools.cache
def class_table() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(keys, representatives) of the 829,504 classes of seven cards, sorted by key; read-only.
    A way stored as a class table holds one split index per class, in the order of the
    representative's (sorted) ids."""
    reps = class_representatives()
    keys = _keys(reps)
    order = np.argsort(keys)
    reps, keys = reps[order], keys[order]
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
        self.keys, self.reps, self.splits = keys, reps, splits
        self._tri: dict[int, npt.NDArray[np.int32]] = {}

    @property
    def digest(self) -> str:
        """sha256 of the class table."""
        return splits_digest(self.splits)

    def answer(self, ids: tuple[int, ...]) -> Setting:
        """The way's setting of seven checked ids: the function's answer, validated (never
        trusted), or for a table-only way the first split of ``ids`` with the strengths of
        the class's stored split."""
        if self.fn is None:
            return self._from_table(ids)
        hand = tuple(card_of(i) for i in ids)
        try:
            raw = self.fn(hand)
        except AsiaPokerError as exc:
            raise HouseWayError(f"house way {self.name!r} failed on "
                                f"{' '.join(map(str, hand))}: {exc}") from exc
        except Exception as exc:        # the user's own code: say which way and which hand
            raise HouseWayError(f"house way {self.name!r} raised {type(exc).__name__} on "
                                f"{' '.join(map(str, hand))}: {exc}") from exc
        return setting_of(raw, ids, f"house way {self.name!r}")

    def _from_table(self, ids: tuple[int, ...]) -> Setting:
        ids = tuple(sorted(ids))            # the same cards in any order: the same setting
        arr = np.array([ids], dtype=np.int64)
        i = int(np.searchsorted(self.keys, _keys(arr)[0]))
        tri = self.triples(Rules())[i:i + 1]
        k = np.empty(1, dtype=np.int16)
        _core.match_split_kernel(arr, 0, np.ascontiguousarray(tri), k)
        return setting_of_split(ids, int(k[0]))

    def split_of(self, ids: tuple[int, ...], setting: Setting) -> int:
        """Index (in SPLIT_POSITIONS order of ``ids``) of ``setting``."""
        pos = {c: i for i, c in enumerate(ids)}
        mask = sum(1 << pos[int(c)] for c in setting.high)
        return _SPLIT_OF[(mask, pos[int(setting.low[0])])]

    def triples(self, rules: Rules) -> npt.NDArray[np.int32]:
        """(high, medium, low) strengths of every class's answer under ``rules``; raises if an
        answer is illegal under them."""
        tri = self._tri.get(rules.low)
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
            self._tri[rules.low] = tri
        return tri

    def lookup(self, hands: npt.NDArray[Any], rules: Rules) -> tuple[int, npt.NDArray[np.int32]]:
        """(bad row or -1, n x 3 strengths) of checked-at-the-boundary rows."""
        out = np.empty((len(hands), 3), dtype=np.int32)
        bad = _core.classify_kernel(hands, self.keys, self.triples(rules), out)
        if bad <= -2:  # pragma: no cover - every hand has a class
            raise HouseWayError(f"no class for row {-2 - bad}")
        return bad, out


def _load(path: Path, keys: npt.NDArray[np.int64]) -> npt.NDArray[np.uint8] | None:
    """The cached answers, or None when the file is missing, stale or damaged."""
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            splits = np.array(data["splits"], dtype=np.uint8)
            ok = (int(data["format"]) == FORMAT
                  and str(data["keys_digest"]) == hashlib.sha256(keys.tobytes()).hexdigest()
                  and str(data["digest"]) == hashlib.sha256(splits.tobytes()).hexdigest()
                  and len(splits) == len(keys) and int(splits.max(initial=0)) < 105)
    except Exception as exc:  # a damaged file of any kind: rebuild it
        warnings.warn(f"rebuilding the damaged house-way cache {path}: {exc}", stacklevel=3)
        return None
    if not ok:
        warnings.warn(f"rebuilding the stale or damaged house-way cache {path}", stacklevel=3)
        return None
    return splits


def _save(path: Path, keys: npt.NDArray[np.int64], splits: npt.NDArray[np.uint8]) -> None:
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, format=FORMAT, splits=splits,
                     keys_digest=hashlib.sha256(keys.tobytes()).hexdigest(),
                     digest=hashlib.sha256(splits.tobytes()).hexdigest())
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:  # a read-only cache, or a folder in the way, is no reason to fail
        warnings.warn(f"could not write the house-way cache {path}: {exc}", stacklevel=3)
    finally:
        if tmp is not None:                 # never leave a half-written file behind
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def compile_way(fn: WayFunction, name: str, cache_key: str | None, cache_dir: Path | None,
                progress: bool | None, check: int) -> CompiledWay:
    """Ask ``fn`` once per class (or load its cached answers) and check it on a sample."""
    if not callable(fn):
        raise HouseWayError(f"from_function needs a callable, got {fn!r}")
    whole(check, "check (how many sample hands to check the way on)", 0, MAX_CHECK,
          HouseWayError)
    keys, reps = class_table()
    path = None if cache_key is None else (cache_dir or default_cache_dir()) / (
        f"{_slug(name)}-{_slug(cache_key)}.npz")
    splits = _load(path, keys) if path is not None else None
    way = CompiledWay(fn, name, keys, reps, np.zeros(len(keys), dtype=np.uint8))
    _check(way, check)
    if splits is not None and not _agrees(way, splits):
        warnings.warn(f"rebuilding the house-way cache {path}: the function no longer gives "
                      "the answers it holds (change the version when the function changes)",
                      stacklevel=3)
        splits = None
    if splits is None:
        splits = np.empty(len(keys), dtype=np.uint8)
        bar = Progress(len(keys), f"compiling house way {name!r}",
                        sys.stderr.isatty() if progress is None else progress)
        for i, row in enumerate(reps.tolist()):
            ids = tuple(row)
            splits[i] = way.split_of(ids, way.answer(ids))
            if not i & 4095:
                bar.update(i)
        bar.update(len(keys))
        if path is not None:
            _save(path, keys, splits)
    way.splits = splits
    way.triples(Rules())        # every answer legal under the default rules
    return way


#: The most sample hands ``from_function(check=)`` takes (each is asked twice).
MAX_CHECK = 100_000

#: How many classes, spread over the table, a cached way is checked on before it is used.
PROBES = 256


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
