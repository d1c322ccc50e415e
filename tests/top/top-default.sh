#!/bin/sh
# top-default.sh: what top opens on. With the auto back end it shows this
# host (per-CPU rows and the process table on perf), never one emulated
# hart; the emulated harts come only with --backend emu or an --emu-*
# option, and then say that they are a synthetic workload.
. "$top_srcdir/tests/lib.sh"
H=${HPMSTAT:-$top_builddir/src/hpmstat}
J=${JSONCHECK:-$top_builddir/tests/jsoncheck}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$tap_out" "$tap_err"' EXIT
export XDG_CONFIG_HOME="$tmp/cfg" # no top.conf of the user's
ncpu=$(getconf _NPROCESSORS_ONLN)

"$H" top -b -n 1 -d 0.2 >"$tmp/b" 2>"$tmp/e"; rc=$?
[ $rc -eq 0 ]; ok $? "top -b -n 1 exits 0 ($(head -1 "$tmp/e"))"
head -1 "$tmp/b" | grep -q 'back end perf$'; ok $? "the auto back end is perf ($(head -1 "$tmp/b"))"
n=$(grep -c '^CPU[0-9]' "$tmp/b")
[ "$n" -eq "$ncpu" ]; ok $? "one row per online CPU ($n of $ncpu)"
# the table counts this host's processes (they come and go: a wide margin)
# and lists them by PID
total=$(sed -n 's/^Processes: [0-9]* shown of \([0-9]*\).*/\1/p' "$tmp/b")
here=$(ls -d /proc/[0-9]* | wc -l)
pid=$(awk '/^ +PID /{getline; print $1; exit}' "$tmp/b")
[ -n "$total" ] && [ "$total" -ge $((here / 2)) ] && [ "$total" -le $((here * 2)) ] &&
	[ -n "$pid" ] && [ "$pid" -ge 1 ]
ok $? "the host's process table ($total processes, /proc has $here; first PID $pid)"
! grep -Eq '^hart[0-9]|emulated' "$tmp/b"; ok $? "no emulated hart"

"$H" top --json -n 1 -d 0.2 >"$tmp/j" 2>/dev/null
[ "$("$J" .backend <"$tmp/j")" = perf ]; ok $? "--json: the auto back end is perf"

# asked for: an --emu-* option, or --backend emu
for opt in "--emu-harts 2" "--emu-seed 3" "--backend emu"; do
	"$H" top -b -n 1 -d 0.2 $opt >"$tmp/b" 2>/dev/null
	head -2 "$tmp/b" | tr '\n' ' ' >"$tap_out"
	grep -q 'back end emu emulated Kunminghu (kunminghu-v2): .*(synthetic workload, not this host)' "$tap_out"
	ok $? "$opt: emulated harts, labelled as not this host ($(cat "$tap_out"))"
done
"$H" top -b -n 1 -d 0.2 --backend perf --emu-seed 3 >"$tmp/b" 2>/dev/null
head -1 "$tmp/b" | grep -q 'back end perf$'; ok $? "--backend perf wins over an --emu-* option"

done_testing
