# vm-lib.sh: boot a real riscv64 Linux 6.1 kernel under QEMU, with Debian's
# OpenSBI, and run hpmstat inside (sourced by the tests/riscv TAP tests,
# after tests/lib.sh).
#
# Owns: finding or building what a boot needs (kernel Image, a static
# riscv64 hpmstat cross-built from this source tree, /init, the busy
# workload, device trees), booting, and splitting the guest's framed
# results into files. Everything built goes to a cache
# ($HPMSTAT_RISCV_CACHE, default tests/riscv/cache in the build tree),
# shared by the tests under a lock and rebuilt only when its sources change.
#
#   vm_require            skip the test (TAP "1..0 # SKIP why") when a tool or
#                         the kernel is missing or HPMSTAT_RISCV_TESTS=no;
#                         else build what is stale and set VM_HPMSTAT, VM_BUSY
#   vm_require_bpf        after vm_require: skip unless the riscv64 hpmstat
#                         has libbpf and the BPF kernel is there (then
#                         tests/bpf's test-taskcount and duty and
#                         bench/bpf-bench are in the guest's /bin too)
#   vm_run NAME [--kernel bpf] [--cpu CPU] [--raw-dtb] [--smp N] [--icount]
#          [-f HOST:GUEST] [--timeout S] < CMDS
#                         boot once, run the command lines of CMDS (see
#                         init.c), results in $VM_OUT/NAME/I.{out,err,rc} and
#                         files/; 0 when the guest ran them all
#   vm_out NAME I         the prefix $VM_OUT/NAME/I
VM_FW=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin
VM_KERNEL_NAME=Image-6.1.192-riscv64
# the same kernel with bpf() and raw tracepoints (kernel-bpf.config), for
# per-task counting through BPF; prebuilt beside the tests
VM_KERNEL_BPF_NAME=Image-6.1.192-bpf-riscv64
: "${top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
VM_CACHE=${HPMSTAT_RISCV_CACHE:-$top_builddir/tests/riscv/cache}
VM_ASSETS=${HPMSTAT_RISCV_ASSETS:-$top_srcdir/../shared/riscv-vm/assets}
VM_SRC=$top_srcdir/tests/riscv
VM_OWN_ASSETS=$VM_SRC/assets

vm_need_tools() {
	local t
	[ "${HPMSTAT_RISCV_TESTS:-yes}" = no ] && skip_all "HPMSTAT_RISCV_TESTS=no"
	for t in qemu-system-riscv64:qemu-system-misc riscv64-linux-gnu-gcc:gcc-riscv64-linux-gnu \
		dtc:device-tree-compiler cpio:cpio xz:xz-utils perl:perl flock:util-linux; do
		command -v "${t%%:*}" >/dev/null 2>&1 ||
			skip_all "${t%%:*} not found (apt-get install ${t#*:})"
	done
	[ -f "$VM_FW" ] || skip_all "no OpenSBI firmware $VM_FW (apt-get install opensbi)"
	[ -f /usr/riscv64-linux-gnu/lib/libc.a ] ||
		skip_all "no static riscv64 libc (apt-get install libc6-dev-riscv64-cross)"
}

# The kernel: the prebuilt asset beside the project, else `make riscv-assets`'s.
# The BPF kernel (vm_find_kernel bpf, into VM_KERNEL_BPF): the one in
# tests/riscv/assets, else riscv-assets's kbuild-bpf.
vm_find_kernel() {
	local name=$VM_KERNEL_NAME assets=$VM_ASSETS kbuild=kbuild var=VM_KERNEL k
	if [ "${1:-}" = bpf ]; then
		name=$VM_KERNEL_BPF_NAME assets=$VM_OWN_ASSETS kbuild=kbuild-bpf var=VM_KERNEL_BPF
	fi
	k=$VM_CACHE/$name
	if [ ! -s "$k" ] && [ -f "$assets/$name.xz" ]; then
		xz -dc "$assets/$name.xz" >"$k.tmp.$$" && mv "$k.tmp.$$" "$k"
	fi
	[ -s "$k" ] || k=$VM_CACHE/$kbuild/arch/riscv/boot/Image
	printf -v "$var" '%s' "$k"
	[ -s "$k" ]
}

# A static riscv64 jansson: the asset, else the one riscv-assets built.
vm_find_jansson() {
	VM_SYSROOT=$VM_CACHE/sysroot
	[ -f "$VM_SYSROOT/lib/libjansson.a" ] && return 0
	[ -d "$VM_ASSETS/jansson-2.14-riscv64" ] || return 1
	mkdir -p "$VM_SYSROOT" && cp -r "$VM_ASSETS/jansson-2.14-riscv64/." "$VM_SYSROOT/" &&
		chmod -R u+w "$VM_SYSROOT" &&
		sed -i "s|^prefix=.*|prefix=$VM_SYSROOT|" "$VM_SYSROOT/lib/pkgconfig/jansson.pc"
}

# newer TARGET SRC...: TARGET missing or older than a SRC
vm_stale() {
	local t=$1 s
	shift
	[ -e "$t" ] || return 0
	for s; do [ "$s" -nt "$t" ] && return 0; done
	return 1
}

# hpmstat for riscv64 from this source tree: the sources are copied with
# their times into the cache (only what changed makes make rebuild), then
# configured once for the cross host and built with the host build's
# native generators.
vm_build_hpmstat() {
	local src=$VM_CACHE/src log=$VM_CACHE/build.log
	mkdir -p "$src"
	(cd "$top_srcdir" && tar -c --exclude-vcs --exclude='*.o' --exclude='*.a' --exclude=.deps \
		--exclude=.dirstamp --exclude=Makefile --exclude=config.status --exclude=config.h \
		--exclude=config.log --exclude=stamp-h1 --exclude=src/hpmstat --exclude=src/hpmtop \
		--exclude=src/kmh/gen/kmh-jevents --exclude=src/arm64/gen/arm64-jevents --exclude=src/gen/metrics2c \
		--exclude=autom4te.cache --exclude=src/bpf/taskcount.skel.h --exclude=src/bpf/taskcount.bpf.o \
		configure configure.ac Makefile.am Makefile.in aclocal.m4 config.h.in build-aux m4 \
		src events profiles man README.md tests/tap.c tests/tap.h tests/bpf/test-taskcount.c tests/bpf/duty.c bench/bpf-bench.c \
		$(find . -name '*.mk' -not -path '*/cache/*' -not -path './.git/*')) |
		tar -x -C "$src" || return 1
	local g
	for g in src/kmh/gen/kmh-jevents src/arm64/gen/arm64-jevents src/gen/metrics2c; do
		mkdir -p "$src/${g%/*}"
		[ -x "$top_builddir/$g" ] || { echo "no host generator $g: build first" >"$log"; return 1; }
		cmp -s "$top_builddir/$g" "$src/$g" || cp -p "$top_builddir/$g" "$src/$g"
	done
	# with libbpf when riscv-assets built it (a static libbpf, libelf and
	# zlib in the sysroot): configured again when that changes
	local flavour=plain
	[ -f "$VM_SYSROOT/lib/libbpf.a" ] && flavour=bpf
	[ "$(cat "$src/.flavour" 2>/dev/null)" = "$flavour" ] || rm -f "$src/config.status"
	(
		cd "$src" || exit 1
		if [ ! -f config.status ]; then
			PKG_CONFIG_LIBDIR=$VM_SYSROOT/lib/pkgconfig ./configure --host=riscv64-linux-gnu \
				--without-ncurses --without-libpfm4 LDFLAGS=-static >"$log" 2>&1 || exit 1
			echo "$flavour" >.flavour
		fi
		local targets=(src/hpmstat)
		[ "$flavour" = bpf ] && targets+=(tests/bpf/test-taskcount tests/bpf/duty bench/bpf-bench)
		nice make -j2 -o src/kmh/gen/kmh-jevents -o src/arm64/gen/arm64-jevents -o src/gen/metrics2c \
			"${targets[@]}" >>"$log" 2>&1 || exit 1
	) || return 1
	local p
	for p in src/hpmstat:hpmstat tests/bpf/test-taskcount:test-taskcount tests/bpf/duty:duty bench/bpf-bench:bpf-bench; do
		[ -f "$src/${p%%:*}" ] || continue
		if vm_stale "$VM_CACHE/${p#*:}-rv64" "$src/${p%%:*}"; then
			riscv64-linux-gnu-strip -o "$VM_CACHE/${p#*:}-rv64.tmp" "$src/${p%%:*}" &&
				mv "$VM_CACHE/${p#*:}-rv64.tmp" "$VM_CACHE/${p#*:}-rv64"
		fi
	done
	[ "$flavour" = bpf ] || rm -f "$VM_CACHE/test-taskcount-rv64" "$VM_CACHE/duty-rv64" "$VM_CACHE/bpf-bench-rv64"
}

vm_build() {
	vm_find_kernel || { echo "no riscv64 kernel: run make riscv-assets"; return 1; }
	vm_find_jansson || { echo "no static riscv64 jansson: run make riscv-assets"; return 1; }
	local p
	for p in init busy; do
		if vm_stale "$VM_CACHE/$p" "$VM_SRC/$p.c"; then
			riscv64-linux-gnu-gcc -static -O2 -Wall -o "$VM_CACHE/$p.tmp" "$VM_SRC/$p.c" &&
				mv "$VM_CACHE/$p.tmp" "$VM_CACHE/$p" || { echo "cannot build $p.c"; return 1; }
		fi
	done
	vm_build_hpmstat || { echo "riscv64 hpmstat build failed: $(tail -3 "$VM_CACHE/build.log" | tr '\n' ' ')"; return 2; }
}

vm_require() {
	vm_need_tools
	mkdir -p "$VM_CACHE" || skip_all "cannot create $VM_CACHE"
	local why rc
	exec 9>"$VM_CACHE/.lock"
	flock 9
	why=$(vm_build 2>&1)
	rc=$?
	flock -u 9
	exec 9>&-
	# a missing kernel is a skip; a build that fails is a failure
	[ $rc -eq 1 ] && skip_all "$why"
	if [ $rc -ne 0 ]; then
		echo "1..1"
		echo "not ok 1 - the riscv64 VM pieces build: $why"
		exit 1
	fi
	vm_find_kernel
	VM_HPMSTAT=$VM_CACHE/hpmstat-rv64
	VM_BUSY=$VM_CACHE/busy
	VM_OUT=$(mktemp -d)
	trap 'main_shell && { [ "${KEEP:-}" ] || [ "$tap_fail" -ne 0 ] || rm -rf "$VM_OUT"; rm -f "$tap_out" "$tap_err"; }' EXIT
}

vm_require_bpf() {
	grep -q '^#define HAVE_LIBBPF 1' "$VM_CACHE/src/config.h" 2>/dev/null ||
		skip_all "no static riscv64 libbpf for the riscv64 hpmstat: run make riscv-assets"
	vm_find_kernel bpf || skip_all "no riscv64 kernel with BPF ($VM_KERNEL_BPF_NAME): run make riscv-assets"
}

vm_out() { printf '%s/%s/%s' "$VM_OUT" "$1" "$2"; }

# The device tree for a CPU and hart count: QEMU's own, or with raw events
# mapped to counters 3-31 (riscv,raw-event-to-mhpmcounters: any raw value
# with bits 63:48 clear), plus the riscv,event-to-mhpmevent rows OpenSBI 1.1
# reads first (without them it ignores the raw map).
vm_dtb() {
	local cpu=$1 smp=$2 raw=$3
	local key out
	key=$(printf '%s-%s' "$cpu" "$smp" | tr -c 'A-Za-z0-9._-' '_')
	out=$VM_CACHE/dt-$key-$raw.dtb
	[ -s "$out" ] && { echo "$out"; return 0; }
	local tmp
	tmp=$(mktemp -d)
	qemu-system-riscv64 -machine "virt,dumpdtb=$tmp/q.dtb" -cpu "$cpu" -smp "$smp" -m 512M \
		-nographic >/dev/null 2>&1 </dev/null
	[ -s "$tmp/q.dtb" ] || { rm -rf "$tmp"; return 1; }
	if [ "$raw" = raw ]; then
		dtc -q -I dtb -O dts "$tmp/q.dtb" -o "$tmp/q.dts" &&
			awk '/compatible = "riscv,pmu";/ {
				print; match($0, /^[ \t]*/); i = substr($0, 1, RLENGTH)
				print i "riscv,event-to-mhpmevent = <0x1 0x0 0x1>, <0x2 0x0 0x2>;"
				print i "riscv,raw-event-to-mhpmcounters = <0x0 0x0 0xffff0000 0x0 0xfffffff8>;"
				next } { print }' "$tmp/q.dts" >"$tmp/r.dts" &&
			grep -q raw-event-to-mhpmcounters "$tmp/r.dts" &&
			dtc -q -I dts -O dtb "$tmp/r.dts" -o "$tmp/q.dtb" || { rm -rf "$tmp"; return 1; }
	fi
	mv "$tmp/q.dtb" "$out"
	rm -rf "$tmp"
	echo "$out"
}

vm_run() {
	local name=$1
	shift
	local cpu=rv64,sscofpmf=true,sstc=true,marchid=0x19 smp=2 raw=qemu icount=0 timeout=120
	local files=() kernel=$VM_KERNEL
	while [ $# -gt 0 ]; do
		case $1 in
		--kernel)
			[ "$2" = bpf ] || { echo "vm_run: --kernel bpf only" >&2; return 2; }
			kernel=$VM_KERNEL_BPF
			shift 2
			;;
		--cpu) cpu=$2; shift 2 ;;
		--raw-dtb) raw=raw; shift ;;
		--smp) smp=$2; shift 2 ;;
		--icount) icount=1; smp=1; shift ;;
		-f) files+=("$2"); shift 2 ;;
		--timeout) timeout=$2; shift 2 ;;
		*) echo "vm_run: unknown option $1" >&2; return 2 ;;
		esac
	done
	local dir=$VM_OUT/$name root
	mkdir -p "$dir/files"
	root=$(mktemp -d)
	chmod 755 "$root"
	mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/run" "$root/tmp"
	cp "$VM_CACHE/init" "$root/init"
	cp "$VM_HPMSTAT" "$root/bin/hpmstat"
	cp "$VM_BUSY" "$root/bin/busy"
	local p
	for p in test-taskcount duty bpf-bench; do
		[ -f "$VM_CACHE/$p-rv64" ] && cp "$VM_CACHE/$p-rv64" "$root/bin/$p"
	done
	cat >"$root/cmds"
	local f
	for f in "${files[@]}"; do
		mkdir -p "$root/$(dirname "${f#*:}")" && cp -r "${f%%:*}" "$root/${f#*:}"
	done
	(cd "$root" && find . | cpio -o -H newc --quiet -R 0:0) >"$dir/initramfs.cpio"
	rm -rf "$root"
	local dtb
	dtb=$(vm_dtb "$cpu" "$smp" "$raw") || { echo "vm_run: no device tree for $cpu" >&2; return 1; }
	local q=(qemu-system-riscv64 -machine virt -cpu "$cpu" -smp "$smp" -m 512M -nographic
		-no-reboot -bios "$VM_FW" -kernel "$kernel" -initrd "$dir/initramfs.cpio"
		-dtb "$dtb" -append "console=ttyS0 quiet"
		-device virtio-serial-device -chardev "file,id=rvt,path=$dir/results"
		-device "virtconsole,chardev=rvt")
	[ $icount = 1 ] && q+=(-icount shift=0,sleep=off)
	local t0 t1 qrc attempt
	t0=$(date +%s.%N)
	# a boot that never reaches /init (no frame at all: seen once on a loaded
	# machine, stuck after OpenSBI) is the machine's, not hpmstat's: boot
	# again. So is a guest kernel that panics: Linux 6.1.192 once oopsed in
	# perf_event_task_tick (a NULL pointer in the timer interrupt, while
	# sched_exec migrated a task) in the middle of a boot's commands; no
	# user program may crash a kernel, so that is the kernel's bug, said
	# in the log with the oops's first lines, and the boot runs again.
	for attempt in 1 2; do
		rm -f "$dir/results"
		timeout -k 5 "$timeout" "${q[@]}" </dev/null >"$dir/console.log" 2>&1
		qrc=$?
		if grep -q 'Kernel panic' "$dir/console.log"; then
			echo "# vm_run $name: the guest kernel panicked (attempt $attempt):"
			grep -m 3 -E 'Unable to handle|epc :|Kernel panic' "$dir/console.log" |
				tr -d '\r' | sed 's/^/#   /'
			cp "$dir/console.log" "$dir/console-panic-$attempt.log"
			[ $attempt = 1 ] && continue
		fi
		[ -s "$dir/results" ] && break
		[ $attempt = 1 ] && echo "# vm_run $name: no output from the guest (qemu exit $qrc), booting again"
	done
	t1=$(date +%s.%N)
	VM_SECONDS=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	# split the frames: "@@RVT i KIND [NAME] N\n" + N bytes, "@@RVT i rc TEXT\n"
	perl -e '
		my ($in, $dir) = @ARGV; open(my $f, "<:raw", $in) or exit 3; local $/; my $d = <$f>;
		my $done = 0;
		while ($d =~ /\G(.*?)\@\@RVT ([^\n]*)\n/gs) {
			my @w = split / /, $2;
			if ($w[0] eq "done") { $done = 1; last }
			my ($i, $k) = @w;
			my ($path, $n);
			if ($k eq "rc") { open(my $o, ">", "$dir/$i.rc"); print $o join(" ", @w[2..$#w]), "\n"; next }
			if ($k eq "file") { $path = "$dir/files/$w[2]"; $n = $w[3] } elsif ($k eq "out" || $k eq "err") { $path = "$dir/$i.$k"; $n = $w[2] } else { next }
			my $pos = pos($d); open(my $o, ">:raw", $path); print $o substr($d, $pos, $n); pos($d) = $pos + $n;
		}
		exit($done ? 0 : 1);' "$dir/results" "$dir" 2>/dev/null
	local prc=$?
	if [ $prc -ne 0 ]; then
		echo "vm_run $name: the guest did not finish (qemu exit $qrc); console tail:" >&2
		tail -5 "$dir/console.log" | tr -d '\r' >&2
		return 1
	fi
	return 0
}
