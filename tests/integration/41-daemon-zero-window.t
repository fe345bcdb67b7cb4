#!/usr/bin/env bash
# daemon --zero-window: fanotify holds each exec of a listed file until its value is
# written, so the program reads its score at its very first instruction; while no value
# is oompardon's, other programs' execs do not wake the daemon at all.
. "$(dirname "$0")/daemon.sh"

prog=$(own_copy "$HELPERS/adjwait" listed)
other=$(own_copy "$HELPERS/adjwait" later)
printf 'score 300 %s\n' "$prog" >"$CONF"

daemon_start --zero-window || bail "the daemon did not start"
status | grep -q "^zero window: on"; ok $? "status says the zero window is on"

# 500 launches: each reads its value first thing (adjwait prints "first F ...").
stale=0 fails=0
for i in $(seq 500); do
	out=$("$prog" 300 2000) || fails=$((fails + 1))
	case $out in "first 300 "*) ;; *) stale=$((stale + 1)) ;; esac
done
ok $fails "500 launches of a listed program: every one adjusted ($fails not)"
ok $stale "every one already held 300 at its first instruction ($stale did not)"
[ "$(counter "held execs")" -ge 500 ] 2>/dev/null; ok $? "status counts the held execs ($(counter "held execs"))"

# Nothing is ours any more: 200 execs of an unlisted program must cost no event.
# (The daemon stops hearing of execs a moment after the last value it set is gone.)
quiet_batch() {
	local before after
	before=$(counter events)
	for i in $(seq 200); do /bin/true; done
	after=$(counter events)
	[ "$before" = "$after" ]
}
wait_for 10000 quiet_batch; ok $? "200 execs of an unlisted program wake the daemon for no event"

# A reload marks the files the new rules name, at once.
printf 'score 300 %s\nscore 400 %s\n' "$prog" "$other" >"$CONF"
wait_for 5000 sh -c "'$OOMPARDON' --run-dir '$RUN' status | grep -q 'score 400 $other'"
ok $? "the daemon reloads the new rule"
out=$("$other" 400 2000); st=$?
ok $st "a newly listed program is adjusted ($out)"
case $out in "first 400 "*) r=0 ;; *) r=1 ;; esac
ok $r "and holds 400 from its first instruction"

# A listed shell that execs an unlisted program: the value goes back (no leak), even
# though the exec came right after the held one.
shell=$(own_copy /bin/dash listed-sh)
leak=$(own_copy "$HELPERS/adjwait" unlisted)
printf 'score 300 %s\nscore 400 %s\nscore 200 %s\n' "$prog" "$other" "$shell" >"$CONF"
wait_for 5000 sh -c "'$OOMPARDON' --run-dir '$RUN' status | grep -q 'score 200 $shell'"
ok $? "the daemon reloads the shell's rule"
fails=0
for i in $(seq 50); do "$shell" -c "exec '$leak' 0 2000" >/dev/null || fails=$((fails + 1)); done
ok $fails "50 times a listed shell execs an unlisted program: it gets 0 back ($fails did not)"

daemon_stop; ok $? "SIGTERM: the daemon exits 0"
echo "1..$tap_n"
exit $tap_failed
