# panic999: the same as panic with the setting `pardon-score -999`: the pardoned process is
# killable when nothing else is left, so the kernel kills it and the machine lives.
T="pardon-score -999"
config 'pardon-score -999' 'pardon /bin/vm_locker'
daemon_start || return
start_ready vm_locker -g 20 || { fail "$T: the locker did not start"; return; }
L=$READY_PID
expect_eq "$(wait_adj "$L" -999)" -999 "$T: the daemon pardons the locker with -999"
kill -USR1 "$L"
wait "$L"
rc=$?
killed_by_oom "$L"
check $? "$T: the kernel's OOM killer takes the locker instead of panicking (status $rc)"
alive "$DAEMON_PID"
check $? "$T: the machine lives on, the daemon with it"
