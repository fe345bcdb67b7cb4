#!/usr/bin/env bash
# The early killer inside a child memory cgroup: it acts before the kernel's OOM killer,
# takes the kernel's first choice, never the pardoned process (the largest here, whose
# -1000 the kernel refuses without CAP_SYS_RESOURCE), and kills a victim that ignores
# SIGTERM with SIGKILL after the grace. Then the hook's facts, then a dry run.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/killer_lib.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root"
killer_cgroup_parent CGP || skip_all "no writable memory cgroup here"
trusted_tmpdir T
tmpdir R

# 300 MiB: the threshold (10 %) is at 30 MiB of room.
killer_cgroup_make CG "$CGP" $((300 * 1024 * 1024)) || skip_all "cannot create a child memory cgroup"
install -m 0755 "$HELPERS/killer_pardoned" "$T/killer_pardoned"
cat >"$T/oompardon.conf" <<EOF
pardon $T/killer_pardoned
killer-grace 1s
killer-hook /bin/sh -c 'env | grep ^OOMPARDON_ | sort > $R/hook.\$OOMPARDON_PID'
EOF

plan 20

"$OOMPARDON" -c "$T/oompardon.conf" --run-dir "$R" daemon --killer --scope "$CG" 2>"$R/log" &
D=$!
LIB_PIDS+=("$D")
check "the daemon starts the killer on the cgroup" wait_until 10 grep -q "early OOM killer watching $CG" "$R/log"

# The pardoned process is the largest: 120 MiB; a stubborn one 90 MiB; a third grows
# by 1 MiB each 50 ms (20 MiB/s: the grace of 1 s costs 20 MiB, within the 30 MiB room).
killer_start_in P "$CG" "$T/killer_pardoned" 120
killer_start_in S "$CG" "$HELPERS/killer_hog" -t 90
wait_until 10 killer_rss_at_least "$P" $((120 * 1024)) && wait_until 10 killer_rss_at_least "$S" $((90 * 1024))
killer_start_in G "$CG" "$HELPERS/killer_hog" 200 1 50

# Well before the threshold (the grower crosses it at about 60 MiB), ask ls.
wait_until 10 killer_rss_at_least "$G" $((20 * 1024))
"$OOMPARDON" -c "$T/oompardon.conf" --run-dir "$R" ls --json --cgroup "$CG" >"$R/ls.json"
first=$(grep -o '"pid": *[0-9]*' "$R/ls.json" | head -1 | grep -o '[0-9]*$')
first_killable=$(tr '{' '\n' <"$R/ls.json" | grep '"pardoned": *false' | grep -o '"pid": *[0-9]*' | head -1 |
	grep -o '[0-9]*$')
if can_lower; then
	is "$first" "$S" "the pardon is written: the kernel would not take the pardoned process"
else
	is "$first" "$P" "the kernel would take the pardoned process first (its -1000 was refused here)"
fi
is "$first_killable" "$S" "after it, the stubborn one: the kernel's first choice among the killable"

check "the stubborn process is gone within 20 s" wait_until 20 killer_gone "$S"
check "the killer took it first, with SIGTERM" grep -q "killing $S .*SIGTERM" "$R/log"
check "then SIGKILL after the grace (or sooner, below half the threshold)" \
	grep -Eq "killing $S: memory (still low 1000 ms|below half the thresholds [0-9]+ ms) after SIGTERM; SIGKILL" "$R/log"
check "the grower is gone within 20 s" wait_until 20 killer_gone "$G"
check "the killer took it second" grep -q "killing $G .*SIGTERM" "$R/log"
check "the grower needed no SIGKILL" bash -c "! grep -q 'killing $G: ' '$R/log'"
check "the pardoned process lives" kill -0 "$P"
check "the killer never chose it" bash -c "! grep -q 'killing $P ' '$R/log'"
is "$(killer_oom_kills "$CG")" 0 "the kernel's OOM killer never ran in the cgroup"
check "the log line gives the reason and the badness" \
	grep -q "killing $S $HELPERS/killer_hog (badness [0-9]*, rss [0-9.]* MiB, no rule) in $CG: available memory" "$R/log"

check "the hook ran for the stubborn one" wait_until 10 test -s "$R/hook.$S"
check "with its facts" grep -qx "OOMPARDON_EXE=$HELPERS/killer_hog" "$R/hook.$S"
check "and the signal that ended it" grep -qx "OOMPARDON_SIGNAL=KILL" "$R/hook.$S"
kill -TERM "$D"
wait "$D"
is "$?" 0 "the daemon exits cleanly"

# Dry run: the same grower, stopping at 280 MiB, below the limit but past the threshold.
"$OOMPARDON" -c "$T/oompardon.conf" --run-dir "$R" daemon --killer --scope "$CG" --dry-run 2>"$R/dry.log" &
D=$!
LIB_PIDS+=("$D")
wait_until 10 grep -q "early OOM killer watching $CG" "$R/dry.log"
killer_start_in G2 "$CG" "$HELPERS/killer_hog" 280 4 20
check "a dry run says whom it would kill" wait_until 20 grep -q "dry run: would kill $G2 " "$R/dry.log"
check "and kills nobody" kill -0 "$G2"
kill -TERM "$D"
wait "$D"
check "nor runs the hook" test ! -e "$R/hook.$G2"
done_testing
