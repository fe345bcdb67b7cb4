#!/usr/bin/env bash
# killer-psi: the trigger is armed on /proc/pressure/memory (system scope); a window the
# kernel refuses without CAP_SYS_RESOURCE, and a cgroup v1 scope (no pressure file of its
# own), leave the thresholds alone in charge and say why. Dry runs: nobody is killed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/killer_lib.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root"
[ -e /proc/pressure/memory ] || skip_all "no PSI in this kernel"
tmpdir T
plan 3

# starts the daemon with CONF-LINES (printf format) in dry run, returns when the killer
# has said what it watches; its log in $T/log.
run() {
	printf "killer yes\nkiller-dry-run yes\n$1" >"$T/conf"
	"$OOMPARDON" -c "$T/conf" --run-dir "$T" daemon --killer ${2:+--scope "$2"} 2>"$T/log" &
	local d=$!
	wait_until 10 grep -q "early OOM killer watching" "$T/log"
	kill -TERM "$d"
	wait "$d"
}

run 'killer-psi some 150ms 2s\n'
check "a 2 s window is armed on /proc/pressure/memory" \
	grep -q "watching the system: .*, or on memory pressure some 150000 2000000" "$T/log"

if can_lower; then
	ok "# SKIP with CAP_SYS_RESOURCE the kernel takes any window"
else
	run 'killer-psi full 100ms 1s\n'
	check "a 1 s window is refused, and the log says why" \
		grep -q 'killer-psi "full 100000 1000000" refused by the kernel (without CAP_SYS_RESOURCE' "$T/log"
fi

if killer_cgroup_parent CGP && [ -e "$CGP/memory.limit_in_bytes" ]; then
	run 'killer-psi some 150ms 2s\n' "$CGP"
	check "a cgroup v1 scope has no pressure file: thresholds only" \
		grep -q "killer-psi: cgroup v1 has no memory.pressure for $CGP, watching the thresholds only" "$T/log"
else
	ok "# SKIP no cgroup v1 memory hierarchy"
fi
done_testing
