#!/usr/bin/env bash
# 32-check.t - `check` and `check --json` against the kernel's own numbers.
. "$(dirname "$0")/lib.sh"

tmpdir T
meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
skip() { LIB_N=$((LIB_N + 1)); echo "ok $LIB_N # SKIP $*"; }

plan 15
: >"$T/empty.conf"

"$OOMPARDON" -c "$T/empty.conf" check --json >"$T/c.json" 2>"$T/c.err"
check "check --json exits 0" test $? -eq 0
check "check --json is valid JSON" json_eval 'exit(ref $a eq "HASH" ? 0 : 1)' "$T/c.json"
check "it has the documented keys" json_eval '
	exists $a->{$_} or exit 1 for qw(overcommit_memory commit_limit_kib committed_as_kib swap_total_kib
		mode2_commit_limit_kib mode2_feasible); exit 0' "$T/c.json"
check "overcommit_memory is the sysctl's" test "$(json_key overcommit_memory "$T/c.json")" = "$(cat /proc/sys/vm/overcommit_memory)"
check "panic_on_oom is the sysctl's" test "$(json_key panic_on_oom "$T/c.json")" = "$(cat /proc/sys/vm/panic_on_oom)"
check "commit_limit_kib is /proc/meminfo's CommitLimit" test "$(json_key commit_limit_kib "$T/c.json")" = "$(meminfo CommitLimit)"
check "swap_total_kib is SwapTotal" test "$(json_key swap_total_kib "$T/c.json")" = "$(meminfo SwapTotal)"
# CommitLimit is vm_commit_limit() in every mode: our formula must give the same
check "the mode 2 limit we compute equals the kernel's CommitLimit" \
	test "$(json_key mode2_commit_limit_kib "$T/c.json")" = "$(meminfo CommitLimit)"
feasible=$(json_eval '
	print $a->{committed_as_kib} + $a->{admin_reserve_kib} < $a->{mode2_commit_limit_kib} ? "true" : "false"' "$T/c.json")
check "mode2_feasible agrees with the numbers ($feasible)" test "$(json_key mode2_feasible "$T/c.json")" = "$feasible"
echo "# overcommit_memory $(json_key overcommit_memory "$T/c.json"), CommitLimit $(json_key commit_limit_kib "$T/c.json") kB," \
	"Committed_AS $(json_key committed_as_kib "$T/c.json") kB, mode 2 headroom $(json_key mode2_headroom_kib "$T/c.json") kB," \
	"killable $(json_key killable_kib "$T/c.json") kB"

"$OOMPARDON" -c "$T/empty.conf" check >"$T/c.txt" 2>>"$T/c.err"
check "the report says what happens and whether mode 2 would work" \
	grep -qE "^  It would (work|NOT work)" "$T/c.txt"
diag <"$T/c.txt"

# A pardoned process holding more than every killable process together: a panic risk.
# Other programs on the machine come and go, so what decides is checked against the
# numbers of the same run: the documented criterion, applied to them.
killable=$(json_key killable_kib "$T/c.json")
[ "$killable" = null ] && killable=-1	# the rules did not load
want_mib=$(( killable * 2 / 1024 + 256 ))	# well above what the others hold
avail_mib=$(( $(meminfo MemAvailable) / 1024 ))
if [ "$killable" -lt 0 ] || [ "$want_mib" -gt $((avail_mib / 2)) ]; then
	skip "not enough memory for a pardoned process larger than the rest ($want_mib MiB)"
	skip "idem"
else
	# a copy below a directory only root controls, so the pardon may take effect
	trusted_tmpdir R
	install -m 0755 "$HELPERS/hog" "$R/bighog"
	"$R/bighog" --ready "$T/h.ready" "$want_mib" &
	LIB_PIDS+=("$!")
	wait_until 60 test -e "$T/h.ready"
	printf 'pardon %s\n' "$R/bighog" >"$T/pardon.conf"
	"$OOMPARDON" -c "$T/pardon.conf" check --json >"$T/p.json" 2>>"$T/c.err"
	if [ "$(json_key pardoned_count "$T/p.json")" = 0 ]; then
		skip "$R/bighog is not a trusted path here, the pardon does not take effect"
		skip "idem"
	else
		check "the pardoned $want_mib MiB process is counted" \
			test "$(json_key pardoned_kib "$T/p.json")" -ge $((want_mib * 1024))
		risk=$(json_eval 'my $p = $a->{pardoned_kib};
			print $p > $a->{killable_kib} || 2 * $p > $a->{mem_total_kib} + $a->{swap_total_kib} ? "true" : "false"' "$T/p.json")
		check "the panic warning follows the documented criterion ($risk)" \
			test "$(json_key pardon_panic_risk "$T/p.json")" = "$risk"
		echo "# pardoned $(json_key pardoned_kib "$T/p.json") kB against killable $(json_key killable_kib "$T/p.json") kB: risk $risk"
	fi
fi
check "with nothing pardoned there is no risk" test "$(json_key pardon_panic_risk "$T/c.json")" = false

"$OOMPARDON" -c "$T/empty.conf" check --bogus >/dev/null 2>&1
check "an unknown option exits 2" test $? -eq 2
printf 'this is not a rule\n' >"$T/bad.conf"
"$OOMPARDON" -c "$T/bad.conf" check >"$T/bad.out" 2>"$T/bad.err"
status=$?
check "a config with errors: exit 2, file:line named, the machine's part still printed" \
	test "$status" -eq 2 -a -n "$(grep -F "$T/bad.conf:1" "$T/bad.err")" -a -n "$(grep 'Strict overcommit' "$T/bad.out")"
[ -s "$T/c.err" ] && sed 's/^/stderr: /' "$T/c.err" | diag
done_testing
