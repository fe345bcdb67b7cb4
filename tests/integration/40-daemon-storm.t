#!/usr/bin/env bash
# Nothing missed: an exec storm with the receive buffer forced tiny really loses events;
# the daemon sees ENOBUFS, rescans, and no listed process is left unadjusted.
. "$(dirname "$0")/daemon.sh"

prog=$(own_copy "$(readlink -f "$(command -v sleep)")" listedsleep)
printf 'score 300 %s\n' "$prog" >"$CONF"
# The kernel raises any SO_RCVBUF to its minimum (a couple of KiB: a few events).
daemon_start --test-rcvbuf 1 || bail "the daemon did not start"

storm() { local i; for i in $(seq 400); do /bin/true; done; }
listed=()
# A faster machine may keep up with one round: storm again (at most 5 rounds) until it did not.
for round in 1 2 3 4 5; do
	storms=()
	for i in 1 2 3 4; do storm & storms+=($!); done
	for i in $(seq 8); do
		"$prog" 60 &
		listed+=($!)
		/bin/true; /bin/true
	done
	wait "${storms[@]}"	# the storm loops end on their own
	counter_above enobufs 0 && break
done
counter_above enobufs 0; ok $? "the tiny buffer overflowed: status counts ENOBUFS ($(counter enobufs), round $round)"
n_listed=${#listed[@]}
wait_for 5000 log_has "events lost"; ok $? "the loss is logged"
[ "$(counter rescans)" -ge 1 ] 2>/dev/null; ok $? "and answered with rescans ($(counter rescans))"

all_adjusted() { local p; for p in "${listed[@]}"; do adj_is "$p" 300 || return 1; done; }
wait_for 10000 all_adjusted
missing=0
for p in "${listed[@]}"; do adj_is "$p" 300 || missing=$((missing + 1)); done
ok $missing "all $n_listed listed processes started in the storm hold 300 ($missing do not)"

kill "${listed[@]}"
daemon_stop; ok $? "the daemon stops cleanly"
done_testing
