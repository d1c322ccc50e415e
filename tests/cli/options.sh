#!/bin/sh
# Option parsing of every subcommand but list: errors name the option as it
# was typed (getopt's own rules: clusters, abbreviations, --opt=value),
# numbers too big for their option say out of range, options and operands
# mix where perf's tools let them, and "--" ends the options.
. "$top_srcdir/tests/lib.sh"
H=$HPMSTAT

# usage DESC NEEDLE ARGS...: one stderr line with NEEDLE, nothing on
# stdout, exit 129 (a usage error)
usage() {
	d=$1; n=$2; shift 2
	run_fails_with "$d" "$n" $H "$@"
	[ "$rc" -eq 129 ] || { ok 1 "$d: exit 129"; diag "exit $rc"; }
}
# bad_value DESC NEEDLE ARGS...: the same with exit 1 (bad input), as the
# other value checks of the command
bad_value() {
	d=$1; n=$2; shift 2
	run_fails_with "$d" "$n" $H "$@"
	[ "$rc" -eq 1 ] || { ok 1 "$d: exit 1"; diag "exit $rc"; }
}

# --- unknown and misused options are named exactly
usage "stat -y3: the first of a cluster" "unknown option '-y' " stat -y3
usage "hpmstat -y3 (stat implied)" "unknown option '-y' " -y3
usage "stat -jy: inside a cluster" "unknown option '-y' " stat -jy
usage "stat -je: the value missing at the end of a cluster" "option '-e' needs a value" stat -je
usage "stat --frob=1: the name without its value" "unknown option '--frob' " stat --frob=1
usage "stat --json=1: a flag given a value" "option '--json' takes no value" stat --json=1
usage "stat --json-e=1: an abbreviation is named in full" "option '--json-extra' takes no value" stat --json-e=1
usage "stat --emu: an ambiguous abbreviation" "ambiguous option '--emu' (--emu-profile, --emu-trace," stat --emu
usage "stat --emu-s: the option it abbreviates needs a value" "option '--emu-seed' needs a value" stat --emu-s
usage "decode --json=1" "option '--json' takes no value" decode --json=1 1
usage "decode VALUE --frob=2" "unknown option '--frob' " decode 1 --frob=2
usage "encode -jq" "unknown option '-q' " encode -jq ifu_req
usage "top -bZ" "unknown option '-Z' " top -bZ
usage "top --no-color=1" "option '--no-color' takes no value" top --no-color=1
usage "report --bogus=1" "unknown option '--bogus' " report --bogus=1 x.json
usage "report --help=1" "option '--help' takes no value" report --help=1
usage "emu --frob=2" "unknown option '--frob' " emu --frob=2
usage "emu profiles --json=1" "profiles: option '--json' takes no value" emu profiles --json=1
usage "emu bench --frob: an option, not an argument" "bench: unknown option '--frob' " emu bench --frob

# --- numbers: out of range is not "not a number"; empty, negative, rHEX
big=99999999999999999999
bad_value "stat -r 2^64 and more" "-r '$big': out of range, must be 1 to 100000" stat -r $big -- true
bad_value "stat -r -1" "-r '-1': out of range, must be 1 to 100000" stat -r -1 -- true
bad_value "stat -I 2^64 and more" "-I '$big': out of range, must be 10 to" stat -I $big -- true
bad_value "stat --emu-cycles 1e20" "--emu-cycles '1e20': out of range" stat --emu-cycles 1e20
bad_value "stat --emu-seed= (empty)" "--emu-seed: the value is empty" stat --emu-seed=
bad_value "stat -r r3: rHEX is an event, not a count" "-r 'r3': not a number" stat -r r3 -- true
bad_value "top -n 2^64 and more" "-n '$big': out of range, must be 1 to" top -b -n $big
bad_value "top -p -1" "-p '-1': out of range" top -b -p -1
bad_value "report --level 2^64 and more" "--level '$big': out of range, must be 1 to 3" report --level $big x.json
usage "emu --harts 2^64 and more" "--harts '$big': out of range, must be 1 to" emu --harts $big
usage "emu bench --seed -1" "bench: --seed '-1': out of range" emu bench --seed -1
# what is a number still reads as one
$H stat -r ' 2 ' -x, -e task-clock -- true >/dev/null 2>"$tap_err"
ok $? "stat -r ' 2 ': blanks around a number are ignored"
grep -c task-clock "$tap_err" | grep -qx 1; ok $? "... and it counts (one task-clock row)"
$H stat -r 0x2 -x, -e task-clock -- true >/dev/null 2>&1; ok $? "stat -r 0x2: hex"

# --- operands and options mix; "--" ends the options
want="0x4000040000002007  INST_SPEC + RECOVERY_BUBBLE  bank=backend"
out=$(POSIXLY_CORRECT=1 $H decode 0x4000040000002007 --counter 11 2>&1)
case "$out" in "$want"*) r=0 ;; *) r=1 ;; esac
ok $r "decode VALUE --counter N: the option after the value, even under POSIXLY_CORRECT"
[ $r -eq 0 ] || diag "$out"
run_fails_with "decode -- --counter: after --, a value" "'--counter' is not a number" $H decode -- --counter 11
out=$($H encode rob_commitInstr --json 2>&1)
case "$out" in '{'*'"canonical":"rob_commitInstr"'*) r=0 ;; *) r=1 ;; esac
ok $r "encode EXPR --json: the option after the expression"
[ $r -eq 0 ] || diag "$out"
# --topdown's level is optional: only --topdown=N takes it, and a bare
# number after --topdown is not run as a command
usage "stat --topdown 2" "the level is written --topdown=2" stat --topdown 2
# stat keeps the command's own options: the first operand starts the command
out=$($H stat -x, -e task-clock -- sh -c 'echo "$1"' sh -r 2>/dev/null)
[ "$out" = "-r" ]; ok $? "stat ... -- CMD -r: -r is the command's"
out=$($H stat -x, -e task-clock sh -c 'echo "$1"' sh --json 2>/dev/null)
[ "$out" = "--json" ]; ok $? "stat ... CMD --json (no --): --json is the command's"


# report and emu read their options as the other commands do (perf's
# parse-options): a unique abbreviation is the option, an ambiguous one
# names its candidates, and an option of another machine is none
usage "report --top: ambiguous" "ambiguous option '--top' (--topdown, --topdown-variant)" report --top x.json
bad_value "report --lev 9: --level abbreviated" "--level '9': must be 1 to" report --lev 9 x.json
usage "report --di A: --diff abbreviated needs BASE and NEW" "--diff needs BASE and NEW" report --di x.json
usage "emu --har 0: --harts abbreviated" "--harts '0': must be 1 to" emu --har 0
usage "emu --arch arm64 --harts: the Kunminghu emulator's" "option '--harts' is" emu --arch arm64 --harts 2
usage "emu bench --max-run: the Arm emulator's" "bench: unknown option '--max-run'" emu bench --max-run 5
usage "emu bench --cyc x: the subcommand's messages" "bench: --cycles 'x': not a number" emu bench --cyc x

done_testing
