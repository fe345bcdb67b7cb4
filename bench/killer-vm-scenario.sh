# killer-vm-scenario.sh - a scenario for the VM harness (tests/vm): the early killer and
# earlyoom side by side at system scope, same workload, three runs each: a hog (vm_hog -g)
# fills memory at full speed; per run, the time from its start to its end and whether the
# kernel's OOM killer had to act. Results come back as "# ..." lines.
#
# To run it (the harness has no hook for extra programs yet): copy this file to
# tests/vm/scenarios/kbench.sh, add /usr/bin/earlyoom (Debian's package) next to
# oompardon in build_initramfs() of tests/vm/run.sh (the copy and its ldd libraries), then
# tests/vm/run.sh kbench.
#
# Measured (2 cores, tcg, 256 MiB guest, no swap, Debian 6.1 cloud kernel), with the hog
# at about 330 MiB/s: the early killer took the hog before the kernel 3 of 3 times (SIGTERM
# at 18-22 MiB available of 21.8), earlyoom 1 of 3; hog start to end 0.7-1.6 s for both,
# most of it the hog's own filling.
for who in oompardon earlyoom oompardon earlyoom oompardon earlyoom; do
	case $who in
	oompardon)
		config 'killer yes' 'killer-grace 1s'
		sh -c "echo -1000 >/proc/self/oom_score_adj; exec oompardon -c $CONF --run-dir $RUN_DIR daemon" \
			2>>/tmp/k.log &
		W=$! ;;
	earlyoom)
		sh -c "echo -1000 >/proc/self/oom_score_adj; exec earlyoom -r 0" >>/tmp/e.log 2>&1 &
		W=$! ;;
	esac
	sleep 2
	start_ready vm_hog -g 0 || { fail "$who: the hog did not start"; continue; }
	H=$READY_PID
	t0=$(cut -d' ' -f1 /proc/uptime)
	kill -USR1 "$H"
	wait "$H"
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	k=no
	killed_by_oom "$H" && k=yes
	diag "$who: hog ended with status $rc after $(awk "BEGIN { print ($t1 - $t0) * 1000 }") ms; kernel OOM kill: $k"
	kill "$W"
	wait "$W"
	sleep 1
done
show_log /tmp/k.log
show_log /tmp/e.log
pass "killer benchmark done"
