/* killer_alone.c - the early killer without the rest of the daemon, for measuring it alone:
 * the daemon's proc connector wakes it for every exec on the machine, the killer does not.
 * usage: killer_alone CONFIG   (runs until SIGTERM/SIGINT) */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "killer.h"
#include "log.h"
#include "rules.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	struct config_source src = { .root = "" };
	struct ruleset rs;
	struct killer *k;
	int r;

	if (argc != 2) {
		fprintf(stderr, "usage: killer_alone CONFIG\n");
		return 2;
	}
	src.file = argv[1];
	log_setup(LOG_TARGET_STDERR, 0);
	ruleset_init(&rs);
	if (config_load(&rs, &src) < 0) {
		fprintf(stderr, "killer_alone: %s has errors\n", argv[1]);
		return 2;
	}
	rs.settings.killer = true;
	r = killer_new(&k, &rs);
	if (r < 0) {
		fprintf(stderr, "killer_alone: %s\n", strerror(-r));
		return 1;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	while (!stop) {
		struct pollfd p = { .fd = killer_fd(k), .events = POLLIN };

		if (poll(&p, 1, -1) > 0 && killer_handle(k) < 0)
			log_warn("early killer");
	}
	killer_free(k);
	ruleset_free(&rs);
	return 0;
}
