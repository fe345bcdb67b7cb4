/* adjust.h - reads and writes oom_score_adj, never to a recycled pid. */
#ifndef OOMPARDON_ADJUST_H
#define OOMPARDON_ADJUST_H

#include <sys/types.h>

/* Writes value to pid's oom_score_adj if pid still is the process that started at
 * start_time (checked through a /proc/PID handle held across the write).
 * 0; -ESRCH gone or reused; -EACCES/-EPERM lowering without CAP_SYS_RESOURCE
 * (the kernel says EACCES); other -errno. */
int adjust_write(pid_t pid, unsigned long long start_time, int value);

/* Reads pid's oom_score_adj. 0 or -errno. */
int adjust_read(pid_t pid, int *value);

/* Writes our own oom_score_adj (exec: in place before the new program's first
 * instruction). 0, -EACCES lowering without CAP_SYS_RESOURCE, other -errno. */
int adjust_write_self(int value);

/* Do we hold CAP_SYS_RESOURCE in our effective set? 1, 0, or -errno. */
int adjust_can_lower(void);

#endif
