#!/usr/bin/env bash
# gpu-check.sh: the GPU test pass of a CUDA build in one command, on a machine
# with a GPU. CI has no GPU, so this is how a change to CUDA code is shown to
# work: the bitwise fingerprints against the references, every test suite on
# the CUDA backend, and compute-sanitizer on the launches most prone to races.
#
# usage: scripts/gpu-check.sh [--bundle FILE | --bin DIR] [--lib DIR] [--out DIR]
#                             [--limit S] [--jobs J] [PART...]
#   --bundle FILE  a device-bundle archive (../shared/tools/device-bundle) of
#                  the test executables, batcheig_geev_bitcheck and
#                  libbatcheig.so.*: unpacked into a temporary directory and
#                  run from its bin/ with its lib/ first on LD_LIBRARY_PATH
#   --bin DIR      the executables (default: build/release/tests and
#                  build/release/bench)
#   --lib DIR      put DIR first on LD_LIBRARY_PATH (the libbatcheig to check)
#   --out DIR      summary.txt, failures.txt and logs.tar.gz, every run's
#                  whole log, packed at the end so that the pass leaves three
#                  files (default: a new temporary directory)
#   --limit S      wall-clock seconds for the whole pass (default 540); a run
#                  still going then is stopped and counted as not finished
#   --jobs J       at most J of `long`'s per-case runs at once (default 8)
#   PART           any of (default: bits suites sanitize):
#     bits      batcheig_geev_bitcheck's five fingerprints, each against its
#               reference (REF_* below): is the GPU code bitwise unchanged?
#     suites    every test executable on the CUDA backend, side by side
#               (test_geev_accuracy one process per family and precision);
#               the three longest are in `long`
#     sanitize  compute-sanitizer racecheck and memcheck of the eigenvector
#               launches (float and double, n = 12, 20, 30, 70: warp and block
#               variants) and memcheck of a staged float eigenvalue launch
#     long      test_geev_accuracy's large-n cases per precision, and
#               test_syevj_cuda and test_streaming_cuda with each test case
#               a run of its own, NAME.K (each several minutes beside the
#               other suites as one process)
# In `suites` and `long`, the test cases tagged [exclusive] (they need the
# GPU to themselves) run last, alone, as NAME_exclusive.
#
# Every run's exit status and its last Catch2 line go to OUT/summary.txt as
# they end; the logs of failed runs are appended to OUT/failures.txt. 30 s
# before the limit (half-way for a limit of 60 s or less), each test
# executable still running (not under compute-sanitizer) gets a stall
# report in logs/stalled.PID.txt: its threads' states, their kernel stacks
# where /proc shows them, and a cuda-gdb backtrace of every thread where
# cuda-gdb is installed. Exit status 0 when every run passed (Catch2's 4,
# a test that skipped itself - e.g. the multi-GPU cases on one GPU - counts
# as passed), 1 otherwise.
#
# examples:
#   scripts/gpu-check.sh                         # in a checkout built with the release preset
#   scripts/gpu-check.sh --limit 560 bits long   # the fingerprints and the long suites
#   # built here for sm_90, run on a GPU machine that has the checkout:
#   ../shared/tools/device-bundle devrun/g build/release/tests build/release/bench \
#       build/release/src/libbatcheig.so.0.1
#   scripts/gpu-check.sh --bundle devrun/g/bundle.tar.xz --out "$OUT"
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The references: md5 of batcheig_geev_bitcheck's output for each command in
# run_bits. They change only when a kernel's results change on purpose; the
# commit that changes them says why (docs/performance.md, bitcheck section).
REF_VALUES=b3f47dc397b80752fe03c8d350392d1c          # --n 5:64 --batch 300
REF_VECTORS=5eb51171450eba27bbc8d6d4883ae9c8         # --vectors --n 5:64 --batch 300
REF_VECTORS_STAGED=c9aeeb267d6580d8423849f5f7e37509  # --vectors --n 20,30,40 --batch 17000 --precision ds
REF_VALUES_STAGED=0384a4c58336947fce035d44e156d674   # --n 20,26,30,34,40 --batch 17000 --precision dsz
REF_VECTORS_COMPLEX=7bd2fa21523f41d90b6b1292d9d2e432 # --vectors --n 5:64 --batch 300 --precision cz

usage() { print_usage "${BASH_SOURCE[0]}" "$@"; }
out="" limit=540 jobs=8 parts=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --bundle|--bin|--lib) exe_option "$1" "${2:?}"; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --limit) limit=${2:?}; shift 2 ;;
    --jobs) jobs=${2:?}; shift 2 ;;
    -h|--help) usage 0 ;;
    bits|suites|sanitize|long) parts+=("$1"); shift ;;
    *) echo "gpu-check.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ $limit =~ ^[1-9][0-9]*$ ]] || { echo "gpu-check.sh: --limit must be a positive integer" >&2; exit 2; }
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "gpu-check.sh: --jobs must be a positive integer" >&2; exit 2; }
[[ ${#parts[@]} -gt 0 ]] || parts=(bits suites sanitize)
T0=$SECONDS
# left [CAP]: seconds left of the limit, at least 1 (timeout 0 would mean
# none) and at most CAP.
left() {
  local t=$(( limit - (SECONDS - T0) )) cap=${1:-0}
  (( t < 1 )) && t=1
  (( cap > 0 && t > cap )) && t=$cap
  echo "$t"
}
[[ -n $out ]] || out=$(mktemp -d "${TMPDIR:-/tmp}/gpu-check.XXXXXX")
mkdir -p "$out/logs"
S=$out/summary.txt
note() { echo "$*" | tee -a "$S"; }

use_executables
export BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=${BATCHEIG_TEST_CALL_TIMEOUT:-300}
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
BC=$(exe batcheig_geev_bitcheck) || exit 2
"$BC" --n 5 --batch 1 > /dev/null || die "no usable GPU (batcheig_geev_bitcheck could not run on the CUDA backend)"

note "# gpu-check.sh ${parts[*]} (limit ${limit} s), $(date -u '+%Y-%m-%d %H:%M UTC')"
machine_header "$BC" | tee -a "$S"

# stall_watch: the stall reports (see the header) from a background
# process of their own, which the final `wait`s do not wait for, STALL_AT
# seconds into the pass; stall_watch_end stops it, or lets a report under
# way finish.
STALL_AT=$(( limit > 60 ? limit - 30 : limit / 2 ))
stall_watch() {
  ( exec > /dev/null 2>&1
    sleep "$STALL_AT"
    touch "$out/logs/stalled.txt"
    local p d
    for d in "${EXE_DIRS[@]}"; do
      for p in $(test_pids "$d/"); do
        { echo "# $(( SECONDS - T0 )) s into the pass"; thread_report "$p" gdb; } > "$out/logs/stalled.$p.txt" 2>&1 &
      done
    done
    wait ) &
  WATCH=$!
  disown
}
stall_watch_end() {
  if [[ -e $out/logs/stalled.txt ]]; then
    while kill -0 "$WATCH" 2> /dev/null; do sleep 1; done
  else
    # shellcheck disable=SC2046
    kill "$WATCH" $(pgrep -P "$WATCH") 2> /dev/null
  fi
  rm -f "$out/logs/stalled.txt"
  local n
  n=$(find "$out/logs" -name 'stalled.*.txt' | wc -l)
  (( n == 0 )) || note "# test processes still running $(( limit - STALL_AT )) s before the limit: $n (stall reports in logs/stalled.PID.txt)"
}

# run NAME CMD...: CMD in the background under the time left; its log in
# logs/NAME.txt, and one line in the summary when it ends.
run() {
  local name=$1; shift
  ( local s=$SECONDS rc
    timeout "$(left)" "$@" > "$out/logs/$name.txt" 2>&1; rc=$?
    local verdict=FAILED
    # (Catch2 exits with 0 when its test spec matches no case.)
    if [[ $rc -eq 0 || $rc -eq 4 ]] && ! grep -qE "FAILED|^No tests ran" "$out/logs/$name.txt"; then verdict=passed
      [[ $rc -eq 4 ]] && verdict="passed (a test skipped itself)"
    elif [[ $rc -eq 124 ]]; then verdict="NOT FINISHED (the limit)"; fi
    # (Catch2 counts the test case that the limit's SIGTERM interrupts as
    # failed, so its count is shown only for runs that ended by themselves.)
    local count=""
    [[ $rc -ne 124 ]] && count=", $(grep -E 'test cases|All tests passed' "$out/logs/$name.txt" | tail -n1)"
    note "$name: $verdict, rc=$rc, $(( SECONDS - s )) s$count"
    [[ $verdict == passed* ]] || { echo "== $name (rc=$rc)"; tail -n 80 "$out/logs/$name.txt"; } >> "$out/failures.txt"
  ) &
}

run_bits() {
  local args want got name
  while read -r name want args; do
    # shellcheck disable=SC2086
    got=$(timeout "$(left)" "$BC" $args | md5sum | cut -c1-32)
    if [[ $got == "$want" ]]; then note "bits $name: passed (the reference ${want:0:8})"
    else note "bits $name: FAILED, md5 $got against the reference $want"; echo "bits $name ($args): $got" >> "$out/failures.txt"; fi
  done <<EOF
values $REF_VALUES --n 5:64 --batch 300
vectors $REF_VECTORS --vectors --n 5:64 --batch 300
vectors-staged $REF_VECTORS_STAGED --vectors --n 20,30,40 --batch 17000 --precision ds
values-staged $REF_VALUES_STAGED --n 20,26,30,34,40 --batch 17000 --precision dsz
vectors-complex $REF_VECTORS_COMPLEX --vectors --n 5:64 --batch 300 --precision cz
EOF
}

# suite NAME: every test case of the executable NAME beside the other runs,
# except those tagged [exclusive]: they measure the whole GPU
# (cudaMemGetInfo), so other processes' memory would count as theirs. They
# wait in `alone` and run after every other run has ended, one at a time.
alone=()
exclusive_later() {
  [[ -n $(catch_names "$(exe "$1")" "[exclusive]") ]] && alone+=("$1")
}
suite() {
  run "$1" "$(exe "$1")" "~[exclusive]"
  exclusive_later "$1"
}

# cases NAME...: each test case of the executables NAME but those tagged
# [exclusive] (see suite) as a run of its own, NAME.K, at most $jobs at once,
# in a background pool. (test_syevj_cuda as one process took 494 s on an
# H100 beside the other `long` runs, docs/performance.md, session 110: its
# longest cases then run one after another. A case per run, 8 at once,
# took `long` from 417 to 279 s on one H100 lease, session 111.)
cases() {
  local t
  for t in "$@"; do exclusive_later "$t"; done
  ( local x k name
    for t in "$@"; do
      x=$(exe "$t") k=0
      while IFS= read -r name; do
        k=$((k + 1))
        while (( $(jobs -rp | wc -l) >= jobs )); do wait -n; done
        # (A test spec escapes ',', '[', ']' and '\' with a backslash.)
        run "$t.$k" "$x" "$(printf '%s' "$name" | sed 's/[][\\,]/\\&/g')"
      done < <(catch_names "$x" "~[exclusive]")
      # (A missing executable, or a listing this script cannot read, lists none.)
      (( k > 0 )) || { note "$t: FAILED, no test case listed"; echo "$t: no test case listed" >> "$out/failures.txt"; }
    done
    wait ) &
}

run_suites() {
  local t ty tag case
  for t in test_geev_cuda test_geev_batch test_geev_args test_api test_syevj_batch test_syevj_args \
           test_syevj_accuracy test_streaming_args; do
    suite "$t"
  done
  for ty in float double "std::complex<float>" "std::complex<double>"; do
    tag=$(echo "$ty" | tr -d ':<>')
    for case in "random dense\\, n = 1..64\\, 100\\, 150\\, every algorithm variant" \
                "normal families (zero\\, identity\\, diagonal\\, orthogonal similarity\\, companion)" \
                "non-normal families (Jordan block\\, ill-conditioned similarity)" \
                "balancing families (triangular\\, zeroed rows/columns\\, graded) and scaled random"; do
      run "geev_accuracy_$(echo "$case" | cut -d' ' -f1 | tr -d '-')_$tag" "$(exe test_geev_accuracy)" "geev accuracy: $case - $ty"
    done
  done
}

run_long() {
  local ty
  for ty in float double "std::complex<float>" "std::complex<double>"; do
    run "geev_accuracy_large_$(echo "$ty" | tr -d ':<>')" "$(exe test_geev_accuracy)" \
        "geev accuracy: every family and magnitude at large n (n = 200..512) under AUTO - $ty"
  done
  cases test_syevj_cuda test_streaming_cuda
}

# Sequential, beside the suites: each sanitizer run gets at most 150 s.
# The eigenvector launches (warp variant at n = 12, 20, 30, block at 70) in
# both tools, and a staged eigenvalue launch (from 16 384 matrices) in memcheck.
run_sanitize() {
  local cs runs=() tool pr a
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  for tool in racecheck memcheck; do
    for pr in s d; do
      for a in "--n 30 --batch 4" "--n 20 --batch 6" "--n 12 --batch 8" "--n 70 --batch 2"; do
        runs+=("$tool --precision $pr --vectors $a")
      done
    done
  done
  runs+=("memcheck --precision s --n 20,30 --batch 16500")
  ( local r rc log=$out/logs/sanitize.txt
    for r in "${runs[@]}"; do
      # shellcheck disable=SC2086
      timeout "$(left 150)" "$cs" --print-limit 20 --tool ${r%% *} "$BC" ${r#* } > "$log.part" 2>&1; rc=$?
      cat "$log.part" >> "$log"
      if [[ $rc -eq 0 ]] && grep -qE "SUMMARY: 0 (hazards|errors)" "$log.part"; then note "$r: passed, $(tail -n1 "$log.part" | sed 's/=* *//')"
      elif [[ $rc -eq 124 ]]; then note "$r: NOT FINISHED (the limit)"
      else note "$r: FAILED, rc=$rc"; { echo "== $r"; tail -n 40 "$log.part"; } >> "$out/failures.txt"; fi
    done
    rm -f "$log.part" ) &
}

stall_watch
for part in "${parts[@]}"; do
  case $part in
    bits) run_bits ;;   # in the foreground: the other parts start once the fingerprints are in
    suites) run_suites ;;
    sanitize) run_sanitize ;;
    long) run_long ;;
  esac
done
wait
for t in "${alone[@]}"; do run "${t}_exclusive" "$(exe "$t")" "[exclusive]"; wait; done
stall_watch_end
fails=$(grep -cE "FAILED|NOT FINISHED" "$S")
tar -czf "$out/logs.tar.gz" -C "$out" logs && rm -rf "$out/logs"
note "# done in $(( SECONDS - T0 )) s: $(grep -cE ': passed' "$S") passed, $fails failed or not finished (logs in $out/logs.tar.gz)"
[[ $fails -eq 0 ]]
