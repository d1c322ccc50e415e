#!/bin/sh
# tests/record/demangle.sh: C++ function names as Debian's perf 6.1
# report shows them (demangled by binutils' cplus_demangle without
# DMGL_PARAMS: "outer::inner::spin", no parameters, no clone suffix),
# judged by perf report on hpmstat's and perf's recordings of
# tests/record/demangle.cc (built with g++ -O2):
# - the report, with and without --children, and --sort sym: the names,
#   and the entries perf keeps apart though their names are one (the two
#   overloads of outer::inner::spin: perf tells functions apart by their
#   start, not by name);
# - --no-demangle: the names as the file has them (_ZN5outer5inner4spinEi,
#   _ZL6scaledii.constprop.0), --demangle after it turns it back on;
# - -S and --symbol-filter on the demangled names, and -S on a mangled one
#   with --no-demangle;
# - the folded stacks: perf script's chains, demangled;
# - every name perf probe -F gives for the program's symbols, for those
#   of a program of the standard library's templates
#   (tests/record/demangle-names.cc) and for libstdc++'s is the one
#   hpmstat's symbolizer gives (tests/sym/sym-tool demangle);
# - with libstdc++ not to be found (HPMSTAT_DLOPEN_DIR holding libelf
#   only), the names stay mangled, as --no-demangle's, one line on stderr
#   says which library and package, and the report exits 0.
# Each point fails with the names left mangled.
. "$top_srcdir/tests/lib.sh"
R=$top_srcdir/tests/record
. "$R/report-lib.sh"
command -v g++ >/dev/null 2>&1 || skip_all "g++ not installed"
have HAVE_LIBELF || skip_all "built without libelf: no function names to demangle"
have HAVE_DEMANGLE || skip_all "configured --without-demangle: C++ names are left mangled"
need_sampling
g++ -O2 -g -fno-omit-frame-pointer -o demangle "$R/demangle.cc" || exit 1

# the program has the names the test is about (gcc's clones, a .cold part)
nm demangle >nm.out
for s in _ZL6scaledii.constprop.0 _Z8coldpathi.cold _ZN12_GLOBAL__N_16hiddenEi \
	_ZNK5outer5inner3VecplERKS1_.isra.0 _ZZ4mainENKUliE_clEi _ZN5outer5inner5twiceIlEET_S2_i \
	_ZN5outer5inner4spinEi _ZN5outer5inner4spinEd; do
	grep -q " $s" nm.out || diag "g++ made no $s"
done

"$HPMSTAT" record -q -e cpu-clock:u -g -o h.data ./demangle 300 2>/dev/null
ok $? "hpmstat record -g of the C++ program: exit 0"
perf record -q -e cpu-clock:u -g -o p.data ./demangle 300 2>/dev/null
ok $? "perf record -g of the C++ program: exit 0"

for f in h.data p.data; do
	same_report "$f --no-children" $f --no-children
	# the comparison is of demangled names: perf's report has them
	grep -q 'outer::inner::spin$' r.hpm && grep -q 'main::{lambda(int)#1}::operator()$' r.hpm &&
		grep -q '(anonymous namespace)::hidden$' r.hpm && grep -q ' scaled$' r.hpm &&
		grep -q ' coldpath$' r.hpm && grep -q 'outer::inner::Vec::operator+$' r.hpm &&
		grep -q 'outer::inner::twice<long>$' r.hpm
	ok $? "$f: the names demangled, without parameters or clone suffixes"
	# the two overloads of spin: two entries of one name, as perf's
	[ "$(grep -c '\[\.\] outer::inner::spin$' r.hpm)" = 2 ]
	ok $? "$f: spin(int) and spin(double), two entries of one name"
	same_entries "$f --children" $f --children
	same_report "$f --sort sym --no-children" $f --sort sym --no-children
	same_report "$f --sort dso,sym -g caller --no-children" $f --sort dso,sym -g caller --no-children
	same_report "$f --no-demangle --no-children" $f --no-demangle --no-children
	grep -q '_ZN5outer5inner4spinEi$' r.hpm && grep -q '_ZL6scaledii.constprop.0$' r.hpm
	ok $? "$f --no-demangle: the names as the file has them"
	same_entries "$f --no-demangle --children" $f --no-demangle
	same_report "$f --no-demangle --demangle --no-children" $f --no-demangle --demangle --no-children
	same_report "$f -S outer::inner::spin --no-children" $f -S outer::inner::spin --no-children
	same_report "$f -S 'main::{lambda(int)#1}::operator(),(anonymous namespace)::hidden'" \
		$f -S 'main::{lambda(int)#1}::operator(),(anonymous namespace)::hidden' --no-children
	same_report "$f --symbols coldpath,scaled -g caller" $f --symbols coldpath,scaled -g caller --no-children
	same_report "$f --no-demangle -S _ZN5outer5inner4spinEd" $f --no-demangle -S _ZN5outer5inner4spinEd --no-children
	same_report "$f --symbol-filter inner::" $f --symbol-filter inner:: --no-children
	same_report "$f --symbol-filter '{lambda'" $f --symbol-filter '{lambda' --no-children
done

# the folded stacks: perf script's chains of the program (its names after
# the address, spaces and all)
perf script -i h.data -c demangle -F comm,ip,sym --no-inline </dev/null 2>/dev/null | awk '
	function emit(  s, i) { s = comm; for (i = n - 1; i >= 0; i--) s = s ";" f[i]; print s; n = 0 }
	/^[^ \t]/ { if (n) emit(); comm = $1; n = 0; next }
	NF >= 2 { sub(/^[ \t]*[0-9a-f]+ /, ""); f[n++] = $0 }
	NF == 0 { if (n) emit() }
	END { if (n) emit() }' | sort | uniq -c | sed 's/^ *\([0-9]*\) \(.*\)/\2 \1/' | no_plt_chains >r.perf
"$HPMSTAT" report -i h.data --format folded --comms demangle </dev/null 2>r.err | no_plt_chains |
	sort >r.hpm
[ -s r.perf ] && cmp -s r.perf r.hpm && grep -q ';main::{lambda(int)#1}::operator() [0-9]*$' r.hpm
compared $? "--format folded: perf script's chains, demangled"

# perf probe -F: perf's names of every function and object of a file
# (sorted, each once), against the symbolizer's of the file's names
ST=$top_builddir/tests/sym/sym-tool
probe_names() { # LABEL FILE NM-OPTIONS...
	label=$1 file=$2
	shift 2
	if ! perf probe -F -x "$file" --filter '*' 2>/dev/null | sort -u >r.perf || [ ! -s r.perf ]; then
		skip "$label: perf probe -F" "perf probe -F cannot list $file"
		return
	fi
	nm "$@" --defined-only --without-symbol-versions "$file" |
		awk 'NF == 3 { print "demangle " $3 }' |
		"$ST" | sort -u >r.all
	# perf lists neither TLS nor version names, and names PLT entries
	# and copies of a library's variables (__libc_single_threaded@GLIBC_2.32)
	# with an @ that nm --without-symbol-versions leaves out: each of its
	# others must be one of nm's, demangled
	grep -v '@' r.perf >r.perf.names
	comm -13 r.all r.perf.names >r.missing
	[ -s r.perf.names ] && [ ! -s r.missing ] && [ "$(wc -l <r.perf.names)" -ge 10 ]
	rc=$?
	ok $rc "$label: every name perf probe -F prints is the symbolizer's ($(wc -l <r.perf.names) names)"
	[ $rc -eq 0 ] || diag "perf's, not the symbolizer's: $(head -5 r.missing)"
}
probe_names "the program" demangle
if g++ -O2 -o names "$R/demangle-names.cc"; then
	probe_names "std::regex, std::map, std::sort" names
else
	skip "std::regex, std::map, std::sort: perf probe -F" "g++ cannot build demangle-names.cc"
fi
lib=$(ldd ./demangle | awk '$1 ~ /^libstdc\+\+/ { print $3 }')
if [ -n "$lib" ]; then
	probe_names "libstdc++ ($lib)" "$lib" -D
else
	skip "libstdc++: perf probe -F" "ldd names no libstdc++"
fi
printf 'demangle _Z8coldpathi.cold\ndemangle-v _Z8coldpathi.cold\ndemangle _Zfoo\ndemangle i\n' |
	"$ST" >r.hpm
printf 'coldpath\ncoldpath(int) [clone .cold]\n_Zfoo\ni\n' >r.perf
cmp -s r.perf r.hpm
compared $? "sym-tool: perf's name, perf -v's, a name that only looks mangled, a C one"

# libstdc++ missing: libelf alone where the libraries are looked for
if have HPM_DLOPEN; then
	mkdir only-elf
	elf=$(${CC:-cc} -print-file-name=libelf.so)
	so=$(readelf -d "$elf" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
	ln -s "$(readlink -f "$elf")" "only-elf/$so"
	perf report -i h.data --stdio --no-inline --no-children --no-demangle </dev/null 2>/dev/null |
		body /dev/stdin >r.perf
	HPMSTAT_DLOPEN_DIR=$PWD/only-elf "$HPMSTAT" report -i h.data --no-children </dev/null \
		>r.out 2>r.err
	rc=$?
	body r.out >r.hpm
	[ $rc -eq 0 ] && [ -s r.perf ] && cmp -s r.perf r.hpm && [ "$(wc -l <r.err)" = 1 ] &&
		grep -qx "hpmstat report: warning: libstdc++\.so\.6 is not installed (Debian package libstdc++6): C++ function names left mangled" r.err
	compared $? "libstdc++ missing: names mangled as --no-demangle's, one line naming it, exit 0 ($rc)"
	[ $rc -eq 0 ] || diag "$(cat r.err)"
	# hpmstat stat never maps it (issue 30): the loader's own account;
	# unless the program needs it from its start, as a sanitizer build's
	# runtime does (libubsan needs libstdc++)
	LD_DEBUG=files "${HPMSTAT_FULL:-$HPMSTAT}" --version 2>&1 >/dev/null |
		grep 'file=.*libstdc++.*needed by' >r.ver
	if [ -s r.ver ]; then
		why="libstdc++ is mapped from the start: $(head -1 r.ver | sed 's/^[[:space:]]*[0-9]*:[[:space:]]*//')"
		skip "stat -e task-clock -- true maps no libstdc++" "$why"
		skip "report of the C++ program opens libstdc++" "$why"
	else
		LD_DEBUG=files "${HPMSTAT_FULL:-$HPMSTAT}" stat -e task-clock -- true 2>&1 >/dev/null |
			grep 'file=.*libstdc++' >r.stat
		[ ! -s r.stat ]
		ok $? "stat -e task-clock -- true maps no libstdc++"
		[ -s r.stat ] && diag "$(head -3 r.stat)"
		LD_DEBUG=files "${HPMSTAT_FULL:-$HPMSTAT}" report -i h.data --no-children 2>&1 \
			>/dev/null | grep -q 'file=.*libstdc++.* dynamically loaded by'
		ok $? "report of the C++ program opens libstdc++"
	fi
else
	skip "libstdc++ missing" "configured --disable-dlopen: libstdc++ is linked"
	skip "stat maps no libstdc++" "configured --disable-dlopen: libstdc++ is linked"
	skip "report opens libstdc++" "configured --disable-dlopen: libstdc++ is linked"
fi
done_testing
