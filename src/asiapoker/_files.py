"""Files the package writes and later trusts: self-describing, checksummed ``.npz`` archives.

Every such file (compiled-way and best-response caches, saved way tables, run chunks) holds
its arrays and one more member, ``__asiapoker__``, a JSON description: the file's ``kind``,
the full ``identity`` of what it holds (a way's digest, the rules, a run's parameters, a class
range ...), each array's dtype and shape, and a sha256 over the arrays' contents.  A file is
used only when all of these check; every header is read and checked against the member's
real size before any array is allocated, so a damaged or crafted file costs no memory.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "x.npz")
>>> _ = write(path, "example", {"n": 3}, {"a": np.arange(3)})
>>> read(path, "example", {"n": 3})[1]["a"].tolist()
[0, 1, 2]
>>> read(path, "example", {"n": 4})
Traceback (most recent call last):
...
asiapoker.errors.FileError: ... holds example {"n":3}, not {"n":4}
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import zipfile
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from .errors import FileError

__all__ = ["FORMAT", "MAX_BYTES", "META", "atomic_write", "contents_digest", "little_endian",
           "read", "read_members", "verify", "write"]

#: The layout version of these files.
FORMAT = 2
#: The member that holds a file's description.
META = _META = "__asiapoker__"
#: The most array bytes a file may declare (the largest the package writes is ~60 MB).
MAX_BYTES = 1 << 30
_MAX_META = 1 << 20
_DAMAGE = (zipfile.BadZipFile, zlib.error, OSError, ValueError, EOFError, KeyError,
           UnicodeDecodeError, OverflowError, TypeError)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def little_endian(a: npt.NDArray[Any]) -> bytes:
    """The bytes of ``a`` in C order, little-endian (the same on every machine)."""
    return np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<"), copy=False).tobytes()


def contents_digest(arrays: Mapping[str, npt.NDArray[Any]]) -> str:
    """sha256 over the arrays by name: name, dtype, shape and little-endian bytes (the same on
    every machine)."""
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = arrays[name]
        h.update(f"{name}|{a.dtype.newbyteorder('<').str}|{a.shape}|".encode())
        h.update(little_endian(a))
    return h.hexdigest()


def atomic_write(path: str | os.PathLike[str], data: bytes | None = None,
                 arrays: Mapping[str, npt.NDArray[Any]] | None = None,
                 compress: bool = False) -> None:
    """Write ``data`` (or ``arrays`` as an .npz) to ``path`` whole or not at all: a temporary
    file in the same folder, renamed into place; nothing is left behind on failure."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            if arrays is not None:
                (np.savez_compressed if compress else np.savez)(f, **arrays)  # type: ignore[arg-type]
            else:
                f.write(data or b"")
        os.chmod(tmp, 0o644)                 # readable like any other file (mkstemp: 0600)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write(path: str | os.PathLike[str], kind: str, identity: Any,
          arrays: Mapping[str, npt.NDArray[Any]], compress: bool = False) -> str:
    """Write ``arrays`` atomically as a verified file of ``kind`` holding ``identity`` (any
    JSON-ready value); returns the contents' sha256."""
    plain = {k: np.ascontiguousarray(v) for k, v in arrays.items()}
    if _META in plain:
        raise ValueError(f"{_META} is reserved")
    sha = contents_digest(plain)
    meta = {"format": FORMAT, "kind": kind, "identity": identity, "sha256": sha,
            "arrays": {k: {"dtype": v.dtype.str, "shape": list(v.shape)}
                       for k, v in plain.items()}}
    text = np.frombuffer(_canonical(meta).encode(), dtype=np.uint8)
    atomic_write(path, arrays={**plain, _META: text}, compress=compress)
    return sha


def _read_npy(f: _Sized, size: int, budget: int, where: str) -> npt.NDArray[Any]:
    """One .npy member, its header checked against its real ``size`` and ``budget`` before
    the array is allocated."""
    major, _ = np.lib.format.read_magic(f)
    if major == 1:
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
    elif major in (2, 3):
        shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
    else:
        raise ValueError(f"{where}: unknown .npy version {major}")
    if dtype.hasobject:
        raise ValueError(f"{where}: holds Python objects")
    count = 1
    for d in shape:
        count *= int(d)
    nbytes = count * dtype.itemsize
    header = f.tell()
    if nbytes > budget:
        raise ValueError(f"{where}: declares {nbytes:,} bytes, more than such a file holds")
    if nbytes != size - header:
        raise ValueError(f"{where}: declares {nbytes:,} bytes but holds {size - header:,}")
    flat = np.empty(count, dtype=dtype)
    got = f.readinto(flat.view(np.uint8)) if nbytes else 0
    if got != nbytes:
        raise ValueError(f"{where}: truncated ({got:,} of {nbytes:,} bytes)")
    if fortran:
        return np.array(flat.reshape(shape, order="F"), order="C")
    return flat.reshape(shape)


def read_members(path: str | os.PathLike[str], max_bytes: int = MAX_BYTES
                 ) -> Iterator[tuple[str, npt.NDArray[Any]]]:
    """Every array of the .npz at ``path`` (name without ``.npy``), each header checked before
    it is read; :class:`~asiapoker.errors.FileError` naming the file when anything is off."""
    where = str(path)
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
            if sum(i.file_size for i in infos) > max_bytes + _MAX_META + 4096 * len(infos):
                raise ValueError("larger than such a file can be")
            for info in infos:
                if not info.filename.endswith(".npy"):
                    raise ValueError(f"an unexpected member {info.filename!r}")
                with z.open(info) as f:
                    arr = _read_npy(_Sized(f), info.file_size, max_bytes, info.filename)
                    if f.read(1):
                        raise ValueError(f"{info.filename}: trailing bytes")
                yield info.filename[:-4], arr
    except FileError:
        raise
    except FileNotFoundError:
        raise FileError(f"no such file {where!r}") from None
    except IsADirectoryError:
        raise FileError(f"{where!r} is a directory, not a file") from None
    except _DAMAGE as exc:
        raise FileError(f"{where!r} is damaged or not a file asiapoker wrote: "
                        f"{exc.strerror if isinstance(exc, OSError) and exc.strerror else exc}"
                        ) from None


class _Sized:
    """A zip member stream that counts what was read (zip streams cannot tell())."""

    def __init__(self, f: IO[bytes]) -> None:
        self.f, self.pos = f, 0

    def read(self, n: int = -1) -> bytes:
        data = self.f.read(n)
        self.pos += len(data)
        return data

    def readinto(self, buffer: Any) -> int:
        view, got = memoryview(buffer).cast("B"), 0
        while got < len(view):
            n = self.f.readinto(view[got:])      # type: ignore[attr-defined]
            if not n:
                break
            got += n
        self.pos += got
        return got

    def tell(self) -> int:
        return self.pos


def read(path: str | os.PathLike[str], kind: str, identity: Any = None,
         max_bytes: int = MAX_BYTES) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
    """(description, arrays) of a verified file of ``kind``; when ``identity`` is given it
    must equal the recorded one.  Damage, another kind or identity, or a failed checksum is
    a :class:`~asiapoker.errors.FileError` naming the file."""
    return verify(path, dict(read_members(path, max_bytes)), kind, identity)


def verify(path: str | os.PathLike[str], arrays: dict[str, npt.NDArray[Any]], kind: str,
           identity: Any = None) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
    """:func:`read`'s checks on the members already read from ``path``."""
    where = str(path)
    arrays = dict(arrays)
    raw = arrays.pop(_META, None)
    if raw is None:
        raise FileError(f"{where!r} is not a file asiapoker wrote (no description)")
    try:
        meta = json.loads(raw.tobytes().decode())
        ok = isinstance(meta, dict) and meta.get("format") == FORMAT
    except ValueError:
        ok = False
    if not ok:
        raise FileError(f"{where!r} has a description of another format")
    if meta.get("kind") != kind:
        raise FileError(f"{where!r} holds {meta.get('kind')!r}, not {kind!r}")
    if identity is not None and _canonical(meta.get("identity")) != _canonical(identity):
        raise FileError(f"{where!r} holds {kind} {_canonical(meta.get('identity'))[:300]}, "
                        f"not {_canonical(identity)[:300]}")
    shapes = {k: {"dtype": v.dtype.str, "shape": list(v.shape)} for k, v in arrays.items()}
    if shapes != meta.get("arrays") or contents_digest(arrays) != meta.get("sha256"):
        raise FileError(f"{where!r} is damaged: its contents do not match their checksum")
    return meta, arrays
