#!/bin/sh
# startup-io.sh: what `stat` reads before it counts, as the kernel sees it
# (strace): nothing of the host's PMU for perf's software and tool events,
# else /proc/cpuinfo once (each read makes the kernel walk every CPU;
# backend/host-pmu.c takes the cpuid and the isa line's Sscofpmf in one pass),
# on this host and on a Kunminghu host's fake procfs tree whose isa line
# comes before its ids, and the Kunminghu attrs there still say Sscofpmf.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
scratch_dir
command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null ||
	skip_all "strace cannot trace here"

# LeakSanitizer refuses to run under ptrace and exits 1 at the end (CI's
# ASan pass): strace'd runs leave the leak check to the other tests
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS

# opens: how many times the trace in $1 opened a file named $2
opens() { grep -c "open[a-z0-9]*(.*\"[^\"]*$2\"" "$1"; }

# perf's software and tool events count the same on any host: no PMU
# detection at all (perf's generic events need no PMU either)
strace -f -e trace=open,openat -o "$dir/sw.st" "$H" stat -e task-clock -o /dev/null -- true
n=$(opens "$dir/sw.st" /cpuinfo) m=$(opens "$dir/sw.st" /bus/event_source/devices)
[ "$n" = 0 ] && [ "$m" = 0 ]
ok $? "stat -e task-clock -- true opens neither /proc/cpuinfo nor the sysfs PMUs ($n, $m)"
strace -f -e trace=open,openat -o "$dir/tool.st" "$H" stat -e '{cs,faults}:u,duration_time' \
	-x, -o /dev/null -- true
n=$(opens "$dir/tool.st" /cpuinfo) m=$(opens "$dir/tool.st" /bus/event_source/devices)
[ "$n" = 0 ] && [ "$m" = 0 ]
ok $? "... nor does a group of software events and a tool event ($n, $m)"

# the command's process, before its exec, puts back at their default the
# handlers stat installed without a rt_sigaction for each of the 64
# signals (util/child.c reads the handled ones from the SigCgt line of
# /proc/self/status first): the calls of the process that execs true
strace -f -e trace=rt_sigaction,execve -o "$dir/sig.st" "$H" stat -e task-clock -o /dev/null -- true
child=$(sed -n 's/^\([0-9]*\) *execve("[^"]*\/true".* = 0$/\1/p' "$dir/sig.st")
n=$(grep -c "^$child  *rt_sigaction(" "$dir/sig.st")
[ -n "$child" ] && [ "$n" -ge 2 ] && [ "$n" -le 16 ]
ok $? "the command's start resets the handlers in $n rt_sigaction calls, not one per signal"
grep -q "^$child  *rt_sigaction(SIGINT, {sa_handler=SIG_DFL" "$dir/sig.st"
ok $? "... and SIGINT, which stat catches, is back at its default in it"

# a hardware event asks the host what it is: one read of /proc/cpuinfo
strace -f -e trace=open,openat -o "$dir/host.st" "$H" stat --dry-run -e task-clock,cycles \
	-o /dev/null -- true
n=$(opens "$dir/host.st" /cpuinfo)
[ "$n" = 1 ]; ok $? "stat -e task-clock,cycles opens /proc/cpuinfo once ($n)"

# the report reaches standard error in one write (util/outfile.c leaves
# that stream unbuffered, stat/print.c composes the report first): not a
# write a line, and all of perf's lines in it; with -I, one an interval
strace -f -e trace=write -o "$dir/out.st" "$H" stat -e task-clock -- true 2>"$dir/out.txt"
n=$(grep -c '^[0-9]*  *write(2,' "$dir/out.st")
[ "$n" = 1 ] && grep -q 'Performance counter stats for' "$dir/out.txt" &&
	grep -q 'seconds time elapsed' "$dir/out.txt" && grep -q 'seconds sys' "$dir/out.txt"
ok $? "stat's report on standard error is one write ($n)"
strace -f -e trace=write -o "$dir/iv.st" "$H" stat -e task-clock -I 100 -- sleep 0.35 2>"$dir/iv.txt"
n=$(grep -c '^[0-9]*  *write(2,' "$dir/iv.st") r=$(grep -c 'task-clock' "$dir/iv.txt")
[ "$r" -ge 3 ] && [ "$n" = "$r" ]
ok $? "... and with -I 100 one write an interval ($n writes, $r rows)"

k="$dir/kmh"
mkdir -p "$k/sys/bus/event_source/devices/cpu/format" "$k/proc"
echo 4 >"$k/sys/bus/event_source/devices/cpu/type"
echo config:0-55 >"$k/sys/bus/event_source/devices/cpu/format/event"
printf 'processor\t: 0\nhart\t\t: 0\nisa\t\t: rv64imafdch_sscofpmf_sstc\nmmu\t\t: sv39\nmvendorid\t: 0x0\nmarchid\t\t: 0x19\nmimpid\t\t: 0x0\n\n' >"$k/proc/cpuinfo"
HPMSTAT_SYSFS="$k/sys" HPMSTAT_PROCFS="$k/proc" strace -f -e trace=open,openat -o "$dir/kmh.st" \
	"$H" stat --dry-run -e 'ifu_req:u' -- true >"$dir/kmh.out" 2>&1
rc=$?
n=$(opens "$dir/kmh.st" /cpuinfo)
[ $rc = 0 ] && [ "$n" = 1 ]
ok $? "Kunminghu host (fake tree): one open of its cpuinfo ($n, exit $rc)"
# Sscofpmf read from the isa line in that pass: :u is exclude_kernel, which
# the kernel refuses without it (stat then says so instead of an attr)
grep -q 'exclude_kernel' "$dir/kmh.out"
ok $? "... and its isa line's Sscofpmf is seen: ifu_req:u opens with exclude_kernel"
[ $? = 0 ] || diag "$(head -5 "$dir/kmh.out")"
done_testing
