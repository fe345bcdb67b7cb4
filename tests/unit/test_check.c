/* test_check.c - `check`: reading a fake /proc, the mode 2 arithmetic, the pardon warning. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "testfs.h"
#include "check.h"

static char root[PATH_MAX];

static void put(const char *rel, const char *text)
{
	testfs_write(root, rel, text);
}

/* This machine's numbers (Linux 6.18, 24 GiB, no swap), as a fake root. */
static int setup(void **state)
{
	char path[PATH_MAX + 32];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/oompardon-test-check.XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/proc", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/sys", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/sys/vm", root);
	assert_int_equal(mkdir(path, 0755), 0);
	put("proc/sys/vm/overcommit_memory", "0\n");
	put("proc/sys/vm/overcommit_ratio", "50\n");
	put("proc/sys/vm/overcommit_kbytes", "0\n");
	put("proc/sys/vm/panic_on_oom", "0\n");
	put("proc/sys/vm/oom_kill_allocating_task", "0\n");
	put("proc/sys/vm/admin_reserve_kbytes", "8192\n");
	put("proc/meminfo",
	    "MemTotal:       24683568 kB\n"
	    "MemFree:        23000000 kB\n"
	    "MemAvailable:   24234428 kB\n"
	    "SwapTotal:             0 kB\n"
	    "SwapFree:              0 kB\n"
	    "CommitLimit:    12341784 kB\n"
	    "Committed_AS:     416168 kB\n"
	    "HugePages_Total:       0\n"
	    "Hugepagesize:       2048 kB\n"
	    "Hugetlb:               0 kB\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void test_read(void **state)
{
	struct check_facts cf;

	(void)state;
	assert_int_equal(check_read(root, &cf), 0);
	assert_int_equal(cf.overcommit_memory, 0);
	assert_int_equal(cf.overcommit_ratio, 50);
	assert_true(cf.mem_total_kib == 24683568);
	assert_true(cf.commit_limit_kib == 12341784);
	assert_true(cf.committed_as_kib == 416168);
	assert_true(cf.admin_reserve_kib == 8192);
	assert_true(cf.swap_total_kib == 0);
	put("proc/meminfo", "MemTotal: 100 kB\n");	/* no Committed_AS */
	assert_int_equal(check_read(root, &cf), -EINVAL);
	assert_int_equal(check_read("/nonexistent-root", &cf), -ENOENT);
}

/* The formula gives exactly the kernel's CommitLimit of this machine. */
static void test_mode2_this_machine(void **state)
{
	struct check_facts cf;
	struct check_mode2 m;

	(void)state;
	assert_int_equal(check_read(root, &cf), 0);
	check_mode2(&cf, 4, &m);
	assert_true(m.limit_kib == cf.commit_limit_kib);
	assert_true(m.feasible);
	assert_true(m.headroom_kib == 12341784 - 416168 - 8192);
	assert_true(m.swap_needed_kib == 0);
	assert_int_equal(m.ratio_needed, 2);	/* 6170892 pages * 2 / 100 = 493 MiB >= 416 MiB */
}

static void test_mode2_over(void **state)
{
	struct check_facts cf;
	struct check_mode2 m;

	(void)state;
	memset(&cf, 0, sizeof(cf));
	cf.mem_total_kib = 8 * 1024 * 1024;	/* 8 GiB */
	cf.overcommit_ratio = 50;
	cf.committed_as_kib = 6 * 1024 * 1024;	/* 6 GiB committed */
	check_mode2(&cf, 4, &m);
	assert_true(m.limit_kib == 4 * 1024 * 1024);
	assert_false(m.feasible);
	assert_true(m.headroom_kib == -2 * 1024 * 1024);
	assert_true(m.swap_needed_kib == 2 * 1024 * 1024);	/* 2 GiB of swap */
	assert_int_equal(m.ratio_needed, 75);
	/* exactly at the limit is not enough: the next page would fail */
	cf.committed_as_kib = 4 * 1024 * 1024;
	check_mode2(&cf, 4, &m);
	assert_false(m.feasible);

	/* with that much swap the same load fits */
	cf.committed_as_kib = 6 * 1024 * 1024;
	cf.swap_total_kib = 2 * 1024 * 1024 + 4;
	check_mode2(&cf, 4, &m);
	assert_true(m.feasible);
	assert_int_equal(m.ratio_needed, 50);

	/* huge pages are taken out of RAM before the ratio */
	cf.swap_total_kib = 0;
	cf.hugetlb_kib = 2 * 1024 * 1024;
	check_mode2(&cf, 4, &m);
	assert_true(m.limit_kib == 3 * 1024 * 1024);
	assert_int_equal(m.ratio_needed, 100);

	/* overcommit_kbytes replaces the ratio */
	cf.hugetlb_kib = 0;
	cf.overcommit_kbytes = 7 * 1024 * 1024;
	check_mode2(&cf, 4, &m);
	assert_true(m.limit_kib == 7 * 1024 * 1024);
	assert_true(m.feasible);

	/* odd sizes: the ratio found really lifts the limit over the need */
	memset(&cf, 0, sizeof(cf));
	cf.mem_total_kib = 1000003;
	cf.committed_as_kib = 333337;
	check_mode2(&cf, 4, &m);
	assert_true((cf.mem_total_kib / 4) * m.ratio_needed / 100 * 4 >= cf.committed_as_kib);
	assert_true((cf.mem_total_kib / 4) * (m.ratio_needed - 1) / 100 * 4 < cf.committed_as_kib);
}

static void test_pardon_risk(void **state)
{
	struct check_facts cf;

	(void)state;
	memset(&cf, 0, sizeof(cf));
	cf.mem_total_kib = 1000000;
	assert_false(check_pardon_risk(&cf, 0, 0));
	assert_false(check_pardon_risk(&cf, 100000, 400000));
	assert_true(check_pardon_risk(&cf, 400001, 400000));	/* more than all others hold */
	assert_true(check_pardon_risk(&cf, 500001, 900000));	/* more than half of RAM + swap */
	cf.swap_total_kib = 1000000;
	assert_false(check_pardon_risk(&cf, 500001, 900000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_read, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mode2_this_machine, setup, teardown),
		cmocka_unit_test(test_mode2_over),
		cmocka_unit_test(test_pardon_risk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
