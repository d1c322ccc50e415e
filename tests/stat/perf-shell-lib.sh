# perf-shell-lib.sh: what perf-shell.sh and perf-shell-6.12.sh share to run
# perf's own shell tests out of a Debian linux-source tarball (sourced after
# tests/lib.sh, with HPMSTAT the hpmstat under test).
#
# perf_shell_setup TARBALL TOP PERF FILE...: skips the whole test when
# TARBALL (Debian's package TOP, e.g. linux-source-6.1) or a tool the
# scripts need is missing; else extracts TOP/tools/perf/tests/shell/FILE...
# untouched into dir, a temporary folder removed at exit, and sets sh_dir
# to the shell folder there (the scripts executable, lib/ next to them, as
# perf's runner finds them). Two perfs to put first in PATH:
# $dir/bin-perf/perf is PERF; $dir/bin-hpmstat/perf hands `perf stat ...`
# (perf's `stat record`/`stat report` spellings too) to `hpmstat stat ...`
# and every other subcommand to PERF.
perf_shell_setup() {
	_tarball=$1 _top=$2 _perf=$3
	shift 3
	[ -r "$_tarball" ] || skip_all "$_tarball is absent (Debian package $_top)"
	for _tool in "$_perf" bash python3 tar timeout; do
		command -v "$_tool" >/dev/null 2>&1 || skip_all "$_tool is not installed"
	done
	dir=$(mktemp -d)
	trap 'rm -rf "$dir" "$tap_out" "$tap_err"' EXIT
	_shell=$_top/tools/perf/tests/shell
	_members=
	for _f in "$@"; do _members="$_members $_shell/$_f"; done
	# --occurrence: stop reading the archive once every member is out
	if ! tar -xJf "$_tarball" -C "$dir" --occurrence=1 $_members 2>"$tap_err"; then
		echo "Bail out! cannot extract perf's stat tests from $_tarball: $(head -1 "$tap_err")"
		exit 1
	fi
	sh_dir=$dir/$_shell
	chmod +x "$sh_dir"/*.sh
	mkdir "$dir/bin-perf" "$dir/bin-hpmstat"
	printf '#!/bin/sh\nexec "%s" "$@"\n' "$_perf" >"$dir/bin-perf/perf"
	printf '#!/bin/sh\n# perf stat is hpmstat stat; any other perf subcommand is perf\nif [ "$1" = stat ]; then\n\tshift\n\texec "%s" stat "$@"\nfi\nexec "%s" "$@"\n' \
		"$HPMSTAT" "$_perf" >"$dir/bin-hpmstat/perf"
	chmod +x "$dir/bin-perf/perf" "$dir/bin-hpmstat/perf"
}
