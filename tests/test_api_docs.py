"""The API reference documents what it shows: every parameter of every public function, in
numpydoc sections for the package's own names, and a built reference (pdoc) whose index
reaches every public module, with no raw roles, no expanded numpy types and no private
names."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import importlib.util
import inspect
import itertools
import pkgutil
import re
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

import asiapoker

ROOT = Path(__file__).resolve().parents[1]
#: The calls a user reads first: they document parameters, returns and errors in sections.
SECTIONED = ("asiapoker.solve", "asiapoker.solve_many", "asiapoker.solve_chunks",
             "asiapoker.count_splits", "asiapoker.solve_spots", "asiapoker.analysis.analyze",
             "asiapoker.HouseWay.named", "asiapoker.HouseWay.priority",
             "asiapoker.HouseWay.from_function", "asiapoker.HouseWay.from_table",
             "asiapoker.HouseWay.from_card", "asiapoker.HouseWay.load", "asiapoker.simulate",
             "asiapoker.Table", "asiapoker.card_search.generate", "asiapoker.pricing.price",
             "asiapoker.web.create_app")


class Entry(NamedTuple):
    name: str
    obj: Any
    params: tuple[str, ...]
    doc: str
    fields: frozenset[str]  # a record's fields that carry their own docstring


def public_modules() -> list[str]:
    return ["asiapoker", *sorted(f"asiapoker.{m.name}" for m in
                                 pkgutil.iter_modules(asiapoker.__path__)
                                 if not m.name.startswith("_"))]


def documented_fields(cls: type) -> frozenset[str]:
    """Fields of a class body followed by a string (their docstring, as pdoc reads it)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError):
        return frozenset()
    body = tree.body[0].body  # type: ignore[attr-defined]
    return frozenset(node.target.id for node, after in itertools.pairwise(body)
                     if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                     and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                     and isinstance(after.value.value, str))


def _params(fn: Callable[..., Any]) -> tuple[str, ...]:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return ()
    star = {inspect.Parameter.VAR_POSITIONAL: "*", inspect.Parameter.VAR_KEYWORD: "**"}
    return tuple(star.get(p.kind, "") + p.name for p in sig.parameters.values()
                 if p.name not in ("self", "cls") and not p.name.startswith("_"))


def entries(modules: list[str] | None = None) -> Iterator[Entry]:
    """Every public function, method and class (its constructor) the modules export."""
    seen: set[int] = set()
    for module_name in modules or public_modules():
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if id(obj) in seen or inspect.ismodule(obj):
                continue
            seen.add(id(obj))
            qual = f"{module_name}.{name}"
            if inspect.isclass(obj):
                if issubclass(obj, BaseException):
                    continue
                yield Entry(qual, obj, _params(obj), inspect.getdoc(obj) or "",
                            documented_fields(obj))
                for attr, value in vars(obj).items():
                    fn = value.__func__ if isinstance(value, classmethod | staticmethod) else value
                    if not attr.startswith("_") and inspect.isfunction(fn):
                        yield Entry(f"{qual}.{attr}", fn, _params(fn),
                                    inspect.getdoc(fn) or "", frozenset())
            elif inspect.isfunction(obj) or inspect.isbuiltin(obj):
                yield Entry(qual, obj, _params(obj), inspect.getdoc(obj) or "", frozenset())


def sections(doc: str) -> dict[str, list[str]]:
    """A numpydoc docstring's sections: header -> its lines."""
    lines = doc.splitlines()
    found: dict[str, list[str]] = {}
    current = None
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and line.strip() and re.fullmatch(r"-{3,}", lines[i + 1].strip()):
            current = line.strip()
            found[current] = []
        elif current is not None and not re.fullmatch(r"-{3,}", line.strip()):
            found[current].append(line)
    return found


def section_names(doc: str) -> list[str]:
    """The names a ``Parameters`` section describes (``a, b : int`` describes two)."""
    names = []
    for line in sections(doc).get("Parameters", []):
        m = re.match(r"^(\*{0,2}\w+(?:, \*{0,2}\w+)*)(?: : |$)", line)
        if m:
            names += m.group(1).split(", ")
    return names


def undescribed(entry: Entry) -> list[str]:
    """The entry's parameters its docstring does not describe: in its ``Parameters``
    section when it has one, else named in double backquotes (or, for a record's field, a
    docstring of its own)."""
    if "Parameters" in sections(entry.doc):
        named = set(section_names(entry.doc))
        return [p for p in entry.params if p not in named]
    return [p for p in entry.params
            if p.lstrip("*") not in entry.fields
            and f"``{p.lstrip('*')}``" not in entry.doc and f"``{p}``" not in entry.doc]


def test_every_parameter_is_described():
    missing = {e.name: undescribed(e) for e in entries() if undescribed(e)}
    assert missing == {}


def test_the_check_sees_an_undescribed_parameter():
    def f(hands: Any, way: str = "x", *, seed: int = 0) -> None:
        """Solve ``hands`` against ``way``."""

    def g(hands: Any, seed: int = 0) -> None:
        """Solve them.

        Parameters
        ----------
        hands : array_like
            The hands; ``seed`` is named here but not described in the section.
        """

    @dataclasses.dataclass
    class R:
        """A record of ``a``."""

        a: int
        b: int
        """Described by its own docstring."""
        c: int

    assert undescribed(Entry("f", f, _params(f), inspect.getdoc(f) or "", frozenset())) == ["seed"]
    assert undescribed(Entry("g", g, _params(g), inspect.getdoc(g) or "", frozenset())) == ["seed"]
    assert undescribed(Entry("R", R, _params(R), inspect.getdoc(R) or "",
                             documented_fields(R))) == ["c"]


@pytest.mark.parametrize("name", SECTIONED)
def test_the_main_calls_document_parameters_returns_and_raises(name):
    entry = next(e for e in entries() if e.name == name)
    found = sections(entry.doc)
    assert "Parameters" in found and "Raises" in found, name
    assert "Returns" in found or inspect.isclass(entry.obj), name
    assert section_names(entry.doc) == list(entry.params), name   # each once, in order
    raised = [line.split()[0] for line in found["Raises"] if line and not line[0].isspace()]
    assert raised and all(hasattr(asiapoker.errors, r) for r in raised), (name, raised)


def is_record(obj: Any) -> bool:
    """A dataclass or named tuple: its fields are read, not passed (they document
    themselves)."""
    return dataclasses.is_dataclass(obj) or (inspect.isclass(obj) and issubclass(obj, tuple)
                                             and hasattr(obj, "_fields"))


def test_every_function_the_package_exports_has_sections():
    """The package's own names (``asiapoker.X``) describe their parameters in sections."""
    flat = [e.name for e in entries(["asiapoker"])
            if e.params and not is_record(e.obj) and "Parameters" not in sections(e.doc)]
    assert flat == []


def _build_api(out: Path) -> list[Path]:
    spec = importlib.util.spec_from_file_location("build_api", ROOT / "tools" / "build_api.py")
    assert spec is not None and spec.loader is not None
    build_api = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_api)
    return build_api.build(out)  # type: ignore[no-any-return]


def test_the_reference_reaches_every_module_and_shows_no_raw_text(tmp_path):
    pytest.importorskip("pdoc")
    pages = _build_api(tmp_path)
    index = (tmp_path / "asiapoker.html").read_text()
    for module in public_modules()[1:]:
        page = module.replace(".", "/") + ".html"
        assert (tmp_path / page).exists(), page
        assert f'href="{page}"' in index, f"the index does not link {page}"
    leftovers = {}
    for page in pages:
        text = re.sub(r"<[^>]+>", "", page.read_text())
        bad = re.findall(r":(?:func|class|meth|data|attr|mod|exc|obj|ref):`|`~|"
                         r"numpy\.ndarray\[tuple|Union\[|asiapoker\._\w+|numpy\._typing", text)
        if bad:
            leftovers[page.name] = sorted(set(bad))
    assert leftovers == {}
