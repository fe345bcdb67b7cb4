/* test_cgroup.c - mountinfo, /proc/PID/cgroup paths, limits, mem_cgroup_get_max, the pid walk. */
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
#include <unistd.h>
#include <cmocka.h>

#include "testfs.h"
#include "cgroup.h"

static char tmp[PATH_MAX];

static void write_file(const char *rel, const char *text)
{
	testfs_write(tmp, rel, text);
}

static void make_dir(const char *rel)
{
	testfs_mkdir(tmp, rel);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/oompardon-test-cgroup.XXXXXX");
	assert_non_null(mkdtemp(tmp));
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
	cgroup_mountinfo = "/proc/self/mountinfo";
	return 0;
}

/* A v1 host like this one: memory mounted alone, plus name=systemd and a v2 mount. */
static void fake_v1(const char *memory_root)
{
	char text[4 * PATH_MAX], path[PATH_MAX + 32];

	make_dir("mem");
	make_dir("my\\ cg");	/* a mount point with a space: mountinfo says \040 */
	make_dir("uni");
	snprintf(text, sizeof(text),
		 "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
		 "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
		 "35 31 0:32 %s %s/mem rw,relatime shared:7 - cgroup cgroup rw,memory\n"
		 "40 31 0:37 / %s/my\\134\\040cg rw,relatime - cgroup cgroup rw,xattr,name=systemd\n"
		 "41 31 0:38 / %s/uni rw,relatime - cgroup2 cgroup2 rw\n",
		 memory_root, tmp, tmp, tmp);
	write_file("mountinfo", text);
	snprintf(path, sizeof(path), "%s/mountinfo", tmp);
	cgroup_mountinfo = strdup(path);
}

static void test_parse_limit(void **state)
{
	unsigned long long b;

	(void)state;
	assert_int_equal(cgroup_parse_limit("max\n", &b), 0);
	assert_true(b == ULLONG_MAX);
	assert_int_equal(cgroup_parse_limit("9223372036854771712\n", &b), 0);	/* v1 none, 4 KiB pages */
	assert_true(b == ULLONG_MAX);
	assert_int_equal(cgroup_parse_limit("9223372036854710272", &b), 0);	/* v1 none, 64 KiB pages */
	assert_true(b == ULLONG_MAX);
	assert_int_equal(cgroup_parse_limit("209715200\n", &b), 0);
	assert_true(b == 209715200ULL);
	assert_int_equal(cgroup_parse_limit("0", &b), 0);
	assert_true(b == 0);
	assert_int_equal(cgroup_parse_limit("", &b), -EINVAL);
	assert_int_equal(cgroup_parse_limit("-1", &b), -EINVAL);
	assert_int_equal(cgroup_parse_limit("12k", &b), -EINVAL);
	assert_int_equal(cgroup_parse_limit("maximum", &b), -EINVAL);
	assert_int_equal(cgroup_parse_limit("99999999999999999999999", &b), -EINVAL);
}

static void test_path_of(void **state)
{
	const char *raw = "9:name=systemd:/user.slice/a b\n"
			  "4:memory:/process_api/c5597\n"
			  "3:cpu,cpuacct:/x:y\n"
			  "0::/user.slice/user-0.slice/session-1.scope\n";
	char out[PATH_MAX], small[4];

	(void)state;
	assert_int_equal(cgroup_path_of(raw, "memory", out, sizeof(out)), 0);
	assert_string_equal(out, "/process_api/c5597");
	assert_int_equal(cgroup_path_of(raw, "", out, sizeof(out)), 0);
	assert_string_equal(out, "/user.slice/user-0.slice/session-1.scope");
	assert_int_equal(cgroup_path_of(raw, "name=systemd", out, sizeof(out)), 0);
	assert_string_equal(out, "/user.slice/a b");
	assert_int_equal(cgroup_path_of(raw, "cpuacct", out, sizeof(out)), 0);
	assert_string_equal(out, "/x:y");	/* the path runs to the end of the line */
	assert_int_equal(cgroup_path_of(raw, "cpua", out, sizeof(out)), -ENOENT);
	assert_int_equal(cgroup_path_of(raw, "pids", out, sizeof(out)), -ENOENT);
	assert_int_equal(cgroup_path_of(raw, "memory", small, sizeof(small)), -ENAMETOOLONG);
	assert_int_equal(cgroup_path_of("4:memory:/a", "", out, sizeof(out)), -ENOENT);
	assert_int_equal(cgroup_path_of("garbage\n0::/", "", out, sizeof(out)), 0);
	assert_string_equal(out, "/");
	assert_int_equal(cgroup_path_of("", "", out, sizeof(out)), -ENOENT);
}

static void test_mount_of(void **state)
{
	char out[PATH_MAX], want[PATH_MAX + 32];

	(void)state;
	fake_v1("/");
	assert_int_equal(cgroup_mount_of("memory", out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "%s/mem", tmp);
	assert_string_equal(out, want);
	assert_int_equal(cgroup_mount_of("name=systemd", out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "%s/my\\ cg", tmp);
	assert_string_equal(out, want);
	assert_int_equal(cgroup_mount_of("", out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "%s/uni", tmp);
	assert_string_equal(out, want);
	assert_int_equal(cgroup_mount_of("systemd", out, sizeof(out)), -ENOENT);
	assert_int_equal(cgroup_mount_of("pids", out, sizeof(out)), -ENOENT);
	cgroup_mountinfo = "/nonexistent/mountinfo";
	assert_int_equal(cgroup_mount_of("memory", out, sizeof(out)), -ENOENT);
}

static void test_resolve_v1(void **state)
{
	struct memcg cg, up;
	char want[PATH_MAX + 32], arg[PATH_MAX + 32];

	(void)state;
	fake_v1("/");
	make_dir("mem/a");
	make_dir("mem/a/b");
	write_file("mem/a/memory.limit_in_bytes", "209715200\n");
	write_file("mem/a/memory.usage_in_bytes", "1048576\n");
	write_file("mem/a/b/memory.limit_in_bytes", "9223372036854771712\n");

	assert_int_equal(cgroup_memcg_resolve("/a", &cg), 0);
	snprintf(want, sizeof(want), "%s/mem/a", tmp);
	assert_string_equal(cg.dir, want);
	assert_false(cg.v2);
	assert_true(cg.limit_bytes == 209715200ULL);
	assert_true(cg.usage_bytes == 1048576ULL);
	assert_int_equal(cgroup_memcg_totalpages(&cg), 209715200L / sysconf(_SC_PAGESIZE));

	/* the directory itself, with a trailing slash */
	snprintf(arg, sizeof(arg), "%s/mem/a/", tmp);
	assert_int_equal(cgroup_memcg_resolve(arg, &cg), 0);
	assert_string_equal(cg.dir, want);

	assert_int_equal(cgroup_memcg_resolve("/a/b", &cg), 0);
	assert_true(cg.limit_bytes == ULLONG_MAX);
	assert_int_equal(cgroup_memcg_resolve("/", &cg), 0);
	snprintf(want, sizeof(want), "%s/mem", tmp);
	assert_string_equal(cg.dir, want);

	/* up the tree: b -> a -> the top, then no further */
	assert_int_equal(cgroup_memcg_resolve("/a/b", &cg), 0);
	assert_int_equal(cgroup_memcg_parent(&cg, &up), 0);
	snprintf(want, sizeof(want), "%s/mem/a", tmp);
	assert_string_equal(up.dir, want);
	assert_true(up.limit_bytes == 209715200ULL);
	assert_int_equal(cgroup_memcg_parent(&up, &cg), 0);
	snprintf(want, sizeof(want), "%s/mem", tmp);
	assert_string_equal(cg.dir, want);
	assert_int_equal(cgroup_memcg_parent(&cg, &up), -ENOENT);

	assert_int_equal(cgroup_memcg_resolve("/nope", &cg), -ENOENT);
	assert_int_equal(cgroup_memcg_resolve("/a/../../..", &cg), -ENOENT);
	assert_int_equal(cgroup_memcg_resolve("a", &cg), -EINVAL);
}

/* In a cgroup namespace or container the mount shows a subtree: root is not "/". */
static void test_resolve_namespaced(void **state)
{
	struct memcg cg;
	char want[PATH_MAX + 32];

	(void)state;
	fake_v1("/docker/ab12");
	make_dir("mem/x");
	assert_int_equal(cgroup_memcg_resolve("/docker/ab12/x", &cg), 0);
	snprintf(want, sizeof(want), "%s/mem/x", tmp);
	assert_string_equal(cg.dir, want);
	assert_int_equal(cgroup_memcg_resolve("/docker/ab12", &cg), 0);
	assert_int_equal(cgroup_memcg_resolve("/docker/ab", &cg), -ENOENT);
	assert_int_equal(cgroup_memcg_resolve("/x", &cg), -ENOENT);
}

static void fake_v2(const char *controllers)
{
	char text[2 * PATH_MAX], path[PATH_MAX + 32];

	make_dir("u");
	snprintf(text, sizeof(text),
		 "25 1 0:22 / /sys rw - sysfs sysfs rw\n"
		 "26 25 0:23 / %s/u rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n", tmp);
	write_file("mountinfo", text);
	write_file("u/cgroup.controllers", controllers);
	snprintf(path, sizeof(path), "%s/mountinfo", tmp);
	cgroup_mountinfo = strdup(path);
}

static void test_resolve_v2(void **state)
{
	struct memcg cg;
	pid_t *pids = NULL;
	int n;

	(void)state;
	fake_v2("cpuset cpu io memory pids\n");
	make_dir("u/s");
	make_dir("u/s/c1");
	make_dir("u/s/c2");
	write_file("u/s/memory.max", "max\n");
	write_file("u/s/memory.current", "4096\n");
	write_file("u/s/cgroup.procs", "30\n10\n");
	write_file("u/s/c1/cgroup.procs", "5\n");
	write_file("u/s/c2/cgroup.procs", "");
	assert_int_equal(cgroup_memcg_resolve("/s", &cg), 0);
	assert_true(cg.v2);
	assert_true(cg.limit_bytes == ULLONG_MAX);
	assert_true(cg.usage_bytes == 4096);
	/* v2's cgroup.procs is the kernel's own iteration order: kept */
	n = cgroup_memcg_pids(&cg, &pids);
	assert_int_equal(n, 3);
	assert_int_equal(pids[0], 30);
	assert_int_equal(pids[1], 10);
	assert_int_equal(pids[2], 5);
	free(pids);

	/* the root of v2 has no memory.max */
	assert_int_equal(cgroup_memcg_resolve("/", &cg), 0);
	assert_true(cg.limit_bytes == ULLONG_MAX);
}

static void test_v2_without_memory(void **state)
{
	struct memcg cg;

	(void)state;
	fake_v2("cpu io pids\n");
	assert_int_equal(cgroup_memcg_resolve("/", &cg), -ENOENT);
}

static void test_get_max(void **state)
{
	(void)state;
	/* v2: memory.max + min(swap.max, total swap) */
	assert_int_equal(cgroup_get_max_pages(true, false, 51200, ULLONG_MAX, 0, true), 51200);
	assert_int_equal(cgroup_get_max_pages(true, false, 51200, ULLONG_MAX, 1000, true), 52200);
	assert_int_equal(cgroup_get_max_pages(true, false, 51200, 100, 1000, true), 51300);
	assert_int_equal(cgroup_get_max_pages(true, false, 51200, 100, 1000, false), 51200);
	/* v1 with memsw accounting: memory.max + min(memsw.max - memory.max, total swap) */
	assert_int_equal(cgroup_get_max_pages(false, true, 51200, 51200 + 300, 1000, true), 51500);
	assert_int_equal(cgroup_get_max_pages(false, true, 51200, 51200 + 3000, 1000, true), 52200);
	assert_int_equal(cgroup_get_max_pages(false, true, 51200, 51200, 1000, true), 51200);
	/* this machine: v1, no swap */
	assert_int_equal(cgroup_get_max_pages(false, true, 51200, ULLONG_MAX / 4096, 0, true), 51200);
	/* no limit at all: PAGE_COUNTER_MAX pages, never overflowing */
	assert_int_equal(cgroup_get_max_pages(true, false, LONG_MAX / 4096, ULLONG_MAX, 1000, true),
			 LONG_MAX / 4096 + 1000);
	assert_int_equal(cgroup_get_max_pages(true, false, ULLONG_MAX, ULLONG_MAX, ULLONG_MAX, true),
			 LONG_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_limit),
		cmocka_unit_test(test_path_of),
		cmocka_unit_test_setup_teardown(test_mount_of, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve_v1, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve_namespaced, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve_v2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_v2_without_memory, setup, teardown),
		cmocka_unit_test(test_get_max),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
