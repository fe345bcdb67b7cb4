/* daemon.h - the daemon's loop: events -> enforce, reloads, rescans, status, clean exit. */
#ifndef OOMPARDON_DAEMON_H
#define OOMPARDON_DAEMON_H

#include <stdbool.h>

#include "cmd.h"

#define DAEMON_STATUS_SOCKET "status.sock"	/* inside the run dir: connect, read the status */
#define POLL_INTERVAL_MS 1000u			/* rescans without the proc connector */

struct daemon_options {
	bool keep;		/* leave the values in place at exit */
	bool killer;		/* --killer: enable the early killer whatever the config says */
	const char *killer_scope;	/* --scope CGROUP */
	bool killer_dry_run;	/* --dry-run (with --killer) */
	int test_rcvbuf_bytes;	/* --test-rcvbuf: force the netlink receive buffer (tests) */
	bool no_events;		/* --test-poll: do without the proc connector (tests) */
	bool zero_window;	/* --zero-window: fanotify holds the listed files' execs */
};

/* Runs until SIGTERM/SIGINT. Returns the process exit status. */
int daemon_run(const struct globals *g, const struct daemon_options *o);

#endif
