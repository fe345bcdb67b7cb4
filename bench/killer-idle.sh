#!/usr/bin/env bash
# killer-idle.sh - the early killer at idle, side by side with earlyoom: wake-ups per
# minute (context switches), CPU time and RSS over SECONDS (default 60). The killer runs
# alone (bench/killer_alone.c, built here against build/obj) and inside the whole daemon,
# whose proc connector also wakes it for every fork and exec on the machine.
# usage: bench/killer-idle.sh [SECONDS]   (root, from the top of the tree after make)
set -eu
secs=${1:-60}
tmp=$(mktemp -d)
trap 'kill $pids 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
pids=

# an archive: only the modules the killer needs are linked in
ar rcs "$tmp/lib.a" $(ls build/obj/*.o | grep -v -e '/main\.o$')
${CC:-cc} -std=gnu11 -D_GNU_SOURCE -O2 -Isrc -o "$tmp/killer_alone" bench/killer_alone.c "$tmp/lib.a"

# Both in dry run on the whole system: they only watch.
printf 'killer yes\nkiller-dry-run yes\n' >"$tmp/conf"
"$tmp/killer_alone" "$tmp/conf" 2>"$tmp/alone.log" &
pids="$pids $!"
ka=$!
./oompardon -c "$tmp/conf" --run-dir "$tmp" daemon 2>"$tmp/log" &
pids="$pids $!"
op=$!
if command -v earlyoom >/dev/null; then
	# its dry run, and no periodic memory report (that would add wake-ups of its own)
	earlyoom --dryrun -r 0 >"$tmp/eo.log" 2>&1 &
	pids="$pids $!"
	eo=$!
fi
sleep 1	# both settled

snap() { awk '/^voluntary_ctxt_switches|^nonvoluntary_ctxt_switches/ { s += $2 } END { print s }' "/proc/$1/status"; }
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }

declare -A w0 c0
for p in $ka $op ${eo:-}; do w0[$p]=$(snap "$p"); c0[$p]=$(cpu "$p"); done
sleep "$secs"
tck=$(getconf CLK_TCK)
printf '%-22s %14s %12s %9s\n' program "wakeups/min" "CPU ms/min" "RSS KiB"
for p in $ka $op ${eo:-}; do
	name="oompardon daemon"
	[ "$p" = "$ka" ] && name="killer alone"
	[ "$p" = "${eo:-}" ] && name=earlyoom
	w=$(( ($(snap "$p") - w0[$p]) * 60 / secs ))
	c=$(( ($(cpu "$p") - c0[$p]) * 1000 / tck * 60 / secs ))
	printf '%-22s %14s %12s %9s\n' "$name" "$w" "$c" "$(rss "$p")"
done
