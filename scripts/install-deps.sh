#!/usr/bin/env bash
# Installs the Debian 12 packages LoomCL needs to build, test and run.
# Idempotent: packages already present are not touched.
set -euo pipefail
packages=(build-essential cmake clang-19 llvm-19-dev llvm-19-tools opencl-headers
          ocl-icd-opencl-dev ocl-icd-libopencl1 clinfo llvm-spirv-15 spirv-tools)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
echo "Installing: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
