/* proc.h - process facts read from procfs; the only file that parses /proc/PID/... */
#ifndef OOMPARDON_PROC_H
#define OOMPARDON_PROC_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#define PROC_COMM_MAX 64	/* the kernel's TASK_COMM_LEN is 16; room for escapes */
#define PROC_CGROUP_MAX 4096	/* raw /proc/PID/cgroup text */

/* What to read: proc_read() reads only what is asked for. */
enum {
	PROC_STAT = 1 << 0,	/* start_time, ppid, comm, kthread (/proc/PID/stat) */
	PROC_EXE = 1 << 1,	/* exe, exe_deleted, exe_dev, exe_ino (/proc/PID/exe) */
	PROC_STATUS = 1 << 2,	/* uid, rss_kib, swap_kib, pte_kib (/proc/PID/status) */
	PROC_OOM = 1 << 3,	/* oom_score, oom_score_adj */
	PROC_CGROUP = 1 << 4,	/* cgroup (/proc/PID/cgroup, raw) */
	PROC_ALL = 0x1f,
};

struct proc_facts {
	pid_t pid;
	unsigned have;				/* PROC_* bits actually read */
	/* PROC_STAT */
	unsigned long long start_time;		/* clock ticks after boot: with pid, a process identity */
	pid_t ppid;
	char comm[PROC_COMM_MAX];		/* hostile: may hold ')', spaces, newlines */
	bool kthread;				/* PF_KTHREAD: never touched */
	/* PROC_EXE */
	bool has_exe;				/* false for kernel threads, zombies, links we may not read */
	char exe[PATH_MAX];			/* readlink of /proc/PID/exe, " (deleted)" removed */
	bool exe_deleted;			/* the file was replaced or removed since exec */
	dev_t exe_dev;				/* the file the kernel runs (stat of /proc/PID/exe) */
	ino_t exe_ino;
	/* PROC_STATUS */
	uid_t uid;				/* real uid */
	long rss_kib;				/* RssAnon + RssFile + RssShmem: the kernel's get_mm_rss */
	long swap_kib;				/* VmSwap */
	long pte_kib;				/* VmPTE: page tables count in the badness too */
	/* PROC_OOM */
	int oom_score;				/* /proc/PID/oom_score, 0..2000 */
	int oom_score_adj;
	/* PROC_CGROUP */
	char cgroup[PROC_CGROUP_MAX];		/* raw "ID:CONTROLLERS:PATH" lines */
};

/* The procfs mount; tests point it at a fake tree. Default "/proc". */
extern const char *proc_root;

/* Reads the facts `what` of pid. 0, -ESRCH when the process is gone (or a zombie
 * for PROC_EXE is not an error: has_exe = false), other -errno. */
int proc_read(pid_t pid, unsigned what, struct proc_facts *pf);

/* Parses the text of /proc/PID/stat (name from the last ')'). 0 or -EINVAL. */
int proc_parse_stat(const char *text, struct proc_facts *pf);

/* Lists every pid (thread group leaders) under proc_root. Returns count or -errno;
 * *pids is malloc'd. */
int proc_list(pid_t **pids);

/* The start time of pid (stat field 22); 0 or -errno. */
int proc_start_time(pid_t pid, unsigned long long *start_time);

#endif
