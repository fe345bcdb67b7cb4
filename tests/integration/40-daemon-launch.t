#!/usr/bin/env bash
# The daemon adjusts every launch of a listed program; status tells about it; polling without events.
. "$(dirname "$0")/daemon.sh"

prog=$(own_copy "$HELPERS/adjwait" listed)
printf 'score 300 %s\n' "$prog" >"$CONF"

"$OOMPARDON" --run-dir "$RUN" status >/dev/null 2>&1
ok $(( $? == 0 )) "status fails when no daemon runs"

daemon_start || bail "the daemon did not start"
ok 0 "daemon starts and answers status"
status >"$T/status"
grep -q "^pid: $DPID\$" "$T/status"; ok $? "status names the daemon's pid"
grep -q "score 300 $prog ($CONF:1)" "$T/status"; ok $? "status shows the rule with its origin"
[ -f "$RUN/pid" ] && [ "$(cat "$RUN/pid")" = "$DPID" ]; ok $? "RUN_DIR/pid holds the daemon's pid"

# 1000 launches: each one waits (bounded) until it holds 300 and fails otherwise.
fails=0 leaks=0
for i in $(seq 1000); do
	out=$("$prog" 300 2000) || fails=$((fails + 1))
	case $out in "first 300"*) ;; *) leaks=$((leaks + 1)) ;; esac
done
ok $fails "1000 launches of a listed program: every one adjusted ($fails not)"
echo "# $leaks of 1000 launches still read the old value at their first instruction"
[ "$(counter writes)" -ge 1000 ] 2>/dev/null; ok $? "status counts the writes ($(counter writes))"
[ "$(counter events)" -ge 2000 ] 2>/dev/null; ok $? "status counts the events ($(counter events))"

# An unlisted program is never touched.
out=$("$HELPERS/adjwait" 0 50); ok $? "an unlisted program keeps its value ($out)"

daemon_stop; ok $? "SIGTERM: the daemon exits 0"
[ ! -e "$RUN/pid" ]; ok $? "the pid file is gone"
"$OOMPARDON" --run-dir "$RUN" status >/dev/null 2>&1
ok $(( $? == 0 )) "status fails once the daemon stopped"

# Without the proc connector (as in a container) it polls.
daemon_start --test-poll
ok $? "daemon starts without the proc connector"
log_has "polling every"; ok $? "it says it polls"
out=$("$prog" 300 5000); ok $? "polling still adjusts a launch ($out)"
daemon_stop

# In another pid namespace the proc connector stays silent: it says so and polls.
if unshare --pid --fork --mount-proc true 2>/dev/null; then
	unshare --pid --fork --mount-proc --kill-child=TERM \
		"$OOMPARDON" -c "$CONF" --run-dir "$RUN" daemon >>"$LOG" 2>&1 &
	DPID=$!
	wait_for 10000 status_up
	# unshare ignores SIGTERM while it waits: the daemon itself is its child
	INNER=$(ps -o pid= --ppid "$DPID" | tr -d ' ')
	wait_for 5000 log_has "proc connector unavailable"; ok $? "in a new pid namespace it says the proc connector is unavailable"
	status | grep -q "^events: none, polling"; ok $? "and polls"
	"$OOMPARDON" --run-dir "$RUN" pardon "$prog" 2>"$T/err"
	grep -q "not signalled" "$T/err"; ok $? "pardon does not signal a pid from another namespace ($(cat "$T/err"))"
	kill -TERM "$INNER"
	wait "$DPID"; ok $? "it stops cleanly"
	DPID= INNER=
else
	ok 0 "# SKIP unshare --pid is not available here"
fi

done_testing
