#!/usr/bin/env bash
# Golden tests of the config language (after OpenBSD's regress/usr.sbin/bgpd/config):
# NN-name.conf -> NN-name.ok holds the exact stdout+stderr and exit status of
# `oompardon -c NN-name.conf rules`, run from this directory so paths stay relative.
# NN-name.root/ instead of a .conf: the standard locations below it (--config-root).
# NN-name.run/: the run dir (its runtime.conf is read last); else an empty temp dir.
# Then the shipped example config and the embedded default must parse with no error.
#
# usage: tests/config/run.sh BINARY [--update]   (--update rewrites the .ok files)
# Prints TAP, then "N passed, M failed"; exits 1 on any failure.
set -u

if [ $# -lt 1 ]; then
	echo "usage: $0 BINARY [--update]" >&2
	exit 2
fi
bin=$(realpath "$1")
update=${2:-}
cd "$(dirname "$0")" || exit 2
# oompardon refuses configs writable by group or others: a checkout made with a
# loose umask must not fail every test for that.
find . \( -name '*.conf' -o -name '*.ok' \) -type f -exec chmod go-w {} +
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/run" "$tmp/emptyroot"

pass=0 fail=0 n=0 skip=0
tests=( [0-9][0-9]-*.ok )
echo "1..$(( ${#tests[@]} + 2 ))"

result() {	# result OK|FAIL|SKIP NAME [DETAIL FILE]
	n=$((n + 1))
	case $1 in
	OK) pass=$((pass + 1)); echo "ok $n - $2" ;;
	SKIP) skip=$((skip + 1)); echo "ok $n - $2 # SKIP $3" ;;
	FAIL) fail=$((fail + 1)); echo "not ok $n - $2"; [ -n "${3:-}" ] && sed 's/^/# /' "$3" ;;
	esac
}

# Some tests need a file state git cannot hold: set it up here, undo it after.
setup() {
	case $1 in
	*-group-writable) chmod 0664 "$1.conf" ;;
	*-others-writable) chmod 0646 "$1.conf" ;;
	*-not-root)
		[ "$(id -u)" = 0 ] || return 1
		chown 65534 "$1.conf" ;;
	*-too-large) head -c 1048577 /dev/zero | tr '\0' '#' > "$1.conf" ;;
	esac
	return 0
}
teardown() {
	case $1 in
	*-group-writable | *-others-writable) chmod 0644 "$1.conf" ;;
	*-not-root) chown "$(id -u)" "$1.conf" ;;
	*-too-large) rm -f "$1.conf" ;;
	esac
}

for ok in "${tests[@]}"; do
	name=${ok%.ok}
	if ! setup "$name"; then
		result SKIP "$name" "needs root"
		continue
	fi
	rundir=$tmp/run
	[ -d "$name.run" ] && rundir=$name.run
	if [ -d "$name.root" ]; then
		"$bin" --config-root "$name.root" --run-dir "$rundir" rules > "$tmp/out" 2>&1
	else
		"$bin" -c "$name.conf" --run-dir "$rundir" rules > "$tmp/out" 2>&1
	fi
	echo "exit $?" >> "$tmp/out"
	teardown "$name"
	if [ "$update" = --update ]; then
		cp "$tmp/out" "$ok"
	fi
	if diff -u "$ok" "$tmp/out" > "$tmp/diff"; then
		result OK "$name"
	else
		result FAIL "$name" "$tmp/diff"
	fi
done

# Parses with no error: the exit status is 0 and no line says "error".
parses_clean() {	# NAME ARGS...
	local name=$1
	shift
	"$bin" "$@" --run-dir "$tmp/run" rules > "$tmp/out" 2>&1
	local st=$?
	if [ $st -eq 0 ] && ! grep -q 'error' "$tmp/out"; then
		result OK "$name"
		grep 'warning' "$tmp/out" | sed 's/^/# /'
	else
		echo "exit $st" >> "$tmp/out"
		result FAIL "$name" "$tmp/out"
	fi
}
parses_clean "etc/oompardon.conf.example parses" -c ../../etc/oompardon.conf.example
parses_clean "the embedded default parses" --config-root "$tmp/emptyroot"

echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
