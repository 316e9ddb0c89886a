#!/usr/bin/env bash
# Run the batcheig demo: install what is missing, configure and build the
# `release` preset (demo target only), then run the control-design parameter
# sweep. Extra arguments go to the demo, e.g.
#   ./scripts/demo.sh --count 50000 --n 10
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$BATCHEIG_ROOT"

step "setup (installs only what is missing)"
"$BATCHEIG_ROOT/scripts/setup.sh"
use_local_cmake_if_needed

step "configure (preset release)"
cmake --preset release

step "build batcheig_demo"
cmake --build --preset release --target batcheig_demo --parallel "$(njobs)"

step "run demo"
exec "$BATCHEIG_ROOT/build/release/demo/batcheig_demo" "$@"
