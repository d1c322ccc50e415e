#!/bin/sh
# tests/util/dlopen.sh: the optional libraries are mapped only by the
# commands that use them (util/dlib.h), as the loader itself reports them
# (LD_DEBUG=files, dlopened ones included); and with a library missing
# (HPMSTAT_DLOPEN_DIR: an empty directory the loader looks in instead) the
# command that needs it says which file and which Debian package, in one
# line, while the others run as before. And the binary's tables of
# pointers cost the loader no relocation loop (DT_RELR, where the linker
# packs them).
. "$top_srcdir/tests/lib.sh"
# the dynamically linked program: hpmstat itself, or hpmstat-full beside
# the static front (which maps nothing: tests/util/static-front.sh)
H=${HPMSTAT_FULL:-$HPMSTAT}
if ! have HPM_DLOPEN; then
	skip_all "configured --disable-dlopen: the libraries are linked"
fi
T=$(mktemp -d)
trap 'main_shell && rm -rf "$T" "$tap_out" "$tap_err"' EXIT
mkdir "$T/none"

# libs CMD...: the shared objects the loader mapped for CMD, one a line;
# a sanitizer build's runtimes (and what they need) are not hpmstat's
libs() {
	LD_DEBUG=files "$@" 2>&1 >/dev/null </dev/null |
		sed -n 's/.*file=\([^ ]*\) \[0\]; *\(needed\|dynamically loaded\) by.*/\1/p' |
		sed 's|.*/||' | grep -v '^lib\(asan\|ubsan\|stdc++\|gcc_s\|dl\|rt\|pthread\)\.' | sort -u
}
# only_base DESC CMD...: CMD maps libc, libm and jansson at most
only_base() {
	d=$1; shift
	libs "$@" >"$T/libs"
	extra=$(grep -v '^lib\(c\|m\|jansson\)\.so\.' "$T/libs" | tr '\n' ' ')
	ok $([ -s "$T/libs" ] && [ -z "$extra" ]; echo $?) "$d maps libc, libm and jansson at most"
	[ -z "$extra" ] || diag "also: $extra"
}

only_base "--version" "$H" --version
n=$(libs "$H" --version | wc -l)
ok $([ "$n" -le 4 ]; echo $?) "--version maps at most 4 libraries ($n)"
only_base "stat -e task-clock -- true" "$H" stat -e task-clock -- true
only_base "stat --topdown on the emulator" "$H" stat --topdown --backend emu --emu-cycles 1e6
only_base "encode rob_commitInstr" "$H" encode rob_commitInstr
only_base "decode" "$H" decode 0x0
only_base "list --pmu kunminghu" "$H" list --no-pager --pmu kunminghu
only_base "batch top" "$H" top -n 1 -d 0.1 --backend emu
only_base "report of a run file" "$H" report "$top_srcdir/tests/report/hand.json"

# jansson and libm are opened by hpmstat's first call of one of their
# functions (util/dl-jansson.c, util/dl-m.c; issue 30): own_libs
# (tests/lib.sh) lists what hpmstat's own process maps
libc_only() {
	d=$1; shift
	got=$(own_libs "$@" | tr '\n' ' ')
	ok $([ "$got" = "libc.so.6 " ]; echo $?) "$d maps libc alone ($got)"
}
libc_only "--version" "$H" --version
libc_only "stat -e task-clock -- true" "$H" stat -e task-clock -- true
libc_only "encode rob_commitInstr" "$H" encode rob_commitInstr
# what calls them opens them, and gets their results: -j's JSON (jansson)
# is perf's fields, -r's noise (sqrt, lround, log10 of libm) is printed
own_libs "$H" stat -j -e task-clock -- true >"$T/libs"
grep -qx "$(sed -n 's/^#define JANSSON_SONAME "\(.*\)"/\1/p' "$top_builddir/config.h")" "$T/libs"
ok $? "stat -j opens jansson"
"$H" stat -j -e task-clock -- true 2>"$T/j" >/dev/null </dev/null
python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).read().strip().splitlines()[-1]); sys.exit(d["event"] != "task-clock" or d["unit"] != "msec")' "$T/j"
ok $? "... and prints task-clock's perf fields through it"
# (a sanitizer runtime needs libm itself: there it is mapped before main)
if LD_DEBUG=files "$H" --version 2>&1 >/dev/null </dev/null |
	grep -q 'file=libm\.so\.6 \[0\]; *needed by [^ ]*lib\(asan\|ubsan\)'; then
	skip "stat -r 3 opens libm for its noise" "the sanitizer runtime maps libm already"
else
	own_libs "$H" stat -r 3 -e task-clock -- true >"$T/libs"
	grep -qx 'libm\.so\.6' "$T/libs"
	ok $? "stat -r 3 opens libm for its noise"
fi
"$H" stat -r 3 -e task-clock -- true 2>"$T/r" >/dev/null </dev/null
grep -Eq 'task-clock .*\( \+- *[0-9]+\.[0-9]{2}% \)' "$T/r"
ok $? "... and prints task-clock's +- as perf does"
[ $? = 0 ] || diag "$(cat "$T/r")"

# the same commands run with no optional library at all
out_is "--version without any optional library" "$(HPMSTAT_DLOPEN_DIR= "$H" --version)" \
	env HPMSTAT_DLOPEN_DIR="$T/none" "$H" --version
run_ok "stat -e task-clock without any optional library" \
	env HPMSTAT_DLOPEN_DIR="$T/none" "$H" stat -e task-clock -- true
run_ok "encode without any optional library" \
	env HPMSTAT_DLOPEN_DIR="$T/none" "$H" encode rob_commitInstr

# the soname hpmstat would open, as the library's own ELF header says
soname_of() { # -lNAME
	f=$(${CC:-cc} -print-file-name="lib$1.so")
	s=$(readelf -d "$f" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
	[ -n "$s" ] || s=$(sed -n 's/^ *INPUT *( *\([^ )]*\).*/\1/p' "$f" 2>/dev/null)
	echo "$s"
}

if have HAVE_LIBMICROHTTPD; then
	so=$(soname_of microhttpd)
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	run_fails_with "serve without libmicrohttpd: one line naming the file and package" \
		"hpmstat serve: $so is not installed (Debian package libmicrohttpd" \
		env HPMSTAT_DLOPEN_DIR="$T/none" "$H" serve --listen "127.0.0.1:$port" --backend emu --emu-cycles 1e6
	# the same directory with the library in it: serve starts (and ends
	# with its workload-less emulator run)
	real=$(ldconfig -p | awk -v s="$so" '$1==s {print $NF; exit}')
	mkdir "$T/mhd" && ln -s "$real" "$T/mhd/$so"
	HPMSTAT_DLOPEN_DIR="$T/mhd" "$H" serve --listen "127.0.0.1:$port" --backend emu --emu-cycles 1e6 \
		>"$tap_out" 2>"$tap_err"
	ok $? "serve with libmicrohttpd in HPMSTAT_DLOPEN_DIR runs"
else
	skip "built without libmicrohttpd"
fi

if have HAVE_LIBPFM4; then
	so=$(soname_of pfm)
	"$H" stat -e perf_raw::r0003 -- true >"$tap_out" 2>"$tap_err"
	ok $? "stat -e perf_raw::r0003 (a libpfm4 name) runs"
	run_fails_with "and without libpfm4 says which library it needs" \
		"host event names are read by libpfm4: $so is not installed (Debian package libpfm" \
		env HPMSTAT_DLOPEN_DIR="$T/none" "$H" stat -e perf_raw::r0003 -- true
	run_ok "a generic name needs no libpfm4" \
		env HPMSTAT_DLOPEN_DIR="$T/none" "$H" stat -e task-clock,page-faults -- true
else
	skip "built without libpfm4"
fi

if have HAVE_LIBBPF; then
	so=$(soname_of bpf)
	run_fails_with "stat --bpf-counters without libbpf: one line naming the file and package" \
		"cannot use BPF: $so is not installed (Debian package libbpf" \
		env HPMSTAT_DLOPEN_DIR="$T/none" "$H" stat --bpf-counters -a -e task-clock -- true
else
	skip "built without libbpf"
fi

if have HAVE_LIBELF && [ -x "$top_builddir/tests/sym/sym-tool" ]; then
	so=$(soname_of elf)
	# an address in /bin/sh: its DSO, no name, and why
	printf 'mmap 1 0x400000 0x100000 0 /bin/sh\nresolve 1 0x401000\n' >"$T/in"
	HPMSTAT_DLOPEN_DIR="$T/none" "$top_builddir/tests/sym/sym-tool" <"$T/in" | cut -f1,2,5 >"$T/out"
	out_is "the symbolizer without libelf: the DSO, no name, and which library" \
		"/bin/sh	[unknown]	$so is not installed (Debian package libelf1)" cat "$T/out"
else
	skip "built without libelf"
fi

if have HAVE_NCURSES && command -v tmux >/dev/null 2>&1; then
	so=$(soname_of ncursesw)
	[ -n "$so" ] || so=$(soname_of ncurses)
	# the full-screen view needs a terminal: a tmux pane
	sock="hpm-dlopen-$$"
	tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 \
		"TERM=xterm HPMSTAT_DLOPEN_DIR='$T/none' '$H' top -n 1 -d 0.1 --backend emu 2>'$T/top.err'; echo \$? >'$T/top.rc'"
	i=0
	while [ ! -s "$T/top.rc" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	tmux -L "$sock" kill-server 2>/dev/null
	grep -qF "warning: $so is not installed (Debian package libncurses" "$T/top.err" &&
		[ "$(cat "$T/top.rc")" = 0 ]
	rc=$?
	ok $rc "top without ncurses in a terminal: batch mode, saying which library is missing"
	[ $rc -eq 0 ] || diag "$(cat "$T/top.err" "$T/top.rc" 2>/dev/null)"
else
	skip "built without ncurses or no tmux"
fi

# relative relocations applied one by one (24 bytes each in .rela.dyn)
# are what DT_RELR packs; configure asks for it where the linker can
if grep -q 'pack-relative-relocs' "$top_builddir/Makefile" && command -v readelf >/dev/null; then
	n=$(readelf -rW "$H" | grep -c '_RELATIVE ')
	readelf -d "$H" | grep -q '(RELR)' && [ "$n" -lt 100 ]
	ok $? "the relative relocations are packed (DT_RELR; $n left in .rela.dyn)"
else
	skip "the linker cannot pack relative relocations"
fi

done_testing
