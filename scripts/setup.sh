#!/usr/bin/env bash
# Install what batcheig needs to build and test on Debian / Ubuntu:
# CMake (>= 3.25), a C/C++ compiler with OpenMP, gfortran (the Fortran
# module and examples), Ninja, make, pkg-config, binutils (nm), OpenBLAS,
# LAPACKE and Catch2.
#
# Idempotent: every requirement is checked first, and apt is not touched at
# all when everything is already present. `apt-get update` runs only when the
# package lists are missing or an install from the current lists fails.
# Uses sudo only when not running as root.
#
# The CUDA toolkit is optional and never installed here: when nvcc is found
# (on PATH or at /usr/local/cuda) CMake also builds the CUDA backend.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
log() { printf '[setup] %s\n' "$*"; }

# --- what is missing -------------------------------------------------------
missing=()
have cmake      || missing+=(cmake)
have g++        || missing+=(g++)
have cc         || missing+=(gcc)
have gfortran   || missing+=(gfortran)
have ninja      || missing+=(ninja-build)
have make       || missing+=(make)
have pkg-config || missing+=(pkg-config)
have nm         || missing+=(binutils)

# Libraries: prefer the pkg-config / CMake package checks; the build uses those.
if ! { have pkg-config && pkg-config --exists lapacke; }; then
  missing+=(liblapacke-dev)
fi
openblas_found=0
for d in /usr/lib /usr/lib64 /usr/local/lib /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu; do
  if compgen -G "$d/libopenblas.so*" >/dev/null || compgen -G "$d/openblas*/libblas.so*" >/dev/null; then
    openblas_found=1; break
  fi
done
if [[ $openblas_found -eq 0 ]] && have pkg-config && pkg-config --exists openblas; then
  openblas_found=1
fi
[[ $openblas_found -eq 1 ]] || missing+=(libopenblas-dev)

catch2_found=0
for f in /usr/include/catch2/catch.hpp /usr/include/catch2/catch_all.hpp \
         /usr/local/include/catch2/catch.hpp /usr/local/include/catch2/catch_all.hpp; do
  [[ -f $f ]] && { catch2_found=1; break; }
done
[[ $catch2_found -eq 1 ]] || missing+=(catch2)

# --- install ---------------------------------------------------------------
if [[ ${#missing[@]} -eq 0 ]]; then
  log "all requirements present; nothing to install"
else
  log "missing: ${missing[*]}"
  have apt-get || die "apt-get not found: install ${missing[*]} by hand (Debian/Ubuntu package names)"
  SUDO=()
  if [[ $(id -u) -ne 0 ]]; then
    have sudo || die "not root and sudo not found: install ${missing[*]} as root"
    SUDO=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt_install() { "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"; }
  if ! compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null; then
    log "apt package lists are empty: apt-get update"
    "${SUDO[@]}" apt-get update -q
  fi
  if ! apt_install; then
    log "install from the current lists failed: apt-get update and retry"
    "${SUDO[@]}" apt-get update -q
    apt_install
  fi
fi

# --- CMake must be >= 3.25 (presets v6); Ubuntu 22.04 ships 3.22 -----------
if ! cmake_version_ok && [[ -x "$HOME/.local/bin/cmake" ]]; then
  export PATH="$HOME/.local/bin:$PATH"
fi
if ! cmake_version_ok; then
  log "cmake $(cmake --version | head -n1) is older than 3.25: installing a newer one from PyPI into ~/.local"
  have python3 || die "python3 not found; install CMake >= 3.25 by hand"
  python3 -m pip --version >/dev/null 2>&1 || die "pip not found; install CMake >= 3.25 by hand (e.g. pip install cmake)"
  python3 -m pip install --user --quiet 'cmake>=3.25' || python3 -m pip install --user --quiet --break-system-packages 'cmake>=3.25'
  export PATH="$HOME/.local/bin:$PATH"
  hash -r
  cmake_version_ok || die "cmake >= 3.25 still not on PATH (add ~/.local/bin to PATH)"
fi

log "cmake: $(cmake --version | head -n1)"
log "c++:   $(g++ --version | head -n1)"
log "fortran: $(gfortran --version | head -n1)"
log "lapacke: $(pkg-config --modversion lapacke)"
if have nvcc || [[ -x /usr/local/cuda/bin/nvcc ]]; then
  log "nvcc found: the CUDA backend will be compiled too (release preset)"
fi
