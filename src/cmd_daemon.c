/* cmd_daemon.c - PLACEHOLDER until its owner lands it. */
#include <errno.h>
#include <stdio.h>
#include "cmd.h"
int cmd_daemon(const struct globals *g, int argc, char **argv) { (void)g; (void)argc; fprintf(stderr, "oompardon: %s: not built yet\n", argv[0]); return 2; }
int cmd_status(const struct globals *g, int argc, char **argv) { (void)g; (void)argc; fprintf(stderr, "oompardon: %s: not built yet\n", argv[0]); return 2; }
