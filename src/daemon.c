/* daemon.c - the daemon's loop: events -> enforce, reloads, rescans, status, clean exit. */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "daemon.h"
#include "enforce.h"
#include "events.h"
#include "killer.h"
#include "log.h"
#include "match.h"
#include "notify.h"
#include "proc.h"
#include "state.h"

/* Editors write a file in several steps (truncate, write, rename): one reload
 * after the burst settles, not one per step. */
#define RELOAD_SETTLE_MS 50
/* Forks and exits matter only while some process's value is ours; once none
 * is, we stop hearing of them after this long (a listed program launched again
 * and again would otherwise switch them on and off each time). */
#define TRACK_LINGER_MS 2000
/* A storm of ENOBUFS must not become a storm of log lines. */
#define LOST_LOG_INTERVAL_MS 1000
/* How long a status client may take to read its answer. */
#define STATUS_SEND_TIMEOUT_MS 1000

enum { TAG_EVENTS = 1, TAG_SIGNAL, TAG_INOTIFY, TAG_STATUS, TAG_KILLER, TAG_HOLD };

struct watch {
	int wd;
	char *dir;
	char *name;	/* the entry of dir we care for; NULL: any *.conf (a drop-in dir) */
};

struct daemon_counters {
	unsigned long long events, rescans, enobufs, reloads, reload_failures, held;
};

struct daemon {
	const struct globals *g;
	const struct daemon_options *o;
	struct ruleset *rs;
	struct state st;
	struct enforcer e;
	struct event_source *src;	/* NULL: polling */
	struct event_source *hold;	/* --zero-window: fanotify on the listed files, or NULL */
	struct killer *killer;
	int epfd, sigfd, inofd, statusfd;
	struct watch *watches;
	size_t n_watches;
	struct daemon_counters c;
	unsigned want;			/* EVENTS_* the rules need */
	bool tracking;			/* something is ours: hear forks and exits too */
	uint64_t untrack_ms;		/* when to stop hearing them, nothing being ours */
	bool exe_filter;		/* every selector names an exe: an exec can be judged by its path */
	bool hold_covers;		/* every selector names an exact file and no comm: with --zero-window,
					 * the held execs are all the execs that can concern us */
	char **exe_real;		/* rule paths that are symlinks, resolved at load */
	size_t n_exe_real;
	bool rescan_now, stop;
	uint64_t next_rescan_ms, reload_due_ms;	/* CLOCK_MONOTONIC; 0 = none */
	const char *reload_why;		/* what asked for the pending reload */
	uint64_t lost_logged_ms;
	unsigned long long lost_unlogged;
	time_t started;
	char status_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static unsigned rescan_interval_ms(const struct daemon *d)
{
	unsigned ms = d->rs->settings.rescan_interval_ms;

	if (d->src == NULL && (ms == 0 || ms > POLL_INTERVAL_MS))
		return POLL_INTERVAL_MS;
	return ms;	/* 0: only when events were lost */
}

static void schedule_rescan(struct daemon *d)
{
	unsigned ms = rescan_interval_ms(d);

	d->next_rescan_ms = ms ? now_ms() + ms : 0;
}

static void exe_real_free(struct daemon *d)
{
	size_t i;

	for (i = 0; i < d->n_exe_real; i++)
		free(d->exe_real[i]);
	free(d->exe_real);
	d->exe_real = NULL;
	d->n_exe_real = 0;
}

/* Remembers what an exact rule path resolves to when that differs (a symlink:
 * /proc/PID/exe shows the target). */
static void exe_real_add(struct daemon *d, const struct cond *c)
{
	char real[PATH_MAX], **v;

	if (c->is_glob || realpath(c->pattern, real) == NULL || strcmp(real, c->pattern) == 0)
		return;
	v = realloc(d->exe_real, (d->n_exe_real + 1) * sizeof(*v));
	if (v == NULL)
		return;
	d->exe_real = v;
	if ((v[d->n_exe_real] = strdup(real)) != NULL)
		d->n_exe_real++;
}

/* What the rules need to hear of: uid and comm changes only when a rule looks at them. */
static void study_rules(struct daemon *d)
{
	size_t i, j, k;

	exe_real_free(d);
	d->want = EVENTS_EXEC;
	d->exe_filter = true;
	d->hold_covers = true;
	for (i = 0; i < d->rs->n_rules; i++) {
		const struct rule *r = &d->rs->rules[i];

		for (j = 0; j < r->n_sels; j++) {
			bool has_exe = false;

			for (k = 0; k < r->sels[j].n_conds; k++) {
				enum cond_kind kind = r->sels[j].conds[k].kind;

				if (kind == COND_USER)
					d->want |= EVENTS_UID;
				else if (kind == COND_COMM) {
					d->want |= EVENTS_COMM;
					d->hold_covers = false;	/* comm changes at exec, after the hold */
				} else if (kind == COND_EXE) {
					has_exe = true;
					if (r->sels[j].conds[k].is_glob)
						d->hold_covers = false;
					exe_real_add(d, &r->sels[j].conds[k]);
				}
			}
			if (!has_exe)
				d->exe_filter = false;
			if (!has_exe)
				d->hold_covers = false;
		}
	}
}

/* Could an exe condition of the rules hold for path? A superset of the matcher:
 * fnmatch without FNM_PATHNAME lets '*' match more, never less; a rule path that
 * is a symlink is compared through what it resolved to at the last reload too. */
static bool exe_may_match(const struct daemon *d, const char *path)
{
	const struct ruleset *rs = d->rs;
	size_t i, j, k;

	for (i = 0; i < rs->n_rules; i++)
		for (j = 0; j < rs->rules[i].n_sels; j++)
			for (k = 0; k < rs->rules[i].sels[j].n_conds; k++) {
				const struct cond *c = &rs->rules[i].sels[j].conds[k];

				if (c->kind != COND_EXE)
					continue;
				if (c->is_glob ? fnmatch(c->pattern, path, 0) == 0 : strcmp(c->pattern, path) == 0)
					return true;
			}
	for (i = 0; i < d->n_exe_real; i++)
		if (strcmp(d->exe_real[i], path) == 0)
			return true;
	return false;
}

/* An exec of a process we never changed, with rules that all name executables:
 * one readlink tells whether it can concern us. Most execs end here. */
static bool exec_is_foreign(struct daemon *d, pid_t pid)
{
	char link[64], exe[PATH_MAX];
	ssize_t n;

	if (!d->exe_filter || state_find(&d->st, pid) != NULL)
		return false;
	snprintf(link, sizeof(link), "%s/%d/exe", proc_root, (int)pid);
	n = readlink(link, exe, sizeof(exe) - 1);
	if (n < 0)
		return errno == ENOENT;	/* gone already; anything else: look closer */
	exe[n] = '\0';
	if ((size_t)n > 10 && strcmp(exe + n - 10, " (deleted)") == 0)
		exe[n - 10] = '\0';
	return !exe_may_match(d, exe);
}

static void tracking_update(struct daemon *d);

/* A process waits at exec of a listed file: its verdict, written before it runs. */
static void exec_held(struct daemon *d, const struct event *ev)
{
	char link[64], exe[PATH_MAX];
	struct stat st;
	ssize_t n;

	d->c.held++;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", ev->fd);
	n = readlink(link, exe, sizeof(exe) - 1);
	if (n < 0 || fstat(ev->fd, &st) != 0)
		return;		/* the exec event that follows still judges it */
	exe[n] = '\0';
	enforce_exec_hold(&d->e, ev->pid, exe, st.st_dev, st.st_ino);
	/* Before the exec goes on: a value now ours must have its process's next
	 * exec heard of (no leak), so the proc connector widens first. */
	tracking_update(d);
}

static void on_event(void *ctx, const struct event *ev)
{
	struct daemon *d = ctx;

	d->c.events++;
	switch (ev->kind) {
	case EVENT_FORK:
		if (state_find(&d->st, ev->parent) != NULL)
			enforce_fork(&d->e, ev->parent, ev->pid);
		break;
	case EVENT_EXEC:
		if (!exec_is_foreign(d, ev->pid))
			enforce_pid(&d->e, ev->pid);
		break;
	case EVENT_UID:
	case EVENT_COMM:
		enforce_pid(&d->e, ev->pid);
		break;
	case EVENT_EXIT:
		if (state_find(&d->st, ev->pid) != NULL)
			state_forget(&d->st, ev->pid);
		break;
	case EVENT_EXEC_HOLD:
		exec_held(d, ev);
		break;
	}
}

static void adopt_children(struct daemon *d);

static void rescan(struct daemon *d)
{
	d->rescan_now = false;
	d->c.rescans++;
	if (d->src == NULL)
		adopt_children(d);	/* polling hears no forks: children of ours are found by ppid */
	enforce_all(&d->e);	/* also forgets entries whose exit we missed */
	schedule_rescan(d);
}

/* --- the event source --- */

static unsigned source_want(const struct daemon *d)
{
	unsigned want = d->want | (d->tracking ? EVENTS_FORK | EVENTS_EXIT : 0);

	/* Held execs tell us of every exec a rule can name; while no value is ours
	 * (no leak to prevent) the proc connector need not wake us for the others. */
	if (d->hold != NULL && d->hold_covers && !d->tracking)
		want &= ~(unsigned)EVENTS_EXEC;
	/* The kernel reads an empty filter as "everything" (cn_proc_mcast_ctl);
	 * uid changes are the rarest events, and harmless to judge. */
	return want != 0 ? want : EVENTS_UID;
}

/* While forks were not heard of, a process whose value is ours may have forked:
 * its children (their ppid holds an entry) get the entry now, and enforce_pid
 * judges them (one that ran another program meanwhile gets its original back).
 * Again for their children, a few generations deep. */
static void adopt_children(struct daemon *d)
{
	bool found = true;
	int pass, n, i;

	for (pass = 0; found && pass < 8; pass++) {
		pid_t *pids = NULL;

		found = false;
		n = proc_list(&pids);
		for (i = 0; i < n; i++) {
			struct proc_facts pf;

			if (state_find(&d->st, pids[i]) != NULL || proc_read(pids[i], PROC_STAT, &pf) < 0 ||
			    pf.ppid <= 0 || state_find(&d->st, pf.ppid) == NULL)
				continue;
			enforce_fork(&d->e, pf.ppid, pids[i]);
			enforce_pid(&d->e, pids[i]);
			if (state_find(&d->st, pids[i]) != NULL)
				found = true;	/* still ours: it may have children too */
		}
		free(pids);
	}
}

/* Forks and exits are heard only while some value is ours: with nothing ours,
 * an unlisted exec costs one event instead of three. */
static void tracking_update(struct daemon *d)
{
	if (d->src == NULL)
		return;
	if (d->st.count > 0) {
		d->untrack_ms = 0;
		if (d->tracking)
			return;
		d->tracking = true;
		if (d->src->set_want(d->src, source_want(d)) < 0)
			log_warn("cannot widen the event filter, continuing");
		adopt_children(d);
	} else if (d->tracking && d->untrack_ms == 0) {
		d->untrack_ms = now_ms() + TRACK_LINGER_MS;
	} else if (d->tracking && now_ms() >= d->untrack_ms) {
		d->tracking = false;
		d->untrack_ms = 0;
		d->src->set_want(d->src, source_want(d));	/* failing, we only hear more */
	}
}

static int epoll_add(int epfd, int fd, int tag)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)tag };

	return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0 ? -errno : 0;
}

/* Takes *src out of the loop (if it was in) and frees it; *src becomes NULL. */
static void source_close(struct daemon *d, struct event_source **src)
{
	if (*src == NULL)
		return;
	epoll_ctl(d->epfd, EPOLL_CTL_DEL, (*src)->fd, NULL);
	(*src)->free(*src);
	*src = NULL;
}

/* Opens the proc connector for what the rules want; on failure says so and
 * leaves d->src NULL: the rescan timer then polls. */
static void events_open(struct daemon *d)
{
	struct event_source_options eo = { .want = source_want(d), .rcvbuf_bytes = d->o->test_rcvbuf_bytes };
	int r;

	source_close(d, &d->src);
	if (d->o->no_events) {
		log_info("no event source (test mode), polling every %u ms", POLL_INTERVAL_MS);
		return;
	}
	r = events_netlink_open(&d->src, &eo);
	if (r == 0)
		r = epoll_add(d->epfd, d->src->fd, TAG_EVENTS);
	if (r < 0) {
		source_close(d, &d->src);
		log_warnx("netlink proc connector unavailable: %s%s; polling every %u ms", strerror(-r),
			  r == -ETIMEDOUT || r == -EPERM ?
				  " (it serves only the initial user and pid namespaces, and before Linux 6.6 "
				  "only CAP_NET_ADMIN)" : "",
			  POLL_INTERVAL_MS);
		return;
	}
	log_debug("events from the %s%s", d->src->name,
		  d->src->kernel_filtered ? ", filtered by the kernel" : "");
}

static void events_handle(struct daemon *d)
{
	int r = d->src->drain(d->src, on_event, d);
	uint64_t now;

	if (r >= 0)
		return;
	if (r != -ENOBUFS) {
		errno = -r;
		log_warn("reading the %s, will rescan", d->src->name);
		d->rescan_now = true;
		return;
	}
	d->c.enobufs++;
	d->lost_unlogged++;
	d->rescan_now = true;
	now = now_ms();
	if (now - d->lost_logged_ms >= LOST_LOG_INTERVAL_MS) {
		log_warnx("events lost (receive buffer overrun, ENOBUFS x%llu), rescanning", d->lost_unlogged);
		d->lost_logged_ms = now;
		d->lost_unlogged = 0;
	}
}

/* --zero-window: marks every file the rules name exactly (and what the symlinks
 * among them resolved to). A file replaced since (a package upgrade) loses its
 * mark: each reload marks afresh, and meanwhile the proc connector still acts. */
static void hold_open(struct daemon *d)
{
	char **paths;
	size_t n = 0, cap, i, j, k;
	int r;

	source_close(d, &d->hold);
	if (!d->o->zero_window)
		return;
	cap = d->n_exe_real + 1;
	for (i = 0; i < d->rs->n_rules; i++)
		for (j = 0; j < d->rs->rules[i].n_sels; j++)
			cap += d->rs->rules[i].sels[j].n_conds;
	paths = calloc(cap, sizeof(*paths));
	if (paths == NULL) {
		log_warnx("zero-window: out of memory, the proc connector alone acts");
		return;
	}
	for (i = 0; i < d->rs->n_rules; i++)
		for (j = 0; j < d->rs->rules[i].n_sels; j++)
			for (k = 0; k < d->rs->rules[i].sels[j].n_conds; k++) {
				const struct cond *c = &d->rs->rules[i].sels[j].conds[k];

				if (c->kind == COND_EXE && !c->is_glob)
					paths[n++] = c->pattern;
			}
	for (i = 0; i < d->n_exe_real; i++)
		paths[n++] = d->exe_real[i];
	r = events_fanotify_open(&d->hold, paths, n);
	free(paths);
	if (r == 0)
		r = epoll_add(d->epfd, d->hold->fd, TAG_HOLD);
	if (r < 0) {
		source_close(d, &d->hold);
		log_warnx("zero-window: no fanotify exec-permission events: %s%s; the proc connector alone acts",
			  strerror(-r), r == -EPERM ? " (they need CAP_SYS_ADMIN)" :
			  r == -ENOENT ? " (none of the listed files exists)" : "");
		return;
	}
	log_info("zero-window: the listed files' execs wait for their values (%s)", d->hold->name);
}

/* Tells the proc connector what we want to hear of now. */
static void want_update(struct daemon *d)
{
	if (d->src != NULL && d->src->want != source_want(d) && d->src->set_want(d->src, source_want(d)) < 0)
		log_warn("cannot change the event filter, continuing");
}

static void hold_handle(struct daemon *d)
{
	int r = d->hold->drain(d->hold, on_event, d);

	if (r < 0) {
		errno = -r;
		log_warn("reading the %s, will rescan", d->hold->name);
		d->rescan_now = true;
	}
}

/* --- inotify on the config --- */

static void watches_free(struct daemon *d)
{
	size_t i;

	for (i = 0; i < d->n_watches; i++) {
		free(d->watches[i].dir);
		free(d->watches[i].name);
	}
	free(d->watches);
	d->watches = NULL;
	d->n_watches = 0;
}

#define WATCH_MASK (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ATTRIB | \
		    IN_DELETE_SELF | IN_MOVE_SELF)

/* Watches dir for entry name (NULL: any). 0 or -errno. */
static int watch_add(struct daemon *d, const char *dir, const char *name)
{
	struct watch *w;
	int wd;

	wd = inotify_add_watch(d->inofd, dir, WATCH_MASK | IN_ONLYDIR);
	if (wd < 0)
		return -errno;
	w = realloc(d->watches, (d->n_watches + 1) * sizeof(*w));
	if (w == NULL)
		return -ENOMEM;
	d->watches = w;
	w = &w[d->n_watches++];
	w->wd = wd;
	w->dir = strdup(dir);
	w->name = name ? strdup(name) : NULL;
	return 0;
}

/* Is dir the parent of one of paths? Then the watch of that file covers it:
 * /etc must not wake us for every *.conf in it. */
static bool parent_of_any(const char *dir, char *const *paths)
{
	size_t len = strlen(dir);

	for (; *paths != NULL; paths++)
		if (strncmp(*paths, dir, len) == 0 && (*paths)[len] == '/' && strchr(*paths + len + 1, '/') == NULL)
			return true;
	return false;
}

/* Watches one config path: a drop-in directory itself (any *.conf in it), a
 * file (existing or not) through its parent, so that creating it is seen too. */
static void watch_path(struct daemon *d, const char *path, char *const *all)
{
	char *copy = strdup(path), *slash;
	struct stat sb;

	if (copy == NULL)
		return;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		free(copy);
		if (!parent_of_any(path, all))
			watch_add(d, path, NULL);
		return;
	}
	slash = strrchr(copy, '/');
	if (slash != NULL && slash[1] != '\0') {
		*slash = '\0';
		watch_add(d, copy[0] ? copy : "/", slash + 1);
	}
	free(copy);
}

/* (Re)builds every watch: paths come and go with each reload. The inotify fd
 * lives as long as the daemon: a change made while we reload is still queued
 * for us. inotify_add_watch on a watched directory returns its old wd, so only
 * the watches no path needs any more are removed. */
static void watches_setup(struct daemon *d)
{
	struct config_source src;
	struct watch *old = d->watches;
	size_t n_old = d->n_watches, i, j;
	char **paths;

	if (d->inofd < 0) {
		d->inofd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
		if (d->inofd < 0 || epoll_add(d->epfd, d->inofd, TAG_INOTIFY) < 0) {
			log_warn("inotify, config changes need SIGHUP");
			return;
		}
	}
	d->watches = NULL;
	d->n_watches = 0;
	cmd_config_source(d->g, &src);
	paths = config_watch_paths(&src);
	for (i = 0; paths != NULL && paths[i] != NULL; i++)
		watch_path(d, paths[i], paths);
	for (i = 0; paths != NULL && paths[i] != NULL; i++)
		free(paths[i]);
	free(paths);
	for (i = 0; i < n_old; i++) {
		bool kept = false;

		for (j = 0; j < d->n_watches && !kept; j++)
			kept = d->watches[j].wd == old[i].wd;
		if (!kept)
			inotify_rm_watch(d->inofd, old[i].wd);
		free(old[i].dir);
		free(old[i].name);
	}
	free(old);
}

static bool watch_wants(const struct watch *w, const struct inotify_event *ie)
{
	size_t len;

	if (ie->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED))
		return w->name == NULL;
	if (ie->len == 0)
		return false;
	if (w->name != NULL)
		return strcmp(w->name, ie->name) == 0;
	len = strlen(ie->name);
	return len > 5 && strcmp(ie->name + len - 5, ".conf") == 0;
}

static void inotify_handle(struct daemon *d)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;
	bool relevant = false;

	while ((n = read(d->inofd, buf, sizeof(buf))) > 0) {
		char *p;

		for (p = buf; p < buf + n; p += sizeof(struct inotify_event) + ((struct inotify_event *)(void *)p)->len) {
			const struct inotify_event *ie = (const struct inotify_event *)(void *)p;
			size_t i;

			for (i = 0; i < d->n_watches; i++)
				if (d->watches[i].wd == ie->wd && watch_wants(&d->watches[i], ie))
					relevant = true;
		}
	}
	if (relevant && d->reload_due_ms == 0) {
		d->reload_due_ms = now_ms() + RELOAD_SETTLE_MS;
		d->reload_why = "the configuration changed";
	}
}

/* --- rules and reload --- */

/* The command line's killer options win over the config. */
static void apply_overrides(const struct daemon *d, struct ruleset *rs)
{
	if (d->o->killer)
		rs->settings.killer = true;
	if (d->o->killer_scope != NULL) {
		free(rs->settings.killer_scope);
		rs->settings.killer_scope = strdup(d->o->killer_scope);
	}
	if (d->o->killer_dry_run)
		rs->settings.killer_dry_run = true;
}

/* The effective rules as text: two rulesets are the same when these agree. */
static char *rules_text(const struct ruleset *rs)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return NULL;
	config_print(rs, f);
	fclose(f);
	return buf;
}

static bool same_rules(const struct ruleset *a, const struct ruleset *b)
{
	char *ta = rules_text(a), *tb = rules_text(b);
	bool same = ta != NULL && tb != NULL && strcmp(ta, tb) == 0;

	free(ta);
	free(tb);
	return same;
}

static void killer_sync(struct daemon *d)
{
	int r;

	if (d->killer != NULL && !d->rs->settings.killer) {
		epoll_ctl(d->epfd, EPOLL_CTL_DEL, killer_fd(d->killer), NULL);
		killer_free(d->killer);
		d->killer = NULL;
		log_info("early killer off");
	} else if (d->killer != NULL) {
		killer_set_rules(d->killer, d->rs);
	} else if (d->rs->settings.killer) {
		r = killer_new(&d->killer, d->rs);
		if (r == 0)
			r = epoll_add(d->epfd, killer_fd(d->killer), TAG_KILLER);
		if (r < 0) {
			errno = -r;
			log_warn("cannot start the early killer, continuing without it");
			if (d->killer != NULL)
				killer_free(d->killer);
			d->killer = NULL;
		}
	}
}

static void notify_ready(const struct daemon *d)
{
	char msg[160];

	snprintf(msg, sizeof(msg), "READY=1\nSTATUS=%zu rules, %zu processes changed, %s", d->rs->n_rules,
		 d->st.count, d->src ? "event-driven" : "polling");
	notify_send(msg);
}

static void reload(struct daemon *d)
{
	struct ruleset *nrs, *old;

	d->reload_due_ms = 0;
	log_info("reloading: %s", d->reload_why ? d->reload_why : "asked");
	d->reload_why = NULL;
	notify_reloading();
	nrs = calloc(1, sizeof(*nrs));
	if (nrs == NULL) {
		log_warnx("reload: out of memory, keeping the rules in force");
		goto out;
	}
	ruleset_init(nrs);
	if (cmd_load_rules(d->g, nrs) < 0) {
		log_warnx("reload failed, keeping the rules in force");
		d->c.reload_failures++;
		ruleset_free(nrs);
		free(nrs);
		goto out;
	}
	apply_overrides(d, nrs);
	if (same_rules(d->rs, nrs)) {
		/* The old ruleset stays (its rules have said their warnings once
		 * already); a pass still runs: what the rules see may have changed
		 * (a directory made root-only, a cgroup moved). */
		log_debug("reload: the rules did not change");
		ruleset_free(nrs);
		free(nrs);
		rescan(d);
		goto out;
	}
	old = d->rs;
	d->rs = nrs;
	d->e.rs = nrs;
	ruleset_free(old);
	free(old);
	d->c.reloads++;
	study_rules(d);
	killer_sync(d);
	hold_open(d);
	want_update(d);
	log_info("reloaded: %zu rule%s", d->rs->n_rules, d->rs->n_rules == 1 ? "" : "s");
	rescan(d);	/* new verdicts, and the processes no rule names any more restored */
out:
	watches_setup(d);
	notify_ready(d);
}

/* --- status --- */

static const char *action_word(const struct rule *r)
{
	return r->action == RULE_PARDON ? "pardon" : "score";
}

/* How many live processes each rule holds: one pass over /proc with the matcher. */
static size_t *rule_counts(const struct daemon *d)
{
	size_t *counts = calloc(d->rs->n_rules + 1, sizeof(*counts));
	pid_t *pids = NULL;
	int n, i;

	if (counts == NULL)
		return NULL;
	n = proc_list(&pids);
	for (i = 0; i < n; i++) {
		struct proc_facts pf;
		struct verdict v;

		if (proc_read(pids[i], MATCH_NEEDS, &pf) < 0)
			continue;
		match_process(d->rs, &pf, &v);
		if (v.kind == VERDICT_SET && v.rule != NULL)
			counts[v.rule - d->rs->rules]++;
	}
	free(pids);
	return counts;
}

static void status_write(const struct daemon *d, FILE *f)
{
	size_t *counts = rule_counts(d), i, j;
	const struct enforce_counters *ec = &d->e.c;
	char when[64];

	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %z", localtime(&d->started));
	fprintf(f, "pid: %d\n", (int)getpid());
	fprintf(f, "started: %s (%lld s ago)\n", when, (long long)(time(NULL) - d->started));
	if (d->src != NULL)
		fprintf(f, "events: %s%s\n", d->src->name, d->src->kernel_filtered ? " (filtered by the kernel)" : "");
	else
		fprintf(f, "events: none, polling every %u ms\n", rescan_interval_ms(d));
	fprintf(f, "zero window: %s\n", d->hold != NULL ? "on (the listed files' execs wait for their values)" :
		d->o->zero_window ? "asked for, unavailable" : "off");
	fprintf(f, "rescan interval: %u ms\n", rescan_interval_ms(d));
	fprintf(f, "early killer: %s\n", d->killer ? "on" : "off");
	fprintf(f, "keep at exit: %s\n", d->o->keep ? "yes" : "no");
	fprintf(f, "rules:%s\n", d->rs->embedded ? " (embedded default)" : "");
	for (i = 0; i < d->rs->n_rules; i++) {
		const struct rule *r = &d->rs->rules[i];

		fprintf(f, "  %s %d", action_word(r), r->score);
		for (j = 0; j < r->n_sels; j++)
			fprintf(f, " %s", r->sels[j].text);
		fprintf(f, " (%s:%u): %zu process%s\n", r->file ? r->file : "?", r->line, counts ? counts[i] : 0,
			counts && counts[i] == 1 ? "" : "es");
	}
	fprintf(f, "processes changed: %zu\n", d->st.count);
	fprintf(f, "counters:\n");
	fprintf(f, "  events: %llu\n", d->c.events);
	fprintf(f, "  held execs: %llu\n", d->c.held);
	fprintf(f, "  writes: %llu\n", ec->writes);
	fprintf(f, "  failures: %llu\n", ec->failures);
	fprintf(f, "  refused (no CAP_SYS_RESOURCE): %llu\n", ec->eacces);
	fprintf(f, "  restored: %llu\n", ec->restored);
	fprintf(f, "  rescans: %llu\n", d->c.rescans);
	fprintf(f, "  enobufs: %llu\n", d->c.enobufs);
	fprintf(f, "  reloads: %llu\n", d->c.reloads);
	fprintf(f, "  failed reloads: %llu\n", d->c.reload_failures);
	free(counts);
}

/* Listens on RUN_DIR/status.sock: each client gets the status text, then EOF.
 * A socket rather than a file: the counters are live, and a client that
 * connects knows a daemon runs. We hold the run dir's lock, so an old socket
 * file is stale. 0 or -errno. */
static int status_listen(struct daemon *d)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, n;
	mode_t old;

	n = snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/%s", d->g->run_dir, DAEMON_STATUS_SOCKET);
	if (n < 0 || (size_t)n >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(d->status_path, sa.sun_path, sizeof(sa.sun_path));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	unlink(sa.sun_path);
	old = umask(0077);	/* root only: each status walks /proc */
	n = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (n < 0 || listen(fd, 8) < 0 || epoll_add(d->epfd, fd, TAG_STATUS) < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	d->statusfd = fd;
	return 0;
}

static void status_handle(struct daemon *d)
{
	struct timeval tv = { .tv_sec = STATUS_SEND_TIMEOUT_MS / 1000,
			      .tv_usec = (STATUS_SEND_TIMEOUT_MS % 1000) * 1000 };
	char *buf = NULL;
	size_t len = 0, off = 0;
	FILE *f;
	int c;

	while ((c = accept4(d->statusfd, NULL, NULL, SOCK_CLOEXEC)) >= 0) {
		setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		f = open_memstream(&buf, &len);
		if (f != NULL) {
			status_write(d, f);
			fclose(f);
			for (off = 0; off < len;) {
				ssize_t w = send(c, buf + off, len - off, MSG_NOSIGNAL);

				if (w <= 0)
					break;
				off += (size_t)w;
			}
			free(buf);
			buf = NULL;
		}
		close(c);
	}
}

/* --- signals, pid file, the loop --- */

static int signals_setup(struct daemon *d)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -errno;
	signal(SIGPIPE, SIG_IGN);
	d->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (d->sigfd < 0)
		return -errno;
	return epoll_add(d->epfd, d->sigfd, TAG_SIGNAL);
}

static void log_counters(const struct daemon *d)
{
	log_info("%zu processes changed; events %llu, writes %llu, failures %llu, rescans %llu, enobufs %llu, "
		 "reloads %llu", d->st.count, d->c.events, d->e.c.writes, d->e.c.failures, d->c.rescans,
		 d->c.enobufs, d->c.reloads);
}

static void signal_handle(struct daemon *d)
{
	struct signalfd_siginfo si;

	while (read(d->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		switch (si.ssi_signo) {
		case SIGHUP:
			d->reload_due_ms = now_ms();	/* at once: the admin asked */
			d->reload_why = "SIGHUP";
			break;
		case SIGTERM:
		case SIGINT:
			d->stop = true;
			break;
		case SIGUSR1:
			log_counters(d);
			break;
		}
	}
}

static int wait_timeout_ms(const struct daemon *d)
{
	uint64_t now = now_ms(), next = 0;

	if (d->rescan_now)
		return 0;
	if (d->next_rescan_ms)
		next = d->next_rescan_ms;
	if (d->reload_due_ms && (next == 0 || d->reload_due_ms < next))
		next = d->reload_due_ms;
	if (d->untrack_ms && (next == 0 || d->untrack_ms < next))
		next = d->untrack_ms;
	if (next == 0)
		return -1;
	return next <= now ? 0 : (int)(next - now > INT_MAX ? INT_MAX : next - now);
}

static void loop(struct daemon *d)
{
	struct epoll_event evs[8];
	int n, i;

	while (!d->stop) {
		n = epoll_wait(d->epfd, evs, 8, wait_timeout_ms(d));
		if (n < 0 && errno != EINTR)
			fatal("epoll_wait");
		for (i = 0; i < n; i++) {
			switch (evs[i].data.u32) {
			case TAG_EVENTS:
				events_handle(d);
				break;
			case TAG_SIGNAL:
				signal_handle(d);
				break;
			case TAG_INOTIFY:
				inotify_handle(d);
				break;
			case TAG_STATUS:
				status_handle(d);
				break;
			case TAG_HOLD:
				hold_handle(d);
				break;
			case TAG_KILLER:
				if (d->killer != NULL && killer_handle(d->killer) < 0)
					log_warn("early killer");
				break;
			}
		}
		if (d->stop)
			break;
		if (d->reload_due_ms && now_ms() >= d->reload_due_ms)
			reload(d);
		if (d->rescan_now || (d->next_rescan_ms && now_ms() >= d->next_rescan_ms))
			rescan(d);
		tracking_update(d);
	}
}

static void shutdown_daemon(struct daemon *d)
{
	int failed;

	notify_send("STOPPING=1");
	source_close(d, &d->hold);
	source_close(d, &d->src);
	if (d->o->keep) {
		log_info("stopping, keeping %zu changed value%s (--keep)", d->st.count, d->st.count == 1 ? "" : "s");
	} else {
		size_t before = d->st.count;

		failed = enforce_restore_all(&d->e);
		if (failed > 0)
			log_warnx("stopping: %d value%s could not be restored", failed, failed == 1 ? "" : "s");
		else
			log_info("stopping: restored %zu value%s", before, before == 1 ? "" : "s");
	}
	if (d->statusfd >= 0) {
		close(d->statusfd);
		unlink(d->status_path);
	}
	if (d->killer != NULL)
		killer_free(d->killer);
	if (d->inofd >= 0)
		close(d->inofd);
	watches_free(d);
	exe_real_free(d);
	close(d->sigfd);
	close(d->epfd);
	state_close(&d->st);
	ruleset_free(d->rs);
	free(d->rs);
}

int daemon_run(const struct globals *g, const struct daemon_options *o)
{
	struct daemon d = { .g = g, .o = o, .inofd = -1, .statusfd = -1, .sigfd = -1 };
	pid_t other = 0;
	int r;

	d.started = time(NULL);
	d.rs = calloc(1, sizeof(*d.rs));
	if (d.rs == NULL)
		fatalx("out of memory");
	ruleset_init(d.rs);
	if (cmd_load_rules(g, d.rs) < 0) {
		ruleset_free(d.rs);
		free(d.rs);
		return EXIT_USAGE;
	}
	apply_overrides(&d, d.rs);
	r = state_open(&d.st, g->run_dir, false);
	if (r < 0) {
		if (r == -EWOULDBLOCK && state_daemon_pid(g->run_dir, &other) == 0)
			log_warnx("cannot use %s: %s (pid %d), exiting", g->run_dir, state_strerror(r), (int)other);
		else
			log_warnx("cannot use %s: %s, exiting", g->run_dir, state_strerror(r));
		ruleset_free(d.rs);
		free(d.rs);
		return EXIT_ACTION_FAILED;
	}
	if ((r = state_write_pid(&d.st)) < 0) {	/* state_close removes it */
		errno = -r;
		log_warn("cannot write the pid file in %s, pardon will not signal us (we still see its changes)",
			 g->run_dir);
	}
	d.e.rs = d.rs;
	d.e.st = &d.st;
	d.epfd = epoll_create1(EPOLL_CLOEXEC);
	if (d.epfd < 0)
		fatal("epoll_create1");
	if ((r = signals_setup(&d)) < 0) {
		errno = -r;
		fatal("signals");
	}
	if ((r = status_listen(&d)) < 0) {
		errno = -r;
		log_warn("no status socket in %s, continuing", g->run_dir);
	}
	study_rules(&d);
	/* Listen first, then the full pass: nothing that starts in between is missed. */
	events_open(&d);
	hold_open(&d);
	want_update(&d);
	watches_setup(&d);
	killer_sync(&d);
	enforce_all(&d.e);	/* also forgets a predecessor's entries of processes gone since */
	tracking_update(&d);
	schedule_rescan(&d);
	log_info("running: %zu rule%s%s, %zu process%s changed, %s", d.rs->n_rules, d.rs->n_rules == 1 ? "" : "s",
		 d.rs->embedded ? " (embedded default)" : "", d.st.count, d.st.count == 1 ? "" : "es",
		 d.src ? "event-driven" : "polling");
	notify_ready(&d);
	loop(&d);
	shutdown_daemon(&d);
	return 0;
}
