/* check.h - the facts of `check` (overcommit, swap, OOM settings) and the mode 2 arithmetic. */
#ifndef OOMPARDON_CHECK_H
#define OOMPARDON_CHECK_H

#include <stdbool.h>

/* What the kernel says, from ROOT/proc/sys/vm/... and ROOT/proc/meminfo. */
struct check_facts {
	int overcommit_memory;		/* 0 heuristic, 1 always, 2 strict */
	long overcommit_ratio;		/* percent of RAM (less hugetlb) mode 2 allows */
	long long overcommit_kbytes;	/* when non-zero, replaces the ratio */
	int panic_on_oom;		/* 0 kill, 1 panic on a system-wide OOM, 2 always panic */
	int oom_kill_allocating_task;
	long long admin_reserve_kib;	/* kept back from non-root in mode 2 */
	long long mem_total_kib, mem_available_kib;
	long long swap_total_kib, swap_free_kib;
	long long hugetlb_kib;		/* all huge page pools: never available to commit */
	long long commit_limit_kib, committed_as_kib;
};

/* Strict overcommit (mode 2) against what is committed now. */
struct check_mode2 {
	long long limit_kib;		/* the kernel's vm_commit_limit() in mode 2 */
	bool feasible;			/* Committed_AS fits below it */
	long long headroom_kib;		/* limit - Committed_AS (negative: over) */
	long long swap_needed_kib;	/* least swap for Committed_AS to fit, settings unchanged */
	long ratio_needed;		/* least overcommit_ratio for it to fit with today's swap */
};

/* Reads the facts below root ("" = this machine). 0 or -errno; a missing
 * optional field (hugepages, admin reserve) reads as 0. */
int check_read(const char *root, struct check_facts *cf);

/* The mode 2 arithmetic (mm/util.c vm_commit_limit, in pages of page_kib). */
void check_mode2(const struct check_facts *cf, long page_kib, struct check_mode2 *m);

/* Could an OOM end in a panic because of what the pardoned hold? See cmd_check.c. */
bool check_pardon_risk(const struct check_facts *cf, long long pardoned_kib, long long killable_kib);

#endif
