/* cmd_rules.c - PLACEHOLDER until its owner lands it. */
#include <errno.h>
#include <stdio.h>
#include "cmd.h"
int cmd_rules(const struct globals *g, int argc, char **argv) { (void)g; (void)argc; fprintf(stderr, "oompardon: %s: not built yet\n", argv[0]); return 2; }
