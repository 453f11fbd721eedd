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

import contextlib
import hashlib
import json
import os
import re
import shutil
import stat
import tempfile
import warnings
import zipfile
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from .errors import FileError, FileWriteError

__all__ = ["FORMAT", "MAX_BYTES", "MAX_DEPTH", "MAX_TEXT", "META", "atomic_path",
           "atomic_write", "contents_digest", "little_endian", "open_regular", "parse_json",
           "read", "read_bytes", "read_json", "read_members", "set_aside", "verify",
           "writable_target", "write", "write_cache", "write_text"]

FORMAT = 2
"""The layout version of these files."""
META = "__asiapoker__"
"""The member that holds a file's description."""
MAX_BYTES = 1 << 30
"""The most array bytes a file may declare (the largest the package writes is ~60 MB)."""
_MAX_META = 1 << 20
MAX_TEXT = 64 << 20
"""The largest text or JSON file the package reads (summaries, cards, run descriptions)."""
MAX_DEPTH = 64
"""The deepest a JSON document the package reads may nest."""
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
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


def open_regular(path: str | os.PathLike[str], max_bytes: int) -> IO[bytes]:
    """``path`` opened for reading, only when it is a regular file of at most ``max_bytes``:
    a FIFO, a device or a directory is a :class:`asiapoker.errors.FileError` naming it at
    once (the file is opened without blocking, and checked before a byte is read)."""
    where = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(
            os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise FileError(f"no such file {where!r}") from None
    except IsADirectoryError:
        raise FileError(f"{where!r} is a directory, not a file") from None
    except OSError as exc:
        raise FileError(f"cannot read {where!r}: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileError(f"{where!r} is {_kind_of(st.st_mode)}, not a regular file")
        if st.st_size > max_bytes:
            raise FileError(f"{where!r} is {st.st_size:,} bytes, more than such a file can "
                            f"be ({max_bytes:,})")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _kind_of(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a pipe (FIFO)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"  # pragma: no cover - every kind is named above


def read_bytes(path: str | os.PathLike[str], max_bytes: int = MAX_TEXT) -> bytes:
    """The whole regular file at ``path`` (:func:`open_regular`'s checks)."""
    with open_regular(path, max_bytes) as f:
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise FileError(f"{str(path)!r} grew past {max_bytes:,} bytes while it was read")
    return data


def read_json(path: str | os.PathLike[str], what: str = "JSON file",
              max_bytes: int = MAX_TEXT) -> Any:
    """The JSON document in the regular file at ``path``: the one decoder of every JSON file
    the package reads.  Not UTF-8, not JSON, nested too deeply (or too large) is a
    :class:`asiapoker.errors.FileError` naming the file and ``what`` it should be."""
    return parse_json(read_bytes(path, max_bytes), f"{what} {str(path)!r}")


def parse_json(data: bytes | str, where: str) -> Any:
    """JSON text (bytes must be UTF-8) decoded, or a :class:`asiapoker.errors.FileError`
    naming ``where``; the document may nest at most :data:`MAX_DEPTH` deep."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as exc:
        raise FileError(f"{where} is not UTF-8 text (byte {exc.start})") from None
    depth = _max_depth(text)
    if depth > MAX_DEPTH:
        raise FileError(f"{where} nests {depth:,} levels deep (at most {MAX_DEPTH})")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise FileError(f"{where} is not JSON: {exc}"[:300]) from None


def _max_depth(text: str) -> int:
    """How deep brackets nest in JSON text (strings skipped), counted without recursion."""
    depth = best = 0
    for m in _JSON_TOKENS.finditer(text):
        t = m.group()
        if t in "[{":
            depth += 1
            best = max(best, depth)
        elif t in "]}":
            depth -= 1
    return best


def writable_target(path: str | os.PathLike[str], owned: bool = False) -> tuple[Path, bool]:
    """Where writing ``path`` goes, checked before anything is written: (the file, whether
    to write through it).  A path the user named (``owned`` false) that is a symlink is
    followed to the file it names (the link stays); a file the package owns (a cache:
    ``owned``) never writes through a link, the link itself is replaced.  A character device
    (such as /dev/null) is written through, never replaced; a directory, a pipe, a socket or
    a block device is a :class:`asiapoker.errors.FileError` naming it."""
    link = os.path.islink(path)
    target = Path(os.path.realpath(path)) if link and not owned else Path(path)
    if link and owned:
        return target, False                 # os.replace swaps the link for the file
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return target, False
    except OSError as exc:
        raise FileError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    if stat.S_ISREG(st.st_mode):
        return target, False
    if stat.S_ISCHR(st.st_mode):
        return target, True
    raise FileError(f"cannot write {str(path)!r}: it is {_kind_of(st.st_mode)}, not a "
                    f"regular file")


def _write_error(path: str | os.PathLike[str], exc: OSError) -> FileWriteError:
    if isinstance(exc, FileNotFoundError) and not Path(path).parent.exists():
        return FileWriteError(f"cannot write {str(path)!r}: its folder "
                              f"{str(Path(path).parent)!r} does not exist")
    return FileWriteError(f"cannot write {str(path)!r}: {exc.strerror or exc}")


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str], owned: bool = False) -> Iterator[Path]:
    """The one way the package writes a file: a fresh temporary file in the target's folder
    (a unique name, so two writers never share one) is yielded for the caller to fill (by
    name: Parquet writers, plotting libraries), then renamed over ``path`` when the block
    ends without an exception, and removed otherwise.  The target is checked first
    (:func:`writable_target`: a directory, pipe, socket or block device is refused, naming
    it; a character device is written through, never replaced).  A failed write is a
    :class:`asiapoker.errors.FileWriteError` naming the file."""
    target, through = writable_target(path, owned)
    folder = target.parent if not through else Path(tempfile.gettempdir())
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=f".{target.name}-", suffix=".tmp")
        os.close(fd)
    except OSError as exc:
        raise _write_error(path, exc) from None
    tmp = Path(name)
    try:
        yield tmp
        if through:                      # a device cannot be replaced: copy the bytes in
            with open(tmp, "rb") as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
        else:
            os.chmod(tmp, 0o644)             # readable like any other file (mkstemp: 0600)
            os.replace(tmp, target)
    except OSError as exc:
        raise _write_error(path, exc) from None
    finally:
        tmp.unlink(missing_ok=True)


def atomic_write(path: str | os.PathLike[str], data: bytes | None = None,
                 arrays: Mapping[str, npt.NDArray[Any]] | None = None,
                 compress: bool = False, owned: bool = False) -> None:
    """Write ``data`` (or ``arrays`` as an .npz) to ``path`` whole or not at all, through
    :func:`atomic_path` (its checks; ``owned`` for a file the package owns, whose link is
    replaced, not followed)."""
    with atomic_path(path, owned) as tmp, open(tmp, "wb") as f:
        _put(f, data, arrays, compress)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through :func:`atomic_write`."""
    atomic_write(path, text.encode("utf-8"))


def set_aside(path: str | os.PathLike[str]) -> Path | None:
    """Rename a damaged file out of the way, to ``NAME.bad`` or, when that is taken,
    ``NAME.1.bad``, ``NAME.2.bad`` ...: a set-aside file never replaces another.  Returns
    the new name (None when the file could not be moved)."""
    p = Path(path)
    for k in range(1000):
        cand = p.with_suffix(".bad" if k == 0 else f".{k}.bad")
        try:
            os.link(p, cand)             # fails when cand exists: nothing is replaced
        except FileExistsError:
            continue
        except OSError:
            return None
        p.unlink(missing_ok=True)
        return cand
    return None


def write_cache(path: Path, kind: str, identity: Any, arrays: Mapping[str, npt.NDArray[Any]],
                what: str) -> None:
    """Write a cache file (:func:`write`, as a file the package owns: a link at ``path`` is
    replaced, not written through); a folder that cannot take it (read-only, full) is a
    warning naming ``what``, not a failure: the caller has its answer anyway."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write(path, kind, identity, arrays, owned=True)
    except (OSError, FileError) as exc:
        warnings.warn(f"could not write the {what} cache {str(path)!r}: {exc}", stacklevel=3)


def _put(f: IO[bytes], data: bytes | None, arrays: Mapping[str, npt.NDArray[Any]] | None,
         compress: bool) -> None:
    if arrays is not None:
        (np.savez_compressed if compress else np.savez)(f, **arrays)  # type: ignore[arg-type]
    else:
        f.write(data or b"")


def write(path: str | os.PathLike[str], kind: str, identity: Any,
          arrays: Mapping[str, npt.NDArray[Any]], compress: bool = False,
          owned: bool = False) -> str:
    """Write ``arrays`` atomically as a verified file of ``kind`` holding ``identity`` (any
    JSON-ready value); returns the contents' sha256.  ``owned``: a file the package owns (a
    cache), whose link is replaced rather than followed."""
    plain = {k: np.ascontiguousarray(v) for k, v in arrays.items()}
    if META in plain:
        raise ValueError(f"{META} is reserved")
    sha = contents_digest(plain)
    meta = {"format": FORMAT, "kind": kind, "identity": identity, "sha256": sha,
            "arrays": {k: {"dtype": v.dtype.str, "shape": list(v.shape)}
                       for k, v in plain.items()}}
    text = np.frombuffer(_canonical(meta).encode(), dtype=np.uint8)
    atomic_write(path, arrays={**plain, META: text}, compress=compress, owned=owned)
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
    it is read; :class:`asiapoker.errors.FileError` naming the file when anything is off."""
    where = str(path)
    try:
        with open_regular(path, max_bytes + _MAX_META + (1 << 20)) as raw, \
                zipfile.ZipFile(raw) as z:
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
    a :class:`asiapoker.errors.FileError` naming the file."""
    return verify(path, dict(read_members(path, max_bytes)), kind, identity)


def verify(path: str | os.PathLike[str], arrays: dict[str, npt.NDArray[Any]], kind: str,
           identity: Any = None) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
    """:func:`read`'s checks on the members already read from ``path``."""
    where = str(path)
    arrays = dict(arrays)
    raw = arrays.pop(META, None)
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
