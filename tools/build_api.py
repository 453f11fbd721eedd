"""Build the API reference (pdoc) from the docstrings and type hints, warnings as errors.

    pip install ".[lint]"                    # pdoc
    python tools/build_api.py [OUT]          # default: build/api; open OUT/index.html

pdoc was chosen because it needs no configuration and no source of its own: it renders the
package as Python sees it (docstrings, signatures, type hints), so the reference cannot drift
from the code.  Every public module gets a page, and the package page's sidebar links every
one of them (``tools/api_templates``); private modules (a leading underscore) and the compiled
core's internals are left out.  Docstrings are numpydoc (``Parameters``, ``Returns``,
``Raises`` sections) over reStructuredText roles.

Long types are shown by name: an annotation equal to one of the package's type aliases (a
public module's ``__all__`` name whose value is a type, such as ``asiapoker.WayLike``) is shown
as that alias, a numpy array as ``numpy.typing.NDArray[numpy.int8]``, and numpy's own
``DTypeLike`` and ``ArrayLike`` by those names, instead of their expansions.
"""

from __future__ import annotations

import collections.abc
import contextlib
import functools
import importlib
import inspect
import sys
import types
import typing
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    import pdoc
    import pdoc.doc
    import pdoc.render
except ImportError:
    sys.exit("building the API reference needs pdoc: pip install '.[lint]'")

import asiapoker

ROOT = Path(asiapoker.__file__).parent
TEMPLATES = Path(__file__).parent / "api_templates"
#: The origins whose subscripts are shown with their arguments named in turn.
_GENERIC = (tuple, list, dict, set, frozenset, type, collections.abc.Sequence,
            collections.abc.Iterable, collections.abc.Iterator, collections.abc.Mapping)


def public_modules() -> list[str]:
    """The package and every public module in it, the package first."""
    names = sorted(p.stem for p in ROOT.glob("*.py") if not p.stem.startswith("_"))
    return ["asiapoker"] + [f"asiapoker.{n}" for n in names]


def _specs() -> list[str]:
    """What pdoc is given: pdoc walks the modules the package's ``__all__`` names itself."""
    walked = {f"asiapoker.{n}" for n in asiapoker.__all__ if (ROOT / f"{n}.py").exists()}
    return [m for m in public_modules() if m not in walked]


def type_aliases() -> dict[Any, str]:
    """Every type alias a public module exports (its ``__all__`` names a type expression),
    keyed by its value, named by the module that defines it."""
    aliases: dict[Any, str] = {npt.DTypeLike: "numpy.typing.DTypeLike",
                               npt.ArrayLike: "numpy.typing.ArrayLike"}
    for module_name in public_modules()[1:]:
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            if typing.get_origin(value) is not None or isinstance(value, types.UnionType):
                aliases.setdefault(value, f"{module_name}.{name}")
    return aliases


def alias_formatter(aliases: dict[Any, str],
                    fallback: Callable[[Any], str]) -> Callable[..., str]:
    """``formatannotation`` that names aliases and numpy arrays, inside unions and generics
    too, and leaves everything else to ``fallback``; ``expand=True`` shows an alias's own
    value (its definition) rather than its name."""

    unions = sorted(((typing.get_args(v), n) for v, n in aliases.items()
                     if typing.get_origin(v) is typing.Union or isinstance(v, types.UnionType)),
                    key=lambda item: -len(item[0]))

    def fmt(annotation: Any, expand: bool = False) -> str:
        try:
            named = None if expand else aliases.get(annotation)
        except TypeError:  # unhashable (a Literal of a list, say)
            named = None
        if named is not None:
            return named
        if annotation is type(None):
            return "None"
        origin, args = typing.get_origin(annotation), typing.get_args(annotation)
        if origin is np.ndarray and len(args) == 2 and typing.get_origin(args[1]) is np.dtype:
            return f"numpy.typing.NDArray[{fmt(typing.get_args(args[1])[0])}]"
        if origin is typing.Union or isinstance(annotation, types.UnionType):
            rest, parts = list(args), []
            for value, name in [] if expand else unions:  # an alias within it (X | None)
                if set(value) <= set(rest):
                    parts.append(name)
                    rest = [a for a in rest if a not in value]
            return " | ".join(parts + [fmt(a) for a in rest])
        if origin is collections.abc.Callable and len(args) == 2 and isinstance(args[0], list):
            return f"Callable[[{', '.join(fmt(a) for a in args[0])}], {fmt(args[1])}]"
        if origin in _GENERIC and args:
            head = origin.__name__ if origin.__module__ == "builtins" else origin.__qualname__
            return f"{head}[{', '.join('...' if a is Ellipsis else fmt(a) for a in args)}]"
        if isinstance(annotation, type) and annotation.__module__ == "numpy":
            return f"numpy.{annotation.__name__}"
        return fallback(annotation)

    return fmt


@contextlib.contextmanager
def named_annotations() -> Iterator[None]:
    """Render annotations with :func:`alias_formatter` while the block runs (pdoc formats
    parameters through ``inspect.formatannotation`` and the rest through its own import),
    and show each alias's own value on its page."""
    saved = inspect.formatannotation, pdoc.doc.formatannotation
    value_str = pdoc.doc.Variable.__dict__["default_value_str"]
    fmt = alias_formatter(type_aliases(), saved[0])

    def alias_value(self: pdoc.doc.Variable) -> str:
        if self.annotation is typing.TypeAlias:  # type: ignore[comparison-overlap]
            return str(pdoc.doc._remove_collections_abc(fmt(self.default_value, expand=True)))
        return str(value_str.func(self))

    own = functools.cached_property(alias_value)
    own.__set_name__(pdoc.doc.Variable, "default_value_str")
    inspect.formatannotation = fmt
    pdoc.doc.formatannotation = fmt
    pdoc.doc.Variable.default_value_str = own
    try:
        yield
    finally:
        inspect.formatannotation = saved[0]
        pdoc.doc.formatannotation = saved[1]
        pdoc.doc.Variable.default_value_str = value_str


def build(out: Path) -> list[Path]:
    """Write the reference into ``out``; the pages written."""
    pdoc.render.configure(docformat="numpy", show_source=False, template_directory=TEMPLATES)
    with warnings.catch_warnings(), named_annotations():
        warnings.simplefilter("error")
        pdoc.pdoc(*_specs(), output_directory=out)
    return [out / "asiapoker.html", *sorted((out / "asiapoker").glob("*.html"))]


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "build/api")
    pages = build(out)
    print(f"API reference: {out / 'index.html'} ({len(pages)} pages)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
