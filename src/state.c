/* state.c - the originals of every value oompardon changed, kept in the run dir across crashes.
 *
 * RUN_DIR/state is a write-ahead journal of text lines, replayed in order at open:
 *
 *	# oompardon state: + PID START ORIGINAL SET | - PID START
 *	+ 4242 123456 0 -1000	(written BEFORE oompardon writes SET to the process
 *				 (PID, START): its value was ORIGINAL)
 *	- 4242 123456		(the original is back, or the process is gone)
 *
 * START is the process's start time (field 22 of /proc/PID/stat): with PID, a
 * process identity that a reused pid does not repeat. A `+` for a process already
 * recorded keeps the first ORIGINAL: after oompardon wrote -1000, the -1000 it
 * reads back is its own value, never an original. Lines that do not parse, and a
 * torn last line (no newline: a crash inside write(2)), are ignored. Each record is
 * one write(2) to an O_APPEND fd; kill -9 loses nothing the kernel accepted. The
 * journal is rewritten (temp + rename) with only the live entries at open, at close,
 * and when dead lines outnumber live ones.
 *
 * No fsync: the processes this file speaks of do not survive a reboot, and the
 * page cache survives a crash of oompardon; /run is a tmpfs anyway.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc.h"
#include "state.h"

#define STATE_TMP "state.tmp"
#define PID_FILE "pid"
#define PID_TMP "pid.tmp"
#define STATE_HEADER "# oompardon state: + PID START ORIGINAL SET | - PID START\n"
#define LINE_MAX_BYTES 96	/* "+ " + 3 numbers of at most 20 digits + a 20-digit one */
#define SLOTS_MIN 64
#define COMPACT_MIN_LINES 1024	/* below this, dead lines cost less than a rewrite */

static size_t slot_of(const struct state *st, pid_t pid)
{
	/* Fibonacci hashing: consecutive pids spread over the table. */
	return (size_t)(((uint32_t)pid * 2654435761u) & (uint32_t)(st->cap - 1));
}

/* The entry of pid, or NULL. */
struct state_entry *state_find(struct state *st, pid_t pid)
{
	size_t i;

	if (st->cap == 0)
		return NULL;
	for (i = slot_of(st, pid); st->slots[i].used; i = (i + 1) & (st->cap - 1))
		if (st->slots[i].pid == pid)
			return &st->slots[i];
	return NULL;
}

/* Grows the table to cap (a power of 2). 0 or -ENOMEM. */
static int rehash(struct state *st, size_t cap)
{
	struct state_entry *old = st->slots, *e;
	size_t old_cap = st->cap, i;

	st->slots = calloc(cap, sizeof(*st->slots));
	if (st->slots == NULL) {
		st->slots = old;
		return -ENOMEM;
	}
	st->cap = cap;
	for (e = old; e < old + old_cap; e++) {
		if (!e->used)
			continue;
		for (i = slot_of(st, e->pid); st->slots[i].used; i = (i + 1) & (cap - 1))
			;
		st->slots[i] = *e;
	}
	free(old);
	return 0;
}

/* Puts (pid, start_time) in the table: the existing entry of the same process
 * keeps its original, a dead process's entry under the same pid is replaced. 0 or -ENOMEM. */
static int table_put(struct state *st, pid_t pid, unsigned long long start_time, int original, int set)
{
	struct state_entry *e = state_find(st, pid);
	size_t i;
	int r;

	if (e != NULL && e->start_time == start_time) {
		e->set = set;
		return 0;
	}
	if (e == NULL) {
		if ((st->count + 1) * 2 > st->cap) {
			r = rehash(st, st->cap ? st->cap * 2 : SLOTS_MIN);
			if (r < 0)
				return r;
		}
		for (i = slot_of(st, pid); st->slots[i].used; i = (i + 1) & (st->cap - 1))
			;
		e = &st->slots[i];
		st->count++;
	}
	*e = (struct state_entry){ .pid = pid, .start_time = start_time, .original = original,
				   .set = set, .used = true };
	return 0;
}

/* Removes e, shifting later members of its probe run back (no tombstones). */
static void table_del(struct state *st, struct state_entry *e)
{
	size_t hole = (size_t)(e - st->slots), i, home, mask = st->cap - 1;

	st->slots[hole].used = false;
	st->count--;
	for (i = (hole + 1) & mask; st->slots[i].used; i = (i + 1) & mask) {
		home = slot_of(st, st->slots[i].pid);
		/* Move it when the hole lies cyclically between its home slot and it. */
		if (((i - home) & mask) >= ((i - hole) & mask)) {
			st->slots[hole] = st->slots[i];
			st->slots[i].used = false;
			hole = i;
		}
	}
}

/* Appends one line with one write(2). 0 or -errno. */
static int journal_append(struct state *st, const char *line, size_t len)
{
	ssize_t n;

	do
		n = write(st->fd, line, len);
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)len) {
		st->journal_lines++;
		return 0;
	}
	/* A short write (disk full) left a torn line that would swallow the next one:
	 * rewrite the journal from memory, which lacks this record. */
	n = n < 0 ? -errno : -ENOSPC;
	state_compact(st);
	return (int)n;
}

/* Dead lines outnumber live ones by far: rewrite. Errors are retried next time. */
static void maybe_compact(struct state *st)
{
	if (st->journal_lines > COMPACT_MIN_LINES && st->journal_lines > 4 * st->count)
		state_compact(st);
}

/* Write-ahead: records (pid, start_time) before oompardon writes `set`. 0 or -errno. */
int state_record(struct state *st, pid_t pid, unsigned long long start_time, int original, int set)
{
	struct state_entry *e = state_find(st, pid);
	char line[LINE_MAX_BYTES];
	int len, r;

	if (e != NULL && e->start_time == start_time) {
		if (e->set == set)
			return 0;	/* nothing new: no write */
		original = e->original;
	}
	len = snprintf(line, sizeof(line), "+ %d %llu %d %d\n", (int)pid, start_time, original, set);
	r = journal_append(st, line, (size_t)len);
	if (r < 0)
		return r;
	r = table_put(st, pid, start_time, original, set);
	if (r < 0)
		return r;
	maybe_compact(st);
	return 0;
}

/* Forgets pid (exited, or restored). 0 or -errno. */
int state_forget(struct state *st, pid_t pid)
{
	struct state_entry *e = state_find(st, pid);
	char line[LINE_MAX_BYTES];
	int len, r;

	if (e == NULL)
		return 0;	/* the common case for the daemon's exit events: no write */
	len = snprintf(line, sizeof(line), "- %d %llu\n", (int)pid, e->start_time);
	r = journal_append(st, line, (size_t)len);
	if (r < 0)
		return r;
	table_del(st, e);
	maybe_compact(st);
	return 0;
}

/* Writes all of buf to fd. 0 or -errno. */
static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Rewrites the journal with only the live entries. 0 or -errno. */
int state_compact(struct state *st)
{
	struct state_entry *e;
	size_t size = sizeof(STATE_HEADER) + st->count * LINE_MAX_BYTES, len;
	char *buf;
	int fd, r;

	buf = malloc(size);
	if (buf == NULL)
		return -ENOMEM;
	len = (size_t)snprintf(buf, size, "%s", STATE_HEADER);
	state_foreach(st, e)
		len += (size_t)snprintf(buf + len, size - len, "+ %d %llu %d %d\n", (int)e->pid,
					e->start_time, e->original, e->set);
	fd = openat(st->dir_fd, STATE_TMP, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
		    0644);
	if (fd < 0) {
		free(buf);
		return -errno;
	}
	r = write_all(fd, buf, len);
	free(buf);
	/* rename(2) is atomic: a crash leaves the old journal or the new one, whole. */
	if (r == 0 && renameat(st->dir_fd, STATE_TMP, st->dir_fd, STATE_FILE) != 0)
		r = -errno;
	if (r < 0) {
		close(fd);
		unlinkat(st->dir_fd, STATE_TMP, 0);
		return r;
	}
	if (st->fd >= 0)
		close(st->fd);
	st->fd = fd;
	st->journal_lines = st->count;
	return 0;
}

/* Applies one journal line (without its newline) to the table. 0, or -EINVAL for a
 * line that does not parse (ignored by the caller). */
static int replay_line(struct state *st, const char *line)
{
	unsigned long long start;
	int pid, original, set, end = -1;
	struct state_entry *e;

	if (line[0] == '#' || line[0] == '\0')
		return 0;
	if (sscanf(line, "+ %d %llu %d %d%n", &pid, &start, &original, &set, &end) == 4 &&
	    line[end] == '\0' && pid > 0)
		return table_put(st, pid, start, original, set);
	end = -1;
	if (sscanf(line, "- %d %llu%n", &pid, &start, &end) == 2 && line[end] == '\0' && pid > 0) {
		e = state_find(st, pid);
		if (e != NULL && e->start_time == start)
			table_del(st, e);
		return 0;
	}
	return -EINVAL;
}

/* Reads the whole journal from fd and replays it. 0 or -errno. */
static int load(struct state *st)
{
	size_t len = 0, cap = 4096;
	char *buf, *line, *nl, *grown;
	ssize_t n;
	int r = 0;

	buf = malloc(cap);
	if (buf == NULL)
		return -ENOMEM;
	for (;;) {
		if (len + 1 == cap) {
			grown = realloc(buf, cap * 2);
			if (grown == NULL) {
				free(buf);
				return -ENOMEM;
			}
			buf = grown;
			cap *= 2;
		}
		n = pread(st->fd, buf + len, cap - 1 - len, (off_t)len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	/* Only whole lines: a last line without its newline is torn. */
	for (line = buf; r == 0 && (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
		*nl = '\0';
		if (replay_line(st, line) == -ENOMEM)
			r = -ENOMEM;
	}
	free(buf);
	return r;
}

/* Drops the entries whose process is gone or is another one now. 0 or -ENOMEM. */
static int drop_dead(struct state *st)
{
	unsigned long long start;
	struct state_entry *e;
	pid_t *dead;
	size_t n = 0, i;

	if (st->count == 0)
		return 0;
	dead = malloc(st->count * sizeof(*dead));
	if (dead == NULL)
		return -ENOMEM;
	/* collected first: table_del moves entries under the iteration */
	state_foreach(st, e)
		if (proc_start_time(e->pid, &start) != 0 || start != e->start_time)
			dead[n++] = e->pid;
	for (i = 0; i < n; i++)
		table_del(st, state_find(st, dead[i]));
	free(dead);
	return 0;
}

/* mkdir -p path, each new directory 0755. 0 or -errno. */
static int mkdir_p(const char *path)
{
	char buf[PATH_MAX];
	char *p;

	if (strlen(path) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, path);
	for (p = buf + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) != 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) != 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* Opens the run dir and checks that only root (or we) can change it: what restore
 * writes to other processes comes from here. fd, -ELOOP (a symlink), -EPERM, or -errno. */
static int open_run_dir(const char *run_dir)
{
	struct stat sb;
	int fd, r;

	r = mkdir_p(run_dir);
	if (r < 0)
		return r;
	fd = open(run_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOTDIR && lstat(run_dir, &sb) == 0 && S_ISLNK(sb.st_mode) ? -ELOOP : -errno;
	if (fstat(fd, &sb) != 0) {
		r = -errno;
		close(fd);
		return r;
	}
	if ((sb.st_uid != 0 && sb.st_uid != geteuid()) || (sb.st_mode & (S_IWGRP | S_IWOTH))) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* Says why state_open failed, for the one message of the caller. */
const char *state_strerror(int err)
{
	switch (err) {
	case -ELOOP:
		return "it is a symbolic link";
	case -EPERM:
		return "it must be owned by root and writable by no one else";
	case -EWOULDBLOCK:
		return "another oompardon holds its lock";
	default:
		return strerror(-err);
	}
}

/* Creates the run dir if needed, takes the lock, loads the journal. 0 or -errno. */
int state_open(struct state *st, const char *run_dir, bool wait)
{
	int r;

	memset(st, 0, sizeof(*st));
	st->fd = st->lock_fd = st->dir_fd = -1;
	r = open_run_dir(run_dir);
	if (r < 0)
		return r;
	st->dir_fd = r;
	st->dir = strdup(run_dir);
	if (st->dir == NULL || rehash(st, SLOTS_MIN) < 0) {
		r = -ENOMEM;
		goto fail;
	}
	st->lock_fd = openat(st->dir_fd, STATE_LOCK, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (st->lock_fd < 0) {
		r = -errno;
		goto fail;
	}
	while (flock(st->lock_fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0) {
		if (errno != EINTR) {
			r = -errno;
			goto fail;
		}
	}
	st->fd = openat(st->dir_fd, STATE_FILE, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (st->fd < 0) {
		r = -errno;
		goto fail;
	}
	r = load(st);
	if (r < 0)
		goto fail;
	r = drop_dead(st);
	if (r < 0)
		goto fail;
	/* Starts from a clean file: no torn line for the next record to run into. */
	r = state_compact(st);
	if (r < 0)
		goto fail;
	return 0;
fail:
	state_close(st);
	return r;
}

void state_close(struct state *st)
{
	if (st->fd >= 0 && st->journal_lines != st->count)
		state_compact(st);	/* leaves a short file; harmless if it fails */
	if (st->wrote_pid)
		unlinkat(st->dir_fd, PID_FILE, 0);
	if (st->fd >= 0)
		close(st->fd);
	/* The lock goes last: whoever takes it next finds a finished journal. */
	if (st->lock_fd >= 0)
		close(st->lock_fd);
	if (st->dir_fd >= 0)
		close(st->dir_fd);
	free(st->slots);
	free(st->dir);
	memset(st, 0, sizeof(*st));
	st->fd = st->lock_fd = st->dir_fd = -1;
}

/* The daemon, once it holds the lock: writes RUN_DIR/pid. 0 or -errno. */
int state_write_pid(struct state *st)
{
	char line[32];
	int fd, len, r;

	len = snprintf(line, sizeof(line), "%d\n", (int)getpid());
	fd = openat(st->dir_fd, PID_TMP, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	r = write_all(fd, line, (size_t)len);
	close(fd);
	if (r == 0 && renameat(st->dir_fd, PID_TMP, st->dir_fd, PID_FILE) != 0)
		r = -errno;
	if (r < 0) {
		unlinkat(st->dir_fd, PID_TMP, 0);
		return r;
	}
	st->wrote_pid = true;
	return 0;
}

/* The pid of the daemon of run_dir (from RUN_DIR/pid): 0, -ENOENT when none wrote
 * one, -ESRCH when that process is gone, other -errno. */
int state_daemon_pid(const char *run_dir, pid_t *pid)
{
	char path[PATH_MAX], buf[32];
	ssize_t n;
	int fd, v;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", run_dir, PID_FILE) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	if (sscanf(buf, "%d", &v) != 1 || v <= 0)
		return -EINVAL;
	if (kill(v, 0) != 0 && errno == ESRCH)
		return -ESRCH;
	*pid = v;
	return 0;
}
