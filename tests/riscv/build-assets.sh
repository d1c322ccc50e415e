#!/bin/bash
# build-assets.sh: what the riscv64 VM tests need and no prebuilt asset
# gives, into $HPMSTAT_RISCV_CACHE (where vm-lib.sh looks):
#   kbuild/      Linux 6.1 from Debian's linux-source-6.1, defconfig +
#                kernel.config (about 10 minutes on 2 cores); skipped when
#                the asset Image-6.1.192-riscv64.xz sits in ../shared
#   kbuild-bpf/  the same + kernel-bpf.config (bpf(), raw tracepoints, CPU
#                hotplug); skipped when tests/riscv/assets has its Image
#   sysroot/     a static riscv64 jansson (skipped when ../shared has it),
#                and zlib, elfutils' libelf and libbpf for the riscv64
#                hpmstat's per-task counting through BPF: Debian 12's own
#                sources (`apt-get source`, which needs a deb-src line),
#                about 2 minutes
# HPMSTAT_RISCV_KERNELS=yes builds both kernels even when assets exist (to
# renew tests/riscv/assets: xz -9 kbuild-bpf/arch/riscv/boot/Image).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${HPMSTAT_RISCV_CACHE:?set HPMSTAT_RISCV_CACHE}
shared=${HPMSTAT_RISCV_ASSETS:-$here/../../../shared/riscv-vm/assets}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
jobs=${JOBS:-2}
sysroot=$cache/sysroot
say() { echo "build-assets.sh: $*"; }
die() { echo "build-assets.sh: $*" >&2; exit 1; }

# kernel DIR FRAGMENT...: defconfig + the fragments, then the Image
kernel() {
	local out=$cache/$1 k=$cache/linux-source-6.1
	shift
	[ -s "$out/arch/riscv/boot/Image" ] && return 0
	local tarball=/usr/src/linux-source-6.1.tar.xz
	[ -f "$tarball" ] || die "no $tarball (apt-get install linux-source-6.1)"
	if [ ! -f "$k/Makefile" ]; then
		say "unpacking $tarball"
		tar -xJf "$tarball" -C "$cache"
	fi
	local mk=(make -C "$k" O="$out" ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu-)
	mkdir -p "$out"
	"${mk[@]}" defconfig >/dev/null
	(cd "$k" && ARCH=riscv scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" "$@" >/dev/null)
	"${mk[@]}" olddefconfig >/dev/null
	# every symbol the fragments set must have stuck, as the last fragment
	# that names it says (a missing dependency drops a symbol silently)
	awk '/^CONFIG_[A-Za-z0-9_]*=/ { s = $0; sub(/=.*/, "", s); want[s] = $0; next }
	     /^# CONFIG_[A-Za-z0-9_]* is not set$/ { want[$2] = "off"; next }
	     END { for (s in want) print s, want[s] }' "$@" |
		while read -r sym want; do
			if [ "$want" = off ]; then
				! grep -q "^$sym=" "$out/.config" || die "$sym is still set in $out/.config"
			else
				grep -qx "$want" "$out/.config" || die "$want did not stick in $out/.config"
			fi
		done
	say "building $out's Image (make -j$jobs)"
	nice "${mk[@]}" -j"$jobs" Image >"$out.log" 2>&1 || { tail -20 "$out.log" >&2; exit 1; }
}

# src PACKAGE: Debian's source of PACKAGE unpacked under $cache/src; echoes its folder
src() {
	mkdir -p "$cache/src"
	local d
	d=$(cd "$cache/src" && ls -d "$1"-[0-9]*/ 2>/dev/null | head -1 || true)
	if [ -z "$d" ]; then
		(cd "$cache/src" && apt-get source "$1" >"$cache/src/$1.log" 2>&1) ||
			die "apt-get source $1 failed (it needs a deb-src line and dpkg-dev): $(tail -1 "$cache/src/$1.log")"
		d=$(cd "$cache/src" && ls -d "$1"-[0-9]*/ | head -1)
	fi
	echo "$cache/src/${d%/}"
}

force=${HPMSTAT_RISCV_KERNELS:-no}
if [ "$force" = yes ] || [ ! -f "$shared/Image-6.1.192-riscv64.xz" ]; then
	kernel kbuild "$here/kernel.config"
fi
if [ "$force" = yes ] || [ ! -f "$here/assets/Image-6.1.192-bpf-riscv64.xz" ]; then
	kernel kbuild-bpf "$here/kernel.config" "$here/kernel-bpf.config"
fi

mkdir -p "$sysroot"
if [ ! -f "$sysroot/lib/libjansson.a" ] && [ ! -d "$shared/jansson-2.14-riscv64" ]; then
	d=$(src jansson)
	mkdir -p "$d/build-rv64"
	(cd "$d/build-rv64" && cmake .. -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=riscv64 \
		-DCMAKE_C_COMPILER=riscv64-linux-gnu-gcc -DCMAKE_INSTALL_PREFIX="$sysroot" \
		-DJANSSON_BUILD_DOCS=OFF -DJANSSON_EXAMPLES=OFF -DJANSSON_WITHOUT_TESTS=ON \
		-DJANSSON_BUILD_SHARED_LIBS=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null &&
		make -j"$jobs" >/dev/null && make install >/dev/null) || die "jansson's cross build failed"
fi

# libbpf needs libelf, which needs zlib: all three static, in that order
if [ ! -f "$sysroot/lib/libbpf.a" ]; then
	if [ ! -f "$sysroot/lib/libz.a" ]; then
		say "zlib for riscv64"
		d=$(src zlib)
		(cd "$d" && CC=riscv64-linux-gnu-gcc AR=riscv64-linux-gnu-ar RANLIB=riscv64-linux-gnu-ranlib \
			CFLAGS=-O2 ./configure --static --prefix="$sysroot" >"$cache/zlib.log" 2>&1 &&
			make -j"$jobs" libz.a >>"$cache/zlib.log" 2>&1 && make install >>"$cache/zlib.log" 2>&1) ||
			die "zlib's cross build failed: see $cache/zlib.log"
	fi
	if [ ! -f "$sysroot/lib/libelf.a" ]; then
		say "elfutils' libelf for riscv64"
		d=$(src elfutils)
		mkdir -p "$d/build-rv64"
		(cd "$d/build-rv64" && ../configure --host=riscv64-linux-gnu --prefix="$sysroot" \
			--disable-debuginfod --disable-libdebuginfod --disable-nls --without-bzlib \
			--without-lzma --without-zstd --disable-symbol-versioning \
			CPPFLAGS="-I$sysroot/include" LDFLAGS="-L$sysroot/lib" >"$cache/libelf.log" 2>&1 &&
			make -j"$jobs" -C lib >>"$cache/libelf.log" 2>&1 &&
			make -j"$jobs" -C libelf libelf.a >>"$cache/libelf.log" 2>&1 &&
			make -C config libelf.pc >>"$cache/libelf.log" 2>&1 &&
			mkdir -p "$sysroot/include" "$sysroot/lib/pkgconfig" &&
			cp libelf/libelf.a "$sysroot/lib/" && cp config/libelf.pc "$sysroot/lib/pkgconfig/" &&
			cp ../libelf/libelf.h ../libelf/gelf.h ../libelf/nlist.h "$sysroot/include/") ||
			die "libelf's cross build failed: see $cache/libelf.log"
	fi
	say "libbpf for riscv64"
	d=$(src libbpf)
	mkdir -p "$cache/libbpf-obj"
	(cd "$d/src" && PKG_CONFIG_LIBDIR="$sysroot/lib/pkgconfig" make -j"$jobs" \
		CC=riscv64-linux-gnu-gcc AR=riscv64-linux-gnu-ar BUILD_STATIC_ONLY=y \
		OBJDIR="$cache/libbpf-obj" PREFIX="$sysroot" LIBDIR="$sysroot/lib" \
		EXTRA_CFLAGS="-O2 -I$sysroot/include" install >"$cache/libbpf.log" 2>&1) ||
		die "libbpf's cross build failed: see $cache/libbpf.log"
fi
say "ready in $cache (kernels: $(ls -d "$cache"/kbuild*/arch/riscv/boot/Image 2>/dev/null | wc -l) built here)"
