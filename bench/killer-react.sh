#!/usr/bin/env bash
# killer-react.sh - how fast the early killer answers a hog in a memory cgroup, and whether
# it beats the kernel's OOM killer: a 300 MiB cgroup, a hog that wants 400 MiB, at full
# speed and at 200 MiB/s; TRIALS runs each (default 10). Prints, per pace, the kills by the
# killer and by the kernel and the median/max time from the hog's start to its exit.
# usage: bench/killer-react.sh [TRIALS]   (root, cgroup v1 or v2 with memory, after make helpers)
set -eu
trials=${1:-10}
. tests/integration/killer_lib.sh
tmp=$(mktemp -d)
killer_cgroup_parent parent || { echo "no writable memory cgroup"; exit 1; }
cg=${parent%/}/oompardon-bench.$$
mkdir "$cg"
trap 'kill $ka 2>/dev/null; wait 2>/dev/null; killer_cgroup_remove "$cg"; rm -rf "$tmp"' EXIT
if [ -e "$cg/memory.limit_in_bytes" ]; then echo $((300 << 20)) >"$cg/memory.limit_in_bytes"
else echo $((300 << 20)) >"$cg/memory.max"; fi

ar rcs "$tmp/lib.a" $(ls build/obj/*.o | grep -v -e '/main\.o$')
${CC:-cc} -std=gnu11 -D_GNU_SOURCE -O2 -Isrc -o "$tmp/killer_alone" bench/killer_alone.c "$tmp/lib.a"
printf 'killer-scope %s\nkiller-grace 1s\n' "$cg" >"$tmp/conf"
"$tmp/killer_alone" "$tmp/conf" 2>"$tmp/log" &
ka=$!
sleep 0.5

printf '%-12s %8s %8s %12s %12s\n' pace killer kernel "median ms" "max ms"
for pace in "full:4 0" "200MiB/s:4 20"; do
	name=${pace%%:*} args=${pace#*:}
	before=$(killer_oom_kills "$cg")
	: >"$tmp/times"
	for i in $(seq 1 "$trials"); do
		t0=$(date +%s%N)
		sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" build/helpers/killer_hog 400 $args &
		wait $! 2>/dev/null || true
		echo $((($(date +%s%N) - t0) / 1000000)) >>"$tmp/times"
		sleep 0.3	# the killer settles (its grace and exit wait are per victim)
	done
	kernel=$(($(killer_oom_kills "$cg") - before))
	sort -n "$tmp/times" >"$tmp/sorted"
	printf '%-12s %8s %8s %12s %12s\n' "$name" $((trials - kernel)) "$kernel" \
		"$(sed -n "$(((trials + 1) / 2))p" "$tmp/sorted")" "$(tail -1 "$tmp/sorted")"
done
