/* enforce.h - verdict -> adjustment -> state -> log for one process: shared by apply and the daemon. */
#ifndef OOMPARDON_ENFORCE_H
#define OOMPARDON_ENFORCE_H

#include <stdbool.h>
#include <stdio.h>

#include "proc.h"
#include "rules.h"
#include "state.h"

struct enforce_counters {
	unsigned long long writes, failures, restored, skipped_gone;
	unsigned long long eacces;	/* lowering refused: no CAP_SYS_RESOURCE */
};

struct enforcer {
	const struct ruleset *rs;
	struct state *st;		/* NULL for dry runs */
	bool dry_run;
	FILE *out;			/* change lines go here (apply, restore); NULL: log_notice (daemon) */
	struct enforce_counters c;
	bool told_no_cap;		/* the one "no CAP_SYS_RESOURCE" message was said */
};

/* Makes pid agree with the rules: writes the verdict when it differs (recording the
 * original first), and when oompardon's value is no longer asked for (no rule names
 * the new program after exec, inherit off) puts the original back. Logs each change
 * ("pardoned 4242 /usr/bin/i3lock (/etc/oompardon.conf:3): 0 -> -1000").
 * 0, 1 when it changed something, -errno when a write failed (logged). */
int enforce_pid(struct enforcer *e, pid_t pid);

/* As enforce_pid, for a process held at exec (fanotify) that is about to run the
 * file exe (dev, ino): the verdict is the new program's, written before it runs. */
int enforce_exec_hold(struct enforcer *e, pid_t pid, const char *exe, dev_t dev, ino_t ino);

/* A fork: the child inherits its parent's state entry, if any. */
int enforce_fork(struct enforcer *e, pid_t parent, pid_t child);

/* One pass over every process (apply, daemon start and rescans). Returns 0 or the
 * number of failed writes. */
int enforce_all(struct enforcer *e);

/* Puts back every original in the state (restore, daemon exit). Skips processes
 * gone or reused. Returns 0 or the number of failed writes. */
int enforce_restore_all(struct enforcer *e);

#endif
