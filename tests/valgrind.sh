#!/usr/bin/env bash
# valgrind.sh BINARY - runs a representative set of commands under valgrind; any
# memory error or definite leak fails. Prints "N passed, M failed"; exit 1 on failure.
# (valgrind 3.19 cannot read clang's DWARF 5: build with gcc, or -gdwarf-4.)
set -u
BIN=${1:?usage: tests/valgrind.sh BINARY}
BIN=$(realpath "$BIN")
HELPERS=${HELPERS:-$(dirname "$BIN")/build/helpers}
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind is not installed" >&2; exit 1; }

T=$(mktemp -d /tmp/oompardon-valgrind.XXXXXX)
SLEEPER=
cleanup() { [ -n "$SLEEPER" ] && kill -KILL "$SLEEPER" 2>/dev/null; wait 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT

mkdir "$T/root"
printf '# a little of everything\npardon /usr/sbin/vlock-main /usr/bin/xlock\nscore +500 %s/prog\nscore 800 comm=chrome,user=root\nscore -300 /usr/lib/postgresql/*/bin/postgres\npardon cgroup=/system.slice/sshd.service\n' \
	"$T" >"$T/good.conf"
printf 'pardon /usr/bin/i3lock\nscore 5000 /bin/x\nnonsense here\n' >"$T/bad.conf"
if [ -x "$HELPERS/sleeper" ]; then
	cp "$HELPERS/sleeper" "$T/prog"
	"$T/prog" & SLEEPER=$!
fi

passed=0
failed=0
# vg NAME ARGS...: one command under valgrind; its exit status does not matter here.
vg() {
	local name=$1 log=$T/vg.log rc
	shift
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		--show-leak-kinds=definite --log-file="$log" "$BIN" "$@" >/dev/null 2>"$T/stderr"
	rc=$?
	if [ "$rc" -ne 99 ] && ! grep -q 'Valgrind: ' "$log"; then
		passed=$((passed + 1))
		echo "ok - $name (exit $rc)"
	else
		failed=$((failed + 1))
		echo "FAILED - $name (exit $rc):"
		sed 's/^/    /' "$log"
	fi
}

vg "--help" --help
vg "--version" --version
vg "no command"
vg "unknown command" frobnicate
vg "rules" -c "$T/good.conf" rules
vg "rules, embedded default" --config-root "$T/root" rules
vg "rules, bad config" -c "$T/bad.conf" rules
vg "ls" -c "$T/good.conf" ls
vg "ls --json" -c "$T/good.conf" ls --json
vg "check" check
vg "check --json" check --json
vg "apply --dry-run" -c "$T/good.conf" --run-dir "$T/run" apply --dry-run
vg "apply, bad config" -c "$T/bad.conf" --run-dir "$T/run" apply
vg "apply" -c "$T/good.conf" --run-dir "$T/run" apply
vg "restore" --run-dir "$T/run" restore
vg "exec --score" exec --score 100 -- true
vg "exec by the rules" -c "$T/good.conf" exec -- true
vg "exec, command not found" exec -- "$T/nonexistent"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
