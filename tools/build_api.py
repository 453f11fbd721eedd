"""Build the API reference (pdoc) from the docstrings and type hints, warnings as errors.

    python tools/build_api.py [OUT]          # default: build/api; open OUT/index.html

pdoc was chosen because it needs no configuration and no source of its own: it renders the
package as Python sees it (docstrings, signatures, type hints), so the reference cannot drift
from the code.  Every public module gets a page; private modules (a leading underscore) and
the compiled core's internals are left out.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pdoc
import pdoc.render

import asiapoker

ROOT = Path(asiapoker.__file__).parent


def public_modules() -> list[str]:
    """The package and every public module in it."""
    names = sorted(p.stem for p in ROOT.glob("*.py") if not p.stem.startswith("_"))
    # the package page already walks the modules its __all__ names
    walked = {n for n in asiapoker.__all__ if (ROOT / f"{n}.py").exists()}
    return ["asiapoker"] + [f"asiapoker.{n}" for n in names if n not in walked]


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "build/api")
    # the docstrings are reStructuredText (:func:`...`, ``code``, doctests)
    pdoc.render.configure(docformat="restructuredtext", show_source=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pdoc.pdoc(*public_modules(), output_directory=out)
    pages = sorted(p.name for p in (out / "asiapoker").glob("*.html"))
    print(f"API reference: {out / 'index.html'} ({len(pages) + 1} pages)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
