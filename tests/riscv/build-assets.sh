#!/bin/sh
# build-assets.sh: what the riscv64 VM tests need when no prebuilt assets
# sit beside the project: a Linux 6.1 Image from Debian's linux-source-6.1
# (defconfig + kernel.config; about 10 minutes on 2 cores) and a static
# riscv64 jansson from `apt-get source jansson` (needs a deb-src line).
# Into $HPMSTAT_RISCV_CACHE (kbuild/ and sysroot/), where vm-lib.sh looks.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${HPMSTAT_RISCV_CACHE:?set HPMSTAT_RISCV_CACHE}
mkdir -p "$cache"
jobs=${JOBS:-2}

if [ ! -s "$cache/kbuild/arch/riscv/boot/Image" ]; then
	tarball=/usr/src/linux-source-6.1.tar.xz
	[ -f "$tarball" ] || { echo "build-assets.sh: no $tarball (apt-get install linux-source-6.1)" >&2; exit 1; }
	if [ ! -d "$cache/linux-source-6.1" ]; then
		echo "build-assets.sh: unpacking $tarball"
		tar -xJf "$tarball" -C "$cache"
	fi
	k=$cache/linux-source-6.1
	mkdir -p "$cache/kbuild"
	make -C "$k" O="$cache/kbuild" ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu- defconfig >/dev/null
	(cd "$k" && ARCH=riscv scripts/kconfig/merge_config.sh -m -O "$cache/kbuild" \
		"$cache/kbuild/.config" "$here/kernel.config" >/dev/null)
	make -C "$k" O="$cache/kbuild" ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu- olddefconfig >/dev/null
	echo "build-assets.sh: building the kernel Image (make -j$jobs)"
	nice make -C "$k" O="$cache/kbuild" ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu- -j"$jobs" Image >"$cache/kbuild.log" 2>&1 ||
		{ tail -20 "$cache/kbuild.log" >&2; exit 1; }
	for opt in CONFIG_RISCV_PMU_SBI CONFIG_VIRTIO_CONSOLE CONFIG_BLK_DEV_INITRD; do
		grep -q "^$opt=y" "$cache/kbuild/.config" || { echo "build-assets.sh: $opt did not stick" >&2; exit 1; }
	done
fi

if [ ! -f "$cache/sysroot/lib/libjansson.a" ]; then
	mkdir -p "$cache/jansson-src"
	cd "$cache/jansson-src"
	d=$(ls -d jansson-*/ 2>/dev/null | head -1 || true)
	if [ -z "$d" ]; then
		apt-get source jansson >/dev/null 2>&1 ||
			{ echo "build-assets.sh: apt-get source jansson failed (add a deb-src line)" >&2; exit 1; }
		d=$(ls -d jansson-*/ | head -1)
	fi
	mkdir -p "$d/build-rv64" && cd "$d/build-rv64"
	cmake .. -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=riscv64 \
		-DCMAKE_C_COMPILER=riscv64-linux-gnu-gcc -DCMAKE_INSTALL_PREFIX="$cache/sysroot" \
		-DJANSSON_BUILD_DOCS=OFF -DJANSSON_EXAMPLES=OFF -DJANSSON_WITHOUT_TESTS=ON \
		-DJANSSON_BUILD_SHARED_LIBS=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
	make -j"$jobs" >/dev/null && make install >/dev/null
fi
echo "build-assets.sh: $cache/kbuild/arch/riscv/boot/Image and $cache/sysroot ready"
