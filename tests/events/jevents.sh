# jevents.sh: Linux 6.1's own jevents.py over one of events/'s arch trees,
# as tools/perf/pmu-events/Build runs it (jevents.py ARCH DIR OUT, where DIR
# holds the arch directories; 6.1's jevents.py also wants its 'test' arch).
# Sourced by tests/events/*.sh after tests/lib.sh, with $dir a scratch folder.
#
# linux_jevents ARCH TREE: one test point. It runs jevents.py over TREE as
# arch ARCH into $dir/pmu-events.c and returns 0 when it did; when Debian's
# linux-source-6.1 or python3 is missing the point is a SKIP with the reason,
# and it returns 1 (the caller's further points about the table are moot).
linux_jevents() {
	tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
	pe=linux-source-6.1/tools/perf/pmu-events
	what="Linux 6.1 jevents.py accepts events/$1"
	if [ ! -r "$tarball" ]; then
		skip "$what" "no $tarball (Debian package linux-source-6.1)"
		return 1
	elif ! command -v python3 >/dev/null 2>&1; then
		skip "$what" "no python3"
		return 1
	elif ! tar -xJf "$tarball" -C "$dir" "$pe/jevents.py" "$pe/arch/test" 2>"$tap_err"; then
		ok 1 "jevents.py and arch/test extract from $tarball"
		diag "$(head -3 "$tap_err")"
		return 1
	fi
	mkdir -p "$dir/arch"
	cp -R "$2" "$dir/arch/$1"
	cp -R "$dir/$pe/arch/test" "$dir/arch/test"
	run_ok "$what" python3 "$dir/$pe/jevents.py" "$1" "$dir/arch" "$dir/pmu-events.c"
	[ -s "$dir/pmu-events.c" ]
}
