/* events.h - where the daemon hears of processes: one interface, any kernel source behind it. */
#ifndef OOMPARDON_EVENTS_H
#define OOMPARDON_EVENTS_H

#include <stdbool.h>
#include <sys/types.h>

enum event_kind {
	EVENT_FORK,	/* pid: the new process; parent: the process that forked it */
	EVENT_EXEC,	/* pid runs a new program */
	EVENT_UID,	/* pid changed its uids */
	EVENT_COMM,	/* pid changed its comm */
	EVENT_EXIT,	/* pid (the whole process) is gone */
	EVENT_EXEC_HOLD,	/* pid is about to run the file fd; it waits until the callback returns */
};

struct event {
	enum event_kind kind;
	pid_t pid;	/* a process (thread group leader), never a thread */
	pid_t parent;	/* EVENT_FORK only */
	int fd;		/* EVENT_EXEC_HOLD only: the file being executed, open during the callback */
};

/* What the daemon wants to hear of (bits); a source may deliver more. */
enum {
	EVENTS_FORK = 1 << 0,
	EVENTS_EXEC = 1 << 1,
	EVENTS_UID = 1 << 2,
	EVENTS_COMM = 1 << 3,
	EVENTS_EXIT = 1 << 4,
};

/* Called for each event. A permission source (fanotify FAN_OPEN_EXEC_PERM) holds
 * the exec until it returns, so what the callback writes is in place before the
 * new program's first instruction. */
typedef void (*event_fn)(void *ctx, const struct event *ev);

struct event_source {
	const char *name;	/* for the log and status */
	int fd;			/* readable when events wait: the daemon polls it */
	unsigned want;		/* EVENTS_* asked for */
	bool kernel_filtered;	/* the kernel drops what we did not ask for */
	/* Hands every event ready now to fn. Count handled, -ENOBUFS when some were
	 * lost (the source stays usable: the caller rescans), other -errno. */
	int (*drain)(struct event_source *src, event_fn fn, void *ctx);
	/* Changes what we want to hear of, at once. 0 or -errno. */
	int (*set_want)(struct event_source *src, unsigned want);
	void (*free)(struct event_source *src);
};

struct event_source_options {
	unsigned want;		/* EVENTS_* */
	int rcvbuf_bytes;	/* > 0: force the receive buffer (tests make it tiny to lose events) */
};

/* The netlink proc connector. 0; -EPERM when the kernel refuses us (it serves
 * only the initial user and pid namespaces; before 6.6 only CAP_NET_ADMIN);
 * -ETIMEDOUT when it never answered; other -errno. */
int events_netlink_open(struct event_source **src, const struct event_source_options *o);

/* fanotify exec-permission events on the files paths (count n) only: the exec of
 * such a file waits until the callback has run, so the value is in place before
 * the new program's first instruction, and no other exec wakes us. Needs
 * CAP_SYS_ADMIN. 0; -ENOENT when none of the paths could be marked; other -errno. */
int events_fanotify_open(struct event_source **src, char *const *paths, size_t n);

#endif
