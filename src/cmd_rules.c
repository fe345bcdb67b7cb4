/* cmd_rules.c - `oompardon rules`: parse the configuration, print what is in force, exit. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "log.h"

int cmd_rules(const struct globals *g, int argc, char **argv)
{
	struct ruleset rs;
	int r, status = 0;

	if (argc > 1) {
		fprintf(stderr, "oompardon: rules takes no arguments: '%s'\nusage: oompardon [-c FILE] rules\n",
			argv[1]);
		return EXIT_USAGE;
	}
	ruleset_init(&rs);
	r = cmd_load_rules(g, &rs);	/* says every error and warning */
	if (r == -EINVAL) {
		status = EXIT_USAGE;
	} else if (r < 0) {
		status = EXIT_ACTION_FAILED;
	} else {
		config_print(&rs, stdout);
		if (fflush(stdout) != 0 || ferror(stdout)) {
			log_warn("cannot write the rules");
			status = EXIT_ACTION_FAILED;
		}
	}
	ruleset_free(&rs);
	return status;
}
