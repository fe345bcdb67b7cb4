/* badness.c - whom the kernel's OOM killer takes: mm/oom_kill.c's oom_badness, from userspace. */
#include <errno.h>
#include <stdlib.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "badness.h"
#include "rules.h"

static long page_kib(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p >= 1024 ? p / 1024 : 4;
}

/* The kernel (oom_badness, Linux 5.9 and later):
 *   LONG_MIN for init, kernel threads, tasks without mm, adj == -1000;
 *   points = get_mm_rss + MM_SWAPENTS + mm_pgtables_bytes / PAGE_SIZE;
 *   points += adj * (totalpages / 1000)      -- integer division first.
 * /proc/PID/status gives the same counters in KiB: VmRSS, VmSwap are pages << 2,
 * VmPTE is bytes >> 10, so VmPTE / 4 is bytes / 4096 exactly.
 * Not seen from userspace: MMF_OOM_SKIP (a victim already reaped) and in_vfork();
 * "init" is pid 1 of our pid namespace, the kernel means the global one. */
long badness_points(const struct proc_facts *pf, long totalpages)
{
	long pk = page_kib(), points;

	if (pf->kthread || pf->pid == 1 || pf->oom_score_adj <= OOM_ADJ_MIN)
		return BADNESS_UNKILLABLE;
	/* no mm left (a zombie, an exiting process): /proc/PID/status then shows no Vm*
	 * lines at all, while any live process has page tables. has_exe cannot tell:
	 * it is also false for another user's process we may not inspect. */
	if ((pf->have & PROC_STATUS) && pf->rss_kib == 0 && pf->pte_kib == 0 && pf->swap_kib == 0)
		return BADNESS_UNKILLABLE;
	points = pf->rss_kib / pk + pf->swap_kib / pk + pf->pte_kib / pk;
	return points + (long)pf->oom_score_adj * (totalpages / 1000);
}

struct ranked {
	struct proc_facts *pf;
	long points;
	size_t seen;	/* position in the kernel's scan */
};

/* Highest points first. On a tie the kernel keeps the task met LATER in its scan
 * (oom_evaluate_task skips only "points < chosen_points"), so later comes first.
 * The unkillable follow, in scan order. */
static int by_badness(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->points != y->points)
		return x->points > y->points ? -1 : 1;
	if (x->points == BADNESS_UNKILLABLE)
		return x->seen < y->seen ? -1 : 1;
	return x->seen > y->seen ? -1 : 1;
}

/* procs must come in the kernel's scan order (the caller's job: for a global OOM
 * for_each_process, i.e. creation order; for a memcg OOM see cgroup_memcg_pids). */
void badness_sort(struct proc_facts **procs, size_t n, long totalpages)
{
	struct ranked *r = calloc(n ? n : 1, sizeof(*r));
	size_t i;

	if (!r) {	/* cannot rank: leave the scan order, still a valid listing */
		return;
	}
	for (i = 0; i < n; i++) {
		r[i].pf = procs[i];
		r[i].points = badness_points(procs[i], totalpages);
		r[i].seen = i;
	}
	qsort(r, n, sizeof(*r), by_badness);
	for (i = 0; i < n; i++)
		procs[i] = r[i].pf;
	free(r);
}

int badness_global_totalpages(long *totalpages)
{
	struct sysinfo si;
	unsigned long long bytes;

	/* totalram_pages() + total_swap_pages: sysinfo's totalram is totalram_pages */
	if (sysinfo(&si) != 0)
		return -errno;
	bytes = ((unsigned long long)si.totalram + si.totalswap) * si.mem_unit;
	*totalpages = (long)(bytes / ((unsigned long long)page_kib() * 1024));
	return *totalpages > 0 ? 0 : -EINVAL;
}

/* The kernel's /proc/PID/oom_score (fs/proc/base.c, 5.9+): 0 for the unkillable,
 * else (1000 + points * 1000 / totalpages) * 2 / 3, in C's truncating arithmetic. */
int badness_oom_score(long points, long totalpages)
{
	if (points == BADNESS_UNKILLABLE || totalpages <= 0)
		return 0;
	return (int)((1000 + points * 1000 / totalpages) * 2 / 3);
}
