#!/usr/bin/env bash
# OpenCL C -> the front end's IR, as LoomCL's front end makes it
# (src/compiler/frontend/frontend.c: spir64, no LLVM passes, value names
# kept, the device's features and extensions, the same prelude). Writes
# textual IR on stdout.
#   tests/ir/make-input.sh kernel.cl [clang options, e.g. -cl-std=CL2.0] > kernel.ll
# Then `loom-opt -until=<the pass before yours> kernel.ll` gives a pass's
# input; trim it by hand (tests/ir/README.md).
#
# The features come from src/compiler/frontend/opencl_features.h (rows YES
# and FP64 enabled, rows NO #undef'd in the prelude) and the extensions
# from LOOM_EXTENSIONS in src/core/platform.h, so this stays in step with
# the tree it lives in.
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: $0 FILE.cl [clang options]" >&2
  exit 2
fi
src=$1
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
features_h=$root/src/compiler/frontend/opencl_features.h
platform_h=$root/src/core/platform.h
CLANG=${CLANG:-clang-19}

std=-cl-std=CL1.2
for a in "$@"; do
  case $a in -cl-std=*) std= ;; esac
done

rows() { # the names of the rows whose `when` is $1
  sed -n "s/^ *X(\"\([^\"]*\)\", *.*, *$1) *\\\\\{0,1\}$/\1/p" "$features_h"
}
ext="-cl-ext=-all"
for f in $(rows YES) $(rows FP64); do
  ext+=",+$f"
done
# the device's extensions: the lines of the LOOM_EXTENSIONS macro
for e in $(awk '/#define LOOM_EXTENSIONS/ { on = 1 } on { print; if ($0 !~ /\\$/) exit }' "$platform_h" |
  grep -o 'cl_[a-z0-9_]*'); do
  ext+=",+$e"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-input.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
{
  for f in $(rows NO); do
    echo "#undef $f"
  done
  echo "#define __OPENCL_VERSION__ 300"
} > "$tmp/features.h"

"$CLANG" -x cl -target spir64-unknown-unknown -Xclang -fdeclare-opencl-builtins \
  -Xclang -finclude-default-header -Xclang "$ext" -emit-llvm -S -O2 \
  -Xclang -disable-llvm-passes -ffp-contract=on -fno-discard-value-names \
  ${std:+"$std"} "$@" -include "$tmp/features.h" -o - "$src"
