/* meminfo.c - reads how much memory and swap is left, for the system or one memory cgroup. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "meminfo.h"

/* /proc/meminfo is about 1.5 KiB on 6.x; memory.stat of v2 about 3 KiB. */
#define MEMINFO_TEXT_MAX 8192

/* Reads a small file into buf, NUL-terminated. Length or -errno. */
static ssize_t read_text(const char *path, char *buf, size_t len)
{
	ssize_t n, got = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)got < len - 1) {
		n = read(fd, buf + got, len - 1 - (size_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		got += n;
	}
	close(fd);
	buf[got] = '\0';
	return got;
}

/* The number after "key" at the start of a line ("key value" or "key: value kB").
 * 0 or -ENOENT. */
static int field(const char *text, const char *key, unsigned long long *val)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (strncmp(p, key, klen) == 0 && (p[klen] == ' ' || p[klen] == ':' || p[klen] == '\t')) {
			const char *q = p + klen;
			char *end;

			while (*q == ':' || *q == ' ' || *q == '\t')
				q++;
			errno = 0;
			*val = strtoull(q, &end, 10);
			if (end == q || errno)
				return -EINVAL;
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -ENOENT;
}

/* A one-value cgroup file: a number, or "max" = ULLONG_MAX. 0 or -errno. */
static int read_value(const char *dir, const char *name, unsigned long long *val)
{
	char path[PATH_MAX], buf[64], *end;
	ssize_t n;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	n = read_text(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	if (strncmp(buf, "max", 3) == 0) {
		*val = ULLONG_MAX;
		return 0;
	}
	errno = 0;
	*val = strtoull(buf, &end, 10);
	return end == buf || errno ? -EINVAL : 0;
}

int meminfo_parse(const char *text, struct mem_state *ms)
{
	if (field(text, "MemTotal", &ms->mem_total_kib) < 0 ||
	    field(text, "MemAvailable", &ms->mem_avail_kib) < 0 ||
	    field(text, "SwapTotal", &ms->swap_total_kib) < 0 ||
	    field(text, "SwapFree", &ms->swap_free_kib) < 0)
		return -EINVAL;
	return 0;
}

int meminfo_system(const char *proc_root_dir, struct mem_state *ms)
{
	char path[PATH_MAX], text[MEMINFO_TEXT_MAX];
	ssize_t n;

	if ((size_t)snprintf(path, sizeof(path), "%s/meminfo", proc_root_dir) >= sizeof(path))
		return -ENAMETOOLONG;
	n = read_text(path, text, sizeof(text));
	if (n < 0)
		return (int)n;
	return meminfo_parse(text, ms);
}

/* v1 keeps the hierarchy's limits in memory.stat, where the ancestors count too. */
static int sample_v1(const char *dir, struct memcg_sample *s)
{
	char path[PATH_MAX], text[MEMINFO_TEXT_MAX];
	unsigned long long memsw;
	ssize_t n;
	int r;

	r = read_value(dir, "memory.usage_in_bytes", &s->usage_bytes);
	if (r < 0)
		return r;
	if ((size_t)snprintf(path, sizeof(path), "%s/memory.stat", dir) >= sizeof(path))
		return -ENAMETOOLONG;
	n = read_text(path, text, sizeof(text));
	if (n < 0)
		return (int)n;
	if (field(text, "hierarchical_memory_limit", &s->limit_bytes) < 0)
		return -EINVAL;
	/* v1 reports "no limit" as PAGE_COUNTER_MAX pages in bytes */
	if (s->limit_bytes >= (unsigned long long)LLONG_MAX / 2)
		s->limit_bytes = ULLONG_MAX;
	if (field(text, "total_inactive_file", &s->inactive_file_bytes) < 0)
		s->inactive_file_bytes = 0;
	if (field(text, "total_swap", &s->swap_usage_bytes) < 0)
		s->swap_usage_bytes = 0;
	/* Without swap accounting (no memsw files) the cgroup may swap freely. */
	if (field(text, "hierarchical_memsw_limit", &memsw) < 0 || memsw >= (unsigned long long)LLONG_MAX / 2 ||
	    s->limit_bytes == ULLONG_MAX)
		s->swap_limit_bytes = ULLONG_MAX;
	else
		s->swap_limit_bytes = memsw > s->limit_bytes ? memsw - s->limit_bytes : 0;
	return 0;
}

/* v2: the lowest memory.max and memory.swap.max from dir up to the root,
 * which has neither file. */
static int sample_v2(const char *dir, struct memcg_sample *s)
{
	char path[PATH_MAX], text[MEMINFO_TEXT_MAX], *slash;
	unsigned long long v;
	ssize_t n;
	int r;

	r = read_value(dir, "memory.current", &s->usage_bytes);
	if (r < 0)
		return r;
	if (read_value(dir, "memory.swap.current", &s->swap_usage_bytes) < 0)
		s->swap_usage_bytes = 0;
	if ((size_t)snprintf(path, sizeof(path), "%s/memory.stat", dir) >= sizeof(path))
		return -ENAMETOOLONG;
	n = read_text(path, text, sizeof(text));
	if (n < 0)
		return (int)n;
	if (field(text, "inactive_file", &s->inactive_file_bytes) < 0)
		s->inactive_file_bytes = 0;

	s->limit_bytes = ULLONG_MAX;
	s->swap_limit_bytes = ULLONG_MAX;
	strcpy(path, dir);
	for (;;) {
		if (read_value(path, "memory.max", &v) < 0)
			break;	/* the root: no limit there */
		if (v < s->limit_bytes)
			s->limit_bytes = v;
		if (read_value(path, "memory.swap.max", &v) == 0 && v < s->swap_limit_bytes)
			s->swap_limit_bytes = v;
		slash = strrchr(path, '/');
		if (!slash || slash == path)
			break;
		*slash = '\0';
	}
	return 0;
}

int meminfo_memcg_sample(const char *dir, bool v2, struct memcg_sample *s)
{
	memset(s, 0, sizeof(*s));
	return v2 ? sample_v2(dir, s) : sample_v1(dir, s);
}

static unsigned long long min_ull(unsigned long long a, unsigned long long b)
{
	return a < b ? a : b;
}

/* Available = limit - usage + inactive_file: the kernel reclaims inactive page
 * cache before it OOM-kills in a cgroup, so like the kubelet's working set we
 * count it as free; active file pages are not (they may be the working set).
 * Never more than the system's own MemAvailable: a cgroup without a limit, or
 * with one above what is left, runs out together with the system. */
void meminfo_memcg_combine(const struct memcg_sample *s, const struct mem_state *sys,
			   struct mem_state *ms)
{
	unsigned long long limit_kib, usage_kib, room_kib, swap_used_kib;

	limit_kib = s->limit_bytes == ULLONG_MAX ? ULLONG_MAX : s->limit_bytes / 1024;
	usage_kib = s->usage_bytes / 1024;
	ms->mem_total_kib = min_ull(limit_kib, sys->mem_total_kib);
	room_kib = ms->mem_total_kib > usage_kib ? ms->mem_total_kib - usage_kib : 0;
	room_kib += s->inactive_file_bytes / 1024;
	ms->mem_avail_kib = min_ull(room_kib, sys->mem_avail_kib);

	ms->swap_total_kib = min_ull(s->swap_limit_bytes == ULLONG_MAX ? ULLONG_MAX : s->swap_limit_bytes / 1024,
				     sys->swap_total_kib);
	swap_used_kib = s->swap_usage_bytes / 1024;
	ms->swap_free_kib = ms->swap_total_kib > swap_used_kib ? ms->swap_total_kib - swap_used_kib : 0;
	ms->swap_free_kib = min_ull(ms->swap_free_kib, sys->swap_free_kib);
}

void meminfo_thresholds(unsigned mem_pct, unsigned long long mem_kib, unsigned swap_pct,
			unsigned long long swap_kib, const struct mem_state *ms, struct mem_thresholds *t)
{
	t->mem_min_kib = mem_kib ? mem_kib : ms->mem_total_kib * mem_pct / 100;
	t->swap_min_kib = swap_kib ? swap_kib : ms->swap_total_kib * swap_pct / 100;
}

bool meminfo_low(const struct mem_state *ms, const struct mem_thresholds *t)
{
	if (ms->mem_avail_kib >= t->mem_min_kib)
		return false;
	return ms->swap_total_kib == 0 || ms->swap_free_kib < t->swap_min_kib;
}

/* The fastest fill rates we plan for, earlyoom's figures: one thread writing
 * fresh pages fills RAM at about 6000 MiB/s, swap at about 800 MiB/s. Swap
 * fills only after RAM, so the two times add up. */
#define FILL_RAM_KIB_PER_MS 6144ULL
#define FILL_SWAP_KIB_PER_MS 819ULL

unsigned meminfo_next_check_ms(const struct mem_state *ms, const struct mem_thresholds *t)
{
	unsigned long long mem_room, swap_room = 0, ms_total;

	mem_room = ms->mem_avail_kib > t->mem_min_kib ? ms->mem_avail_kib - t->mem_min_kib : 0;
	if (ms->swap_total_kib != 0 && ms->swap_free_kib > t->swap_min_kib)
		swap_room = ms->swap_free_kib - t->swap_min_kib;
	ms_total = mem_room / FILL_RAM_KIB_PER_MS + swap_room / FILL_SWAP_KIB_PER_MS;
	if (ms_total < MEMINFO_CHECK_MIN_MS)
		return MEMINFO_CHECK_MIN_MS;
	if (ms_total > MEMINFO_CHECK_MAX_MS)
		return MEMINFO_CHECK_MAX_MS;
	return (unsigned)ms_total;
}
