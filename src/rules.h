/* rules.h - the rule model: what the config language means once parsed. */
#ifndef OOMPARDON_RULES_H
#define OOMPARDON_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define OOM_ADJ_MIN (-1000)	/* the kernel never kills such a process */
#define OOM_ADJ_MAX 1000

/* One condition of a selector. A bare absolute path on a rule line is COND_EXE. */
enum cond_kind {
	COND_EXE,	/* pattern: absolute path or fnmatch(3) glob, matched against /proc/PID/exe */
	COND_COMM,	/* pattern: exact comm (forgeable: never grants protection alone) */
	COND_USER,	/* uid: real uid of the process */
	COND_CGROUP,	/* pattern: glob matched against the process's cgroup path */
};

struct cond {
	enum cond_kind kind;
	char *pattern;		/* COND_EXE, COND_COMM, COND_CGROUP */
	bool is_glob;		/* pattern contains * ? or [ */
	uid_t uid;		/* COND_USER */
};

/* All conditions must hold. */
struct selector {
	struct cond *conds;
	size_t n_conds;
	char *text;		/* as written, for messages */
};

enum rule_action {
	RULE_PARDON,		/* oom_score_adj = settings.pardon_score */
	RULE_SCORE,		/* oom_score_adj = rule.score */
};

struct rule {
	enum rule_action action;
	int score;		/* the value this rule writes (pardon: the pardon_score in force) */
	struct selector *sels;	/* any one may match */
	size_t n_sels;
	const char *file;	/* origin, owned by the ruleset */
	unsigned line;
	bool warned;		/* "cannot take effect" said once already */
};

/* A rule protects when it lowers the score: pardon, or a negative score. */
static inline bool rule_protects(const struct rule *r)
{
	return r->score < 0;
}

/* Settings of the config language (`NAME VALUE` lines, see oompardon.conf(5)); the last one read wins. */
struct settings {
	int pardon_score;		/* -1000 (default) or -999 */
	bool inherit;			/* keep the kernel's plain inheritance across exec */
	unsigned rescan_interval_ms;	/* reconciliation pass of the daemon; default 60000 */
	/* early killer (issue: early OOM killer) */
	bool killer;
	char *killer_scope;		/* memory cgroup dir, NULL = whole system */
	unsigned killer_mem_min_pct;	/* act when available memory is below this ... */
	unsigned long long killer_mem_min_kib;	/* ... or this size when set (0 = use pct) */
	unsigned killer_swap_min_pct;	/* ... and free swap below this */
	unsigned long long killer_swap_min_kib;
	unsigned killer_grace_ms;	/* SIGTERM -> SIGKILL */
	char *killer_psi;		/* PSI trigger, e.g. "some 150000 1000000", NULL = off */
	int killer_target;		/* KILLER_TARGET_PROCESS, _GROUP, _CGROUP */
	int killer_last_resort;		/* KILLER_LAST_WAIT, _COMMAND, _PANIC */
	char *killer_last_resort_command;
	char *killer_hook;		/* command run after each kill */
	bool killer_dry_run;
};

enum { KILLER_TARGET_PROCESS, KILLER_TARGET_GROUP, KILLER_TARGET_CGROUP };
enum { KILLER_LAST_WAIT, KILLER_LAST_COMMAND, KILLER_LAST_PANIC };

/* Every setting, in the order `oompardon rules` prints them. */
enum setting_id {
	SET_PARDON_SCORE, SET_INHERIT, SET_RESCAN_INTERVAL,
	SET_KILLER, SET_KILLER_SCOPE, SET_KILLER_MEM_MIN, SET_KILLER_SWAP_MIN, SET_KILLER_GRACE,
	SET_KILLER_PSI, SET_KILLER_TARGET, SET_KILLER_LAST_RESORT, SET_KILLER_HOOK, SET_KILLER_DRY_RUN,
	SETTING_COUNT
};

/* Where a setting was last set; file NULL = the built-in default. */
struct origin {
	const char *file;	/* owned by the ruleset */
	unsigned line;
};

struct ruleset {
	struct rule *rules;	/* in the order read */
	size_t n_rules;
	struct settings settings;
	char **files;		/* every file read, in order; rule.file points here */
	size_t n_files;
	char **errors;		/* "file:line: message"; any error means: apply nothing */
	size_t n_errors;
	char **warnings;	/* "file:line: message"; the rules still apply */
	size_t n_warnings;
	bool embedded;		/* no config file exists: the embedded default list */
	struct origin setting_origin[SETTING_COUNT];
};

/* An empty ruleset with the default settings. */
void ruleset_init(struct ruleset *rs);
/* Frees everything rs owns and leaves it empty (ruleset_init again to reuse it). */
void ruleset_free(struct ruleset *rs);
/* Frees what one selector owns (its conditions and text), not sel itself. */
void selector_free(struct selector *sel);

#endif
