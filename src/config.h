/* config.h - reads the config files and drop-ins into a ruleset, every error in one pass. */
#ifndef OOMPARDON_CONFIG_H
#define OOMPARDON_CONFIG_H

#include <stdio.h>

#include "rules.h"

/* Where the rules come from. */
struct config_source {
	const char *file;	/* -c FILE: only this file (plus the runtime rules); NULL = standard locations */
	const char *root;	/* prefix for the standard locations ("" normally; tests use a temp dir) */
	const char *run_dir;	/* runtime rules: RUN_DIR/runtime.conf, read last; NULL = none */
};

/* The standard locations, below root. */
#define CONFIG_MAIN_FILE "/etc/oompardon.conf"
#define CONFIG_DROPIN_DIRS { "/usr/lib/oompardon.d", "/etc/oompardon.d", "/run/oompardon.d" }
#define CONFIG_RUNTIME_FILE "runtime.conf"	/* inside the run dir */

/* Fills rs (initialised by the caller) from src. Returns 0, or -EINVAL when
 * rs->errors is not empty (the caller must then apply nothing). Other -errno
 * only for memory exhaustion. Warnings never fail the load. */
int config_load(struct ruleset *rs, const struct config_source *src);

/* Parses one buffer as if it were file `name` (the embedded default and tests). */
int config_parse_buffer(struct ruleset *rs, const char *name, const char *buf);

/* Prints the effective rules and settings, each rule with its origin file:line. */
void config_print(const struct ruleset *rs, FILE *out);

/* Every file and directory config_load looks at (for inotify); NULL-terminated, caller frees. */
char **config_watch_paths(const struct config_source *src);

/* The embedded default: the common screen lockers. */
extern const char config_embedded_default[];

#endif
