#!/usr/bin/env bash
# 20-forgery.t - a pardon goes to the listed executable only: never to a process that
# took its name (prctl, exec -a), to a copy, to the listed path in a directory others
# can write, or to another file bind-mounted over the listed path.
. "$(dirname "$0")/lib.sh"

# /tmp is sticky and world-writable, so nothing below it may carry a pardon: the
# genuine binary lives in a directory only root controls.
trusted_tmpdir base
mkdir -m 0755 "$base/bin" "$base/open"
chmod 1777 "$base/open"			# sticky and world-writable, like /tmp
tmpdir tmp
chmod 1777 "$tmp"
tmpdir run_dir

listed=$base/bin/locker
for f in "$listed" "$base/bin/upgraded" "$base/open/locker" "$base/open/listed" "$tmp/locker"; do
	install -m 0755 -o 0 -g 0 "$HELPERS/pretender" "$f"
done

conf=$base/oompardon.conf
cat >"$conf" <<EOF
pardon $listed
pardon $base/*/locker
pardon $base/open/listed
pardon $base/bin/upgraded
EOF

# runs_exe PID EXE [COMM]: does PID run EXE now (and carry COMM, when given)?
runs_exe() {
	[ "$(readlink "/proc/$1/exe" 2>/dev/null)" = "$2" ] &&
		{ [ -z "${3:-}" ] || [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$3" ]; }
}

# start VAR EXE [COMM] -- CMD [ARGS]: starts CMD in the background, waits until it
# runs EXE (with COMM), puts its pid in $VAR. Killed on exit.
start() {
	local _var=$1 _exe=$2 _comm= _pid
	shift 2
	if [ "$1" != -- ]; then _comm=$1; shift; fi
	shift
	"$@" &
	_pid=$!
	LIB_PIDS+=("$_pid")
	wait_until 10 runs_exe "$_pid" "$_exe" "$_comm" || { echo "# $* never ran $_exe"; return 1; }
	printf -v "$_var" '%s' "$_pid"
}

start genuine "$listed" -- "$listed"
start upgraded "$base/bin/upgraded" -- "$base/bin/upgraded"
start by_comm "$HELPERS/pretender" locker -- "$HELPERS/pretender" --comm locker
start by_argv0 "$HELPERS/pretender" -- bash -c "exec -a '$listed' '$HELPERS/pretender'"
start tmp_copy "$tmp/locker" -- "$tmp/locker"
start open_copy "$base/open/locker" -- "$base/open/locker"
start open_listed "$base/open/listed" -- "$base/open/listed"

# Another file bind-mounted over the listed path in a private mount namespace:
# /proc/PID/exe then reads as the listed path, but the inode is the forger's.
by_bind=
if unshare -m true 2>/dev/null; then
	start by_bind "$listed" -- unshare -m --propagation private \
		bash -c "mount --bind '$tmp/locker' '$listed' && exec '$listed'"
fi

forgeries="by_comm by_argv0 tmp_copy open_copy open_listed${by_bind:+ by_bind}"
[ -n "$by_bind" ] || echo "# no mount namespaces here: the bind-mount forgery is not tried"
plan $((9 + 2 * $(wc -w <<<"$forgeries")))

# pardoned_of PID: "true" or "false", the pardoned field of PID in the ls JSON on stdin.
pardoned_of() {
	perl -MJSON::PP -e '
		my $pid = shift;
		my $all = eval { decode_json(join "", <STDIN>) } or do { print "no JSON"; exit 0 };
		for (@$all) { if ($_->{pid} == $pid) { print $_->{pardoned} ? "true" : "false"; exit 0 } }
		print "absent";' "$1"
}

ls_json() { "$OOMPARDON" -c "$conf" --run-dir "$run_dir" ls --json 2>"$base/ls.err"; }

is "$(ls_json | pardoned_of "$upgraded")" true "before its upgrade, a listed binary is pardoned"

# A package upgrade replaces the binary under a running process: its exe now reads
# "... (deleted)" and cannot be checked against the disk any more.
install -m 0755 -o 0 -g 0 "$HELPERS/pretender" "$base/bin/upgraded.new"
mv -f "$base/bin/upgraded.new" "$base/bin/upgraded"

# Raising needs no privilege: give every forgery a value of its own, so that any
# write apply made to it would show.
for name in $forgeries upgraded; do set_adj "${!name}" 123; done

# ---- the rules' verdict, as `ls --json` reports it ----
json=$(ls_json)
status=$?
is "$status" 0 "ls --json exits 0"
[ "$status" = 0 ] || diag <"$base/ls.err"
is "$(pardoned_of "$genuine" <<<"$json")" true "the listed binary is pardoned by verdict"
is "$(pardoned_of "$upgraded" <<<"$json")" false \
	"an upgraded (deleted) binary is neither pardoned nor un-pardoned"
for name in $forgeries; do
	is "$(pardoned_of "${!name}" <<<"$json")" false "forgery $name (pid ${!name}) is not pardoned"
done

# ---- what apply does ----
dry=$("$OOMPARDON" -c "$conf" --run-dir "$run_dir" apply --dry-run 2>&1)
check "apply --dry-run would pardon the listed binary" \
	grep -Eq "(^|[^0-9])$genuine([^0-9].*)?-1000" <<<"$dry"
diag <<<"$dry"

out=$("$OOMPARDON" -c "$conf" --run-dir "$run_dir" apply 2>&1)
status=$?
diag <<<"$out"
# Without CAP_SYS_RESOURCE (this machine, many containers) the kernel refuses any
# value below 0 with EACCES: apply must then say so and exit 1; with it, -1000.
if can_lower; then
	is "$(adj "$genuine")" -1000 "apply pardoned the listed binary"
else
	no_cap_said() { [ "$status" = 1 ] && grep -q CAP_SYS_RESOURCE <<<"$out"; }
	check "apply tried to pardon the listed binary, said why it could not, exit 1 ($status)" \
		no_cap_said
fi
is "$(adj "$upgraded")" 123 "apply left the upgraded binary's value as it was"
for name in $forgeries; do
	is "$(adj "${!name}")" 123 "apply left forgery $name's oom_score_adj as it was"
done

# ---- a cgroup carries a pardon only while root alone controls it ----
# Two child cgroups of ours (the memory hierarchy on v1, the unified one on v2): one
# root's, one delegated to nobody, who could move any process of theirs into it.
cg_line=$(grep -m1 -E '^[0-9]+:([^:]*,)?memory(,[^:]*)?:/' /proc/self/cgroup)
if [ -n "$cg_line" ]; then
	cg_mnt=$(findmnt -n -o TARGET -t cgroup -O memory | head -n1)
else
	cg_line=$(grep -m1 '^0::/' /proc/self/cgroup)
	cg_mnt=$(findmnt -n -o TARGET -t cgroup2 | head -n1)
fi
cg_path=${cg_line#*:*:}
cg_path=${cg_path%/}
cg_root=$cg_mnt$cg_path/oompardon-forgery.$$
cg_user=$cg_mnt$cg_path/oompardon-forgery-delegated.$$

# new_cgroup DIR: makes it, and on exit kills what is inside and removes it.
new_cgroup() {
	mkdir "$1" 2>/dev/null || return 1
	atexit "for p in \$(cat '$1/cgroup.procs'); do stop \$p; done; rmdir '$1'"
}

# in_cgroup VAR DIR: starts a copy in $tmp (an exe that cannot carry a pardon) in DIR.
in_cgroup() {
	start "$1" "$tmp/locker" -- "$tmp/locker" && echo "${!1}" >"$2/cgroup.procs"
}

if [ -n "$cg_mnt" ] && new_cgroup "$cg_root" && new_cgroup "$cg_user" &&
   chown -R 65534:65534 "$cg_user" && in_cgroup cg_root_pid "$cg_root" &&
   in_cgroup cg_user_pid "$cg_user"; then
	echo "pardon cgroup=$cg_path/oompardon-forgery*" >"$base/cgroup.conf"
	json=$("$OOMPARDON" -c "$base/cgroup.conf" --run-dir "$run_dir" ls --json 2>"$base/ls.err")
	is "$(pardoned_of "$cg_root_pid" <<<"$json")" true "a process in a root-owned cgroup is pardoned"
	is "$(pardoned_of "$cg_user_pid" <<<"$json")" false "a process in a delegated cgroup is not"
else
	ok "a process in a root-owned cgroup is pardoned # SKIP cannot make child cgroups here"
	ok "a process in a delegated cgroup is not # SKIP cannot make child cgroups here"
fi

done_testing
