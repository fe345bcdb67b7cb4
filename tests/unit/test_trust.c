/* test_trust.c - only root's files, directories and cgroups may carry protection. */
#include <errno.h>
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

#include "trust.h"
#include "trusted_dir.h"

#define NOBODY 65534

static char base[256];		/* root's, 0755 */
static char bin[300];		/* base/bin, 0755 */
static char file[320];		/* base/bin/locker, 0755 */

static int setup(void **state)
{
	(void)state;
	if (trusted_dir_make(base, sizeof(base)) != 0)
		return -1;
	snprintf(bin, sizeof(bin), "%s/bin", base);
	snprintf(file, sizeof(file), "%s/locker", bin);
	if (mkdir(bin, 0755) != 0 || trusted_dir_copy("/bin/true", file, 0755) != 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	trusted_dir_remove(base);
	return 0;
}

/* Every test leaves the fixture as it found it. */
static void reset(void)
{
	assert_int_equal(chmod(bin, 0755), 0);
	assert_int_equal(chown(bin, 0, 0), 0);
	assert_int_equal(chmod(file, 0755), 0);
	assert_int_equal(chown(file, 0, 0), 0);
}

static void test_system_paths(void **state)
{
	const char *why = NULL;

	(void)state;
	assert_int_equal(trust_path("/bin/sh", &why), 0);	/* a symlink into /usr/bin */
	assert_int_equal(trust_path("/", &why), 0);
	assert_true(trust_path("/tmp", &why) < 0);
	assert_non_null(why);
	assert_int_equal(trust_path("bin/sh", &why), -EINVAL);
	assert_int_equal(trust_path("/nonexistent/x", &why), -ENOENT);
}

static void test_fixture_trusted(void **state)
{
	const char *why = NULL;

	(void)state;
	reset();
	assert_int_equal(trust_path(file, &why), 0);
	assert_int_equal(trust_path(bin, &why), 0);
}

static void expect_refused(const char *path, const char *reason)
{
	const char *why = NULL;

	assert_int_equal(trust_path(path, &why), -EPERM);
	assert_string_equal(why, reason);
}

static void test_world_writable_dir(void **state)
{
	(void)state;
	reset();
	assert_int_equal(chmod(bin, 0777), 0);
	expect_refused(file, "a parent directory others can write");
	assert_int_equal(chmod(bin, 01777), 0);	/* sticky like /tmp: still not */
	expect_refused(file, "a parent directory others can write");
	assert_int_equal(chmod(bin, 0775), 0);	/* group-writable: not either */
	expect_refused(file, "a parent directory others can write");
	reset();
}

static void test_file_modes_and_owners(void **state)
{
	(void)state;
	reset();
	assert_int_equal(chmod(file, 0757), 0);
	expect_refused(file, "writable by others than root");
	reset();
	assert_int_equal(chown(file, NOBODY, NOBODY), 0);
	expect_refused(file, "not owned by root");
	reset();
	assert_int_equal(chown(bin, NOBODY, 0), 0);
	expect_refused(file, "a parent directory is not owned by root");
	reset();
}

/* A symlink in a trusted place is judged by what it leads to. */
static void test_symlink_out(void **state)
{
	char tmpfile[] = "/tmp/test_trust.XXXXXX", link[400];
	const char *why;
	int fd;

	(void)state;
	reset();
	fd = mkstemp(tmpfile);
	assert_true(fd >= 0);
	close(fd);
	snprintf(link, sizeof(link), "%s/link", bin);
	assert_int_equal(symlink(tmpfile, link), 0);
	expect_refused(link, "a parent directory others can write");
	unlink(link);
	assert_int_equal(symlink(file, link), 0);
	assert_int_equal(trust_path(link, &why), 0);
	unlink(link);
	unlink(tmpfile);
}

static void test_exe_identity(void **state)
{
	const char *why = NULL;
	struct stat st;

	(void)state;
	reset();
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(trust_exe(file, st.st_dev, st.st_ino, &why), 0);
	/* another file at the listed path: what a bind mount in a private namespace shows */
	assert_int_equal(trust_exe(file, st.st_dev, st.st_ino + 1, &why), -ESTALE);
	assert_string_equal(why, "the process does not run the file at that path");
	assert_true(trust_exe("/nonexistent", st.st_dev, st.st_ino, &why) < 0);
	/* the very file, but in a place others can write */
	assert_int_equal(chmod(bin, 01777), 0);
	assert_int_equal(trust_exe(file, st.st_dev, st.st_ino, &why), -EPERM);
	reset();
}

static void test_cgroup_dir(void **state)
{
	char cg[400], procs[420];
	const char *why = NULL;
	FILE *f;

	(void)state;
	snprintf(cg, sizeof(cg), "%s/cg", base);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg);
	assert_int_equal(mkdir(cg, 0755), 0);
	assert_true(trust_cgroup_dir(cg, &why) < 0);	/* no cgroup.procs */
	f = fopen(procs, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(chmod(procs, 0644), 0);
	assert_int_equal(trust_cgroup_dir(cg, &why), 0);
	/* delegated: the user may move processes in */
	assert_int_equal(chown(procs, NOBODY, NOBODY), 0);
	assert_int_equal(trust_cgroup_dir(cg, &why), -EPERM);
	assert_string_equal(why, "cgroup.procs is not owned by root");
	assert_int_equal(chown(procs, 0, 0), 0);
	assert_int_equal(chmod(procs, 0666), 0);
	assert_int_equal(trust_cgroup_dir(cg, &why), -EPERM);
	assert_int_equal(chmod(procs, 0644), 0);
	/* the directory delegated: its user may rename and create below it */
	assert_int_equal(chown(cg, NOBODY, NOBODY), 0);
	assert_int_equal(trust_cgroup_dir(cg, &why), -EPERM);
	assert_string_equal(why, "not owned by root");
	assert_int_equal(chown(cg, 0, 0), 0);
	assert_int_equal(trust_cgroup_dir(cg, &why), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_system_paths),
		cmocka_unit_test(test_fixture_trusted),
		cmocka_unit_test(test_world_writable_dir),
		cmocka_unit_test(test_file_modes_and_owners),
		cmocka_unit_test(test_symlink_out),
		cmocka_unit_test(test_exe_identity),
		cmocka_unit_test(test_cgroup_dir),
	};

	return cmocka_run_group_tests_name("trust", tests, setup, teardown);
}
