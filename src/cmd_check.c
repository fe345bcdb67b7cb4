/* cmd_check.c - `check`: what happens on this machine when memory runs out, and whether
 * strict overcommit would work instead. The facts and arithmetic live in check.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "badness.h"
#include "check.h"
#include "cmd.h"
#include "log.h"
#include "match.h"
#include "proc.h"

/* "1.5 GiB", "200.0 MiB", "640 KiB". */
static const char *size_text(long long kib, char *buf, size_t len)
{
	const char *sign = kib < 0 ? "-" : "";
	long long a = kib < 0 ? -kib : kib;

	if (a >= 1024LL * 1024)
		snprintf(buf, len, "%s%.1f GiB", sign, (double)a / (1024.0 * 1024));
	else if (a >= 1024)
		snprintf(buf, len, "%s%.1f MiB", sign, (double)a / 1024);
	else
		snprintf(buf, len, "%s%lld KiB", sign, a);
	return buf;
}

struct pardon_sum {
	bool known;			/* the rules loaded */
	unsigned count;
	long long pardoned_kib;		/* RSS + swap of running processes the rules pardon */
	long long killable_kib;		/* RSS + swap of the others the kernel may kill */
};

/* Adds up what the pardoned and the killable hold. 0 or -errno. */
static int sum_pardoned(const struct ruleset *rs, struct pardon_sum *ps)
{
	pid_t *pids;
	int n, i;

	n = proc_list(&pids);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		struct proc_facts pf;
		struct verdict v;

		memset(&v, 0, sizeof(v));
		if (proc_read(pids[i], MATCH_NEEDS | PROC_OOM, &pf) < 0)
			continue;	/* gone, or unreadable: not counted */
		match_process(rs, &pf, &v);
		if (v.pardoned) {
			ps->count++;
			ps->pardoned_kib += pf.rss_kib + pf.swap_kib;
		} else if (badness_points(&pf, 1000) != BADNESS_UNKILLABLE) {
			ps->killable_kib += pf.rss_kib + pf.swap_kib;
		}
	}
	free(pids);
	return 0;
}

static const char *mode_name(int mode)
{
	return mode == 0 ? "heuristic" : mode == 1 ? "always" : mode == 2 ? "strict" : "unknown";
}

/* What the kernel does when it finds no free page, in one keyword for JSON. */
static const char *on_oom(const struct check_facts *cf)
{
	if (cf->panic_on_oom == 2)
		return "panic";
	if (cf->panic_on_oom == 1)
		return "panic-system-wide";
	return cf->oom_kill_allocating_task ? "kill-allocating-task" : "kill-worst";
}

static void print_outcome(const struct check_facts *cf, FILE *f)
{
	fputs("\nWhen memory runs out:\n", f);
	if (cf->overcommit_memory == 0)
		fputs("  Allocations are granted unless one alone is larger than RAM + swap (heuristic\n"
		      "  overcommit), so memory runs out when pages are touched, not when they are asked\n"
		      "  for: malloc() rarely fails, the OOM killer decides instead.\n", f);
	else if (cf->overcommit_memory == 1)
		fputs("  Every allocation is granted (overcommit always): malloc() never fails for lack\n"
		      "  of memory, the OOM killer decides instead.\n", f);
	else
		fputs("  Commitments are capped at CommitLimit (strict overcommit): an allocation beyond\n"
		      "  it fails with ENOMEM at once, so programs see the shortage. The OOM killer can\n"
		      "  still run (kernel memory, page cache, a limit below CommitLimit).\n", f);
	if (cf->swap_total_kib == 0)
		fputs("  There is no swap: when RAM is full the kernel can only drop page cache, then it\n"
		      "  must free memory by force.\n", f);
	else
		fputs("  Swap absorbs part of the shortage first, at the price of slowness.\n", f);
	if (cf->panic_on_oom == 2)
		fputs("  vm.panic_on_oom = 2: every OOM, even inside a memory cgroup, panics the machine.\n", f);
	else if (cf->panic_on_oom == 1)
		fputs("  vm.panic_on_oom = 1: a system-wide OOM panics the machine; an OOM inside a\n"
		      "  memory cgroup still kills a process of that cgroup.\n", f);
	else if (cf->oom_kill_allocating_task)
		fputs("  vm.oom_kill_allocating_task = 1: the kernel kills the process whose allocation\n"
		      "  failed (if it may), not the worst one; `oompardon ls` order applies otherwise.\n", f);
	else
		fputs("  The OOM killer kills the process with the highest badness: `oompardon ls` shows\n"
		      "  the order. Processes at oom_score_adj -1000 (pardoned) are never chosen; if none\n"
		      "  is left to choose, the kernel panics.\n", f);
}

static void print_mode2(const struct check_facts *cf, const struct check_mode2 *m, FILE *f)
{
	char a[32], b[32], c[32], d[32];

	fprintf(f, "\nStrict overcommit (vm.overcommit_memory = 2) right now:\n");
	if (cf->overcommit_kbytes)
		fprintf(f, "  commit limit = overcommit_kbytes %s + swap %s = %s\n",
			size_text(cf->overcommit_kbytes, a, sizeof(a)),
			size_text(cf->swap_total_kib, b, sizeof(b)), size_text(m->limit_kib, c, sizeof(c)));
	else
		fprintf(f, "  commit limit = (RAM %s - huge pages %s) * %ld%% + swap %s = %s\n",
			size_text(cf->mem_total_kib, a, sizeof(a)), size_text(cf->hugetlb_kib, b, sizeof(b)),
			cf->overcommit_ratio, size_text(cf->swap_total_kib, c, sizeof(c)),
			size_text(m->limit_kib, d, sizeof(d)));
	fprintf(f, "  committed now (Committed_AS) %s, plus the admin reserve %s\n",
		size_text(cf->committed_as_kib, a, sizeof(a)), size_text(cf->admin_reserve_kib, b, sizeof(b)));
	if (m->feasible) {
		fprintf(f, "  It would work: %s to spare.\n", size_text(m->headroom_kib, a, sizeof(a)));
		return;
	}
	fprintf(f, "  It would NOT work: %s over; allocations would fail at once.\n",
		size_text(-m->headroom_kib, a, sizeof(a)));
	fprintf(f, "  It would with %s of swap or more", size_text(m->swap_needed_kib, a, sizeof(a)));
	if (cf->overcommit_kbytes)
		fprintf(f, " (or overcommit_kbytes raised by the difference).\n");
	else
		fprintf(f, ", or with vm.overcommit_ratio = %ld with today's swap.\n", m->ratio_needed);
	fputs("  Leave room for growth above these numbers.\n", f);
}

static void print_pardons(const struct check_facts *cf, const struct pardon_sum *ps, FILE *f)
{
	char a[32], b[32];

	fputs("\nPardoned processes:\n", f);
	if (!ps->known) {
		fputs("  unknown: the rules could not be read.\n", f);
		return;
	}
	fprintf(f, "  %u running process%s pardoned by the rules, holding %s (RSS + swap); the OOM\n"
		"  killer can win back at most %s by killing all the others.\n", ps->count,
		ps->count == 1 ? " is" : "es are", size_text(ps->pardoned_kib, a, sizeof(a)),
		size_text(ps->killable_kib, b, sizeof(b)));
	if (check_pardon_risk(cf, ps->pardoned_kib, ps->killable_kib))
		fputs("  WARNING: the pardoned hold more than the OOM killer can win back (or more than\n"
		      "  half of RAM + swap): if they grow, an OOM can only end in a kernel panic.\n"
		      "  Pardon fewer programs, or give them a negative score instead of a pardon.\n", f);
}

static void print_human(const struct check_facts *cf, const struct check_mode2 *m,
			const struct pardon_sum *ps, FILE *f)
{
	char a[32], b[32], c[32], d[32], e[32];

	fprintf(f, "This machine:\n  RAM %s (%s available), swap %s (%s free), huge pages %s\n",
		size_text(cf->mem_total_kib, a, sizeof(a)), size_text(cf->mem_available_kib, b, sizeof(b)),
		size_text(cf->swap_total_kib, c, sizeof(c)), size_text(cf->swap_free_kib, d, sizeof(d)),
		size_text(cf->hugetlb_kib, e, sizeof(e)));
	fprintf(f, "  vm.overcommit_memory = %d (%s), vm.overcommit_ratio = %ld, vm.overcommit_kbytes = %lld\n",
		cf->overcommit_memory, mode_name(cf->overcommit_memory), cf->overcommit_ratio,
		cf->overcommit_kbytes);
	fprintf(f, "  vm.panic_on_oom = %d, vm.oom_kill_allocating_task = %d\n", cf->panic_on_oom,
		cf->oom_kill_allocating_task);
	fprintf(f, "  committed %s (Committed_AS) of a commit limit of %s (CommitLimit%s)\n",
		size_text(cf->committed_as_kib, a, sizeof(a)), size_text(cf->commit_limit_kib, b, sizeof(b)),
		cf->overcommit_memory == 2 ? ", enforced" : ", enforced only in mode 2");
	print_outcome(cf, f);
	print_mode2(cf, m, f);
	print_pardons(cf, ps, f);
}

static void print_json(const struct check_facts *cf, const struct check_mode2 *m,
		       const struct pardon_sum *ps, FILE *f)
{
	fprintf(f, "{\"overcommit_memory\": %d, \"overcommit_ratio\": %ld, \"overcommit_kbytes\": %lld, "
		"\"panic_on_oom\": %d, \"oom_kill_allocating_task\": %d, \"on_oom\": \"%s\",\n",
		cf->overcommit_memory, cf->overcommit_ratio, cf->overcommit_kbytes, cf->panic_on_oom,
		cf->oom_kill_allocating_task, on_oom(cf));
	fprintf(f, " \"mem_total_kib\": %lld, \"mem_available_kib\": %lld, \"swap_total_kib\": %lld, "
		"\"swap_free_kib\": %lld, \"hugetlb_kib\": %lld, \"admin_reserve_kib\": %lld,\n",
		cf->mem_total_kib, cf->mem_available_kib, cf->swap_total_kib, cf->swap_free_kib,
		cf->hugetlb_kib, cf->admin_reserve_kib);
	fprintf(f, " \"commit_limit_kib\": %lld, \"committed_as_kib\": %lld,\n", cf->commit_limit_kib,
		cf->committed_as_kib);
	fprintf(f, " \"mode2_commit_limit_kib\": %lld, \"mode2_feasible\": %s, \"mode2_headroom_kib\": %lld, "
		"\"mode2_swap_needed_kib\": %lld, \"mode2_ratio_needed\": %ld,\n", m->limit_kib,
		m->feasible ? "true" : "false", m->headroom_kib, m->swap_needed_kib, m->ratio_needed);
	if (ps->known)
		fprintf(f, " \"pardoned_count\": %u, \"pardoned_kib\": %lld, \"killable_kib\": %lld, "
			"\"pardon_panic_risk\": %s}\n", ps->count, ps->pardoned_kib, ps->killable_kib,
			check_pardon_risk(cf, ps->pardoned_kib, ps->killable_kib) ? "true" : "false");
	else
		fputs(" \"pardoned_count\": null, \"pardoned_kib\": null, \"killable_kib\": null, "
		      "\"pardon_panic_risk\": null}\n", f);
}

int cmd_check(const struct globals *g, int argc, char **argv)
{
	struct check_facts cf;
	struct check_mode2 m;
	struct pardon_sum ps;
	struct ruleset rs;
	bool json = false;
	long page = sysconf(_SC_PAGESIZE);
	int i, r, status = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			json = true;
		} else {
			fprintf(stderr, "usage: oompardon check [--json]\n");
			return EXIT_USAGE;
		}
	}
	r = check_read("", &cf);
	if (r < 0) {
		errno = -r;
		log_warn("cannot read the memory settings");
		return EXIT_ACTION_FAILED;
	}
	check_mode2(&cf, page >= 1024 ? page / 1024 : 4, &m);

	memset(&ps, 0, sizeof(ps));
	ruleset_init(&rs);
	r = cmd_load_rules(g, &rs);
	if (r == 0) {
		r = sum_pardoned(&rs, &ps);
		ps.known = r == 0;
		if (r < 0) {
			errno = -r;
			log_warn("cannot list the processes, pardons not counted");
			status = EXIT_ACTION_FAILED;
		}
	} else {
		/* errors printed; the machine's part still stands */
		status = r == -EINVAL ? EXIT_USAGE : EXIT_ACTION_FAILED;
	}
	ruleset_free(&rs);
	if (json)
		print_json(&cf, &m, &ps, stdout);
	else
		print_human(&cf, &m, &ps, stdout);
	if (fflush(stdout) != 0) {
		log_warn("cannot write the report");
		status = EXIT_ACTION_FAILED;
	}
	return status;
}
