/* killer.h - the early OOM killer: acts before the kernel, never on the pardoned. */
#ifndef OOMPARDON_KILLER_H
#define OOMPARDON_KILLER_H

#include "rules.h"

struct killer;

/* Sets up the watch (PSI trigger, timers) from rs->settings.killer_*; the daemon
 * owns rs and calls killer_set_rules after each reload. 0 or -errno. */
int killer_new(struct killer **k, const struct ruleset *rs);
void killer_set_rules(struct killer *k, const struct ruleset *rs);

/* One fd for the daemon's poll loop (an epoll fd inside): readable when the
 * killer has work; then call killer_handle. */
int killer_fd(const struct killer *k);
/* Checks memory, and when both thresholds are crossed (or PSI fired) picks and
 * kills one victim, logging it. 0, or -errno (logged by the caller). */
int killer_handle(struct killer *k);
void killer_free(struct killer *k);

#endif
