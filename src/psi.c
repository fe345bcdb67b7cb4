/* psi.c - arms PSI memory-pressure triggers (Documentation/accounting/psi.rst). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "psi.h"

/* The kernel's limits (kernel/sched/psi.c): window 500 ms .. 10 s, stall <= window. */
#define PSI_WINDOW_MIN_US 500000UL
#define PSI_WINDOW_MAX_US 10000000UL

int psi_parse_trigger(const char *trigger, unsigned long *stall_us, unsigned long *window_us)
{
	char kind[8];
	int used = 0;

	if (sscanf(trigger, "%7s %lu %lu%n", kind, stall_us, window_us, &used) != 3 ||
	    trigger[used] != '\0')
		return -EINVAL;
	if (strcmp(kind, "some") != 0 && strcmp(kind, "full") != 0)
		return -EINVAL;
	if (*window_us < PSI_WINDOW_MIN_US || *window_us > PSI_WINDOW_MAX_US ||
	    *stall_us == 0 || *stall_us > *window_us)
		return -EINVAL;
	return 0;
}

int psi_open(const char *path, const char *trigger)
{
	unsigned long stall_us, window_us;
	size_t len = strlen(trigger) + 1;	/* the kernel wants the NUL too */
	ssize_t n;
	int fd, r;

	if (psi_parse_trigger(trigger, &stall_us, &window_us) < 0)
		return -EINVAL;
	fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, trigger, len);
	if (n != (ssize_t)len) {
		r = n < 0 ? -errno : -EIO;
		close(fd);
		return r;
	}
	return fd;
}
