#!/bin/busybox sh
# /init of the test VM: mounts the kernel filesystems, runs the ONE scenario named by
# vmtest= on the kernel command line, and powers off. Results go to the second serial
# port (/dev/ttyS1), one line each, so kernel messages on the console never split them:
#   ok - TEXT | not ok - TEXT | # diagnostic | expect panic MESSAGE | done
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t cgroup2 cgroup2 /sys/fs/cgroup
mkdir -p /run && mount -t tmpfs -o mode=0755 tmpfs /run

exec 3>/dev/ttyS1
SCENARIO=
RUN=1
for arg in $(cat /proc/cmdline); do
	case $arg in
	vmtest=*) SCENARIO=${arg#vmtest=} ;;
	vmrun=*) RUN=${arg#vmrun=} ;;
	esac
done
. /vm/lib.sh
if [ -f "/vm/scenarios/$SCENARIO.sh" ]; then
	. "/vm/scenarios/$SCENARIO.sh"
else
	fail "no scenario '$SCENARIO' in the initramfs"
fi
if [ "$FAILED" = 1 ]; then
	if [ -s /tmp/daemon.log ]; then
		diag "the daemon's log:"
		show_log /tmp/daemon.log
	fi
	if dmesg | grep -E 'invoked oom-killer|oom-kill:|Killed process|out of memory|memory: usage' >/tmp/oom.log; then
		diag "the kernel's OOM lines:"
		show_log /tmp/oom.log
	fi
fi
echo done >&3
poweroff -f
