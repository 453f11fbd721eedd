"""The package's one disk cache: where it lives, what names a file in it, and how a file is
read back (verified, or rebuilt with a warning naming it) and written (through
:func:`asiapoker._files.write_cache`, which replaces a link instead of writing through it).

Every cached file is a verified ``.npz`` (:mod:`asiapoker._files`): its kind, its whole
identity and a checksum of its arrays are checked before anything is used, and then each
cache's own ``check`` tests what the arrays mean.  ``$ASIAPOKER_CACHE_DIR`` names the folder;
``ASIAPOKER_MODEL_CACHE=0`` turns the whole disk cache off (nothing is read or written).
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _files
from .errors import FileError

__all__ = ["cache_path", "code_digest", "default_cache_dir", "enabled", "load", "save"]

_SOURCES = ("_classes.py", "_compile.py", "_models.py", "suit_classes.py")
"""The sources the class lists and the models derived from them come from, besides the core's
own (every ``_core/*.pyx`` and ``*.pxd``, as they ship with the package)."""

Arrays = dict[str, npt.NDArray[Any]]


def default_cache_dir() -> Path:
    """``$ASIAPOKER_CACHE_DIR``, else ``$XDG_CACHE_HOME/asiapoker``, else
    ``~/.cache/asiapoker``."""
    if os.environ.get("ASIAPOKER_CACHE_DIR"):
        return Path(os.environ["ASIAPOKER_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "asiapoker"


def code_digest() -> str | None:
    """sha256 of the sources the class lists and the dealer models' layout depend on, or None
    when one is missing (then nothing derived from them is cached on disk)."""
    h = hashlib.sha256()
    here = Path(__file__).resolve().parent
    core = sorted(p for p in (here / "_core").iterdir() if p.suffix in (".pyx", ".pxd"))
    if not any(p.suffix == ".pyx" for p in core):
        return None
    for path in (*core, *(here / name for name in _SOURCES)):
        try:
            h.update(path.name.encode() + b"\0" + path.read_bytes())
        except OSError:
            return None
    return h.hexdigest()


def enabled() -> bool:
    """Whether the disk cache is on: the package's sources are there to name what a file was
    built by, and ``ASIAPOKER_MODEL_CACHE`` is not ``0``."""
    return os.environ.get("ASIAPOKER_MODEL_CACHE") != "0" and code_digest() is not None


def cache_path(folder: Path, kind: str, identity: Mapping[str, Any]) -> Path:
    """The cache file of ``identity``: named by a hash of the whole identity (no lossy
    slug), which the file also records and :func:`load` verifies."""
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"))
    return folder / f"{kind}-{hashlib.sha256(text.encode()).hexdigest()[:32]}.npz"


def load(path: Path, kind: str, identity: Any, what: str,
         check: Callable[[Arrays], None] | None = None) -> Arrays | None:
    """The verified arrays of the cache file ``path``, or None when there is none.  A damaged
    or foreign file, or one whose arrays ``check`` refuses (a
    :class:`asiapoker.errors.FileError`), is never used: a warning names the file and the
    ``what`` cache, and None tells the caller to rebuild it."""
    if not os.path.lexists(path):
        return None
    try:
        _, arrays = _files.read(path, kind, identity)
        if check is not None:
            check(arrays)
    except FileError as exc:
        said = str(exc) if str(path) in str(exc) else f"{str(path)!r}: {exc}"
        warnings.warn(f"rebuilding the {what} cache: {said}", stacklevel=3)
        return None
    return arrays


def save(path: Path, kind: str, identity: Any, arrays: Mapping[str, npt.NDArray[Any]],
         what: str) -> None:
    """Write a cache file (:func:`asiapoker._files.write_cache`: a folder that cannot take it
    is a warning naming the ``what`` cache, not a failure)."""
    _files.write_cache(path, kind, identity, {k: np.ascontiguousarray(v)
                                              for k, v in arrays.items()}, what)
