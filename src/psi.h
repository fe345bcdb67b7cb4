/* psi.h - memory pressure (PSI) triggers: the kernel wakes us when tasks stall on memory. */
#ifndef OOMPARDON_PSI_H
#define OOMPARDON_PSI_H

/* Checks a trigger "some|full STALL_US WINDOW_US" and returns its window in
 * microseconds. 0 or -EINVAL. */
int psi_parse_trigger(const char *trigger, unsigned long *stall_us, unsigned long *window_us);

/* Opens the pressure file (/proc/pressure/memory, or a v2 cgroup's
 * memory.pressure) and arms the trigger. Returns the fd, to poll for
 * POLLPRI (POLLERR: the cgroup is gone), or -errno: -EINVAL also when the
 * window is not a multiple of 2 s without CAP_SYS_RESOURCE. */
int psi_open(const char *path, const char *trigger);

#endif
