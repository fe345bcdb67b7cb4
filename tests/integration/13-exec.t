#!/usr/bin/env bash
# 13-exec.t - exec sets the value before the command's first instruction: the command
# reads its own oom_score_adj first thing (readadj) and must see it.
. "$(dirname "$0")/lib.sh"

plan 19

tmpdir T
CONF=$T/c.conf
ours=$(cat /proc/self/oom_score_adj)
install -m 0755 "$HELPERS/readadj" "$T/readadj"
ln -s readadj "$T/link"
printf '#!%s\n' "$T/readadj" >"$T/script"
chmod 0755 "$T/script"
printf 'score 700 %s\n' "$T/readadj" >"$CONF"
x() { "$OOMPARDON" -c "$CONF" exec "$@" 2>"$T/err"; }

is "$(x --score 300 -- "$HELPERS/readadj")" 300 "exec --score 300: the command sees 300 at its first instruction"
is "$(x --score=250 -- "$HELPERS/readadj")" 250 "--score=N works too"
is "$(x -- "$T/readadj")" 700 "no option: the rules' score for the command"
is "$(PATH=$T:$PATH x -- readadj)" 700 "found along PATH as execvp finds it"
is "$(x -- "$T/link")" 700 "through a symlink: the rules see the real file"
is "$(x -- "$T/script")" 700 "a #! script: the rules see its interpreter, as the kernel shows it"
is "$(x -- "$HELPERS/readadj")" "$ours" "a command no rule names keeps the value it inherits"
x -- "$HELPERS/readadj" >/dev/null
is "$(cat "$T/err")" "" "exec prints nothing of its own on success"
x --score 100 -- sh -c 'exit 7'
is "$?" 7 "the command's exit status is exec's"
x --score 100 -- sh -c 'echo "$0 $1"' a b >"$T/out"
is "$(cat "$T/out")" "a b" "arguments are passed on"

if can_lower; then
	is "$(x --pardon -- "$HELPERS/readadj")" -1000 "exec --pardon: -1000"
	ok "# SKIP no capability missing here"
	ok "# SKIP no capability missing here"
else
	x --pardon -- touch "$T/ran"
	is "$?" 1 "exec --pardon without CAP_SYS_RESOURCE exits 1"
	check "and does not run the command" test ! -e "$T/ran"
	is "$(nlines "$T/err" CAP_SYS_RESOURCE):$(nlines "$T/err")" "1:1" "one clear message"
fi

x -- "$T/nonexistent"
is "$?" 127 "a command that does not exist: 127"
PATH=/nonexistent x -- readadj
is "$?" 127 "a command not on PATH: 127"
printf 'x\n' >"$T/noexec"
x -- "$T/noexec"
is "$?" 126 "a file that is not executable: 126"
x --score 2000 -- true
is "$?" 2 "--score out of range: usage error"
x --score 1 true
is "$?" 2 "without --: usage error (global options in CMD's arguments would be taken)"
x --pardon --score 5 -- true
is "$?" 2 "--pardon and --score together: usage error"

done_testing
