#!/bin/sh
# list-pager.sh: hpmstat list pages its output on a terminal as perf does:
# $HPMSTAT_PAGER, else $PAGER, run by sh -c with LESS=FRSX unless LESS is
# set; no pager off a terminal, with --no-pager, or for "cat" and "".
# The terminal is a real one: script(1) runs the command on a new pty.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
if ! command -v script >/dev/null 2>&1; then
	skip_all "script(1) not installed"
fi
d=$(mktemp -d)
trap 'rm -rf "$d" "$tap_out" "$tap_err"' EXIT
# The fake pager records that it ran, its arguments and LESS, and what it was
# given; it takes its time, so a caller that does not wait exits first.
cat > "$d/pager" <<EOF
#!/bin/sh
echo "ran \$*" >> "$d/ran"
echo "LESS=\${LESS-unset}" >> "$d/ran"
cat > "$d/paged"
sleep 0.3
echo done >> "$d/ran"
EOF
chmod +x "$d/pager"
sed "s|$d/ran|$d/ran2|" "$d/pager" > "$d/pager2"
chmod +x "$d/pager2"
reset() { rm -f "$d/ran" "$d/ran2" "$d/paged" "$d/tty"; }
# on_tty CMD: run CMD (a shell string) with a terminal as stdin, stdout and
# stderr; what reached the terminal is in $d/tty
on_tty() {
	script -q -e -c "$1" /dev/null > "$d/tty" 2>&1 < /dev/null
}

reset
$H list --no-pager > "$d/plain"
on_tty "env -u PAGER -u LESS HPMSTAT_PAGER='$d/pager' $H list"; rc=$?
[ $rc -eq 0 ] && grep -q '^ran $' "$d/ran"; ok $? "on a terminal the list goes to \$HPMSTAT_PAGER"
grep -q '^done$' "$d/ran"; ok $? "hpmstat waits for the pager to end"
grep -q '^LESS=FRSX$' "$d/ran"; ok $? "the pager gets LESS=FRSX, as perf sets it"
{ printf '\nList of pre-defined events (to be used in -e or -M):\n\n'; cat "$d/plain"; } | cmp -s - "$d/paged"
ok $? "the pager gets the whole list under perf's heading"
! grep -q 'events (mhpmcounter' "$d/tty"; ok $? "the terminal itself shows none of it"

reset
on_tty "env -u HPMSTAT_PAGER LESS=XY PAGER='$d/pager --opt' $H list pmu"
grep -q '^ran --opt$' "$d/ran" && grep -q '^LESS=XY$' "$d/ran"
ok $? "\$PAGER runs by sh -c with its arguments; a set LESS is kept"

reset
on_tty "HPMSTAT_PAGER='$d/pager2' PAGER='$d/pager' $H list pmu"
[ -s "$d/ran2" ] && [ ! -e "$d/ran" ]; ok $? "\$HPMSTAT_PAGER comes before \$PAGER"

reset
on_tty "HPMSTAT_PAGER='$d/pager' $H list pmu > '$d/file'"
[ ! -e "$d/ran" ] && grep -q 'events (mhpmcounter' "$d/file" && ! grep -q 'List of pre-defined' "$d/file"
ok $? "no pager when stdout is not a terminal"

reset
on_tty "HPMSTAT_PAGER='$d/pager' $H list --no-pager pmu"
[ ! -e "$d/ran" ] && grep -q 'events (mhpmcounter' "$d/tty"; ok $? "--no-pager: the list on the terminal itself"

for p in cat ''; do
	reset
	on_tty "HPMSTAT_PAGER='$p' PAGER='$d/pager' $H list pmu"
	[ ! -e "$d/ran" ] && grep -q 'events (mhpmcounter' "$d/tty" && ! grep -q 'List of pre-defined' "$d/tty"
	ok $? "HPMSTAT_PAGER='$p': no pager"
done

reset
on_tty "HPMSTAT_PAGER='$d/pager' $H list zzz ifu_miss"
grep -q "^  ifu_miss " "$d/paged" && grep -q "'zzz' matches no event" "$d/paged"
ok $? "stderr, a terminal too, goes to the pager with the list"

reset
on_tty "HPMSTAT_PAGER='$d/pager' $H list --json ifu_miss"
sed -n '1p' "$d/paged" | grep -q '^\[$'; ok $? "--json is paged too, without the heading"

reset
on_tty "HPMSTAT_PAGER='$d/pager' $H stat -M help"
grep -q '^ran' "$d/ran" && grep -q '^Metrics:$' "$d/paged"; ok $? "stat -M help pages as list does"

reset
on_tty "HPMSTAT_PAGER='$d/pager' $H list -zz"; rc=$?
[ $rc -eq 129 ] && [ ! -e "$d/ran" ] && grep -q "unknown option '-z'" "$d/tty"
ok $? "a usage error starts no pager"
done_testing
