/* test_proc.c - /proc parsing: hostile names, a fake proc tree, real processes. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "testfs.h"
#include "proc.h"

/* Fields 4.. of a real stat line, after "(comm) ": flags (field 9) 4194560,
 * starttime (field 22) 12345. */
#define STAT_TAIL "S 77 1 1 0 -1 4194560 10 0 0 0 1 2 0 0 20 0 1 0 12345 1000 200 " \
	"18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"

static void parse_name(const char *name)
{
	struct proc_facts pf;
	char text[512];

	memset(&pf, 0, sizeof(pf));
	snprintf(text, sizeof(text), "4242 (%s) " STAT_TAIL, name);
	assert_int_equal(proc_parse_stat(text, &pf), 0);
	assert_string_equal(pf.comm, name);
	assert_int_equal(pf.ppid, 77);
	assert_int_equal(pf.start_time, 12345);
	assert_false(pf.kthread);
}

static void test_stat_hostile_names(void **state)
{
	(void)state;
	parse_name("bash");
	parse_name("foo) Z");
	parse_name("foo) S 1 2 3 4 5");
	parse_name(")");
	parse_name("))");
	parse_name("(");
	parse_name("a b c");
	parse_name("new\nline");
	parse_name("");
	parse_name(" ");
	parse_name("15 chars long!!");
}

static void test_stat_kthread(void **state)
{
	const char *text = "2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 20 0 1 0 25 0 0 "
			   "18446744073709551615 0 0 0 0 0 0 0 2147483647 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
	struct proc_facts pf;

	(void)state;
	assert_int_equal(proc_parse_stat(text, &pf), 0);
	assert_true(pf.kthread);
	assert_string_equal(pf.comm, "kthreadd");
	assert_int_equal(pf.start_time, 25);
	assert_int_equal(pf.ppid, 0);
}

static void test_stat_malformed(void **state)
{
	struct proc_facts pf;

	(void)state;
	assert_int_equal(proc_parse_stat("", &pf), -EINVAL);
	assert_int_equal(proc_parse_stat("1 (x", &pf), -EINVAL);
	assert_int_equal(proc_parse_stat("1 x) S 1", &pf), -EINVAL);
	assert_int_equal(proc_parse_stat("1 (x) S 1 2 3", &pf), -EINVAL);	/* cut short */
	assert_int_equal(proc_parse_stat("1 (x) S y 1 1 0 -1 0 10 0 0 0 1 2 0 0 20 0 1 0 5 1", &pf),
			 -EINVAL);
}

/* ---- a fake proc tree ---- */

static char root[64];

static void write_file(const char *rel, const char *text)
{
	testfs_write(root, rel, text);
}

static void make_dir(const char *rel)
{
	testfs_mkdir(root, rel);
}

static const char status_text[] =
	"Name:\tfoo\\nUid:\t5\n"	/* an escaped hostile name cannot fake a line */
	"Umask:\t0022\n"
	"State:\tS (sleeping)\n"
	"Uid:\t1000\t1000\t1000\t1000\n"
	"Gid:\t1000\t1000\t1000\t1000\n"
	"VmPeak:\t  10000 kB\n"
	"VmRSS:\t    900 kB\n"
	"RssAnon:\t     100 kB\n"
	"RssFile:\t     700 kB\n"
	"RssShmem:\t     100 kB\n"
	"VmPTE:\t      48 kB\n"
	"VmSwap:\t      12 kB\n"
	"Threads:\t1\n";

static int fake_setup(void **state)
{
	char link[512];

	(void)state;
	strcpy(root, "/tmp/test_proc.XXXXXX");
	assert_non_null(mkdtemp(root));
	/* 100: an ordinary process whose exe is /bin/sh */
	make_dir("100");
	write_file("100/stat", "100 (foo) Z) " STAT_TAIL);
	write_file("100/status", status_text);
	write_file("100/oom_score", "666\n");
	write_file("100/oom_score_adj", "-17\n");
	write_file("100/cgroup", "4:memory:/user.slice\n0::/user.slice/app.scope\n");
	snprintf(link, sizeof(link), "%s/100/exe", root);
	assert_int_equal(symlink("/bin/sh", link), 0);
	/* 2: a kernel thread, no exe */
	make_dir("2");
	write_file("2/stat", "2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 20 0 1 0 25 0 0 "
			     "18446744073709551615 0 0 0 0 0 0 0 2147483647 0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
	write_file("2/status", "Name:\tkthreadd\nUid:\t0\t0\t0\t0\n");
	/* not pids */
	make_dir("self");
	make_dir("007");
	make_dir("12a");
	proc_root = root;
	return 0;
}

static int fake_teardown(void **state)
{
	char cmd[128];

	(void)state;
	proc_root = "/proc";
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void test_fake_all(void **state)
{
	struct proc_facts pf;
	struct stat st;

	(void)state;
	memset(&pf, 0xff, sizeof(pf));
	assert_int_equal(proc_read(100, PROC_ALL, &pf), 0);
	assert_int_equal(pf.have, PROC_ALL);
	assert_int_equal(pf.pid, 100);
	assert_string_equal(pf.comm, "foo) Z");
	assert_int_equal(pf.start_time, 12345);
	assert_true(pf.has_exe);
	assert_string_equal(pf.exe, "/bin/sh");
	assert_false(pf.exe_deleted);
	assert_int_equal(stat("/bin/sh", &st), 0);
	assert_true(pf.exe_dev == st.st_dev && pf.exe_ino == st.st_ino);
	assert_int_equal(pf.uid, 1000);
	assert_int_equal(pf.rss_kib, 900);
	assert_int_equal(pf.swap_kib, 12);
	assert_int_equal(pf.pte_kib, 48);
	assert_int_equal(pf.oom_score, 666);
	assert_int_equal(pf.oom_score_adj, -17);
	assert_string_equal(pf.cgroup, "4:memory:/user.slice\n0::/user.slice/app.scope\n");
}

static void test_fake_only_what_asked(void **state)
{
	struct proc_facts pf;

	(void)state;
	memset(&pf, 0, sizeof(pf));
	assert_int_equal(proc_read(100, PROC_STATUS, &pf), 0);
	assert_int_equal(pf.have, PROC_STATUS);
	assert_string_equal(pf.comm, "");
	assert_string_equal(pf.exe, "");
	assert_int_equal(pf.uid, 1000);
}

static void test_fake_kthread(void **state)
{
	struct proc_facts pf;

	(void)state;
	assert_int_equal(proc_read(2, PROC_STAT | PROC_EXE | PROC_STATUS, &pf), 0);
	assert_true(pf.kthread);
	assert_false(pf.has_exe);
	assert_int_equal(pf.rss_kib, 0);
	assert_int_equal(pf.uid, 0);
}

static void test_fake_gone(void **state)
{
	struct proc_facts pf;
	unsigned long long st;

	(void)state;
	assert_int_equal(proc_read(999, PROC_STAT, &pf), -ESRCH);
	assert_int_equal(proc_read(2, PROC_OOM, &pf), -ESRCH);	/* files missing */
	assert_int_equal(proc_start_time(100, &st), 0);
	assert_int_equal(st, 12345);
	assert_int_equal(proc_start_time(3, &st), -ESRCH);
}

static int cmp_pid(const void *a, const void *b)
{
	return *(const pid_t *)a - *(const pid_t *)b;
}

static void test_fake_list(void **state)
{
	pid_t *pids = NULL;
	int n;

	(void)state;
	n = proc_list(&pids);
	assert_int_equal(n, 2);
	qsort(pids, (size_t)n, sizeof(*pids), cmp_pid);
	assert_int_equal(pids[0], 2);
	assert_int_equal(pids[1], 100);
	free(pids);
}

/* ---- real processes ---- */

static void test_real_self(void **state)
{
	struct proc_facts pf;
	struct stat st;

	(void)state;
	assert_int_equal(proc_read(getpid(), PROC_ALL, &pf), 0);
	/* the path names the very file running (not compared with readlink of
	 * /proc/self/exe: valgrind fakes that one) */
	assert_true(pf.has_exe);
	assert_int_equal(pf.exe[0], '/');
	assert_int_equal(stat(pf.exe, &st), 0);
	assert_true(st.st_dev == pf.exe_dev && st.st_ino == pf.exe_ino);
	assert_int_equal(pf.uid, getuid());
	assert_int_equal(pf.ppid, getppid());
	assert_true(pf.rss_kib > 0);
	assert_false(pf.kthread);
	assert_non_null(strstr(pf.cgroup, "0::"));
}

static void test_real_list_has_self(void **state)
{
	pid_t *pids = NULL, me = getpid();
	int n, i, found = 0;

	(void)state;
	n = proc_list(&pids);
	assert_true(n > 1);
	for (i = 0; i < n; i++)
		found |= pids[i] == me;
	assert_true(found);
	free(pids);
}

static void test_real_gone_and_zombie(void **state)
{
	struct proc_facts pf;
	pid_t pid;
	int status;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	/* a zombie until reaped: stat works, no exe */
	for (;;) {
		assert_int_equal(proc_read(pid, PROC_STAT | PROC_EXE, &pf), 0);
		if (!pf.has_exe)
			break;
		usleep(1000);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(proc_read(pid, PROC_STAT, &pf), -ESRCH);
	assert_int_equal(proc_read(pid, PROC_EXE, &pf), -ESRCH);
}

/* Copies /bin/sleep to dir/name and runs it; returns its pid once the exec happened. */
static pid_t run_copy(const char *dir, const char *name, char *path, size_t size)
{
	struct proc_facts pf;
	char cmd[256];
	pid_t pid;
	int i;

	snprintf(path, size, "%s/%s", dir, name);
	snprintf(cmd, sizeof(cmd), "cp /bin/sleep '%s'", path);
	assert_int_equal(system(cmd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execl(path, "sleep", "30", (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 2000; i++) {
		assert_int_equal(proc_read(pid, PROC_EXE, &pf), 0);
		if (strcmp(pf.exe, path) == 0)
			return pid;
		usleep(1000);
	}
	fail_msg("%s never ran", path);
	return -1;
}

/* A binary removed under its running process: " (deleted)" is stripped, the
 * dev/ino still name the file the kernel runs. */
static void test_real_deleted_exe(void **state)
{
	char dir[] = "/tmp/test_proc_exe.XXXXXX", path[128];
	struct proc_facts pf;
	struct stat st;
	pid_t pid;

	(void)state;
	assert_non_null(mkdtemp(dir));
	pid = run_copy(dir, "sleep (x)", path, sizeof(path));
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(proc_read(pid, PROC_EXE, &pf), 0);
	assert_false(pf.exe_deleted);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(proc_read(pid, PROC_EXE, &pf), 0);
	assert_string_equal(pf.exe, path);
	assert_true(pf.exe_deleted);
	assert_true(pf.exe_dev == st.st_dev && pf.exe_ino == st.st_ino);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	rmdir(dir);
}

/* Replaced while a hard link to the old file remains (a package manager's backup):
 * still deleted, the link count is not what tells. */
static void test_real_replaced_linked(void **state)
{
	char dir[] = "/tmp/test_proc_exe.XXXXXX", path[128], backup[160], cmd[512];
	struct proc_facts pf;
	pid_t pid;

	(void)state;
	assert_non_null(mkdtemp(dir));
	pid = run_copy(dir, "daemon", path, sizeof(path));
	snprintf(backup, sizeof(backup), "%s.dpkg-tmp", path);
	assert_int_equal(link(path, backup), 0);
	snprintf(cmd, sizeof(cmd), "cp /bin/sleep '%s.new' && mv -f '%s.new' '%s'", path, path, path);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(proc_read(pid, PROC_EXE, &pf), 0);
	assert_string_equal(pf.exe, path);
	assert_true(pf.exe_deleted);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	unlink(path);
	unlink(backup);
	rmdir(dir);
}

/* A file really named "... (deleted)" that exists is not deleted. */
static void test_real_named_deleted(void **state)
{
	char dir[] = "/tmp/test_proc_exe.XXXXXX", path[128];
	struct proc_facts pf;
	pid_t pid;

	(void)state;
	assert_non_null(mkdtemp(dir));
	pid = run_copy(dir, "sleep (deleted)", path, sizeof(path));
	assert_int_equal(proc_read(pid, PROC_EXE, &pf), 0);
	assert_string_equal(pf.exe, path);
	assert_false(pf.exe_deleted);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest plain[] = {
		cmocka_unit_test(test_stat_hostile_names),
		cmocka_unit_test(test_stat_kthread),
		cmocka_unit_test(test_stat_malformed),
		cmocka_unit_test(test_real_self),
		cmocka_unit_test(test_real_list_has_self),
		cmocka_unit_test(test_real_gone_and_zombie),
		cmocka_unit_test(test_real_deleted_exe),
		cmocka_unit_test(test_real_named_deleted),
		cmocka_unit_test(test_real_replaced_linked),
	};
	const struct CMUnitTest fake[] = {
		cmocka_unit_test(test_fake_all),
		cmocka_unit_test(test_fake_only_what_asked),
		cmocka_unit_test(test_fake_kthread),
		cmocka_unit_test(test_fake_gone),
		cmocka_unit_test(test_fake_list),
	};
	int failed;

	failed = cmocka_run_group_tests_name("proc", plain, NULL, NULL);
	failed += cmocka_run_group_tests_name("proc_fake_tree", fake, fake_setup, fake_teardown);
	return failed ? 1 : 0;
}
