#!/usr/bin/env bash
# Reload: a good config applies at once, a broken one keeps the old rules and names every error.
. "$(dirname "$0")/daemon.sh"

prog=$(own_copy "$(readlink -f "$(command -v sleep)")" listedsleep)
printf 'score 300 %s\n' "$prog" >"$CONF"
daemon_start || bail "the daemon did not start"

"$prog" 60 &
a=$!
wait_for 5000 adj_is $a 300; ok $? "a listed process holds 300"

# A good config, written the way editors do (rename over it): applied at once.
printf 'score 400 %s\n' "$prog" >"$CONF.new" && mv "$CONF.new" "$CONF"
wait_for 5000 adj_is $a 400; ok $? "inotify: the new verdict is written to the running process ($(adj $a))"

# A broken one: nothing changes, every error is named file:line.
printf 'score 500 %s\nbogus words here\nscore 9999 %s\n' "$prog" "$prog" >"$CONF.new" && mv "$CONF.new" "$CONF"
wait_for 5000 log_has "keeping the rules in force"; ok $? "a broken config is refused"
log_has "$CONF:2:"; ok $? "the log names $CONF:2"
log_has "$CONF:3:"; ok $? "the log names $CONF:3 too (every error in one pass)"
adj_is $a 400; ok $? "the running process keeps 400 ($(adj $a))"
"$prog" 60 &
b=$!
wait_for 5000 adj_is $b 400; ok $? "a new launch still gets the old rules' 400 ($(adj $b))"
[ "$(counter 'failed reloads')" = 1 ]; ok $? "status counts the failed reload"
status | grep -q "score 400 $prog ($CONF:1)"; ok $? "status still shows the old rule"

# SIGHUP with nothing changed: reloads, nothing else happens.
kill -HUP "$DPID"
wait_for 5000 log_has "reloading: SIGHUP"; ok $? "SIGHUP reloads"

# A rule removed: the processes it held get their originals back.
printf '# nothing listed\n' >"$CONF.new" && mv "$CONF.new" "$CONF"
wait_for 5000 adj_is $a 0; ok $? "rule removed: the first process is restored to 0 ($(adj $a))"
wait_for 5000 adj_is $b 0; ok $? "rule removed: the second process is restored to 0 ($(adj $b))"

kill $a $b
daemon_stop; ok $? "the daemon stops cleanly"
done_testing
