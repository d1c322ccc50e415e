#!/bin/sh
# hpmstat stat's event selection against perf stat on the same programs (no
# mock: the real perf_event_open, real sysfs, a real cgroup): blanks in -e,
# group modifiers and weak groups, PMU/TERMS/ of the host's PMUs,
# --all-user/--all-kernel, -G cgroups and -d.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
T="$top_builddir/tests/stat/touch-pages"
dir=$(mktemp -d)
cg=
trap 'rm -rf "$dir" "$tap_out" "$tap_err"; [ -n "$cg" ] && rmdir "$cg" 2>/dev/null' EXIT
have_perf=false
command -v perf >/dev/null 2>&1 && perf stat -x, -e page-faults true >/dev/null 2>&1 && have_perf=true
# csv FILE EVENT: the count field of EVENT's CSV row
csv() { awk -F, -v e="$2" '$3==e{print $1; exit}' "$1"; }
# near A B PCT: A and B differ by at most PCT% of B
near() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN{d=a-b; if(d<0)d=-d; exit !(a!="" && b>0 && d<=p*b/100)}'; }

# Blanks around names and commas are perf's lexer's, not the names'
$H stat -x, -e " task-clock , page-faults" -- true 2>"$tap_out" >/dev/null; ok $? "-e ' task-clock , page-faults' is accepted"
[ "$(cut -d, -f3 "$tap_out" | tr '\n' '|')" = "task-clock|page-faults|" ]; ok $? "and the names have no blanks ($(cut -d, -f3 "$tap_out" | tr '\n' '|'))"
$H stat -x, -e " ifu_req , ifu_miss" --backend emu --emu-cycles 1e5 2>"$tap_out" >/dev/null
[ "$(grep -v '^#' "$tap_out" | cut -d, -f3 | tr '\n' '|')" = "ifu_req|ifu_miss|" ]; ok $? "Kunminghu names lose the blanks too"
a=$($H stat -x, -e "ifu_req & ifu_miss" --backend emu --emu-cycles 1e5 2>&1 | grep -v '^#')
b=$($H stat -x, -e "ifu_req&ifu_miss" --backend emu --emu-cycles 1e5 2>&1 | grep -v '^#' | sed 's/ifu_req&ifu_miss/ifu_req \& ifu_miss/')
[ -n "$a" ] && [ "$a" = "$b" ]; ok $? "blanks inside a Kunminghu expression still mean nothing ($a)"
if $have_perf; then
	$H stat -x, -e "page-faults : u , page-faults: k" -- "$T" 2000 2>"$dir/h" >/dev/null
	perf stat -x, -e "page-faults:u,page-faults:k" -- "$T" 2000 2>"$dir/p" >/dev/null
	hu=$(csv "$dir/h" page-faults:u); pu=$(csv "$dir/p" page-faults:u)
	near "$hu" "$pu" 3 && [ "$pu" -ge 2000 ]; ok $? "'page-faults : u' counts what perf's page-faults:u does ($hu, perf $pu)"
	hk=$(csv "$dir/h" page-faults:k); [ -n "$hk" ] && [ "$hk" -lt 200 ]; ok $? "and ' page-faults: k' is the kernel's few ($hk)"
else
	skip "perf cannot count page-faults here"; skip "perf cannot count page-faults here"
fi

# Group modifiers: letters go to every member, as perf's; W and S are accepted
if $have_perf; then
	$H stat -x, -e "{page-faults,task-clock}:u" -- "$T" 2000 2>"$dir/h" >/dev/null
	perf stat -x, -e "{page-faults,task-clock}:u" -- "$T" 2000 2>"$dir/p" >/dev/null
	h=$(csv "$dir/h" page-faults); p=$(csv "$dir/p" page-faults)
	near "$h" "$p" 3; ok $? "{page-faults,task-clock}:u: page-faults as perf's ($h, perf $p)"
	$H stat -x, -e "{page-faults,task-clock}:k" -- "$T" 2000 2>"$dir/h" >/dev/null
	h=$(csv "$dir/h" page-faults); [ -n "$h" ] && [ "$h" -lt 200 ]; ok $? "{...}:k counts the kernel's faults only ($h)"
else
	skip "no perf"; skip "no perf"
fi
run_ok "{...}:S (sample read) is accepted for counting" $H stat -x, -e "{task-clock,page-faults}:S" -- true
run_ok "W and S on one event are accepted, as perf's (task-clock:W, page-faults:uS)" $H stat -x, -e task-clock:W,page-faults:uS -- true
run_fails_with "a group modifier perf's counting has no use for is refused" "group modifier 'D'" $H stat -e "{task-clock}:D" -- true

# PMU/TERMS/ of this host's PMUs, compared with perf
if [ -d /sys/bus/event_source/devices/msr ] && $have_perf && perf stat -x, -e msr/tsc/ true >/dev/null 2>&1; then
	$H stat -x, -e msr/tsc/,msr/event=0/,msr/tsc,name=tsc2/ -- true 2>"$dir/h" >/dev/null; ok $? "msr/tsc/, msr/event=0/, name= count"
	[ "$(cut -d, -f3 "$dir/h" | tr '\n' '|')" = "msr/tsc/|msr/event=0/|tsc2|" ]; ok $? "names as perf's ($(cut -d, -f3 "$dir/h" | tr '\n' '|'))"
	awk -F, '$1 !~ /^[0-9]+$/ || $1 == 0 {bad=1} END{exit bad}' "$dir/h"; ok $? "every msr row has a count"
	perf stat -x, -e msr/event=1/ true 2>"$dir/p" >/dev/null
	$H stat -x, -e msr/event=1/ -- true 2>"$dir/h" >/dev/null; hs=$?
	[ $hs -eq 0 ] && [ "$(cut -d, -f1 "$dir/h")" = "$(cut -d, -f1 "$dir/p")" ]; ok $? "msr/event=1/: '$(cut -d, -f1 "$dir/h")' as perf's '$(cut -d, -f1 "$dir/p")'"
	run_fails_with "an unknown term names the PMU's terms" "unknown term 'foo' for PMU 'msr' (terms: event, config" $H stat -e msr/foo=1/ -- true
else
	for i in 1 2 3 4 5; do skip "no msr PMU or perf here"; done
fi
# A PMU this host does not have: perf's "Cannot find PMU" and a non-zero
# exit at once, with or without a command and beside events that count (it
# was a warning and a <not supported> row: exit 0 after the command, or
# nothing counted until Ctrl-C without one)
for spec in nosuchpmu/event=0x11/ armv8_pmuv3_0/cpu_cycles/ power/energy-pkg/; do
	pmu=${spec%%/*}
	if [ -d "/sys/bus/event_source/devices/$pmu" ]; then
		for i in 1 2 3 4; do skip "this host has a $pmu PMU"; done
		continue
	fi
	want="Cannot find PMU \`$pmu'. Missing kernel support?"
	# perf's status for a bad -e: its option parser's usage error
	prc=129
	if $have_perf; then
		perf stat -e "$spec" -- true >/dev/null 2>"$dir/p"; prc=$?
		[ $prc -ne 0 ] && grep -qF "$want" "$dir/p"; ok $? "perf refuses $spec: \"$want\" (exit $prc)"
	else
		skip "no perf"
	fi
	run_fails_with "$spec with a command: refused in perf's words" "'$spec': $want" timeout 20 $H stat -x, -e "task-clock,$spec" -- true
	[ $rc -eq $prc ]; ok $? "... exit $prc, perf's status for it (exit $rc)"
	run_fails_with "$spec without a command: refused at once" "$want" timeout 20 $H stat -e "$spec"
done

# Weak groups: {a,b,c}:W splits when the kernel refuses the group (perf 6.1:
# msr/event=1/ in a group fails with EINVAL; perf then opens each alone)
if [ -d /sys/bus/event_source/devices/msr ] && $have_perf; then
	e="{msr/tsc/,msr/event=1/,task-clock}:W"
	perf stat -x, -e "$e" -- true 2>"$dir/p" >/dev/null
	$H stat -x, -e "$e" -- true 2>"$dir/h" >/dev/null; ok $? "$e runs"
	shape() { awk -F, '{print $3 ($1 ~ /^[0-9.]+$/ ? ":counted" : ":" $1)}' "$1" | tr '\n' '|'; }
	[ "$(shape "$dir/h")" = "$(shape "$dir/p")" ]; ok $? "rows as perf's: $(shape "$dir/h")"
	$H stat -v -e "$e" -- true 2>"$tap_out" >/dev/null
	grep -c "alone: its weak group could not be opened as one" "$tap_out" | grep -qx 2; ok $? "-v says the group was split"
else
	skip "no msr"; skip "no msr"; skip "no msr"
fi

# --all-user / --all-kernel: perf's exclude_kernel/exclude_user on every event
if $have_perf; then
	$H stat -x, --all-user -e page-faults,page-faults:k -- "$T" 2000 2>"$dir/h" >/dev/null
	perf stat -x, --all-user -e page-faults,page-faults:k -- "$T" 2000 2>"$dir/p" >/dev/null
	h=$(csv "$dir/h" page-faults); p=$(csv "$dir/p" page-faults)
	h2=$(csv "$dir/h" page-faults:k); p2=$(csv "$dir/p" page-faults:k)
	near "$h" "$p" 3 && near "$h2" "$p2" 3; ok $? "--all-user: page-faults $h (perf $p), page-faults:k turned user too $h2 (perf $p2)"
	$H stat -x, --all-kernel -e page-faults -- "$T" 2000 2>"$dir/h" >/dev/null
	h=$(csv "$dir/h" page-faults); [ -n "$h" ] && [ "$h" -lt 200 ]; ok $? "--all-kernel: the kernel's few ($h)"
else
	skip "no perf"; skip "no perf"
fi
u=$($H stat --dry-run --backend emu --all-user -e 'ifu_req & ifu_miss' 2>&1 | grep -o 'mhpmevent3 0x[0-9a-f]*')
v=$($H stat --dry-run --backend emu -e 'ifu_req & ifu_miss:u' 2>&1 | grep -o 'mhpmevent3 0x[0-9a-f]*')
[ -n "$u" ] && [ "$u" = "$v" ]; ok $? "--all-user on a Kunminghu expression writes the INH bits of :u ($u)"
u=$($H stat --dry-run --backend emu --all-kernel -e 'ifu_req:uG' 2>&1 | grep -o 'mhpmevent3 0x[0-9a-f]*')
v=$($H stat --dry-run --backend emu -e 'ifu_req:kG' 2>&1 | grep -o 'mhpmevent3 0x[0-9a-f]*')
[ -n "$u" ] && [ "$u" = "$v" ]; ok $? "--all-kernel keeps the guest state: ifu_req:uG counts as :kG ($u)"

# the same on a Kunminghu host (a fake sysfs/procfs tree): perf attrs
k="$dir/kmh"
mkdir -p "$k/sys/bus/event_source/devices/cpu/format" "$k/proc"
echo 4 > "$k/sys/bus/event_source/devices/cpu/type"
echo config:0-55 > "$k/sys/bus/event_source/devices/cpu/format/event"
echo config2:0-31 > "$k/sys/bus/event_source/devices/cpu/format/counterid_mask"
printf 'processor\t: 0\nmvendorid\t: 0x0\nmarchid\t: 0x19\nmimpid\t: 0x0\n' > "$k/proc/cpuinfo"
kmh() { HPMSTAT_SYSFS="$k/sys" HPMSTAT_PROCFS="$k/proc" $H "$@"; }
u=$(kmh stat --dry-run --all-user -e 'ifu_req,mcycle' -- true 2>&1 | sed 's/^[^ ]* //')
v=$(kmh stat --dry-run -e 'ifu_req:u,mcycle:u' -- true 2>&1 | sed 's/^[^ ]* //')
[ -n "$u" ] && [ "$u" = "$v" ]; ok $? "Kunminghu host: --all-user gives the attrs of :u ($(echo "$u" | head -1))"
got=$(kmh stat --dry-run -ddd -- true 2>&1 | cut -d: -f1 | tail -n 14)
want=$(sed -n '/^\.\\" detailed-kunminghu-begin/,/^\.\\" detailed-kunminghu-end/p' "$top_srcdir/man/hpmstat-stat.1" | grep '^\.B ' | sed 's/^\.B //; s/\\//g; s/^"//; s/"$//')
[ -n "$want" ] && [ "$got" = "$want" ]; ok $? "Kunminghu host: -ddd adds the Kunminghu set after perf's default"
# a Linux 6.1 riscv kernel, as QEMU runs it: config:0-47, no room for the
# OP_TYPE2 field the L1D and L2-slice encodings need; -d still runs, and
# those rows say why they cannot count, as perf's <not supported>
k47="$dir/kmh47"
cp -r "$k" "$k47"
echo config:0-47 > "$k47/sys/bus/event_source/devices/cpu/format/event"
rm -f "$k47/sys/bus/event_source/devices/cpu/format/counterid_mask"
HPMSTAT_SYSFS="$k47/sys" HPMSTAT_PROCFS="$k47/proc" $H stat --dry-run -d -- true >"$dir/d47.out" 2>"$dir/d47.err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^[^:]*: not supported: .*config:0-47' "$dir/d47.out")" -eq 4 ] &&
	grep -q '^l1D_read_dcache_access: not supported' "$dir/d47.out" &&
	grep -q '^BpWrong: perf_event_attr type=4' "$dir/d47.out"
ok $? "6.1 kernel (config:0-47): -d runs; the 4 events it cannot take say so, BpWrong is opened (exit $rc)"
[ $rc -eq 0 ] || diag "$(head -3 "$dir/d47.err")"

# -G: a real cgroup (cgroup2 or a perf_event v1 mount), a command that moves
# itself into it and makes a known number of page faults
mnt=$(awk '$3=="cgroup" && $4 ~ /(^|,)perf_event(,|$)/ {print $2; exit}' /proc/self/mounts)
[ -n "$mnt" ] || mnt=$(awk '$3=="cgroup2"{print $2; exit}' /proc/self/mounts)
name="hpmstat-evspec-$$"
if [ -n "$mnt" ] && [ "$(id -u)" -eq 0 ] && mkdir "$mnt/$name" 2>/dev/null; then
	cg="$mnt/$name"
	move="echo \$\$ > $cg/cgroup.procs && exec $T 3000"
	$H stat -a -x, -e page-faults,page-faults -G "$name," -- sh -c "$move" 2>"$dir/h" >/dev/null; ok $? "-a -G NAME, counts"
	in=$(sed -n 1p "$dir/h" | cut -d, -f1); all=$(sed -n 2p "$dir/h" | cut -d, -f1)
	# the program's own faults, counted alone (a sanitizer build of it
	# makes twice as many as its 3000 pages), plus the shell's exec
	alone=$(perf stat -x, -e page-faults -- "$T" 3000 2>&1 >/dev/null | cut -d, -f1)
	case $alone in '' | *[!0-9]*) alone=3000 ;; esac
	[ -n "$in" ] && [ "$in" -ge 3000 ] && [ "$in" -lt $((alone + 1000)) ] && [ "$all" -ge "$in" ]
	ok $? "the cgroup's row has the command's faults ($in; alone $alone), the system-wide one more ($all)"
	if $have_perf; then
		perf stat -a -x, -e page-faults -G "$name" -- sh -c "$move" 2>"$dir/p" >/dev/null
		p=$(cut -d, -f1 "$dir/p" | head -1); near "$in" "$p" 5; ok $? "perf -G counts the same ($in, perf $p)"
	else
		skip "no perf"
	fi
	run_fails_with "a missing cgroup is one line naming it" "no access to cgroup $mnt/no-such-$name" $H stat -a -e page-faults -G "no-such-$name" -- true
else
	for i in 1 2 3 4; do skip "no writable cgroup mount (root and cgroup2 or perf_event v1 needed)"; done
fi
run_fails_with "-G without -a is refused as in perf" "-G needs system-wide counting" $H stat -e page-faults -G foo -- true
run_fails_with "more cgroups than events" "more cgroups than events" $H stat -a -e page-faults -G a,b -- true

# -d, -dd, -ddd: perf's event sets on this host, row for row
if $have_perf; then
	for d in -d -dd -ddd; do
		perf stat -x, $d -- true 2>"$dir/p" >/dev/null
		$H stat -x, $d -- true 2>"$dir/h" >/dev/null
		[ "$(cut -d, -f3 "$dir/h")" = "$(cut -d, -f3 "$dir/p")" ]; ok $? "$d: perf's rows ($(cut -d, -f3 "$dir/h" | tail -n +9 | tr '\n' ' '))"
	done
	perf stat -x, -d -e page-faults -- true 2>"$dir/p" >/dev/null
	$H stat -x, -d -e page-faults -- true 2>"$dir/h" >/dev/null
	[ "$(cut -d, -f3 "$dir/h")" = "$(cut -d, -f3 "$dir/p")" ]; ok $? "-d with -e appends to the events, as perf"
else
	for i in 1 2 3 4; do skip "no perf"; done
fi
# on Kunminghu (here the emulator): the set hpmstat-stat(1) documents
$H stat -x, -ddd --backend emu --emu-cycles 1e6 2>"$tap_out" >/dev/null; ok $? "-ddd on the emulator runs"
want=$(sed -n '/^\.\\" detailed-kunminghu-begin/,/^\.\\" detailed-kunminghu-end/p' "$top_srcdir/man/hpmstat-stat.1" | grep '^\.B ' | sed 's/^\.B //; s/\\//g; s/^"//; s/"$//')
got=$(grep -v '^#' "$tap_out" | cut -d, -f3 | grep -v '^$' | grep -vx 'mcycle\|minstret')
[ -n "$want" ] && [ "$got" = "$want" ]; ok $? "-ddd adds the man page's Kunminghu set, in order"
awk -F, '!/^#/ && $3 != "" {n++; if ($1 !~ /^[0-9]+$/) bad=1} END{exit bad || n < 16}' "$tap_out"; ok $? "every one of them counts (mcycle, minstret and 14 rows)"

done_testing
