#!/usr/bin/env bash
# Build the `release` preset's benchmark and run it. Arguments go to
# batcheig_bench (see `batcheig_bench --help`), e.g.
#   ./scripts/bench.sh --batch 50000 --csv build/bench-geev.csv
# and on a GPU machine (batcheig on device arrays, with the H2D / D2H copies
# reported separately, against the LAPACKE loop and a cusolverDnXgeev loop):
#   ./scripts/bench.sh geev --memory device --backend cuda --csv build/bench-geev-device.csv
# GPU Jacobi table (syevj / heevj with eigenvectors, batcheig on device arrays
# vs the LAPACKE ?syevd/?heevd loop, cusolverDn?syevjBatched / ?heevjBatched
# (n <= 32; "n/a (n>32)" above) and cusolverDnXsyevBatched, same run, same
# data), double and double complex; add --algorithm jacobi-cuda-warp|shared|global
# to force a variant:
#   ./scripts/bench.sh --help >/dev/null   # builds build/release/bench/batcheig_bench
#   for p in d z; do
#     build/release/bench/batcheig_bench syevj --memory device --vectors --precision $p \
#         --n 8,16,32 --batch 1000 --reps 5 --csv build/bench-syevj-device-$p-b1000.csv
#     build/release/bench/batcheig_bench syevj --memory device --vectors --precision $p \
#         --n 32 --batch 100000 --reps 3 --csv build/bench-syevj-device-$p-b100000.csv
#     build/release/bench/batcheig_bench syevj --memory device --vectors --precision $p \
#         --n 64,128,256,512 --batch 200 --reps 3 --csv build/bench-syevj-device-$p-b200.csv
#   done
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$BATCHEIG_ROOT"

"$BATCHEIG_ROOT/scripts/setup.sh"
use_local_cmake_if_needed
cmake --preset release
cmake --build --preset release --target batcheig_bench --parallel "$(njobs)"
exec "$BATCHEIG_ROOT/build/release/bench/batcheig_bench" "$@"
