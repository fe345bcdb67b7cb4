#!/usr/bin/env bash
# No leaking values: what a listed program got never passes to a program no rule names.
. "$(dirname "$0")/daemon.sh"

sh=$(own_copy "$(readlink -f /bin/sh)" listedsh)
printf 'score 300 %s\n' "$sh" >"$CONF"
daemon_start || bail "the daemon did not start"

# listed_shell_child TAG WHAT: once the listed shell holds 300 it starts a child that runs an
# unlisted program (or, WHAT=exec, becomes one); that program must end up with the original 0.
listed_shell_child() {
	local pid go=$T/go-$1-$2 out=$T/out-$1-$2 how=
	[ "$2" = exec ] && how=exec
	mkfifo "$go"
	"$sh" -c 'read x <"$1"; '"$how"' "$2" 0 5000 >"$3"' sh "$go" "$HELPERS/adjwait" "$out" &
	pid=$!
	wait_for 5000 adj_is $pid 300; ok $? "$1: the listed shell holds 300"
	echo >"$go"
	wait $pid; ok $? "$1: the unlisted program it ran ($2) gets the original 0 back ($(cat "$out"))"
}

# 1. A listed shell's child that runs an unlisted program gets the original back.
listed_shell_child events child

# 2. A listed shell that execs an unlisted program: the same pid gets the original back.
listed_shell_child events exec

# 3. A child that runs no new program is the same program: it keeps the value.
mkfifo "$T/go3"
"$sh" -c 'read x <"$1"; ( read v </proc/self/oom_score_adj; echo "$v" >"$2" )' sh "$T/go3" "$T/out3" &
pid=$!
wait_for 5000 adj_is $pid 300
echo >"$T/go3"
wait $pid
[ "$(cat "$T/out3")" = 300 ]; ok $? "a forked child without exec keeps 300 ($(cat "$T/out3"))"

# 3b. No waiting at all: the listed shell forks at once, maybe before the daemon has heard
# of it (forks are heard only while some value is ours; children forked before are adopted).
fails=0 leaked=0
for i in $(seq 30); do
	out=$("$sh" -c '"$1" 0 3000 & wait $!' sh "$HELPERS/adjwait") || fails=$((fails + 1))
	case $out in "first 300"*) leaked=$((leaked + 1)) ;; esac
done
ok $fails "30 listed shells forking at once: every unlisted child ends with the original ($fails not)"
echo "# $leaked of 30 children started with the shell's 300 and were given 0 back"

# 4. Processes oompardon never changed are never touched, even on a full pass.
sh -c 'echo 123 >/proc/self/oom_score_adj; exec sleep 60' &
other=$!
wait_for 2000 adj_is $other 123
printf 'score 300 %s\n# changed\n' "$sh" >"$CONF.new" && mv "$CONF.new" "$CONF"
kill -HUP "$DPID"
wait_for 5000 log_has "reloading: SIGHUP"; ok $? "SIGHUP reloads"
wait_for 5000 counter_above rescans 0
adj_is $other 123; ok $? "an unlisted process with its own value (123) is left alone ($(adj $other))"
kill $other

# 5. inherit yes keeps the kernel's plain inheritance.
printf 'inherit yes\nscore 300 %s\n' "$sh" >"$CONF.new" && mv "$CONF.new" "$CONF"
wait_for 5000 counter_above reloads 0; ok $? "the inotify reload took 'inherit yes'"
mkfifo "$T/go5"
"$sh" -c 'read x <"$1"; exec "$2" 300 1000 >"$3"' sh "$T/go5" "$HELPERS/adjwait" "$T/out5" &
pid=$!
wait_for 5000 adj_is $pid 300
echo >"$T/go5"
wait $pid
# adjwait exits 0 at once when it reads 300; then the daemon must not have restored it meanwhile
grep -q "final 300" "$T/out5"; ok $? "with inherit yes an unlisted program keeps the inherited 300 ($(cat "$T/out5"))"

daemon_stop; ok $? "the daemon stops cleanly"

# 6. Polling (no proc connector) hears no forks: a listed shell's child is found by its ppid.
printf 'score 300 %s\n' "$sh" >"$CONF"
daemon_start --test-poll || bail "the daemon did not start in polling mode"
listed_shell_child polling child
daemon_stop; ok $? "the daemon stops cleanly"
done_testing
