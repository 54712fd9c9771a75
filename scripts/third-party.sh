#!/usr/bin/env bash
# Runs third-party OpenCL software against the built LoomCL through the ICD
# loader, as a new user would on Debian 12 (docs/THIRD_PARTY.md):
#   PyOpenCL's own tests  (python3-pyopencl, tests from python-pyopencl-doc)
#   piglit's `cl` profile (piglit)
#   CLBlast's tests       (clblast-tests, every clblast_test_x* binary)
# Only LoomCL is visible to them (OCL_ICD_VENDORS is a folder holding only its
# .icd), with a private program cache. One line per suite:
#   <suite>: N passed, M failed, K skipped
# and the names of the failures in $BUILD_DIR/third-party/<platform>/<suite>.failures
# (full logs beside them).
#
#   scripts/third-party.sh [--asan] [--compare-pocl] [--quick] [--only SUITE,...]
#     --asan          LoomCL built with -DLOOMCL_ASAN=ON in build-asan (BUILD_DIR
#                     overrides), libasan preloaded into the test processes;
#                     ASan reports go to <suite>.asan.* beside the logs
#     --compare-pocl  the same suites on PoCL (pocl-opencl-icd) afterwards
#     --quick         a subset: 3 PyOpenCL files, piglit's api tests, 6 CLBlast routines
#     --only LIST     some of: pyopencl,piglit,clblast
# Environment: BUILD_DIR (default build, or build-asan with --asan), JOBS
# (parallel test processes, default: online cores), CLBLAST_TIMEOUT (seconds per
# CLBlast binary, default 1800).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

asan=0 compare=0 quick=0 only="pyopencl,piglit,clblast"
while [ $# -gt 0 ]; do
  case "$1" in
    --asan) asan=1 ;;
    --compare-pocl) compare=1 ;;
    --quick) quick=1 ;;
    --only) only=$2; shift ;;
    --only=*) only=${1#--only=} ;;
    -h|--help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "third-party.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
if [ $asan = 1 ]; then BUILD_DIR=${BUILD_DIR:-build-asan}; else BUILD_DIR=${BUILD_DIR:-build}; fi
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR=$ROOT/$BUILD_DIR ;; esac
JOBS=${JOBS:-$(nproc)}
CLBLAST_TIMEOUT=${CLBLAST_TIMEOUT:-1800}
PY=/usr/bin/python3 # the system python: PATH's python3 may lack pyopencl

# ---- packages ---------------------------------------------------------------
packages=(python3-pyopencl python-pyopencl-doc python3-pytest piglit clblast-tests
          ocl-icd-libopencl1)
[ $compare = 1 ] && packages+=(pocl-opencl-icd)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "Installing: ${missing[*]}"
  $SUDO apt-get update -qq || exit 1
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" > /dev/null || exit 1
fi

icd=$(ls "$BUILD_DIR"/icd/*.icd 2>/dev/null | head -1)
if [ -z "$icd" ]; then
  if [ $asan = 1 ]; then
    echo "no LoomCL in $BUILD_DIR: BUILD_DIR=$(basename "$BUILD_DIR") CMAKE_ARGS=-DLOOMCL_ASAN=ON scripts/build.sh" >&2
  else
    echo "no LoomCL in $BUILD_DIR: BUILD_DIR=$(basename "$BUILD_DIR") scripts/build.sh" >&2
  fi
  exit 1
fi

TMP=$(mktemp -d /tmp/loomcl-third-party.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# ---- one suite on one platform ----------------------------------------------
# report SUITE PASSED FAILED SKIPPED [NOTE]
report() {
  printf '%-9s %d passed, %d failed, %d skipped%s\n' "$1:" "$2" "$3" "$4" "${5:+ ($5)}"
}

asan_note() { # asan reports written under $1 (a log_path prefix)
  [ $asan = 1 ] && [ "$platform" = loomcl ] || return 0
  local n
  n=$(cat "$1".* 2>/dev/null | grep -c '^==[0-9]*==ERROR: AddressSanitizer' || true)
  echo "ASan: $n reports"
}

# the environment every test process gets
suite_env() { # suite-name
  local vendors=$TMP/vendors-$platform
  echo "OCL_ICD_VENDORS=$vendors"
  echo "OCL_ICD_FILENAMES="
  echo "LOOMCL_CACHE_DIR=$TMP/cache-$platform"
  echo "POCL_CACHE_DIR=$TMP/pocl-cache"
  echo "XDG_CACHE_HOME=$TMP/xdg-$platform"
  echo "HOME=$TMP/home"
  if [ $asan = 1 ] && [ "$platform" = loomcl ]; then
    # libstdc++ too: ASan's __cxa_throw interceptor finds the real one only if
    # it is loaded when ASan starts, and PyOpenCL throws C++ exceptions
    echo "LD_PRELOAD=$libasan:$libstdcxx"
    # the hosts (Python, piglit, CLBlast) are not LoomCL's: their leaks are not ours
    echo "ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:log_path=$OUT/$1.asan"
  fi
}

run_pyopencl() {
  local files=(test_wrapper.py test_enqueue_copy.py test_arrays_in_structs.py
               test_clrandom.py test_clmath.py test_array.py test_algorithm.py)
  [ $quick = 1 ] && files=(test_wrapper.py test_enqueue_copy.py test_arrays_in_structs.py)
  local src=/usr/share/doc/python-pyopencl-doc/examples dir=$TMP/pyopencl-$platform
  mkdir -p "$dir"
  # the whole folder: the tests read files beside them (empty-header.h)
  cp -r "$src"/. "$dir"/
  find "$dir" -name '*.gz' -exec gunzip -f {} +
  : > "$OUT/pyopencl.log"
  local f
  for f in "${files[@]}"; do
    # one process per file: a crash loses that file only
    ( cd "$dir" && env $(suite_env pyopencl) timeout 3600 nice $PY -m pytest -q -p no:cacheprovider \
        --junitxml="$OUT/pyopencl-${f%.py}.xml" "$f" ) >> "$OUT/pyopencl.log" 2>&1
    local rc=$?
    if [ $rc -gt 1 ] && [ $rc -ne 5 ]; then
      echo "$f: the pytest process ended with status $rc" >> "$OUT/pyopencl.log"
      grep -q "testsuite" "$OUT/pyopencl-${f%.py}.xml" 2>/dev/null ||
        echo "<crash file=\"$f\" status=\"$rc\"/>" > "$OUT/pyopencl-${f%.py}.xml"
    fi
  done
  $PY - "$OUT" "${files[@]}" <<'EOF'
import sys, xml.etree.ElementTree as ET
out, files = sys.argv[1], sys.argv[2:]
p = f = s = 0
names = []
for name in files:
    path = f"{out}/pyopencl-{name[:-3]}.xml"
    try:
        root = ET.parse(path).getroot()
    except Exception:
        f += 1; names.append(f"{name}: no result (crashed)"); continue
    if root.tag == "crash":
        f += 1; names.append(f"{name}: the process died (status {root.get('status')})"); continue
    for case in root.iter("testcase"):
        kinds = {c.tag for c in case}
        n = f"{name}::{case.get('name')}"
        if kinds & {"failure", "error"}:
            f += 1; names.append(n)
        elif "skipped" in kinds:
            s += 1
        else:
            p += 1
open(f"{out}/pyopencl.failures", "w").write("".join(x + "\n" for x in names))
print(p, f, s)
EOF
}

run_piglit() {
  local res=$TMP/piglit-$platform args=()
  [ $quick = 1 ] && args+=(-t 'api@')
  env $(suite_env piglit) nice piglit run -j "$JOBS" --timeout 600 "${args[@]}" cl "$res" \
    > "$OUT/piglit.log" 2>&1
  $PY - "$res" "$OUT" <<'EOF'
import sys, json, os, bz2, gzip, glob
res, out = sys.argv[1], sys.argv[2]
data = None
for name in ("results.json", "results.json.bz2", "results.json.gz", "results.json.xz"):
    path = os.path.join(res, name)
    if os.path.exists(path):
        opener = {"bz2": bz2.open, "gz": gzip.open}.get(name.rsplit(".", 1)[-1], open)
        if name.endswith(".xz"):
            import lzma; opener = lzma.open
        with opener(path, "rt") as fh:
            data = json.load(fh)
        break
tests = data["tests"] if data else {}
if not tests:  # an interrupted run: the per-test files
    for path in glob.glob(os.path.join(res, "tests", "*.json")):
        try:
            tests.update(json.load(open(path)))
        except Exception:
            pass
p = f = s = 0
names = []
with open(os.path.join(out, "piglit.details"), "w") as det:
    for name in sorted(tests):
        t = tests[name]
        r = t.get("result")
        if r == "pass" or r == "warn":
            p += 1
        elif r == "skip" or r == "notrun":
            s += 1
        else:
            f += 1
            names.append(f"{name}: {r}")
            det.write(f"==== {name}: {r}\n{t.get('out', '')}\n{t.get('err', '')}\n")
open(os.path.join(out, "piglit.failures"), "w").write("".join(x + "\n" for x in names))
print(p, f, s)
EOF
}

run_clblast() {
  local bins
  bins=$(ls /usr/bin/clblast_test_x* 2>/dev/null | sort)
  [ $quick = 1 ] && bins=$(printf '/usr/bin/clblast_test_%s\n' xamax xasum xaxpy xdot xgemv xgemm)
  mkdir -p "$OUT/clblast"
  # the tests are single-threaded and slow on a CPU: several at once; the
  # longest (level 3) first
  local order
  order=$(for b in $bins; do
    case $b in *gemm*|*trsm*|*syr2k*|*her2k*|*syrk*|*herk*|*symm*|*hemm*|*trmm*|*conv*) echo "0 $b" ;;
               *) echo "1 $b" ;; esac; done | sort | cut -d' ' -f2)
  local envs
  envs=$(suite_env clblast | tr '\n' ' ')
  echo "$order" | xargs -P "$JOBS" -I{} sh -c \
    'b={}; n=$(basename $b); env '"$envs"' timeout '"$CLBLAST_TIMEOUT"' nice $b -platform 0 -device 0 \
       > '"$OUT"'/clblast/$n.log 2>&1; echo "exit status $?" >> '"$OUT"'/clblast/$n.log'
  $PY - "$OUT" <<'EOF'
import sys, re, glob, os
out = sys.argv[1]
p = f = s = 0
names = []
for path in sorted(glob.glob(os.path.join(out, "clblast", "*.log"))):
    b = os.path.basename(path)[:-4]
    text = open(path, errors="replace").read()
    routine = None
    got = False
    status = re.search(r"exit status (\d+)", text)
    for line in re.sub(r"\x1b\[[0-9;]*m", "", text).splitlines():
        m = re.search(r"Starting tests for the '(\w+)' routine", line)
        if m:
            routine = m.group(1)
        m = re.search(r"^\s+(\d+) test\(s\) passed", line)
        if m: p += int(m.group(1)); got = True
        m = re.search(r"^\s+(\d+) test\(s\) skipped", line)
        if m: s += int(m.group(1))
        m = re.search(r"^\s+(\d+) test\(s\) failed", line)
        if m:
            n = int(m.group(1)); f += n
            if n: names.append(f"{b}: {n} failed ({routine or 'see log'})")
    if status and status.group(1) != "0" and (not got or status.group(1) not in ("1",)):
        f += 1; names.append(f"{b}: the process ended with status {status.group(1)}")
open(os.path.join(out, "clblast.failures"), "w").write("".join(x + "\n" for x in names))
print(p, f, s)
EOF
}

run_platform() { # loomcl|pocl
  platform=$1
  OUT=$BUILD_DIR/third-party/$platform
  rm -rf "$OUT"; mkdir -p "$OUT" "$TMP/vendors-$platform" "$TMP/home"
  if [ "$platform" = loomcl ]; then
    cp "$icd" "$TMP/vendors-$platform/"
  else
    cp /etc/OpenCL/vendors/pocl.icd "$TMP/vendors-$platform/"
  fi
  echo "== $platform ($(cat "$TMP"/vendors-$platform/*.icd)); logs in ${OUT#$ROOT/}"
  local suite counts
  for suite in pyopencl piglit clblast; do
    case ",$only," in *",$suite,"*) ;; *) continue ;; esac
    counts=$(run_$suite | tail -1)
    # shellcheck disable=SC2086
    report "$suite" $counts "$(asan_note "$OUT/$suite.asan")"
  done
}

libasan="" libstdcxx=""
if [ $asan = 1 ]; then
  libasan=$(gcc -print-file-name=libasan.so)
  [ -e "$libasan" ] || { echo "libasan not found (gcc -print-file-name=libasan.so)" >&2; exit 1; }
  libstdcxx=$(gcc -print-file-name=libstdc++.so.6)
fi
run_platform loomcl
[ $compare = 1 ] && run_platform pocl
exit 0
