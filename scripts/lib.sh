# Shared helpers for the scripts in this directory; source it, don't run it.
# shellcheck shell=bash

BATCHEIG_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export BATCHEIG_ROOT

_t0=$SECONDS
step() { printf '\n==> [%4ds] %s\n' "$((SECONDS - _t0))" "$*"; }
die()  { printf 'error: %s\n' "$*" >&2; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }

# True when the `cmake` on PATH is at least 3.25 (CMakePresets.json version 6).
cmake_version_ok() {
  local major minor
  read -r major minor < <(cmake --version 2>/dev/null | head -n1 |
    sed -E 's/[^0-9]*([0-9]+)\.([0-9]+).*/\1 \2/') || return 1
  [[ -n ${major:-} && -n ${minor:-} ]] || return 1
  (( major > 3 || (major == 3 && minor >= 25) ))
}

# setup.sh puts a newer CMake into ~/.local/bin on old distributions.
use_local_cmake_if_needed() {
  if ! cmake_version_ok && [[ -x "$HOME/.local/bin/cmake" ]]; then
    export PATH="$HOME/.local/bin:$PATH"
    hash -r
  fi
  cmake_version_ok || die "CMake >= 3.25 is required (run scripts/setup.sh)"
}

# Number of parallel jobs for builds and ctest.
njobs() { nproc 2>/dev/null || echo 2; }

# The scripts that run built executables on a GPU machine (gpu-check.sh,
# geev-workload.sh) take them from a device-bundle archive
# (../shared/tools/device-bundle: bin/ and lib/), from a directory, or by
# default from the release preset's build tree.
# Their options --bundle FILE, --bin DIR and --lib DIR: exe_option OPTION
# VALUE records one; use_executables then unpacks the bundle into a
# temporary directory and uses its bin/ and lib/, else the --bin directory,
# and puts the library directory first on LD_LIBRARY_PATH (the
# libbatcheig.so.* to run).
EXE_BUNDLE="" EXE_BIN="" EXE_LIB=""
exe_option() {
  case $1 in
    --bundle) EXE_BUNDLE=$2 ;;
    --bin) EXE_BIN=$2 ;;
    --lib) EXE_LIB=$2 ;;
  esac
}
use_executables() {
  local bin=$EXE_BIN lib=$EXE_LIB d
  if [[ -n $EXE_BUNDLE ]]; then
    d=$(mktemp -d "${TMPDIR:-/tmp}/batcheig-bundle.XXXXXX")
    tar -xJf "$EXE_BUNDLE" -C "$d" || die "cannot unpack $EXE_BUNDLE"
    bin=$d/bin lib=$d/lib
  fi
  if [[ -n $bin ]]; then
    EXE_DIRS=("$bin")
  else
    EXE_DIRS=("$BATCHEIG_ROOT/build/release/tests" "$BATCHEIG_ROOT/build/release/bench")
  fi
  if [[ -n $lib ]]; then export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; fi
  return 0
}
# exe NAME: the path of executable NAME (after use_executables).
exe() {
  local d
  for d in "${EXE_DIRS[@]}"; do [[ -x $d/$1 ]] && { echo "$d/$1"; return 0; }; done
  die "$1 not found in ${EXE_DIRS[*]}"
}
# machine_header EXE: the GPU and its driver, the host's CPU and cores, and
# the libbatcheig that EXE loads with its md5, one line each, for a record.
machine_header() {
  local so
  echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n1)"
  echo "# $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores"
  so=$(ldd "$1" 2>/dev/null | awk '/libbatcheig/ {print $3}')
  if [[ -n $so ]]; then echo "# $so, md5 $(md5sum "$so" | cut -c1-32)"
  else echo "# $1 loads no libbatcheig"; fi
}

# catch_names EXE SPEC: the names of the Catch2 test cases of executable EXE
# that match test spec SPEC, one a line (Catch2 v2 or v3).
catch_names() {
  # (Not `--help | grep -q`: under pipefail, grep's early exit can fail the
  # writer with SIGPIPE, and the pipeline with it.)
  if [[ $("$1" --help) == *--list-test-names-only* ]]; then "$1" --list-test-names-only "$2"  # v2
  else "$1" --list-tests --verbosity quiet "$2"; fi | grep -v '^$'
}

# test_pids PATTERN: the processes whose command line matches PATTERN
# (pgrep -f, an extended regex), less the ones a stall report must leave
# alone: this shell, the `timeout` processes that hold the runs, and
# compute-sanitizer's runs and their children (a debugger must not attach
# to them).
test_pids() {
  local p ppid comm
  for p in $(pgrep -f -- "$1"); do
    read -r ppid comm < <(ps -o ppid=,comm= -p "$p") || continue  # (gone meanwhile)
    [[ $p == "$$" || $p == "$BASHPID" || $comm == timeout || $comm == compute-sani* ||
       $(ps -o comm= -p "$ppid") == compute-sani* ]] && continue
    echo "$p"
  done
}

# thread_report PID [gdb]: process PID's command line, its threads' states
# and their kernel stacks (where /proc shows them), and with `gdb` a
# cuda-gdb backtrace of every thread (where cuda-gdb is installed; at most
# 25 s).
thread_report() {
  local p=$1 t gdb
  echo "# pid $p, running $(ps -o etimes= -p "$p" | tr -d ' ') s: $(tr '\0' ' ' < "/proc/$p/cmdline")"
  ps -L -o tid,stat,pcpu,time,wchan:32 -p "$p"
  for t in "/proc/$p/task/"*; do echo "## thread ${t##*/}"; cat "$t/stack" 2> /dev/null; done
  [[ ${2:-} == gdb ]] || return 0
  gdb=$(command -v cuda-gdb || echo /usr/local/cuda/bin/cuda-gdb)
  [[ -x $gdb ]] && timeout 25 "$gdb" -p "$p" -batch -ex "thread apply all bt 30"
}

# print_usage SCRIPT [STATUS]: SCRIPT's header comment (from its second line
# to the first line that is not a comment) without the '# ', then exit STATUS
# (default 2).
print_usage() {
  awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$1"
  exit "${2:-2}"
}
