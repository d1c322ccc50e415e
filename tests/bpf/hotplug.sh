#!/bin/sh
# CPU hotplug under per-task counting through BPF (src/bpf): a CPU taken
# offline turns its per-CPU counters off and the kernel does not turn them
# on again when the CPU comes back, so BPF would charge the tasks that run
# there nothing from then on. The library notices the change of the CPUs
# online; hpmstat top then falls back to per-task groups with that reason
# in its header, and hpmstat stat -a --per-task stops with a one-line error
# instead of printing per-task counts that look right.
#
# The test takes the last CPU offline for a moment, which disturbs tests
# running beside it (a loop pinned there cannot be placed), so it runs only
# when HPMSTAT_HOTPLUG_TESTS=yes: .ci/run runs it alone after make check.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
dir=$(mktemp -d)
last=$(($(getconf _NPROCESSORS_ONLN) - 1))
ctl=/sys/devices/system/cpu/cpu$last/online
# whatever happens, the CPU comes back
trap 'main_shell || exit; [ -w "$ctl" ] && echo 1 >"$ctl" 2>/dev/null; rm -rf "$dir" "$tap_out" "$tap_err"' EXIT

if [ "${HPMSTAT_HOTPLUG_TESTS:-no}" != yes ]; then
	skip_all "set HPMSTAT_HOTPLUG_TESTS=yes (it takes a CPU offline, which disturbs tests running beside it)"
fi
if ! have HAVE_LIBBPF; then
	skip_all "hpmstat was built without libbpf"
fi
if [ "$(id -u)" != 0 ]; then
	skip_all "not root: BPF and hotplug need root"
fi
if [ "$last" -lt 1 ] || [ ! -w "$ctl" ] || ! echo 1 >"$ctl" 2>/dev/null; then
	skip_all "no CPU that can be taken offline here ($ctl)"
fi

# blip: CPU $last offline for 0.3 s after $1 seconds
blip() {
	sleep "$1"
	echo 0 >"$ctl"
	sleep 0.3
	echo 1 >"$ctl"
}

# 1. top: BPF at first, then the groups with the reason
"$H" top -b -n 8 -d 0.3 -N 5 >"$dir/top" 2>"$dir/top.err" &
tp=$!
blip 0.8
wait $tp
ok $? "top -b exits 0 across the hotplug"
grep -q '^tasks: BPF sched_switch' "$dir/top"; ok $? "top: BPF task rows before the hotplug"
grep -q '^tasks: per-task groups (BPF: the CPUs online changed during the run (hotplug)' "$dir/top"
ok $? "top: per-task groups after it, with the reason in the header"
tail -n 30 "$dir/top" | grep -q '^tasks: per-task groups'; ok $? "top: the last frame counts with the groups"

# 2. stat -a --per-task: one line, non-zero exit, no rows that look right
"$H" stat -a --per-task -e cpu-clock -- sleep 1.5 >"$dir/stat" 2>&1 &
sp=$!
blip 0.5
wait $sp
rc=$?
[ $rc -ne 0 ]; ok $? "stat -a --per-task exits non-zero ($rc)"
grep -q 'hotplug' "$dir/stat"; ok $? "stat: the reason ($(grep -m1 hotplug "$dir/stat"))"
! grep -q 'cpu-clock' "$dir/stat"; ok $? "stat: no per-task counts printed"
[ "$(cat "$ctl")" = 1 ]; ok $? "CPU $last is online again"
done_testing
