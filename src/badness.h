/* badness.h - whom the kernel's OOM killer takes: mm/oom_kill.c's oom_badness, from userspace. */
#ifndef OOMPARDON_BADNESS_H
#define OOMPARDON_BADNESS_H

#include <limits.h>
#include <stddef.h>

#include "proc.h"

#define BADNESS_UNKILLABLE LONG_MIN

/* oom_badness(): rss + swap + page-table pages, plus adj * totalpages / 1000;
 * BADNESS_UNKILLABLE for adj -1000, kernel threads and init. pf needs PROC_STAT,
 * PROC_STATUS and PROC_OOM. */
long badness_points(const struct proc_facts *pf, long totalpages);

/* Sorts procs in the order the kernel would choose them (next victim first),
 * scores computed against totalpages. procs come in the kernel's scan order:
 * on equal points the one scanned later wins, as in oom_evaluate_task. */
void badness_sort(struct proc_facts **procs, size_t n, long totalpages);

/* /proc/PID/oom_score from points, as fs/proc/base.c computes it (0..2000). */
int badness_oom_score(long points, long totalpages);

/* totalpages of a global OOM: RAM + swap pages. 0 or -errno. */
int badness_global_totalpages(long *totalpages);

#endif
