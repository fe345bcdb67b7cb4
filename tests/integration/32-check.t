#!/usr/bin/env bash
# 32-check.t - `check` and `check --json` against the kernel's own numbers.
set -u
: "${OOMPARDON:?}" "${HELPERS:?}"

T=$(mktemp -d /tmp/oompardon-t32.XXXXXX)
PIDS=()
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; fi; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $*"; }

cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT

wait_until() {
	local deadline=$((SECONDS + $1)); shift
	until "$@"; do
		[ "$SECONDS" -ge "$deadline" ] && return 1
		sleep 0.05
	done
}
key() { perl -MJSON::PP -e 'local $/; my $o = decode_json(<STDIN>); my $v = $o->{$ARGV[0]};
	print defined $v ? (JSON::PP::is_bool($v) ? ($v ? "true" : "false") : $v) : "null"' "$1" <"$2"; }
meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }

echo "1..14"
: >"$T/empty.conf"

"$OOMPARDON" -c "$T/empty.conf" check --json >"$T/c.json" 2>"$T/c.err"
check "check --json exits 0" test $? -eq 0
check "check --json is valid JSON" perl -MJSON::PP -e 'local $/; decode_json(<STDIN>)' <"$T/c.json"
check "it has the documented keys" perl -MJSON::PP -e 'local $/; my $o = decode_json(<STDIN>);
	exists $o->{$_} or exit 1 for qw(overcommit_memory commit_limit_kib committed_as_kib swap_total_kib
		mode2_commit_limit_kib mode2_feasible); exit 0' <"$T/c.json"
check "overcommit_memory is the sysctl's" test "$(key overcommit_memory "$T/c.json")" = "$(cat /proc/sys/vm/overcommit_memory)"
check "panic_on_oom is the sysctl's" test "$(key panic_on_oom "$T/c.json")" = "$(cat /proc/sys/vm/panic_on_oom)"
check "commit_limit_kib is /proc/meminfo's CommitLimit" test "$(key commit_limit_kib "$T/c.json")" = "$(meminfo CommitLimit)"
check "swap_total_kib is SwapTotal" test "$(key swap_total_kib "$T/c.json")" = "$(meminfo SwapTotal)"
# CommitLimit is vm_commit_limit() in every mode: our formula must give the same
check "the mode 2 limit we compute equals the kernel's CommitLimit" \
	test "$(key mode2_commit_limit_kib "$T/c.json")" = "$(meminfo CommitLimit)"
feasible=$(perl -MJSON::PP -e 'local $/; my $o = decode_json(<STDIN>);
	print $o->{committed_as_kib} + $o->{admin_reserve_kib} < $o->{mode2_commit_limit_kib} ? "true" : "false"' <"$T/c.json")
check "mode2_feasible agrees with the numbers ($feasible)" test "$(key mode2_feasible "$T/c.json")" = "$feasible"
echo "# overcommit_memory $(key overcommit_memory "$T/c.json"), CommitLimit $(key commit_limit_kib "$T/c.json") kB," \
	"Committed_AS $(key committed_as_kib "$T/c.json") kB, mode 2 headroom $(key mode2_headroom_kib "$T/c.json") kB," \
	"killable $(key killable_kib "$T/c.json") kB"

"$OOMPARDON" -c "$T/empty.conf" check >"$T/c.txt" 2>>"$T/c.err"
check "the report says what happens and whether mode 2 would work" \
	grep -qE "^  It would (work|NOT work)" "$T/c.txt"
sed 's/^/# /' "$T/c.txt"

# A pardoned process holding more than every killable process together: a panic risk.
killable=$(key killable_kib "$T/c.json")
[ "$killable" = null ] && killable=-1	# the rules did not load
want_mib=$(( (killable + 1023) / 1024 + 64 ))
avail_mib=$(( $(meminfo MemAvailable) / 1024 ))
if [ "$killable" -lt 0 ] || [ "$want_mib" -gt $((avail_mib / 2)) ]; then
	skip "not enough memory for a pardoned process larger than the rest ($want_mib MiB)"
else
	"$HELPERS/hog" --ready "$T/h.ready" "$want_mib" &
	PIDS+=("$!")
	wait_until 60 test -e "$T/h.ready"
	printf 'pardon %s\n' "$HELPERS/hog" >"$T/pardon.conf"
	"$OOMPARDON" -c "$T/pardon.conf" check --json >"$T/p.json" 2>>"$T/c.err"
	if [ "$(key pardoned_count "$T/p.json")" = 0 ]; then
		skip "$HELPERS/hog is not a trusted path here, the pardon does not take effect"
	else
		check "a pardoned $want_mib MiB process is a panic risk" test "$(key pardon_panic_risk "$T/p.json")" = true
		echo "# pardoned $(key pardoned_kib "$T/p.json") kB against killable $(key killable_kib "$T/p.json") kB"
	fi
fi
check "with nothing pardoned there is no risk" test "$(key pardon_panic_risk "$T/c.json")" = false

"$OOMPARDON" -c "$T/empty.conf" check --bogus >/dev/null 2>&1
check "an unknown option exits 2" test $? -eq 2
printf 'this is not a rule\n' >"$T/bad.conf"
"$OOMPARDON" -c "$T/bad.conf" check >"$T/bad.out" 2>"$T/bad.err"
status=$?
check "a config with errors: exit 2, file:line named, the machine's part still printed" \
	test "$status" -eq 2 -a -n "$(grep -F "$T/bad.conf:1" "$T/bad.err")" -a -n "$(grep 'Strict overcommit' "$T/bad.out")"
[ -s "$T/c.err" ] && sed 's/^/# stderr: /' "$T/c.err"
exit $((fails > 0))
