#!/usr/bin/env bash
# killer.sh - the early killer side by side with earlyoom (Debian's package), as a markdown
# table on stdout: in the VM (bench/killer-vm-scenario.sh, booted by tests/vm/run.sh with
# earlyoom copied into the guest) the time from a hog's start to memory recovered and
# whether the kernel's OOM killer had to act; on this machine (bench/killer-idle.sh) idle
# wake-ups and CPU per minute and RSS. Root, from the top of the tree, after make.
#   KILLER_IDLE_S: seconds of the idle measure (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
EARLYOOM=$(command -v earlyoom) || { echo "killer.sh: no earlyoom: run tools/deps.sh bench" >&2; exit 1; }
T=$(mktemp -d /tmp/oompardon-kbench.XXXXXX)
trap 'rm -rf "$T"' EXIT

# The VM: one boot, 40 runs; about 70 s under tcg (300 s allowed).
if ! VMTEST_TIMEOUT_S=300 VMTEST_PROGS=$EARLYOOM VMTEST_SCENARIO_FILES=bench/killer-vm-scenario.sh \
	tests/vm/run.sh killer-vm-scenario >"$T/vm" 2>&1; then
	cat "$T/vm" >&2
	echo "killer.sh: the VM scenario failed" >&2
	exit 1
fi
mkdir -p build/bench && grep '^# kbench ' "$T/vm" >build/bench/killer-vm.log
bench/killer-idle.sh "${KILLER_IDLE_S:-60}" >"$T/idle"

# run_times WHO PACE: "min / median / max ms" of the hog's time from start to exit
run_times() {
	awk -v w="$1" -v p="$2" '$2 == "kbench" && $3 == w && $4 == p { print $5 }' "$T/vm" | sort -n >"$T/t"
	awk '{ v[NR] = $1 } END { if (NR) printf "%d / %d / %d ms", v[1], v[int((NR + 1) / 2)], v[NR]; else print "-" }' "$T/t"
}
# kernel WHO PACE: "K of N" runs where the kernel's OOM killer acted
kernel() {
	awk -v w="$1" -v p="$2" '$2 == "kbench" && $3 == w && $4 == p { n++; k += $6 } END { printf "%d of %d", k, n }' "$T/vm"
}
# idle NAME COLUMN: from killer-idle.sh's table (program, wakeups/min, CPU ms/min, RSS KiB)
idle() {
	awk -v n="$1" -v c="$2" '{ name = $0; sub(/ +[0-9]+ +[0-9]+ +[0-9]+ *$/, "", name) }
		name == n { print $(NF - 3 + c) }' "$T/idle"
}
kernel_rel=$(sed -n 's/^# kernel vmlinuz-\([^,]*\),.*/\1/p' "$T/vm")
accel=$(sed -n 's/^# kernel .*, accel \([^,]*\),.*/\1/p' "$T/vm")

cat <<TABLE
| measure | oompardon daemon --killer | killer alone | earlyoom $("$EARLYOOM" -v 2>&1 | sed -n 's/^earlyoom v\{0,1\}//p' | head -n 1) |
|---|---|---|---|
| VM: hog at full speed, min / median / max time from its start to memory recovered (10 runs) | $(run_times oompardon full) | | $(run_times earlyoom full) |
| VM: hog at full speed, runs where the kernel's OOM killer had to act | $(kernel oompardon full) | | $(kernel earlyoom full) |
| VM: hog at 20 MiB/s, min / median / max time from its start to memory recovered (10 runs) | $(run_times oompardon 20MiB/s) | | $(run_times earlyoom 20MiB/s) |
| VM: hog at 20 MiB/s, runs where the kernel's OOM killer had to act | $(kernel oompardon 20MiB/s) | | $(kernel earlyoom 20MiB/s) |
| idle wake-ups per minute | $(idle "oompardon daemon" 1) | $(idle "killer alone" 1) | $(idle earlyoom 1) |
| idle CPU per minute | $(idle "oompardon daemon" 2) ms | $(idle "killer alone" 2) ms | $(idle earlyoom 2) ms |
| RSS at idle | $(idle "oompardon daemon" 3) KiB | $(idle "killer alone" 3) KiB | $(idle earlyoom 3) KiB |

VM: kernel $kernel_rel under qemu ($accel: compare the columns, not with real hardware).
256 MiB, no swap, one CPU; 140 MiB held by a process out of reach (-1000); the hog wants
400 MiB more. Both killers with their defaults: act below 10 % available, SIGKILL below 5 %.
Times in 10 ms steps; each run is in build/bench/killer-vm.log.
Idle: this machine, $(nproc) CPUs, $(uname -r), over ${KILLER_IDLE_S:-60} s (load average $(cut -d' ' -f1-3 /proc/loadavg)),
all in dry run on the whole system. The daemon also hears every fork and exec on the
machine; the killer alone (bench/killer_alone.c) is the killer's module without the rest.
TABLE
