#!/usr/bin/env bash
# make install puts the program, both man pages, the example config and the unit where
# an admin looks for them, and the unit names the installed binary.
. "$(dirname "$0")/lib.sh"
plan 9
tmpdir D
top=$(cd "$(dirname "$0")/../.." && pwd)

make -s -C "$top" install DESTDIR="$D" PREFIX=/usr >"$D/log" 2>&1
check "make install succeeds" test $? -eq 0
check "the program is installed executable" test -x "$D/usr/sbin/oompardon"
check "oompardon(8) is installed" test -s "$D/usr/share/man/man8/oompardon.8"
check "oompardon.conf(5) is installed" test -s "$D/usr/share/man/man5/oompardon.conf.5"
check "the example config is installed" test -s "$D/usr/share/doc/oompardon/oompardon.conf.example"
unit="$D/usr/lib/systemd/system/oompardon.service"
check "the systemd unit is installed" test -s "$unit"
is "$(sed -n 's/^ExecStart=//p' "$unit")" "/usr/sbin/oompardon daemon" "the unit runs the installed binary"
"$D/usr/sbin/oompardon" -c "$D/usr/share/doc/oompardon/oompardon.conf.example" rules >/dev/null 2>"$D/err"
check "the installed example config parses with the installed binary" test $? -eq 0
"$D/usr/sbin/oompardon" --version | grep -q '^oompardon [0-9]'
check "the installed binary says its version" test $? -eq 0
done_testing
