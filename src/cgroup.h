/* cgroup.h - memory cgroups, v1 and v2: where they are mounted, their limits and members. */
#ifndef OOMPARDON_CGROUP_H
#define OOMPARDON_CGROUP_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

struct memcg {
	char dir[PATH_MAX];		/* absolute directory in the mounted hierarchy */
	bool v2;
	unsigned long long limit_bytes;	/* memory.max / memory.limit_in_bytes (ULLONG_MAX = none) */
	unsigned long long usage_bytes;
};

/* Resolves arg (a directory, or a path as /proc/PID/cgroup shows it) to a memory
 * cgroup with its limit. 0, -ENOENT, or other -errno. */
int cgroup_memcg_resolve(const char *arg, struct memcg *cg);

/* The parent of cg in its hierarchy, with its limit. 0, -ENOENT at the top, or -errno. */
int cgroup_memcg_parent(const struct memcg *cg, struct memcg *parent);

/* Lists every pid in cg and its descendants. Count or -errno; *pids malloc'd.
 * The order approximates the kernel's memcg OOM scan (see cgroup.c). */
int cgroup_memcg_pids(const struct memcg *cg, pid_t **pids);

/* The kernel's mem_cgroup_get_max() in pages, for the OOM inside cg. */
long cgroup_memcg_totalpages(const struct memcg *cg);

/* mem_cgroup_get_max() from its inputs (all in pages; unit tests). memsw_account:
 * v1 with memory.memsw.* (swap_limit is then memsw.max), else swap_limit is swap.max. */
long cgroup_get_max_pages(bool v2, bool memsw_account, unsigned long long max_pages,
			  unsigned long long swap_limit_pages, unsigned long long total_swap_pages,
			  bool swappiness);

/* Parses memory.max / memory.limit_in_bytes text ("max", or bytes; v1's huge
 * "9223372036854771712" also means none). ULLONG_MAX = no limit. 0 or -EINVAL. */
int cgroup_parse_limit(const char *text, unsigned long long *bytes);

/* The mountinfo file read; tests point it at a fake one. Default "/proc/self/mountinfo". */
extern const char *cgroup_mountinfo;

/* From the raw /proc/PID/cgroup text, the path in the hierarchy named by
 * controller ("" = the v2 unified one, "name=systemd", "memory"). 0 or -ENOENT. */
int cgroup_path_of(const char *raw, const char *controller, char *out, size_t outlen);

/* Where the hierarchy with that controller is mounted (from /proc/self/mountinfo). */
int cgroup_mount_of(const char *controller, char *out, size_t outlen);

#endif
