#!/usr/bin/env bash
# streaming-stall-s112.sh BUNDLE OUT LIMIT: session 112's reproduction attempt
# for test_streaming_cuda case 6 (syevj/heevj host arrays, double), which did
# not finish within 406 s (log empty) in `gpu-check.sh bits long` beside eight
# large-n geev runs, though it took 111 s in session 111. Run from the
# repository root on a GPU machine, with a device-bundle archive (BUNDLE) of a
# build whose test_streaming_cuda arms the call watchdog (d2fa585 or later).
#
# All at once, as in gpu-check.sh long's later phase: test_streaming_cuda's
# cases 1-8 and test_geev_accuracy's large-n case per precision and size (8
# runs), each under `timeout LIMIT`; OUT/summary.txt has each run's time and
# exit status, OUT/logs its log. Beside them a monitor: from 120 s on, every
# 60 s, the threads, states and CPU time of every test process older than
# 150 s (OUT/mon.txt), and one cuda-gdb backtrace of each test_streaming_cuda
# process older than 200 s (OUT/bt.txt), both through lib.sh's
# thread_report. Run in session 113 on an H100 (limit 380): 242 s, all 16
# runs passed, no stall (docs/results/gpu-check-h100-2026-12-07-s113.txt).
set -uo pipefail
b=${1:?usage: streaming-stall-s112.sh BUNDLE OUT LIMIT} out=${2:?} limit=${3:?}
source scripts/lib.sh
d=$(mktemp -d) && tar -xJf "$b" -C "$d" || exit 2
export LD_LIBRARY_PATH=$d/lib:${LD_LIBRARY_PATH:-} BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300 OPENBLAS_NUM_THREADS=1
mkdir -p "$out/logs"

monitor() {
  local t0=$SECONDS seen=" " p e
  sleep 120
  while true; do
    { echo "=== t=$((SECONDS - t0)) s"; nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader; uptime
      for p in $(test_pids 'bin/test_(streaming|geev)_'); do
        e=$(ps -o etimes= -p "$p" 2>/dev/null | tr -d ' ')
        [[ -n $e && $e -gt 150 ]] || continue
        thread_report "$p"
      done; } >> "$out/mon.txt" 2>&1
    for p in $(test_pids bin/test_streaming_cuda); do
      e=$(ps -o etimes= -p "$p" 2>/dev/null | tr -d ' ')
      [[ -n $e && $e -gt 200 && $seen != *" $p "* ]] || continue
      seen+="$p "
      thread_report "$p" gdb >> "$out/bt.txt" 2>&1
    done
    sleep 60
  done
}
one() {
  local name=$1 s=$SECONDS rc; shift
  timeout "$limit" "$@" > "$out/logs/$name.txt" 2>&1; rc=$?
  echo "$name rc=$rc $((SECONDS - s)) s $(grep -E 'test cases|All tests passed' "$out/logs/$name.txt" | tail -n1)" >> "$out/summary.txt"
}

monitor & mon=$!
k=0 pids=()
while IFS= read -r name; do
  k=$((k + 1)); (( k > 8 )) && break
  one "stream.$k" "$d/bin/test_streaming_cuda" "$(printf '%s' "$name" | sed 's/[][\\,]/\\&/g')" & pids+=($!)
done < <(catch_names "$d/bin/test_streaming_cuda" "~[exclusive]")
for n in 200 300; do
  for ty in float double "std::complex<float>" "std::complex<double>"; do
    one "geev.$(echo "$ty" | tr -d ':<>').$n" env BATCHEIG_TEST_SIZES="$n" "$d/bin/test_geev_accuracy" \
        "geev accuracy: every family and magnitude at large n (n = 200..512) under AUTO - $ty" & pids+=($!)
  done
done
wait "${pids[@]}"
kill "$mon"
cat "$out/summary.txt"
