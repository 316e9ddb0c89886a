#!/usr/bin/env bash
# Build the `release` preset's benchmark and run it. Arguments go to
# batcheig_bench (see `batcheig_bench --help`), e.g.
#   ./scripts/bench.sh --batch 50000 --csv build/bench-geev.csv
# and on a GPU machine (batcheig on device arrays, with the H2D / D2H copies
# reported separately, against the LAPACKE loop and a cusolverDnXgeev loop):
#   ./scripts/bench.sh geev --memory device --backend cuda --csv build/bench-geev-device.csv
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$BATCHEIG_ROOT"

"$BATCHEIG_ROOT/scripts/setup.sh"
use_local_cmake_if_needed
cmake --preset release
cmake --build --preset release --target batcheig_bench --parallel "$(njobs)"
exec "$BATCHEIG_ROOT/build/release/bench/batcheig_bench" "$@"
