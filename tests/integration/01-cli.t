#!/usr/bin/env bash
# The command line: every command answers --help on stdout with status 0; unknown
# commands and options, and a missing option argument, are usage errors (status 2).
. "$(dirname "$0")/lib.sh"
cmds="rules apply restore ls exec check daemon status pardon unpardon"
plan $(( $(wc -w <<<"$cmds") + 6 ))

for c in $cmds; do
	out=$("$OOMPARDON" "$c" --help 2>/dev/null); st=$?
	check "$c --help: status 0 and a usage on stdout" test "$st" -eq 0 -a -n "$(grep -i '^usage:' <<<"$out")"
done
"$OOMPARDON" --version | grep -qx 'oompardon [0-9][0-9.]*'
check "--version prints the version" test $? -eq 0
"$OOMPARDON" frobnicate >/dev/null 2>&1
is "$?" 2 "an unknown command is a usage error"
"$OOMPARDON" --frobnicate ls >/dev/null 2>&1
is "$?" 2 "an unknown global option is a usage error"
"$OOMPARDON" ls -c >/dev/null 2>&1
is "$?" 2 "-c without its file is a usage error"
"$OOMPARDON" >/dev/null 2>&1
is "$?" 2 "no command is a usage error"
err=$("$OOMPARDON" apply --frobnicate 2>&1 >/dev/null); st=$?
check "a command's unknown option is a usage error that says so" test "$st" -eq 2 -a -n "$err"
done_testing
