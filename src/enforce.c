/* enforce.c - verdict -> adjustment -> state -> log for one process: shared by apply and the daemon.
 *
 * The state holds every process whose value came from oompardon, with the value it
 * had before (its own, or that of the ancestor oompardon changed). A value is only
 * ever put back while it still is the one oompardon set: a value someone else wrote
 * since is theirs, and the entry is forgotten instead.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adjust.h"
#include "enforce.h"
#include "log.h"
#include "match.h"

#define NO_CAP_MESSAGE "cannot lower oom_score_adj: oompardon lacks CAP_SYS_RESOURCE " \
	"(containers often drop it); pardons and negative scores are not applied"

/* One change line: to e->out (apply, restore), else through the log (the daemon). */
__attribute__((format(printf, 2, 3)))
static void say(const struct enforcer *e, const char *fmt, ...)
{
	char line[PATH_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (e->out != NULL)
		fprintf(e->out, "%s\n", line);
	else
		log_notice("%s", line);
}

/* What a message calls the process: its executable, or [comm] without one. */
static const char *name_of(const struct proc_facts *pf, char *buf, size_t size)
{
	if ((pf->have & PROC_EXE) && pf->has_exe)
		return pf->exe;
	snprintf(buf, size, "[%s]", (pf->have & PROC_STAT) ? pf->comm : "?");
	return buf;
}

/* A write failed: the one no-capability message for the whole run, or one line. */
static void write_failed(struct enforcer *e, const struct proc_facts *pf, int value, int err)
{
	char nbuf[PROC_COMM_MAX + 2];

	e->c.failures++;
	if ((err == -EACCES || err == -EPERM) && value < pf->oom_score_adj) {
		e->c.eacces++;
		if (!e->told_no_cap)
			log_warnx(NO_CAP_MESSAGE);
		e->told_no_cap = true;
		return;
	}
	log_warnx("cannot set oom_score_adj of %d %s to %d: %s, leaving it at %d", (int)pf->pid,
		  name_of(pf, nbuf, sizeof(nbuf)), value, strerror(-err), pf->oom_score_adj);
}

/* A protective rule that may not take effect says why, once per rule. The ruleset is
 * const for match.c, which only reads it; its memory belongs to our caller (apply, the
 * daemon), so the flag is set on the rule itself rather than in a side table. */
static void warn_refused(const struct verdict *v, const struct proc_facts *pf)
{
	struct rule *r = (struct rule *)(uintptr_t)v->refused;
	char nbuf[PROC_COMM_MAX + 2];

	if (r == NULL || r->warned)
		return;
	r->warned = true;
	log_warnx("%s:%u: cannot %s %d %s: %s; the rule does not protect it (said once per rule)",
		  r->file, r->line, r->action == RULE_PARDON ? "pardon" : "lower the score of",
		  (int)pf->pid, name_of(pf, nbuf, sizeof(nbuf)), v->refused_why ? v->refused_why : "not verified");
}

/* Forgets pid, saying so when the journal cannot take it. */
static void forget(struct enforcer *e, pid_t pid)
{
	int r = state_forget(e->st, pid);

	if (r < 0)
		log_warnx("cannot update %s/%s: %s, the entry of %d stays until the next restart",
			  e->st->dir, STATE_FILE, strerror(-r), (int)pid);
}

/* Writes the rules' value, the original recorded first. 1 changed, 0, or -errno. */
static int set_value(struct enforcer *e, const struct proc_facts *pf, const struct rule *rule, int value)
{
	const struct state_entry *se;
	bool had = false;
	int prev_set = 0, r;
	char nbuf[PROC_COMM_MAX + 2];
	const char *name = name_of(pf, nbuf, sizeof(nbuf));
	bool pardon = rule->action == RULE_PARDON;

	if (e->dry_run) {
		say(e, "would %s %d %s (%s:%u): %d -> %d", pardon ? "pardon" : "score", (int)pf->pid, name,
		    rule->file, rule->line, pf->oom_score_adj, value);
		/* foretell the one message the real run would give */
		if (value < pf->oom_score_adj && !e->told_no_cap && adjust_can_lower() == 0) {
			log_warnx(NO_CAP_MESSAGE);
			e->told_no_cap = true;
		}
		return 1;
	}
	if (e->st != NULL) {
		/* copies: state_record may move the entry */
		se = state_find(e->st, pf->pid);
		had = se != NULL;
		prev_set = had ? se->set : 0;
		r = state_record(e->st, pf->pid, pf->start_time, pf->oom_score_adj, value);
		if (r < 0) {
			e->c.failures++;
			log_warnx("cannot record the original of %d %s in %s/%s: %s, leaving it at %d",
				  (int)pf->pid, name, e->st->dir, STATE_FILE, strerror(-r), pf->oom_score_adj);
			return r;
		}
	}
	r = adjust_write(pf->pid, pf->start_time, value);
	if (r < 0 && e->st != NULL) {
		/* the record promised a value that never came: take it back */
		if (r == -ESRCH || !had)
			forget(e, pf->pid);
		else
			state_record(e->st, pf->pid, pf->start_time, pf->oom_score_adj, prev_set);
	}
	if (r == -ESRCH) {
		e->c.skipped_gone++;
		return 0;
	}
	if (r < 0) {
		write_failed(e, pf, value, r);
		return r;
	}
	e->c.writes++;
	say(e, "%s %d %s (%s:%u): %d -> %d", pardon ? "pardoned" : "scored", (int)pf->pid, name,
	    rule->file, rule->line, pf->oom_score_adj, value);
	return 1;
}

/* Puts the original back (why: NULL, or what the line says in parentheses).
 * 1 changed, 0, or -errno. */
static int restore_value(struct enforcer *e, const struct proc_facts *pf, int original, const char *why)
{
	char nbuf[PROC_COMM_MAX + 2];
	const char *name = name_of(pf, nbuf, sizeof(nbuf));
	int r;

	if (e->dry_run) {
		say(e, "would restore %d %s: %d -> %d%s%s%s", (int)pf->pid, name, pf->oom_score_adj, original,
		    why ? " (" : "", why ? why : "", why ? ")" : "");
		return 1;
	}
	r = adjust_write(pf->pid, pf->start_time, original);
	if (r == -ESRCH) {
		e->c.skipped_gone++;
		forget(e, pf->pid);
		return 0;
	}
	if (r < 0) {
		write_failed(e, pf, original, r);	/* the entry stays: a later pass may succeed */
		return r;
	}
	forget(e, pf->pid);
	e->c.writes++;
	e->c.restored++;
	say(e, "restored %d %s: %d -> %d%s%s%s", (int)pf->pid, name, pf->oom_score_adj, original,
	    why ? " (" : "", why ? why : "", why ? ")" : "");
	return 1;
}

/* Reads pf's current oom_score_adj. 0, or -ESRCH / -errno (counted, and the
 * entry of a process that is gone forgotten). */
static int read_current(struct enforcer *e, struct proc_facts *pf)
{
	int r = adjust_read(pf->pid, &pf->oom_score_adj);

	if (r == -ESRCH) {
		e->c.skipped_gone++;
		if (e->st != NULL)
			forget(e, pf->pid);
	} else if (r < 0) {
		log_debug("cannot read the oom_score_adj of %d: %s, skipping it", (int)pf->pid, strerror(-r));
	}
	return r;
}

/* Makes pid agree with the rules. 0, 1 when it changed something, -errno when a write failed. */
static int enforce_facts(struct enforcer *e, pid_t pid, int r, struct proc_facts *pf);

int enforce_pid(struct enforcer *e, pid_t pid)
{
	struct proc_facts pf;
	int r;

	/* The value itself is read only when the verdict needs it: most execs are of
	 * programs no rule names (PROC_OOM costs 8 of 44 us here, as oom_score is
	 * computed on read). */
	r = proc_read(pid, MATCH_NEEDS, &pf);
	return enforce_facts(e, pid, r, &pf);
}

int enforce_exec_hold(struct enforcer *e, pid_t pid, const char *exe, dev_t dev, ino_t ino)
{
	struct proc_facts pf;
	int r;

	/* Still the old image: everything but the executable is the process's own
	 * (comm changes at exec too; the exec event that follows corrects a comm= rule). */
	r = proc_read(pid, MATCH_NEEDS & ~(unsigned)PROC_EXE, &pf);
	if (r == 0) {
		pf.have |= PROC_EXE;
		pf.has_exe = true;
		pf.exe_deleted = false;
		snprintf(pf.exe, sizeof(pf.exe), "%s", exe);
		pf.exe_dev = dev;
		pf.exe_ino = ino;
	}
	return enforce_facts(e, pid, r, &pf);
}

/* enforce_pid once the facts are read (r: what proc_read returned). */
static int enforce_facts(struct enforcer *e, pid_t pid, int r, struct proc_facts *pf)
{
	const struct state_entry *se = NULL;
	struct verdict v;
	int original, set;

	if (r == -ESRCH) {
		e->c.skipped_gone++;
		if (e->st != NULL)
			forget(e, pid);
		return 0;
	}
	if (r < 0) {
		log_debug("cannot read process %d: %s, skipping it", (int)pid, strerror(-r));
		return 0;
	}
	if (e->st != NULL) {
		se = state_find(e->st, pid);
		if (se != NULL && se->start_time != pf->start_time) {
			forget(e, pid);		/* a dead process's entry under a reused pid */
			se = NULL;
		}
	}
	match_process(e->rs, pf, &v);
	warn_refused(&v, pf);
	switch (v.kind) {
	case VERDICT_KEEP:
		return 0;
	case VERDICT_SET:
		if (read_current(e, pf) < 0 || v.score == pf->oom_score_adj)
			return 0;
		return set_value(e, pf, v.rule, v.score);
	case VERDICT_NONE:
		/* Only a value oompardon gave (itself, or through an ancestor) goes back. */
		if (se == NULL || e->rs->settings.inherit)
			return 0;
		original = se->original;	/* copies: forget moves entries */
		set = se->set;
		if (read_current(e, pf) < 0)
			return 0;
		if (set != pf->oom_score_adj) {
			log_debug("process %d has oom_score_adj %d, not oompardon's %d: no longer ours",
				  (int)pid, pf->oom_score_adj, set);
			forget(e, pid);
			return 0;
		}
		if (original == pf->oom_score_adj) {
			forget(e, pid);
			return 0;
		}
		return restore_value(e, pf, original, "no rule names it");
	}
	return 0;
}

/* A fork: the child inherits its parent's state entry, if any. 0 or -errno. */
int enforce_fork(struct enforcer *e, pid_t parent, pid_t child)
{
	const struct state_entry *se;
	unsigned long long start;
	int original, set, r;

	if (e->st == NULL)
		return 0;
	se = state_find(e->st, parent);
	if (se == NULL)
		return 0;
	/* copies: state_record may move the entry */
	original = se->original;
	set = se->set;
	r = proc_start_time(child, &start);
	if (r == -ESRCH)
		return 0;	/* already gone: nothing can leak */
	if (r < 0)
		return r;
	return state_record(e->st, child, start, original, set);
}

/* Forgets the entries whose process is gone or reused (lost exit events). */
static void prune(struct enforcer *e)
{
	unsigned long long start;
	struct state_entry *se;
	pid_t *dead;
	size_t n = 0, i;

	if (e->st == NULL || e->st->count == 0)
		return;
	dead = malloc(e->st->count * sizeof(*dead));
	if (dead == NULL)
		return;		/* the next pass tries again */
	/* collected first: forgetting moves entries under the iteration */
	state_foreach(e->st, se)
		if (proc_start_time(se->pid, &start) != 0 || start != se->start_time)
			dead[n++] = se->pid;
	for (i = 0; i < n; i++)
		forget(e, dead[i]);
	free(dead);
}

/* One pass over every process. 0 or the number of failed writes. */
int enforce_all(struct enforcer *e)
{
	pid_t *pids;
	int n, i, failed = 0;

	n = proc_list(&pids);
	if (n < 0) {
		log_warnx("cannot list the processes in %s: %s, nothing applied", proc_root, strerror(-n));
		return 1;
	}
	for (i = 0; i < n; i++)
		if (enforce_pid(e, pids[i]) < 0)
			failed++;
	free(pids);
	prune(e);
	return failed;
}

static int by_pid(const void *a, const void *b)
{
	const struct state_entry *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Puts back every original in the state. 0 or the number of failed writes. */
int enforce_restore_all(struct enforcer *e)
{
	struct state_entry *se, *all;
	struct proc_facts pf;
	size_t n = 0, i;
	int failed = 0, r, cur;
	char nbuf[PROC_COMM_MAX + 2];

	if (e->st == NULL || e->st->count == 0)
		return 0;
	all = malloc(e->st->count * sizeof(*all));
	if (all == NULL) {
		log_warnx("cannot restore: out of memory");
		return 1;
	}
	state_foreach(e->st, se)
		all[n++] = *se;
	qsort(all, n, sizeof(*all), by_pid);	/* the lines come in a stable order */
	for (i = 0; i < n; i++) {
		se = &all[i];
		r = proc_read(se->pid, PROC_STAT | PROC_EXE, &pf);
		if (r == 0 && pf.start_time == se->start_time)
			r = adjust_read(se->pid, &cur);
		else if (r == 0)
			r = -ESRCH;	/* the pid is another process now */
		if (r < 0) {
			if (r != -ESRCH)
				log_warnx("cannot read process %d: %s, forgetting it", (int)se->pid, strerror(-r));
			e->c.skipped_gone++;
			forget(e, se->pid);
			continue;
		}
		pf.oom_score_adj = cur;
		if (cur != se->set) {
			log_info("left %d %s at %d: oompardon set %d, someone changed it since",
				 (int)se->pid, name_of(&pf, nbuf, sizeof(nbuf)), cur, se->set);
			forget(e, se->pid);
			continue;
		}
		if (cur == se->original) {
			forget(e, se->pid);
			continue;
		}
		if (restore_value(e, &pf, se->original, NULL) < 0)
			failed++;
	}
	free(all);
	return failed;
}
