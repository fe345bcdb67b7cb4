/* trust.h - may a protective rule take effect? Only through identities only root controls. */
#ifndef OOMPARDON_TRUST_H
#define OOMPARDON_TRUST_H

#include <sys/types.h>

/* 0 when the file at path and every parent directory is root-owned and not
 * writable by group or others, and it is the very file (dev, ino) the process
 * runs; else a negative errno-style code and *why a static reason. */
int trust_exe(const char *path, dev_t dev, ino_t ino, const char **why);

/* 0 when path and every parent directory is root-owned and not writable by group
 * or others (symlinks are resolved first); else -errno-style code and *why. */
int trust_path(const char *path, const char **why);

/* 0 when the cgroup directory (absolute, in a mounted hierarchy) and its
 * cgroup.procs are root-owned and not writable by group or others. */
int trust_cgroup_dir(const char *dir, const char **why);

#endif
