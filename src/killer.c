/* killer.c - the early OOM killer: watches the scope's memory, takes whom the kernel would take
 * (never the pardoned), kills through a pidfd and waits for the memory to come back. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "badness.h"
#include "cgroup.h"
#include "hook.h"
#include "killer.h"
#include "log.h"
#include "match.h"
#include "meminfo.h"
#include "proc.h"
#include "psi.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_process_mrelease
#define SYS_process_mrelease 448
#endif

/* After SIGKILL a victim in uninterruptible sleep may take a while; past this we
 * stop waiting for it and may choose another. */
#define KILLER_EXIT_WAIT_MS 10000U
/* A dry run repeats "would kill" for the same victim at most this often. */
#define KILLER_DRY_REPEAT_MS 10000U
/* Memory is low but nobody may be killed (only the pardoned left, or a dry
 * run): each look scans every process, so look at this slower pace. */
#define KILLER_NOTHING_TO_DO_MS 500U
/* Processes that did not exit after SIGKILL: skipped from then on. */
#define KILLER_STUCK_MAX 8

enum { TAG_TIMER = 1, TAG_PSI, TAG_VICTIM, TAG_USAGE };

enum kstate {
	KS_WATCH,	/* checking memory */
	KS_TERM,	/* SIGTERM sent: waiting for the exit or the end of the grace */
	KS_KILL,	/* SIGKILL sent: waiting for the exit */
};

struct victim {
	pid_t pid;
	unsigned long long start_time;
	int pidfd;
	bool exited;
};

struct stuck {
	pid_t pid;
	unsigned long long start_time;
};

struct cand;

struct killer {
	const struct ruleset *rs;
	int epfd, timerfd, psifd;
	bool in_cgroup;			/* scope: a memory cgroup, else the system */
	struct memcg cg;
	char *psi_trigger;		/* armed trigger, for reloads */
	unsigned long psi_window_us;
	uint64_t psi_quiet_until_ms;	/* pressure averages still show the last kill */
	bool psi_fired;
	int usagefd;			/* v1: eventfd the kernel signals when usage crosses ... */
	unsigned long long usage_threshold_bytes;	/* ... this: limit - killer-mem-min */
	bool usage_event_refused;	/* the kernel would not arm it: the timer alone */
	struct mem_state sys;		/* the last sample */
	struct memcg_sample cs;

	enum kstate state;
	uint64_t deadline_ms;
	struct victim *victims;		/* [0] is the one chosen; the rest its group or cgroup */
	size_t n_victims, cap_victims;
	bool use_cgroup_kill;
	char cgroup_kill_dir[PATH_MAX];
	int last_signal;

	/* the facts of the chosen victim, for the log and the hook */
	struct proc_facts *cur, *best;
	struct cand *cands;		/* pick()'s ranking, kept to spare a malloc when memory is short */
	size_t cap_cands;
	long best_points;
	size_t n_unreadable;		/* processes pick() could not read (not gone) ... */
	int unreadable_err;		/* ... and the last errno why */
	char best_rule[PATH_MAX + 32];
	char reason[512];

	bool episode_reported;		/* "only pardoned left" said once while memory stays low */
	uint64_t nobody_since_ms;	/* when pick() first found nobody, 0 = it did find */
	pid_t dry_pid;
	unsigned long long dry_start;
	uint64_t dry_until_ms;
	struct stuck stuck[KILLER_STUCK_MAX];
	size_t n_stuck;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static const struct settings *cfg(const struct killer *k)
{
	return &k->rs->settings;
}

static const char *scope_name(const struct killer *k)
{
	return k->in_cgroup ? k->cg.dir : "the system";
}

/* Arms the one-shot timer ms from now (0: at once). */
static void arm(struct killer *k, unsigned ms)
{
	struct itimerspec its = { 0 };

	if (ms == 0)
		its.it_value.tv_nsec = 1;	/* a zero value would disarm */
	else {
		its.it_value.tv_sec = ms / 1000;
		its.it_value.tv_nsec = (long)(ms % 1000) * 1000000;
	}
	timerfd_settime(k->timerfd, 0, &its, NULL);
}

static void format_kib(char *buf, size_t len, unsigned long long kib)
{
	if (kib >= 1024ULL * 1024)
		snprintf(buf, len, "%.1f GiB", (double)kib / (1024.0 * 1024.0));
	else if (kib >= 1024)
		snprintf(buf, len, "%.1f MiB", (double)kib / 1024.0);
	else
		snprintf(buf, len, "%llu KiB", kib);
}

/* The scope's memory now. 0 or -errno. */
static int sample(struct killer *k, struct mem_state *ms, struct mem_thresholds *t)
{
	const struct settings *s = cfg(k);
	int r;

	r = meminfo_system(proc_root, &k->sys);
	if (r < 0)
		return r;
	if (!k->in_cgroup)
		*ms = k->sys;
	else {
		r = meminfo_memcg_sample(k->cg.dir, k->cg.v2, &k->cs);
		if (r < 0)
			return r;
		meminfo_memcg_combine(&k->cs, &k->sys, ms);
	}
	meminfo_thresholds(s->killer_mem_min_pct, s->killer_mem_min_kib, s->killer_swap_min_pct,
			   s->killer_swap_min_kib, ms, t);
	return 0;
}

static void describe_low(struct killer *k, const struct mem_state *ms, const struct mem_thresholds *t)
{
	char avail[32], mmin[32], total[32], sfree[32], smin[32];

	format_kib(avail, sizeof(avail), ms->mem_avail_kib);
	format_kib(mmin, sizeof(mmin), t->mem_min_kib);
	format_kib(total, sizeof(total), ms->mem_total_kib);
	format_kib(sfree, sizeof(sfree), ms->swap_free_kib);
	format_kib(smin, sizeof(smin), t->swap_min_kib);
	if (ms->swap_total_kib == 0)
		snprintf(k->reason, sizeof(k->reason), "available memory %s < %s of %s, no swap",
			 avail, mmin, total);
	else
		snprintf(k->reason, sizeof(k->reason), "available memory %s < %s of %s, free swap %s < %s",
			 avail, mmin, total, sfree, smin);
}

static bool is_stuck(const struct killer *k, const struct proc_facts *pf)
{
	size_t i;

	for (i = 0; i < k->n_stuck; i++)
		if (k->stuck[i].pid == pf->pid && k->stuck[i].start_time == pf->start_time)
			return true;
	return false;
}

/* The scope's pids. Count or -errno; *pids malloc'd. */
static int scope_pids(const struct killer *k, pid_t **pids)
{
	return k->in_cgroup ? cgroup_memcg_pids(&k->cg, pids) : proc_list(pids);
}

enum { SKIP, SPARE, KILLABLE };

/* Reads pid and decides whether the killer may touch it: never kernel threads
 * or zombies (SKIP), never PID 1, ourselves, the pardoned (by the rules'
 * verdict, even where the kernel refused the write) or anything at -1000
 * (SPARE). A score rule counts as the kernel would count it once written:
 * pf->oom_score_adj becomes the verdict's score. KILLABLE, SKIP, SPARE, or
 * -errno when unreadable (gone). */
static int consider(const struct killer *k, pid_t pid, struct proc_facts *pf, struct verdict *v)
{
	int r;

	if (pid <= 1 || pid == getpid())
		return SPARE;
	r = proc_read(pid, MATCH_NEEDS | PROC_OOM, pf);
	if (r < 0)
		return r;
	if (pf->kthread || !pf->has_exe)
		return SKIP;
	match_process(k->rs, pf, v);
	if (v->pardoned)
		return SPARE;
	if (v->kind == VERDICT_SET)
		pf->oom_score_adj = v->score;
	if (pf->oom_score_adj <= OOM_ADJ_MIN)
		return SPARE;
	return KILLABLE;
}

/* A process and the most points it can have: what the kernel counts now. */
struct cand {
	pid_t pid;
	int seen;	/* position in the scan: on equal points the later one wins */
	long upper;
};

/* Highest first; on equal points the one met later in the scan first, as
 * oom_evaluate_task() replaces its choice on equal points. */
static int by_upper(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->upper != y->upper)
		return x->upper > y->upper ? -1 : 1;
	return x->seen > y->seen ? -1 : 1;
}

/* Pass one, cheap (status and oom files only): every process with the points
 * the kernel gives it now, best first, in k->cands. Count or -errno. */
static int rank(struct killer *k, const pid_t *pids, int n, long totalpages)
{
	struct cand *c;
	int i, r, m = 0;

	if ((size_t)n > k->cap_cands) {
		c = realloc(k->cands, (size_t)n * sizeof(*c));
		if (!c)
			return -ENOMEM;
		k->cands = c;
		k->cap_cands = (size_t)n;
	}
	for (i = 0; i < n; i++) {
		long points;

		if (pids[i] <= 1 || pids[i] == getpid())
			continue;
		k->cur->kthread = false;	/* not read here; pass two checks */
		r = proc_read(pids[i], PROC_STATUS | PROC_OOM, k->cur);
		if (r < 0 && r != -ESRCH) {
			k->n_unreadable++;
			k->unreadable_err = -r;
		}
		if (r < 0)
			continue;
		points = badness_points(k->cur, totalpages);
		if (points != BADNESS_UNKILLABLE)
			k->cands[m++] = (struct cand){ pids[i], i, points };
	}
	if (m > 1)
		qsort(k->cands, (size_t)m, sizeof(*k->cands), by_upper);
	return m;
}

/* Chooses the process the kernel would take in the scope, in k->best. The
 * rules only lower what the kernel counts (a raise is written, a refused
 * lowering is not): so pass two reads and matches in full only the best
 * ranked, until no one left can beat the choice. In a 256 MiB VM under tcg
 * reading every process in full took 80-160 ms for 47 processes, longer than
 * a hog takes to fill the last 10 %. 1 found, 0 nothing killable, -errno. */
static int pick(struct killer *k, const pid_t *pids, int n, long totalpages)
{
	struct verdict v;
	int i, m, r, best_seen = -1;

	k->best_points = LONG_MIN;
	k->n_unreadable = 0;
	m = rank(k, pids, n, totalpages);
	if (m < 0)
		return m;
	for (i = 0; i < m; i++) {
		const struct cand *c = &k->cands[i];
		struct proc_facts *swap;
		long points;

		if (best_seen >= 0 && c->upper < k->best_points)
			break;
		r = consider(k, c->pid, k->cur, &v);
		if (r < 0 && r != -ESRCH) {
			k->n_unreadable++;
			k->unreadable_err = -r;
		}
		if (r != KILLABLE || is_stuck(k, k->cur))
			continue;	/* or exited meanwhile */
		points = badness_points(k->cur, totalpages);
		if (points == BADNESS_UNKILLABLE || points < k->best_points ||
		    (points == k->best_points && c->seen < best_seen))
			continue;
		k->best_points = points;
		best_seen = c->seen;
		swap = k->best;
		k->best = k->cur;
		k->cur = swap;
		if (v.rule)
			snprintf(k->best_rule, sizeof(k->best_rule), "rule %s:%u", v.rule->file, v.rule->line);
		else
			snprintf(k->best_rule, sizeof(k->best_rule), "no rule");
	}
	return best_seen >= 0 ? 1 : 0;
}

static long scope_totalpages(const struct killer *k)
{
	long t = 0;

	if (k->in_cgroup)
		return cgroup_memcg_totalpages(&k->cg);
	if (badness_global_totalpages(&t) < 0)
		return 0;
	return t;
}

/* Opens a pidfd for pf and checks it is still the same process. fd or -errno. */
static int open_verified(const struct proc_facts *pf)
{
	unsigned long long start;
	long fd;

	fd = syscall(SYS_pidfd_open, pf->pid, 0);
	if (fd < 0)
		return -errno;
	/* The pidfd pins the pid: if the start time matches now, it is our process. */
	if (proc_start_time(pf->pid, &start) < 0 || start != pf->start_time) {
		close((int)fd);
		return -ESRCH;
	}
	return (int)fd;
}

static int add_victim(struct killer *k, const struct proc_facts *pf, int pidfd)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct victim *nv;

	if (k->n_victims == k->cap_victims) {
		size_t cap = k->cap_victims ? k->cap_victims * 2 : 8;

		nv = realloc(k->victims, cap * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		k->victims = nv;
		k->cap_victims = cap;
	}
	ev.data.u64 = (uint64_t)TAG_VICTIM << 32 | k->n_victims;
	if (epoll_ctl(k->epfd, EPOLL_CTL_ADD, pidfd, &ev) < 0)
		return -errno;
	k->victims[k->n_victims++] = (struct victim){
		.pid = pf->pid, .start_time = pf->start_time, .pidfd = pidfd,
	};
	return 0;
}

static void drop_victims(struct killer *k)
{
	size_t i;

	for (i = 0; i < k->n_victims; i++)
		close(k->victims[i].pidfd);	/* closing removes it from the epoll set */
	k->n_victims = 0;
	k->use_cgroup_kill = false;
}

/* The chosen victim's process group or cgroup, within the scope: every member
 * the killer may touch joins k->victims; pardoned members are spared (and then
 * cgroup.kill, which spares nobody, is not used). */
static void add_members(struct killer *k, const pid_t *pids, int n)
{
	struct memcg vcg;
	struct verdict v;
	pid_t *cpids = NULL, pgid = -1;
	char path[PATH_MAX];
	int i, r, fd, spared = 0;

	if (cfg(k)->killer_target == KILLER_TARGET_GROUP) {
		pgid = getpgid(k->best->pid);
		if (pgid < 0)
			return;
	} else {
		if (cgroup_path_of(k->best->cgroup, "memory", path, sizeof(path)) < 0 &&
		    cgroup_path_of(k->best->cgroup, "", path, sizeof(path)) < 0)
			return;
		/* The root cgroup holds everything not placed elsewhere: not a unit to kill. */
		if (strcmp(path, "/") == 0) {
			log_info("%d is in the root cgroup, killing it alone", k->best->pid);
			return;
		}
		if (cgroup_memcg_resolve(path, &vcg) < 0)
			return;
		n = cgroup_memcg_pids(&vcg, &cpids);
		if (n < 0)
			return;
		pids = cpids;
	}
	for (i = 0; i < n; i++) {
		if (pids[i] == k->best->pid)
			continue;
		if (pgid > 0 && getpgid(pids[i]) != pgid)
			continue;
		r = consider(k, pids[i], k->cur, &v);
		if (r == SPARE)
			spared++;
		if (r != KILLABLE)
			continue;
		fd = open_verified(k->cur);
		if (fd < 0)
			continue;
		if (add_victim(k, k->cur, fd) < 0)
			close(fd);
	}
	if (cpids && vcg.v2 && spared == 0) {
		k->use_cgroup_kill = true;
		snprintf(k->cgroup_kill_dir, sizeof(k->cgroup_kill_dir), "%s", vcg.dir);
	}
	if (spared)
		log_info("sparing %d pardoned or unkillable member%s of %d's %s", spared, spared == 1 ? "" : "s",
			 k->best->pid, pgid > 0 ? "process group" : "cgroup");
	free(cpids);
}

static void signal_victims(struct killer *k, int sig)
{
	size_t i;
	int fd;

	if (sig == SIGKILL && k->use_cgroup_kill) {
		char path[PATH_MAX + 16];

		snprintf(path, sizeof(path), "%s/cgroup.kill", k->cgroup_kill_dir);
		/* also takes whatever forked since; the pidfds below get SIGKILL too, harmlessly */
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "1", 1) != 1)
			log_warn("cannot write %s, killing the members one by one", path);
		if (fd >= 0)
			close(fd);
	}
	for (i = 0; i < k->n_victims; i++) {
		if (k->victims[i].exited)
			continue;
		if (syscall(SYS_pidfd_send_signal, k->victims[i].pidfd, sig, NULL, 0) < 0 && errno != ESRCH)
			log_warn("cannot send %s to %d", sig == SIGKILL ? "SIGKILL" : "SIGTERM", k->victims[i].pid);
		/* process_mrelease reaps the address space at once, before the exit
		 * path gets to it; only possible once SIGKILL is pending. */
		if (sig == SIGKILL && syscall(SYS_process_mrelease, k->victims[i].pidfd, 0) < 0 &&
		    errno != ESRCH && errno != EINVAL)
			log_debug("process_mrelease %d: %s, the exit frees it", k->victims[i].pid, strerror(errno));
	}
	k->last_signal = sig;
}

static void run_hook(struct killer *k, bool exited)
{
	char e_pid[32], e_exe[PATH_MAX + 16], e_comm[PROC_COMM_MAX + 16], e_uid[32], e_rss[48], e_swap[48],
	     e_badness[48], e_scope[PATH_MAX + 32], e_reason[sizeof(k->reason) + 32], e_signal[32],
	     e_rule[sizeof(k->best_rule) + 32], e_exited[32], e_count[32];
	char *env[] = { e_pid, e_exe, e_comm, e_uid, e_rss, e_swap, e_badness, e_scope, e_reason,
			e_signal, e_rule, e_exited, e_count, NULL };
	const struct proc_facts *pf = k->best;
	int r;

	if (!cfg(k)->killer_hook)
		return;
	snprintf(e_pid, sizeof(e_pid), "OOMPARDON_PID=%d", pf->pid);
	snprintf(e_exe, sizeof(e_exe), "OOMPARDON_EXE=%s", pf->exe);
	snprintf(e_comm, sizeof(e_comm), "OOMPARDON_COMM=%s", pf->comm);
	snprintf(e_uid, sizeof(e_uid), "OOMPARDON_UID=%u", (unsigned)pf->uid);
	snprintf(e_rss, sizeof(e_rss), "OOMPARDON_RSS_KIB=%ld", pf->rss_kib);
	snprintf(e_swap, sizeof(e_swap), "OOMPARDON_SWAP_KIB=%ld", pf->swap_kib);
	snprintf(e_badness, sizeof(e_badness), "OOMPARDON_BADNESS=%ld", k->best_points);
	snprintf(e_scope, sizeof(e_scope), "OOMPARDON_SCOPE=%s", k->in_cgroup ? k->cg.dir : "system");
	snprintf(e_reason, sizeof(e_reason), "OOMPARDON_REASON=%s", k->reason);
	snprintf(e_signal, sizeof(e_signal), "OOMPARDON_SIGNAL=%s", k->last_signal == SIGKILL ? "KILL" : "TERM");
	snprintf(e_rule, sizeof(e_rule), "OOMPARDON_RULE=%s", k->best_rule);
	snprintf(e_exited, sizeof(e_exited), "OOMPARDON_EXITED=%s", exited ? "yes" : "no");
	snprintf(e_count, sizeof(e_count), "OOMPARDON_KILLED=%zu", k->n_victims);
	r = hook_spawn(cfg(k)->killer_hook, env);
	if (r < 0)
		log_warnx("cannot run the killer hook '%s': %s, going on", cfg(k)->killer_hook, strerror(-r));
	else
		log_debug("killer hook started as %d", r);
}

static int check(struct killer *k, uint64_t now);

/* The victims are gone (or given up): tell the hook, then look again at once. */
static int finish(struct killer *k, bool exited, uint64_t now)
{
	if (exited)
		log_info("%d exited, its memory is back", k->best->pid);
	run_hook(k, exited);
	drop_victims(k);
	k->state = KS_WATCH;
	/* The pressure averages still carry the stall that led here. */
	k->psi_quiet_until_ms = now + k->psi_window_us / 1000;
	k->psi_fired = false;
	return check(k, now);
}

/* Nothing killable is left but memory is low: the setting decides, once per episode. */
static void last_resort(struct killer *k)
{
	const struct settings *s = cfg(k);
	int fd;

	if (k->episode_reported)
		return;
	k->episode_reported = true;
	/* Unreadable is not pardoned: no last resort on what we could not see. */
	if (k->n_unreadable) {
		log_warnx("nobody to take in %s (%s), but %zu processes could not be read (%s): "
			  "leaving it to the kernel", scope_name(k), k->reason, k->n_unreadable,
			  strerror(k->unreadable_err));
		return;
	}
	switch (s->killer_last_resort) {
	case KILLER_LAST_COMMAND:
		log_warnx("only pardoned processes are left in %s (%s): %srunning '%s'", scope_name(k), k->reason,
			  s->killer_dry_run ? "dry run, not " : "", s->killer_last_resort_command);
		if (!s->killer_dry_run && s->killer_last_resort_command) {
			char e_scope[PATH_MAX + 32], e_reason[sizeof(k->reason) + 32];
			char *env[] = { e_scope, e_reason, NULL };
			int r;

			snprintf(e_scope, sizeof(e_scope), "OOMPARDON_SCOPE=%s", k->in_cgroup ? k->cg.dir : "system");
			snprintf(e_reason, sizeof(e_reason), "OOMPARDON_REASON=%s", k->reason);
			r = hook_spawn(s->killer_last_resort_command, env);
			if (r < 0)
				log_warnx("cannot run '%s': %s, leaving it to the kernel",
					  s->killer_last_resort_command, strerror(-r));
		}
		break;
	case KILLER_LAST_PANIC:
		if (k->in_cgroup) {
			log_warnx("only pardoned processes are left in %s (%s): a cgroup never panics the "
				  "machine, leaving it to the kernel", scope_name(k), k->reason);
			break;
		}
		log_warnx("only pardoned processes are left (%s): %scrashing the kernel through sysrq-c",
			  k->reason, s->killer_dry_run ? "dry run, not " : "");
		if (s->killer_dry_run)
			break;
		sync();
		fd = open("/proc/sysrq-trigger", O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "c", 1) != 1)
			log_warn("cannot write /proc/sysrq-trigger, leaving it to the kernel");
		if (fd >= 0)
			close(fd);
		break;
	default:
		log_warnx("only pardoned processes are left in %s (%s): leaving it to the kernel",
			  scope_name(k), k->reason);
		break;
	}
}

/* Nobody to take: the last resort, but only once that has lasted. A process
 * the kernel's own OOM killer is taking looks like nobody for a moment (its
 * memory is gone before it is), and no command, let alone a panic, should
 * run for that. */
static void nobody_left(struct killer *k, uint64_t now)
{
	if (k->nobody_since_ms == 0)
		k->nobody_since_ms = now;
	else if (now - k->nobody_since_ms >= KILLER_NOTHING_TO_DO_MS)
		last_resort(k);
}

/* The one line per kill: whom, why, and what comes next. */
static void log_kill(struct killer *k, const char *what, const char *next)
{
	char rss[32];

	format_kib(rss, sizeof(rss), (unsigned long long)k->best->rss_kib);
	log_notice("%s %d %s (badness %ld, rss %s, %s) in %s: %s; %s", what, k->best->pid,
		   k->best->has_exe ? k->best->exe : k->best->comm, k->best_points, rss, k->best_rule,
		   scope_name(k), k->reason, next);
}

/* v1 offers no pressure file, but it signals an eventfd when the usage crosses
 * a threshold (memory.usage_in_bytes via cgroup.event_control). Armed at
 * limit - killer-mem-min: below it the cgroup cannot be low (inactive page
 * cache only adds room), so the timer then only watches the system. 0 or -errno. */
static int usage_event_arm(struct killer *k, unsigned long long threshold)
{
	struct epoll_event ev = { .events = EPOLLIN };
	char path[PATH_MAX + 32], line[96];
	int efd, ufd, cfd, r = 0;

	if (k->usagefd >= 0 && k->usage_threshold_bytes == threshold)
		return 0;
	if (k->usagefd >= 0)
		close(k->usagefd);	/* closing the eventfd unregisters it */
	k->usagefd = -1;
	efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (efd < 0)
		return -errno;
	snprintf(path, sizeof(path), "%s/memory.usage_in_bytes", k->cg.dir);
	ufd = open(path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/cgroup.event_control", k->cg.dir);
	cfd = open(path, O_WRONLY | O_CLOEXEC);
	snprintf(line, sizeof(line), "%d %d %llu", efd, ufd, threshold);
	if (ufd < 0 || cfd < 0 || write(cfd, line, strlen(line)) < 0)
		r = -errno;
	if (ufd >= 0)
		close(ufd);
	if (cfd >= 0)
		close(cfd);
	ev.data.u64 = (uint64_t)TAG_USAGE << 32;
	if (r == 0 && epoll_ctl(k->epfd, EPOLL_CTL_ADD, efd, &ev) < 0)
		r = -errno;
	if (r < 0) {
		close(efd);
		return r;
	}
	k->usagefd = efd;
	k->usage_threshold_bytes = threshold;
	return 0;
}

/* When to look again, memory not being low. */
static unsigned next_check_ms(struct killer *k, const struct mem_state *ms, const struct mem_thresholds *t)
{
	unsigned long long threshold;
	struct mem_state sys_only;

	if (!k->in_cgroup || k->cg.v2 || k->cs.limit_bytes == ULLONG_MAX ||
	    k->cs.limit_bytes / 1024 <= t->mem_min_kib)
		return meminfo_next_check_ms(ms, t);
	threshold = k->cs.limit_bytes - t->mem_min_kib * 1024;
	if (k->usage_event_refused)
		return meminfo_next_check_ms(ms, t);
	if (usage_event_arm(k, threshold) < 0) {
		k->usage_event_refused = true;
		log_info("no usage threshold event for %s, checking it by timer", k->cg.dir);
		return meminfo_next_check_ms(ms, t);
	}
	if (k->cs.usage_bytes >= threshold)
		return meminfo_next_check_ms(ms, t);
	sys_only = *ms;
	sys_only.mem_avail_kib = k->sys.mem_avail_kib;
	return meminfo_next_check_ms(&sys_only, t);
}

/* Chooses the victim in k->best and, unless in a dry run, opens its verified
 * pidfd into *fd. The scope's pids stay in *pids (malloc'd, for its group or
 * cgroup). 1 chosen, 0 nobody to take (the last resort has spoken), -errno. */
static int choose(struct killer *k, pid_t **pids, int *n, int *fd, uint64_t now)
{
	long totalpages = scope_totalpages(k);
	int r, tries;

	*fd = -1;
	if (totalpages <= 0)
		return -EIO;
	for (tries = 0; tries < 3; tries++) {
		free(*pids);
		*pids = NULL;
		*n = scope_pids(k, pids);
		if (*n < 0)
			return *n;
		r = pick(k, *pids, *n, totalpages);
		if (r == 0)
			nobody_left(k, now);
		if (r > 0)
			k->nobody_since_ms = 0;
		if (r <= 0 || cfg(k)->killer_dry_run)
			return r;
		*fd = open_verified(k->best);
		if (*fd >= 0)
			return 1;
		if (*fd != -ESRCH) {
			/* no pidfd, no kill: a bare pid could be someone else by now */
			if (!k->episode_reported)
				log_warnx("cannot open a pidfd for %d: %s, leaving it to the kernel",
					  k->best->pid, strerror(-*fd));
			k->episode_reported = true;
			return 0;
		}
		/* gone, or its pid reused: choose again */
	}
	return 0;
}

/* "would kill", at most every KILLER_DRY_REPEAT_MS for the same victim. */
static void dry_report(struct killer *k, uint64_t now)
{
	if (k->dry_pid == k->best->pid && k->dry_start == k->best->start_time && now < k->dry_until_ms)
		return;
	log_kill(k, "dry run: would kill", "nothing done");
	k->dry_pid = k->best->pid;
	k->dry_start = k->best->start_time;
	k->dry_until_ms = now + KILLER_DRY_REPEAT_MS;
}

/* The first signal to the victims: SIGTERM with a grace, or SIGKILL at once. */
static void start_kill(struct killer *k, uint64_t now)
{
	const struct settings *s = cfg(k);
	char next[64];

	if (s->killer_grace_ms == 0) {
		log_kill(k, "killing", "SIGKILL");
		signal_victims(k, SIGKILL);
		k->state = KS_KILL;
		k->deadline_ms = now + KILLER_EXIT_WAIT_MS;
	} else {
		snprintf(next, sizeof(next), "SIGTERM, SIGKILL in %u ms if memory stays low", s->killer_grace_ms);
		log_kill(k, "killing", next);
		signal_victims(k, SIGTERM);
		k->state = KS_TERM;
		k->deadline_ms = now + s->killer_grace_ms;
	}
	arm(k, (unsigned)(k->deadline_ms - now));
	if (k->n_victims > 1)
		log_info("%zu more processes of %d's %s signalled too", k->n_victims - 1, k->best->pid,
			 s->killer_target == KILLER_TARGET_GROUP ? "process group" : "cgroup");
	k->psi_fired = false;
}

/* Memory is low (or pressure fired): choose and signal one victim. */
static int act(struct killer *k, bool low_reason, uint64_t now)
{
	struct mem_state ms;
	struct mem_thresholds t;
	pid_t *pids = NULL;
	int n = 0, fd, r;

	r = choose(k, &pids, &n, &fd, now);
	if (r <= 0) {
		free(pids);
		arm(k, r == 0 ? KILLER_NOTHING_TO_DO_MS : MEMINFO_CHECK_MIN_MS);
		return r;
	}
	/* Choosing took time; memory may have come back meanwhile. */
	if (low_reason && sample(k, &ms, &t) == 0 && !meminfo_low(&ms, &t)) {
		log_debug("memory came back before acting, nobody killed");
		if (fd >= 0)
			close(fd);
		free(pids);
		arm(k, next_check_ms(k, &ms, &t));
		return 0;
	}
	if (cfg(k)->killer_dry_run) {
		dry_report(k, now);
		free(pids);
		arm(k, KILLER_NOTHING_TO_DO_MS);
		return 0;
	}
	r = add_victim(k, k->best, fd);
	if (r < 0) {
		close(fd);
		free(pids);
		arm(k, MEMINFO_CHECK_MIN_MS);
		return r;
	}
	if (cfg(k)->killer_target != KILLER_TARGET_PROCESS)
		add_members(k, pids, n);
	free(pids);
	start_kill(k, now);
	return 0;
}

static int check(struct killer *k, uint64_t now)
{
	struct mem_state ms;
	struct mem_thresholds t;
	bool low, psi;
	int r;

	r = sample(k, &ms, &t);
	if (r < 0) {
		arm(k, MEMINFO_CHECK_MAX_MS);
		return r;
	}
	low = meminfo_low(&ms, &t);
	psi = k->psi_fired && now >= k->psi_quiet_until_ms;
	k->psi_fired = false;
	if (!low && !psi) {
		k->episode_reported = false;
		k->nobody_since_ms = 0;
		k->dry_pid = 0;
		arm(k, next_check_ms(k, &ms, &t));
		return 0;
	}
	if (low) {
		describe_low(k, &ms, &t);
	} else {
		char avail[32], total[32];

		format_kib(avail, sizeof(avail), ms.mem_avail_kib);
		format_kib(total, sizeof(total), ms.mem_total_kib);
		snprintf(k->reason, sizeof(k->reason), "memory pressure (PSI \"%s\"), available memory %s of %s",
			 k->psi_trigger ? k->psi_trigger : "", avail, total);
	}
	return act(k, low, now);
}

static void escalate(struct killer *k, uint64_t now, const char *why)
{
	log_notice("killing %d: %s; SIGKILL", k->best->pid, why);
	signal_victims(k, SIGKILL);
	k->state = KS_KILL;
	k->deadline_ms = now + KILLER_EXIT_WAIT_MS;
	k->psi_fired = false;
	arm(k, KILLER_EXIT_WAIT_MS);
}

/* During the grace memory may keep falling (a victim in reclaim handles no
 * signal): below half the thresholds SIGKILL cannot wait, as earlyoom's
 * second limit. Watches at the pace the headroom to that half asks for. */
static int watch_grace(struct killer *k, uint64_t now)
{
	struct mem_state ms;
	struct mem_thresholds t;
	unsigned ms_next, left = (unsigned)(k->deadline_ms - now);
	char why[64];

	if (sample(k, &ms, &t) == 0) {
		t.mem_min_kib /= 2;
		t.swap_min_kib /= 2;
		if (meminfo_low(&ms, &t)) {
			snprintf(why, sizeof(why), "memory below half the thresholds %u ms after SIGTERM",
				 cfg(k)->killer_grace_ms - left);
			escalate(k, now, why);
			return 0;
		}
		ms_next = meminfo_next_check_ms(&ms, &t);
		arm(k, ms_next < left ? ms_next : left);
		return 0;
	}
	arm(k, left);
	return 0;
}

/* SIGTERM or SIGKILL is out: wait for the exit, escalate after the grace. */
static int step_victims(struct killer *k, uint64_t now)
{
	struct mem_state ms;
	struct mem_thresholds t;
	bool all_exited = true;
	size_t i;

	for (i = 0; i < k->n_victims; i++)
		if (!k->victims[i].exited)
			all_exited = false;
	if (all_exited)
		return finish(k, true, now);
	if (k->state == KS_TERM && now < k->deadline_ms)
		return watch_grace(k, now);
	if (now < k->deadline_ms) {
		arm(k, (unsigned)(k->deadline_ms - now));
		return 0;
	}
	if (k->state == KS_KILL) {
		log_warnx("%d has not exited %u ms after SIGKILL, may choose another", k->best->pid,
			  KILLER_EXIT_WAIT_MS);
		if (k->n_stuck < KILLER_STUCK_MAX)
			k->stuck[k->n_stuck++] = (struct stuck){ k->best->pid, k->best->start_time };
		return finish(k, false, now);
	}
	if (k->psi_fired || (sample(k, &ms, &t) == 0 && meminfo_low(&ms, &t))) {
		char why[64];

		snprintf(why, sizeof(why), "memory still low %u ms after SIGTERM", cfg(k)->killer_grace_ms);
		escalate(k, now, why);
		return 0;
	}
	log_info("memory came back %u ms after SIGTERM to %d, not killing it", cfg(k)->killer_grace_ms,
		 k->best->pid);
	return finish(k, false, now);
}

static void psi_close(struct killer *k)
{
	if (k->psifd >= 0)
		close(k->psifd);
	k->psifd = -1;
	free(k->psi_trigger);
	k->psi_trigger = NULL;
	k->psi_window_us = 0;
}

/* Arms the PSI trigger the settings ask for. 0, or -errno (the killer then
 * goes on with the thresholds alone). */
static int psi_setup(struct killer *k)
{
	const char *trig = cfg(k)->killer_psi;
	struct epoll_event ev = { .events = EPOLLPRI };
	char path[PATH_MAX + 32];
	unsigned long stall_us;
	int fd;

	psi_close(k);
	if (!trig)
		return 0;
	if (psi_parse_trigger(trig, &stall_us, &k->psi_window_us) < 0)
		return -EINVAL;
	if (!k->in_cgroup)
		snprintf(path, sizeof(path), "%s/pressure/memory", proc_root);
	else if (k->cg.v2)
		snprintf(path, sizeof(path), "%s/memory.pressure", k->cg.dir);
	else
		return -EOPNOTSUPP;	/* cgroup v1 has no pressure file of its own */
	fd = psi_open(path, trig);
	if (fd < 0)
		return fd;
	ev.data.u64 = (uint64_t)TAG_PSI << 32;
	if (epoll_ctl(k->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		close(fd);
		return -errno;
	}
	k->psifd = fd;
	k->psi_trigger = strdup(trig);
	return k->psi_trigger ? 0 : -ENOMEM;
}

static void psi_setup_logged(struct killer *k)
{
	int r = psi_setup(k);

	if (r == -EOPNOTSUPP)
		log_warnx("killer-psi: cgroup v1 has no memory.pressure for %s, watching the thresholds only",
			  k->cg.dir);
	else if (r == -EINVAL)
		log_warnx("killer-psi \"%s\" refused by the kernel (without CAP_SYS_RESOURCE the window must "
			  "be a multiple of 2 s), watching the thresholds only", cfg(k)->killer_psi);
	else if (r < 0)
		log_warnx("cannot arm killer-psi \"%s\": %s, watching the thresholds only", cfg(k)->killer_psi,
			  strerror(-r));
}

/* One dry pass at start: proves the scope can be read, and faults in (and so
 * locks) the code and buffers a real choice needs, which would otherwise be
 * read back from disk just when memory is short. In the VM the first choice
 * after boot took 130-160 ms, later ones 30-80 ms. */
static void self_test(struct killer *k)
{
	struct mem_state ms;
	struct mem_thresholds t;
	pid_t *pids = NULL;
	long totalpages = scope_totalpages(k);
	int n, r;

	if (sample(k, &ms, &t) < 0 || totalpages <= 0) {
		log_warnx("early OOM killer: cannot read the memory of %s, will retry", scope_name(k));
		return;
	}
	n = scope_pids(k, &pids);
	r = n < 0 ? n : pick(k, pids, n, totalpages);
	free(pids);
	if (r < 0)
		log_warnx("early OOM killer: cannot list the processes of %s (%s), will retry", scope_name(k),
			  strerror(-r));
	else if (r > 0)
		log_debug("early OOM killer: next victim in %s would be %d (%s)", scope_name(k), k->best->pid,
			  k->best->has_exe ? k->best->exe : k->best->comm);
}

/* A threshold as set: "10%" or "512.0 MiB". */
static void format_min(char *buf, size_t len, unsigned pct, unsigned long long kib)
{
	if (kib)
		format_kib(buf, len, kib);
	else
		snprintf(buf, len, "%u%%", pct);
}

int killer_new(struct killer **kp, const struct ruleset *rs)
{
	char mem_min[32], swap_min[32];
	struct epoll_event ev = { .events = EPOLLIN };
	struct killer *k;
	int r;

	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->rs = rs;
	k->epfd = k->timerfd = k->psifd = k->usagefd = -1;
	k->cur = calloc(1, sizeof(*k->cur));
	k->best = calloc(1, sizeof(*k->best));
	if (!k->cur || !k->best) {
		r = -ENOMEM;
		goto fail;
	}
	if (rs->settings.killer_scope) {
		k->in_cgroup = true;
		r = cgroup_memcg_resolve(rs->settings.killer_scope, &k->cg);
		if (r < 0)
			goto fail;
	}
	k->epfd = epoll_create1(EPOLL_CLOEXEC);
	k->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (k->epfd < 0 || k->timerfd < 0) {
		r = -errno;
		goto fail;
	}
	ev.data.u64 = (uint64_t)TAG_TIMER << 32;
	if (epoll_ctl(k->epfd, EPOLL_CTL_ADD, k->timerfd, &ev) < 0) {
		r = -errno;
		goto fail;
	}
	psi_setup_logged(k);
	/* When memory runs short the kernel drops clean pages first, our own code
	 * among them: the killer would then stall on page faults just when it is
	 * needed (earlyoom locks itself for the same reason). ONFAULT: only what we
	 * touch, not every reserved arena. */
	if (mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT) < 0)
		log_info("cannot lock the killer in memory (%s), it may be paged out under pressure",
			 strerror(errno));
	self_test(k);
	format_min(mem_min, sizeof(mem_min), rs->settings.killer_mem_min_pct, rs->settings.killer_mem_min_kib);
	format_min(swap_min, sizeof(swap_min), rs->settings.killer_swap_min_pct, rs->settings.killer_swap_min_kib);
	log_info("early OOM killer watching %s: act below %s available memory and %s free swap%s%s%s",
		 scope_name(k), mem_min, swap_min, k->psifd >= 0 ? ", or on memory pressure " : "",
		 k->psifd >= 0 ? k->psi_trigger : "", rs->settings.killer_dry_run ? "; dry run: nobody is killed" : "");
	arm(k, 0);	/* first look at once */
	*kp = k;
	return 0;
fail:
	killer_free(k);
	return r;
}

void killer_set_rules(struct killer *k, const struct ruleset *rs)
{
	const char *scope = rs->settings.killer_scope;
	const char *psi = rs->settings.killer_psi;
	struct memcg cg;
	bool moved = false;
	int r;

	k->rs = rs;
	/* Compare where the scope resolves to: the same cgroup may be written several ways. */
	r = scope ? cgroup_memcg_resolve(scope, &cg) : 0;
	if (r < 0) {
		log_warnx("killer-scope %s: %s, keeping %s", scope, strerror(-r), scope_name(k));
	} else {
		if (scope ? !k->in_cgroup || strcmp(cg.dir, k->cg.dir) != 0 : k->in_cgroup) {
			k->in_cgroup = scope != NULL;
			if (scope)
				k->cg = cg;
			if (k->usagefd >= 0)
				close(k->usagefd);
			k->usagefd = -1;
			k->usage_event_refused = false;
			log_info("early OOM killer now watching %s", scope_name(k));
			psi_setup_logged(k);	/* the pressure file moves with the scope */
			moved = true;
		}
	}
	if (!moved && ((psi == NULL) != (k->psi_trigger == NULL) || (psi && strcmp(psi, k->psi_trigger) != 0)))
		psi_setup_logged(k);
	if (k->state == KS_WATCH)
		arm(k, 0);
}

int killer_fd(const struct killer *k)
{
	return k->epfd;
}

int killer_handle(struct killer *k)
{
	struct epoll_event ev[8];
	bool woke = false;
	uint64_t exp;
	int i, n, r;

	n = epoll_wait(k->epfd, ev, 8, 0);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	for (i = 0; i < n; i++) {
		uint32_t tag = (uint32_t)(ev[i].data.u64 >> 32);
		uint32_t idx = (uint32_t)ev[i].data.u64;

		if (tag == TAG_TIMER) {
			if (read(k->timerfd, &exp, sizeof(exp)) < 0) {
				/* EAGAIN: re-armed since; nothing to read */
			}
			woke = true;
		} else if (tag == TAG_PSI) {
			if (ev[i].events & EPOLLERR) {
				log_warnx("the memory pressure file of %s is gone, watching the thresholds only",
					  scope_name(k));
				psi_close(k);
			} else
				k->psi_fired = true;
			woke = true;
		} else if (tag == TAG_USAGE) {
			if (read(k->usagefd, &exp, sizeof(exp)) < 0) {
				/* EAGAIN: nothing to read */
			}
			woke = true;
		} else if (tag == TAG_VICTIM && idx < k->n_victims) {
			k->victims[idx].exited = true;
			epoll_ctl(k->epfd, EPOLL_CTL_DEL, k->victims[idx].pidfd, NULL);
			woke = true;
		}
	}
	/* Polling our epoll fd from the daemon's loop polls the PSI fd, and that
	 * poll consumes the trigger's event: a wake-up that nothing else explains
	 * was the trigger. */
	if (!woke && k->psifd >= 0)
		k->psi_fired = true;
	if (!cfg(k)->killer)
		return 0;
	r = k->state == KS_WATCH ? check(k, now_ms()) : step_victims(k, now_ms());
	if (r < 0)
		errno = -r;	/* for a caller that logs with log_warn */
	return r;
}

void killer_free(struct killer *k)
{
	if (!k)
		return;
	drop_victims(k);
	free(k->victims);
	psi_close(k);
	if (k->usagefd >= 0)
		close(k->usagefd);
	if (k->timerfd >= 0)
		close(k->timerfd);
	if (k->epfd >= 0)
		close(k->epfd);
	free(k->cur);
	free(k->best);
	free(k->cands);
	free(k);
	munlockall();
}
