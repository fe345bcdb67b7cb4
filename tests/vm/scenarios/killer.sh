# killer: the early killer at system scope (`killer yes`, grace 300 ms). The pardoned
# locker is the largest process; a stubborn hog that ignores SIGTERM is the kernel's first
# choice among the rest; a third hog grows at 20 MiB/s until memory runs low. The killer
# acts before the kernel's OOM killer, takes the kernel's first choice (as `ls` named it a
# moment before), kills the stubborn one with SIGKILL after the grace, then takes the
# grower; the locker lives.
T="killer"
config 'pardon /bin/vm_locker' 'killer yes' 'killer-grace 300ms'
oom_kills() { sed -n 's/^oom_kill //p' /proc/vmstat; }
# wait_rss PID KIB: polls until PID holds KIB (10 s); 1 when it died or never got there
wait_rss() {
	n=100
	while [ "$n" -gt 0 ]; do
		r=$(rss_kib "$1")
		[ -n "$r" ] || return 1
		[ "$r" -ge "$2" ] && return 0
		n=$((n - 1))
		usleep 100000
	done
	return 1
}
oom0=$(oom_kills)
daemon_start || return
grep -q "early OOM killer watching the system" /tmp/daemon.log
check $? "$T: the daemon starts the killer on the whole system"
start_ready vm_locker 100 || { fail "$T: the locker did not start"; return; }
L=$READY_PID
expect_eq "$(wait_adj "$L" -1000)" -1000 "$T: the daemon pardons the locker (100 MiB, the largest)"
vm_killer_hog -t 40 &
S=$!
wait_rss "$S" $((40 * 1024))
check $? "$T: the stubborn hog holds 40 MiB"
ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' "/proc/$S/status")
[ $((0x${ign:-0} & 0x4000)) -ne 0 ]	# bit 14: SIGTERM (15)
check $? "$T: the stubborn hog ignores SIGTERM"
diag "$(grep -E '^(MemTotal|MemAvailable)' /proc/meminfo | tr -s ' ' | tr '\n' ' ')"
# 1 MiB each 50 ms: memory runs low after about 25 MiB, well below the stubborn one's 40;
# the grace costs 6 MiB of the 11 between the threshold and its half.
vm_killer_hog 200 1 50 &
G=$!
wait_rss "$G" $((8 * 1024))
oompardon -c "$CONF" ls --json >/tmp/ls.json 2>/tmp/ls.err || show_log /tmp/ls.err
first=$(first_pid </tmp/ls.json)
diag "locker $L, stubborn $S, grower $G at $(rss_kib "$G") KiB; ls names $first first"
expect_eq "$first" "$S" "$T: ls names the stubborn hog the kernel's first choice"
# Both end within 20 s, or the killer failed: then SIGKILL, so the checks below run.
n=200
while [ "$n" -gt 0 ] && { alive "$S" || alive "$G"; }; do
	n=$((n - 1))
	usleep 100000
done
[ "$n" -gt 0 ]
check $? "$T: both hogs are gone within 20 s"
stuck=
alive "$S" && stuck="$stuck $S"
alive "$G" && stuck="$stuck $G"
kill -9 "$S" "$G" 2>/dev/null
wait "$S"
rc_s=$?
wait "$G"
rc_g=$?
# a status from our own SIGKILL proves nothing
case " $stuck " in *" $S "*) rc_s="alive after 20 s" ;; esac
case " $stuck " in *" $G "*) rc_g="alive after 20 s" ;; esac
victims=$(sed -n 's/.* killing \([0-9]*\) .*/\1/p' /tmp/daemon.log | tr '\n' ' ')
grep -E 'killing|memory came back' /tmp/daemon.log >/tmp/kills.log
show_log /tmp/kills.log
diag "the killer's victims in order: $victims; the stubborn hog ended with $rc_s, the grower with $rc_g"
expect_eq "$(oom_kills)" "$oom0" "$T: the kernel's OOM killer never ran (oom_kill in /proc/vmstat)"
! dmesg | grep -q "Out of memory"
check $? "$T: no 'Out of memory' from the kernel"
expect_eq "${victims%% *}" "$first" "$T: the killer's first victim is the kernel's first choice"
grep -q "killing $S .*SIGTERM, SIGKILL in 300 ms" /tmp/daemon.log
check $? "$T: the stubborn hog got SIGTERM first"
expect_eq "$rc_s" 137 "$T: and SIGKILL ended it"
grep -Eq "killing $S: memory (still low 300 ms|below half the thresholds [0-9]+ ms) after SIGTERM; SIGKILL" /tmp/daemon.log
check $? "$T: the killer sent that SIGKILL after the grace (or sooner, below half the thresholds)"
expect_eq "$rc_g" 143 "$T: the grower was taken next, with SIGTERM"
alive "$L" && ! grep -q "killing $L" /tmp/daemon.log
check $? "$T: the pardoned locker lives, never chosen"
alive "$DAEMON_PID"
check $? "$T: the daemon is alive"
kill -9 "$L" 2>/dev/null
