#!/usr/bin/env bash
# Sets everything up and runs the LoomCL demo: real kernels on the CPU device.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
exec "$BUILD_DIR"/loomcl-demo
