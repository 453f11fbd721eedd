#!/bin/sh
# The core built with clang as well as GCC: Debian's clang (installed with apt when missing),
# a copy of the source tree built in place with CC=clang, and the core's tests run against
# that build (tools/check.sh runs this; the main suite runs against the GCC build).
set -e
cd "$(dirname "$0")/.."
if ! command -v clang >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO="sudo"
    echo "installing clang with apt-get" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang >/dev/null
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r src setup.py pyproject.toml README.md "$work"/
find "$work/src" \( -name '*.so' -o -name '*.c' -o -name '*.pyd' \) -delete
(cd "$work" && CC=clang python setup.py -q build_ext --inplace > build.log 2>&1) || {
    tail -40 "$work/build.log"; exit 1; }
for so in "$work"/src/asiapoker/_core/*.so; do       # each module compiled by clang
    readelf -p .comment "$so" | grep -q clang || { echo "$so: not built by clang" >&2; exit 1; }
done
PYTHONPATH="$work/src" ASIAPOKER_CACHE_DIR="$work/cache" python -c \
    "import asiapoker, sys; sys.exit(not asiapoker.__file__.startswith('$work'))"
PYTHONPATH="$work/src" ASIAPOKER_CACHE_DIR="$work/cache" python -m pytest -q -p no:cacheprovider \
    tests/test_ranks.py tests/test_setting.py tests/test_solver.py tests/test_kernel_shapes.py \
    tests/test_known.py tests/test_optimal.py tests/test_bonus.py tests/test_house_way.py
echo "the core built with clang passes its tests"
