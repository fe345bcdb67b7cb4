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
$CC -O2 -D_GNU_SOURCE -Isrc -o "$B/floor" bench/floor.c src/events_netlink.c

T=$(mktemp -d /tmp/oompardon-bench.XXXXXX)
DPID=
FPID=
pids=()
cleanup() {
	[ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null
	[ -n "$FPID" ] && kill "$FPID" 2>/dev/null
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

cpu_ns() { awk '{print $1}' "/proc/${1:-$DPID}/schedstat"; }	# time on cpu, ns
field() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$DPID/status"; }

# 1. exec-to-adjusted latency
"$B/launch" "$LAUNCHES" "$FIRST" 500 >"$T/lat"
lost=$(awk '$2 < 0' "$T/lat" | wc -l)
old=$(awk '$1 != 500' "$T/lat" | wc -l)
awk '$2 >= 0 {print $2}' "$T/lat" | sort -n >"$T/exec"
awk '$2 >= 0 {d = $2 - $3; print (d < 0 ? 0 : d)}' "$T/lat" | sort -n >"$T/first"
awk '{print $3}' "$T/lat" | sort -n >"$T/startup"
pct() {	# pct FILE FRACTION: that quantile of the sorted ns values, in µs
	awk -v f="$2" '{v[NR] = $1} END {i = int(NR * f); if (i < 1) i = 1; if (i > NR) i = NR; printf "%.1f", v[i] / 1000}' "$1"
}
stats() { echo "$(pct "$1" 0.5) / $(pct "$1" 0.99) / $(pct "$1" 1)"; }

# 2. daemon CPU per unlisted exec, during an exec storm: one launcher, then one per core
# (parallel launchers let events queue up, so one wakeup serves several).
storm_cpu() {	# storm_cpu LAUNCHERS -> "ns_per_exec execs_per_s"
	local c0 c1 s0 s1 i spids=()
	c0=$(cpu_ns)
	s0=$(date +%s%N)
	for i in $(seq "$1"); do "$B/storm" $((STORM / $1)) "$B/nop" & spids+=($!); done
	wait "${spids[@]}"
	s1=$(date +%s%N)
	c1=$(cpu_ns)
	echo "$(( (c1 - c0) / STORM )) $(( STORM * 1000000000 / (s1 - s0) ))"
}
read -r per_exec_ns storm_rate < <(storm_cpu 1)
# the floor on this machine: a listener that only wakes and reads (no lookup at all)
"$B/floor" &
FPID=$!
sleep 0.5
f0=$(cpu_ns "$FPID")
"$B/storm" $((STORM / 4)) "$B/nop"
f1=$(cpu_ns "$FPID")
kill "$FPID"
wait "$FPID" 2>/dev/null || true
FPID=
floor_ns=$(( (f1 - f0) / (STORM / 4) ))
ncpu=$(nproc)
read -r per_exec_par_ns storm_par_rate < <(storm_cpu "$ncpu")
us() { awk -v n="$1" 'BEGIN {printf "%.2f", n / 1000}'; }

# 3. peak RSS with a thousand listed processes running
for _ in $(seq "$HOLD"); do "$PARK" & pids+=($!); done
held() { "$OOMPARDON" --run-dir "$T/run" status | awk '/^processes changed:/ {print $3}'; }
for _ in $(seq 1000); do [ "$(held)" -ge "$HOLD" ] && break; sleep 0.01; done
held_n=$(held)
hwm=$(field VmHWM)
rss=$(field VmRSS)
anon=$(field RssAnon)
# the storm again, now that values are ours: forks and exits are heard too
read -r per_exec_held_ns storm_held_rate < <(storm_cpu 1)
kill "${pids[@]}"
wait "${pids[@]}" 2>/dev/null || true
pids=()

# 4. idle wakeups: context switches over IDLE_S seconds, per minute. Every exec on the
# machine is an event for us: the events counted meanwhile say how idle it was.
sw() { echo $(( $(field voluntary_ctxt_switches) + $(field nonvoluntary_ctxt_switches) )); }
events() { "$OOMPARDON" --run-dir "$T/run" status | sed -n 's/^  events: //p'; }
sleep 1
w0=$(sw)
e0=$(events)
sleep "$IDLE_S"
w1=$(sw)
e1=$(events)
wakeups=$(( (w1 - w0 - 2) * 60 / IDLE_S ))	# 2: our own status queries
idle_events=$(( (e1 - e0) * 60 / IDLE_S ))

# 5. the same with --zero-window: fanotify holds each exec of a listed file until its
# value is written, and unlisted execs wake nobody while no value is ours.
kill -TERM "$DPID"
wait "$DPID" 2>/dev/null || true
"$OOMPARDON" -c "$T/conf" --run-dir "$T/run" daemon --zero-window >"$T/log.zw" 2>&1 &
DPID=$!
for _ in $(seq 500); do "$OOMPARDON" --run-dir "$T/run" status >/dev/null 2>&1 && break; sleep 0.01; done
"$B/launch" "$LAUNCHES" "$FIRST" 500 >"$T/lat.zw"
zw_old=$(awk '$1 != 500' "$T/lat.zw" | wc -l)
awk '$2 >= 0 {print $2}' "$T/lat.zw" | sort -n >"$T/exec.zw"
for _ in $(seq 500); do [ "$(held)" = 0 ] && break; sleep 0.01; done
sleep 3	# the proc connector narrows a moment after the last value is gone
read -r zw_per_exec_ns zw_storm_rate < <(storm_cpu 1)
load=$(cut -d' ' -f1-3 /proc/loadavg)

cat <<TABLE
| measure | result | target |
|---|---|---|
| execve() call to adjusted, median / p99 / max ($LAUNCHES launches) | $(stats "$T/exec") µs | < 100 µs / < 1 ms |
| first instruction to adjusted, median / p99 / max | $(stats "$T/first") µs | |
| (execve() call to first instruction, the kernel's exec alone) | $(stats "$T/startup") µs | |
| launches never adjusted within 100 ms | $lost of $LAUNCHES | 0 |
| launches that read the old value at their first instruction | $old of $LAUNCHES | (the proc connector's window) |
| daemon CPU per unlisted exec, 1 launcher (storm of $STORM, ${storm_rate}/s) | $(us "$per_exec_ns") µs | < 5 µs |
| (floor here: a listener that only wakes and reads each exec event) | $(us "$floor_ns") µs | |
| daemon CPU per unlisted exec, $ncpu launchers (${storm_par_rate}/s) | $(us "$per_exec_par_ns") µs | < 5 µs |
| daemon CPU per unlisted exec, 1 launcher, $held_n processes held (forks and exits heard too, ${storm_held_rate}/s) | $(us "$per_exec_held_ns") µs | < 5 µs |
| daemon peak RSS (VmHWM) with $held_n listed processes held | ${hwm} kB (VmRSS ${rss} kB, of which RssAnon ${anon} kB is ours alone; the rest is shared libc pages) | < 1024 kB |
| idle wakeups per minute (measured over ${IDLE_S} s, extrapolated) | $wakeups ($idle_events process events/min on the machine) | |
| **--zero-window**: execve() call to adjusted, median / p99 / max | $(stats "$T/exec.zw") µs | < 100 µs / < 1 ms |
| **--zero-window**: launches that read the old value at their first instruction | $zw_old of $LAUNCHES | |
| **--zero-window**: daemon CPU per unlisted exec, nothing held (${zw_storm_rate}/s) | $(us "$zw_per_exec_ns") µs | < 5 µs |

Machine: $(nproc) CPUs, $(uname -r), load average $load at the end.
TABLE

# The early killer against earlyoom (issue 5, section 7): a table of its own, bench/killer.sh.
echo; bench/killer.sh
