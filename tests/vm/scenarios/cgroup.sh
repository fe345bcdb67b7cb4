# cgroup: an OOM inside a cgroup v2 memory cgroup. The pardon holds there too, and
# `oompardon ls --cgroup` named first the very process the kernel killed, in a case where
# the global order differs (hog B's +150 weighs 150/1000 of the RAM globally but of the
# cgroup's limit inside it).
T="cgroup v2"
CG=/sys/fs/cgroup/vmtest
config 'pardon /bin/vm_locker'
daemon_start || return
echo +memory >/sys/fs/cgroup/cgroup.subtree_control && mkdir "$CG" && echo 100M >"$CG/memory.max"
check $? "$T: a memory cgroup with memory.max 100M"
# in_cg ADJ CMD...: runs CMD inside $CG with oom_score_adj ADJ
in_cg() {
	a=$1
	shift
	start_ready sh -c "echo \$\$ >$CG/cgroup.procs && echo $a >/proc/self/oom_score_adj && exec \"\$@\"" sh "$@"
}
in_cg 0 vm_locker 40 || { fail "$T: the locker did not start"; return; }
L=$READY_PID
in_cg 0 vm_hog 30 || { fail "$T: hog A did not start"; return; }
A=$READY_PID
in_cg 150 vm_hog 10 || { fail "$T: hog B did not start"; return; }
B=$READY_PID
expect_eq "$(wait_adj "$L" -1000)" -1000 "$T: the daemon pardons the locker in the cgroup"
diag "locker $L, hog A $A (30 MiB), hog B $B (10 MiB, +150); usage $(cat "$CG/memory.current")"
oompardon -c "$CONF" ls --json >/tmp/ls.json 2>/tmp/ls.err || show_log /tmp/ls.err
oompardon -c "$CONF" ls --json --cgroup "$CG" >/tmp/lscg.json 2>/tmp/lscg.err || show_log /tmp/lscg.err
global_first=$(first_pid </tmp/ls.json)
cg_first=$(first_pid </tmp/lscg.json)
diag "ls names first: globally $global_first, inside the cgroup $cg_first"
expect_eq "$global_first" "$B" "$T: globally hog B comes first (ls)"
# Hog C (-500, the last choice) pushes the cgroup over its limit.
in_cg -500 vm_hog 25 || { fail "$T: hog C did not start"; return; }
C=$READY_PID
victims=$(oom_victims)
diag "OOM victims in order: $victims"
first=$(echo $victims | cut -d' ' -f1)
# Only the first choice is the kernel's ranking: while a victim exits, a later charge may
# take another (seen once in about a dozen runs under tcg: A, then B).
expect_eq "$first" "$A" "$T: the kernel's first choice in the cgroup is hog A, not B"
expect_eq "$cg_first" "$first" "$T: ls --cgroup named first the process the kernel killed"
dmesg | grep -q "Memory cgroup out of memory"
check $? "$T: the OOM was the memory cgroup's"
alive "$L"
check $? "$T: the pardoned locker survives the memory cgroup OOM"
kill -9 "$L" "$B" "$C" 2>/dev/null
