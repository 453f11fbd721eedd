"""Check that an sdist holds what building the package needs: every ``.pyx``, ``.pxd``, ``.h`` and
``.pyi`` file and every data file of the source tree, besides ``setup.py`` and
``pyproject.toml`` (tools/check_package.sh runs it).

    python tools/sdist_contents.py dist/asiapoker-X.tar.gz
"""

from __future__ import annotations

import sys
import tarfile
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "asiapoker"
NEEDED = ("*.pyx", "*.pxd", "*.pyi", "*.h", "py.typed", "data/*", "static/*")


def main(path: str) -> int:
    with tarfile.open(path) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    want = {f"src/asiapoker/{p.relative_to(SRC)}" for pattern in NEEDED
            for p in SRC.rglob(pattern) if p.is_file()}
    want |= {"setup.py", "pyproject.toml", "README.md"}
    missing = sorted(want - names)
    if missing:
        print(f"{path} lacks: {', '.join(missing)}", file=sys.stderr)
        return 1
    print(f"{path}: every one of the {len(want)} source and data files is there")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
