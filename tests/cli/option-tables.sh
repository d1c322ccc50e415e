#!/bin/sh
# Each command's option table (src/builtin/cli-opts.h) against its
# documentation: perf's hidden --list-opts lists the table's long options
# (perf's format and exit status 130); every one of them is in the man
# page's OPTIONS and in the command's --help, and every long option the man
# page's OPTIONS names is in the table, so that an option cannot be added,
# renamed or dropped on one side only. -h/--help is documented once for
# every command in hpmstat(1). --help's option lines are the table's,
# in its order.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT
man=$top_srcdir/man

# man_options PAGE [SUBSECTION]: the long options the tags of the OPTIONS
# section name (only those under .SS SUBSECTION when given), one a line;
# also those of the sections man_sections names (report's SAMPLES)
man_sections=OPTIONS
man_options() {
	awk -v sub_name="${2:-}" -v sections=" $man_sections " '
		/^\.SH / { in_opts = index(sections, " " $2 " ") > 0; in_sub = (sub_name == "") }
		/^\.SS / && in_opts { in_sub = (sub_name == "" || $2 == sub_name) }
		in_opts && in_sub && tag { print }
		{ tag = in_opts && in_sub && ($1 == ".TP" || $1 == ".TQ") }' "$1" |
		sed 's/\\-/-/g' | grep -o -- '--[a-z0-9][a-z0-9-]*' | grep -vx -- '--help' | sort -u
}

# check CMD PAGE [SUBSECTION]: the table against the page and --help.
# PAGE may be two pages, "own.1 other.1": a command that takes another's
# options too (serve takes stat's) lists them after its own, the two pages
# document them, and its --help names those of its own page.
check() {
	cmd=$1; page=$2; sub=${3:-}
	"$H" $cmd --list-opts </dev/null >"$tap_out" 2>"$tap_err"
	rc=$?
	table=$(tr ' ' '\n' <"$tap_out" | grep -v '^$' | grep -vx -- '--help' | sort -u)
	[ "$rc" -eq 130 ] && [ "$(wc -l <"$tap_out")" -eq 1 ] && [ ! -s "$tap_err" ] &&
		tr ' ' '\n' <"$tap_out" | grep -qx -- '--help'
	ok $? "$cmd --list-opts: one line of long options, exit 130 as perf's"
	[ "$rc" -eq 130 ] || diag "exit $rc" "$(head -3 "$tap_err")"

	# shellcheck disable=SC2086 # PAGE's words are pages
	documented=$(for p in $page; do man_options "$p" $sub; done | sort -u)
	own=$(man_options "${page%% *}" $sub)
	names=$(for p in $page; do basename "$p"; done | paste -sd+)
	missing=$(printf '%s\n' "$table" | while read -r o; do
		printf '%s\n' "$documented" | grep -qx -- "$o" || printf '%s ' "$o"
	done)
	[ -n "$table" ] && [ -z "$missing" ]
	ok $? "$cmd: every option of the table is in the OPTIONS of $names${sub:+ ($sub)}"
	[ -z "$missing" ] || diag "not in the page: $missing"

	stale=$(printf '%s\n' "$documented" | while read -r o; do
		printf '%s\n' "$table" | grep -qx -- "$o" || printf '%s ' "$o"
	done)
	[ -n "$documented" ] && [ -z "$stale" ]
	ok $? "$cmd: every long option the OPTIONS of $names${sub:+ ($sub)} name is in the table"
	[ -z "$stale" ] || diag "not in the table: $stale"

	"$H" $cmd --help >"$tap_out" 2>&1
	unlisted=$(printf '%s\n' "$table" | while read -r o; do
		printf '%s\n' "$own" | grep -qx -- "$o" || continue
		grep -q -- "$o\([^a-z0-9-]\|$\)" "$tap_out" || printf '%s ' "$o"
	done)
	[ -z "$unlisted" ]
	ok $? "$cmd --help names every option of the table"
	[ -z "$unlisted" ] || diag "not in --help: $unlisted"

	# --help's option lines are printed from the table (perf's
	# usage_with_options): one line for each listed option, in the
	# table's order, which --list-opts gives
	heads=$(sed -n 's/^  \(-[^-], \|    \)\(--[a-z0-9][a-z0-9-]*\).*/\2/p' "$tap_out")
	order=$("$H" $cmd --list-opts </dev/null | tr ' ' '\n' | grep -v '^$')
	expect=$(printf '%s\n' "$order" | grep -Fx -- "$heads")
	[ -n "$heads" ] && [ "$heads" = "$expect" ]
	ok $? "$cmd --help: a line for each option, in the table's order"
	[ "$heads" = "$expect" ] || diag "--help: $(echo $heads)" "table: $(echo $expect)"
}

check stat "$man/hpmstat-stat.1"
check record "$man/hpmstat-record.1"
check top "$man/hpmstat-top.1"
check list "$man/hpmstat-list.1"
check encode "$man/hpmstat.1" encode
check decode "$man/hpmstat.1" decode
# report's perf.data options are in its page's SAMPLES
man_sections="OPTIONS SAMPLES"
check report "$man/hpmstat-report.1"
# emu's: every machine's (the Arm machine's in ARM MACHINE)
man_sections="OPTIONS ARM"
check emu "$man/hpmstat-emu.1"
man_sections=OPTIONS
# serve's own options, then stat's, which it takes too
check serve "$man/hpmstat-serve.1 $man/hpmstat-stat.1"

# --help is the one option every command has, documented once
grep -q 'Every command also accepts' "$man/hpmstat.1"
ok $? "hpmstat(1) documents -h/--help for every command"

# --list-opts only as the first argument, as perf reads it: elsewhere it is
# an unknown option as before
run_fails_with "stat -j --list-opts: an unknown option" "unknown option '--list-opts'" $H stat -j --list-opts
[ "$rc" -eq 129 ] || { ok 1 "stat -j --list-opts: exit 129"; diag "exit $rc"; }

done_testing
