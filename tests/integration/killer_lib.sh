# killer_lib.sh - helpers for the early killer's tests (bash), sourced after lib.sh.

# killer_cgroup_parent VAR: a memory cgroup directory we may create children in: our
# own (v1: the memory: line of /proc/self/cgroup; v2: the 0:: line, when memory is
# enabled for its children). 1 when there is none.
killer_cgroup_parent() {
	local mnt rel
	mnt=$(awk '$9 == "cgroup" && $NF ~ /(^|,)memory(,|$)/ { print $5; exit }' /proc/self/mountinfo)
	if [ -n "$mnt" ]; then
		rel=$(sed -n 's/^[0-9]*:memory://p' /proc/self/cgroup)
	else
		mnt=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
		rel=$(sed -n 's/^0:://p' /proc/self/cgroup)
		[ -n "$mnt" ] && grep -qw memory "$mnt$rel/cgroup.subtree_control" 2>/dev/null || return 1
	fi
	[ -n "$mnt" ] && [ -w "$mnt$rel" ] || return 1
	printf -v "$1" '%s' "${mnt%/}$rel"
}

# killer_cgroup_make VAR PARENT LIMIT_BYTES: a fresh child memory cgroup with that
# limit in $VAR; its processes are killed and it is removed on exit.
killer_cgroup_make() {
	local d="${2%/}/oompardon-test.$$.$RANDOM"
	mkdir "$d" || return 1
	atexit "killer_cgroup_remove '$d'"
	if [ -e "$d/memory.limit_in_bytes" ]; then
		echo "$3" >"$d/memory.limit_in_bytes" || return 1
	else
		echo "$3" >"$d/memory.max" || return 1
	fi
	printf -v "$1" '%s' "$d"
}

# killer_cgroup_remove DIR: kills what is left inside it and its children, then removes
# them, deepest first (within 5 s each: a process killed a moment ago may still hold one).
killer_cgroup_remove() {
	local d i pids
	[ -d "$1" ] || return 0
	for d in $(find "$1" -depth -type d); do
		for i in $(seq 1 500); do
			pids=$(cat "$d/cgroup.procs" 2>/dev/null)
			[ -n "$pids" ] && kill -KILL $pids 2>/dev/null
			rmdir "$d" 2>/dev/null && break
			[ -d "$d" ] || break
			sleep 0.01
		done
	done
	[ ! -d "$1" ]
}

# killer_start_in VAR CGROUP CMD [ARGS]: starts CMD inside CGROUP (it moves itself in
# before exec), its pid in $VAR, killed on exit.
killer_start_in() {
	local var=$1 cg=$2 pid
	shift 2
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "$@" &
	pid=$!
	LIB_PIDS+=("$pid")
	printf -v "$var" '%s' "$pid"
}

# killer_rss_at_least PID KIB: has PID a resident set of at least KIB?
killer_rss_at_least() {
	local rss
	rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
	[ -n "$rss" ] && [ "$rss" -ge "$2" ]
}

# killer_gone PID: has PID exited (gone, or a zombie nobody reaped yet)?
killer_gone() {
	local state
	state=$(awk '/^State:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
	[ -z "$state" ] || [ "$state" = Z ]
}

# killer_oom_kills CGROUP: how many processes the kernel's OOM killer took in it.
killer_oom_kills() {
	if [ -e "$1/memory.oom_control" ]; then
		awk '$1 == "oom_kill" { print $2 }' "$1/memory.oom_control"
	else
		awk '$1 == "oom_kill" { print $2 }' "$1/memory.events"
	fi
}

# killer_child_of PID PATTERN: the pid of PID's child whose command line contains
# PATTERN (printed; 1 when there is none).
killer_child_of() {
	local c
	c=$(pgrep -P "$1" -f -- "$2" | head -1)
	[ -n "$c" ] && echo "$c"
}
