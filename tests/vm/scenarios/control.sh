# control: the pardon run without the rule. The locker is the biggest process, so the
# kernel's OOM killer takes it first: without this, the pardon run proves nothing.
T="control"
config '# no rule names the locker'
daemon_start || return
start_ready vm_locker 120 || { fail "$T: the locker did not start"; return; }
L=$READY_PID
hogs 3 || return
expect_eq "$(adj_of "$L")" 0 "$T: without a rule the locker keeps oom_score_adj 0"
kill -USR1 $HOGS
wait "$L"
rc=$?
kill -9 $HOGS 2>/dev/null	# they would be next; the checks below want memory
killed_by_oom "$L"
check $? "$T: the kernel's OOM killer takes the unpardoned locker (exit status $rc)"
first=$(oom_victims | cut -d' ' -f1)
expect_eq "$first" "$L" "$T: the locker is the OOM killer's first choice"
