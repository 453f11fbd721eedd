#!/bin/sh
# The checks that run before the tests (CI runs them through the README's test command):
# lint, strict types, the compiled core's stubs against the compiled modules, the import
# layers, the API reference built with warnings as errors, the packages, and the core built
# with clang and tested (the suite itself runs on the GCC build).
set -e
ruff check src tests benchmarks examples docs tools
mypy --strict
python -m mypy.stubtest asiapoker._core --ignore-disjoint-bases --allowlist tools/stubtest-allowlist.txt
lint-imports --no-cache
python tools/build_api.py build/api
sh tools/check_package.sh
sh tools/check_clang.sh
