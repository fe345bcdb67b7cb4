#!/usr/bin/env bash
# 12-no-cap.t - without CAP_SYS_RESOURCE (containers, this CI machine) a pardon cannot
# be written: apply says so ONCE for the whole run, exits 1, changes nothing it cannot,
# and still applies the scores that raise. The VM tests prove -1000 itself.
. "$(dirname "$0")/lib.sh"

can_lower && skip_all "we hold CAP_SYS_RESOURCE: the pardon tests run in the VM"

plan 15

trusted_tmpdir R		# an executable that may carry a pardon
tmpdir T
RUN=$T/run
CONF=$T/c.conf
start_sleeper L1 "$R/locker"
start_sleeper L2 "$R/locker"
start_sleeper N "$R/db"
start_sleeper P "$T/prog"
printf 'pardon %s\nscore -300 %s\nscore +500 %s\n' "$R/locker" "$R/db" "$T/prog" >"$CONF"
MSG="oompardon: cannot lower oom_score_adj: oompardon lacks CAP_SYS_RESOURCE (containers often drop it); pardons and negative scores are not applied"

"$OOMPARDON" -c "$CONF" --run-dir "$RUN" apply --dry-run >"$T/out" 2>"$T/err"
is "$?" 0 "apply --dry-run exits 0"
check "and says it would pardon" grep -qxF "would pardon $L1 $R/locker ($CONF:1): 0 -> -1000" "$T/out"
is "$(cat "$T/err")" "$MSG" "and foretells the one message"

"$OOMPARDON" -c "$CONF" --run-dir "$RUN" apply >"$T/out" 2>"$T/err"
is "$?" 1 "apply exits 1: some writes failed"
is "$(cat "$T/err")" "$MSG" "one clear message, the only line on stderr"
[ "$(nlines "$T/err")" = 1 ] || diag <"$T/err"
is "$(adj "$L1") $(adj "$L2") $(adj "$N")" "0 0 0" "the processes are unchanged"
is "$(adj "$P")" 500 "a raising score is still applied"
is "$(cat "$T/out")" "scored $P $T/prog ($CONF:3): 0 -> 500" "only the change made is printed"
check "no original recorded for a write that failed" bash -c "! grep -qE '^\\+ ($L1|$L2|$N) ' '$RUN/state'"
check "the one made is recorded" grep -q "^+ $P " "$RUN/state"

"$OOMPARDON" -c "$CONF" --run-dir "$RUN" apply >"$T/out" 2>"$T/err"
is "$?:$(nlines "$T/err" CAP_SYS_RESOURCE)" "1:1" "a second run says it once again, exit 1"

"$OOMPARDON" --run-dir "$RUN" restore >"$T/out" 2>"$T/err"
is "$?" 0 "restore exits 0"
is "$(adj "$P")" 0 "restore puts the raised score back"
is "$(adj "$L1")" 0 "the pardoned are still as they were"

# a process that raised its own value: -300 is below what it may go to without the capability
start_sleeper Q "$R/db" 200
"$OOMPARDON" -c "$CONF" --run-dir "$RUN" apply >"$T/out" 2>"$T/err"
is "$(adj "$Q")" 200 "a process at 200 is not lowered to -300 either"

done_testing
