/* main.c - the command line: global options, then one command. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "log.h"

#ifndef VERSION
#define VERSION "0.1"
#endif

static const char usage_text[] =
	"usage: oompardon [-v] [-c FILE] [--run-dir DIR] COMMAND [ARGS]\n"
	"  -c FILE        read this one config file instead of the standard locations\n"
	"  --run-dir DIR  state and runtime rules live here (default " RUN_DIR_DEFAULT ")\n"
	"  -v             verbose: debug messages\n"
	"commands:\n"
	"  rules                          print the effective rules with their origins\n"
	"  apply [--dry-run]              make every running process agree with the rules\n"
	"  restore                        put back every value apply changed\n"
	"  ls [--json] [--cgroup PATH]    who the OOM killer takes next, and why\n"
	"  exec [--pardon | --score N] -- CMD [ARGS]\n"
	"                                 run CMD with its score set from the first instruction\n"
	"  check [--json]                 what happens on this machine when memory runs out\n"
	"  daemon [--keep] [--syslog] [--zero-window] [--killer [--scope CGROUP] [--dry-run]]\n"
	"                                 keep the rules true for every process, event-driven\n"
	"  status                         the running daemon: rules, processes held, counters\n"
	"  pardon PATH... | unpardon PATH...\n"
	"                                 add or remove runtime pardons (gone at reboot)\n"
	"  --help, --version\n"
	"exit status: 0 success, 1 some action failed, 2 usage or config error\n";

struct command {
	const char *name;
	int (*run)(const struct globals *g, int argc, char **argv);
	bool own_help;		/* prints its own usage for --help; else the one above */
};

static const struct command commands[] = {
	{ "rules", cmd_rules, false },
	{ "apply", cmd_apply, false },
	{ "restore", cmd_restore, false },
	{ "ls", cmd_ls, false },
	{ "exec", cmd_exec, true },
	{ "check", cmd_check, false },
	{ "daemon", cmd_daemon, true },
	{ "status", cmd_status, false },
	{ "pardon", cmd_pardon, false },
	{ "unpardon", cmd_pardon, false },
};

void cmd_config_source(const struct globals *g, struct config_source *src)
{
	src->file = g->config_file;
	src->root = g->config_root ? g->config_root : "";
	src->run_dir = g->run_dir;
}

int cmd_load_rules(const struct globals *g, struct ruleset *rs)
{
	struct config_source src;
	size_t i;
	int r;

	cmd_config_source(g, &src);
	r = config_load(rs, &src);
	for (i = 0; i < rs->n_warnings; i++)
		log_warnx("%s", rs->warnings[i]);
	for (i = 0; i < rs->n_errors; i++)
		log_warnx("%s", rs->errors[i]);
	if (r == -EINVAL)
		log_warnx("%zu error%s in the configuration, nothing applied", rs->n_errors,
			  rs->n_errors == 1 ? "" : "s");
	else if (r < 0)
		log_warnx("cannot load the configuration: %s", strerror(-r));
	return r;
}

/* Global options may stand before or after the command; the command's own
 * options are left in place for it. Returns the index of the command or -1. */
static int parse_globals(int argc, char **argv, struct globals *g)
{
	int i, cmd = -1;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (cmd >= 0 && strcmp(a, "--") == 0)
			break;	/* exec's command follows */
		if (strcmp(a, "-c") == 0 || strcmp(a, "--run-dir") == 0 || strcmp(a, "--config-root") == 0) {
			if (i + 1 >= argc) {
				fprintf(stderr, "oompardon: option %s needs an argument\n", a);
				return -2;
			}
			if (a[1] == 'c')
				g->config_file = argv[i + 1];
			else if (a[2] == 'r')
				g->run_dir = argv[i + 1];
			else
				g->config_root = argv[i + 1];
			/* consumed: shift out so commands never see them */
			memmove(&argv[i], &argv[i + 2], (size_t)(argc - i - 2) * sizeof(*argv));
			argc -= 2;
			argv[argc] = NULL;
			i--;
			continue;
		}
		if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
			g->verbose++;
			memmove(&argv[i], &argv[i + 1], (size_t)(argc - i - 1) * sizeof(*argv));
			argc -= 1;
			argv[argc] = NULL;
			i--;
			continue;
		}
		if (cmd < 0 && a[0] != '-') {
			cmd = i;
			continue;
		}
		if (cmd < 0 && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 || strcmp(a, "--version") == 0))
			return i;
		if (cmd < 0) {
			fprintf(stderr, "oompardon: unknown option %s\n%s", a, usage_text);
			return -2;
		}
	}
	return cmd < 0 ? -1 : cmd;
}

int main(int argc, char **argv)
{
	struct globals g = { .run_dir = RUN_DIR_DEFAULT };
	int argc_left, ci;
	size_t i;

	ci = parse_globals(argc, argv, &g);
	if (ci == -2)
		return EXIT_USAGE;
	if (ci < 0) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[ci], "--help") == 0 || strcmp(argv[ci], "-h") == 0) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (strcmp(argv[ci], "--version") == 0) {
		printf("oompardon %s\n", VERSION);
		return 0;
	}
	log_setup(LOG_TARGET_STDERR, g.verbose);
	for (argc_left = 0; argv[ci + argc_left] != NULL; argc_left++)
		;
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[ci], commands[i].name) != 0)
			continue;
		if (argc_left > 1 && !commands[i].own_help &&
		    (strcmp(argv[ci + 1], "--help") == 0 || strcmp(argv[ci + 1], "-h") == 0)) {
			fputs(usage_text, stdout);
			return 0;
		}
		return commands[i].run(&g, argc_left, argv + ci);
	}
	fprintf(stderr, "oompardon: unknown command '%s'\n%s", argv[ci], usage_text);
	return EXIT_USAGE;
}
