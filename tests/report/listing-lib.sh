# tests/report/listing-lib.sh: what the tests of report's listings
# (header.sh: --header-only; tasks.sh: --stats, --tasks, --mmaps) share:
# a scratch folder made the current one, and the comparison of hpmstat's
# listing with perf report's of the same file.
. "$top_srcdir/tests/lib.sh"
command -v perf >/dev/null 2>&1 || skip_all "perf not installed"
T=$(mktemp -d)
trap 'main_shell && rm -rf "$T" "$tap_out" "$tap_err"' EXIT
cd "$T" || exit 1

# listed DESC PRC HRC: hpm.out is perf.out, and hpmstat's status HRC
# (any failure below 128 taken as 1) is perf's PRC (0 or 1)
listed() {
	_hrc=$3
	if [ "$_hrc" -ne 0 ] && [ "$_hrc" -lt 128 ]; then _hrc=1; fi
	if [ "$2" = "$_hrc" ] && cmp -s perf.out hpm.out; then
		ok 0 "$1: perf's listing"
	else
		ok 1 "$1: perf's listing"
		diag "perf exit $2, hpmstat exit $3" "$(head -2 hpm.err)" \
			"$(diff perf.out hpm.out | head -20)"
	fi
}
# recorded NAME CMD...: CMD records NAME.data (its output in NAME.log)
recorded() {
	_name=$1
	shift
	"$@" >"$_name.log" 2>&1 && [ -s "$_name.data" ]
}
