#!/usr/bin/env bash
# Checks that the builtin library defines every image builtin a program can
# call, with the parameter types LoomCL's front end gives the call.
#
#   tests/builtins/image_builtins_complete.sh [BUILD_DIR]
#
# image_probe.cl (beside this script) calls every overload of
# read_image{f,i,ui,h}, write_image{f,i,ui,h} and get_image_* that OpenCL C
# 3.0 declares with images, read-write images, 3D image writes, depth
# images and cl_khr_fp16 (no mipmaps, MSAA or GL sharing). Clang compiles it
# for spir64 with the builtins declared as a program's are; each `declare`
# it makes must have a `define` of the same name in
# BUILD_DIR/builtins/loom-builtins-cpu.bc (default: ./build), whose return
# and parameter types are the declaration's once the front end has lowered
# them: image types to `ptr addrspace(2)` (the descriptor in
# builtins/loom_image.h), samplers to i32. The last line is "N builtins
# checked, M missing or mismatched"; the exit status is 0 only when M is 0.
set -u

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
library=$build/builtins/loom-builtins-cpu.bc
llvm_bin=/usr/lib/llvm-19/bin
clang=${LOOMCL_CLANG:-$llvm_bin/clang}
dis=$llvm_bin/llvm-dis

if [ ! -f "$library" ]; then
  echo "no builtin library at $library (build LoomCL first)" >&2
  exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the device's image features, as the front end enables them
exts="-all,+__opencl_c_images,+__opencl_c_read_write_images,+__opencl_c_3d_image_writes"
exts="$exts,+cl_khr_3d_image_writes,+cl_khr_depth_images,+cl_khr_fp16"
exts="$exts,+__opencl_c_int64,+__opencl_c_fp64,+cl_khr_fp64"
if ! "$clang" -x cl -target spir64-unknown-unknown -cl-std=CL3.0 \
    -Xclang -fdeclare-opencl-builtins -Xclang -finclude-default-header \
    -Xclang "-cl-ext=$exts" -emit-llvm -S -Xclang -disable-llvm-passes \
    -o "$tmp/probe.ll" "$here/image_probe.cl"; then
  echo "image_probe.cl does not compile" >&2
  exit 2
fi
"$dis" "$library" -o "$tmp/library.ll" || exit 2

# "<return type> <name>(<parameter types>)" of each declare or define line,
# attributes and value names dropped, image and sampler types lowered
signatures() {
  sed -E -n "s/^$1 //p" |
    sed -E \
      -e 's/target\("spirv\.Image"[^)]*\)/ptr addrspace(2)/g' \
      -e 's/target\("spirv\.Sampler"\)/i32/g' \
      -e 's/ (local_unnamed_addr|unnamed_addr)//g' \
      -e 's/ #[0-9]+//g; s/ \{$//' \
      -e 's/ (noundef|nocapture|readonly|writeonly|readnone|signext|zeroext|noalias|nonnull)\>//g' \
      -e 's/ %[0-9A-Za-z_.]+//g' \
      -e 's/range\([^)]*\) //g' \
      -e 's/^(dso_local |internal |linkonce_odr |spir_func )*//; s/^(dso_local |spir_func )*//' \
      -e 's/ +/ /g'
}

signatures declare < "$tmp/probe.ll" | sort -u > "$tmp/wanted"
signatures define < "$tmp/library.ll" | sort -u > "$tmp/defined"

total=0
bad=0
while IFS= read -r sig; do
  total=$((total + 1))
  if ! grep -qxF -- "$sig" "$tmp/defined"; then
    bad=$((bad + 1))
    name=$(echo "$sig" | sed -E 's/.*@([A-Za-z0-9_]+)\(.*/\1/')
    have=$(grep -F "@$name(" "$tmp/defined" | head -n 1)
    if [ -n "$have" ]; then
      echo "MISMATCH: wanted $sig"
      echo "          defined $have"
    else
      echo "MISSING: $sig"
    fi
  fi
done < "$tmp/wanted"

if [ "$total" -lt 250 ]; then
  echo "only $total builtins found in the probe: is it complete?" >&2
  bad=$((bad + 1))
fi
echo "$total builtins checked, $bad missing or mismatched"
[ "$bad" -eq 0 ]
