#!/usr/bin/env bash
# The whole batcheig test suite, as CI runs it:
#   1. install what is missing (scripts/setup.sh)
#   2. preset `release`: configure, build, ctest
#   3. install into a temporary prefix and check the package:
#      - the installed library exports only batcheig* symbols (nm -D)
#      - the Fortran module has a bind(C) interface for every exported
#        symbol and binds no other (src/fortran/batcheig.f90)
#      - examples/ built against the INSTALLED library through
#        `pkg-config --cflags --libs batcheig` / `batcheig-fortran`
#        (examples/Makefile) and through CMake `find_package(batcheig
#        COMPONENTS fortran)` (examples/CMakeLists.txt), and run: C and
#        Fortran programs on host arrays, and the CUDA device-array program
#        when the CUDA toolkit is present (it skips itself without a GPU)
#   4. preset `asan` (ASan + UBSan, host backend): configure, build, ctest
# Step 4 comes last so that the output ends with ctest's summary.
# Any failure stops the script with a non-zero exit status; with --keep-going
# a failing test run or example is recorded instead, the remaining steps run,
# and the script exits non-zero at the end (build or install errors still stop
# it at once).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$BATCHEIG_ROOT"
JOBS=$(njobs)

KEEP_GOING=0
for arg in "$@"; do
  case $arg in
    -k|--keep-going) KEEP_GOING=1 ;;
    -h|--help) print_usage "${BASH_SOURCE[0]}" 0 ;;
    *) die "unknown option '$arg' (see --help)" ;;
  esac
done
failed=()
# check WHAT CMD...: run CMD; on failure stop (default) or record it (--keep-going).
check() {
  local what=$1 rc=0
  shift
  "$@" || rc=$?
  [[ $rc -eq 0 ]] && return 0
  if [[ $KEEP_GOING -eq 1 ]]; then
    failed+=("$what (exit status $rc)")
    printf 'test.sh: %s FAILED (exit status %d); continuing (--keep-going)\n' "$what" "$rc" >&2
  else
    die "$what failed (exit status $rc)"
  fi
}

step "setup (installs only what is missing)"
"$BATCHEIG_ROOT/scripts/setup.sh"
use_local_cmake_if_needed

WORK=$(mktemp -d "${TMPDIR:-/tmp}/batcheig-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
PREFIX="$WORK/prefix"

# ---------------------------------------------------------------------------
step "release: configure (install prefix $PREFIX)"
cmake --preset release -DCMAKE_INSTALL_PREFIX="$PREFIX"

step "release: build"
cmake --build --preset release --parallel "$JOBS"

step "release: ctest"
check "release ctest" ctest --preset release --parallel "$JOBS"

# ---------------------------------------------------------------------------
step "install into $PREFIX"
cmake --install build/release

lib=$(find "$PREFIX" -name 'libbatcheig.so.*' -type f | head -n1)
[[ -n $lib ]] || die "libbatcheig.so.* not installed under $PREFIX"
libdir=$(dirname "$lib")
[[ -e "$libdir/libbatcheig.so" ]] || die "development link libbatcheig.so missing in $libdir"
[[ -f "$PREFIX/include/batcheig.h" ]] || die "batcheig.h not installed"
[[ -f "$PREFIX/include/batcheig_export.h" ]] || die "batcheig_export.h not installed"
pc=$(find "$PREFIX" -name batcheig.pc | head -n1)
[[ -n $pc ]] || die "batcheig.pc not installed"
cfg=$(find "$PREFIX" -name batcheigConfig.cmake | head -n1)
[[ -n $cfg ]] || die "batcheigConfig.cmake not installed"
fpc=$(find "$PREFIX" -name batcheig-fortran.pc | head -n1)
[[ -n $fpc ]] || die "batcheig-fortran.pc not installed (is gfortran missing? scripts/setup.sh installs it)"
[[ -e "$libdir/libbatcheig_fortran.so" ]] || die "libbatcheig_fortran.so missing in $libdir"
[[ -n $(find "$PREFIX" -name batcheig.mod) ]] || die "Fortran module file batcheig.mod not installed"
[[ -n $(find "$PREFIX" -name batcheigFortranTargets.cmake) ]] || die "batcheigFortranTargets.cmake not installed"
echo "library:    $lib"
echo "SONAME:     $(objdump -p "$lib" | awk '/SONAME/ {print $2}')"
echo "pkg-config: $pc"
echo "CMake:      $cfg"

step "exported symbols of the installed library (only batcheig* allowed)"
# Version-node names from the linker script show up as absolute (A) symbols.
exported=$(nm -D --defined-only "$lib" | awk '$2 != "A" {print $3}')
nexp=$(printf '%s\n' "$exported" | grep -c . || true)
foreign=$(printf '%s\n' "$exported" | grep -v '^batcheig' | grep . || true)
if [[ -n $foreign ]]; then
  printf 'non-batcheig symbols exported:\n%s\n' "$foreign" >&2
  die "the installed library exports symbols outside the batcheig* namespace"
fi
[[ $nexp -gt 0 ]] || die "no symbols exported at all"
echo "ok: $nexp exported symbols, all batcheig*"

step "Fortran module: one bind(C) interface per exported symbol"
fsrc=$(find "$PREFIX" -name batcheig.f90 | head -n1)
[[ -n $fsrc ]] || die "Fortran module source batcheig.f90 not installed"
bound=$(grep -oiE "bind\(C, *name *= *'[A-Za-z0-9_]+'" "$fsrc" | sed -E "s/.*'([A-Za-z0-9_]+)'/\1/" |
  grep '^batcheig' | sort -u)
unbound=$(comm -23 <(printf '%s\n' "$exported" | sort -u) <(printf '%s\n' "$bound"))
stale=$(comm -13 <(printf '%s\n' "$exported" | sort -u) <(printf '%s\n' "$bound"))
if [[ -n $unbound || -n $stale ]]; then
  [[ -z $unbound ]] || printf 'exported but without a bind(C) interface in src/fortran/batcheig.f90:\n%s\n' "$unbound" >&2
  [[ -z $stale ]] || printf 'bound in src/fortran/batcheig.f90 but not exported by the library:\n%s\n' "$stale" >&2
  die "the Fortran module and the library's entry points disagree (add or fix the interfaces in src/fortran/batcheig.f90)"
fi
echo "ok: $(printf '%s\n' "$bound" | grep -c .) bind(C) interfaces, one per exported symbol"

step "examples via pkg-config (examples/Makefile)"
pc_dir=$(dirname "$pc")
export PKG_CONFIG_PATH="$pc_dir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
echo "pkg-config --cflags --libs batcheig: $(pkg-config --cflags --libs batcheig)"
pc_libdir=$(pkg-config --variable=libdir batcheig)
[[ "$(cd "$pc_libdir" && pwd -P)" == "$(cd "$libdir" && pwd -P)" ]] ||
  die "batcheig.pc libdir ($pc_libdir) is not the installed lib dir ($libdir)"
echo "pkg-config --cflags --libs batcheig-fortran: $(pkg-config --cflags --libs batcheig-fortran)"
make -C examples BUILD_DIR="$WORK/examples-pkgconfig"
run_examples() { # DIR HOW: run every example built in DIR
  local dir=$1 how=$2 name
  for name in geev_example heevj_example geev_fortran_example heevj_fortran_example; do
    check "$name ($how build)" "$dir/$name"
  done
  if [[ -x "$dir/device_example" ]]; then
    check "device_example ($how build)" "$dir/device_example"
  else
    echo "device_example not built (no CUDA toolkit)"
  fi
}
run_examples "$WORK/examples-pkgconfig" pkg-config

step "examples via CMake find_package(batcheig), component fortran (examples/CMakeLists.txt)"
cmake -S examples -B "$WORK/examples-cmake" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$PREFIX"
cmake --build "$WORK/examples-cmake" --parallel "$JOBS"
run_examples "$WORK/examples-cmake" find_package

# ---------------------------------------------------------------------------
step "asan: configure (ASan + UBSan, host backend only)"
cmake --preset asan

step "asan: build"
cmake --build --preset asan --parallel "$JOBS"

if [[ ${#failed[@]} -eq 0 ]]; then
  echo "test.sh: all steps before the asan ctest passed in $((SECONDS - _t0)) s; asan ctest follows"
fi
step "asan: ctest"
check "asan ctest" ctest --preset asan --parallel "$JOBS"

if [[ ${#failed[@]} -gt 0 ]]; then
  printf '\ntest.sh: %d step(s) failed:\n' "${#failed[@]}" >&2
  printf '  - %s\n' "${failed[@]}" >&2
  exit 1
fi
