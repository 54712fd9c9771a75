#!/usr/bin/env bash
# Sets everything up, builds LoomCL and runs its test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
rm -rf "$BUILD_DIR"/test-cache
cd "$BUILD_DIR"
ctest --output-on-failure -j"$(nproc)" --timeout 300
