# leak: the kernel passes oom_score_adj on through exec. A pardoned program that execs
# one nobody listed must give it back the original, -1000 being real here; with the
# setting `inherit yes` the kernel's plain inheritance stays.
T="no leaking pardons"
config 'pardon /bin/vm_locker'
daemon_start || return
start_ready sh -c 'echo 5 >/proc/self/oom_score_adj && exec vm_locker -e 1 /bin/sleep 600' ||
	{ fail "$T: the locker did not start"; return; }
L=$READY_PID
expect_eq "$(wait_adj "$L" -1000)" -1000 "$T: the daemon pardons the locker (original 5)"
kill -USR1 "$L"
expect_eq "$(wait_adj "$L" 5)" 5 "$T: the locker execs sleep, nobody listed it: back to 5"
expect_eq "$(readlink "/proc/$L/exe")" /bin/busybox "$T: the process now runs busybox (sleep)"
kill "$L"

config 'pardon /bin/vm_locker' 'inherit yes'
kill -HUP "$DAEMON_PID"
n=50
until oompardon --run-dir "$RUN_DIR" status 2>/dev/null | grep -q '^  reloads: [1-9]' || [ "$n" -le 0 ]; do
	n=$((n - 1))
	usleep 100000
done
[ "$n" -gt 0 ]
check $? "$T: the daemon reloads the config on SIGHUP"
start_ready sh -c 'echo 5 >/proc/self/oom_score_adj && exec vm_locker -e 1 /bin/sleep 600' ||
	{ fail "$T: the second locker did not start"; return; }
L=$READY_PID
expect_eq "$(wait_adj "$L" -1000)" -1000 "$T: with inherit yes the daemon pardons the locker"
kill -USR1 "$L"
n=50
until [ "$(readlink "/proc/$L/exe")" = /bin/busybox ] || [ "$n" -le 0 ]; do
	n=$((n - 1))
	usleep 100000
done
# Nothing to wait for when nothing may happen: a locker started after the exec is seen
# after it (the proc connector keeps the order), so once that one is pardoned the daemon
# has decided on the sleep.
start_ready vm_locker 1 || { fail "$T: the third locker did not start"; return; }
M=$READY_PID
expect_eq "$(wait_adj "$M" -1000)" -1000 "$T: a locker started after the exec is pardoned"
expect_eq "$(adj_of "$L")" -1000 "$T: with inherit yes the exec'd sleep keeps -1000"
kill "$L" "$M"
