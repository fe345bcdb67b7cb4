/* trust.c - may a protective rule take effect? Only through identities only root controls. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trust.h"

/* Is st root's alone: owned by root and not writable by group or others?
 * A sticky world-writable directory (/tmp) is not: anyone may create names in it. */
static int root_only(const struct stat *st, const char *what_owner, const char *what_mode,
		     const char **why)
{
	if (st->st_uid != 0) {
		*why = what_owner;
		return -EPERM;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		*why = what_mode;
		return -EPERM;
	}
	return 0;
}

/* Every directory above the canonical path canon, up to "/". 0 or -EPERM with *why. */
static int parents_root_only(const char *canon, const char **why)
{
	char dir[PATH_MAX];
	struct stat st;
	char *slash;
	int r;

	snprintf(dir, sizeof(dir), "%s", canon);
	do {
		slash = strrchr(dir, '/');
		if (slash == NULL)
			break;
		slash[slash == dir ? 1 : 0] = '\0';	/* "/a/b" -> "/a" -> "/" */
		if (lstat(dir, &st) != 0) {
			*why = "a parent directory cannot be examined";
			return -errno;
		}
		r = root_only(&st, "a parent directory is not owned by root",
			      "a parent directory others can write", why);
		if (r < 0)
			return r;
	} while (strcmp(dir, "/") != 0);
	return 0;
}

/* 0 when path and every parent directory is root-owned and not writable by group
 * or others (symlinks are resolved first); else -errno-style code and *why. */
int trust_path(const char *path, const char **why)
{
	char canon[PATH_MAX];
	struct stat st;
	int r;

	*why = NULL;
	if (path[0] != '/') {
		*why = "not an absolute path";
		return -EINVAL;
	}
	if (realpath(path, canon) == NULL) {
		*why = "the path does not resolve";
		return -errno;
	}
	if (lstat(canon, &st) != 0) {
		*why = "the path cannot be examined";
		return -errno;
	}
	r = root_only(&st, "not owned by root", "writable by others than root", why);
	if (r == 0)
		r = parents_root_only(canon, why);
	return r;
}

/* 0 when the file at path and every parent directory is root-owned and not
 * writable by group or others, and it is the very file (dev, ino) the process
 * runs; else a negative errno-style code and *why a static reason. */
int trust_exe(const char *path, dev_t dev, ino_t ino, const char **why)
{
	struct stat st;

	/* The cheap test first. It is also what defeats a user who bind-mounts a
	 * file of theirs over a listed path in their own mount namespace: the
	 * process's exe link then reads as the listed path, but the inode is theirs. */
	if (stat(path, &st) != 0) {
		*why = "the executable is not at its path any more";
		return -errno;
	}
	if (st.st_dev != dev || st.st_ino != ino) {
		*why = "the process does not run the file at that path";
		return -ESTALE;
	}
	return trust_path(path, why);
}

/* 0 when the cgroup directory (absolute, in a mounted hierarchy) and its
 * cgroup.procs are root-owned and not writable by group or others. */
int trust_cgroup_dir(const char *dir, const char **why)
{
	char procs[PATH_MAX];
	struct stat st;
	int n, r;

	/* The parents count too: whoever owns a parent may rename (so forge the
	 * path of) a cgroup below it, and a delegated subtree is its user's. */
	r = trust_path(dir, why);
	if (r < 0)
		return r;
	n = snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	if (n < 0 || (size_t)n >= sizeof(procs)) {
		*why = "the cgroup path is too long";
		return -ENAMETOOLONG;
	}
	if (lstat(procs, &st) != 0) {
		*why = "the cgroup has no cgroup.procs";
		return -errno;
	}
	return root_only(&st, "cgroup.procs is not owned by root",
			 "others than root can move processes into the cgroup", why);
}
