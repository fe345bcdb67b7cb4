/* match.c - the rule verdict for one process: which rule applies, and whether it may.
 *
 * What the conditions mean:
 * - exe=: fnmatch(3) with FNM_PATHNAME against the readlink of /proc/PID/exe (" (deleted)"
 *   removed), so `*` and `?` never cross a '/': a `*` between two slashes stands for
 *   one directory name (the example config's postgres pattern matches
 *   /usr/lib/postgresql/15/bin/postgres), and `/opt/?*` never reaches /opt/x/y.
 *   A pattern without glob characters is compared as a string.
 * - comm=: the exact name in /proc/PID/stat. Anyone can choose it (prctl, exec -a).
 * - user=: the real uid.
 * - cgroup=: fnmatch(3) with FNM_PATHNAME | FNM_LEADING_DIR against every hierarchy
 *   line of /proc/PID/cgroup (the "0::" line on cgroup v2; on v1 and hybrid machines
 *   each controller's line, any may match): the pattern names a cgroup and all the
 *   cgroups below it (services that delegate keep their processes in sub-cgroups).
 *
 * Trust. A rule that protects (pardon, or a negative score) takes effect only when the
 * selector that matched holds at least one identity root controls, verified:
 * - user=: a uid (only root, or that user, makes processes run as it);
 * - exe=: the file at the path and every directory above it are root's and not
 *   group/other-writable, and the process runs that very file (dev, ino) -- not a
 *   copy, not a bind mount in the user's own namespace (trust_exe);
 * - cgroup=: the process's cgroup directory, its parents and cgroup.procs are root's
 *   (a delegated cgroup is its user's: trust_cgroup_dir).
 * A further condition only narrows what a verified identity already allows, so one
 * verified identity is enough. comm= alone never protects. A protective selector that
 * matches but cannot be verified sets v->refused and the search goes on: a raising rule
 * may still apply. Raising rules (score >= 0) need no trust: anyone may make their own
 * process more killable.
 *
 * Deleted executables. When the file a process runs was replaced or removed (a package
 * upgrade), an exe= identity can no longer be checked against the disk. A protective
 * rule matching such a process through its exe gives VERDICT_KEEP at that rule's rank:
 * the value stays as it is, so an upgrade does not un-pardon a running screen locker,
 * and a forger does not gain protection either. A raising rule still applies.
 *
 * Precedence: kernel threads and pid 1 are kept as they are; then pardon beats score,
 * and among scores the last rule read wins.
 */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cgroup.h"
#include "match.h"
#include "trust.h"

enum outcome {
	OUTCOME_NONE,		/* does not match, or may not take effect */
	OUTCOME_APPLY,
	OUTCOME_KEEP,		/* protective, matched only through a deleted exe */
};

static bool pattern_matches(const struct cond *c, const char *s, int flags)
{
	if (!c->is_glob && !(flags & FNM_LEADING_DIR))
		return strcmp(c->pattern, s) == 0;
	return fnmatch(c->pattern, s, flags) == 0;
}

/* One "ID:CONTROLLERS:PATH" line of /proc/PID/cgroup, split in place into copies. */
struct cg_line {
	char controller[256];	/* the first controller; "" for v2, "name=systemd" */
	char path[PROC_CGROUP_MAX];
};

/* Parses the line at *p and advances *p past it. false at the end of the text. */
static bool next_cg_line(const char **p, struct cg_line *l)
{
	const char *line, *c1, *c2, *end, *comma;
	size_t n;

	while (**p != '\0') {
		line = *p;
		end = strchr(line, '\n');
		if (end == NULL)
			end = line + strlen(line);
		*p = *end == '\n' ? end + 1 : end;
		c1 = memchr(line, ':', (size_t)(end - line));
		c2 = c1 ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1)) : NULL;
		if (c2 == NULL || c2[1] != '/')
			continue;
		comma = memchr(c1 + 1, ',', (size_t)(c2 - c1 - 1));
		n = (size_t)((comma ? comma : c2) - c1 - 1);
		if (n >= sizeof(l->controller))
			continue;
		memcpy(l->controller, c1 + 1, n);
		l->controller[n] = '\0';
		n = (size_t)(end - c2 - 1);
		memcpy(l->path, c2 + 1, n);	/* n < PROC_CGROUP_MAX: it came from there */
		l->path[n] = '\0';
		return true;
	}
	return false;
}

static bool cgroup_matches(const struct cond *c, const struct proc_facts *pf)
{
	const char *p = pf->cgroup;
	struct cg_line l;

	while (next_cg_line(&p, &l))
		if (pattern_matches(c, l.path, FNM_PATHNAME | FNM_LEADING_DIR))
			return true;
	return false;
}

static bool cond_holds(const struct cond *c, const struct proc_facts *pf)
{
	switch (c->kind) {
	case COND_EXE:
		return (pf->have & PROC_EXE) && pf->has_exe &&
		       pattern_matches(c, pf->exe, FNM_PATHNAME);
	case COND_COMM:
		return (pf->have & PROC_STAT) && strcmp(c->pattern, pf->comm) == 0;
	case COND_USER:
		return (pf->have & PROC_STATUS) && pf->uid == c->uid;
	case COND_CGROUP:
		return (pf->have & PROC_CGROUP) && cgroup_matches(c, pf);
	}
	return false;
}

/* Does one selector match pf, ignoring trust? (unit tests and `ls`) */
bool match_selector(const struct selector *sel, const struct proc_facts *pf)
{
	size_t i;

	if (sel->n_conds == 0)
		return false;
	for (i = 0; i < sel->n_conds; i++)
		if (!cond_holds(&sel->conds[i], pf))
			return false;
	return true;
}

/* Is one of the process's cgroups that c names root's alone? 0 or -errno with *why. */
static int cgroup_verified(const struct cond *c, const struct proc_facts *pf, const char **why)
{
	char mount[PATH_MAX], dir[PATH_MAX];
	const char *p = pf->cgroup;
	struct cg_line l;
	int n, r = -ENOENT;

	*why = "the cgroup is not found in a mounted hierarchy";
	while (next_cg_line(&p, &l)) {
		if (!pattern_matches(c, l.path, FNM_PATHNAME | FNM_LEADING_DIR))
			continue;
		if (cgroup_mount_of(l.controller, mount, sizeof(mount)) < 0)
			continue;
		n = snprintf(dir, sizeof(dir), "%s%s", mount, strcmp(l.path, "/") ? l.path : "");
		if (n < 0 || (size_t)n >= sizeof(dir))
			continue;
		r = trust_cgroup_dir(dir, why);
		if (r == 0)
			return 0;
	}
	return r;
}

/* A matching selector of a protective rule: may it take effect? */
static enum outcome selector_verified(const struct selector *sel, const struct proc_facts *pf,
				      const char **why)
{
	bool deleted = false;
	const char *w;
	size_t i;

	*why = "only the process name, which anyone can choose";
	for (i = 0; i < sel->n_conds; i++)	/* cheapest first */
		if (sel->conds[i].kind == COND_USER)
			return OUTCOME_APPLY;
	for (i = 0; i < sel->n_conds; i++) {
		const struct cond *c = &sel->conds[i];

		if (c->kind == COND_CGROUP) {
			if (cgroup_verified(c, pf, &w) == 0)
				return OUTCOME_APPLY;
			*why = w;
		} else if (c->kind == COND_EXE && pf->exe_deleted) {
			deleted = true;
		} else if (c->kind == COND_EXE) {
			if (trust_exe(pf->exe, pf->exe_dev, pf->exe_ino, &w) == 0)
				return OUTCOME_APPLY;
			*why = w;
		}
	}
	return deleted ? OUTCOME_KEEP : OUTCOME_NONE;
}

/* Does rule r apply to pf? A refusal is reported only when no selector applies. */
static enum outcome rule_outcome(const struct rule *r, const struct proc_facts *pf,
				 struct verdict *v)
{
	const char *why = NULL, *w;
	enum outcome best = OUTCOME_NONE, o;
	size_t i;

	for (i = 0; i < r->n_sels; i++) {
		if (!match_selector(&r->sels[i], pf))
			continue;
		if (!rule_protects(r))
			return OUTCOME_APPLY;
		o = selector_verified(&r->sels[i], pf, &w);
		if (o == OUTCOME_APPLY)
			return o;
		if (o == OUTCOME_KEEP)
			best = o;
		else if (why == NULL)
			why = w;
	}
	if (best == OUTCOME_NONE && why != NULL && v->refused == NULL) {
		v->refused = r;
		v->refused_why = why;
	}
	return best;
}

/* The verdict of rs for the process pf (read with at least MATCH_NEEDS). */
void match_process(const struct ruleset *rs, const struct proc_facts *pf, struct verdict *v)
{
	const struct rule *pardon = NULL, *pardon_keep = NULL, *score = NULL;
	enum outcome score_outcome = OUTCOME_NONE, o;
	size_t i;

	memset(v, 0, sizeof(*v));
	v->kind = VERDICT_NONE;
	if (pf->pid == 1 || ((pf->have & PROC_STAT) && pf->kthread)) {
		v->kind = VERDICT_KEEP;
		return;
	}
	for (i = 0; i < rs->n_rules; i++) {
		const struct rule *r = &rs->rules[i];

		o = rule_outcome(r, pf, v);
		if (o == OUTCOME_NONE)
			continue;
		if (r->action == RULE_PARDON && o == OUTCOME_APPLY) {
			pardon = r;
		} else if (r->action == RULE_PARDON) {
			pardon_keep = r;
		} else {
			score = r;
			score_outcome = o;
		}
	}
	if (pardon != NULL) {
		v->kind = VERDICT_SET;
		v->score = pardon->score;
		v->rule = pardon;
		v->pardoned = true;
	} else if (pardon_keep != NULL) {
		v->kind = VERDICT_KEEP;
		v->rule = pardon_keep;
	} else if (score != NULL) {
		v->kind = score_outcome == OUTCOME_APPLY ? VERDICT_SET : VERDICT_KEEP;
		v->score = score_outcome == OUTCOME_APPLY ? score->score : 0;
		v->rule = score;
	}
}
