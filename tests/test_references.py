"""References a user meets resolve: every rule number in the package, the docs, the README
and the examples names a rule of docs/rules.md (and its lettered part, where it names one);
no text a user reads cites SPEC (a document users do not have); every relative link and every
path of the repository that a doc or docstring names exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = (ROOT / "docs" / "rules.md").read_text()
SOURCES = sorted(
    [*ROOT.glob("src/asiapoker/**/*.py"), *ROOT.glob("src/asiapoker/**/*.pyx"),
     *ROOT.glob("src/asiapoker/**/*.pxd"), *ROOT.glob("src/asiapoker/static/*.html"),
     *ROOT.glob("docs/**/*.md"), *ROOT.glob("docs/*.py"), ROOT / "README.md",
     ROOT / "RELEASING.md", *ROOT.glob("examples/**/*.py"), *ROOT.glob("examples/**/*.pyx"),
     *ROOT.glob("examples/**/*.md")])
RULE_REF = re.compile(r"\brules? (\d+)\.(\d+)(?: ([a-e])\))?")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
PATH = re.compile(r"`((?:docs|examples|tools|benchmarks|tests|src)/[\w./-]+)`")


def _paragraph(section: str, number: str) -> str | None:
    m = re.search(rf"^{section}\.{number} (.*?)(?=^\d+\.\d+ |^## |\Z)", RULES, re.S | re.M)
    return m.group(1) if m else None


def _texts():
    for path in SOURCES:
        if path.name == "rules.md":
            continue
        yield path, path.read_text(encoding="utf-8")


def test_there_are_sources_to_check():
    assert len(SOURCES) > 40 and any(p.name == "web.py" for p in SOURCES)


@pytest.mark.parametrize("path", [p for p in SOURCES if p.name != "rules.md"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_rule_number_resolves(path):
    text = path.read_text(encoding="utf-8")
    for m in RULE_REF.finditer(text):
        section, number, part = m.groups()
        body = _paragraph(section, number)
        assert body is not None, f"{path.name}: {m.group(0)!r} is not a rule of docs/rules.md"
        if part:
            assert f"({part})" in body, f"{path.name}: {m.group(0)!r} has no part ({part})"
    assert "SPEC" not in text, f"{path.name} cites SPEC, which users do not have"


@pytest.mark.parametrize("path", [p for p in SOURCES if p.suffix == ".md"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_and_named_path_exists(path):
    text = path.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):           # http:, https:, mailto:
            continue
        assert (path.parent / target).exists(), f"{path.name} links to missing {target}"
    for named in PATH.findall(text):
        if any(c in named for c in "*{}") or named.endswith("/"):
            continue
        assert (ROOT / named).exists(), f"{path.name} names missing {named}"


def test_a_missing_rule_is_caught():
    """The check itself can fail: a rule that does not exist, and a part that does not."""
    assert _paragraph("5", "4") is not None and _paragraph("5", "9") is None
    assert "(a)" in (_paragraph("5", "6") or "") and "(f)" not in (_paragraph("5", "6") or "")
