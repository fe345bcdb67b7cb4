#!/usr/bin/env bash
# The early killer's options: killer-target group and cgroup take the victim's process group
# or memory cgroup but still spare the pardoned among them; killer-last-resort command runs
# once when only pardoned processes are left.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/killer_lib.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root"
killer_cgroup_parent CGP || skip_all "no writable memory cgroup here"
command -v setsid >/dev/null || skip_all "no setsid"
trusted_tmpdir T
tmpdir R
killer_cgroup_make CG "$CGP" $((300 * 1024 * 1024)) || skip_all "cannot create a child memory cgroup"
install -m 0755 "$HELPERS/killer_pardoned" "$T/killer_pardoned"

plan 16

# daemon CONF LOG: starts the daemon with the killer on $CG, its pid in $D.
daemon() {
	"$OOMPARDON" -c "$1" --run-dir "$R" daemon --killer --scope "$CG" 2>"$2" &
	D=$!
	LIB_PIDS+=("$D")
	wait_until 10 grep -q "early OOM killer watching $CG" "$2"
}

# --- killer-target group: a session of its own holding a 60 MiB hog, the pardoned
# (100 MiB) and a grower; outside the group a 20 MiB hog in the same cgroup.
cat >"$T/group.conf" <<EOF
pardon $T/killer_pardoned
killer-grace 1s
killer-target group
EOF
daemon "$T/group.conf" "$R/group.log"
killer_start_in O "$CG" "$HELPERS/killer_hog" 20
killer_start_in L "$CG" setsid sh -c \
	"$HELPERS/killer_hog 60 & $T/killer_pardoned 100 & sleep 1; $HELPERS/killer_hog 200 1 50 & wait"
wait_until 10 killer_child_of "$L" "killer_hog 200" >/dev/null && G=$(killer_child_of "$L" "killer_hog 200")
H=$(killer_child_of "$L" "killer_hog 60")
P=$(killer_child_of "$L" "killer_pardoned")
check "the grower is gone within 20 s" wait_until 20 killer_gone "$G"
check "it was the one chosen" grep -q "killing $G .*SIGTERM" "$R/group.log"
check "its group went with it" wait_until 10 killer_gone "$H"
check "the log says so" grep -q "more processes of $G's process group signalled too" "$R/group.log"
check "the pardoned member was spared" grep -q "sparing 1 pardoned or unkillable member of $G's process group" \
	"$R/group.log"
check "and lives" kill -0 "$P"
check "outside the group nobody was touched" kill -0 "$O"
kill -TERM "$D"
wait "$D"
stop "$O"

# --- killer-target cgroup: the victim's own memory cgroup, a child of the scope.
killer_cgroup_make SUB "$CG" $((1024 * 1024 * 1024)) || { echo "Bail out! no sub-cgroup"; exit 1; }
sed 's/^killer-target .*/killer-target cgroup/' "$T/group.conf" >"$T/cgroup.conf"
daemon "$T/cgroup.conf" "$R/cgroup.log"
killer_start_in O "$CG" "$HELPERS/killer_hog" 20
killer_start_in H "$SUB" "$HELPERS/killer_hog" 40
killer_start_in G "$SUB" "$HELPERS/killer_hog" 200 1 50
check "the grower in the sub-cgroup is gone within 20 s" wait_until 20 killer_gone "$G"
check "its cgroup went with it" wait_until 10 killer_gone "$H"
check "but not the rest of the scope" kill -0 "$O"
check "nor the pardoned" kill -0 "$P"
kill -TERM "$D"
wait "$D"
stop "$O"

# --- only pardoned processes left: the last-resort command runs, once.
cat >"$T/last.conf" <<EOF
pardon $T/killer_pardoned
killer-last-resort command /bin/sh -c 'echo "\$OOMPARDON_SCOPE" >> $R/last'
EOF
daemon "$T/last.conf" "$R/last.log"
killer_start_in P2 "$CG" "$T/killer_pardoned" 175 5 20
check "the killer sees only pardoned processes" \
	wait_until 20 grep -q "only pardoned processes are left in $CG" "$R/last.log"
check "the command ran with the scope" wait_until 10 grep -qx "$CG" "$R/last"
sleep 1
is "$(nlines "$R/last")" 1 "once while memory stays low"
check "both pardoned live" kill -0 "$P" "$P2"
is "$(killer_oom_kills "$CG")" 0 "the kernel's OOM killer never ran in the cgroup"
kill -TERM "$D"
wait "$D"
done_testing
