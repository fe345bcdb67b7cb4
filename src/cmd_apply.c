/* cmd_apply.c - `apply [--dry-run]`: one pass that makes every process agree with the
 * rules; `restore`: puts back every original the state holds. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "cmd.h"
#include "enforce.h"
#include "log.h"
#include "state.h"

/* Takes the run dir's state, or says why not. 0, or the exit status to return. */
static int open_state(const struct globals *g, struct state *st, const char *doing)
{
	pid_t daemon = 0;
	int r;

	r = state_open(st, g->run_dir, false);
	if (r == 0)
		return 0;
	if (r == -EWOULDBLOCK && state_daemon_pid(g->run_dir, &daemon) == 0) {
		log_warnx("a daemon (pid %d) keeps the rules for %s; %s", (int)daemon, g->run_dir, doing);
		return EXIT_ACTION_FAILED;
	}
	log_warnx("cannot use the run dir %s: %s, nothing done", g->run_dir, state_strerror(r));
	return EXIT_ACTION_FAILED;
}

static void apply_usage(void)
{
	fputs("usage: oompardon [-c FILE] [--run-dir DIR] apply [--dry-run]\n", stderr);
}

int cmd_apply(const struct globals *g, int argc, char **argv)
{
	struct enforcer e = { .out = stdout };
	struct ruleset rs;
	struct state st;
	int i, r, failed;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--dry-run") == 0 || strcmp(argv[i], "-n") == 0) {
			e.dry_run = true;
		} else {
			apply_usage();
			return EXIT_USAGE;
		}
	}
	ruleset_init(&rs);
	if (cmd_load_rules(g, &rs) < 0) {	/* every error said: nothing is applied */
		ruleset_free(&rs);
		return EXIT_USAGE;
	}
	e.rs = &rs;
	if (!e.dry_run) {
		r = open_state(g, &st, "it applies them already (reload it with SIGHUP), nothing done");
		if (r != 0) {
			ruleset_free(&rs);
			return r;
		}
		e.st = &st;
	}
	failed = enforce_all(&e);
	if (e.st != NULL)
		state_close(&st);
	ruleset_free(&rs);
	fflush(stdout);
	return failed > 0 || e.c.failures > 0 ? EXIT_ACTION_FAILED : 0;
}

int cmd_restore(const struct globals *g, int argc, char **argv)
{
	struct enforcer e = { .out = stdout };
	struct state st;
	int r, failed;

	if (argc > 1) {
		fprintf(stderr, "oompardon: restore takes no arguments: %s\n"
			"usage: oompardon [--run-dir DIR] restore\n", argv[1]);
		return EXIT_USAGE;
	}
	r = open_state(g, &st, "stop it to restore (SIGTERM puts every value back), nothing done");
	if (r != 0)
		return r;
	e.st = &st;
	failed = enforce_restore_all(&e);
	state_close(&st);
	fflush(stdout);
	return failed > 0 || e.c.failures > 0 ? EXIT_ACTION_FAILED : 0;
}
