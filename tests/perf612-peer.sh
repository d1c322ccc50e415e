#!/bin/sh
# perf612-peer.sh: build perf 6.12 from Debian's linux-source-6.12 tarball
# into the test cache (make perf612-peer), as the side-by-side peer of the
# tests that run perf 6.12's own scripts (tests/stat/perf-shell-6.12.sh,
# tests/record/upstream-record.sh, tests/record/upstream-report.sh):
# without it they fall back to the installed perf 6.1 and say so.
#
# What is extracted is what perf's own source package holds (the list in
# tools/perf/MANIFEST, as `make perf-tar-src-pkg` packs it), built out of
# that folder with the optional parts that need packages CI does not
# install turned off: no Python or Perl scripting, no JVMTI, no
# libtraceevent, no BPF skeletons, no libunwind (libdw unwinds
# --call-graph dwarf, as Debian's perf does), no slang/GTK browser.
# The binary is $HPMSTAT_PERF612_CACHE/perf; a second run that finds it
# built from the same tarball does nothing.
set -eu
tarball=${LINUX_SOURCE_612_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
cache=${HPMSTAT_PERF612_CACHE:?set HPMSTAT_PERF612_CACHE to the test cache folder}
top=linux-source-6.12

die() {
	echo "perf612-peer: $*" >&2
	exit 1
}

[ -r "$tarball" ] || die "$tarball is absent (Debian package linux-source-6.12)"
for tool in tar xz make gcc flex bison python3 pkg-config; do
	command -v $tool >/dev/null 2>&1 || die "$tool is not installed (perf's build needs it)"
done
# libelf is perf's one required library; libdw gives DWARF unwinding
for pc in libelf libdw; do
	pkg-config --exists $pc || die "$pc's development files are not installed (libelf-dev, libdw-dev)"
done

stamp="$(ls -l --time-style=+%s "$tarball" | awk '{ print $5, $6 }')"
if [ -x "$cache/perf" ] && [ "$(cat "$cache/stamp.txt" 2>/dev/null)" = "$stamp" ]; then
	echo "perf612-peer: $cache/perf is up to date ($("$cache/perf" version))"
	exit 0
fi

rm -rf "$cache/src" "$cache/build" "$cache/perf" "$cache/stamp.txt"
mkdir -p "$cache/src" "$cache/build"
# MANIFEST and the kernel's Makefile (its version) first, then MANIFEST's
# members (globs in it, e.g. arch/*/include/...)
tar -xJf "$tarball" -C "$cache/src" --occurrence=1 "$top/tools/perf/MANIFEST" "$top/Makefile" ||
	die "cannot read tools/perf/MANIFEST from $tarball"
# perf's version comes from git or the kernel's Makefile (make kernelversion,
# which needs the whole tree) unless a PERF-VERSION-FILE sits at the top,
# as perf's source package has it: `perf version` then says 6.12.N
version=$(awk '$2 == "=" && ($1 == "VERSION" || $1 == "PATCHLEVEL" || $1 == "SUBLEVEL") { v = v (v == "" ? "" : ".") $3 }
	$1 == "SUBLEVEL" { print v; exit }' "$cache/src/$top/Makefile")
case $version in
6.12.*) ;;
*) die "$tarball is not Linux 6.12 (its Makefile says ${version:-nothing})" ;;
esac
printf '#define PERF_VERSION "%s"\n' "$version" >"$cache/src/$top/PERF-VERSION-FILE"
members=$(sed "s|^|$top/|" "$cache/src/$top/tools/perf/MANIFEST")
# shellcheck disable=SC2086 # one member a word, globs for tar
tar -xJf "$tarball" -C "$cache/src" --wildcards $members ||
	die "cannot extract perf's sources from $tarball"

jobs=$(nproc 2>/dev/null || echo 2)
# WERROR=0: the kernel's warning set moves with compilers; this is a peer to
# run, not code of ours to police
nice make -s -C "$cache/src/$top/tools/perf" -j"$jobs" O="$cache/build" \
	WERROR=0 NO_LIBPYTHON=1 NO_LIBPERL=1 NO_JVMTI=1 NO_LIBTRACEEVENT=1 \
	NO_LIBBPF=1 BUILD_BPF_SKEL=0 NO_LIBUNWIND=1 NO_SLANG=1 NO_GTK2=1 \
	NO_LIBBABELTRACE=1 NO_LIBNUMA=1 NO_LIBCAP=1 NO_LIBZSTD=1 NO_LIBLLVM=1 \
	NO_SDT=1 NO_AUXTRACE=0 NO_LIBPFM4=1 NO_SHELLCHECK=1 ||
	die "perf's build failed (see the output above)"
cp "$cache/build/perf" "$cache/perf"
echo "$stamp" >"$cache/stamp.txt"
# the sources and objects are no longer needed: keep the binary only
rm -rf "$cache/src" "$cache/build"
echo "perf612-peer: built $cache/perf ($("$cache/perf" version))"
