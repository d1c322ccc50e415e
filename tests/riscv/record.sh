#!/bin/bash
# hpmstat record on the real riscv64 kernel: Sscofpmf's overflow interrupt
# (QEMU -cpu ...,sscofpmf=true, OpenSBI's PMU) drives perf's sampling, and
# the group {cycles,instructions}:S carries both counts in every sample.
#
# One hart under -icount shift=0, where QEMU's cycle and instret counters
# are both the instruction count (count-exact.sh). Independent truth:
#  - busy_loop's address range and instructions per iteration from objdump
#    of the guest's (static, non-PIE) busy binary: the samples' IPs fall
#    in it, and the periods add up to at least N x that;
#  - Debian's perf script reading hpmstat's riscv64 file on this host;
#  - under icount the instructions read in each sample rise by what the
#    cycles leader's period says, to 1%.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/riscv/vm-lib.sh"
vm_require
. "$top_srcdir/tests/riscv/count-lib.sh"

N=2000000
P=100000
vm_run r --icount --raw-dtb <<CMDS
busy 1000
hpmstat record -e {cycles,instructions}:S -c $P -o /tmp/g.data -- busy $N
@export /tmp/g.data
hpmstat report -i /tmp/g.data -s dso,sym
hpmstat record -e instructions -c 50000 -o /tmp/i.data -- busy $N
@export /tmp/i.data
hpmstat record -e cycles -c 0 -o /tmp/z.data -- busy 10
CMDS
ok $? "boot (one hart, -icount shift=0, sscofpmf): every command ran (${VM_SECONDS}s)"
d=$VM_OUT/r

n=$(sed -n 's/.*Captured and wrote .* (\([0-9]*\) samples).*/\1/p' "$d/2.err")
[ "$(cat "$d/2.rc")" = 0 ] && num "$n" && [ -s "$d/files/g.data" ]
ok $? "record -e '{cycles,instructions}:S' -c $P in the guest: exit 0, a file, $n samples"
[ $? = 0 ] || diag "$(cat "$d/2.err")"

# busy_loop's range and its instructions per iteration (count-exact.sh's reading)
read -r lo hi per < <(riscv64-linux-gnu-objdump -d "$VM_BUSY" | awk -F'\t' '
	/<busy_loop>:$/ { on = 1; next }
	on && NF < 3 { printf "%s %s %d\n", first, last, per; exit }
	on { a = $1; gsub(/[ :]/, "", a); if (first == "") first = a; last = a; addr[n++] = a
		if ($3 ~ /^b/ && $4 ~ /<busy_loop/) { t = $4; sub(/ <.*/, "", t); sub(/.*,/, "", t)
			for (k = 0; k < n; k++) if (addr[k] == t) per = n - k } }')
num "$per" && [ -n "$lo" ]
ok $? "objdump: busy_loop is 0x$lo..0x$hi, $per instructions an iteration"

if command -v perf >/dev/null 2>&1; then
	perf script -i "$d/files/g.data" -F event,ip,period >"$d/g.script" 2>"$d/g.script.err"
	ok $? "Debian's perf script reads hpmstat's riscv64 file"
	# lines "PERIOD EVENT: IP": with sample_read, one per member a sample
	lead=$(awk '$2 == "cycles:" { n++ } END { print n + 0 }' "$d/g.script")
	[ "$lead" -gt 0 ] && [ $((lead * 2)) -eq "$n" ]
	ok $? "perf script shows every sample: $lead of the cycles leader and as many reads of instructions ($n in all)"
	[ $? = 0 ] || diag "$(head -5 "$d/g.script")" "$(head -3 "$d/g.script.err")"
	in_loop=$(python3 -c '
import sys
lo, hi, k, t = int(sys.argv[1], 16), int(sys.argv[2], 16), 0, 0
for l in open(sys.argv[3]):
    w = l.split()
    if len(w) > 2 and w[1] == "cycles:":
        t += 1; k += lo <= int(w[2], 16) <= hi
print(k, t)' "$lo" "$hi" "$d/g.script")
	set -- $in_loop
	[ "$2" -gt 0 ] && [ $(($1 * 10)) -ge $(($2 * 9)) ]
	ok $? "at least 90% of the cycles samples' IPs lie in busy_loop: $1 of $2"
else
	for k in 1 2 3; do skip "no perf on the host"; done
fi

# the group's reads as perf's own dump shows them (perf script -D: each
# sample's "id ..., value ..." lines, cycles then instructions). Under
# icount both counters are the instruction count, but the 6.1 driver's
# overflow handler stops the overflowed leader through SBI while the
# member goes on counting the handler's own instructions (QEMU counts
# M- and S-mode alike: measured 2.7k an overflow), so in the last sample
# instructions is cycles plus at most 10k a sample; cycles is at least
# busy's N x per instructions (the kernel's exec and exit on top). hpmstat's
# reader on the host gives each member's total (its read deltas added up)
# as that last value.
perf script -D -i "$d/files/g.data" 2>/dev/null | python3 -c '
import sys
v = []
for l in sys.stdin:
    if "PERF_RECORD_SAMPLE" in l: v = []
    elif l.startswith("..... id "): v.append(int(l.split()[-1], 16))
print(*v[:2])' >"$d/g.last"
read -r lc li <"$d/g.last"
"$HPMSTAT" report -i "$d/files/g.data" --format json >"$d/g.json" 2>"$tap_err"
python3 - "$d/g.json" "$((N * per))" "$n" "$lc" "$li" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); want, n, lc, li = (int(x) for x in sys.argv[2:6])
ev = {e["event"]: e for e in d["events"]}
c, i = ev["cycles"]["period"], ev["instructions"]["period"]
print("perf -D last read: cycles %d instructions %d; hpmstat: %d %d; want >= %d" % (lc, li, c, i, want))
ok = (want <= lc <= 1.3 * want and lc <= li <= lc + 10000 * n // 2 and c == lc and i == li
      and ev["cycles"]["samples"] * 2 == n)
sys.exit(0 if ok else 1)
PY
ok $? "the reads: cycles >= N x $per, instructions = cycles + the handlers' (icount); hpmstat's member totals = perf's last read values"

# the report inside the guest (a static build without libelf: the DSO
# and its offset, which for the non-PIE busy is the address objdump shows)
top=$(awk '/%/ && !/^#/ { print; exit }' "$d/4.out")
[ "$(cat "$d/4.rc")" = 0 ] && echo "$top" | grep -q 'busy'
ok $? "hpmstat report in the guest: the top entry is busy's ($top)"
[ $? = 0 ] || diag "$(head -20 "$d/4.out")" "$(cat "$d/4.err")"

n2=$(sed -n 's/.*Captured and wrote .* (\([0-9]*\) samples).*/\1/p' "$d/5.err")
[ "$(cat "$d/5.rc")" = 0 ] && num "$n2" && [ "$n2" -ge $((N * per / 50000)) ] &&
	[ "$n2" -le $((N * per * 13 / 10 / 50000)) ]
ok $? "record -e instructions -c 50000: $n2 samples for busy's >= $((N * per)) instructions"

[ "$(cat "$d/7.rc")" != 0 ] && [ "$(wc -l <"$d/7.err")" -eq 1 ]
ok $? "record -c 0 in the guest: one line, non-zero exit ($(cat "$d/7.err"))"
done_testing
