#!/usr/bin/env bash
# ab.sh: run one command against two builds of libbatcheig, alternately, to
# compare them in the same session on the same machine (a kernel change
# against the library before it).
#
# usage: scripts/ab.sh --base DIR --new DIR [--rounds R] [--same] [--grep RE] -- COMMAND [ARGS...]
#   DIR       a directory holding the libbatcheig.so.* to load (the SONAME,
#             e.g. libbatcheig.so.0.1); it goes first on LD_LIBRARY_PATH.
#             The command must find libbatcheig through LD_LIBRARY_PATH (the
#             build tree's RUNPATH comes after it, so build-tree executables
#             qualify).
#   --rounds  new, base, new, base, ... R times each (default 2)
#   --same    the outputs of every run must be identical (bitwise checks:
#             batcheig_geev_bitcheck); otherwise exit status 1 and a diff
#   --grep RE print only the output lines matching RE (e.g. 'batcheig' for
#             the benchmark's batcheig rows), each prefixed with its label
#
# examples:
#   scripts/ab.sh --base /tmp/old --new build/release/src --same -- \
#       build/release/bench/batcheig_geev_bitcheck --n 5:48
#   scripts/ab.sh --base /tmp/old --new build/release/src --grep batcheig-device -- \
#       build/release/bench/batcheig_bench geev --memory device --batch 200000 --n 12,20,30 \
#       --cusolver-subset 0 --lapacke-subset 50 --reps 5
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
usage() { print_usage "${BASH_SOURCE[0]}" "$@"; }
base="" new="" rounds=2 same=0 pattern=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --base) base=${2:?}; shift 2 ;;
    --new) new=${2:?}; shift 2 ;;
    --rounds) rounds=${2:?}; shift 2 ;;
    --same) same=1; shift ;;
    --grep) pattern=${2:?}; shift 2 ;;
    -h|--help) usage 0 ;;
    --) shift; break ;;
    *) echo "ab.sh: unknown option '$1'" >&2; usage ;;
  esac
done
[[ -n $base && -n $new && $# -gt 0 ]] || usage
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "ab.sh: --rounds must be a positive integer" >&2; exit 2; }
for d in "$base" "$new"; do
  compgen -G "$d/libbatcheig.so*" >/dev/null || { echo "ab.sh: no libbatcheig.so* in '$d'" >&2; exit 2; }
done
out=$(mktemp -d "${TMPDIR:-/tmp}/batcheig-ab.XXXXXX")
trap 'rm -rf "$out"' EXIT

status=0
for ((r = 1; r <= rounds; ++r)); do
  for label in new base; do
    dir=$new; [[ $label == base ]] && dir=$base
    f="$out/$label.$r"
    LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@" >"$f" 2>&1 || {
      echo "ab.sh: $label (round $r) exited with status $?" >&2; status=1; }
    if [[ -n $pattern ]]; then
      { grep -E -- "$pattern" "$f" || true; } | sed "s/^/$label $r | /"
    else
      sed "s/^/$label $r | /" "$f"
    fi
  done
done
if [[ $same -eq 1 ]]; then
  for f in "$out"/*; do
    if ! cmp -s "$out/new.1" "$f"; then
      echo "ab.sh: outputs differ (new.1 against $(basename "$f")):" >&2
      diff "$out/new.1" "$f" | head -20 >&2 || true
      status=1
    fi
  done
  [[ $status -eq 0 ]] && echo "ab.sh: all $((2 * rounds)) outputs identical ($(wc -l <"$out/new.1") lines)"
fi
exit $status
