#!/usr/bin/env bash
# Nothing lost: SIGTERM restores, --keep keeps, kill -9 and a restart still restore the true originals.
. "$(dirname "$0")/daemon.sh"

prog=$(own_copy "$(readlink -f "$(command -v sleep)")" listedsleep)
printf 'score 300 %s\n' "$prog" >"$CONF"

daemon_start || bail "the daemon did not start"
"$prog" 60 &
a=$!
wait_for 5000 adj_is $a 300; ok $? "a listed process holds 300"
"$OOMPARDON" -c "$CONF" --run-dir "$RUN" daemon >"$T/second.log" 2>&1
[ $? = 1 ] && grep -q "holds" "$T/second.log"; ok $? "a second daemon on the same run dir refuses to start"
daemon_stop TERM; ok $? "SIGTERM: exit 0"
adj_is $a 0; ok $? "SIGTERM restored the original 0 ($(adj $a))"

daemon_start --keep || bail "the daemon did not restart"
wait_for 5000 adj_is $a 300
daemon_stop INT
adj_is $a 300; ok $? "--keep leaves 300 in place at exit ($(adj $a))"

# A restarted daemon takes over the state: its exit restores the original.
daemon_start || bail "the daemon did not restart"
daemon_stop
adj_is $a 0; ok $? "a daemon taking over after --keep restores the original 0 ($(adj $a))"

# kill -9, then a restart with another score: the original stays the true one.
daemon_start || bail "the daemon did not restart"
wait_for 5000 adj_is $a 300
kill -9 "$DPID"; wait "$DPID" 2>/dev/null; DPID=
[ -s "$RUN/state" ]; ok $? "the state file survives kill -9"
adj_is $a 300; ok $? "after kill -9 the value stays 300"
printf 'score 400 %s\n' "$prog" >"$CONF"
daemon_start || bail "the daemon did not restart after kill -9"
wait_for 5000 adj_is $a 400; ok $? "the restarted daemon applies its rules ($(adj $a))"
daemon_stop
adj_is $a 0; ok $? "and at exit restores the true original 0, never a value it set ($(adj $a))"

kill $a
done_testing
