# forgery: an unprivileged user (uid 1000) tries to get the listed program's pardon
# without being it. None of the forgeries may get a changed score; the genuine program,
# run by the same user, gets -1000. The daemon handles events in order, so once the
# genuine one is pardoned it has seen every forgery before it.
T="forgery"
mkdir -m 1777 /tmp/ww
config 'pardon /bin/vm_locker /tmp/ww/listed'
daemon_start || return
vm_as 1000 cp /bin/cp /bin/vm_locker /tmp/vm_locker && vm_as 1000 cp /bin/cp /bin/vm_locker /tmp/ww/listed
check $? "$T: uid 1000 copies the listed binary into world-writable directories"
start_ready vm_as 1000 vm_locker /tmp/vm_locker 1 || fail "$T: the copy did not start"
COPY=$READY_PID
start_ready vm_as 1000 listed /tmp/ww/listed 1 || fail "$T: the listed path in a world-writable directory did not start"
WW=$READY_PID
start_ready vm_as 1000 vm_locker /bin/vm_hog -n vm_locker 1 || fail "$T: the renamed process did not start"
RENAMED=$READY_PID
start_ready vm_as 1000 /bin/vm_locker /bin/vm_hog 1 || fail "$T: the argv[0] forgery did not start"
ARGV0=$READY_PID
# In a user namespace of its own the user may bind-mount its own file over the listed
# path: the process's exe link then reads /bin/vm_locker, but the inode is the user's.
vm_as 1000 cp /bin/cp /bin/vm_hog /tmp/own
start_ready vm_as 1000 unshare /bin/unshare -Urm sh -c 'mount --bind /tmp/own /bin/vm_locker && exec /bin/vm_locker 1' ||
	fail "$T: the bind mount over the listed path did not start"
BIND=$READY_PID
start_ready vm_as 1000 vm_locker /bin/vm_locker 1 || fail "$T: the genuine locker did not start"
GENUINE=$READY_PID
expect_eq "$(cat /proc/$RENAMED/comm)" vm_locker "$T: the renamed process is called vm_locker (prctl)"
expect_eq "$(wait_adj "$GENUINE" -1000)" -1000 "$T: the genuine /bin/vm_locker run by uid 1000 is pardoned"
expect_eq "$(adj_of "$COPY")" 0 "$T: a copy of the listed binary in /tmp keeps 0"
expect_eq "$(adj_of "$WW")" 0 "$T: a listed path in a world-writable directory keeps 0"
expect_eq "$(adj_of "$RENAMED")" 0 "$T: a process renamed to the listed name keeps 0"
expect_eq "$(adj_of "$ARGV0")" 0 "$T: a process whose argv[0] is the listed path keeps 0"
[ "$(readlink "/proc/$BIND/exe")" = /bin/vm_locker ] &&
	[ "$(stat -L -c %i "/proc/$BIND/exe")" != "$(stat -c %i /bin/vm_locker)" ]
check $? "$T: the bind-mounted forgery's exe link reads /bin/vm_locker, its inode is the user's"
expect_eq "$(adj_of "$BIND")" 0 "$T: a user's own file bind-mounted over the listed path keeps 0"
kill "$COPY" "$WW" "$RENAMED" "$ARGV0" "$BIND" "$GENUINE"
