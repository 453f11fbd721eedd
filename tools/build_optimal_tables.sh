#!/bin/sh
# The four optimal-play tables shipped in src/asiapoker/data (optimal-WAY-A234.npz), each from a
# whole run of `asiapoker analyze` (about 2 to 3 minutes each on two cores; a killed run
# resumes with the same command).  Prints each run's results_sha256 and each table's sha256.
#   sh tools/build_optimal_tables.sh [RUNS_DIR]       (default: runs)
set -e
runs=${1:-runs}
for spec in "standard high" "equilibrium high" "classic high" "standard low"; do
  set -- $spec
  asiapoker analyze --way "$1" --a234 "$2" --out "$runs/$1-$2" --no-parquet --quiet --json \
    | python -c "import json, sys; d = json.load(sys.stdin); print('$1 $2 results_sha256', d['results_sha256'])"
  asiapoker optimal-table "$runs/$1-$2" --out "src/asiapoker/data/optimal-$1-$2.npz"
done
