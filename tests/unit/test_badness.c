/* test_badness.c - oom_badness from userspace: the formula, the order, ties, and the live kernel. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "badness.h"

/* This machine: 24683568 kB RAM, no swap, 4 KiB pages. */
#define TOTAL_24G 6170892L
#define MIB_KIB 1024L

static struct proc_facts mk(pid_t pid, long rss_kib, int adj)
{
	struct proc_facts pf;

	memset(&pf, 0, sizeof(pf));
	pf.pid = pid;
	pf.have = PROC_STAT | PROC_STATUS | PROC_OOM;
	pf.rss_kib = rss_kib;
	pf.oom_score_adj = adj;
	return pf;
}

static void test_formula(void **state)
{
	struct proc_facts pf = mk(100, 100 * MIB_KIB, 0);

	(void)state;
	assert_int_equal(badness_points(&pf, TOTAL_24G), 25600);
	pf.swap_kib = 8 * MIB_KIB;
	pf.pte_kib = 203;	/* bytes >> 10; / 4 = bytes / 4096 = 50 pages */
	assert_int_equal(badness_points(&pf, TOTAL_24G), 25600 + 2048 + 50);
	/* adj counts totalpages / 1000 pages each, the division first */
	pf = mk(100, 20 * MIB_KIB, 100);
	assert_int_equal(badness_points(&pf, TOTAL_24G), 5120 + 100 * 6170);
	assert_int_equal(badness_points(&pf, 51200), 5120 + 100 * 51);
	assert_int_equal(badness_points(&pf, 1999), 5120 + 100 * 1);
	assert_int_equal(badness_points(&pf, 999), 5120);
	pf.oom_score_adj = -999;
	assert_int_equal(badness_points(&pf, TOTAL_24G), 5120 - 999 * 6170L);
	pf.oom_score_adj = -1000;
	assert_true(badness_points(&pf, TOTAL_24G) == BADNESS_UNKILLABLE);
	pf = mk(1, 1000, 500);	/* init */
	assert_true(badness_points(&pf, TOTAL_24G) == BADNESS_UNKILLABLE);
	pf = mk(2, 0, 0);
	pf.kthread = true;
	assert_true(badness_points(&pf, TOTAL_24G) == BADNESS_UNKILLABLE);
	pf = mk(300, 0, 0);	/* a zombie: no mm, no Vm* lines */
	pf.have |= PROC_EXE;
	pf.has_exe = false;
	assert_true(badness_points(&pf, TOTAL_24G) == BADNESS_UNKILLABLE);
	pf = mk(301, 400, 0);	/* another user's process: exe unreadable, memory known */
	pf.have |= PROC_EXE;
	pf.has_exe = false;
	pf.pte_kib = 40;
	assert_int_equal(badness_points(&pf, TOTAL_24G), 100 + 10);
}

static void test_oom_score(void **state)
{
	(void)state;
	assert_int_equal(badness_oom_score(BADNESS_UNKILLABLE, TOTAL_24G), 0);
	assert_int_equal(badness_oom_score(0, TOTAL_24G), 666);	/* 1000 * 2 / 3 */
	assert_int_equal(badness_oom_score(25600, TOTAL_24G), 669);	/* (1000 + 4) * 2 / 3 */
	assert_int_equal(badness_oom_score(TOTAL_24G * 2, TOTAL_24G), 2000);
	/* -999 and almost nothing resident: 1000 - 998 -> 1 */
	assert_int_equal(badness_oom_score(5120 - 999 * 6170L, TOTAL_24G), 1);
}

static pid_t pids_of(struct proc_facts **v, size_t i)
{
	return v[i]->pid;
}

/* The case: A holds 100 MiB at adj 0, B 20 MiB at adj +100. */
static void test_global_vs_cgroup(void **state)
{
	struct proc_facts a = mk(10, 100 * MIB_KIB, 0), b = mk(11, 20 * MIB_KIB, 100);
	struct proc_facts *v[2] = { &a, &b };

	(void)state;
	badness_sort(v, 2, TOTAL_24G);
	assert_int_equal(pids_of(v, 0), 11);	/* B: 5120 + 617000 */
	v[0] = &a;
	v[1] = &b;
	badness_sort(v, 2, 51200);		/* a 200 MiB memory cgroup */
	assert_int_equal(pids_of(v, 0), 10);	/* A: 25600 > 5120 + 5100 */
}

static void test_ties_and_unkillable(void **state)
{
	struct proc_facts p[7];
	struct proc_facts *v[7];
	size_t i;

	(void)state;
	p[0] = mk(1, 5000, 0);		/* init */
	p[1] = mk(50, 4000, 0);		/* tie 1, scanned first */
	p[2] = mk(40, 2000, -1000);	/* pardoned */
	p[3] = mk(60, 4000, 0);		/* tie 2 */
	p[4] = mk(30, 4000, 0);		/* tie 3, scanned last: the kernel picks this one */
	p[5] = mk(70, 4, -999);		/* killable, below everything else */
	p[6] = mk(2, 0, 0);	/* a kernel thread */
	p[6].kthread = true;
	for (i = 0; i < 7; i++)
		v[i] = &p[i];
	badness_sort(v, 7, TOTAL_24G);
	assert_int_equal(pids_of(v, 0), 30);
	assert_int_equal(pids_of(v, 1), 60);
	assert_int_equal(pids_of(v, 2), 50);
	assert_int_equal(pids_of(v, 3), 70);
	/* the unkillable last, in scan order */
	assert_int_equal(pids_of(v, 4), 1);
	assert_int_equal(pids_of(v, 5), 40);
	assert_int_equal(pids_of(v, 6), 2);
	badness_sort(v, 0, TOTAL_24G);	/* nothing to sort is fine */
}

static void test_global_totalpages(void **state)
{
	long t = 0, mem_kib = 0, swap_kib = 0;
	char line[256];
	FILE *f = fopen("/proc/meminfo", "r");

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "MemTotal: %ld kB", &mem_kib);
		sscanf(line, "SwapTotal: %ld kB", &swap_kib);
	}
	fclose(f);
	assert_int_equal(badness_global_totalpages(&t), 0);
	assert_int_equal(t, (mem_kib + swap_kib) / (sysconf(_SC_PAGESIZE) / 1024));
}

/* The live check: our formula against the kernel's own /proc/PID/oom_score. The
 * facts come from proc_read when proc.c is there, else from a reader here. */
static long status_kib(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtol(p + strlen(key), NULL, 10) : 0;
}

static int read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

static int read_facts(pid_t pid, struct proc_facts *pf)
{
	char path[64], text[8192];
	int r = proc_read(pid, PROC_STAT | PROC_STATUS | PROC_OOM, pf);

	if (r != -ENOSYS)
		return r;
	memset(pf, 0, sizeof(*pf));
	pf->pid = pid;
	pf->have = PROC_STAT | PROC_STATUS | PROC_OOM;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (read_text(path, text, sizeof(text)) < 0)
		return -ESRCH;
	pf->rss_kib = status_kib(text, "\nVmRSS:");
	pf->swap_kib = status_kib(text, "\nVmSwap:");
	pf->pte_kib = status_kib(text, "\nVmPTE:");
	pf->kthread = strstr(text, "\nVmRSS:") == NULL;	/* good enough for this test */
	snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", (int)pid);
	if (read_text(path, text, sizeof(text)) < 0)
		return -ESRCH;
	pf->oom_score_adj = atoi(text);
	snprintf(path, sizeof(path), "/proc/%d/oom_score", (int)pid);
	if (read_text(path, text, sizeof(text)) < 0)
		return -ESRCH;
	pf->oom_score = atoi(text);
	return 0;
}

/* A child that holds mib MiB and raised its own score, then waits to be killed. */
static pid_t hog(long mib, int adj, int ready_fd)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		size_t len = (size_t)mib << 20;
		char *m = len ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) : NULL;
		FILE *f = fopen("/proc/self/oom_score_adj", "w");

		if (len && m == MAP_FAILED)
			_exit(1);
		if (len)
			memset(m, 1, len);
		if (f) {
			fprintf(f, "%d", adj);
			fclose(f);
		}
		if (write(ready_fd, "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	return pid;
}

static void test_live_oom_score(void **state)
{
	const struct { long mib; int adj; } kids[] = { { 0, 0 }, { 64, 0 }, { 16, 300 }, { 200, 1000 } };
	pid_t pid[4], *all;
	int fds[2], exact = 0, near = 0, far = 0, n, i;
	long total;
	char c;

	(void)state;
	assert_int_equal(badness_global_totalpages(&total), 0);
	assert_int_equal(pipe(fds), 0);
	for (i = 0; i < 4; i++)
		pid[i] = hog(kids[i].mib, kids[i].adj, fds[1]);
	for (i = 0; i < 4; i++)
		assert_int_equal(read(fds[0], &c, 1), 1);
	for (i = 0; i < 4; i++) {
		struct proc_facts pf;
		int mine;

		assert_int_equal(read_facts(pid[i], &pf), 0);
		mine = badness_oom_score(badness_points(&pf, total), total);
		printf("# pid %d %ld MiB adj %d: kernel oom_score %d, ours %d\n", (int)pid[i],
		       kids[i].mib, pf.oom_score_adj, pf.oom_score, mine);
		/* RSS counters are per-cpu: /proc/PID/status and oom_badness may read
		 * them a few dozen pages apart, one point of oom_score at most here */
		assert_true(abs(mine - pf.oom_score) <= 1);
	}
	for (i = 0; i < 4; i++) {
		kill(pid[i], SIGKILL);
		waitpid(pid[i], NULL, 0);
	}
	close(fds[0]);
	close(fds[1]);

	/* every process of the machine */
	n = proc_list(&all);
	if (n == -ENOSYS)
		return;
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		struct proc_facts pf;
		int d;

		if (read_facts(all[i], &pf) < 0)
			continue;	/* gone meanwhile */
		d = abs(badness_oom_score(badness_points(&pf, total), total) - pf.oom_score);
		if (d == 0)
			exact++;
		else if (d <= 1)
			near++;
		else
			far++;
	}
	free(all);
	printf("# all processes: %d exact, %d off by one, %d further\n", exact, near, far);
	assert_int_equal(far, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formula),
		cmocka_unit_test(test_oom_score),
		cmocka_unit_test(test_global_vs_cgroup),
		cmocka_unit_test(test_ties_and_unkillable),
		cmocka_unit_test(test_global_totalpages),
		cmocka_unit_test(test_live_oom_score),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
