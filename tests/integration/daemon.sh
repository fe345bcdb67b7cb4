# daemon.sh - sourced by the 40-daemon-*.t tests: a temp dir, the real daemon, TAP and bounded waits.
# Raising scores works here without CAP_SYS_RESOURCE, so the functional tests use `score +N` rules.
set -u
: "${OOMPARDON:?set OOMPARDON to the binary}" "${HELPERS:?set HELPERS to build/helpers}"

T=$(mktemp -d /tmp/oompardon-daemon.XXXXXX)
RUN=$T/run
CONF=$T/oompardon.conf
LOG=$T/daemon.log
DPID=
INNER=	# the daemon's pid when DPID is a wrapper (unshare)
tap_n=0
tap_failed=0

cleanup() {
	[ -n "$INNER" ] && kill -TERM "$INNER" 2>/dev/null
	[ -n "$DPID" ] && kill -TERM "$DPID" 2>/dev/null && wait "$DPID" 2>/dev/null
	jobs -p | xargs -r kill 2>/dev/null
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

ok() {	# ok STATUS DESCRIPTION
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=1
	fi
}

diag() { sed 's/^/# /' "$@"; }

now_ms() { date +%s%3N; }

# wait_for TIMEOUT_MS CMD...: runs CMD until it succeeds; 1 when the time is up.
wait_for() {
	local end=$(($(now_ms) + $1))
	shift
	until "$@"; do
		[ "$(now_ms)" -ge "$end" ] && return 1
		sleep 0.01
	done
}

adj() { cat "/proc/$1/oom_score_adj" 2>/dev/null; }
adj_is() { [ "$(adj "$1")" = "$2" ]; }

status() { "$OOMPARDON" --run-dir "$RUN" status 2>/dev/null; }
# counter NAME: a counter from the daemon's status
counter() { status | sed -n "s/^  $1: //p"; }
counter_above() { [ "$(counter "$1")" -gt "$2" ] 2>/dev/null; }
log_has() { grep -q -- "$1" "$LOG"; }

# daemon_start [DAEMON ARGS]: starts it on $CONF and $RUN, waits until it answers.
daemon_start() {
	"$OOMPARDON" -c "$CONF" --run-dir "$RUN" daemon "$@" >>"$LOG" 2>&1 &
	DPID=$!
	wait_for 10000 status_up
	status >/dev/null
}
status_up() { status >/dev/null || ! kill -0 "$DPID" 2>/dev/null; }

# daemon_stop [SIGNAL]: stops it, returns its exit status.
daemon_stop() {
	local rc
	kill -"${1:-TERM}" "$DPID"
	wait "$DPID"
	rc=$?
	DPID=
	return $rc
}

# A program of our own that only this test runs: rules may name it safely.
own_copy() {	# own_copy SRC NAME -> prints the path
	cp "$1" "$T/$2" && chmod 755 "$T/$2" && echo "$T/$2"
}

bail() {
	echo "Bail out! $*"
	diag "$LOG"
	exit 1
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ] || { echo "# daemon log:"; diag "$LOG"; }
	exit "$tap_failed"
}
