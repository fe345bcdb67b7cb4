/* proc.c - process facts read from procfs; the only file that parses /proc/PID/... */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc.h"

#define PF_KTHREAD 0x00200000u	/* include/linux/sched.h: "I am a kernel thread" */

/* On Linux 6.18, /proc/self/stat is about 300 bytes and /proc/self/status 1402. */
#define STAT_BUF_SIZE 1024
#define STATUS_BUF_SIZE 4096
#define NUM_BUF_SIZE 32

#define DELETED_SUFFIX " (deleted)"	/* fs/d_path.c appends it to unlinked files */

/* Tests point this at a fake tree; the only mutable global of this file. */
const char *proc_root = "/proc";

/* An ENOENT below /proc/PID means the process is gone (or reaped). */
static int gone(int err)
{
	return err == ENOENT || err == ESRCH ? -ESRCH : -err;
}

/* Opens proc_root/PID as a directory handle: every later read goes through it, so
 * all facts come from one process even if the pid is reused meanwhile. fd or -errno. */
static int open_pid_dir(pid_t pid)
{
	char path[PATH_MAX];
	int fd, n;

	n = snprintf(path, sizeof(path), "%s/%d", proc_root, (int)pid);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? gone(errno) : fd;
}

/* Reads the file `name` under dirfd into buf, NUL-terminated (truncated to size - 1).
 * Length or -errno (-ESRCH for a process that is gone). */
static ssize_t read_at(int dirfd, const char *name, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd, err = 0;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return gone(errno);
	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = errno;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return err ? gone(err) : (ssize_t)len;
}

/* Skips n space-separated fields of stat text. The next field or NULL. */
static const char *skip_fields(const char *p, int n)
{
	while (n-- > 0) {
		p = strchr(p, ' ');
		if (p == NULL)
			return NULL;
		p++;
	}
	return p;
}

/* Parses the text of /proc/PID/stat (name from the last ')'). 0 or -EINVAL. */
int proc_parse_stat(const char *text, struct proc_facts *pf)
{
	const char *open, *close, *p;
	unsigned long long flags, start;
	char *end;
	long ppid;
	size_t len;

	/* The comm may hold anything but NUL, ')' and newlines included: the
	 * kernel writes it unescaped between the first '(' and the last ')'. */
	open = strchr(text, '(');
	close = strrchr(text, ')');
	if (open == NULL || close == NULL || close < open || close[1] != ' ')
		return -EINVAL;
	len = (size_t)(close - open - 1);
	if (len >= sizeof(pf->comm))
		len = sizeof(pf->comm) - 1;
	memcpy(pf->comm, open + 1, len);
	pf->comm[len] = '\0';

	/* close + 2 is field 3 (state). */
	p = skip_fields(close + 2, 1);		/* field 4: ppid */
	if (p == NULL)
		return -EINVAL;
	errno = 0;
	ppid = strtol(p, &end, 10);
	if (errno || end == p || *end != ' ')
		return -EINVAL;
	p = skip_fields(p, 5);			/* field 9: flags */
	if (p == NULL)
		return -EINVAL;
	flags = strtoull(p, &end, 10);
	if (errno || end == p || *end != ' ')
		return -EINVAL;
	p = skip_fields(p, 13);			/* field 22: starttime */
	if (p == NULL)
		return -EINVAL;
	start = strtoull(p, &end, 10);
	if (errno || end == p || (*end != ' ' && *end != '\n' && *end != '\0'))
		return -EINVAL;

	pf->ppid = (pid_t)ppid;
	pf->kthread = (flags & PF_KTHREAD) != 0;
	pf->start_time = start;
	return 0;
}

static int read_stat(int dirfd, struct proc_facts *pf)
{
	char buf[STAT_BUF_SIZE];
	ssize_t n;

	n = read_at(dirfd, "stat", buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	if (n == 0)
		return -ESRCH;
	return proc_parse_stat(buf, pf);
}

/* Kernel threads, zombies and exiting processes have no exe: not an error. The
 * process being gone is. */
static int read_exe(int dirfd, struct proc_facts *pf)
{
	size_t dlen = strlen(DELETED_SUFFIX);
	struct stat st;
	ssize_t n;
	int err;

	pf->has_exe = false;
	pf->exe[0] = '\0';
	pf->exe_deleted = false;
	n = readlinkat(dirfd, "exe", pf->exe, sizeof(pf->exe) - 1);
	if (n < 0) {
		err = errno;
		pf->exe[0] = '\0';
		if (err == ENOENT)	/* no mm: is the process still there? */
			return faccessat(dirfd, "stat", F_OK, 0) == 0 ? 0 : gone(errno);
		if (err == EACCES || err == EPERM)	/* not ours to inspect: we know nothing */
			return 0;
		return gone(err);
	}
	pf->exe[n] = '\0';
	/* stat, not lstat: the magic link leads to the very file the kernel runs,
	 * even when the path now names another file or nothing. */
	if (fstatat(dirfd, "exe", &st, 0) != 0) {
		err = errno;
		pf->exe[0] = '\0';
		if (err == ENOENT)
			return faccessat(dirfd, "stat", F_OK, 0) == 0 ? 0 : gone(errno);
		return gone(err);
	}
	/* A file may really be named "x (deleted)": then its link count is not 0.
	 * An unlinked file (replaced by a package upgrade, removed) has st_nlink 0. */
	if ((size_t)n > dlen && strcmp(pf->exe + n - dlen, DELETED_SUFFIX) == 0 && st.st_nlink == 0) {
		pf->exe[(size_t)n - dlen] = '\0';
		pf->exe_deleted = true;
	}
	pf->exe_dev = st.st_dev;
	pf->exe_ino = st.st_ino;
	pf->has_exe = true;
	return 0;
}

/* "Name:\t  123 kB" -> 123; the value of the first line starting with key. */
static long status_value(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, key, klen) == 0)
			return strtol(p + klen, NULL, 10);
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	return -1;
}

/* Missing fields (kernel threads have no Rss lines) count as 0. */
static long status_kib(const char *text, const char *key)
{
	long v = status_value(text, key);

	return v < 0 ? 0 : v;
}

static int read_status(int dirfd, struct proc_facts *pf)
{
	char buf[STATUS_BUF_SIZE];
	ssize_t n;
	long uid;

	/* The kernel escapes the name in status ("\n" as two characters), so a
	 * line that starts with a key is that key. */
	n = read_at(dirfd, "status", buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	uid = status_value(buf, "Uid:");
	if (uid < 0)
		return n == 0 ? -ESRCH : -EINVAL;
	pf->uid = (uid_t)uid;
	pf->rss_kib = status_kib(buf, "RssAnon:") + status_kib(buf, "RssFile:") +
		      status_kib(buf, "RssShmem:");
	pf->swap_kib = status_kib(buf, "VmSwap:");
	pf->pte_kib = status_kib(buf, "VmPTE:");
	return 0;
}

/* One integer file under dirfd. 0 or -errno. */
static int read_int_at(int dirfd, const char *name, int *value)
{
	char buf[NUM_BUF_SIZE];
	char *end;
	ssize_t n;
	long v;

	n = read_at(dirfd, name, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	if (n == 0)
		return -ESRCH;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	*value = (int)v;
	return 0;
}

static int read_oom(int dirfd, struct proc_facts *pf)
{
	int r;

	r = read_int_at(dirfd, "oom_score", &pf->oom_score);
	if (r == 0)
		r = read_int_at(dirfd, "oom_score_adj", &pf->oom_score_adj);
	return r;
}

static int read_cgroup(int dirfd, struct proc_facts *pf)
{
	ssize_t n;
	char *nl;

	n = read_at(dirfd, "cgroup", pf->cgroup, sizeof(pf->cgroup));
	if (n < 0)
		return (int)n;
	if (n == 0)
		return -ESRCH;
	/* Longer than we hold: keep whole lines only, never a cut path. */
	if ((size_t)n == sizeof(pf->cgroup) - 1 && pf->cgroup[n - 1] != '\n') {
		nl = strrchr(pf->cgroup, '\n');
		if (nl == NULL)
			return -E2BIG;
		nl[1] = '\0';
	}
	return 0;
}

/* Reads the facts `what` of pid. 0, -ESRCH when the process is gone, other -errno. */
int proc_read(pid_t pid, unsigned what, struct proc_facts *pf)
{
	int dirfd, r = 0;

	pf->pid = pid;
	pf->have = 0;
	dirfd = open_pid_dir(pid);
	if (dirfd < 0)
		return dirfd;
	if ((what & PROC_STAT) && (r = read_stat(dirfd, pf)) == 0)
		pf->have |= PROC_STAT;
	if (r == 0 && (what & PROC_EXE) && (r = read_exe(dirfd, pf)) == 0)
		pf->have |= PROC_EXE;
	if (r == 0 && (what & PROC_STATUS) && (r = read_status(dirfd, pf)) == 0)
		pf->have |= PROC_STATUS;
	if (r == 0 && (what & PROC_OOM) && (r = read_oom(dirfd, pf)) == 0)
		pf->have |= PROC_OOM;
	if (r == 0 && (what & PROC_CGROUP) && (r = read_cgroup(dirfd, pf)) == 0)
		pf->have |= PROC_CGROUP;
	close(dirfd);
	return r;
}

/* The start time of pid (stat field 22); 0 or -errno. */
int proc_start_time(pid_t pid, unsigned long long *start_time)
{
	struct proc_facts pf;
	int r;

	r = proc_read(pid, PROC_STAT, &pf);
	if (r == 0)
		*start_time = pf.start_time;
	return r;
}

/* A pid directory name: digits only, no leading zero. The pid or 0. */
static pid_t parse_pid(const char *name)
{
	unsigned long v = 0;
	const char *p;

	if (name[0] < '1' || name[0] > '9')
		return 0;
	for (p = name; *p != '\0'; p++) {
		if (!isdigit((unsigned char)*p) || v > 0x7fffffffUL / 10)
			return 0;
		v = v * 10 + (unsigned long)(*p - '0');
	}
	return v > 0x7fffffffUL ? 0 : (pid_t)v;
}

/* Lists every pid (thread group leaders) under proc_root. Count or -errno; *pids malloc'd. */
int proc_list(pid_t **pids)
{
	size_t n = 0, cap = 256;
	struct dirent *de;
	pid_t *v, *grown;
	DIR *d;
	pid_t pid;
	int err;

	d = opendir(proc_root);
	if (d == NULL)
		return -errno;
	v = malloc(cap * sizeof(*v));
	if (v == NULL) {
		closedir(d);
		return -ENOMEM;
	}
	/* readdir of /proc lists thread group leaders only (threads live under task/). */
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		pid = parse_pid(de->d_name);
		if (pid == 0)
			continue;
		if (n == cap) {
			cap *= 2;
			grown = realloc(v, cap * sizeof(*v));
			if (grown == NULL) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = grown;
		}
		v[n++] = pid;
		errno = 0;
	}
	err = errno;
	closedir(d);
	if (err) {
		free(v);
		return -err;
	}
	if (n > 0x7fffffff) {
		free(v);
		return -EOVERFLOW;
	}
	*pids = v;
	return (int)n;
}
