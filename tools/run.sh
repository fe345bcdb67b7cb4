#!/bin/sh
# make run: start the daemon in the foreground with the rules in force (the
# embedded default list of screen lockers when no config exists); ctrl-C puts
# every value back.
set -e
cd "$(dirname "$0")/.."
echo "oompardon: these rules will be kept true for every process until you press ctrl-C:"
./oompardon "$@" rules || exit $?
if [ "$(id -u)" != 0 ]; then
	echo "oompardon: not root: the daemon can change only your own processes, and only raise scores" >&2
fi
echo "oompardon: starting the daemon; ctrl-C restores every value it changed"
exec ./oompardon "$@" daemon
