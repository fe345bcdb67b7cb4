/* check.c - the facts `check` reads (vm sysctls, /proc/meminfo) and the mode 2 arithmetic. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#define CHECK_LINE_MAX 256

/* Reads one integer sysctl below root. 0 or -errno. */
static int read_sysctl(const char *root, const char *name, long long *v)
{
	char path[PATH_MAX], buf[64], *end;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/proc/sys/vm/%s", root, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EINVAL;
	buf[n] = '\0';
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return errno || end == buf ? -EINVAL : 0;
}

/* Parses /proc/meminfo below root into cf. 0 or -errno. */
static int read_meminfo(const char *root, struct check_facts *cf)
{
	const struct { const char *key; long long *v; } keys[] = {
		{ "MemTotal:", &cf->mem_total_kib }, { "MemAvailable:", &cf->mem_available_kib },
		{ "SwapTotal:", &cf->swap_total_kib }, { "SwapFree:", &cf->swap_free_kib },
		{ "Hugetlb:", &cf->hugetlb_kib }, { "CommitLimit:", &cf->commit_limit_kib },
		{ "Committed_AS:", &cf->committed_as_kib },
	};
	long long huge_pages = -1, huge_size_kib = 0;
	char path[PATH_MAX], line[CHECK_LINE_MAX];
	bool seen_total = false, seen_committed = false, seen_hugetlb = false;
	size_t i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			size_t kl = strlen(keys[i].key);

			if (strncmp(line, keys[i].key, kl) != 0)
				continue;
			*keys[i].v = strtoll(line + kl, NULL, 10);
			seen_total |= keys[i].v == &cf->mem_total_kib;
			seen_committed |= keys[i].v == &cf->committed_as_kib;
			seen_hugetlb |= keys[i].v == &cf->hugetlb_kib;
		}
		if (strncmp(line, "HugePages_Total:", 16) == 0)
			huge_pages = strtoll(line + 16, NULL, 10);
		if (strncmp(line, "Hugepagesize:", 13) == 0)
			huge_size_kib = strtoll(line + 13, NULL, 10);
	}
	fclose(f);
	/* before 4.16 only the default pool was shown */
	if (!seen_hugetlb && huge_pages > 0)
		cf->hugetlb_kib = huge_pages * huge_size_kib;
	return seen_total && seen_committed ? 0 : -EINVAL;
}

int check_read(const char *root, struct check_facts *cf)
{
	long long v;
	int r;

	memset(cf, 0, sizeof(*cf));
	r = read_sysctl(root, "overcommit_memory", &v);
	if (r < 0)
		return r;
	cf->overcommit_memory = (int)v;
	r = read_sysctl(root, "overcommit_ratio", &v);
	if (r < 0)
		return r;
	cf->overcommit_ratio = (long)v;
	if (read_sysctl(root, "overcommit_kbytes", &v) == 0)
		cf->overcommit_kbytes = v;
	if (read_sysctl(root, "panic_on_oom", &v) == 0)
		cf->panic_on_oom = (int)v;
	if (read_sysctl(root, "oom_kill_allocating_task", &v) == 0)
		cf->oom_kill_allocating_task = (int)v;
	if (read_sysctl(root, "admin_reserve_kbytes", &v) == 0)
		cf->admin_reserve_kib = v;
	return read_meminfo(root, cf);
}

/* vm_commit_limit(): (totalram - hugetlb) * ratio / 100 + swap, or overcommit_kbytes
 * + swap, in whole pages. A process without CAP_SYS_ADMIN also leaves the admin
 * reserve alone (__vm_enough_memory), so "feasible" means: ordinary processes
 * could still allocate. */
void check_mode2(const struct check_facts *cf, long page_kib, struct check_mode2 *m)
{
	long long pk = page_kib > 0 ? page_kib : 4;
	long long ram_pages = cf->mem_total_kib / pk - cf->hugetlb_kib / pk;
	long long swap_pages = cf->swap_total_kib / pk, allowed, need_kib, usable_kib;

	if (cf->overcommit_kbytes)
		allowed = cf->overcommit_kbytes / pk;
	else
		allowed = ram_pages * cf->overcommit_ratio / 100;
	m->limit_kib = (allowed + swap_pages) * pk;
	need_kib = cf->committed_as_kib + cf->admin_reserve_kib;
	m->headroom_kib = m->limit_kib - need_kib;
	m->feasible = m->headroom_kib > 0;
	/* the swap that would lift the limit to what is needed, whole pages */
	m->swap_needed_kib = need_kib - allowed * pk;
	if (m->swap_needed_kib < 0)
		m->swap_needed_kib = 0;
	m->swap_needed_kib = (m->swap_needed_kib + pk - 1) / pk * pk;
	/* the least ratio with today's swap: ram_pages * ratio / 100 >= need - swap */
	usable_kib = need_kib - swap_pages * pk;
	if (usable_kib <= 0 || ram_pages <= 0)
		m->ratio_needed = 0;
	else
		m->ratio_needed = (long)((usable_kib / pk * 100 + ram_pages - 1) / ram_pages);
	/* integer division in the kernel's formula can still fall one page short */
	while (m->ratio_needed > 0 && ram_pages * m->ratio_needed / 100 * pk < usable_kib)
		m->ratio_needed++;
}

/* The pardon warning. When the OOM killer finds nobody it may kill, the kernel
 * panics ("Out of memory and no killable processes"). The pardoned can never be
 * chosen, so the memory an OOM can win back is what the killable, unpardoned
 * processes hold (RSS + swap: what the kernel's badness counts). We warn when
 *   - the pardoned hold more than that (killing every other process would free less
 *     than they already hold: if they are what grows, the killer runs out of
 *     victims and the machine panics), or
 *   - the pardoned hold more than half of RAM + swap.
 * Both are judgments, not kernel facts; they are printed with the numbers.
 */
bool check_pardon_risk(const struct check_facts *cf, long long pardoned_kib, long long killable_kib)
{
	if (pardoned_kib <= 0)
		return false;
	return pardoned_kib > killable_kib || pardoned_kib * 2 > cf->mem_total_kib + cf->swap_total_kib;
}

