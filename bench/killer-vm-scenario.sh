# killer-vm-scenario.sh - a bench scenario for the VM harness (tests/vm), never part of
# `make vmcheck`: bench/killer.sh boots it with earlyoom (Debian's package) in the guest.
# The early killer and earlyoom side by side at system scope, each with its defaults (act
# below 10 % available memory, SIGKILL below 5 %), same workload: 140 MiB held by a
# ballast out of reach (-1000), then a hog (vm_killer_hog) that wants 400 MiB more, at full
# speed and at 20 MiB/s, 10 runs each (the ballast spares the hog most of its filling, so
# that the time is mostly the reaction). Per run, one line for bench/killer.sh:
#   # kbench WHO PACE MS KERNEL AVAIL_KIB
# MS: from the hog's start to its exit, when its memory is back (/proc/uptime: 10 ms
# steps); KERNEL: 1 when the kernel's OOM killer had to act (oom_kill in /proc/vmstat);
# AVAIL_KIB: MemAvailable right after. (No RSS here: the guest's VmRSS showed both at
# 256 KiB against 1.7 MiB on the host, 6.1 keeps part of the count per task and adds it
# up lazily; bench/killer-idle.sh measures RSS on the host.)
T="kbench"
RUNS=10
oom_kills() { sed -n 's/^oom_kill //p' /proc/vmstat; }
uptime_cs() { sed 's/^\([0-9]*\)\.\([0-9]*\) .*/\1\2/' /proc/uptime; }

# start_earlyoom: earlyoom with its defaults, no periodic report, out of the OOM killer's
# reach as oompardon's daemon is; returns once it announced its limits.
start_earlyoom() {
	: >/tmp/e.log
	sh -c "echo -1000 >/proc/self/oom_score_adj; exec earlyoom -r 0" >>/tmp/e.log 2>&1 &
	DAEMON_PID=$!
	n=100
	while [ "$n" -gt 0 ] && ! grep -q "SIGKILL when" /tmp/e.log; do
		n=$((n - 1))
		usleep 100000
	done
	[ "$n" -gt 0 ] || { fail "$T: earlyoom comes up"; show_log /tmp/e.log; return 1; }
	usleep 200000	# past its first check
}

config 'killer yes'
start_ready sh -c 'echo -1000 >/proc/self/oom_score_adj && exec vm_locker 140' ||
	{ fail "$T: the ballast did not start"; return; }
for pace in full 20MiB/s; do
	case $pace in
	full) args="400 1 0" ;;
	*) args="400 1 50" ;;
	esac
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		i=$((i + 1))
		for who in oompardon earlyoom; do
			if [ "$who" = oompardon ]; then
				: >/tmp/daemon.log
				daemon_start || continue
			else
				start_earlyoom || continue
			fi
			k0=$(oom_kills)
			t0=$(uptime_cs)
			vm_killer_hog $args &
			H=$!
			wait "$H"
			t1=$(uptime_cs)
			avail=$(sed -n 's/^MemAvailable:[[:space:]]*\([0-9]*\).*/\1/p' /proc/meminfo)
			k=$(($(oom_kills) - k0))
			echo "# kbench $who $pace $(((t1 - t0) * 10)) $k $avail" >&3
			kill "$DAEMON_PID"
			wait "$DAEMON_PID"
			usleep 300000
		done
	done
done
grep -E 'killing|sending' /tmp/daemon.log /tmp/e.log >/tmp/kills.log
show_log /tmp/kills.log
pass "$T: $RUNS runs per program and pace"
