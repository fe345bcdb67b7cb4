#!/usr/bin/env bash
# make bench: the daemon's numbers (issue 3, section 10), as a markdown table on stdout.
# Needs root and the proc connector. Not a timed test: it measures and reports.
set -euo pipefail
cd "$(dirname "$0")/.."
OOMPARDON=${OOMPARDON:-$PWD/oompardon}
CC=${CC:-cc}
LAUNCHES=${LAUNCHES:-2000}
STORM=${STORM:-20000}
HOLD=${HOLD:-1000}
IDLE_S=${IDLE_S:-20}

B=build/bench
mkdir -p "$B"
for p in firstread launch storm nop park; do
	# static: nothing (no loader) runs between execve and main
	$CC -O2 -static -o "$B/$p" "bench/$p.c" 2>/dev/null || $CC -O2 -o "$B/$p" "bench/$p.c"
done

T=$(mktemp -d /tmp/oompardon-bench.XXXXXX)
DPID=
pids=()
cleanup() {
	[ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null
	[ -n "$DPID" ] && kill -TERM "$DPID" 2>/dev/null && wait "$DPID" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
FIRST=$(readlink -f "$B/firstread")
PARK=$(readlink -f "$B/park")
printf 'score 500 %s\nscore 500 %s\n' "$FIRST" "$PARK" >"$T/conf"

"$OOMPARDON" -c "$T/conf" --run-dir "$T/run" daemon >"$T/log" 2>&1 &
DPID=$!
for _ in $(seq 500); do "$OOMPARDON" --run-dir "$T/run" status >/dev/null 2>&1 && break; sleep 0.01; done
"$OOMPARDON" --run-dir "$T/run" status >/dev/null || { cat "$T/log" >&2; exit 1; }

cpu_ns() { awk '{print $1}' "/proc/$DPID/schedstat"; }	# time on cpu, ns
field() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$DPID/status"; }

# 1. exec-to-adjusted latency
"$B/launch" "$LAUNCHES" "$FIRST" 500 >"$T/lat"
read -r median p99 max lost old < <(awk '
	$2 < 0 { lost++ } $2 >= 0 { v[n++] = $2 } $1 != 500 { old++ }
	END {
		asort(v)
		printf "%.1f %.1f %.1f %d %d\n", v[int(n * 0.5)] / 1000, v[int(n * 0.99)] / 1000, v[n] / 1000, lost, old
	}' "$T/lat")

# 2. daemon CPU per unlisted exec, during an exec storm
c0=$(cpu_ns)
s0=$(date +%s%N)
"$B/storm" "$STORM" "$B/nop"
s1=$(date +%s%N)
c1=$(cpu_ns)
per_exec_ns=$(( (c1 - c0) / STORM ))
storm_rate=$(( STORM * 1000000000 / (s1 - s0) ))

# 3. peak RSS with a thousand listed processes running
for _ in $(seq "$HOLD"); do "$PARK" & pids+=($!); done
held() { "$OOMPARDON" --run-dir "$T/run" status | awk '/^processes changed:/ {print $3}'; }
for _ in $(seq 1000); do [ "$(held)" -ge "$HOLD" ] && break; sleep 0.01; done
held_n=$(held)
hwm=$(field VmHWM)
rss=$(field VmRSS)
kill "${pids[@]}"
wait "${pids[@]}" 2>/dev/null || true
pids=()

# 4. idle wakeups: context switches over IDLE_S seconds, per minute
sw() { echo $(( $(field voluntary_ctxt_switches) + $(field nonvoluntary_ctxt_switches) )); }
sleep 1
w0=$(sw)
sleep "$IDLE_S"
w1=$(sw)
wakeups=$(( (w1 - w0) * 60 / IDLE_S ))

cat <<TABLE
| measure | result | target |
|---|---|---|
| exec-to-adjusted latency, median ($LAUNCHES launches) | ${median} µs | < 100 µs |
| exec-to-adjusted latency, p99 | ${p99} µs | < 1 ms |
| exec-to-adjusted latency, max | ${max} µs | |
| launches never adjusted within 100 ms | $lost of $LAUNCHES | 0 |
| launches that read the old value at their first instruction | $old of $LAUNCHES | (the proc connector's window) |
| daemon CPU per unlisted exec (storm of $STORM, ${storm_rate}/s) | $(awk -v n="$per_exec_ns" 'BEGIN {printf "%.2f", n / 1000}') µs | < 5 µs |
| daemon peak RSS (VmHWM) with $held_n listed processes held | ${hwm} kB (VmRSS ${rss} kB) | < 1024 kB |
| idle wakeups per minute (measured over ${IDLE_S} s, extrapolated) | $wakeups | |
TABLE
