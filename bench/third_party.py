#!/usr/bin/python3
"""Third-party OpenCL kernels on every OpenCL platform, LoomCL as the reference.

Measures kernels that other people wrote, on each platform the ICD loader shows
(or on those named on the command line), in one run:

- PyOpenCL's generated kernels: a ReductionKernel sum of float32, an
  ElementwiseKernel z = a*x + b*y over float32 and an InclusiveScanKernel
  (GenericScanKernel) prefix sum of int32, in GB/s. Each result is checked
  against numpy; a wrong one is reported as FAIL. Steady state: after the
  first call (timed separately, build included; PyOpenCL's, LoomCL's and
  PoCL's binary caches are off) the case runs for at least 0.4 s of warm-up,
  then the best of 7 finish()-bracketed runs counts.
- clpeak (Debian package `clpeak`): global memory bandwidth and single-, half-
  (printed by --compute-sp where the device has cl_khr_fp16), double-precision
  and integer compute, one `clpeak -p <index> -d 0` per platform (the ICD order,
  as pyopencl.get_platforms() lists it), 600 s at most each.

The kernels come from the installed packages (PyOpenCL, clpeak) at run time, so
nothing of theirs is in this repository.

Usage:
    OCL_ICD_VENDORS=/tmp/icd /usr/bin/python3 bench/third_party.py \\
        [--quick] [--cases a,b] [platform...]

    platform...  case-insensitive substrings of platform names (default: all)
    --cases      only cases whose name contains one of these substrings,
                 e.g. --cases pyopencl or --cases clpeak
    --quick      no warm-up, one timed run, sizes / 16, no clpeak

Prints one markdown table of results with a column "LoomCL / X" for every other
platform X (LoomCL's speed over X's; every metric is higher-is-better, so above 1
means LoomCL is faster), the geometric mean of each ratio column, and a second
table with the time of each PyOpenCL case's first call.
"""
import argparse
import datetime
import math
import os
import re
import shutil
import subprocess
import time

# Every build is real: no PyOpenCL cache (must be set before the import), and
# unless the caller says otherwise no LoomCL or PoCL binary cache either.
os.environ["PYOPENCL_NO_CACHE"] = "1"
os.environ.setdefault("LOOMCL_CACHE", "0")
os.environ.setdefault("POCL_KERNEL_CACHE", "0")

import numpy as np  # noqa: E402
import pyopencl as cl  # noqa: E402
import pyopencl.array as cl_array  # noqa: E402
from pyopencl.elementwise import ElementwiseKernel  # noqa: E402
from pyopencl.reduction import ReductionKernel  # noqa: E402
from pyopencl.scan import InclusiveScanKernel  # noqa: E402

WARMUP_S = 0.4
TIMED_RUNS = 7
CLPEAK = "/usr/bin/clpeak"
CLPEAK_TIMEOUT_S = 600
CLPEAK_ARGS = ["--global-bandwidth", "--compute-sp", "--compute-dp", "--compute-integer"]
# section header in clpeak's output -> (row prefix, unit, scalar type name)
CLPEAK_SECTIONS = {
    "Global memory bandwidth (GBPS)": ("bandwidth", "GB/s", "float"),
    "Single-precision compute (GFLOPS)": ("sp", "GFLOPS", "float"),
    "Half-precision compute (GFLOPS)": ("hp", "GFLOPS", "half"),
    "Double-precision compute (GFLOPS)": ("dp", "GFLOPS", "double"),
    "Integer compute (GIOPS)": ("int", "GIOPS", "int"),
}
CLPEAK_ROW = re.compile(r"^\s+(\w+)\s*:\s*([0-9.]+)\s*$")


# ---------------------------------------------------------------- platforms

def platform_label(platform):
    """Short column name: LoomCL, PoCL <version>, else the platform name."""
    if "LoomCL" in platform.name:
        return "LoomCL"
    match = re.search(r"PoCL (\d+\.\d+)", platform.version)
    if "Portable Computing Language" in platform.name and match:
        return "PoCL " + match.group(1)
    return platform.name


def select_platforms(filters):
    """(ICD index, platform, label) for each platform asked for, in that order."""
    every = list(enumerate(cl.get_platforms()))
    found = [] if filters else every
    for f in filters:
        matches = [(i, p) for i, p in every if f.lower() in p.name.lower()]
        if not matches:
            print("no platform matches %r" % f)
        found += [m for m in matches if m not in found]
    labels = [platform_label(p) for _, p in found]
    labels = [label if labels.count(label) == 1 else "%s (%s)" % (label, p.version)
              for label, (_, p) in zip(labels, found)]
    return [(i, p, label) for (i, p), label in zip(found, labels)]


# ---------------------------------------------------------------- PyOpenCL cases
# Each case returns (build, run, check, bytes): build(ctx) makes the kernel,
# run(kernel) enqueues one call and returns its output, check(output) says
# whether the output is right, bytes is the memory traffic of one call.

def reduction_sum(queue, n):
    x = np.random.default_rng(1).random(n, dtype=np.float32)
    x_dev = cl_array.to_device(queue, x)

    def build(ctx):
        return ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a+b",
                               map_expr="x[i]", arguments="__global const float *x")

    def check(out):
        return np.allclose(out.get(), x.sum(dtype=np.float64), rtol=1e-3)

    return build, lambda knl: knl(x_dev, queue=queue), check, 4 * n


def elementwise_axpby(queue, n):
    rng = np.random.default_rng(2)
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    x_dev, y_dev = cl_array.to_device(queue, x), cl_array.to_device(queue, y)
    z_dev = cl_array.empty_like(x_dev)
    a, b = np.float32(2.5), np.float32(-0.5)

    def build(ctx):
        return ElementwiseKernel(ctx, "float a, const float *x, float b, const float *y, float *z",
                                 "z[i] = a*x[i] + b*y[i]", "axpby")

    def run(knl):
        knl(a, x_dev, b, y_dev, z_dev, queue=queue)
        return z_dev

    def check(out):
        return np.allclose(out.get(), a * x + b * y, rtol=1e-5, atol=1e-6)

    return build, run, check, 12 * n


def inclusive_scan(queue, n):
    x = np.random.default_rng(3).integers(0, 100, n, dtype=np.int32)
    x_dev = cl_array.to_device(queue, x)
    y_dev = cl_array.empty_like(x_dev)

    def build(ctx):
        return InclusiveScanKernel(ctx, np.int32, "a+b", neutral="0")

    def check(out):
        return np.array_equal(out.get(), np.cumsum(x, dtype=np.int32))

    return build, lambda knl: knl(x_dev, y_dev, queue=queue), check, 8 * n


PYOPENCL_CASES = [  # (name, function, elements)
    ("pyopencl reduction sum f32", reduction_sum, 1 << 22),
    ("pyopencl elementwise a*x+b*y f32", elementwise_axpby, 1 << 24),
    ("pyopencl inclusive scan i32", inclusive_scan, 1 << 22),
]


def timed(fn, queue):
    """(seconds, result) of fn() with the queue drained before and after."""
    queue.finish()
    start = time.perf_counter()
    result = fn()
    queue.finish()
    return time.perf_counter() - start, result


def run_pyopencl_case(case, ctx, queue, quick):
    """(GB/s or "FAIL", seconds of the first call including the build)."""
    _, setup, n = case
    build, run, check, nbytes = setup(queue, n // 16 if quick else n)
    first_s, knl = timed(lambda: build(ctx), queue)
    launch_s, out = timed(lambda: run(knl), queue)
    first_s += launch_s
    warm_until = time.perf_counter() + (0 if quick else WARMUP_S)
    while time.perf_counter() < warm_until:
        timed(lambda: run(knl), queue)
    best = math.inf
    for _ in range(1 if quick else TIMED_RUNS):
        seconds, out = timed(lambda: run(knl), queue)
        best = min(best, seconds)
    return (nbytes / best / 1e9 if check(out) else "FAIL"), first_s


def pyopencl_results(cases, platforms, quick):
    """rows {name: {label: value}} and first-call rows {name: {label: s}}."""
    rows, first = {c[0]: {} for c in cases}, {c[0]: {} for c in cases}
    for _, platform, label in platforms:
        ctx = cl.Context([platform.get_devices()[0]])
        queue = cl.CommandQueue(ctx)
        for case in cases:
            try:
                rows[case[0]][label], first[case[0]][label] = run_pyopencl_case(
                    case, ctx, queue, quick)
            except Exception as err:  # a platform's failure is a result, not the end
                print("%s on %s: %s: %s" % (case[0], label, type(err).__name__, err))
                rows[case[0]][label] = "FAIL"
        del queue, ctx
    return rows, first


# ---------------------------------------------------------------- clpeak

def clpeak_row_names():
    """Every row name clpeak can give, to match --cases before running it."""
    return ["clpeak %s %s%s" % (key, scalar, width)
            for key, _, scalar in CLPEAK_SECTIONS.values()
            for width in ("", "2", "4", "8", "16")]


def run_clpeak(index):
    """clpeak's stdout for platform <index>, device 0 (partial on timeout)."""
    cmd = [CLPEAK, "-p", str(index), "-d", "0"] + CLPEAK_ARGS
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=CLPEAK_TIMEOUT_S)
    except subprocess.TimeoutExpired as err:
        print("clpeak -p %d: timed out after %d s" % (index, CLPEAK_TIMEOUT_S))
        out = err.stdout or b""
        return out.decode() if isinstance(out, bytes) else out
    if done.returncode != 0:
        print("clpeak -p %d: exit %d: %s" % (index, done.returncode, done.stderr.strip()))
    return done.stdout


def parse_clpeak(text):
    """[(row name, unit, value)] from clpeak's output, in its order."""
    results, section = [], None
    for line in text.splitlines():
        if line.strip() in CLPEAK_SECTIONS:
            section = CLPEAK_SECTIONS[line.strip()]
            continue
        match = CLPEAK_ROW.match(line)
        if section and match:
            results.append(("clpeak %s %s" % (section[0], match.group(1)),
                            section[1], float(match.group(2))))
        else:
            section = None
    return results


def clpeak_results(platforms, wanted):
    """rows {name: {label: value}} and units {name: unit} for clpeak rows wanted."""
    rows, units = {}, {}
    for index, _, label in platforms:
        started = time.perf_counter()
        for name, unit, value in parse_clpeak(run_clpeak(index)):
            if wanted(name):
                rows.setdefault(name, {})[label] = value
                units[name] = unit
        print("clpeak on %s: %.0f s" % (label, time.perf_counter() - started))
    return rows, units


# ---------------------------------------------------------------- output

def fmt(value):
    if isinstance(value, str):
        return value
    return "%.3g" % value if value < 100 else "%.0f" % value


def ratio(rows, name, ref, other):
    """LoomCL's value over other's, or None when either is missing or failed."""
    a, b = rows[name].get(ref), rows[name].get(other)
    if isinstance(a, float) and isinstance(b, float) and b > 0:
        return a / b
    return None


def print_table(rows, units, labels, ref):
    others = [l for l in labels if l != ref] if ref else []
    head = ["case", "unit"] + labels + ["%s / %s" % (ref, o) for o in others]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name in rows:
        cells = [name, units[name]] + [fmt(rows[name].get(l, "-")) for l in labels]
        cells += [fmt(r) if r else "-" for r in (ratio(rows, name, ref, o) for o in others)]
        print("| " + " | ".join(cells) + " |")
    print()
    for other in others:
        rs = [r for r in (ratio(rows, n, ref, other) for n in rows) if r]
        if rs:
            gm = math.exp(sum(map(math.log, rs)) / len(rs))
            print("geometric mean %s / %s: %.3g over %d cases" % (ref, other, gm, len(rs)))


def print_first_calls(first, labels):
    print("\nfirst call, s (build + first launch)\n")
    print("| case | " + " | ".join(labels) + " |")
    print("|" + "---|" * (len(labels) + 1))
    for name, values in first.items():
        print("| %s | %s |" % (name, " | ".join(fmt(values.get(l, "-")) for l in labels)))


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown CPU"


# ---------------------------------------------------------------- main

def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("platforms", nargs="*", help="substrings of platform names")
    parser.add_argument("--cases", default="", help="comma-separated substrings of case names")
    parser.add_argument("--quick", action="store_true", help="smoke test: small, no clpeak")
    return parser.parse_args()


def main():
    args = parse_args()
    filters = [c for c in args.cases.split(",") if c]
    wanted = lambda name: not filters or any(f in name for f in filters)  # noqa: E731
    platforms = select_platforms(args.platforms)
    labels = [label for _, _, label in platforms]
    ref = next((l for l in labels if "LoomCL" in l), None)
    print("# third-party OpenCL kernels, %s, %s, %d cores\n"
          % (cpu_model(), datetime.date.today(), os.cpu_count()))
    for index, platform, label in platforms:
        print("- platform %d: %s = %s, %s" % (index, label, platform.name, platform.version))
    print()

    cases = [c for c in PYOPENCL_CASES if wanted(c[0])]
    rows, first = pyopencl_results(cases, platforms, args.quick)
    units = {c[0]: "GB/s" for c in cases}
    if args.quick or not any(map(wanted, clpeak_row_names())):
        pass
    elif not shutil.which(CLPEAK):
        print("clpeak skipped: %s not found (apt-get install clpeak)" % CLPEAK)
    else:
        peak_rows, peak_units = clpeak_results(platforms, wanted)
        rows.update(peak_rows)
        units.update(peak_units)
    if not ref:
        print("no LoomCL platform selected: no ratios")
    print()
    print_table(rows, units, labels, ref)
    if first:
        print_first_calls(first, labels)


if __name__ == "__main__":
    main()
