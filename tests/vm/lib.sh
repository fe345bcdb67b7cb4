# lib.sh - helpers for the scenarios inside the test VM (busybox sh; sourced by /init).
# fd 3 is the result port. Polls have deadlines and short steps: the guest has no other
# way to wait for a process it did not start (the daemon's writes).

CONF=/etc/vm.conf
RUN_DIR=/run/oompardon

FAILED=0
pass() { echo "ok - $*" >&3; }
fail() { echo "not ok - $*" >&3; FAILED=1; }
diag() { echo "# $*" >&3; }

# check COND-RESULT(0/1 from the last command) TEXT: `check $? "text"`
check() {
	if [ "$1" -eq 0 ]; then pass "$2"; else fail "$2"; fi
}

# expect_eq GOT WANT TEXT
expect_eq() {
	if [ "$1" = "$2" ]; then pass "$3"; else fail "$3 (got '$1', want '$2')"; fi
}

adj_of() { cat "/proc/$1/oom_score_adj" 2>/dev/null || echo gone; }

# alive PID: exists and is not a zombie
alive() {
	[ -r "/proc/$1/stat" ] || return 1
	state=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat")
	[ "$state" != Z ]
}

# wait_adj PID WANT [TENTHS]: polls until PID's oom_score_adj is WANT (default 5 s);
# echoes the last value read.
wait_adj() {
	n=${3:-50}
	while :; do
		v=$(adj_of "$1")
		if [ "$v" = "$2" ] || [ "$n" -le 0 ]; then
			echo "$v"
			return
		fi
		n=$((n - 1))
		usleep 100000
	done
}

# start_ready CMD...: starts CMD in the background and waits until it writes "ready"
# on stdout (vm_mem does, once its memory is touched). Sets READY_PID. 0, or 1 when it
# died first.
start_ready() {
	rm -f /tmp/ready.fifo
	mkfifo /tmp/ready.fifo
	"$@" >/tmp/ready.fifo &
	READY_PID=$!
	line=
	read -r line </tmp/ready.fifo
	rm -f /tmp/ready.fifo
	[ "$line" = ready ]
}

# writes the config: each argument one line
config() {
	: >"$CONF"
	for l in "$@"; do echo "$l" >>"$CONF"; done
}

# daemon_start [ARGS]: the daemon (with ARGS) on $CONF, itself out of the OOM killer's reach as its service
# unit puts it (OOMScoreAdjust=-1000); returns once it answers `status` (it answers only
# from its loop: subscribed to the proc connector and past its first full pass).
DAEMON_PID=
daemon_start() {
	sh -c "echo -1000 >/proc/self/oom_score_adj; exec oompardon -c $CONF --run-dir $RUN_DIR daemon $*" \
		2>>/tmp/daemon.log &
	DAEMON_PID=$!
	n=100
	while [ "$n" -gt 0 ]; do
		if oompardon --run-dir "$RUN_DIR" status >/dev/null 2>&1; then
			return 0
		fi
		alive "$DAEMON_PID" || break
		n=$((n - 1))
		usleep 100000
	done
	fail "${T:-$SCENARIO}: the daemon comes up"
	return 1
}

# show_log FILE: its lines as diagnostics
show_log() {
	[ -f "$1" ] || return 0
	while IFS= read -r l; do diag "$l"; done <"$1"
}

# killed_by_oom PID: the kernel's OOM killer took PID (its own log line says so)
killed_by_oom() {
	dmesg | grep -q "Killed process $1 "
}

# oom_victims: the pids the kernel's OOM killer took, in order
oom_victims() {
	dmesg | sed -n 's/.*Killed process \([0-9]*\) .*/\1/p' | tr '\n' ' '
}

# hogs N: starts N hogs (vm_hog, 0 MiB, ready to grow on SIGUSR1); sets HOGS
hogs() {
	HOGS=
	i=0
	while [ "$i" -lt "$1" ]; do
		start_ready vm_hog -g 0 || { fail "a hog did not start"; return 1; }
		HOGS="$HOGS $READY_PID"
		i=$((i + 1))
	done
}

# global_oom: lets the hogs grow, waits until each is gone; 0 when the kernel's OOM
# killer took every one of them (SIGKILL, and its "Killed process" line).
global_oom() {
	kill -USR1 $HOGS
	ok=0
	for h in $HOGS; do
		wait "$h"
		rc=$?
		if [ "$rc" != 137 ] || ! killed_by_oom "$h"; then
			diag "hog $h ended with status $rc, $(killed_by_oom "$h" && echo "killed by the OOM killer" || echo "not by the OOM killer")"
			ok=1
		fi
	done
	return $ok
}

# rss_kib PID
rss_kib() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$1/status" 2>/dev/null; }

# first_pid: the "pid" of the first object of a JSON array on stdin (oompardon ls --json)
first_pid() {
	tr -d ' \n\t' | sed 's/},{/}\n{/g' | head -n 1 | sed -n 's/.*"pid":\([0-9]*\).*/\1/p'
}
