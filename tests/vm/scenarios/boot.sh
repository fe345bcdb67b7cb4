# boot: the harness itself — the guest runs our binaries and can lower a score (root here
# has CAP_SYS_RESOURCE, unlike the development machines).
oompardon --version >/dev/null 2>&1
check $? "boot: oompardon runs in the guest"
start_ready vm_hog 1
check $? "boot: vm_hog holds memory and says ready"
echo -1000 >"/proc/$READY_PID/oom_score_adj"
expect_eq "$(adj_of "$READY_PID")" -1000 "boot: root in the guest writes -1000 by hand"
grep -q memory /sys/fs/cgroup/cgroup.controllers
check $? "boot: cgroup v2 with the memory controller"
kill "$READY_PID"
