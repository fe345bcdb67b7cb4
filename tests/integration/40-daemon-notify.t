#!/usr/bin/env bash
# systemd: the sd_notify protocol (path and abstract sockets), and the unit file verifies.
. "$(dirname "$0")/daemon.sh"

echo '# nothing listed' >"$CONF"
listen_on() {	# listen_on ADDRESS: a listener for start, reload and stop (4 datagrams)
	"$HELPERS/notify_listen" "$1" 4 10000 >"$T/notify" &
	LPID=$!
	wait_for 5000 grep -q listening "$T/notify"
}

ready_twice() { [ "$(grep -c "^READY=1" "$T/notify")" = 2 ]; }

for addr in "$T/notify.sock" "@oompardon-test-$$"; do
	listen_on "$addr"
	NOTIFY_SOCKET=$addr daemon_start || bail "the daemon did not start"
	wait_for 5000 grep -q "^READY=1" "$T/notify"; ok $? "$addr: READY=1 once running"
	kill -HUP "$DPID"
	wait_for 5000 grep -q "^RELOADING=1|MONOTONIC_USEC=[0-9]" "$T/notify"
	ok $? "$addr: RELOADING=1 with MONOTONIC_USEC on SIGHUP"
	wait_for 5000 ready_twice; ok $? "$addr: READY=1 again after the reload"
	daemon_stop; ok $? "$addr: stops cleanly"
	wait $LPID; ok $? "$addr: STOPPING=1 was the fourth message"
	grep -q "^STOPPING=1" "$T/notify" || diag "$T/notify"
done

if command -v systemd-analyze >/dev/null; then
	# Documentation= would ask man for pages not installed here
	sed -e "s|@SBINDIR@/oompardon|$OOMPARDON|" -e '/^Documentation=/d' \
		"$(dirname "$0")/../../etc/oompardon.service" >"$T/oompardon.service"
	systemd-analyze verify "$T/oompardon.service" >"$T/verify" 2>&1; ok $? "systemd-analyze verify accepts the unit"
	[ -s "$T/verify" ] && diag "$T/verify"
else
	ok 0 "# SKIP no systemd-analyze"
fi

done_testing
