#!/bin/sh
# deps.sh [check|bench] - installs, with apt-get, the Debian packages that building
# (no argument), the tests (check) or the benchmarks (bench) need, and only the
# ones missing, so it costs nothing on a machine that has them.
set -e
pkgs="make gcc libc6-dev"
case "${1:-}" in
check) pkgs="$pkgs clang libcmocka-dev valgrind perl python3 qemu-system-x86 busybox-static cpio" ;;
bench) pkgs="$pkgs clang earlyoom qemu-system-x86 busybox-static cpio" ;;
"") ;;
*) echo "usage: tools/deps.sh [check|bench]" >&2; exit 2 ;;
esac
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: missing Debian packages:$missing; run as root or: apt-get install$missing" >&2
	exit 1
fi
echo "deps.sh: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
