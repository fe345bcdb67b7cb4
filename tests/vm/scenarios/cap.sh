# cap: with CAP_SYS_RESOURCE (root in the guest), apply, exec --pardon, the daemon and a
# runtime pardon write -1000 for real; restore, unpardon and a clean stop put originals back.
T="CAP_SYS_RESOURCE"
capeff=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)
expect_eq "$(( (0x$capeff >> 24) & 1 ))" 1 "$T: root in the guest holds CAP_SYS_RESOURCE (bit 24 of CapEff $capeff)"
config 'pardon /bin/vm_locker'
start_ready sh -c 'echo 7 >/proc/self/oom_score_adj && exec vm_locker 1' || { fail "$T: the locker did not start"; return; }
L=$READY_PID
oompardon -c "$CONF" --run-dir "$RUN_DIR" apply >/tmp/apply.out 2>&1
check $? "$T: apply succeeds"
show_log /tmp/apply.out
expect_eq "$(adj_of "$L")" -1000 "$T: apply writes -1000"
oompardon -c "$CONF" --run-dir "$RUN_DIR" restore >/tmp/restore.out 2>&1
check $? "$T: restore succeeds"
expect_eq "$(adj_of "$L")" 7 "$T: restore puts back 7"
start_ready oompardon exec --pardon -- vm_hog 1 || fail "$T: exec --pardon did not start vm_hog"
E=$READY_PID
expect_eq "$(adj_of "$E")" -1000 "$T: exec --pardon runs the program with -1000"
daemon_start || return
expect_eq "$(wait_adj "$L" -1000)" -1000 "$T: the daemon's first pass writes -1000"
start_ready vm_locker 1 || fail "$T: a second locker did not start"
L2=$READY_PID
expect_eq "$(wait_adj "$L2" -1000)" -1000 "$T: the daemon writes -1000 at exec"
start_ready sh -c 'echo 3 >/proc/self/oom_score_adj && exec vm_hog 1' || fail "$T: a hog did not start"
H=$READY_PID
oompardon --run-dir "$RUN_DIR" pardon /bin/vm_hog >/tmp/pardon.out 2>&1
check $? "$T: oompardon pardon /bin/vm_hog at runtime"
expect_eq "$(wait_adj "$H" -1000)" -1000 "$T: the daemon writes the runtime pardon at once"
oompardon --run-dir "$RUN_DIR" unpardon /bin/vm_hog >/tmp/unpardon.out 2>&1
check $? "$T: oompardon unpardon /bin/vm_hog"
expect_eq "$(wait_adj "$H" 3)" 3 "$T: unpardon gives the hog back its 3"
kill -TERM "$DAEMON_PID"
wait "$DAEMON_PID"
expect_eq "$(adj_of "$L")" 7 "$T: the daemon's clean stop puts back 7"
kill "$L" "$L2" "$E" "$H"
# --zero-window: the exec of a pardoned file waits for its -1000, so the program reads
# -1000 as its very first act, every time.
config 'pardon /bin/vm_readadj'
daemon_start --zero-window || return
stale=0
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	[ "$(vm_readadj)" = -1000 ] || stale=$((stale + 1))
done
expect_eq "$stale" 0 "$T: --zero-window: 20 of 20 launches read -1000 at their first instruction"
held=$(oompardon --run-dir "$RUN_DIR" status | sed -n 's/^  held execs: //p')
[ "${held:-0}" -ge 20 ]
check $? "$T: --zero-window: the daemon held those execs itself ($held)"
kill -TERM "$DAEMON_PID"
wait "$DAEMON_PID"
