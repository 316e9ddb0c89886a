#!/usr/bin/env bash
# test_gpu_check.sh TESTS_DIR: scripts/gpu-check.sh's scheduling and
# verdicts, without a GPU. (The GPU pass itself runs only on a machine with
# a GPU; this checks the script that runs it, so that a change to it cannot
# silently skip test cases.)
#
# TESTS_DIR holds the build's test executables. The real test_syevj_cuda,
# test_streaming_cuda and test_geev_accuracy run (their CUDA cases skip
# themselves without a GPU), through wrappers that record each run and how
# many ran at once; batcheig_geev_bitcheck is a stand-in that passes the
# script's GPU probe. Checked:
#   1. `long` runs every test case of test_syevj_cuda and test_streaming_cuda
#      once, as Catch2 names them (escaped test specs that select exactly that
#      case), at most --jobs at once, the [exclusive] case last and alone,
#      and passes;
#   2. a run whose test spec matches no case counts as failed (Catch2 exits
#      with 0 then);
#   3. an executable that lists no test case counts as failed;
#   4. a run that outlasts the limit is NOT FINISHED, and a stall report
#      (logs/stalled.PID.txt) shows its threads; when nothing stalls, the
#      stall watcher leaves no process behind.
set -uo pipefail
export CUDA_VISIBLE_DEVICES=-1  # no GPU: the CUDA cases skip themselves
real=${1:?usage: test_gpu_check.sh TESTS_DIR}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=scripts/lib.sh
source "$root/scripts/lib.sh"
W=$(mktemp -d "${TMPDIR:-/tmp}/test-gpu-check.XXXXXX")
trap 'rm -rf "$W"' EXIT
fails=0
check() {  # check WHAT CONDITION...
  local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; fails=$((fails + 1)); fi
}

# make_bin DIR MODE: wrappers for the three executables (MODE: ok, nomatch,
# empty, stall: each lists its first case only, and test_syevj_cuda's run
# never ends) and the bitcheck stand-in.
make_bin() {
  local d=$1 mode=$2 t
  mkdir -p "$d" "$W/running"
  printf '#!/usr/bin/env bash\nexit 0\n' > "$d/batcheig_geev_bitcheck"
  for t in test_syevj_cuda test_streaming_cuda test_geev_accuracy; do
    cat > "$d/$t" <<EOF
#!/usr/bin/env bash
# Listings go to the real executable; a run records how many runs were
# going when it started (marker files in running/), then runs it.
mode=$mode
if [[ \${1:-} == --* ]]; then
  # (Catch2 v2's and v3's listings.)
  [[ \$mode == empty && $t == test_streaming_cuda && \$1 == --list-test* ]] && exit 0
  [[ \$mode == stall && \$1 == --list-test* ]] && { "$real/$t" "\$@" > "$W/listing.\$\$"; head -n1 "$W/listing.\$\$"; exit 0; }
  exec "$real/$t" "\$@"
fi
# (Marker files: geev.PID for the geev runs, pool.PID for the others.)
m="$W/running/\$([[ $t == test_geev_accuracy ]] && echo geev || echo pool).\$\$"
touch "\$m"
echo "\$(ls "$W/running" | wc -l)|\$(ls "$W/running" | grep -c '^pool')|$t|\$*" >> "$W/trace.txt"
spec=\$1
if [[ \$mode == stall && $t == test_syevj_cuda ]]; then while :; do sleep 0.2; done; fi
[[ \$mode == nomatch && $t == test_syevj_cuda ]] && spec="\$spec (no such case)"
"$real/$t" "\$spec"; rc=\$?
sleep 0.2
rm -f "\$m"
exit \$rc
EOF
    chmod +x "$d/$t"
  done
  chmod +x "$d/batcheig_geev_bitcheck"
}

# pass MODE LIMIT: `gpu-check.sh long` on MODE's wrappers, at most 3 runs
# at once; its output in $W/out-MODE, its log in $W/log-MODE.txt, its exit
# status in rc.
pass() {
  rm -rf "$W/running" "$W/trace.txt"
  make_bin "$W/$1" "$1"
  "$root/scripts/gpu-check.sh" --bin "$W/$1" --out "$W/out-$1" --limit "$2" --jobs 3 long > "$W/log-$1.txt" 2>&1
  rc=$?
}

for t in test_syevj_cuda test_streaming_cuda test_geev_accuracy; do
  [[ -x $real/$t ]] || { echo "test_gpu_check.sh: $real/$t not found"; exit 1; }
done

# 1. Every case once, escaped, at most 3 at once, the [exclusive] case last and alone.
pass ok 300
check "long passes (exit status $rc)" test "$rc" -eq 0
S1=$W/out-ok/summary.txt
for t in test_syevj_cuda test_streaming_cuda; do
  catch_names "$real/$t" "~[exclusive]" | sort > "$W/$t.want"
  # The specs each run got, unescaped: the names they selected.
  grep -F "|$t|" "$W/trace.txt" | cut -d'|' -f4- | grep -vxF '[exclusive]' | sed 's/\\\(.\)/\1/g' | sort > "$W/$t.got"
  check "$t: each of its $(wc -l < "$W/$t.want") cases ran once, by name" cmp -s "$W/$t.want" "$W/$t.got"
  n=$(grep -cE "^$t\.[0-9]+: passed" "$S1")
  check "$t: $n runs passed in the summary, one per case" test "$n" -eq "$(wc -l < "$W/$t.want")"
  # Each run selected exactly its case: Catch2 said so in its log.
  tar -xzf "$W/out-ok/logs.tar.gz" -C "$W/out-ok"
  n=$(grep -lE "test cases: 1 \| 1 passed|assertions? in 1 test case\)" "$W/out-ok/logs/$t."*.txt | wc -l)
  check "$t: every run's log reports one test case ($n)" test "$n" -eq "$(wc -l < "$W/$t.want")"
done
# Trace lines: runs going at the start | of them in the pool | executable | spec.
pool_max=$(grep -vF '|[exclusive]' "$W/trace.txt" | cut -d'|' -f2 | sort -n | tail -n1)
check "at most --jobs (3) per-case runs at once (max $pool_max)" test "$pool_max" -le 3
check "the per-case runs overlap (max $pool_max at once)" test "$pool_max" -ge 2
check "the [exclusive] case ran last" test "$(tail -n1 "$W/trace.txt" | cut -d'|' -f3-)" = "test_streaming_cuda|[exclusive]"
check "the [exclusive] case ran alone" test "$(tail -n1 "$W/trace.txt" | cut -d'|' -f1)" -eq 1
check "the summary counts no failure" grep -q ", 0 failed or not finished" "$S1"
check "no stall report when nothing stalls" bash -c "! grep -q 'stall reports' '$S1'"
check "the stall watcher is gone when the pass ends" bash -c "! pgrep -f 'sleep 270\$'"

# 2. A test spec that matches no case fails the run and the pass.
pass nomatch 300
check "a spec that matches no case: exit status 1 ($rc)" test "$rc" -eq 1
n=$(grep -cE "^test_syevj_cuda\.[0-9]+: FAILED" "$W/out-nomatch/summary.txt")
check "a spec that matches no case: each such run FAILED ($n)" test "$n" -eq "$(wc -l < "$W/test_syevj_cuda.want")"

# 3. An executable that lists no case fails the pass.
pass empty 300
check "an executable that lists no case: exit status 1 ($rc)" test "$rc" -eq 1
check "an executable that lists no case: named in the summary" \
  grep -q "^test_streaming_cuda: FAILED, no test case listed" "$W/out-empty/summary.txt"

# 4. A run that never ends: NOT FINISHED at the limit, with a stall report.
pass stall 24
check "a run that never ends: exit status 1 ($rc)" test "$rc" -eq 1
check "a run that never ends: NOT FINISHED in the summary" \
  grep -q "^test_syevj_cuda\.1: NOT FINISHED" "$W/out-stall/summary.txt"
check "a run that never ends: the summary names the stall reports" \
  grep -q "^# test processes still running 12 s before the limit: [1-9].*stall reports" "$W/out-stall/summary.txt"
tar -xzf "$W/out-stall/logs.tar.gz" -C "$W/out-stall"
n=$(grep -l "stall/test_syevj_cuda" "$W/out-stall/logs/"stalled.*.txt 2> /dev/null | xargs -r grep -l "^## thread" | wc -l)
check "a run that never ends: its stall report shows its threads ($n)" test "$n" -ge 1

if [[ $fails -gt 0 ]]; then
  echo "== gpu-check.sh's output of check 1"; cat "$W/log-ok.txt"
  exit 1
fi
echo "all checks passed"
