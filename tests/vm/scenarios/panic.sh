# panic: only pardoned processes hold memory. When the pardoned locker itself exhausts
# memory, nothing is left to kill and the kernel panics: "if nothing else can be killed,
# I'd rather you panic". The harness reads the panic from the console.
T="panic"
config 'pardon /bin/vm_locker'
daemon_start || return
start_ready vm_locker -g 20 || { fail "$T: the locker did not start"; return; }
L=$READY_PID
expect_eq "$(wait_adj "$L" -1000)" -1000 "$T: the daemon pardons the locker"
echo "expect panic System is deadlocked on memory" >&3
kill -USR1 "$L"
wait "$L"
fail "$T: the pardoned locker ended (status $?, $(killed_by_oom "$L" && echo "killed by the OOM killer" || echo "not by the OOM killer")) instead of a panic"
