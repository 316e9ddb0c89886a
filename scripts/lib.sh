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
