#!/usr/bin/env bash
# 10-apply-restore.t - apply writes the rules' scores into real processes, each change
# printed; restore puts back every original, skipping exited and reused pids.
. "$(dirname "$0")/lib.sh"

plan 34

tmpdir T
RUN=$T/run
CONF=$T/c.conf
op() { "$OOMPARDON" -c "$CONF" --run-dir "$RUN" "$@" >"$T/out" 2>"$T/err"; }
state_has() { grep -qx -- "$1" "$RUN/state"; }

start_sleeper A "$T/prog"		# original 0
start_sleeper B "$T/prog" 100		# original 100: restore must not write 0
start_sleeper D "$T/prog"		# will exit before restore
start_sleeper O "$T/other" 300		# no rule names it
printf '# raising needs no capability\nscore +500 %s\n' "$T/prog" >"$CONF"

op apply --dry-run
is "$?" 0 "apply --dry-run exits 0"
is "$(sort "$T/out")" "$(printf 'would score %s %s (%s:2): %s -> 500\n' \
	"$A" "$T/prog" "$CONF" 0 "$B" "$T/prog" "$CONF" 100 "$D" "$T/prog" "$CONF" 0 | sort)" \
	"dry run prints what it would do"
is "$(adj "$A") $(adj "$B")" "0 100" "dry run writes nothing"
check "dry run keeps no state" test ! -e "$RUN/state"

op apply
is "$?" 0 "apply exits 0"
check "apply prints A's change" grep -qxF "scored $A $T/prog ($CONF:2): 0 -> 500" "$T/out"
check "apply prints B's change" grep -qxF "scored $B $T/prog ($CONF:2): 100 -> 500" "$T/out"
is "$(nlines "$T/out")" 3 "one line per change, nothing else"
is "$(nlines "$T/err")" 0 "nothing on stderr"
is "$(adj "$A") $(adj "$B") $(adj "$D")" "500 500 500" "the rule's score is in the real processes"
is "$(adj "$O")" 300 "a process no rule names is untouched"
check "the state records A's original" state_has "+ $A $(start_time "$A") 0 500"
check "the state records B's original" state_has "+ $B $(start_time "$B") 100 500"

op apply
is "$?" 0 "a second apply exits 0"
is "$(cat "$T/out")" "" "and has nothing to change"

printf 'score 700 %s\n' "$T/prog" >"$CONF"
op apply
is "$(adj "$A") $(adj "$B")" "700 700" "a changed rule is applied"
check "the first original is kept, not our own 500" state_has "+ $B $(start_time "$B") 100 700"

# Someone else writes A after us: it is theirs now.
start_sleeper C "$T/prog"
op apply
set_adj "$C" 900
# O's pid with another start time: a reused pid must never be written.
echo "+ $O 1 0 300" >>"$RUN/state"
stop "$D"

op restore
is "$?" 0 "restore exits 0"
is "$(adj "$A") $(adj "$B")" "0 100" "restore brings back every original (0 and 100)"
is "$(cat "$T/out")" "$(printf 'restored %s %s: 700 -> 0\nrestored %s %s: 700 -> 100\n' \
	"$A" "$T/prog" "$B" "$T/prog" | sort -n -k2)" "restore prints each value it puts back"
is "$(adj "$O")" 300 "a reused pid (start time differs) is skipped"
is "$(adj "$C")" 900 "a value someone else wrote since is left alone"
check "the exited process is not mentioned" bash -c "! grep -q ' $D ' '$T/out'"
check "the state holds no entry afterwards" bash -c "! grep -q '^+' '$RUN/state'"
op restore
is "$?:$(cat "$T/out")" "0:" "a second restore has nothing to do"

# A daemon holds the lock: apply and restore step aside.
# (the process holding the lock is the sleep itself, and keeps no pipe of ours open)
(exec 9<"$RUN/lock" && flock 9 && exec sleep 1000) >/dev/null 2>&1 &
F=$!
LIB_PIDS+=("$F")
wait_until 10 bash -c "! flock -n '$RUN/lock' true"
echo "$F" >"$RUN/pid"
op apply
is "$?" 1 "apply exits 1 while a daemon holds the run dir"
check "and names the daemon" grep -qF "a daemon (pid $F) keeps the rules for $RUN" "$T/err"
op restore
is "$?" 1 "restore exits 1 too"
is "$(adj "$A")" 0 "nothing was written"
stop "$F"
rm -f "$RUN/pid"

# The run dir decides what restore writes: only root may change it.
ln -s "$RUN" "$T/link"
"$OOMPARDON" -c "$CONF" --run-dir "$T/link" apply >"$T/out" 2>"$T/err"
is "$?" 1 "a run dir that is a symlink is refused"
mkdir -m 0777 "$T/open"
"$OOMPARDON" -c "$CONF" --run-dir "$T/open" apply >"$T/out" 2>"$T/err"
is "$?" 1 "a run dir others can write is refused"
check "saying why" grep -qF "cannot use the run dir $T/open: it must be owned by root and writable by no one else" "$T/err"
is "$(adj "$A")" 0 "and nothing was written"

op apply --bogus
is "$?" 2 "an unknown option is a usage error"

done_testing
