/* trusted_dir.h - test fixture: a fresh directory that only root controls, for trust and match tests. */
#ifndef OOMPARDON_TEST_TRUSTED_DIR_H
#define OOMPARDON_TEST_TRUSTED_DIR_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trust.h"

/* /tmp is sticky and world-writable, so nothing below it is trusted: the
 * fixture lives below the first of these that trust_path accepts. */
static inline int trusted_dir_make(char *dir, size_t size)
{
	static const char *const bases[] = { "/run", "/var/lib", "/root" };
	const char *why;
	size_t i;

	for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		if (trust_path(bases[i], &why) != 0)
			continue;
		snprintf(dir, size, "%s/oompardon-test.XXXXXX", bases[i]);
		if (mkdtemp(dir) != NULL && chmod(dir, 0755) == 0)
			return 0;
	}
	return -1;
}

/* Copies src to path with mode, owned by root. 0 or -1. */
static inline int trusted_dir_copy(const char *src, const char *path, mode_t mode)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", src, path);
	if (system(cmd) != 0)
		return -1;
	return chmod(path, mode);
}

static inline void trusted_dir_remove(const char *dir)
{
	char cmd[1024];

	if (strncmp(dir, "/", 1) != 0 || strstr(dir, "oompardon-test.") == NULL)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
}

#endif
