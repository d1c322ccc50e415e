#!/bin/sh
# run-libfuzzer.sh BINARY OUTDIR SECONDS SEEDDIR...: one libFuzzer run of a
# fuzz target (make fuzz). The corpus grows in OUTDIR/corpus (seeded from
# the SEEDDIRs on the first run, kept across runs), crash inputs go to
# OUTDIR/ (crash-*, leak-*, timeout-*, oom-*), the full log to OUTDIR/log.
# Prints one line: the target, execs, execs/s, coverage (libFuzzer's final
# cov: edges and ft: features) and crashes; exits 1 when one was found.
bin=$1 out=$2 seconds=$3
shift 3
name=${bin##*libfuzzer-}
mkdir -p "$out/corpus" || exit 1
rm -f "$out"/crash-* "$out"/leak-* "$out"/timeout-* "$out"/oom-*
for d in "$@"; do
	for f in "$d"/*; do
		test -f "$f" && cp "$f" "$out/corpus/"
	done
done
# -timeout: any input slower than 10 s is a bug (the targets bound their work)
"$bin" -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -artifact_prefix="$out/" "$out/corpus" >"$out/log" 2>&1
rc=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/log" | tail -n 1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out/log" | tail -n 1)
cov=$(sed -n 's/.* cov: \([0-9]*\) .*/\1/p' "$out/log" | tail -n 1)
ft=$(sed -n 's/.* ft: \([0-9]*\) .*/\1/p' "$out/log" | tail -n 1)
crashes=$(ls "$out" | grep -c -E '^(crash|leak|timeout|oom)-')
printf '%-8s execs %s  execs/s %s  cov %s  ft %s  crashes %s\n' "$name" "${execs:-?}" \
	"${rate:-?}" "${cov:-?}" "${ft:-?}" "$crashes"
if [ "$crashes" -gt 0 ] || [ "$rc" -ne 0 ]; then
	echo "  $name: libFuzzer exited $rc; see $out/log and $(ls "$out" | grep -E '^(crash|leak|timeout|oom)-' | sed "s|^|$out/|" | tr '\n' ' ')" >&2
	exit 1
fi
