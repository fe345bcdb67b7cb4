/* cgroup.c - memory cgroups, v1 and v2: where they are mounted, their limits and members. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "cgroup.h"
#include "proc.h"

const char *cgroup_mountinfo = "/proc/self/mountinfo";

/* v1 says "no limit" with PAGE_COUNTER_MAX pages in bytes: 9223372036854771712 with
 * 4 KiB pages (measured here), other values with other page sizes. Anything at or
 * above 2^62 bytes (4 EiB) is no limit on any machine that exists. */
#define LIMIT_NONE_MIN_BYTES (1ULL << 62)

#define MOUNTINFO_FIELDS_MAX 64

struct cg_mount {
	char root[PATH_MAX];	/* the cgroup path the mount shows at its top ("/" unless a namespace) */
	char point[PATH_MAX];	/* where it is mounted */
	bool v2;
};

/* Undoes mountinfo's octal escapes (\040 space, \011 tab, \012 newline, \134 backslash). */
static void unescape_octal(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* Is word one element of the comma-separated list? */
static bool in_list(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == n && strncmp(p, word, n) == 0)
			return true;
		if (!end)
			break;
		p = end + 1;
	}
	return false;
}

/* Does one mountinfo line describe the hierarchy we look for? controller "" = cgroup2.
 * 1 and m filled, 0 not this one, -EINVAL malformed. line is modified. */
static int mountinfo_match(char *line, const char *controller, struct cg_mount *m)
{
	char *f[MOUNTINFO_FIELDS_MAX], *save = NULL, *tok;
	size_t n = 0, sep;

	for (tok = strtok_r(line, " \n", &save); tok && n < MOUNTINFO_FIELDS_MAX;
	     tok = strtok_r(NULL, " \n", &save))
		f[n++] = tok;
	for (sep = 6; sep < n && strcmp(f[sep], "-") != 0; sep++)
		;
	if (sep + 3 >= n)	/* fstype, source and super options follow the "-" */
		return -EINVAL;
	if (controller[0] == '\0') {
		if (strcmp(f[sep + 1], "cgroup2") != 0)
			return 0;
	} else if (strcmp(f[sep + 1], "cgroup") != 0 || !in_list(f[sep + 3], controller)) {
		return 0;
	}
	if (strlen(f[3]) >= sizeof(m->root) || strlen(f[4]) >= sizeof(m->point))
		return -EINVAL;
	strcpy(m->root, f[3]);
	strcpy(m->point, f[4]);
	unescape_octal(m->root);
	unescape_octal(m->point);
	m->v2 = controller[0] == '\0';
	return 1;
}

/* The first mount of that hierarchy. 0, -ENOENT, or other -errno. */
static int find_mount(const char *controller, struct cg_mount *m)
{
	char *line = NULL;
	size_t cap = 0;
	int r = -ENOENT;
	FILE *f = fopen(cgroup_mountinfo, "re");

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		int k = mountinfo_match(line, controller, m);

		if (k == 1) {
			r = 0;
			break;
		}
	}
	free(line);
	fclose(f);
	return r;
}

/* Reads a small file into buf, NUL-terminated, trailing newline removed. 0 or -errno. */
static int read_small(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	close(fd);
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

/* Reads dir/name as a limit. 0 or -errno. */
static int read_limit(const char *dir, const char *name, unsigned long long *bytes)
{
	char path[PATH_MAX], buf[64];
	int r;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	r = read_small(path, buf, sizeof(buf));
	return r < 0 ? r : cgroup_parse_limit(buf, bytes);
}

int cgroup_parse_limit(const char *text, unsigned long long *bytes)
{
	unsigned long long v;
	char *end;

	while (*text == ' ' || *text == '\t')
		text++;
	if (strncmp(text, "max", 3) == 0 && (text[3] == '\0' || text[3] == '\n')) {
		*bytes = ULLONG_MAX;
		return 0;
	}
	if (*text < '0' || *text > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno != 0 || (*end != '\0' && *end != '\n'))
		return -EINVAL;
	*bytes = v >= LIMIT_NONE_MIN_BYTES ? ULLONG_MAX : v;
	return 0;
}

int cgroup_path_of(const char *raw, const char *controller, char *out, size_t outlen)
{
	const char *line = raw;

	while (line && *line) {
		const char *c1 = strchr(line, ':'), *c2, *eol = strchr(line, '\n');
		size_t clen, plen;

		if (!eol)
			eol = line + strlen(line);
		if (!c1 || c1 > eol || !(c2 = memchr(c1 + 1, ':', (size_t)(eol - c1 - 1))))
			goto next;
		clen = (size_t)(c2 - c1 - 1);
		if (controller[0] == '\0' ? clen == 0 : clen > 0) {
			char list[256];

			if (clen >= sizeof(list))
				goto next;
			memcpy(list, c1 + 1, clen);
			list[clen] = '\0';
			if (controller[0] != '\0' && !in_list(list, controller))
				goto next;
			plen = (size_t)(eol - c2 - 1);
			if (plen >= outlen)
				return -ENAMETOOLONG;
			memcpy(out, c2 + 1, plen);
			out[plen] = '\0';
			return 0;
		}
next:
		line = *eol ? eol + 1 : NULL;
	}
	return -ENOENT;
}

int cgroup_mount_of(const char *controller, char *out, size_t outlen)
{
	struct cg_mount m;
	int r = find_mount(controller, &m);

	if (r < 0)
		return r;
	if (strlen(m.point) >= outlen)
		return -ENAMETOOLONG;
	strcpy(out, m.point);
	return 0;
}

/* The hierarchy that holds the memory controller: v1's "memory", else the
 * cgroup2 mount if its top lists "memory" in cgroup.controllers. */
static int memory_mount(struct cg_mount *m)
{
	char path[PATH_MAX + 32], buf[512];
	int r = find_mount("memory", m);

	if (r != -ENOENT)
		return r;
	r = find_mount("", m);
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "%s/cgroup.controllers", m->point);
	if (read_small(path, buf, sizeof(buf)) < 0)
		return -ENOENT;
	for (char *save = NULL, *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
		if (strcmp(t, "memory") == 0)
			return 0;
	return -ENOENT;
}

/* Is path below (or at) dir? */
static bool path_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

int cgroup_memcg_resolve(const char *arg, struct memcg *cg)
{
	char want[PATH_MAX], real[PATH_MAX];
	struct cg_mount m;
	struct stat st;
	size_t n;
	int r;

	if (arg[0] != '/')
		return -EINVAL;
	r = memory_mount(&m);
	if (r < 0)
		return r;
	if (path_under(arg, m.point) && stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (strlen(arg) >= sizeof(want))
			return -ENAMETOOLONG;
		strcpy(want, arg);
	} else {
		/* a path as /proc/PID/cgroup shows it, relative to the mount's root */
		const char *rel = arg;

		if (strcmp(m.root, "/") != 0) {
			if (!path_under(arg, m.root))
				return -ENOENT;	/* outside what this namespace sees */
			rel = arg + strlen(m.root);
		}
		if (snprintf(want, sizeof(want), "%s%s", m.point, strcmp(rel, "/") == 0 ? "" : rel) >=
		    (int)sizeof(want))
			return -ENAMETOOLONG;
	}
	if (!realpath(want, real))
		return errno == ENOTDIR ? -ENOENT : -errno;
	if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode) || !path_under(real, m.point))
		return -ENOENT;	/* "..", or a symlink out of the hierarchy */
	n = strlen(real);
	memcpy(cg->dir, real, n + 1);
	cg->v2 = m.v2;
	/* the v2 root has neither memory.max nor memory.current */
	if (read_limit(real, m.v2 ? "memory.max" : "memory.limit_in_bytes", &cg->limit_bytes) < 0)
		cg->limit_bytes = ULLONG_MAX;
	if (read_limit(real, m.v2 ? "memory.current" : "memory.usage_in_bytes", &cg->usage_bytes) < 0)
		cg->usage_bytes = 0;
	return 0;
}

int cgroup_memcg_parent(const struct memcg *cg, struct memcg *parent)
{
	struct cg_mount m;
	char *slash;
	int r = memory_mount(&m);

	if (r < 0)
		return r;
	if (strcmp(cg->dir, m.point) == 0 || !path_under(cg->dir, m.point))
		return -ENOENT;
	memcpy(parent->dir, cg->dir, sizeof(parent->dir));
	slash = strrchr(parent->dir, '/');
	if (!slash || slash == parent->dir)
		return -ENOENT;
	*slash = '\0';
	return cgroup_memcg_resolve(parent->dir, parent);
}

long cgroup_get_max_pages(bool v2, bool memsw_account, unsigned long long max_pages,
			  unsigned long long swap_limit_pages, unsigned long long total_swap_pages,
			  bool swappiness)
{
	unsigned long long max = max_pages, swap;

	if (swappiness) {
		if (!v2 && memsw_account)	/* the swap memsw.max leaves above memory.max */
			swap = swap_limit_pages > max ? swap_limit_pages - max : 0;
		else
			swap = swap_limit_pages;
		swap = swap < total_swap_pages ? swap : total_swap_pages;
		max = max > ULLONG_MAX - swap ? ULLONG_MAX : max + swap;
	}
	return max > (unsigned long long)LONG_MAX ? LONG_MAX : (long)max;
}

long cgroup_memcg_totalpages(const struct memcg *cg)
{
	unsigned long long page = (unsigned long long)sysconf(_SC_PAGESIZE);
	unsigned long long max_pages, swap_limit = ULLONG_MAX, total_swap = 0;
	char path[PATH_MAX + 32], buf[32];
	bool memsw = false, swappiness = true;
	struct sysinfo si;
	long max;

	/* the kernel's "no limit" is PAGE_COUNTER_MAX = LONG_MAX / PAGE_SIZE pages */
	max_pages = cg->limit_bytes == ULLONG_MAX ? (unsigned long long)LONG_MAX / page
						   : cg->limit_bytes / page;
	if (sysinfo(&si) == 0)
		total_swap = (unsigned long long)si.totalswap * si.mem_unit / page;
	if (cg->v2) {
		if (read_limit(cg->dir, "memory.swap.max", &swap_limit) < 0)
			swap_limit = ULLONG_MAX;
		/* v2 has no per-cgroup swappiness file; new cgroups take the global one */
		if (read_small("/proc/sys/vm/swappiness", buf, sizeof(buf)) == 0)
			swappiness = atoi(buf) != 0;
	} else {
		memsw = read_limit(cg->dir, "memory.memsw.limit_in_bytes", &swap_limit) == 0;
		snprintf(path, sizeof(path), "%s/memory.swappiness", cg->dir);
		if (read_small(path, buf, sizeof(buf)) == 0)
			swappiness = atoi(buf) != 0;
	}
	if (swap_limit != ULLONG_MAX)
		swap_limit /= page;
	max = cgroup_get_max_pages(cg->v2, memsw, max_pages, swap_limit, total_swap, swappiness);
	return max > 0 ? max : 1;	/* the kernel's "?: 1": a 0 limit divides nothing by 0 */
}

struct pid_list {
	pid_t *pids;
	size_t n, cap;
};

static int pid_push(struct pid_list *l, pid_t pid)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		pid_t *p = realloc(l->pids, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		l->pids = p;
		l->cap = cap;
	}
	l->pids[l->n++] = pid;
	return 0;
}

struct pid_start {
	pid_t pid;
	unsigned long long start;
};

static int by_start(const void *a, const void *b)
{
	const struct pid_start *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* v1's cgroup.procs is sorted by pid; the kernel's scan meets a cgroup's tasks in
 * the order they joined it, which for processes forked inside is their start time. */
static int sort_by_start(pid_t *pids, size_t n)
{
	struct pid_start *ps = calloc(n ? n : 1, sizeof(*ps));
	size_t i;

	if (!ps)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		ps[i].pid = pids[i];
		if (proc_start_time(pids[i], &ps[i].start) < 0)
			ps[i].start = ULLONG_MAX;	/* gone: keep it, last */
	}
	qsort(ps, n, sizeof(*ps), by_start);
	for (i = 0; i < n; i++)
		pids[i] = ps[i].pid;
	free(ps);
	return 0;
}

struct child {
	ino_t ino;
	char name[256];
};

static int by_ino(const void *a, const void *b)
{
	const struct child *x = a, *y = b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* Pre-order: the cgroup's own processes, then each child's subtree. */
static int walk(const char *dir, bool v2, struct pid_list *l, int depth)
{
	char path[PATH_MAX];
	struct child *kids = NULL;
	size_t nkids = 0, capkids = 0, first = l->n, i;
	struct dirent *de;
	FILE *f;
	DIR *d;
	int pid, r = 0;

	if (depth > 64)
		return -ELOOP;
	if (snprintf(path, sizeof(path), "%s/cgroup.procs", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;	/* removed under us */
	while (r == 0 && fscanf(f, "%d", &pid) == 1)
		r = pid_push(l, pid);
	fclose(f);
	if (r == 0 && !v2)
		r = sort_by_start(l->pids + first, l->n - first);
	if (r < 0)
		return r;

	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d)) != NULL) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if (nkids == capkids) {
			size_t cap = capkids ? capkids * 2 : 8;
			struct child *k = realloc(kids, cap * sizeof(*k));

			if (!k) {
				r = -ENOMEM;
				break;
			}
			kids = k;
			capkids = cap;
		}
		kids[nkids].ino = de->d_ino;
		snprintf(kids[nkids].name, sizeof(kids[nkids].name), "%s", de->d_name);
		nkids++;
	}
	closedir(d);
	/* The kernel walks children in creation order; cgroupfs gives inode numbers
	 * in increasing order as directories are created, readdir does not. */
	if (kids)
		qsort(kids, nkids, sizeof(*kids), by_ino);
	for (i = 0; r == 0 && i < nkids; i++) {
		if (snprintf(path, sizeof(path), "%s/%s", dir, kids[i].name) >= (int)sizeof(path))
			r = -ENAMETOOLONG;
		else
			r = walk(path, v2, l, depth + 1);
	}
	free(kids);
	return r;
}

int cgroup_memcg_pids(const struct memcg *cg, pid_t **pids)
{
	struct pid_list l = { 0 };
	int r = walk(cg->dir, cg->v2, &l, 0);

	if (r < 0 || l.n > INT_MAX) {
		free(l.pids);
		return r < 0 ? r : -EOVERFLOW;
	}
	*pids = l.pids;
	return (int)l.n;
}
