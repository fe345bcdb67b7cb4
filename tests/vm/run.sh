#!/usr/bin/env bash
# tests/vm/run.sh - oompardon on a real kernel with full privileges: boots Debian's cloud
# kernel under qemu once per scenario (tests/vm/scenarios/*.sh) with an initramfs built
# here, reads the results back from a serial port, prints TAP.
#
#   tests/vm/run.sh [SCENARIO...]   (default: all)   VMTEST_KEEP=1 keeps every log
#   OOMPARDON=path: the binary to test (default ./oompardon); VMTEST_ACCEL=kvm|tcg;
#   VMTEST_APPEND: more kernel parameters (e.g. "loglevel=7 sysctl.vm.oom_dump_tasks=1")
#   VMTEST_PROGS: more programs for the guest's /bin, with their libraries (bench: earlyoom)
#   VMTEST_SCENARIO_FILES: more scenario files, named by their base name (bench scenarios,
#   which `make vmcheck` never runs)
#
# Set-up installs what is missing (qemu, busybox-static, the kernel) through apt as root;
# it never skips. Downloads are cached in build/vm-cache.
set -uo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
VM_SRC=$REPO/tests/vm
CACHE=$REPO/build/vm-cache
WORK=$REPO/build/vm
LOGS=$WORK/logs
BIN=${OOMPARDON:-$REPO/oompardon}
MEM_MIB=256
BOOT_TIMEOUT_S=${VMTEST_TIMEOUT_S:-90}	# one boot with its scenario: about 5 s here under tcg

# The scenarios, in order; NAME:RUN boots NAME with vmrun=RUN (repeated runs).
ALL_SCENARIOS="boot pardon:1 pardon:2 pardon:3 control panic panic999 cgroup forgery leak restart cap killer"

die() { echo "Bail out! $*"; exit 1; }

as_root_install() {
	[ "$(id -u)" = 0 ] || die "$* missing and not root: install it (apt-get install $*)"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -qq --no-install-recommends "$@" >/dev/null ||
		{ apt-get update -qq && apt-get install -y -qq --no-install-recommends "$@" >/dev/null; } ||
		die "apt-get install $* failed"
}

setup_tools() {
	local need=()
	command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
	[ -x /bin/busybox ] && file_is_static /bin/busybox || need+=(busybox-static)
	command -v cpio >/dev/null || need+=(cpio)
	command -v dpkg-deb >/dev/null || need+=(dpkg)
	[ ${#need[@]} -eq 0 ] || as_root_install "${need[@]}"
}

# A dynamically linked busybox (package busybox) cannot run in the bare initramfs.
file_is_static() {
	! LC_ALL=C ldd "$1" >/dev/null 2>&1
}

download() {
	(cd "$CACHE" && apt-get download "$1" 2>&1 | grep -v '^W: Download is performed unsandboxed'
	 exit "${PIPESTATUS[0]}")
}

# The kernel: the concrete package linux-image-cloud-amd64 depends on, unpacked into the cache.
KERNEL=
setup_kernel() {
	KERNEL=$(ls "$CACHE"/kernel/boot/vmlinuz-* 2>/dev/null | head -n 1)
	[ -n "$KERNEL" ] && return 0
	mkdir -p "$CACHE" || die "cannot create $CACHE"
	local pkg deb
	pkg=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null | sed -n 's/.*Depends: \(linux-image-[^ ]*\)$/\1/p' | head -n 1)
	if [ -z "$pkg" ]; then
		[ "$(id -u)" = 0 ] && apt-get update -qq
		pkg=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null | sed -n 's/.*Depends: \(linux-image-[^ ]*\)$/\1/p' | head -n 1)
	fi
	[ -n "$pkg" ] || die "apt knows no linux-image-cloud-amd64"
	deb=$(ls "$CACHE"/"$pkg"_*.deb 2>/dev/null | head -n 1)
	if [ -z "$deb" ]; then
		# stale package lists (404): update once and try again
		download "$pkg" || { [ "$(id -u)" = 0 ] && apt-get update -qq && download "$pkg"; } ||
			die "apt-get download $pkg failed"
		deb=$(ls "$CACHE"/"$pkg"_*.deb 2>/dev/null | head -n 1)
		[ -n "$deb" ] || die "apt-get download $pkg left no .deb"
	fi
	# Only /boot: everything the scenarios need is built in (serial 8250 console, initrd,
	# cgroup v2 + memcg, proc connector: CONFIG_*=y in its /boot/config), no modules.
	rm -rf "$CACHE/kernel" && mkdir -p "$CACHE/kernel" &&
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$CACHE/kernel" --wildcards './boot/*' ||
		die "cannot unpack $deb"
	KERNEL=$(ls "$CACHE"/kernel/boot/vmlinuz-* 2>/dev/null | head -n 1)
	[ -n "$KERNEL" ] || die "no vmlinuz in $deb"
}

# Static test programs (the sources the Makefile also builds dynamically).
build_helpers() {
	local src name
	for src in "$REPO"/tests/helpers/vm_*.c; do
		name=$(basename "$src" .c)
		${CC:-cc} -static -std=gnu11 -O2 -D_GNU_SOURCE -o "$WORK/root/bin/$name" "$src" ||
			die "cannot build $src statically"
	done
}

# install_prog PROGRAM NAME ROOT: PROGRAM as ROOT/bin/NAME, with the libraries ldd names.
install_prog() {
	local lib
	cp "$1" "$3/bin/$2" || die "cannot copy $1"
	for lib in $(ldd "$1" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p'); do
		[ -e "$3$lib" ] && continue
		mkdir -p "$3$(dirname "$lib")" && cp -L "$lib" "$3$lib" || die "cannot copy $lib"
	done
}

# The initramfs: busybox, oompardon with the libraries ldd names, test programs, /init.
INITRD=$WORK/initramfs.cpio
build_initramfs() {
	local root=$WORK/root prog
	[ -x "$BIN" ] || die "no $BIN: run make first"
	rm -rf "$root" && mkdir -p "$root"/{bin,etc,proc,sys,dev,tmp,run,vm/scenarios} || die "cannot create $root"
	chmod 1777 "$root/tmp"
	cp /bin/busybox "$root/bin/busybox" || die "no /bin/busybox"
	install_prog "$BIN" oompardon "$root"
	for prog in ${VMTEST_PROGS:-}; do
		install_prog "$prog" "$(basename "$prog")" "$root"
	done
	build_helpers
	# The locker and the hogs are one program under two names: rules tell them apart by
	# executable, exactly as they would two different programs.
	cp "$root/bin/vm_mem" "$root/bin/vm_locker" && mv "$root/bin/vm_mem" "$root/bin/vm_hog"
	printf 'root:x:0:0:root:/:/bin/sh\nforger:x:1000:1000:forger:/tmp:/bin/sh\n' >"$root/etc/passwd"
	printf 'root:x:0:\nforger:x:1000:\n' >"$root/etc/group"
	install -m 0755 "$VM_SRC/init.sh" "$root/init"
	cp "$VM_SRC/lib.sh" "$root/vm/lib.sh" && cp "$VM_SRC"/scenarios/*.sh ${VMTEST_SCENARIO_FILES:-} \
		"$root/vm/scenarios/" || die "cannot copy the scenarios"
	chmod -R go-w "$root" && chmod 1777 "$root/tmp"
	# Owned by root whoever builds it: trust checks in the guest look at owners.
	(cd "$root" && find . -print0 | cpio --null -o -H newc -R 0:0 --quiet) >"$INITRD" ||
		die "cannot pack the initramfs"
}

# KVM when it really works, else tcg. Here /dev/kvm opens but the first guest
# instruction in long mode stops with "KVM internal error" (no VMX on the host CPU):
# so the probe boots the kernel for real, with no init, and expects its panic.
ACCEL=tcg
pick_accel() {
	if [ -n "${VMTEST_ACCEL:-}" ]; then ACCEL=$VMTEST_ACCEL; return 0; fi
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 0
	local log=$LOGS/kvm-probe.log
	timeout --kill-after=2 6 qemu-system-x86_64 -accel kvm -m "$MEM_MIB" -nographic -nodefaults \
		-no-user-config -no-reboot -monitor none -kernel "$KERNEL" -serial "file:$log" \
		-append "console=ttyS0 panic=-1 rdinit=/none init=/none" </dev/null >/dev/null 2>&1
	grep -q "Kernel panic" "$log" 2>/dev/null && ACCEL=kvm
	rm -f "$log"
}

# boot SCENARIO RUN: one VM; the logs are $LOGS/NAME.{console,results}.log
boot() {
	local name=$1 run=$2 tag=$3
	local console=$LOGS/$tag.console.log results=$LOGS/$tag.results.log
	rm -f "$console" "$results"
	timeout --kill-after=5 "$BOOT_TIMEOUT_S" qemu-system-x86_64 -accel "$ACCEL" -m "$MEM_MIB" -smp 1 \
		-nographic -nodefaults -no-user-config -no-reboot -monitor none \
		-kernel "$KERNEL" -initrd "$INITRD" \
		-serial "file:$console" -serial "file:$results" \
		-append "console=ttyS0 panic=-1 oops=panic loglevel=4 sysctl.vm.panic_on_oom=0 \
sysctl.vm.oom_kill_allocating_task=0 sysctl.vm.oom_dump_tasks=0 vmtest=$name vmrun=$run ${VMTEST_APPEND:-}" \
		</dev/null >"$LOGS/$tag.qemu.log" 2>&1
}

N=0 PASSED=0 FAILED=0
tap() {	# tap ok|not TEXT
	N=$((N + 1))
	if [ "$1" = ok ]; then
		PASSED=$((PASSED + 1)); echo "ok $N - $2"
	else
		FAILED=$((FAILED + 1)); echo "not ok $N - $2"
	fi
}

# Turns one boot's result port into TAP lines; 0 when every line passed.
report() {
	local tag=$1 rc=$2 console=$LOGS/$1.console.log results=$LOGS/$1.results.log
	local line bad=0 done=0 panic=
	while IFS= read -r line; do
		line=${line%$'\r'}
		case $line in
		"ok - "*) tap ok "${line#ok - }" ;;
		"not ok - "*) tap not "${line#not ok - }"; bad=1 ;;
		"# "*) echo "$line" ;;
		"expect panic "*) panic=${line#expect panic } ;;
		done) done=1 ;;
		esac
	done < <(cat "$results" 2>/dev/null)	# none when qemu never started
	if [ -n "$panic" ]; then
		if grep -q "Kernel panic - not syncing: $panic" "$console" 2>/dev/null; then
			tap ok "$tag: the kernel panics: $panic"
		else
			tap not "$tag: the kernel panics: $panic"; bad=1
		fi
	elif [ "$done" = 0 ]; then
		if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
			tap not "$tag: the VM finished within ${BOOT_TIMEOUT_S}s"
		else
			tap not "$tag: the scenario ran to its end (qemu exit $rc)"
		fi
		bad=1
	fi
	if [ "$bad" = 1 ]; then
		echo "# $tag failed; serial console log: $console (results: $results, qemu: $LOGS/$tag.qemu.log)"
		return 1
	fi
	[ "${VMTEST_KEEP:-0}" = 1 ] || rm -f "$console" "$results" "$LOGS/$tag.qemu.log"
	return 0
}

main() {
	local t0 b0 s name run tag rc
	t0=$(date +%s)
	setup_tools
	setup_kernel
	mkdir -p "$LOGS" || die "cannot create $LOGS"
	build_initramfs
	pick_accel
	echo "# kernel $(basename "$KERNEL"), accel $ACCEL, ${MEM_MIB} MiB, no swap"
	for s in ${*:-$ALL_SCENARIOS}; do
		name=${s%%:*} run=1
		[ "$name" != "$s" ] && run=${s#*:}
		tag=$name; [ "$name" != "$s" ] && tag=$name-$run
		b0=$(date +%s)
		boot "$name" "$run" "$tag"; rc=$?
		report "$tag" "$rc"
		echo "# $tag: $(( $(date +%s) - b0 )) s"
	done
	echo "1..$N"
	echo "# $(( $(date +%s) - t0 )) s in all"
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" = 0 ] && [ "$N" -gt 0 ]
}

main "$@"
