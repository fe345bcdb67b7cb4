/* test_killer.c - the early killer's parts: memory of a scope, thresholds, check interval,
 * PSI triggers, hook commands. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <poll.h>

#include "testfs.h"
#include "badness.h"
#include "hook.h"
#include "killer.h"
#include "log.h"
#include "meminfo.h"
#include "proc.h"
#include "psi.h"
#include "rules.h"

static const char meminfo_text[] =
	"MemTotal:       24683568 kB\n"
	"MemFree:        24508112 kB\n"
	"MemAvailable:   24423596 kB\n"
	"Buffers:             700 kB\n"
	"SwapCached:            0 kB\n"
	"SwapTotal:       2097148 kB\n"
	"SwapFree:        1048576 kB\n";

static void test_meminfo_parse(void **state)
{
	struct mem_state ms;

	(void)state;
	assert_int_equal(meminfo_parse(meminfo_text, &ms), 0);
	assert_int_equal(ms.mem_total_kib, 24683568);
	assert_int_equal(ms.mem_avail_kib, 24423596);
	assert_int_equal(ms.swap_total_kib, 2097148);
	assert_int_equal(ms.swap_free_kib, 1048576);
	/* "SwapCached" must not be taken for "SwapTotal"... and a missing field fails */
	assert_int_equal(meminfo_parse("MemTotal: 1 kB\nMemAvailable: 1 kB\nSwapCached: 5 kB\n", &ms), -EINVAL);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	testfs_write(dir, name, text);
}

static void test_memcg_v1(void **state)
{
	char dir[] = "/tmp/test_killer_v1.XXXXXX", path[PATH_MAX + 16];
	struct memcg_sample s;
	struct mem_state sys = { .mem_total_kib = 1 << 20, .mem_avail_kib = 900000,
				 .swap_total_kib = 0, .swap_free_kib = 0 }, ms;

	(void)state;
	assert_non_null(mkdtemp(dir));
	write_file(dir, "memory.usage_in_bytes", "283115520\n");	/* 270 MiB */
	write_file(dir, "memory.stat",
		   "cache 0\nhierarchical_memory_limit 314572800\nhierarchical_memsw_limit 9223372036854771712\n"
		   "total_swap 0\ntotal_inactive_file 4194304\ninactive_file 1\n");
	assert_int_equal(meminfo_memcg_sample(dir, false, &s), 0);
	assert_true(s.limit_bytes == 314572800ULL);
	assert_true(s.usage_bytes == 283115520ULL);
	assert_true(s.inactive_file_bytes == 4194304ULL);	/* total_, the hierarchy's */
	assert_true(s.swap_limit_bytes == ULLONG_MAX);
	meminfo_memcg_combine(&s, &sys, &ms);
	assert_int_equal(ms.mem_total_kib, 300 * 1024);
	assert_int_equal(ms.mem_avail_kib, 30 * 1024 + 4096);
	assert_int_equal(ms.swap_total_kib, 0);	/* the system has none */

	/* no limit: the system's figures */
	write_file(dir, "memory.stat", "hierarchical_memory_limit 9223372036854771712\n");
	assert_int_equal(meminfo_memcg_sample(dir, false, &s), 0);
	assert_true(s.limit_bytes == ULLONG_MAX);
	meminfo_memcg_combine(&s, &sys, &ms);
	assert_int_equal(ms.mem_total_kib, 1 << 20);
	assert_int_equal(ms.mem_avail_kib, (1 << 20) - 270 * 1024);	/* its usage still counts */
	sys.mem_avail_kib = 500000;
	meminfo_memcg_combine(&s, &sys, &ms);
	assert_int_equal(ms.mem_avail_kib, 500000);	/* never more than the system has */
	snprintf(path, sizeof(path), "%s/memory.usage_in_bytes", dir);
	unlink(path);
	assert_int_equal(meminfo_memcg_sample(dir, false, &s), -ENOENT);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

static void test_memcg_v2(void **state)
{
	char dir[] = "/tmp/test_killer_v2.XXXXXX", child[PATH_MAX], cmd[PATH_MAX + 16];
	struct memcg_sample s;
	struct mem_state sys = { .mem_total_kib = 1 << 20, .mem_avail_kib = 900000,
				 .swap_total_kib = 1 << 20, .swap_free_kib = 1 << 19 }, ms;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* dir plays a parent with a lower limit than its child */
	write_file(dir, "memory.max", "209715200\n");	/* 200 MiB */
	write_file(dir, "memory.swap.max", "max\n");
	snprintf(child, sizeof(child), "%s/child", dir);
	assert_int_equal(mkdir(child, 0755), 0);
	write_file(child, "memory.max", "max\n");
	write_file(child, "memory.swap.max", "104857600\n");	/* 100 MiB */
	write_file(child, "memory.current", "199229440\n");	/* 190 MiB */
	write_file(child, "memory.swap.current", "52428800\n");	/* 50 MiB */
	write_file(child, "memory.stat", "anon 1\nactive_file 5\ninactive_file 1048576\n");
	assert_int_equal(meminfo_memcg_sample(child, true, &s), 0);
	assert_true(s.limit_bytes == 209715200ULL);
	assert_true(s.swap_limit_bytes == 104857600ULL);
	meminfo_memcg_combine(&s, &sys, &ms);
	assert_int_equal(ms.mem_total_kib, 200 * 1024);
	assert_int_equal(ms.mem_avail_kib, 10 * 1024 + 1024);
	assert_int_equal(ms.swap_total_kib, 100 * 1024);
	assert_int_equal(ms.swap_free_kib, 50 * 1024);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_thresholds(void **state)
{
	struct mem_state ms = { .mem_total_kib = 1000000, .mem_avail_kib = 50000,
				.swap_total_kib = 0, .swap_free_kib = 0 };
	struct mem_thresholds t;

	(void)state;
	meminfo_thresholds(10, 0, 10, 0, &ms, &t);
	assert_int_equal(t.mem_min_kib, 100000);
	assert_int_equal(t.swap_min_kib, 0);
	assert_true(meminfo_low(&ms, &t));	/* no swap at all counts as low */
	ms.mem_avail_kib = 100000;
	assert_false(meminfo_low(&ms, &t));	/* at the threshold: not yet */

	ms.mem_avail_kib = 50000;
	ms.swap_total_kib = 1000000;
	ms.swap_free_kib = 500000;
	meminfo_thresholds(10, 0, 10, 0, &ms, &t);
	assert_false(meminfo_low(&ms, &t));	/* swap left: both must be low */
	ms.swap_free_kib = 99999;
	assert_true(meminfo_low(&ms, &t));

	/* a size wins over the percentage */
	meminfo_thresholds(10, 40000, 10, 200000, &ms, &t);
	assert_int_equal(t.mem_min_kib, 40000);
	assert_int_equal(t.swap_min_kib, 200000);
	assert_false(meminfo_low(&ms, &t));
}

static void test_next_check(void **state)
{
	struct mem_state ms = { .mem_total_kib = 24ULL << 20, .mem_avail_kib = 24ULL << 20 };
	struct mem_thresholds t = { .mem_min_kib = 2ULL << 20 };

	(void)state;
	/* 22 GiB of room at 6 GiB/s: about 3.7 s */
	assert_int_equal(meminfo_next_check_ms(&ms, &t), 22ULL * 1024 * 1024 / 6144);
	ms.mem_avail_kib = t.mem_min_kib + 1024;
	assert_int_equal(meminfo_next_check_ms(&ms, &t), MEMINFO_CHECK_MIN_MS);
	ms.mem_avail_kib = 0;
	assert_int_equal(meminfo_next_check_ms(&ms, &t), MEMINFO_CHECK_MIN_MS);
	ms.mem_total_kib = ms.mem_avail_kib = 512ULL << 20;
	assert_int_equal(meminfo_next_check_ms(&ms, &t), MEMINFO_CHECK_MAX_MS);
	/* swap room adds, at its slower rate */
	ms.mem_avail_kib = t.mem_min_kib;
	ms.swap_total_kib = ms.swap_free_kib = 819 * 1000;
	t.swap_min_kib = 0;
	assert_int_equal(meminfo_next_check_ms(&ms, &t), 1000);
}

static void test_psi_trigger(void **state)
{
	unsigned long stall, window;

	(void)state;
	assert_int_equal(psi_parse_trigger("some 150000 2000000", &stall, &window), 0);
	assert_int_equal(stall, 150000);
	assert_int_equal(window, 2000000);
	assert_int_equal(psi_parse_trigger("full 500000 1000000", &stall, &window), 0);
	assert_int_equal(psi_parse_trigger("most 1 1000000", &stall, &window), -EINVAL);
	assert_int_equal(psi_parse_trigger("some 150000", &stall, &window), -EINVAL);
	assert_int_equal(psi_parse_trigger("some 150000 100000", &stall, &window), -EINVAL);	/* window < 500 ms */
	assert_int_equal(psi_parse_trigger("some 3000000 2000000", &stall, &window), -EINVAL);	/* stall > window */
	assert_int_equal(psi_parse_trigger("some 1 2000000 x", &stall, &window), -EINVAL);
	assert_int_equal(psi_open("/nonexistent/pressure", "some 150000 2000000"), -ENOENT);
	assert_int_equal(psi_open("/nonexistent/pressure", "bogus"), -EINVAL);
}

/* Measured here: the kernel takes a 2 s window from root without
 * CAP_SYS_RESOURCE, and refuses a 1 s one. */
static void test_psi_open(void **state)
{
	int fd;

	(void)state;
	if (access("/proc/pressure/memory", F_OK) != 0)
		skip();
	fd = psi_open("/proc/pressure/memory", "some 150000 2000000");
	assert_true(fd >= 0);
	close(fd);
}

static void test_hook_split(void **state)
{
	char buf[128], *argv[HOOK_ARGS_MAX + 1];

	(void)state;
	assert_int_equal(hook_split("/usr/bin/logger -t oom  killed", buf, argv), 4);
	assert_string_equal(argv[0], "/usr/bin/logger");
	assert_string_equal(argv[3], "killed");
	assert_null(argv[4]);
	assert_int_equal(hook_split("/bin/sh -c 'echo $OOMPARDON_PID >> /tmp/x'", buf, argv), 3);
	assert_string_equal(argv[2], "echo $OOMPARDON_PID >> /tmp/x");
	assert_int_equal(hook_split("a\"b c\"d e", buf, argv), 2);
	assert_string_equal(argv[0], "ab cd");
	assert_int_equal(hook_split("'unbalanced", buf, argv), -EINVAL);
	assert_int_equal(hook_split("   ", buf, argv), -EINVAL);
}

static void test_hook_spawn(void **state)
{
	char out[] = "/tmp/test_killer_hook.XXXXXX", cmd[256], got[256] = "";
	char e1[] = "OOMPARDON_PID=4242", e2[] = "OOMPARDON_REASON=a reason with spaces";
	char *env[] = { e1, e2, NULL };
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int fd, i, pid;
	ssize_t n = 0;

	(void)state;
	fd = mkstemp(out);
	assert_true(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "/bin/sh -c 'echo \"$OOMPARDON_PID|$OOMPARDON_REASON|$(cat /proc/self/oom_score_adj)\" > %s.tmp; "
		 "mv %s.tmp %s'", out, out, out);
	pid = hook_spawn(cmd, env);
	assert_true(pid > 0);
	for (i = 0; i < 500 && n <= 0; i++) {	/* up to 5 s */
		fd = open(out, O_RDONLY);
		assert_true(fd >= 0);
		n = read(fd, got, sizeof(got) - 1);
		close(fd);
		if (n <= 0)
			nanosleep(&ts, NULL);
	}
	assert_true(n > 0);
	got[n] = '\0';
	assert_string_equal(got, "4242|a reason with spaces|0\n");
	unlink(out);
	assert_int_equal(hook_spawn("'", env), -EINVAL);
}

/* ---- whom it chooses: a fake proc tree with low memory, in dry run ---- */

#define STAT_TAIL "S 1 1 1 0 -1 4194560 10 0 0 0 1 2 0 0 20 0 1 0 12345 1000 200 " \
	"18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"

static char fake[64];

static void fake_proc(int pid, const char *exe, long rss_kib, int adj)
{
	char dir[128], text[512];

	snprintf(dir, sizeof(dir), "%s/%d", fake, pid);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(text, sizeof(text), "%d (p%d) " STAT_TAIL, pid, pid);
	write_file(dir, "stat", text);
	snprintf(text, sizeof(text), "Name:\tp%d\nUid:\t0\t0\t0\t0\nRssAnon:\t%ld kB\nRssFile:\t0 kB\n"
		 "RssShmem:\t0 kB\nVmPTE:\t4 kB\nVmSwap:\t0 kB\n", pid, rss_kib);
	write_file(dir, "status", text);
	write_file(dir, "oom_score", "0\n");
	snprintf(text, sizeof(text), "%d\n", adj);
	write_file(dir, "oom_score_adj", text);
	write_file(dir, "cgroup", "0::/\n");
	snprintf(text, sizeof(text), "%s/exe", dir);
	assert_int_equal(symlink(exe, text), 0);
}

static void fake_gone(int pid)
{
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "rm -rf %s/%d", fake, pid);
	assert_int_equal(system(cmd), 0);
}

/* Runs one check of k when its fd becomes readable; returns what it logged. */
static const char *handle_logged(struct killer *k)
{
	static char buf[4096];
	struct pollfd p = { .fd = killer_fd(k), .events = POLLIN };
	char path[128];
	ssize_t n;
	int saved, fd;

	snprintf(path, sizeof(path), "%s.log", fake);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	saved = dup(2);
	dup2(fd, 2);
	assert_int_equal(poll(&p, 1, 2000), 1);
	assert_int_equal(killer_handle(k), 0);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	unlink(path);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static void test_choice(void **state)
{
	struct cond pardon_c = { .kind = COND_EXE, .pattern = (char *)"/usr/bin/yes" };
	struct cond score_c = { .kind = COND_EXE, .pattern = (char *)"/usr/bin/env" };
	struct selector pardon_s = { .conds = &pardon_c, .n_conds = 1, .text = (char *)"/usr/bin/yes" };
	struct selector score_s = { .conds = &score_c, .n_conds = 1, .text = (char *)"/usr/bin/env" };
	struct rule rules[2] = {
		{ .action = RULE_PARDON, .score = OOM_ADJ_MIN, .sels = &pardon_s, .n_sels = 1,
		  .file = "test.conf", .line = 1 },
		{ .action = RULE_SCORE, .score = -500, .sels = &score_s, .n_sels = 1, .file = "test.conf", .line = 2 },
	};
	struct ruleset rs;
	struct killer *k;
	struct proc_facts pf = { .rss_kib = 4096 };
	char want[128];
	const char *log;

	(void)state;
	if (badness_points(&pf, 1000) == 0)
		skip();	/* badness.c not built yet: nothing to choose by */
	strcpy(fake, "/tmp/test_killer_proc.XXXXXX");
	assert_non_null(mkdtemp(fake));
	write_file(fake, "meminfo", "MemTotal: 1000000 kB\nMemAvailable: 50000 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n");
	fake_proc(1, "/usr/bin/true", 900000, 0);	/* init: never */
	fake_proc(getpid(), "/usr/bin/true", 900000, 0);	/* ourselves: never */
	fake_proc(100, "/usr/bin/yes", 500000, 0);	/* pardoned, its -1000 refused: never */
	fake_proc(101, "/usr/bin/env", 300000, 0);	/* score -500 by rule, refused here */
	fake_proc(102, "/usr/bin/tail", 200000, 0);
	fake_proc(103, "/usr/bin/head", 800000, OOM_ADJ_MIN);	/* -1000 from elsewhere: never */
	proc_root = fake;
	log_setup(LOG_TARGET_STDERR, 0);

	ruleset_init(&rs);
	rs.rules = rules;
	rs.n_rules = 2;
	rs.settings.killer = true;
	rs.settings.killer_dry_run = true;
	rs.settings.killer_mem_min_pct = 10;
	rs.settings.killer_swap_min_pct = 10;
	assert_int_equal(killer_new(&k, &rs), 0);

	/* the score rule counts as written: the larger 101 goes after 102, where
	 * the kernel, which refused the -500, would take 101 first */
	log = handle_logged(k);
	assert_non_null(strstr(log, "dry run: would kill 102 /usr/bin/tail ("));
	assert_non_null(strstr(log, "no rule) in the system: available memory 48.8 MiB < 97.7 MiB"));

	/* without it, the largest one that may be killed */
	rs.n_rules = 1;
	killer_set_rules(k, &rs);
	log = handle_logged(k);
	assert_non_null(strstr(log, "dry run: would kill 101 /usr/bin/env ("));

	/* a raise is written (as the daemon does): it counts like any kernel value */
	rs.n_rules = 2;
	rules[1].score = 500;
	write_file(fake, "102/oom_score_adj", "500\n");
	score_c.pattern = (char *)"/usr/bin/tail";
	killer_set_rules(k, &rs);
	log = handle_logged(k);
	assert_non_null(strstr(log, "dry run: would kill 102 /usr/bin/tail ("));
	assert_non_null(strstr(log, "rule test.conf:2)"));

	/* only the untouchable left: said once that has lasted (500 ms), not at once */
	fake_gone(101);
	fake_gone(102);
	killer_set_rules(k, &rs);
	assert_string_equal(handle_logged(k), "");
	log = handle_logged(k);
	snprintf(want, sizeof(want), "only pardoned processes are left in the system");
	assert_non_null(strstr(log, want));
	assert_null(strstr(log, "would kill"));

	/* memory back: nothing said */
	write_file(fake, "meminfo", "MemTotal: 1000000 kB\nMemAvailable: 500000 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n");
	killer_set_rules(k, &rs);
	assert_string_equal(handle_logged(k), "");

	killer_free(k);
	rs.rules = NULL;
	rs.n_rules = 0;
	ruleset_free(&rs);
	proc_root = "/proc";
	snprintf(want, sizeof(want), "rm -rf %s", fake);
	assert_int_equal(system(want), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meminfo_parse),
		cmocka_unit_test(test_memcg_v1),
		cmocka_unit_test(test_memcg_v2),
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_next_check),
		cmocka_unit_test(test_psi_trigger),
		cmocka_unit_test(test_psi_open),
		cmocka_unit_test(test_hook_split),
		cmocka_unit_test(test_hook_spawn),
		cmocka_unit_test(test_choice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
