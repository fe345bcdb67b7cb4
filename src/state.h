/* state.h - the originals of every value oompardon changed, kept in the run dir across crashes. */
#ifndef OOMPARDON_STATE_H
#define OOMPARDON_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define STATE_FILE "state"	/* inside the run dir */
#define STATE_LOCK "lock"	/* flock(2)ed by the daemon for its life; apply/restore briefly */

/* One process whose oom_score_adj came from oompardon, directly or inherited. */
struct state_entry {
	pid_t pid;
	unsigned long long start_time;
	int original;		/* what the process had before oompardon (or its ancestor's) */
	int set;		/* what oompardon wrote (or inherited) */
	bool used;		/* hash slot in use */
};

struct state {
	struct state_entry *slots;	/* open addressing on pid */
	size_t cap, count;
	int fd;				/* journal, O_APPEND */
	int lock_fd;
	int dir_fd;			/* the run dir, checked once, then used for every file */
	char *dir;
	size_t journal_lines;		/* compacts when it outgrows count */
	bool wrote_pid;			/* state_write_pid: RUN_DIR/pid goes at state_close */
};

/* Creates the run dir if needed (0755), takes the lock (LOCK_EX|LOCK_NB unless wait),
 * loads the journal. -EWOULDBLOCK when another oompardon holds it; other -errno. */
int state_open(struct state *st, const char *run_dir, bool wait);
void state_close(struct state *st);

/* Says why state_open failed, for the one message of the caller. */
const char *state_strerror(int err);

/* The daemon, once it holds the lock: writes RUN_DIR/pid (removed by state_close). 0 or -errno. */
int state_write_pid(struct state *st);

/* The pid of the daemon holding the lock of run_dir (from RUN_DIR/pid): 0, -ENOENT
 * when there is no pid file, -ESRCH when that process is gone, other -errno. */
int state_daemon_pid(const char *run_dir, pid_t *pid);

/* Write-ahead: records (pid, start_time) before oompardon writes `set`. Keeps the
 * first original when the process is already recorded. 0 or -errno. */
int state_record(struct state *st, pid_t pid, unsigned long long start_time, int original, int set);
/* Forgets pid (exited, or restored). 0 or -errno. */
int state_forget(struct state *st, pid_t pid);
/* The entry of pid, or NULL. */
struct state_entry *state_find(struct state *st, pid_t pid);
/* Rewrites the journal with only the live entries. 0 or -errno. */
int state_compact(struct state *st);

#define state_foreach(st, e) \
	for ((e) = (st)->slots; (e) < (st)->slots + (st)->cap; (e)++) if ((e)->used)

#endif
