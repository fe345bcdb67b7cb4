# pardon: the daemon pardons a locker started after it; hogs drive the VM into a global
# OOM; the kernel takes the hogs and the locker, the biggest process by far, survives.
T="pardon run $RUN"
config 'pardon /bin/vm_locker'
daemon_start || return
start_ready vm_locker 120 || { fail "$T: the locker did not start"; return; }
L=$READY_PID
expect_eq "$(wait_adj "$L" -1000)" -1000 "$T: the daemon pardons vm_locker, started after it (-1000)"
# In the guest we are in the initial namespaces: the proc connector must serve us.
events=$(oompardon --run-dir "$RUN_DIR" status 2>&1 | sed -n 's/^events: //p')
case $events in
none*|"") fail "$T: the daemon works from kernel events (status says: '$events')" ;;
*) pass "$T: the daemon works from kernel events ($events)" ;;
esac
hogs 3 || return
diag "locker $L holds $(rss_kib "$L") KiB; hogs:$HOGS"
global_oom
check $? "$T: the kernel's OOM killer takes every hog"
alive "$L" && ! killed_by_oom "$L"
check $? "$T: the pardoned locker survives the global OOM"
diag "OOM victims in order: $(oom_victims)"
expect_eq "$(adj_of "$L")" -1000 "$T: the locker is still pardoned after the OOM"
alive "$DAEMON_PID"
check $? "$T: the daemon is alive"
