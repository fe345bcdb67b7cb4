#!/usr/bin/env bash
# 30-ls.t - `ls` and `ls --json` on real processes: the kernel's order, hostile names, rules.
. "$(dirname "$0")/lib.sh"

tmpdir T

plan 21

# a sleeper that raised its own score to +800
"$HELPERS/hog" --adj 800 --ready "$T/s.ready" 1 &
S=$!
LIB_PIDS+=("$S")
# hostile names: a comm with an escape sequence, a quote, a backslash, a newline and
# a byte that is not UTF-8; an executable whose path holds the same kind of things
HOSTILE_COMM=$'\e[31m"x\\\n\xff)'
EVIL_EXE=$T/$'ev il\n"\xff\\'
cp "$HELPERS/hog" "$EVIL_EXE"
"$HELPERS/hog" --name "$HOSTILE_COMM" --ready "$T/h.ready" 1 &
H=$!
LIB_PIDS+=("$H")
"$EVIL_EXE" --ready "$T/e.ready" 1 &
E=$!
LIB_PIDS+=("$E")
sleep 1000 &
P=$!
LIB_PIDS+=("$P")
check "helpers are ready" wait_until 30 test -e "$T/s.ready" -a -e "$T/h.ready" -a -e "$T/e.ready"

printf 'score 300 %s\npardon /usr/bin/sleep\npardon %s/*\n' "$HELPERS/hog" "$T" >"$T/rules.conf"

"$OOMPARDON" -c "$T/rules.conf" ls --json >"$T/ls.json" 2>"$T/ls.err"
check "ls --json exits 0" test $? -eq 0
check "ls --json is valid JSON (JSON::PP)" json_eval 'exit(ref $a eq "ARRAY" ? 0 : 1)' "$T/ls.json"
echo "# $(json_eval 'print scalar(@$a)' "$T/ls.json") processes listed"
check "every object has the documented keys" json_eval '
	for my $o (@$a) { for (qw(pid oom_score oom_score_adj rss_kib swap_kib uid user comm exe rule pardoned)) {
		exit 1 unless exists $o->{$_} } } exit 0' "$T/ls.json"
check "the +800 sleeper comes before every process with a lower oom_score_adj" json_eval "
	for (@\$a) { exit 0 if \$_->{pid} == $S; exit 1 if \$_->{oom_score_adj} < 800 } exit 1" "$T/ls.json"
check "its oom_score is the kernel's" test "$(json_eval "print((grep { \$_->{pid} == $S } @\$a)[0]{oom_score})" "$T/ls.json")" \
	= "$(cat /proc/$S/oom_score)"
# (memory read a moment apart may move a busy process by one point)
check "killable ones come in falling oom_score order" json_eval '
	my $last = 1e9; for (grep { $_->{killable} } @$a) { exit 1 if $_->{oom_score} > $last + 1; $last = $_->{oom_score} } exit 0' "$T/ls.json"
check "the unkillable ones are at the bottom" json_eval '
	my $seen = 0; for (@$a) { $seen = 1 unless $_->{killable}; exit 1 if $seen && $_->{killable} } exit 0' "$T/ls.json"
check "pid 1 and kernel threads are unkillable" json_eval '
	for (@$a) { exit 1 if ($_->{pid} == 1 || $_->{kthread}) && $_->{killable} } exit 0' "$T/ls.json"

# the hostile comm survives JSON: control characters escaped, the bad byte as U+FFFD
check "hostile comm decodes to the same text, bad byte replaced" json_eval "
	my (\$o) = grep { \$_->{pid} == $H } @\$a; binmode STDOUT, ':utf8';
	exit(\$o->{comm} eq \"\\e[31m\\\"x\\\\\\n\\x{fffd})\" ? 0 : 1)" "$T/ls.json"
check "hostile exe decodes to the same path, bad byte replaced" json_eval "
	my (\$o) = grep { \$_->{pid} == $E } @\$a;
	exit(\$o->{exe} eq \"$T/ev il\\n\\\"\\x{fffd}\\\\\" ? 0 : 1)" "$T/ls.json"

# rules: a score rule names hog, a trusted pardon names /usr/bin/sleep, an untrusted one /tmp
check "the score rule is shown with its file:line" \
	test "$(json_eval "print((grep { \$_->{pid} == $S } @\$a)[0]{rule} // 'null')" "$T/ls.json")" = "$T/rules.conf:1"
check "sleep is pardoned by the rules though the write cannot be made here" \
	test "$(json_eval "my (\$o) = grep { \$_->{pid} == $P } @\$a; print \$o->{pardoned} ? 'yes' : 'no', ' ', \$o->{oom_score_adj}" "$T/ls.json")" = "yes 0"
check "a pardon of a copy below /tmp is refused, with its reason" \
	json_eval "my (\$o) = grep { \$_->{pid} == $E } @\$a; exit((!\$o->{pardoned} && (\$o->{refused_rule} // '') eq '$T/rules.conf:3' && \$o->{refused_why}) ? 0 : 1)" "$T/ls.json"

"$OOMPARDON" -c "$T/rules.conf" ls >"$T/ls.txt" 2>>"$T/ls.err"
check "ls exits 0" test $? -eq 0
check "human output holds no raw escape byte and no invalid UTF-8" \
	test "$(LC_ALL=C grep -c $'[\e\xff]' "$T/ls.txt")" = 0
rows=$(grep -cE '^ *([0-9]+|never) +[0-9]+ ' "$T/ls.txt")
total=$(grep -vc '^#' "$T/ls.txt")
check "one line per process, names cannot forge lines ($rows rows + the column header = $total)" \
	test "$((rows + 1))" -eq "$total" -a "$(grep -cE "^ *[0-9]+ +($H|$E) " "$T/ls.txt")" -eq 2
check "the hostile comm is shown escaped" grep -qF '[\x1b[31m"x\x5c\x0a\xff)]' "$T/ls.txt"
head -n 4 "$T/ls.txt" | diag

"$OOMPARDON" -c "$T/rules.conf" ls --bogus >/dev/null 2>&1
check "an unknown option exits 2" test $? -eq 2
"$OOMPARDON" -c "$T/rules.conf" ls --cgroup /no/such/cgroup-$$ >/dev/null 2>"$T/cg.err"
check "an unknown cgroup exits 2" test $? -eq 2

printf 'score 300 %s\nthis is not a rule\n' "$HELPERS/hog" >"$T/bad.conf"
"$OOMPARDON" -c "$T/bad.conf" ls >"$T/bad.out" 2>"$T/bad.err"
status=$?
check "a config with errors: exit 2, file:line named, nothing listed" \
	test "$status" -eq 2 -a ! -s "$T/bad.out" -a -n "$(grep -F "$T/bad.conf:2" "$T/bad.err")"
[ -s "$T/ls.err" ] && sed 's/^/stderr: /' "$T/ls.err" | diag
done_testing
