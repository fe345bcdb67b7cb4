/* testfs.h - test fixture: files and directories of a fake tree (a /proc, a cgroup
 * hierarchy, a run dir) written below a temporary directory. Include after cmocka.h. */
#ifndef OOMPARDON_TEST_TESTFS_H
#define OOMPARDON_TEST_TESTFS_H

#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>

/* Writes text to DIR/REL (created or truncated); fails the test when it cannot. */
static inline void testfs_write(const char *dir, const char *rel, const char *text)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* Makes the directory DIR/REL (0755); fails the test when it cannot. */
static inline void testfs_mkdir(const char *dir, const char *rel)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

#endif
