# emu-test.sh: helpers for the emulator's shell tests, sourced after
# tests/lib.sh. Scripts are given on standard input (here-documents), so
# every test reads as the script it runs and the output it expects.
EMU_TMP=$(mktemp -d)
trap 'rm -rf "$EMU_TMP" "$tap_out" "$tap_err"' EXIT

# script_is DESC EXPECTED [OPTION...] < SCRIPT
# `hpmstat emu OPTION... -` exits 0 and prints exactly EXPECTED.
script_is() {
	d=$1; want=$2; shift 2
	got=$("$HPMSTAT" emu "$@" - 2>"$tap_err"); rc=$?
	if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then
		ok 0 "$d"
	else
		ok 1 "$d"
		diag "exit $rc" "got:" "$got" "want:" "$want" "stderr: $(head -3 "$tap_err")"
	fi
}

# script_fails DESC STATUS STDERR [STDOUT] < SCRIPT
# `hpmstat emu -` exits STATUS with exactly the one stderr line STDERR and
# (when given) exactly STDOUT: the output of the lines before the error.
script_fails() {
	d=$1; want_rc=$2; want_err=$3; want_out=${4-}
	got=$("$HPMSTAT" emu - 2>"$tap_err"); rc=$?
	err=$(cat "$tap_err")
	if [ $rc -eq "$want_rc" ] && [ "$err" = "$want_err" ] && [ "$got" = "$want_out" ]; then
		ok 0 "$d"
	else
		ok 1 "$d"
		diag "exit $rc (want $want_rc)" "stderr: $err" "want:   $want_err" "stdout: $got" "want:   $want_out"
	fi
}

# script_ok DESC [OPTION...] < SCRIPT
# The script runs to its end (every `expect` in it holds) and exits 0.
script_ok() {
	d=$1; shift
	"$HPMSTAT" emu "$@" - >"$tap_out" 2>"$tap_err"; rc=$?
	ok $rc "$d"
	[ $rc -eq 0 ] || diag "exit $rc" "$(head -3 "$tap_err")"
}
