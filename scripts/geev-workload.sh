#!/usr/bin/env bash
# geev-workload.sh: the geev performance targets' workload in one command, on
# a machine with a GPU. geevBatched on 500 000 random matrices (uniform in
# [-1, 1]) on device arrays, each row side by side with the all-core LAPACKE
# loop and the cusolverDnXgeev loop on the same data (batcheig_bench geev,
# --reps 3; see docs/performance.md for the columns):
#   double  eigenvalues only, n = 5, 10, ..., 30; the cusolverDnXgeev loop
#           timed on 100 matrices and extrapolated to the batch
#   float   eigenvalues only, n = 15, 20, 25, 30; the LAPACKE loop timed on
#           64 matrices and extrapolated (float against double is the target)
#   vectors double with right eigenvectors, n = 30; cusolverDnXgeev on 20
#
# usage: scripts/geev-workload.sh [--bundle FILE | --bin DIR] [--lib DIR]
#                                 [--out DIR] [--batch B] [SET...]
#   --bundle, --bin, --lib  where the executables and libbatcheig come from,
#                           as in scripts/gpu-check.sh (default: the release
#                           preset's build tree)
#   --out DIR               OUT/SET.txt and OUT/SET.csv (default: a new
#                           temporary directory)
#   --batch B               matrices per call (default 500 000)
#   SET                     double, float, vectors (default: all three)
# It prints the machine, then each set's rows (batcheig and both anchors).
# About 3.5 minutes on an H100 with a 16-core host.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
usage() { print_usage "${BASH_SOURCE[0]}" "$@"; }
out="" batch=500000 sets=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --bundle|--bin|--lib) exe_option "$1" "${2:?}"; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --batch) batch=${2:?}; shift 2 ;;
    -h|--help) usage 0 ;;
    double|float|vectors) sets+=("$1"); shift ;;
    *) echo "geev-workload.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ ${#sets[@]} -gt 0 ]] || sets=(double float vectors)
[[ -n $out ]] || out=$(mktemp -d "${TMPDIR:-/tmp}/geev-workload.XXXXXX")
mkdir -p "$out"
use_executables
B=$(exe batcheig_bench)
machine_header "$B"
for set in "${sets[@]}"; do
  case $set in
    double)  args=(--n 5:30:5 --cusolver-subset 100) ;;
    float)   args=(--precision s --n 15:30:5 --cusolver-subset 0 --lapacke-subset 64) ;;
    vectors) args=(--vectors --n 30 --cusolver-subset 20) ;;
  esac
  s=$SECONDS
  "$B" geev --memory device --reps 3 --batch "$batch" "${args[@]}" --csv "$out/$set.csv" > "$out/$set.txt" 2>&1 ||
    { tail -n 20 "$out/$set.txt"; die "batcheig_bench geev ${args[*]} failed"; }
  echo "== $set: batcheig_bench geev --memory device --reps 3 --batch $batch ${args[*]} ($(( SECONDS - s )) s)"
  grep -E "^ +[0-9]+ +[0-9]+ +(batcheig|lapacke|cusolver)" "$out/$set.txt"
done
