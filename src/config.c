/* config.c - PLACEHOLDER until its owner lands it. */
#include <errno.h>
#include <stdio.h>
#include "config.h"
const char config_embedded_default[] = "";
int config_load(struct ruleset *rs, const struct config_source *src) { (void)rs; (void)src; return -ENOSYS; }
int config_parse_buffer(struct ruleset *rs, const char *name, const char *buf) { (void)rs; (void)name; (void)buf; return -ENOSYS; }
void config_print(const struct ruleset *rs, FILE *out) { (void)rs; (void)out; }
char **config_watch_paths(const struct config_source *src) { (void)src; return NULL; }
