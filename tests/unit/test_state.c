/* test_state.c - the state journal: replay, torn lines, first original kept, pid
 * reuse, compaction, the lock and the run dir checks. Processes live in a fake /proc. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "testfs.h"
#include "proc.h"
#include "state.h"

static char base[64];		/* the temp dir of one test */
static char run_dir[128];
static char fake_proc[128];

/* A process (pid, start) in the fake /proc: only stat is needed. */
static void fake_process(pid_t pid, unsigned long long start)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d", fake_proc, (int)pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/stat", fake_proc, (int)pid);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%d (a) b) S 1 1 1 0 -1 4194560 10 0 0 0 1 2 0 0 20 0 1 0 %llu 1000 200 "
		"18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n", (int)pid, start);
	fclose(f);
}

static void fake_exit(pid_t pid)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%d/stat", fake_proc, (int)pid);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%d", fake_proc, (int)pid);
	rmdir(path);
}

static int setup(void **unused)
{
	(void)unused;
	strcpy(base, "/tmp/test_state.XXXXXX");
	assert_non_null(mkdtemp(base));
	chmod(base, 0755);
	snprintf(run_dir, sizeof(run_dir), "%s/run/oompardon", base);
	snprintf(fake_proc, sizeof(fake_proc), "%s/proc", base);
	mkdir(fake_proc, 0755);
	proc_root = fake_proc;
	return 0;
}

static int teardown(void **unused)
{
	char cmd[256];

	(void)unused;
	proc_root = "/proc";
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) == 0 ? 0 : -1;
}

static char *journal_text(void)
{
	static char buf[1 << 16];
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", run_dir, STATE_FILE);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_true(n >= 0);
	buf[n] = '\0';
	return buf;
}

static void journal_set(const char *text)
{
	testfs_write(run_dir, STATE_FILE, text);
}

static void test_record_find_forget(void **unused)
{
	struct state st;
	struct state_entry *e;

	(void)unused;
	fake_process(100, 5000);
	assert_int_equal(state_open(&st, run_dir, false), 0);
	assert_null(state_find(&st, 100));
	assert_int_equal(state_record(&st, 100, 5000, 0, 500), 0);
	e = state_find(&st, 100);
	assert_non_null(e);
	assert_int_equal(e->original, 0);
	assert_int_equal(e->set, 500);
	assert_int_equal(st.count, 1);
	assert_int_equal(state_forget(&st, 100), 0);
	assert_null(state_find(&st, 100));
	assert_int_equal(state_forget(&st, 100), 0);	/* unknown: fine, no line */
	assert_int_equal(st.count, 0);
	state_close(&st);
}

static void test_replay_keeps_first_original(void **unused)
{
	struct state st;
	struct state_entry *e;

	(void)unused;
	fake_process(100, 5000);
	fake_process(101, 5001);
	assert_int_equal(state_open(&st, run_dir, false), 0);
	assert_int_equal(state_record(&st, 100, 5000, 100, 500), 0);
	/* a rescan reads back our own 500: never an original */
	assert_int_equal(state_record(&st, 100, 5000, 500, 700), 0);
	assert_int_equal(state_record(&st, 101, 5001, -17, 300), 0);
	e = state_find(&st, 100);
	assert_int_equal(e->original, 100);
	assert_int_equal(e->set, 700);
	/* kill -9: no close, no compaction; the lock goes with the fds */
	close(st.fd);
	close(st.lock_fd);
	close(st.dir_fd);
	free(st.slots);
	free(st.dir);

	assert_int_equal(state_open(&st, run_dir, false), 0);
	assert_int_equal(st.count, 2);
	e = state_find(&st, 100);
	assert_non_null(e);
	assert_int_equal(e->original, 100);
	assert_int_equal(e->set, 700);
	e = state_find(&st, 101);
	assert_non_null(e);
	assert_int_equal(e->original, -17);
	assert_int_equal(e->set, 300);
	/* a restarted daemon reads back 700 and records it: the original stays 100 */
	assert_int_equal(state_record(&st, 100, 5000, 700, 800), 0);
	assert_int_equal(state_find(&st, 100)->original, 100);
	state_close(&st);
}

static void test_gone_and_reused_dropped(void **unused)
{
	struct state st;
	struct state_entry *e;

	(void)unused;
	fake_process(100, 5000);
	fake_process(101, 5001);
	fake_process(102, 5002);
	assert_int_equal(state_open(&st, run_dir, false), 0);
	assert_int_equal(state_record(&st, 100, 5000, 0, 500), 0);
	assert_int_equal(state_record(&st, 101, 5001, 0, 500), 0);
	assert_int_equal(state_record(&st, 102, 5002, 0, 500), 0);
	state_close(&st);
	fake_exit(101);
	fake_process(102, 9999);	/* pid 102 is another process now */
	assert_int_equal(state_open(&st, run_dir, false), 0);
	assert_int_equal(st.count, 1);
	assert_non_null(state_find(&st, 100));
	assert_null(state_find(&st, 101));
	assert_null(state_find(&st, 102));
	/* a record for the new process under an old pid replaces, with its own original */
	assert_int_equal(state_record(&st, 100, 6000, 42, 500), 0);
	e = state_find(&st, 100);
	assert_int_equal(e->start_time, 6000);
	assert_int_equal(e->original, 42);
	state_close(&st);
}

static void test_many_dead_at_open(void **unused)
{
	struct state st;
	pid_t pid;

	(void)unused;
	for (pid = 3; pid <= 3000; pid += 3)
		fake_process(pid, (unsigned long long)pid * 10);
	assert_int_equal(state_open(&st, run_dir, false), 0);
	for (pid = 1; pid <= 3000; pid++)
		assert_int_equal(state_record(&st, pid, (unsigned long long)pid * 10, pid, 500), 0);
	state_close(&st);
	assert_int_equal(state_open(&st, run_dir, false), 0);
	assert_int_equal(st.count, 1000);
	for (pid = 1; pid <= 3000; pid++)
		if (pid % 3 == 0)
			assert_int_equal(state_find(&st, pid)->original, pid);
		else
			assert_null(state_find(&st, pid));
	state_close(&st);
}

static void test_torn_and_bad_lines(void **unused)
{
	struct state st;

	(void)unused;
	fake_process(100, 5000);
	fake_process(101, 5001);
	fake_process(102, 5002);
	assert_int_equal(state_open(&st, run_dir, false), 0);
	state_close(&st);
	journal_set("# comment\n"
		    "+ 100 5000 0 500\n"
		    "garbage line\n"
		    "+ 101 5001 0 500 extra\n"
		    "- 100 4999\n"		/* another process: not a forget of 100 */
		    "+ 102 5002 0 -10");	/* torn: the crash came inside write(2) */
	assert_int_equal(state_open(&st, run_dir, false), 0);
	assert_int_equal(st.count, 1);
	assert_non_null(state_find(&st, 100));
	assert_null(state_find(&st, 101));
	assert_null(state_find(&st, 102));
	/* the next record starts on a line of its own */
	assert_int_equal(state_record(&st, 102, 5002, 0, 600), 0);
	state_close(&st);
	assert_int_equal(state_open(&st, run_dir, false), 0);
	assert_int_equal(st.count, 2);
	assert_int_equal(state_find(&st, 102)->set, 600);
	state_close(&st);
}

static void test_compaction(void **unused)
{
	struct state st;
	char *text;
	pid_t pid;
	int i;

	(void)unused;
	fake_process(7, 70);
	assert_int_equal(state_open(&st, run_dir, false), 0);
	assert_int_equal(state_record(&st, 7, 70, 1, 2), 0);
	/* churn: many short-lived processes (they need no fake /proc while open) */
	for (i = 0; i < 20000; i++) {
		pid = 1000 + i % 5000;
		assert_int_equal(state_record(&st, pid, (unsigned long long)i, 0, 500), 0);
		assert_int_equal(state_forget(&st, pid), 0);
	}
	assert_true(st.journal_lines < 4 * 1024 + 1);
	assert_int_equal(state_compact(&st), 0);
	text = journal_text();
	assert_string_equal(strchr(text, '\n') + 1, "+ 7 70 1 2\n");
	state_close(&st);
}

static void test_many_entries(void **unused)
{
	struct state st;
	struct state_entry *e;
	pid_t pid;
	size_t n = 0;

	(void)unused;
	assert_int_equal(state_open(&st, run_dir, false), 0);
	for (pid = 1; pid <= 10000; pid++)
		assert_int_equal(state_record(&st, pid, (unsigned long long)pid * 3, pid % 7, 500), 0);
	/* delete every third, in an order that breaks probe runs */
	for (pid = 10000; pid >= 1; pid--)
		if (pid % 3 == 0)
			assert_int_equal(state_forget(&st, pid), 0);
	for (pid = 1; pid <= 10000; pid++) {
		e = state_find(&st, pid);
		if (pid % 3 == 0) {
			assert_null(e);
			continue;
		}
		assert_non_null(e);
		assert_int_equal(e->start_time, (unsigned long long)pid * 3);
		assert_int_equal(e->original, pid % 7);
	}
	state_foreach(&st, e)
		n++;
	assert_int_equal(n, st.count);
	assert_int_equal(n, 10000 - 3333);
	state_close(&st);
}

static void test_lock(void **unused)
{
	struct state a, b;

	(void)unused;
	assert_int_equal(state_open(&a, run_dir, false), 0);
	assert_int_equal(state_open(&b, run_dir, false), -EWOULDBLOCK);
	state_close(&a);
	assert_int_equal(state_open(&b, run_dir, false), 0);
	state_close(&b);
}

static void test_pid_file(void **unused)
{
	struct state st;
	pid_t pid = 0;

	(void)unused;
	assert_int_equal(state_open(&st, run_dir, false), 0);
	assert_int_equal(state_daemon_pid(run_dir, &pid), -ENOENT);
	assert_int_equal(state_write_pid(&st), 0);
	assert_int_equal(state_daemon_pid(run_dir, &pid), 0);
	assert_int_equal(pid, getpid());
	state_close(&st);
	assert_int_equal(state_daemon_pid(run_dir, &pid), -ENOENT);
}

static void test_unsafe_run_dirs(void **unused)
{
	struct state st;
	char link[256], open_dir[256];

	(void)unused;
	assert_int_equal(state_open(&st, run_dir, false), 0);
	state_close(&st);
	snprintf(link, sizeof(link), "%s/link", base);
	assert_int_equal(symlink(run_dir, link), 0);
	assert_int_equal(state_open(&st, link, false), -ELOOP);
	snprintf(open_dir, sizeof(open_dir), "%s/open", base);
	assert_int_equal(mkdir(open_dir, 0755), 0);
	assert_int_equal(chmod(open_dir, 0777), 0);
	assert_int_equal(state_open(&st, open_dir, false), -EPERM);
	assert_int_equal(chmod(open_dir, 0775), 0);
	assert_int_equal(state_open(&st, open_dir, false), -EPERM);
	if (geteuid() == 0) {
		assert_int_equal(chmod(open_dir, 0755), 0);
		assert_int_equal(chown(open_dir, 1234, 0), 0);
		assert_int_equal(state_open(&st, open_dir, false), -EPERM);
	}
}

/* Not a timed test: prints the rate the daemon can record and forget at. */
static void test_speed(void **unused)
{
	struct state st;
	struct timespec t0, t1;
	double s;
	pid_t pid;
	int n = 100000;

	(void)unused;
	assert_int_equal(state_open(&st, run_dir, false), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (pid = 1; pid <= n; pid++)
		assert_int_equal(state_record(&st, pid, 1, 0, -1000), 0);
	for (pid = 1; pid <= n; pid++)
		assert_int_equal(state_forget(&st, pid), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	print_message("# %d records + %d forgets in %.3f s: %.2f us each\n", n, n, s, s * 1e6 / (2.0 * n));
	state_close(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_record_find_forget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replay_keeps_first_original, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gone_and_reused_dropped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_dead_at_open, setup, teardown),
		cmocka_unit_test_setup_teardown(test_torn_and_bad_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compaction, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_entries, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pid_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unsafe_run_dirs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_speed, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
