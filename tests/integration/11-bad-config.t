#!/usr/bin/env bash
# 11-bad-config.t - a config with one bad line changes nothing, and says file:line.
. "$(dirname "$0")/lib.sh"

plan 10

tmpdir T
RUN=$T/run
CONF=$T/c.conf
start_sleeper A "$T/prog"
printf 'score +500 %s\n\nscore +600 %s with words that are no selector\nscore 400 %s\n' \
	"$T/prog" "$T/prog" "$T/prog" >"$CONF"

"$OOMPARDON" -c "$CONF" --run-dir "$RUN" apply >"$T/out" 2>"$T/err"
is "$?" 2 "apply exits 2 on a config error"
check "the error names file:line" grep -q "^oompardon: $CONF:3: " "$T/err"
check "and says nothing was applied" grep -qF "nothing applied" "$T/err"
is "$(adj "$A")" 0 "the good lines were not applied either"
is "$(cat "$T/out")" "" "no change printed"
check "no state was written" test ! -e "$RUN/state"

"$OOMPARDON" -c "$CONF" --run-dir "$RUN" apply --dry-run >"$T/out" 2>"$T/err"
is "$?" 2 "apply --dry-run exits 2 as well"

printf 'score +500 %s\nset no_such_setting 1\n' "$T/prog" >"$CONF"
"$OOMPARDON" -c "$CONF" --run-dir "$RUN" apply >"$T/out" 2>"$T/err"
is "$?:$(adj "$A")" "2:0" "an unknown setting is an error too, nothing applied"

# exec consults the rules when given no value: a broken config runs nothing
"$OOMPARDON" -c "$CONF" exec -- touch "$T/ran" 2>"$T/err"
is "$?" 2 "exec exits 2 on a config error"
check "and does not run the command" test ! -e "$T/ran"

done_testing
