# lib.sh - shared TAP helpers for the integration tests (bash). Source it first:
#
#   . "$(dirname "$0")/lib.sh"
#   plan 3
#   tmpdir T                      # $T: a fresh dir, removed on exit
#   start_sleeper S "$T/prog"     # $S: pid of a copy of the sleeper named $T/prog
#   check "it is 0" test "$(adj "$S")" = 0
#   is "$(adj "$S")" 0 "same, showing both values when it fails"
#   done_testing                  # exit status: 0, or 1 when any test failed
#
# Everything started or created through these helpers is killed or removed on exit,
# also when the test dies early. Others may ADD functions at the end, never change these.
set -u
: "${OOMPARDON:?set OOMPARDON to the oompardon binary}" "${HELPERS:?set HELPERS to build/helpers}"

LIB_N=0			# tests run so far
LIB_FAILED=0
LIB_PIDS=()		# killed on exit
LIB_DIRS=()		# removed on exit
LIB_ATEXIT=()		# commands run on exit, before the above

lib_cleanup() {
	local c p d
	for c in "${LIB_ATEXIT[@]}"; do eval "$c" 2>/dev/null; done
	for p in "${LIB_PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	for p in "${LIB_PIDS[@]}"; do wait "$p" 2>/dev/null; done
	for d in "${LIB_DIRS[@]}"; do rm -rf "$d"; done
}
trap lib_cleanup EXIT
trap 'exit 130' INT TERM

# plan N: the TAP plan line.
plan() { echo "1..$1"; }

# skip_all REASON: the whole file is skipped (TAP "1..0 # SKIP").
skip_all() { echo "1..0 # SKIP $*"; exit 0; }

ok() { LIB_N=$((LIB_N + 1)); echo "ok $LIB_N - $*"; }
not_ok() { LIB_N=$((LIB_N + 1)); LIB_FAILED=$((LIB_FAILED + 1)); echo "not ok $LIB_N - $*"; }

# check DESC CMD [ARGS]: ok when CMD succeeds.
check() { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; fi; }

# is GOT WANT DESC: ok when the strings are equal; else says both.
is() {
	if [ "$1" = "$2" ]; then ok "$3"; else not_ok "$3"; printf '#   got:  %s\n#   want: %s\n' "$1" "$2"; fi
}

# diag: stdin as TAP comments.
diag() { sed 's/^/# /'; }

# done_testing: exit 1 when any test failed.
done_testing() { [ "$LIB_FAILED" -eq 0 ]; exit $?; }

# atexit CMD: run CMD (a string, eval'd) on exit.
atexit() { LIB_ATEXIT+=("$1"); }

# tmpdir VAR [PARENT]: a fresh 0755 directory (in PARENT, default /tmp) in $VAR,
# removed on exit. Below /tmp nothing can carry a pardon (see trusted_tmpdir).
tmpdir() {
	local d
	d=$(mktemp -d "${2:-/tmp}/oompardon-test.XXXXXX") || { echo "Bail out! mktemp failed"; exit 1; }
	chmod 0755 "$d"
	LIB_DIRS+=("$d")
	printf -v "$1" '%s' "$d"
}

# Is every component of path $1 owned by root and not writable by group or others?
root_only_path() {
	local p=$1 uid mode
	while :; do
		read -r uid mode < <(stat -L -c '%u %a' "$p") || return 1
		[ "$uid" = 0 ] && [ $((8#$mode & 8#022)) = 0 ] || return 1
		[ "$p" = / ] && return 0
		p=$(dirname "$p")
	done
}

# trusted_tmpdir VAR: like tmpdir, but below a directory only root controls, so that
# an executable inside may carry a pardon. Skips the whole file when there is none.
trusted_tmpdir() {
	local b
	[ "$(id -u)" = 0 ] || skip_all "needs root"
	for b in /run /var/lib /root; do
		if root_only_path "$b"; then tmpdir "$1" "$b"; return 0; fi
	done
	skip_all "no root-only directory for a trusted executable"
}

# wait_until SECONDS CMD [ARGS]: polls CMD every 10 ms until it succeeds. 1 on timeout.
wait_until() {
	local deadline=$((SECONDS + $1)); shift
	until "$@"; do
		[ "$SECONDS" -ge "$deadline" ] && return 1
		sleep 0.01
	done
}

# start_sleeper VAR [EXE [ADJ]]: starts a sleeper (the helper, or a copy of it
# installed as EXE, so rules can name it alone), optionally with its own
# oom_score_adj set to ADJ (raising only, without CAP_SYS_RESOURCE), and waits until
# it has exec'd and set it. Its pid goes to $VAR; it is killed on exit.
start_sleeper() {
	local exe=${2:-$HELPERS/sleeper} ready pid
	[ -e "$exe" ] || install -m 0755 "$HELPERS/sleeper" "$exe"
	ready=$(mktemp -u "/tmp/oompardon-ready.XXXXXX")
	if [ -n "${3:-}" ]; then
		"$exe" --adj "$3" --ready "$ready" &
	else
		"$exe" --ready "$ready" &
	fi
	pid=$!
	LIB_PIDS+=("$pid")
	wait_until 10 test -e "$ready" || { echo "Bail out! sleeper $exe did not start"; exit 1; }
	rm -f "$ready"
	printf -v "$1" '%s' "$pid"
}

# stop PID: kills and reaps one process started here.
stop() { kill -KILL "$1" 2>/dev/null; wait "$1" 2>/dev/null; return 0; }

# adj PID: its oom_score_adj.
adj() { cat "/proc/$1/oom_score_adj"; }

# set_adj PID VALUE: writes its oom_score_adj (raising needs no capability).
set_adj() { echo "$2" >"/proc/$1/oom_score_adj"; }

# start_time PID: field 22 of /proc/PID/stat, counted from the last ')'.
start_time() { local s; s=$(cat "/proc/$1/stat") && s=${s##*) } && set -- $s && echo "${20}"; }

# can_lower: do we hold CAP_SYS_RESOURCE (bit 24 of CapEff)?
can_lower() {
	local cap
	cap=$(awk '/^CapEff:/ { print $2 }' /proc/self/status)
	[ $(((16#$cap >> 24) & 1)) = 1 ]
}

# nlines FILE [PATTERN]: how many lines (matching the grep -F PATTERN).
nlines() { if [ $# -gt 1 ]; then grep -cF -- "$2" "$1"; else wc -l <"$1"; fi; }

# --- added for ls, check and the cgroup OOM test ---

# dead PID: the process exited (a zombie until reaped, or gone).
dead() {
	local st
	[ -e "/proc/$1/stat" ] || return 0
	st=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
	st=${st##*) }
	st=${st%% *}
	[ -z "$st" ] || [ "$st" = Z ] || [ "$st" = X ]
}
alive() { ! dead "$1"; }
# any_dead PID...: at least one of them exited.
any_dead() { local p; for p in "$@"; do dead "$p" && return 0; done; return 1; }

# json_eval PERL FILE [ARGS]: runs PERL with $a holding the decoded JSON of FILE
# (JSON::PP is part of perl) and @ARGV the ARGS; its exit status is the result.
json_eval() { perl -MJSON::PP -e "local \$/; my \$a = decode_json(<STDIN>); $1" "${@:3}" <"$2"; }

# json_key KEY FILE: a top-level value of a JSON object ("null", "true", "false" as such).
json_key() {
	json_eval 'my $v = $a->{$ARGV[0]}; print defined $v ? (JSON::PP::is_bool($v) ? ($v ? "true" : "false") : $v) : "null"' "$2" "$1"
}

# json_pids FILE: the pids of an `ls --json` listing, in its order.
json_pids() { json_eval 'print "$_->{pid}\n" for @$a' "$1"; }
