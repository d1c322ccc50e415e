#!/bin/sh
# tests/sym/sym.sh: the symbolizer (through tests/sym/sym-tool) against
# independent truth: the functions nm lists in binaries built here (PIE,
# non-PIE, a shared library), placed where the running program says its
# maps and functions are; objdump's name@plt entries; readelf's build id;
# stripped copies (no name, never a neighbour's); separate debug files by
# .gnu_debuglink (with gdb's CRC check) and by build id; a binary rebuilt
# after recording; riscv64 (cross gcc) and AArch64 (clang, lld) binaries
# placed as the kernel places their PT_LOAD segments; a fake kallsyms
# worked out by hand; and perf script's names for the samples of a perf
# record.
. "$top_srcdir/tests/lib.sh"
TOOL=$top_builddir/tests/sym/sym-tool
S=$top_srcdir/tests/sym
for t in gcc nm readelf objcopy strip objdump; do
	command -v $t >/dev/null 2>&1 || skip_all "$t not installed"
done
T=$(mktemp -d)
trap 'main_shell && rm -rf "$T" "$tap_out" "$tap_err"' EXIT
TAB=$(printf '\t')
mkdir "$T/nodebug"

gcc -O1 -g -fPIC -shared -o "$T/libsymt.so" "$S/lib.c" || exit 1
build() { # OUT CFLAGS...: prog linked with libsymt
	out=$1; shift
	gcc -O1 -g "$@" -o "$out" "$S/prog.c" -L"$T" -lsymt -Wl,-rpath,"$T"
}
build "$T/prog-pie" -fPIE -pie || exit 1
build "$T/prog-nopie" -fno-pie -no-pie || exit 1
"$T/prog-pie" maps >"$T/pie.maps" || exit 1
"$T/prog-nopie" maps >"$T/nopie.maps" || exit 1

# without libelf: the DSO and the file offset, and why
noelf_checks() {
	rt=$(awk '$2=="hot_a"{print $3}' "$T/pie.maps")
	{ awk '$1=="map"{print "mmap 1",$2,$3,$4,$5}' "$T/pie.maps"; echo "resolve 1 $rt"; } |
		"$TOOL" >"$T/out"
	IFS=$TAB read -r dso name soff doff why <"$T/out"
	ok $([ "$dso" = "$T/prog-pie" ] && [ "$name" = "[unknown]" ] && [ "$why" = "built without libelf" ]; echo $?) \
		"without libelf: DSO and why ($dso $name $doff $why)"
}
NOELF=
echo "fileid $T/prog-pie" | "$TOOL" | grep -q 'without libelf' && NOELF=1

# fn MAPS NAME: the running program's address of NAME
fn() { awk -v n="$2" '$1=="fn" && $2==n {print $3}' "$1"; }
# nmval REF NAME: NAME's value in REF per nm
nmval() { nm --defined-only "$1" | awk -v n="$2" '$3==n {print "0x" $1; exit}'; }
# funcs REF: "value size" of REF's sized functions; aliases REF: "0xvalue name" of all
funcs() { nm -S --defined-only "$1" | awk 'NF==4 && $3 ~ /^[tTW]$/ && $2 !~ /^0+$/ {print $1, $2}' | sort -u; }
aliases() {
	nm --defined-only "$1" | awk 'NF==3 && $2 ~ /^[tTWi]$/ {print $1, $3}' |
		while read -r v n; do printf '%#x %s\n' "0x$v" "$n"; done
}

# check_all DESC MAPS FROM TO REF BASE MODE [TOOL OPTIONS]: map MAPS (FROM's
# maps named TO), resolve the first and last byte of every sized function
# of REF (nm) at BASE + value; MODE names: the name is one of the names nm
# gives for the value, with the right offsets; MODE unknown: no name, the
# same DSO offset, and a why saying stripped.
check_all() {
	desc=$1 maps=$2 from=$3 to=$4 ref=$5 base=$6 mode=$7
	shift 7
	: >"$T/exp"
	{
		awk -v f="$from" -v t="$to" '$1=="map"{p=$5; if (p==f) p=t; print "mmap 1",$2,$3,$4,p}' "$maps"
		funcs "$ref" | while read -r v sz; do
			for off in 0 $((0x$sz - 1)); do
				printf 'resolve 1 %#x\n' $((base + 0x$v + off))
				printf '%#x\t%#x\t%#x\n' $((0x$v + off)) "0x$v" "$off" >>"$T/exp"
			done
		done
	} >"$T/in"
	aliases "$ref" >"$T/aliases"
	if ! "$TOOL" "$@" <"$T/in" >"$T/out" 2>"$T/err"; then
		ok 1 "$desc"
		diag "$(cat "$T/err")"
		return
	fi
	paste "$T/exp" "$T/out" >"$T/both"
	bad=$(awk -F"$TAB" -v mode="$mode" -v dso="$to" '
		FILENAME == ARGV[1] { split($0, a, " "); al[a[1]] = al[a[1]] "|" a[2] "|"; next }
		{ n++
		  if (mode == "names") good = index(al[$2], "|" $5 "|") && $6 == $3 && $7 == $1 && $4 == dso
		  else good = $5 == "[unknown]" && $7 == $1 && $4 == dso && $8 ~ /stripped/
		  if (!good) { bad++; print "# " $0 > "/dev/stderr" } }
		END { if (n < 4) print "too few functions"; else print bad + 0 }' "$T/aliases" "$T/both" 2>"$T/bad")
	n=$(wc -l <"$T/exp")
	ok $([ "$bad" = 0 ]; echo $?) "$desc ($n addresses, $bad wrong)"
	[ "$bad" = 0 ] || diag "$(head -5 "$T/bad")"
}

elf_checks() {
base_pie=$(($(fn "$T/pie.maps" main) - $(nmval "$T/prog-pie" main)))
base_lib=$(($(fn "$T/pie.maps" lib_work) - $(nmval "$T/libsymt.so" lib_work)))
check_all "PIE executable: every function named" "$T/pie.maps" "$T/prog-pie" "$T/prog-pie" \
	"$T/prog-pie" $base_pie names --debug-dir "$T/nodebug"
check_all "non-PIE executable: every function named" "$T/nopie.maps" "$T/prog-nopie" "$T/prog-nopie" \
	"$T/prog-nopie" 0 names --debug-dir "$T/nodebug"
check_all "shared library: every function named" "$T/pie.maps" "$T/libsymt.so" "$T/libsymt.so" \
	"$T/libsymt.so" $base_lib names --debug-dir "$T/nodebug"

# the running program's own function pointers, name by name
for m in pie nopie; do
	{
		awk '$1=="map"{print "mmap 1",$2,$3,$4,$5}' "$T/$m.maps"
		for f in hot_a cold_b main lib_helper; do printf 'resolve 1 %#x\n' $(($(fn "$T/$m.maps" $f) + 1)); done
	} | "$TOOL" --debug-dir "$T/nodebug" | cut -f2,3 | tr '\t\n' ' ;' >"$T/out"
	out_is "$m: the program's function pointers" "hot_a 0x1;cold_b 0x1;main 0x1;lib_helper 0x1;" cat "$T/out"
done

# PLT entries, as objdump names them in .plt, .plt.sec (when IBT made one)
# and .plt.got (x86-64: functions both called and taken the address of);
# and the lazy-binding header, what of .plt lies before its first entry
# (all of it beside a .plt.sec), ".plt" as perf 6.3 and later name it
plt_check() { # DESC BIN MAPS BASE
	${OBJDUMP:-objdump} -d -j .plt -j .plt.sec -j .plt.got "$2" 2>/dev/null |
		sed -n 's/^\([0-9a-f]*\) <\(.*@plt\)>:$/\1 \2/p' >"$T/plt"
	if [ ! -s "$T/plt" ]; then
		ok 1 "$1: objdump lists no @plt entries"
		return
	fi
	plt_at=$(readelf -SW "$2" | sed -n 's/.*] \.plt  *PROGBITS  *\([0-9a-f]*\) .*/\1/p')
	if [ -n "$plt_at" ] && ! grep -q "^0*$plt_at " "$T/plt"; then
		echo "$plt_at .plt" >>"$T/plt"
	fi
	{
		awk '$1=="map"{print "mmap 1",$2,$3,$4,$5}' "$3"
		while read -r a n; do printf 'resolve 1 %#x\n' $(($4 + 0x$a + 2)); done <"$T/plt"
	} | "$TOOL" --debug-dir "$T/nodebug" | cut -f2 >"$T/got"
	cut -d' ' -f2 "$T/plt" >"$T/want"
	ok $(cmp -s "$T/got" "$T/want"; echo $?) "$1: $(tr '\n' ' ' <"$T/want")"
	cmp -s "$T/got" "$T/want" || diag "got: $(tr '\n' ' ' <"$T/got")"
}
plt_check "PLT entries of the PIE" "$T/prog-pie" "$T/pie.maps" $base_pie
plt_check "PLT entries of the non-PIE" "$T/prog-nopie" "$T/nopie.maps" 0
# libc's: its .rela.plt is not in its PLT's order, and has IRELATIVE
# entries (objdump's *ABS*+0xADDEND@plt)
libc=$(awk '$1=="map" && $5 ~ /\/libc[.-]/ {print $5; exit}' "$T/pie.maps")
libc_base=$(awk -v l="$libc" '$1=="map" && $5==l && $4=="0" {print $2; exit}' "$T/pie.maps")
if [ -n "$libc" ] && [ -n "$libc_base" ] && readelf -SW "$libc" | grep -q ' \.plt '; then
	plt_check "PLT entries of $libc" "$libc" "$T/pie.maps" $((libc_base))
else
	skip "no libc with a .plt"
fi
# libc's own functions by its installed debug file (libc6-dbg), when there
lbid=$(readelf -n "$libc" 2>/dev/null | awk '/Build ID/ {print $3; exit}')
ldbg=/usr/lib/debug/.build-id/$(echo "$lbid" | cut -c1-2)/$(echo "$lbid" | cut -c3-).debug
if [ -n "$lbid" ] && [ -f "$ldbg" ] && [ -n "$libc_base" ]; then
	check_all "libc through its debug file: every function named" "$T/pie.maps" "$libc" "$libc" \
		"$ldbg" $((libc_base)) names --debug-dir /usr/lib/debug
else
	skip "no debug file for libc (libc6-dbg)"
fi
if build "$T/prog-ibt" -fPIE -pie -fcf-protection=full -Wl,-z,ibtplt 2>/dev/null &&
	readelf -SW "$T/prog-ibt" | grep -q '\.plt\.sec'; then
	"$T/prog-ibt" maps >"$T/ibt.maps"
	plt_check "PLT entries in .plt.sec (IBT)" "$T/prog-ibt" "$T/ibt.maps" \
		$(($(fn "$T/ibt.maps" main) - $(nmval "$T/prog-ibt" main)))
else
	skip "no .plt.sec from this linker"
fi

# stripped: no names (not a neighbour's), with the DSO and offset
cp "$T/prog-pie" "$T/prog-s" && strip -s "$T/prog-s"
check_all "stripped PIE: [unknown] everywhere" "$T/pie.maps" "$T/prog-pie" "$T/prog-s" \
	"$T/prog-pie" $base_pie unknown --debug-dir "$T/nodebug"
cp "$T/prog-nopie" "$T/prog-nopie-s" && strip -s "$T/prog-nopie-s"
check_all "stripped non-PIE: [unknown] everywhere" "$T/nopie.maps" "$T/prog-nopie" "$T/prog-nopie-s" \
	"$T/prog-nopie" 0 unknown --debug-dir "$T/nodebug"
# a stripped library keeps .dynsym: the exported function is named, the
# static one next to it is not
cp "$T/libsymt.so" "$T/libsymt-s.so" && strip -s "$T/libsymt-s.so"
{
	awk -v l="$T/libsymt.so" '$1=="map"{p=$5; if (p==l) p=p; print "mmap 1",$2,$3,$4,p}' "$T/pie.maps" |
		sed "s|$T/libsymt.so\$|$T/libsymt-s.so|"
	printf 'resolve 1 %#x\n' $(($(fn "$T/pie.maps" lib_work) + 1)) $(($(fn "$T/pie.maps" lib_helper) + 1))
} | "$TOOL" --debug-dir "$T/nodebug" | cut -f2,5 | tr '\t\n' ' ;' >"$T/out"
out_is "stripped library: .dynsym names the exported function only" \
	"lib_work -;[unknown] stripped: no symbol covers the address;" cat "$T/out"

# a recorded name that is now a FIFO: no hang, the reason
mkfifo "$T/fifo"
printf 'mmap 1 0x1000 0x1000 0 %s\nresolve 1 0x1010\n' "$T/fifo" >"$T/in"
out_is "a FIFO under a recorded name" "[unknown]${TAB}0x10${TAB}cannot read: not a regular file" \
	sh -c "timeout 10 '$TOOL' <'$T/in' | cut -f2,4,5"

# another architecture: riscv64 binaries (when the cross compiler is
# there), placed as the kernel maps PT_LOAD segments (readelf -l): PIE at
# 0x2aaaaaa000, the library at 0x3ff7f00000; names from nm, PLT entries
# from riscv64 objdump
maps_of() { # FILE BASE: map lines as the kernel would place FILE's PT_LOAD segments
	readelf -lW "$1" | awk '$1 == "LOAD" {print $2, $3, $5}' | while read -r off va fsz; do
		st=$((va & ~0xfff))
		printf 'map %#x %#x %#x %s\n' $(($2 + st)) $(((va + fsz + 0xfff) / 0x1000 * 0x1000 - st)) \
			$((off & ~0xfff)) "$1"
	done
}
if command -v riscv64-linux-gnu-gcc >/dev/null 2>&1 &&
	riscv64-linux-gnu-gcc -O1 -g -fPIC -shared -o "$T/librv.so" "$S/lib.c" 2>/dev/null &&
	riscv64-linux-gnu-gcc -O1 -g -fPIE -pie -o "$T/prog-rv" "$S/prog.c" "$T/librv.so" 2>/dev/null; then
	{ maps_of "$T/prog-rv" 0x2aaaaaa000; maps_of "$T/librv.so" 0x3ff7f00000; } >"$T/rv.maps"
	check_all "riscv64 PIE: every function named" "$T/rv.maps" "$T/prog-rv" "$T/prog-rv" \
		"$T/prog-rv" 0x2aaaaaa000 names --debug-dir "$T/nodebug"
	check_all "riscv64 shared library: every function named" "$T/rv.maps" "$T/librv.so" "$T/librv.so" \
		"$T/librv.so" 0x3ff7f00000 names --debug-dir "$T/nodebug"
	if command -v riscv64-linux-gnu-objdump >/dev/null 2>&1; then
		OBJDUMP=riscv64-linux-gnu-objdump plt_check "riscv64 PLT entries" "$T/prog-rv" "$T/rv.maps" 0x2aaaaaa000
	else
		skip "no riscv64-linux-gnu-objdump"
	fi
else
	skip "no riscv64 cross compiler"
	skip "no riscv64 cross compiler"
	skip "no riscv64 cross compiler"
fi

# AArch64: a shared object built with clang and lld (no libc needed),
# PLT entries from llvm-objdump
if command -v clang >/dev/null 2>&1 && command -v ld.lld >/dev/null 2>&1 &&
	command -v llvm-objdump >/dev/null 2>&1 &&
	clang --target=aarch64-linux-gnu -O1 -fPIC -shared -nostdlib -fuse-ld=lld \
		-o "$T/liba64.so" "$S/a64.c" 2>/dev/null; then
	maps_of "$T/liba64.so" 0x7f00000000 >"$T/a64.maps"
	check_all "AArch64 shared object: every function named" "$T/a64.maps" "$T/liba64.so" \
		"$T/liba64.so" "$T/liba64.so" 0x7f00000000 names --debug-dir "$T/nodebug"
	OBJDUMP=llvm-objdump plt_check "AArch64 PLT entries" "$T/liba64.so" "$T/a64.maps" 0x7f00000000
else
	skip "no clang, lld and llvm-objdump for AArch64"
	skip "no clang, lld and llvm-objdump for AArch64"
fi

# separate debug files: .gnu_debuglink beside the file, in .debug/, in the
# debug dir under the file's directory; and by build id
objcopy --only-keep-debug "$T/prog-pie" "$T/prog-pie.debug"
mkdir -p "$T/dl" "$T/dl2/.debug" "$T/dbg3$T/dl3" "$T/dl3"
for d in dl dl2 dl3; do
	cp "$T/prog-pie" "$T/$d/prog"
	strip -s "$T/$d/prog"
	(cd "$T" && objcopy --add-gnu-debuglink=prog-pie.debug "$T/$d/prog")
done
cp "$T/prog-pie.debug" "$T/dl/"
cp "$T/prog-pie.debug" "$T/dl2/.debug/"
cp "$T/prog-pie.debug" "$T/dbg3$T/dl3/"
check_all "debuglink beside the file" "$T/pie.maps" "$T/prog-pie" "$T/dl/prog" \
	"$T/prog-pie" $base_pie names --debug-dir "$T/nodebug"
check_all "debuglink in .debug/" "$T/pie.maps" "$T/prog-pie" "$T/dl2/prog" \
	"$T/prog-pie" $base_pie names --debug-dir "$T/nodebug"
check_all "debuglink in the debug dir" "$T/pie.maps" "$T/prog-pie" "$T/dl3/prog" \
	"$T/prog-pie" $base_pie names --debug-dir "$T/dbg3"
# a debug file of another build under the linked name: its CRC differs
build "$T/prog-v2" -fPIE -pie -DVARIANT=2 && objcopy --only-keep-debug "$T/prog-v2" "$T/dl/prog-pie.debug"
check_all "debuglink with a wrong CRC: not used" "$T/pie.maps" "$T/prog-pie" "$T/dl/prog" \
	"$T/prog-pie" $base_pie unknown --debug-dir "$T/nodebug"
bid=$(readelf -n "$T/prog-pie" | awk '/Build ID/ {print $3}')
mkdir -p "$T/dbg/.build-id/$(echo "$bid" | cut -c1-2)"
cp "$T/prog-pie.debug" "$T/dbg/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug"
check_all "debug file by build id" "$T/pie.maps" "$T/prog-pie" "$T/prog-s" \
	"$T/prog-pie" $base_pie names --debug-dir "$T/dbg"

# build ids: readelf's; a binary rebuilt after recording gets no name
out_is "build id as readelf reads it" "$bid" sh -c "echo 'fileid $T/prog-pie' | '$TOOL'"
# with no section headers (e_shoff and e_shnum zeroed, 64-bit ELF) the
# build id comes from the PT_NOTE segment
if readelf -h "$T/prog-pie" | grep -q 'Class:.*ELF64'; then
	cp "$T/prog-pie" "$T/prog-nosh"
	printf '\000\000\000\000\000\000\000\000' | dd of="$T/prog-nosh" bs=1 seek=40 conv=notrunc 2>/dev/null
	printf '\000\000\000\000' | dd of="$T/prog-nosh" bs=1 seek=60 conv=notrunc 2>/dev/null
	out_is "build id from PT_NOTE without section headers" "$bid" sh -c "echo 'fileid $T/prog-nosh' | '$TOOL'"
fi
rt=$(printf '%#x' $(($(fn "$T/pie.maps" hot_a) + 1)))
maps_as() { awk -v f="$T/prog-pie" -v t="$1" -v id="$2" '$1=="map"{p=$5; if (p==f) print "mmap 1",$2,$3,$4,t,id; else print "mmap 1",$2,$3,$4,p}' "$T/pie.maps"; }
cp "$T/prog-pie" "$T/prog-re"
{ maps_as "$T/prog-re" "$bid"; echo "resolve 1 $rt"; } | "$TOOL" --debug-dir "$T/nodebug" | cut -f2,5 >"$T/out"
out_is "same build id in the MMAP2 record: named" "hot_a$TAB-" cat "$T/out"
build "$T/prog-re" -fPIE -pie -DVARIANT=3
{ maps_as "$T/prog-re" "$bid"; echo "resolve 1 $rt"; } | "$TOOL" --debug-dir "$T/nodebug" | cut -f2,5 >"$T/out"
out_is "rebuilt after recording (MMAP2 build id): no name" "[unknown]${TAB}build id differs from the recorded one" cat "$T/out"
{ maps_as "$T/prog-re" ""; echo "buildid $T/prog-re $bid"; echo "resolve 1 $rt"; } | "$TOOL" --debug-dir "$T/nodebug" | cut -f2,5 >"$T/out"
out_is "rebuilt after recording (build id feature): no name" "[unknown]${TAB}build id differs from the recorded one" cat "$T/out"

# section headers that lie, written over good binaries' (tests/lib.sh's
# set_section; type 8 is SHT_NOBITS: no bytes in the file, whatever the
# size says). A NOBITS .gnu_debuglink names no debug file: the copy of
# dl2/prog, whose good link is followed above, gets no names and keeps
# running
if readelf -h "$T/prog-pie" | grep -q 'Class:.*ELF64'; then
	cp "$T/dl2/prog" "$T/dl2/prog-nobits" && set_section "$T/dl2/prog-nobits" .gnu_debuglink 8 16
	check_all "NOBITS .gnu_debuglink: no debug file, no crash" "$T/pie.maps" "$T/prog-pie" \
		"$T/dl2/prog-nobits" "$T/prog-pie" $base_pie unknown --debug-dir "$T/nodebug"
	# a NOBITS .rela.plt of 1 TiB, then of 16 GiB (what was counted in
	# entries of sh_size: an allocation that fails, or one that does
	# not and a loop of 716 million rounds): the PLT names are lost,
	# every function keeps its name, and at once
	for sz in 1099511627776 17179869184; do
		cp "$T/prog-pie" "$T/prog-rela" && set_section "$T/prog-rela" .rela.plt 8 $sz
		check_all "NOBITS .rela.plt of $sz bytes: every function named" "$T/pie.maps" \
			"$T/prog-pie" "$T/prog-rela" "$T/prog-pie" $base_pie names --debug-dir "$T/nodebug"
		{ maps_as "$T/prog-rela" ""; echo "resolve 1 $rt"; } >"$T/in"
		out_is "NOBITS .rela.plt of $sz bytes: read within 5 s" "hot_a" \
			sh -c "timeout 5 '$TOOL' --debug-dir '$T/nodebug' <'$T/in' | cut -f2"
	done
else
	skip "not a 64-bit ELF host: no NOBITS .gnu_debuglink"
	skip "not a 64-bit ELF host: no NOBITS .rela.plt"
	skip "not a 64-bit ELF host: no NOBITS .rela.plt"
	skip "not a 64-bit ELF host: no NOBITS .rela.plt"
	skip "not a 64-bit ELF host: no NOBITS .rela.plt"
fi
}

# kallsyms, worked out by hand with perf's rules (symbols__fixup_end, then
# symbols__fixup_duplicate): a symbol runs to the next one, so of _stext
# and _text at one address only _text, read last, gets a size, and perf
# keeps the sized one; data names nothing; the last kernel symbol before
# the modules ends at roundup(start + 4096, 4096) = 0xffffffff81002000;
# modules are their own DSO "[mod]".
cat >"$T/kallsyms" <<'KS'
ffffffff81000000 T _stext
ffffffff81000000 T _text
ffffffff81000100 t helper_fn
ffffffff81000200 T do_work
ffffffff81000300 D some_data
ffffffff81000400 T last_core
ffffffffc0000000 t mod_fn	[mymod]
ffffffffc0000080 t mod_fn2	[mymod]
KS
for a in ffffffff81000010 ffffffff81000150 ffffffff81000250 ffffffff81000310 ffffffff81001fff \
	ffffffff81002000 ffffffffc0000010 ffffffffc0000090 ffffffff80000000; do
	echo "resolve -1 0x$a k"
done >"$T/in"
"$TOOL" --kallsyms "$T/kallsyms" <"$T/in" | cut -f1-3 | tr '\t\n' ' ;' >"$T/out"
out_is "kallsyms" "[kernel.kallsyms] _text 0x10;[kernel.kallsyms] helper_fn 0x50;[kernel.kallsyms] do_work 0x50;[kernel.kallsyms] [unknown] 0;[kernel.kallsyms] last_core 0x1bff;[kernel.kallsyms] [unknown] 0;[mymod] mod_fn 0x10;[mymod] mod_fn2 0x10;[kernel.kallsyms] [unknown] 0;" cat "$T/out"
sed 's/^[0-9a-f]*/0000000000000000/' "$T/kallsyms" >"$T/kallsyms0"
echo "resolve -1 0xffffffff81000150 k" | "$TOOL" --kallsyms "$T/kallsyms0" | cut -f2,5 >"$T/out"
out_is "kallsyms hidden by kptr_restrict: no names, why says so" \
	"[unknown]${TAB}kernel addresses hidden in $T/kallsyms0 (kptr_restrict)" cat "$T/out"
echo "resolve -1 0xffffffff81000150 k" | "$TOOL" --kallsyms "$T/none" | cut -f2,5 >"$T/out"
out_is "no kallsyms file" "[unknown]${TAB}cannot read $T/none: No such file or directory" cat "$T/out"

perf_check() {
# perf: record the program, feed its MMAP2 records, compare the names of
# every user-space sample with perf script's. Samples in PLT entries are
# left to objdump's names (checked above): perf 6.1 stretches the
# size-less _init over the PLT that follows it, and names the entries in
# .rela.plt's order, which is not the PLT's (libc's), so its name for a
# PLT sample is _init or often another entry's (ours: name@plt, or .plt
# in the lazy-binding header, as perf 6.3 and later name them).
if command -v perf >/dev/null 2>&1 &&
	perf record -q -e cpu-clock -c 100000 -o "$T/p.data" "$T/prog-pie" 3000 >/dev/null 2>"$T/perr"; then
	perf script -i "$T/p.data" --show-mmap-events 2>/dev/null |
		sed -n 's/^ *[^ ]* *\([0-9]*\)[ /].*PERF_RECORD_MMAP2 [0-9]*\/[0-9]*: \[\(0x[0-9a-f]*\)(\(0x[0-9a-f]*\)) @ \(0x[0-9a-f]*\|0\) .*\]: [-rwxps]* \(\/.*\)$/mmap \1 \2 \3 \4 \5/p' >"$T/pmaps"
	perf script -i "$T/p.data" -F pid,ip,sym,dso 2>/dev/null |
		awk '$2 !~ /^ffff/ && $NF ~ /^\(\// {sym=$3; for (i=4;i<NF;i++) sym=sym " " $i; print $1, $2, sym}' >"$T/psamples"
	{
		cat "$T/pmaps"
		awk '{print "resolve", $1, "0x" $2}' "$T/psamples"
	} | "$TOOL" --debug-dir /usr/lib/debug >"$T/out" 2>"$T/err"
	n=$(wc -l <"$T/psamples")
	bad=$(cut -d' ' -f3- "$T/psamples" | paste - "$T/out" | awk -F"$TAB" '$1 != $3 && $1 != "[unknown]" && !(($1 == "_init" || $1 ~ /@plt$/) && ($3 ~ /@plt$/ || $3 == ".plt")) {b++; print "# perf " $1 " ours " $3 " " $2 > "/dev/stderr"} END {print b + 0}' 2>"$T/bad")
	hot=$(cut -f2 "$T/out" | grep -c '^hot_a$')
	# kernel samples, named from /proc/kallsyms as perf script names them
	perf script -i "$T/p.data" -F ip,sym,dso 2>/dev/null |
		awk '$1 ~ /^ffff/ && $NF == "([kernel.kallsyms])" {print $1, $2}' >"$T/ksamples"
	if [ -s "$T/ksamples" ] && awk '$1 != "0000000000000000" {f=1} END {exit !f}' /proc/kallsyms; then
		awk '{print "resolve -1 0x" $1 " k"}' "$T/ksamples" | "$TOOL" --kallsyms /proc/kallsyms >"$T/kout"
		kbad=$(cut -d' ' -f2 "$T/ksamples" | paste - "$T/kout" | awk -F"$TAB" '$1 != $3 {b++} END {print b + 0}')
		ok $([ "$kbad" = 0 ]; echo $?) "perf record: $(wc -l <"$T/ksamples") kernel samples, $kbad names differ"
	else
		skip "no kernel samples or kallsyms hidden"
	fi
	ok $([ "$n" -gt 50 ] && [ "$bad" = 0 ] && [ $((hot * 2)) -gt "$n" ]; echo $?) \
		"perf record: $n user samples, $bad names differ from perf script's, hot_a in $hot"
	[ "$bad" = 0 ] || diag "$(head -5 "$T/bad")"
else
	skip "perf record unavailable: $(head -1 "$T/perr" 2>/dev/null)"
	skip "perf record unavailable"
fi
}

if [ -n "$NOELF" ]; then
	noelf_checks
	skip "without libelf: no ELF names to check"
else
	elf_checks
	perf_check
fi
done_testing
