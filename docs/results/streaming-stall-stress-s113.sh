#!/usr/bin/env bash
# streaming-stall-stress-s113.sh BUNDLE OUT COPIES LIMIT: a stress test for
# session 112's unfinished test_streaming_cuda case 6 (syevj/heevj host
# arrays, double; every variant forced in turn, the grid variant's
# cooperative launches included, on up to 16 streams of a handle). Runs
# COPIES processes of that one case at once on one GPU, each under
# `timeout LIMIT` with the call watchdog at LIMIT - 60 s. At LIMIT - 40 s,
# every copy still running gets lib.sh's thread_report with a cuda-gdb
# backtrace (OUT/stalled.PID.txt). OUT/summary.txt has each copy's exit
# status and time. Run from the repository root on a GPU machine.
set -uo pipefail
b=${1:?usage: streaming-stall-stress-s113.sh BUNDLE OUT COPIES LIMIT} out=${2:?} copies=${3:?} limit=${4:?}
source scripts/lib.sh
d=$(mktemp -d) && tar -xJf "$b" -C "$d" || exit 2
export LD_LIBRARY_PATH=$d/lib:${LD_LIBRARY_PATH:-} BATCHEIG_TEST_BACKENDS=cuda OPENBLAS_NUM_THREADS=1
export BATCHEIG_TEST_CALL_TIMEOUT=$((limit - 60))
mkdir -p "$out/logs"
name=$(catch_names "$d/bin/test_streaming_cuda" "~[exclusive]" | grep -F 'syevj/heevj: host arrays' | grep -F -- '- double')
[[ -n $name ]] || { echo "case not found"; exit 2; }
spec=$(printf '%s' "$name" | sed 's/[][\\,]/\\&/g')
one() {
  local k=$1 s=$SECONDS rc
  timeout "$limit" "$d/bin/test_streaming_cuda" "$spec" > "$out/logs/copy.$k.txt" 2>&1; rc=$?
  echo "copy.$k rc=$rc $((SECONDS - s)) s $(grep -E 'test cases|All tests passed' "$out/logs/copy.$k.txt" | tail -n1)" >> "$out/summary.txt"
}
pids=()
for k in $(seq "$copies"); do one "$k" & pids+=($!); done
( sleep $((limit - 40))
  for p in $(test_pids bin/test_streaming_cuda); do thread_report "$p" gdb > "$out/stalled.$p.txt" 2>&1; done ) > /dev/null 2>&1 & watch=$!
wait "${pids[@]}"
pkill -P "$watch" 2> /dev/null; kill "$watch" 2> /dev/null
sort -t. -k2 -n "$out/summary.txt"
ls "$out"/stalled.*.txt 2> /dev/null | wc -l | sed 's/^/stall reports: /'
