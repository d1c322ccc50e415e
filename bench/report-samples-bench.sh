#!/bin/sh
# report-samples-bench.sh HPMSTAT [SAMPLES]: hpmstat report and perf report
# --stdio on the same perf.data of SAMPLES samples (default 1e6), in the
# same run; prints both times. The file: a test program with a 90/10 split
# recorded by perf (-e cpu-clock), its samples then repeated, each copy's
# times moved past the last, until SAMPLES (bench/perfdata-repeat.py), so
# both tools symbolize the same maps 1e6 times. Target: hpmstat under 2 s
# and no slower than perf.
set -e
hpmstat=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
n=${2:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
command -v perf >/dev/null || { echo "report-samples-bench: needs perf" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cat >split.c <<'C'
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void hot(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * i; }
__attribute__((noinline)) void cold(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * i; }
int main(int argc, char **argv) { unsigned long n = strtoul(argv[1], 0, 10); hot(9 * n); cold(n); return 0; }
C
gcc -O1 -o split split.c
perf record -q -e cpu-clock -F 10000 -o small.data ./split 100000000 >/dev/null 2>&1
python3 "$here/perfdata-repeat.py" small.data big.data "$n"
t() { s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$s $e" | awk '{printf "%.2f", $2 - $1}'; }
th=$(t "$hpmstat" report -i big.data)
tp=$(t perf report -i big.data --stdio --no-children)
"$hpmstat" report -i big.data 2>/dev/null | sed -n '/^# Samples/p;/^ .*%/p' | head -3
echo "samples: $n"
echo "hpmstat report -i:                    $th s"
echo "perf report --stdio --no-children:    $tp s"
awk -v h="$th" -v p="$tp" 'BEGIN { printf "hpmstat/perf: %.2f (target: <= 1, and hpmstat < 2 s)\n", h / p }'
