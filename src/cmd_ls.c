/* cmd_ls.c - `ls`: who dies next. Every process in the order the kernel's OOM killer takes them.
 *
 * Names are hostile (comm and exe can hold any byte but NUL and '/'):
 *  - human output escapes control bytes (C0, DEL and UTF-8 encoded C1), backslash and
 *    bytes that are not UTF-8 as \xNN, so a name can neither move the cursor nor
 *    forge a line; valid UTF-8 text is shown as it is;
 *  - JSON escapes '"', '\' and control characters (\n, \t, \u00XX) and writes each
 *    byte that is not valid UTF-8 as U+FFFD: the output is always valid JSON and
 *    Unicode, and never turns a raw byte into another character. The pid names the
 *    process exactly; exe_bytes_valid tells when the text was altered. */
#include <errno.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "badness.h"
#include "cgroup.h"
#include "check.h"
#include "cmd.h"
#include "log.h"
#include "match.h"
#include "proc.h"

#define LS_READ (MATCH_NEEDS | PROC_OOM)
#define ESCAPED_MAX (4 * PATH_MAX + 1)	/* every byte may become \xNN */
#define RULE_TEXT_MAX (PATH_MAX + 48)

struct row {
	struct proc_facts pf;	/* first: badness_sort orders pointers to it, each leads back to its row */
	long points;		/* badness against the scope's totalpages */
	struct verdict v;
	bool rules_known;	/* the configuration loaded */
	char user[64];
};

struct scope {
	bool cgroup;
	struct memcg cg;
	struct memcg tighter;		/* an ancestor with a lower limit, if tighter.dir[0] */
	long totalpages;
	long global_totalpages;
};

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07u;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3fu);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* For a terminal: see the top of the file. */
static const char *human_escape(const char *in, char *out, size_t outlen)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0, n;

	while (*s && o + 5 < outlen) {
		n = utf8_len(s);
		if (n == 1 && *s >= 0x20 && *s != 0x7f && *s != '\\') {
			out[o++] = (char)*s++;
		} else if (n > 1 && !(n == 2 && s[0] == 0xc2 && s[1] < 0xa0)) {	/* not C1 */
			if (o + n >= outlen)
				break;
			memcpy(out + o, s, n);
			o += n;
			s += n;
		} else {
			o += (size_t)snprintf(out + o, outlen - o, "\\x%02x", *s++);
		}
	}
	out[o] = '\0';
	return out;
}

static void json_string(FILE *f, const char *in)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t n;

	fputc('"', f);
	while (*s) {
		n = utf8_len(s);
		if (n == 0) {
			fputs("\\ufffd", f);
			s++;
		} else if (n > 1) {
			fwrite(s, 1, n, f);
			s += n;
		} else if (*s == '"' || *s == '\\') {
			fprintf(f, "\\%c", *s++);
		} else if (*s == '\n') {
			fputs("\\n", f), s++;
		} else if (*s == '\t') {
			fputs("\\t", f), s++;
		} else if (*s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\u%04x", *s++);
		} else {
			fputc(*s++, f);
		}
	}
	fputc('"', f);
}

static bool utf8_valid(const char *in)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t n;

	for (; *s; s += n)
		if ((n = utf8_len(s)) == 0)
			return false;
	return true;
}

/* "1.5G", "200.0M", "640K": sizes for people. */
static const char *human_kib(long kib, char *buf, size_t len)
{
	if (kib < 1024)
		snprintf(buf, len, "%ldK", kib);
	else if (kib < 1024L * 1024)
		snprintf(buf, len, "%.1fM", (double)kib / 1024);
	else
		snprintf(buf, len, "%.1fG", (double)kib / (1024.0 * 1024));
	return buf;
}

static void user_name(uid_t uid, char *out, size_t len)
{
	static uid_t last_uid = (uid_t)-1;	/* most processes share few users */
	static char last[64];
	struct passwd *pw;

	if (uid != last_uid) {
		pw = getpwuid(uid);
		if (pw)
			snprintf(last, sizeof(last), "%s", pw->pw_name);
		else
			last[0] = '\0';
		last_uid = uid;
	}
	snprintf(out, len, "%s", last);
}

/* Why the kernel never takes it, or NULL. Mirrors badness_points. */
static const char *unkillable_why(const struct proc_facts *pf)
{
	if (pf->kthread)
		return "kernel thread";
	if (pf->pid == 1)
		return "init";
	if (pf->oom_score_adj <= OOM_ADJ_MIN)
		return "oom_score_adj -1000";
	return "no memory of its own (a zombie, or exiting)";
}

/* The RULE column, escaped like every name (a config file may have any name). */
static void rule_text(const struct row *r, char *out, size_t len)
{
	const struct rule *rl = r->v.rule;
	char raw[RULE_TEXT_MAX];

	if (!r->rules_known)
		snprintf(raw, sizeof(raw), "?");
	else if (rl && rl->action == RULE_PARDON)
		snprintf(raw, sizeof(raw), "pardon %s:%u", rl->file, rl->line);
	else if (rl)
		snprintf(raw, sizeof(raw), "score %+d %s:%u", rl->score, rl->file, rl->line);
	else if (r->v.refused)
		snprintf(raw, sizeof(raw), "refused %s:%u", r->v.refused->file, r->v.refused->line);
	else
		snprintf(raw, sizeof(raw), "-");
	human_escape(raw, out, len);
}

static const char *exe_text(const struct proc_facts *pf, char *buf, size_t len)
{
	char raw[PATH_MAX + 16];

	if (pf->has_exe) {
		const char *base = strrchr(pf->exe, '/');

		base = base ? base + 1 : pf->exe;
		/* a comm that is not the program's own name (TASK_COMM_LEN - 1 = 15
		 * bytes of it) is shown too: renamed processes stand out */
		if (strncmp(base, pf->comm, 15) == 0 && strlen(pf->comm) == strnlen(base, 15))
			snprintf(raw, sizeof(raw), "%s%s", pf->exe, pf->exe_deleted ? " (deleted)" : "");
		else
			snprintf(raw, sizeof(raw), "%s%s [%s]", pf->exe, pf->exe_deleted ? " (deleted)" : "",
				 pf->comm);
		return human_escape(raw, buf, len);
	}
	snprintf(raw, sizeof(raw), "[%s]", pf->comm);
	return human_escape(raw, buf, len);
}

static void print_header(const struct scope *sc, size_t n, FILE *f)
{
	struct check_facts cf;
	char a[32], b[32];

	/* the order only matters when the kernel kills rather than panics */
	if (check_read("", &cf) < 0)
		memset(&cf, 0, sizeof(cf));
	if (cf.panic_on_oom == 2 || (cf.panic_on_oom == 1 && !sc->cgroup))
		fprintf(f, "# vm.panic_on_oom = %d: this OOM panics the machine, nobody is chosen\n",
			cf.panic_on_oom);
	else if (cf.oom_kill_allocating_task && !sc->cgroup)
		fprintf(f, "# vm.oom_kill_allocating_task = 1: the process whose allocation fails is "
			"killed instead when it may be; this order applies otherwise\n");
	if (!sc->cgroup) {
		fprintf(f, "# system-wide OOM: %zu processes, totalpages %ld (RAM + swap); next victim first\n",
			n, sc->totalpages);
		return;
	}
	if (sc->cg.limit_bytes == ULLONG_MAX)
		fprintf(f, "# memory cgroup %s (%s): no limit, so an OOM here is an ancestor's or the "
			"system's; ordered as the system-wide one (totalpages %ld)\n",
			sc->cg.dir, sc->cg.v2 ? "v2" : "v1", sc->totalpages);
	else
		fprintf(f, "# memory cgroup %s (%s): limit %s, usage %s, totalpages %ld; an OOM inside "
			"it takes them in this order\n", sc->cg.dir, sc->cg.v2 ? "v2" : "v1",
			human_kib((long)(sc->cg.limit_bytes / 1024), a, sizeof(a)),
			human_kib((long)(sc->cg.usage_bytes / 1024), b, sizeof(b)), sc->totalpages);
	if (sc->tighter.dir[0])
		fprintf(f, "# note: the ancestor %s has a lower limit (%s): an OOM there takes from its "
			"whole subtree, see ls --cgroup on it\n", sc->tighter.dir,
			human_kib((long)(sc->tighter.limit_bytes / 1024), a, sizeof(a)));
	fprintf(f, "# %zu processes; SCORE is the system-wide /proc/PID/oom_score, POINTS the badness "
		"inside the cgroup\n", n);
}

static void print_human(const struct scope *sc, struct row **rows, size_t n, FILE *f)
{
	char rule[4 * RULE_TEXT_MAX], exe[ESCAPED_MAX], user[ESCAPED_MAX], rss[32], swp[32], rank[16];
	int wuser = 4, wrule = 4;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		int lu = (int)strlen(human_escape(rows[i]->user, user, sizeof(user)));

		rule_text(rows[i], rule, sizeof(rule));
		if (lu > wuser)
			wuser = lu;
		if ((int)strlen(rule) > wrule)
			wrule = (int)strlen(rule);
	}
	print_header(sc, n, f);
	fprintf(f, "%5s %7s %5s %5s %12s %7s %7s %-*s %-*s %s\n", "ORDER", "PID", "SCORE", "ADJ",
		"POINTS", "RSS", "SWAP", wuser, "USER", wrule, "RULE", "EXE");
	for (i = 0; i < n; i++) {
		const struct row *r = rows[i];
		bool killable = r->points != BADNESS_UNKILLABLE;

		if (killable)
			snprintf(rank, sizeof(rank), "%zu", ++k);
		else
			snprintf(rank, sizeof(rank), "never");
		rule_text(r, rule, sizeof(rule));
		human_escape(r->user[0] ? r->user : "?", user, sizeof(user));
		if (!r->user[0])
			snprintf(user, sizeof(user), "%u", (unsigned)r->pf.uid);
		fprintf(f, "%5s %7d %5d %5d ", rank, (int)r->pf.pid, r->pf.oom_score, r->pf.oom_score_adj);
		if (killable)
			fprintf(f, "%12ld ", r->points);
		else
			fprintf(f, "%12s ", "-");
		fprintf(f, "%7s %7s %-*s %-*s %s", human_kib(r->pf.rss_kib, rss, sizeof(rss)),
			human_kib(r->pf.swap_kib, swp, sizeof(swp)), wuser, user, wrule, rule,
			exe_text(&r->pf, exe, sizeof(exe)));
		if (!killable)
			fprintf(f, "  (never killed: %s)", unkillable_why(&r->pf));
		if (r->v.refused && !r->v.rule) {
			snprintf(exe, sizeof(exe), "%s:%u", r->v.refused->file, r->v.refused->line);
			fprintf(f, "  (rule %s may not protect it: %s)", human_escape(exe, rule, sizeof(rule)),
				r->v.refused_why ? r->v.refused_why : "untrusted");
		}
		if (r->v.kind == VERDICT_SET && r->v.score != r->pf.oom_score_adj)
			fprintf(f, "  (the rules say %d; not applied)", r->v.score);
		fputc('\n', f);
	}
}

static void print_json(struct row **rows, size_t n, FILE *f)
{
	char rule[RULE_TEXT_MAX];
	size_t i;

	fputs("[\n", f);
	for (i = 0; i < n; i++) {
		const struct row *r = rows[i];
		const struct proc_facts *pf = &r->pf;
		bool killable = r->points != BADNESS_UNKILLABLE;

		fprintf(f, "  {\"pid\": %d, \"oom_score\": %d, \"oom_score_adj\": %d, \"rss_kib\": %ld, "
			"\"swap_kib\": %ld, \"pte_kib\": %ld, \"uid\": %u, \"user\": ", (int)pf->pid,
			pf->oom_score, pf->oom_score_adj, pf->rss_kib, pf->swap_kib, pf->pte_kib,
			(unsigned)pf->uid);
		if (r->user[0])
			json_string(f, r->user);
		else
			fputs("null", f);
		fputs(", \"comm\": ", f);
		json_string(f, pf->comm);
		fputs(", \"exe\": ", f);
		if (pf->has_exe)
			json_string(f, pf->exe);
		else
			fputs("null", f);
		fprintf(f, ", \"exe_deleted\": %s, \"exe_bytes_valid\": %s, \"kthread\": %s, \"rule\": ",
			pf->exe_deleted ? "true" : "false",
			utf8_valid(pf->exe) && utf8_valid(pf->comm) ? "true" : "false",
			pf->kthread ? "true" : "false");
		if (r->v.rule) {
			snprintf(rule, sizeof(rule), "%s:%u", r->v.rule->file, r->v.rule->line);
			json_string(f, rule);
		} else {
			fputs("null", f);
		}
		if (r->v.kind == VERDICT_SET)
			fprintf(f, ", \"verdict_score\": %d", r->v.score);
		else
			fputs(", \"verdict_score\": null", f);
		fprintf(f, ", \"pardoned\": %s, \"refused_rule\": ", r->v.pardoned ? "true" : "false");
		if (r->v.refused) {
			snprintf(rule, sizeof(rule), "%s:%u", r->v.refused->file, r->v.refused->line);
			json_string(f, rule);
			fputs(", \"refused_why\": ", f);
			json_string(f, r->v.refused_why ? r->v.refused_why : "untrusted");
		} else {
			fputs("null, \"refused_why\": null", f);
		}
		fprintf(f, ", \"killable\": %s, \"badness\": ", killable ? "true" : "false");
		if (killable)
			fprintf(f, "%ld}", r->points);
		else
			fputs("null}", f);
		fputs(i + 1 < n ? ",\n" : "\n", f);
	}
	fputs("]\n", f);
}

/* for_each_process walks tasks in the order they were forked: start time, then
 * pid for the ones started in the same clock tick (pids rarely wrap within one). */
static int by_creation(const void *a, const void *b)
{
	const struct row *x = *(struct row *const *)a, *y = *(struct row *const *)b;

	if (x->pf.start_time != y->pf.start_time)
		return x->pf.start_time < y->pf.start_time ? -1 : 1;
	return x->pf.pid < y->pf.pid ? -1 : x->pf.pid > y->pf.pid;
}

/* Reads the processes in pids (in the kernel's scan order for a cgroup). Count of rows. */
static size_t read_rows(const pid_t *pids, size_t n, const struct ruleset *rs, bool rules_known,
			struct row *rows)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		struct row *r = &rows[k];
		int e;

		memset(r, 0, sizeof(*r));
		e = proc_read(pids[i], LS_READ, &r->pf);
		if (e < 0 && e != -ESRCH)	/* exe or cgroup unreadable: the rest still tells */
			e = proc_read(pids[i], PROC_STAT | PROC_STATUS | PROC_OOM, &r->pf);
		if (e < 0)
			continue;	/* gone meanwhile */
		/* without its exe (another user's process, when not root) no verdict */
		r->rules_known = rules_known && (r->pf.have & MATCH_NEEDS) == MATCH_NEEDS;
		if (r->rules_known)
			match_process(rs, &r->pf, &r->v);
		user_name(r->pf.uid, r->user, sizeof(r->user));
		k++;
	}
	return k;
}

static int usage(void)
{
	fprintf(stderr, "usage: oompardon ls [--json] [--cgroup PATH]\n");
	return EXIT_USAGE;
}

/* Lists and orders; the rows are written through out. Exit status. */
static int list(const struct scope *sc, const struct ruleset *rs, bool rules_known, bool json)
{
	struct row *rows = NULL, **order = NULL;
	struct proc_facts **pfs = NULL;
	pid_t *pids = NULL;
	size_t n, i;
	int cnt, status = 0;

	cnt = sc->cgroup ? cgroup_memcg_pids(&sc->cg, &pids) : proc_list(&pids);
	if (cnt < 0) {
		errno = -cnt;
		log_warn("cannot list the processes");
		return EXIT_ACTION_FAILED;
	}
	rows = calloc((size_t)cnt + 1, sizeof(*rows));
	order = calloc((size_t)cnt + 1, sizeof(*order));
	pfs = calloc((size_t)cnt + 1, sizeof(*pfs));
	if (!rows || !order || !pfs) {
		log_warnx("out of memory");
		status = EXIT_ACTION_FAILED;
		goto out;
	}
	n = read_rows(pids, (size_t)cnt, rs, rules_known, rows);
	for (i = 0; i < n; i++)
		order[i] = &rows[i];
	if (!sc->cgroup)
		qsort(order, n, sizeof(*order), by_creation);
	/* badness_sort moves proc_facts pointers; each is the first member of its row */
	for (i = 0; i < n; i++)
		pfs[i] = &order[i]->pf;
	badness_sort(pfs, n, sc->totalpages);
	for (i = 0; i < n; i++) {
		order[i] = (struct row *)(void *)pfs[i];
		order[i]->points = badness_points(&order[i]->pf, sc->totalpages);
	}
	if (json)
		print_json(order, n, stdout);
	else
		print_human(sc, order, n, stdout);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		log_warn("cannot write the listing");
		status = EXIT_ACTION_FAILED;
	}
out:
	free(rows);
	free(order);
	free(pfs);
	free(pids);
	return status;
}

/* The kernel's OOM happens in the first cgroup up the tree whose limit a charge
 * exceeds: an ancestor with a lower limit than ours may well be that one. */
static void find_tighter(struct scope *sc)
{
	struct memcg cur = sc->cg, up;
	unsigned long long lowest = sc->cg.limit_bytes;

	sc->tighter.dir[0] = '\0';
	while (cgroup_memcg_parent(&cur, &up) == 0) {
		if (up.limit_bytes < lowest) {
			sc->tighter = up;
			lowest = up.limit_bytes;
		}
		cur = up;
	}
}

static int set_scope(const char *cgroup_arg, struct scope *sc)
{
	int r = badness_global_totalpages(&sc->global_totalpages);

	if (r < 0) {
		errno = -r;
		log_warn("cannot read the size of memory");
		return EXIT_ACTION_FAILED;
	}
	sc->totalpages = sc->global_totalpages;
	if (!cgroup_arg)
		return 0;
	sc->cgroup = true;
	r = cgroup_memcg_resolve(cgroup_arg, &sc->cg);
	if (r == -ENOENT || r == -EINVAL) {
		log_warnx("%s: no such memory cgroup (give its directory, or its path as "
			  "/proc/PID/cgroup shows it)", cgroup_arg);
		return EXIT_USAGE;
	}
	if (r < 0) {
		errno = -r;
		log_warn("%s: cannot read the memory cgroup", cgroup_arg);
		return EXIT_ACTION_FAILED;
	}
	/* without a limit of its own, no OOM happens inside it */
	if (sc->cg.limit_bytes != ULLONG_MAX)
		sc->totalpages = cgroup_memcg_totalpages(&sc->cg);
	find_tighter(sc);
	return 0;
}

int cmd_ls(const struct globals *g, int argc, char **argv)
{
	const char *cgroup_arg = NULL;
	struct ruleset rs;
	struct scope sc;
	bool json = false, rules_known = true;
	int i, r, status;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = true;
		else if (strcmp(argv[i], "--cgroup") == 0 && i + 1 < argc)
			cgroup_arg = argv[++i];
		else if (strncmp(argv[i], "--cgroup=", 9) == 0)
			cgroup_arg = argv[i] + 9;
		else
			return usage();
	}
	memset(&sc, 0, sizeof(sc));
	ruleset_init(&rs);
	r = cmd_load_rules(g, &rs);
	if (r == -EINVAL) {	/* errors printed: a listing would show verdicts that never apply */
		ruleset_free(&rs);
		return EXIT_USAGE;
	}
	if (r < 0) {
		log_warnx("listing without the rules");
		rules_known = false;
	}
	status = set_scope(cgroup_arg, &sc);
	if (status == 0)
		status = list(&sc, &rs, rules_known, json);
	ruleset_free(&rs);
	if (status == 0 && !rules_known)
		status = EXIT_ACTION_FAILED;
	return status;
}
