# restart: the daemon killed with -9 leaves its state file; a new daemon takes over:
# the pardons hold, and a clean stop gives back the true originals, never -1000.
T="kill -9 and restart"
config 'pardon /bin/vm_locker'
daemon_start || return
start_ready sh -c 'echo 123 >/proc/self/oom_score_adj && exec vm_locker 1' || { fail "$T: locker 1 did not start"; return; }
L1=$READY_PID
expect_eq "$(wait_adj "$L1" -1000)" -1000 "$T: the daemon pardons locker 1 (original 123)"
kill -9 "$DAEMON_PID"
wait "$DAEMON_PID"
expect_eq "$(adj_of "$L1")" -1000 "$T: after kill -9 of the daemon the pardon holds"
daemon_start || return
start_ready sh -c 'echo 45 >/proc/self/oom_score_adj && exec vm_locker 1' || { fail "$T: locker 2 did not start"; return; }
L2=$READY_PID
expect_eq "$(wait_adj "$L2" -1000)" -1000 "$T: the restarted daemon pardons locker 2 (original 45)"
expect_eq "$(adj_of "$L1")" -1000 "$T: the restarted daemon keeps locker 1 pardoned"
kill -TERM "$DAEMON_PID"
wait "$DAEMON_PID"
check $? "$T: the restarted daemon stops cleanly on SIGTERM"
expect_eq "$(adj_of "$L1")" 123 "$T: locker 1 gets back its true original, 123"
expect_eq "$(adj_of "$L2")" 45 "$T: locker 2 gets back its original, 45"
kill "$L1" "$L2"
