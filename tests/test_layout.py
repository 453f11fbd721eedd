"""The layout holds: a short README, results pages written from the shipped data, no private
name that crosses a module, one version, a core split by concept."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
from pathlib import Path

import pytest

import asiapoker
from asiapoker.cli import main

ROOT = Path(__file__).resolve().parents[1]
SRC = Path(asiapoker.__file__).parent


def test_readme_is_short():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 150


def test_results_tables_are_the_shipped_data():
    spec = importlib.util.spec_from_file_location("collect", ROOT / "tools" / "collect_analysis.py")
    assert spec is not None and spec.loader is not None
    collect = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(collect)
    for page, text in collect.tables().items():
        assert page.read_text() == text, f"{page} differs: run python tools/collect_analysis.py"


def test_no_private_name_crosses_a_module():
    """``from .module import _name`` only from the package's private modules (``_core``,
    ``_validate``, ...), never a private name of a public one."""
    crossing = []
    for path in SRC.glob("*.py"):
        text = path.read_text()
        for m in re.finditer(r"^\s*from \.(\w+) import (\([^)]*\)|[^\n]*)", text, re.M):
            module, names = m.group(1), m.group(2)
            if module.startswith("_"):
                continue
            for name in re.findall(r"\b\w+\b", names):
                if name.startswith("_") and name != "__version__":
                    crossing.append(f"{path.name}: {module}.{name}")
    assert crossing == []


def facades(package_dir: Path) -> list[str]:
    """Names a module's ``__all__`` exports that the module only imports (a façade), for
    every module but the package's ``__init__``."""
    found = []
    for path in sorted(package_dir.glob("*.py")):
        if path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_text())
        imported = {a.asname or a.name.split(".")[0] for node in ast.walk(tree)
                    if isinstance(node, ast.Import | ast.ImportFrom) for a in node.names}
        exported: list[str] = []
        for node in tree.body:
            if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__"
                                                     for t in node.targets)):
                exported = [e.value for e in node.value.elts]  # type: ignore[attr-defined]
        found += [f"{path.stem}.{n}" for n in exported if n in imported]
    return found


def test_every_module_exports_only_what_it_defines(tmp_path):
    """``__all__`` holds a module's own names: callers import a name from its home module."""
    assert facades(SRC) == []
    # the check sees a façade: a module that re-exports an imported name is named
    (tmp_path / "a.py").write_text("from .b import f\n__all__ = [\"f\", \"g\"]\ndef g(): pass\n")
    assert facades(tmp_path) == ["a.f"]


def test_one_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"asiapoker {asiapoker.__version__}"
    assert _no_second_version((ROOT / "pyproject.toml").read_text())
    assert not _no_second_version('[project]\nname = "asiapoker"\nversion = "9.9"\n'
                                  'dynamic = ["version"]\n')


def _no_second_version(pyproject: str) -> bool:
    """Whether the [project] table leaves the version to ``asiapoker.__version__``: no
    ``version =`` key, ``version`` among its dynamic fields, read from the attribute."""
    project = pyproject.split("\n[project]\n")[-1].split("\n[")[0]
    keys = {line.split("=")[0].strip(): line.split("=", 1)[1].strip()
            for line in project.splitlines() if "=" in line and not line.startswith(" ")}
    return ("version" not in keys and '"version"' in keys.get("dynamic", "")
            and 'attr = "asiapoker.__version__"' in pyproject)


def test_every_public_name_has_a_docstring():
    import importlib
    import inspect
    import pkgutil
    missing = []
    for info in pkgutil.iter_modules(asiapoker.__path__):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"asiapoker.{info.name}")
        assert (mod.__doc__ or "").strip(), info.name
        for name, obj in vars(mod).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != mod.__name__:
                continue
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            if not (obj.__doc__ or "").strip():
                missing.append(f"{info.name}.{name}")
            for attr, value in vars(obj).items() if inspect.isclass(obj) else ():
                f = value.fget if isinstance(value, property) else value
                if not attr.startswith("_") and inspect.isfunction(f) and not (
                        f.__doc__ or "").strip():
                    missing.append(f"{info.name}.{name}.{attr}")
    assert missing == []


def _verbatim_c(pxd: str) -> list[str]:
    """The C texts of a .pxd's ``cdef extern from *`` blocks."""
    return re.findall(r'cdef extern from \*:\s*"""(.*?)"""', pxd, re.S)


def _inline_functions(pxd: str) -> list[str]:
    """The names of a .pxd's ``cdef inline`` functions."""
    return re.findall(r"^cdef inline [^(]*?(\w+)\(", pxd, re.M)


def test_the_core_is_one_module_a_concept():
    """Each compiled module of the core is named with its concept in the core's table, has a
    type stub, and the core package re-exports every name its stub declares (and nothing
    else)."""
    core = SRC / "_core"
    modules = sorted(p.stem for p in core.glob("*.pyx"))
    assert len(modules) >= 10 and modules == sorted(p.stem for p in core.glob("*.pyi"))
    table = asiapoker._core.__doc__ or ""
    assert [m for m in modules if not re.search(rf"^``{m}``\s+\w", table, re.M)] == []
    exported = set()
    for name in modules:
        stub = ast.parse((core / f"{name}.pyi").read_text())
        declared = {node.name for node in stub.body
                    if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
        declared |= {node.target.id for node in stub.body
                     if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}
        module = importlib.import_module(f"asiapoker._core.{name}")
        for attr in declared:
            assert getattr(asiapoker._core, attr) is getattr(module, attr), (name, attr)
        exported |= declared
    assert set(asiapoker._core.__all__) == exported


def test_the_core_headers_declare():
    """A .pxd declares: its C text is ``#define`` lines (and comments), and each of its
    inline functions is one another module calls (Cython inlines across modules only from a
    .pxd) or one of its shared functions calls; C lives in .h headers, each opening with what
    it is for."""
    core = SRC / "_core"
    sources = {p.name: p.read_text() for p in core.iterdir() if p.suffix in (".pyx", ".pxd")}
    c_code = []
    unshared = []
    for name, text in sources.items():
        if not name.endswith(".pxd"):
            continue
        for c in _verbatim_c(text):
            c = re.sub(r"/\*.*?\*/", "", c, flags=re.S)
            c_code += [f"{name}: {line.strip()}" for line in c.splitlines()
                       if line.strip() and not line.strip().startswith("#define")]
        own = name.removesuffix(".pxd") + ".pyx"
        for fn in _inline_functions(text):
            used = [other for other, body in sources.items() if other not in (name, own)
                    and re.search(rf"\b{fn}\(", body)]
            calls = len(re.findall(rf"\b{fn}\(", text)) > 1    # its definition, and a call
            if not used and not calls:
                unshared.append(f"{name}: {fn}")
    assert c_code == [] and unshared == []
    headers = sorted(core.glob("*.h"))
    assert headers and all(h.read_text().startswith("/* ") for h in headers)


def test_the_package_imports_its_heavier_modules_on_first_use():
    """``import asiapoker`` leaves the whole game, the table and simulation to their first
    use (a first best_splits or solve stays quick); every exported name still resolves."""
    import subprocess
    import sys

    code = ("import sys, asiapoker; print(sorted(m for m in ('analysis', 'simulation', 'table', "
            "'spots', 'sampling') if 'asiapoker.' + m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True).stdout
    assert out.strip() == "[]"
    public = {p.stem for p in SRC.glob("*.py") if not p.stem.startswith("_")}
    assert asiapoker._SUBMODULES == public
    for name in asiapoker.__all__:
        value = getattr(asiapoker, name)
        home = asiapoker._LAZY.get(name)
        if home is not None and home != name:
            assert value is getattr(importlib.import_module(f"asiapoker.{home}"), name)
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        asiapoker.nothing_here  # noqa: B018
