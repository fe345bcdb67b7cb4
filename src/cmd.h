/* cmd.h - the commands of the command line; each lives in its own cmd_*.c. */
#ifndef OOMPARDON_CMD_H
#define OOMPARDON_CMD_H

#include "config.h"
#include "rules.h"

#define EXIT_ACTION_FAILED 1	/* some action failed */
#define EXIT_USAGE 2		/* usage or config error */

#define RUN_DIR_DEFAULT "/run/oompardon"

/* Options that come before (or after) the command. */
struct globals {
	const char *config_file;	/* -c FILE, or NULL */
	const char *run_dir;		/* --run-dir DIR */
	const char *config_root;	/* --config-root DIR: prefix for the standard locations */
	int verbose;			/* -v */
};

/* Loads the rules as the globals say and prints every error and warning
 * ("file:line: message"). 0, or -EINVAL when the config has errors. */
int cmd_load_rules(const struct globals *g, struct ruleset *rs);

/* The config source the globals describe. */
void cmd_config_source(const struct globals *g, struct config_source *src);

/* Each returns the process exit status; argv[0] is the command name. */
int cmd_rules(const struct globals *g, int argc, char **argv);
int cmd_apply(const struct globals *g, int argc, char **argv);
int cmd_restore(const struct globals *g, int argc, char **argv);
int cmd_ls(const struct globals *g, int argc, char **argv);
int cmd_exec(const struct globals *g, int argc, char **argv);
int cmd_check(const struct globals *g, int argc, char **argv);
int cmd_daemon(const struct globals *g, int argc, char **argv);
int cmd_status(const struct globals *g, int argc, char **argv);
int cmd_pardon(const struct globals *g, int argc, char **argv);	/* pardon and unpardon */

#endif
