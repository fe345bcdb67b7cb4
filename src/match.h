/* match.h - the rule verdict for one process: which rule applies, and whether it may. */
#ifndef OOMPARDON_MATCH_H
#define OOMPARDON_MATCH_H

#include <stdbool.h>

#include "proc.h"
#include "rules.h"

/* What match_process needs read first. */
#define MATCH_NEEDS (PROC_STAT | PROC_EXE | PROC_STATUS | PROC_CGROUP)

enum verdict_kind {
	VERDICT_NONE,		/* no rule names this process */
	VERDICT_SET,		/* oom_score_adj must be `score` */
	VERDICT_KEEP,		/* leave it as it is (kernel thread, init, unverifiable replaced exe) */
};

struct verdict {
	enum verdict_kind kind;
	int score;			/* VERDICT_SET */
	const struct rule *rule;	/* the rule that decided, or NULL */
	bool pardoned;			/* the rules' verdict is a pardon (true even if the write fails) */
	/* A protective rule matched but may not take effect (forgeable identity); NULL if none. */
	const struct rule *refused;
	const char *refused_why;	/* static text: "executable in a directory others can write", ... */
};

/* The verdict of rs for the process pf (read with at least MATCH_NEEDS).
 * Pardon beats score; among scores the last rule read wins. A protective rule
 * takes effect only through identities root controls (see trust.h). */
void match_process(const struct ruleset *rs, const struct proc_facts *pf, struct verdict *v);

/* Does one selector match pf, ignoring trust? (unit tests and `ls`) */
bool match_selector(const struct selector *sel, const struct proc_facts *pf);

#endif
