#!/usr/bin/env bash
# The early killer on the whole system, in dry run (nothing is killed on the machine that
# runs the tests): with a threshold no machine meets, it names whom it would take. Never the
# pardoned process (the largest), and a score rule counts as the admin wrote it even where
# the kernel refused the lower value: here a 200 MiB process at oom_score_adj 1000 with a
# rule for -900 goes after a 50 MiB one at 1000, although the kernel would take it first.
# (Both at 1000 so that no other process on a shared machine comes before them.)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/killer_lib.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root"
trusted_tmpdir T
tmpdir R
install -m 0755 "$HELPERS/killer_pardoned" "$T/killer_pardoned"
install -m 0755 "$HELPERS/killer_hog" "$T/killer_big"
cat >"$T/oompardon.conf" <<EOF
pardon $T/killer_pardoned
score -900 $T/killer_big
killer yes
killer-dry-run yes
killer-mem-min 1000G
EOF
plan 6

"$T/killer_pardoned" 400 &
P=$!
LIB_PIDS+=("$P")
"$T/killer_big" 200 &
B=$!
LIB_PIDS+=("$B")
"$HELPERS/killer_hog" 50 &
S=$!
LIB_PIDS+=("$S")
wait_until 20 killer_rss_at_least "$P" $((400 * 1024)) && wait_until 20 killer_rss_at_least "$B" $((200 * 1024)) &&
	wait_until 20 killer_rss_at_least "$S" $((50 * 1024))
set_adj "$B" 1000
set_adj "$S" 1000

"$OOMPARDON" -c "$T/oompardon.conf" --run-dir "$R" daemon 2>"$R/log" &
D=$!
LIB_PIDS+=("$D")
check "the killer names a victim on the whole system" wait_until 10 grep -q "dry run: would kill" "$R/log"
check "the 50 MiB process, not the one scored -900" grep -q "dry run: would kill $S $HELPERS/killer_hog (" "$R/log"
check "the reason is the threshold" grep -q "in the system: available memory .* < 1000.0 GiB of" "$R/log"
check "the pardoned one lives, nobody was killed" kill -0 "$P" "$B" "$S"
if killer_cgroup_parent CGP; then
	echo "killer-scope $CGP" >>"$T/oompardon.conf"
	kill -HUP "$D"
	check "a reload moves the killer to a cgroup" wait_until 10 grep -q "early OOM killer now watching $CGP\$" "$R/log"
else
	ok "# SKIP no memory cgroup to move to"
fi
kill -TERM "$D"
wait "$D"
is "$?" 0 "the daemon exits cleanly"
done_testing
