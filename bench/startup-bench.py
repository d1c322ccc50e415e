#!/usr/bin/env python3
"""startup-bench.py: hpmstat's start-up against perf's (make bench-startup).

Usage: startup-bench.py HPMSTAT BENCH-RUNTIME [PERF] [RUNS] [FLOOR]

For each pair of commands below, runs hpmstat's and perf's in turn (A B B A
A B ..., RUNS pairs after 3 warm-up pairs: which one goes first alternates,
so neither always runs right after the other), each run through
bench-runtime (bench/runtime.c: fork, exec, wait4 from a small C process,
so neither the timing nor the peak RSS holds Python's), and prints for
each side the wall time (median and min-max over the runs), the median of
the pairwise ratios hpmstat/perf (pairing keeps the ratio meaningful while
the machine's speed drifts) with its 95 % confidence interval (the
distribution-free one of a median: the ratios of ranks about n/2 -+ 0.98
sqrt(n) in sorted order), the shared libraries the program mapped (the
loader's own account, LD_DEBUG=files, of the program's own process,
dlopened ones included, the loader and the vDSO not), and the median minor page faults and peak RSS (for a
pipe, the shell's and its children's). FLOOR (bench/startup-floor.c: the
least a `stat -e task-clock -- true` does, linked statically as hpmstat's
front is) adds its row against the same perf command: what is reachable
at all.
"""
import math
import os
import re
import statistics
import subprocess
import sys


def run_once(runtime, argv):
    """Wall seconds, minor faults and peak RSS (KiB) of one run of argv."""
    p = subprocess.run([runtime, "1"] + argv, stdin=subprocess.DEVNULL, capture_output=True,
                       text=True)
    if p.returncode != 0:
        sys.exit("startup-bench: %s: %s" % (" ".join(argv), p.stderr.strip()))
    f = dict(kv.split("=") for kv in p.stdout.split())
    return int(f["median_us"]) / 1e6, int(f["minflt"]), int(f["peak_rss_kb"])


def libraries(argv):
    """The shared objects the loader mapped for argv's own process (its
    pid's lines: not the command it counts, nor for a pipe the shell's); a
    statically linked program has no loader and maps none, unless it execs
    a dynamically linked one in its place (hpmstat's static front, for
    serve and report)."""
    env = dict(os.environ, LD_DEBUG="files")
    p = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, errors="replace")
    err = p.communicate()[1]
    names = set()
    for line in err.splitlines():
        m = re.search(r"^\s*(\d+):\s+file=(\S+) \[0\];\s+(needed|dynamically loaded) by", line)
        if m and int(m.group(1)) == p.pid:
            names.add(os.path.basename(m.group(2)))
    return len(names)


def median_ci(xs):
    """The median of xs and its 95 % confidence interval from the order
    statistics (the count of values below the median is binomial): the
    values of ranks floor(n/2 - 0.98 sqrt(n)) and ceil(1 + n/2 + 0.98
    sqrt(n)), counted from 1 (40 and 61 of 100); with few values, the
    whole range."""
    s = sorted(xs)
    n = len(s)
    half = 1.96 * math.sqrt(n) / 2
    lo = max(0, int(math.floor(n / 2 - half)) - 1)
    hi = min(n - 1, int(math.ceil(1 + n / 2 + half)) - 1)
    return statistics.median(s), s[lo], s[hi]


def fmt_ms(xs):
    return "%.2f (%.2f-%.2f)" % (1e3 * statistics.median(xs), 1e3 * min(xs), 1e3 * max(xs))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    hpm, runtime = sys.argv[1], sys.argv[2]
    perf = sys.argv[3] if len(sys.argv) > 3 else "perf"
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 30
    floor = sys.argv[5] if len(sys.argv) > 5 else None
    # (what, hpmstat's command, perf's command, the program for the library
    # count of each)
    cases = [
        ("stat -e task-clock -- true", [hpm, "stat", "-e", "task-clock", "--", "true"],
         [perf, "stat", "-e", "task-clock", "--", "true"], None, None),
        ("stat --topdown --backend emu --emu-cycles 1e6 (perf: stat -e task-clock -- true)",
         [hpm, "stat", "--topdown", "--backend", "emu", "--emu-cycles", "1e6"],
         [perf, "stat", "-e", "task-clock", "--", "true"], None, None),
        ("--version (perf: version)", [hpm, "--version"], [perf, "version"], None, None),
        ("encode rob_commitInstr (perf: list --raw-dump)", [hpm, "encode", "rob_commitInstr"],
         [perf, "list", "--raw-dump"], None, None),
        ("list \\| head", ["sh", "-c", '"$0" list | head', hpm],
         ["sh", "-c", '"$0" list | head', perf], [hpm, "list"], [perf, "list"]),
    ]
    if floor:
        cases.insert(1, ("floor: %s true (perf: stat -e task-clock -- true)" %
                         os.path.basename(floor), [floor, "true"],
                         [perf, "stat", "-e", "task-clock", "--", "true"], None, None))
    print("hpmstat: %s; perf: %s; %d paired runs each (hpmstat, perf alternating)" %
          (hpm, perf, runs))
    print()
    print("| command | hpmstat wall ms, median (min-max) | perf wall ms "
          "| ratio (paired median, 95 % CI) "
          "| libraries hpmstat / perf | page faults hpmstat / perf | peak RSS KiB hpmstat / perf |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for what, a, b, liba, libb in cases:
        for _ in range(3):
            run_once(runtime, a)
            run_once(runtime, b)
        ra, rb = [], []
        for i in range(runs):
            if i % 2:
                rb.append(run_once(runtime, b))
                ra.append(run_once(runtime, a))
            else:
                ra.append(run_once(runtime, a))
                rb.append(run_once(runtime, b))
        ratio, lo, hi = median_ci([x[0] / y[0] for x, y in zip(ra, rb)])
        print("| %s | %s | %s | %.3fx (%.3f-%.3f) | %d / %d | %d / %d | %d / %d |" %
              (what, fmt_ms([x[0] for x in ra]), fmt_ms([x[0] for x in rb]), ratio, lo, hi,
               libraries(liba or a), libraries(libb or b),
               statistics.median(x[1] for x in ra), statistics.median(x[1] for x in rb),
               statistics.median(x[2] for x in ra), statistics.median(x[2] for x in rb)))


if __name__ == "__main__":
    main()
