#!/usr/bin/env bash
# IR-level tests of LoomCL's passes (tests/ir/README.md).
#
#   tests/ir/run.sh [--replace-passes=LIST] LOOM_OPT TESTS_DIR [NAME_FILTER...]
#
# Every TESTS_DIR/**/*.ll is a test. Its lines
#   ; RUN: <loom-opt arguments> [| <FileCheck arguments>]
#   ; RUN-FAIL: <loom-opt arguments> [| <FileCheck arguments>]
#   ; RUN-FAIL(N): ...
# each run `loom-opt <arguments> - < <the file>`: a RUN must exit 0 and its
# stdout (the module) is checked by `FileCheck <the file>`; a RUN-FAIL must
# fail with a message, not crash (exit status 1-125, or exactly N), and its
# stderr is checked. The FileCheck arguments pick other prefixes
# (--check-prefixes=CHECK,AVX). A test passes when all of its runs do.
#
# --replace-passes=LIST runs every test with each -passes=... replaced by
# -passes=LIST; with an empty LIST no pass runs at all. That mode checks
# the tests themselves: each one whose pass is skipped must fail (those
# under loom-opt/, which test the tool, and those with a '; NEGATIVE:' line,
# which only check that the pass leaves its input alone, are exempt), and
# it reports and fails on those that still pass.
#
# The last line is "N passed, M failed"; the exit status is 0 only when
# nothing failed.
set -u

replace=
replacing=false
while [ $# -gt 0 ]; do
  case $1 in
  --replace-passes=*) replace=${1#--replace-passes=}; replacing=true; shift ;;
  --) shift; break ;;
  -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  *) break ;;
  esac
done
if [ $# -lt 2 ]; then
  echo "usage: $0 [--replace-passes=LIST] LOOM_OPT TESTS_DIR [NAME_FILTER...]" >&2
  exit 2
fi
opt=$1
dir=${2%/}
shift 2
filters=("$@")

if [ ! -x "$opt" ]; then
  echo "run.sh: $opt is not an executable" >&2
  exit 2
fi
filecheck=${FILECHECK:-}
if [ -z "$filecheck" ]; then
  for c in FileCheck-19 /usr/lib/llvm-19/bin/FileCheck FileCheck; do
    if command -v "$c" > /dev/null 2>&1; then
      filecheck=$c
      break
    fi
  done
fi
if [ -z "$filecheck" ]; then
  echo "run.sh: FileCheck not found (Debian: llvm-19-tools; or set FILECHECK)" >&2
  exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/loom-ir.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

run_re='^; RUN(-FAIL(\([0-9]+\))?)?:( |$)'
passed=0
failed=0
still_passing=()

# one run of test $1: kind (RUN, RUN-FAIL or RUN-FAIL(N)) $2, line $3;
# prints what went wrong and returns 1 on failure
run_one() {
  local file=$1 kind=$2 line=$3
  local args_text fc_text=
  args_text=${line%%|*}
  if [[ $line == *"|"* ]]; then
    fc_text=${line#*|}
  fi
  local -a args fcargs
  read -r -a args <<< "$args_text"
  read -r -a fcargs <<< "$fc_text"
  if [ ${#fcargs[@]} -gt 0 ] && [[ ${fcargs[0]} == FileCheck* ]]; then
    fcargs=("${fcargs[@]:1}")
  fi
  if $replacing; then
    local i
    for i in "${!args[@]}"; do
      case ${args[$i]} in -passes=* | --passes=*) args[$i]="-passes=$replace" ;; esac
    done
  fi
  local out=$tmp/out err=$tmp/err rc
  # the input comes on stdin, so that the output does not hold the file's
  # path (ModuleID, source_filename), which CHECK-NOT lines could match
  "$opt" "${args[@]}" - < "$file" > "$out" 2> "$err"
  rc=$?
  local shown="loom-opt ${args[*]} - < $file"
  case $kind in
  RUN)
    if [ $rc -ne 0 ]; then
      echo "  $shown: exit status $rc"
      sed 's/^/    /' "$err" | head -40
      return 1
    fi
    if ! "$filecheck" --input-file="$out" "$file" "${fcargs[@]}" > "$tmp/fc" 2>&1; then
      echo "  $shown | FileCheck ${fcargs[*]}: the output does not match"
      sed 's/^/    /' "$tmp/fc" | head -60
      return 1
    fi
    ;;
  RUN-FAIL*)
    local want=
    if [[ $kind =~ ^RUN-FAIL\(([0-9]+)\)$ ]]; then
      want=${BASH_REMATCH[1]}
    fi
    if [ $rc -eq 0 ]; then
      echo "  $shown: succeeded, and it should have failed"
      return 1
    fi
    if [ $rc -gt 125 ]; then
      echo "  $shown: crashed (exit status $rc) instead of reporting an error"
      sed 's/^/    /' "$err" | head -40
      return 1
    fi
    if [ -n "$want" ] && [ "$rc" -ne "$want" ]; then
      echo "  $shown: exit status $rc, expected $want"
      sed 's/^/    /' "$err" | head -20
      return 1
    fi
    if ! "$filecheck" --input-file="$err" "$file" "${fcargs[@]}" > "$tmp/fc" 2>&1; then
      echo "  $shown | FileCheck ${fcargs[*]}: the error message does not match"
      sed 's/^/    /' "$tmp/fc" | head -60
      return 1
    fi
    ;;
  esac
  return 0
}

while IFS= read -r file; do
  rel=${file#"$dir"/}
  if [ ${#filters[@]} -gt 0 ]; then
    match=false
    for f in "${filters[@]}"; do
      [[ $rel == *"$f"* ]] && match=true
    done
    $match || continue
  fi
  ok=true
  runs=0
  report=$(
    status=0
    while IFS= read -r l; do
      kind=${l#; }
      kind=${kind%%:*}
      cmd=${l#*:}
      cmd=${cmd# }
      run_one "$file" "$kind" "$cmd" || status=1
    done < <(grep -E "$run_re" "$file")
    exit $status
  ) || ok=false
  runs=$(grep -cE "$run_re" "$file")
  if [ "$runs" -eq 0 ]; then
    ok=false
    report="  no '; RUN:' or '; RUN-FAIL:' line"
  fi
  if $replacing; then
    # the test must fail now, unless it tests the tool itself or only checks
    # that its pass leaves the input alone (a '; NEGATIVE:' line says why)
    if $ok && [[ $rel != loom-opt/* ]] && ! grep -q '^; NEGATIVE:' "$file"; then
      echo "STILL PASSES: $rel"
      still_passing+=("$rel")
      failed=$((failed + 1))
    else
      $ok || echo "fails as it should: $rel"
      $ok && echo "still passes (a tool or NEGATIVE test): $rel"
      passed=$((passed + 1))
    fi
    continue
  fi
  if $ok; then
    echo "PASS: $rel"
    passed=$((passed + 1))
  else
    echo "FAIL: $rel"
    printf '%s\n' "$report"
    failed=$((failed + 1))
  fi
done < <(find "$dir" -name '*.ll' -type f | LC_ALL=C sort)

if $replacing; then
  echo "with -passes=$replace: ${#still_passing[@]} test(s) not sensitive to their pass"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
