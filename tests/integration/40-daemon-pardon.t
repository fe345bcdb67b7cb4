#!/usr/bin/env bash
# Runtime pardons: `oompardon pardon/unpardon PATH` edit RUN_DIR/runtime.conf and the running
# daemon applies them at once. Without CAP_SYS_RESOURCE the -1000 write fails: one clear message.
. "$(dirname "$0")/daemon.sh"

# The pardoned program must live where only root can write (trust), and nothing else may run
# it: the test helper in the build tree.
target=$HELPERS/adjwait
trusted() {
	local p
	p=$(readlink -f "$1")
	while [ -n "$p" ]; do
		[ "$(stat -c %u "$p")" = 0 ] || return 1
		case $(stat -c %A "$p") in ?????w????|????????w?) return 1 ;; esac
		p=${p%/*}
	done
}
can_lower() { sh -c 'echo -1 >/proc/self/oom_score_adj' 2>/dev/null; }

echo '# empty' >"$CONF"
daemon_start || bail "the daemon did not start"

"$OOMPARDON" --run-dir "$RUN" pardon relative/path 2>"$T/err"
[ $? = 2 ] && grep -q "not an absolute path" "$T/err"; ok $? "pardon refuses a relative path (exit 2)"

"$OOMPARDON" --run-dir "$RUN" pardon "$target" 2>"$T/err"; ok $? "pardon PATH succeeds"
grep -qx "pardon $target" "$RUN/runtime.conf"; ok $? "runtime.conf holds the pardon"
has_rule() { status | grep -q "^  pardon -1000 $target ($RUN/runtime.conf:"; }
wait_for 5000 has_rule; ok $? "the running daemon took it (status shows it with its origin)"

if ! trusted "$target"; then
	ok 0 "# SKIP $target is not in a root-only directory here"
elif can_lower; then
	out=$("$target" -1000 3000); ok $? "a launch is pardoned: -1000 ($out)"
else
	# each launch lives 300 ms waiting in vain for -1000: long enough to be judged
	"$target" -1000 300 >/dev/null &
	"$target" -1000 300 >/dev/null
	wait $!
	wait_for 5000 grep -q CAP_SYS_RESOURCE "$LOG"; ok $? "without CAP_SYS_RESOURCE the refusal is said"
	[ "$(grep -c CAP_SYS_RESOURCE "$LOG")" = 1 ]; ok $? "once, not once per process"
	counter_above 'refused (no CAP_SYS_RESOURCE)' 0; ok $? "status counts the refused writes"
fi

"$OOMPARDON" --run-dir "$RUN" pardon "$target" 2>"$T/err"
[ "$(grep -c "pardon $target" "$RUN/runtime.conf")" = 1 ]; ok $? "pardoning twice keeps one line"

"$OOMPARDON" --run-dir "$RUN" unpardon "$target"; ok $? "unpardon PATH succeeds"
! grep -q "pardon $target" "$RUN/runtime.conf"; ok $? "runtime.conf no longer holds it"
wait_for 5000 eval '! has_rule'; ok $? "the running daemon dropped it"
"$OOMPARDON" --run-dir "$RUN" unpardon "$target" 2>"$T/err"
[ $? = 1 ] && grep -q "no runtime pardon" "$T/err"; ok $? "unpardon of what is not pardoned says so (exit 1)"

daemon_stop; ok $? "the daemon stops cleanly"
done_testing
