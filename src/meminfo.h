/* meminfo.h - how much memory and swap a scope has left: the whole system, or one memory cgroup. */
#ifndef OOMPARDON_MEMINFO_H
#define OOMPARDON_MEMINFO_H

#include <stdbool.h>

/* What the early killer compares with its thresholds. All in KiB. */
struct mem_state {
	unsigned long long mem_total_kib;	/* RAM of the scope: MemTotal, or the cgroup's limit when lower */
	unsigned long long mem_avail_kib;	/* what can still be had before an OOM */
	unsigned long long swap_total_kib;	/* 0: no swap at all */
	unsigned long long swap_free_kib;
};

/* Parses /proc/meminfo text: MemTotal, MemAvailable, SwapTotal, SwapFree.
 * 0 or -EINVAL when a field is missing. */
int meminfo_parse(const char *text, struct mem_state *ms);

/* The whole system, from PROC_ROOT/meminfo. 0 or -errno. */
int meminfo_system(const char *proc_root_dir, struct mem_state *ms);

/* Values read from one memory cgroup, in bytes (ULLONG_MAX = no limit). */
struct memcg_sample {
	unsigned long long limit_bytes;		/* v1 hierarchical_memory_limit, v2 lowest memory.max up the tree */
	unsigned long long usage_bytes;		/* memory.usage_in_bytes / memory.current */
	unsigned long long inactive_file_bytes;	/* page cache the kernel drops first (memory.stat) */
	unsigned long long swap_limit_bytes;	/* v1: memsw limit - memory limit, v2: memory.swap.max */
	unsigned long long swap_usage_bytes;	/* v1 total_swap, v2 memory.swap.current */
};

/* Reads the sample of the cgroup directory dir (v1 or v2). 0 or -errno. */
int meminfo_memcg_sample(const char *dir, bool v2, struct memcg_sample *s);

/* The cgroup's state: its own room, never more than the system has left. */
void meminfo_memcg_combine(const struct memcg_sample *s, const struct mem_state *sys,
			   struct mem_state *ms);

/* The thresholds in force for a scope of ms->mem_total_kib / swap_total_kib:
 * a size when set, else that percentage of the scope's total. */
struct mem_thresholds {
	unsigned long long mem_min_kib;
	unsigned long long swap_min_kib;
};

void meminfo_thresholds(unsigned mem_pct, unsigned long long mem_kib, unsigned swap_pct,
			unsigned long long swap_kib, const struct mem_state *ms, struct mem_thresholds *t);

/* Both low: available memory below its threshold, and free swap below its
 * threshold or no swap at all. */
bool meminfo_low(const struct mem_state *ms, const struct mem_thresholds *t);

/* When to look again: the time the headroom lasts at the fastest fill rate,
 * within MEMINFO_CHECK_MIN_MS .. MEMINFO_CHECK_MAX_MS. The floor is 20 ms, not
 * earlyoom's 100: a 256 MiB VM filled at full speed crosses the last 10 % in
 * about 60 ms, and at 100 ms the kernel won every time (3 of 3); at 20 ms the
 * killer won 2 of 3, as earlyoom did. Faster than 100 ms only within about
 * 600 MiB of the threshold. */
#define MEMINFO_CHECK_MIN_MS 20U
#define MEMINFO_CHECK_MAX_MS 10000U
unsigned meminfo_next_check_ms(const struct mem_state *ms, const struct mem_thresholds *t);

#endif
