#!/bin/sh
# The packages a release uploads, built and tried as a user gets them (CI runs this from
# tools/check.sh): an sdist, and a wheel built from that sdist alone; twine's checks of both;
# the sdist holds every .pyx, .pxd, .pyi and data file; the wheel installed in a fresh venv
# with no source tree beside it solves the README's first hand and passes the package's
# doctests.  Needs the release extra (build, twine) and the package registry for the build.
set -e
here=$(pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python -m build --outdir "$out/dist" "$here" > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
twine check --strict "$out"/dist/*
python tools/sdist_contents.py "$out"/dist/*.tar.gz
python -m venv "$out/venv"
"$out/venv/bin/pip" install -q "$out"/dist/*.whl
cd "$out"
"$out/venv/bin/asiapoker" solve "As Kd 7h 7c Jk 2s 9d" | head -3
"$out/venv/bin/python" - <<'PY'
import doctest, importlib, pkgutil, sys
import asiapoker
assert "site-packages" in asiapoker.__file__, asiapoker.__file__
failed = attempted = 0
for m in sorted(pkgutil.iter_modules(asiapoker.__path__), key=lambda m: m.name):
    if m.name in ("__main__", "_core"):
        continue
    r = doctest.testmod(importlib.import_module(f"asiapoker.{m.name}"),
                        optionflags=doctest.ELLIPSIS)
    failed, attempted = failed + r.failed, attempted + r.attempted
r = doctest.testmod(asiapoker, optionflags=doctest.ELLIPSIS)
failed, attempted = failed + r.failed, attempted + r.attempted
print(f"the installed wheel: {attempted} doctests, {failed} failed")
sys.exit(1 if failed or attempted < 50 else 0)
PY
