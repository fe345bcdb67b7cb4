/* adjust.c - reads and writes oom_score_adj, never to a recycled pid. */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "adjust.h"
#include "proc.h"

#define STAT_BUF_SIZE 1024	/* /proc/PID/stat is about 300 bytes on Linux 6.18 */
#define NUM_BUF_SIZE 32

/* Below /proc/PID, ENOENT and ESRCH mean the process is gone. */
static int gone(int err)
{
	return err == ENOENT || err == ESRCH ? -ESRCH : -err;
}

/* A handle on proc_root/PID. The kernel ties it to that very process: once the
 * process is reaped, openat() through it fails even when the pid is reused. fd or -errno. */
static int open_pid_dir(pid_t pid)
{
	char path[64 + PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%d", proc_root, (int)pid);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? gone(errno) : fd;
}

/* Reads the small file name under dirfd, NUL-terminated. Length or -errno. */
static ssize_t read_at(int dirfd, const char *name, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return gone(errno);
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		n = gone(errno);
	else
		buf[n] = '\0';
	close(fd);
	return n;
}

/* Writes value to the oom_score_adj under dirfd. 0 or -errno. */
static int write_adj_at(int dirfd, int value)
{
	char buf[NUM_BUF_SIZE];
	ssize_t n;
	int fd, len, err = 0;

	len = snprintf(buf, sizeof(buf), "%d\n", value);
	fd = openat(dirfd, "oom_score_adj", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return gone(errno);
	do
		n = write(fd, buf, (size_t)len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		err = errno;
	close(fd);
	return err ? gone(err) : 0;
}

/* 0; -ESRCH gone or reused; -EACCES lowering without CAP_SYS_RESOURCE; other -errno. */
int adjust_write(pid_t pid, unsigned long long start_time, int value)
{
	struct proc_facts pf;
	char buf[STAT_BUF_SIZE];
	ssize_t n;
	int dirfd, r;

	dirfd = open_pid_dir(pid);
	if (dirfd < 0)
		return dirfd;
	/* The start time read through the handle is the handle's process: if it is the
	 * one we decided about, the write below goes to it too, never to a successor. */
	n = read_at(dirfd, "stat", buf, sizeof(buf));
	if (n <= 0)
		r = n == 0 ? -ESRCH : (int)n;
	else if (proc_parse_stat(buf, &pf) != 0)
		r = -EINVAL;
	else if (pf.start_time != start_time)
		r = -ESRCH;
	else
		r = write_adj_at(dirfd, value);
	close(dirfd);
	return r;
}

/* Parses an integer file's text. 0 or -EINVAL. */
static int parse_int(const char *text, int *value)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || v < -100000 || v > 100000)
		return -EINVAL;
	*value = (int)v;
	return 0;
}

/* Reads pid's oom_score_adj. 0 or -errno. */
int adjust_read(pid_t pid, int *value)
{
	char buf[NUM_BUF_SIZE];
	ssize_t n;
	int dirfd;

	dirfd = open_pid_dir(pid);
	if (dirfd < 0)
		return dirfd;
	n = read_at(dirfd, "oom_score_adj", buf, sizeof(buf));
	close(dirfd);
	if (n <= 0)
		return n == 0 ? -ESRCH : (int)n;
	return parse_int(buf, value);
}

/* Writes our own oom_score_adj (exec: before the new program's first instruction). 0 or -errno. */
int adjust_write_self(int value)
{
	int dirfd, r;

	dirfd = open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -errno;
	r = write_adj_at(dirfd, value);
	close(dirfd);
	return r;
}

/* Do we hold CAP_SYS_RESOURCE in our effective set? 1, 0, or -errno. */
int adjust_can_lower(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	memset(data, 0, sizeof(data));
	/* glibc has no capget wrapper; the raw syscall needs no libcap. */
	if (syscall(SYS_capget, &hdr, data) != 0)
		return -errno;
	return (data[CAP_TO_INDEX(CAP_SYS_RESOURCE)].effective & CAP_TO_MASK(CAP_SYS_RESOURCE)) != 0;
}
