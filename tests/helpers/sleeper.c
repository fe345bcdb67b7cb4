/* sleeper.c - a test process: optionally sets its own oom_score_adj, says it is
 * ready, then waits for a signal. usage: sleeper [--adj N] [--ready FILE] */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_adj(const char *value)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, value, strlen(value));
	close(fd);
	return n < 0 ? -errno : 0;
}

int main(int argc, char **argv)
{
	const char *ready = NULL;
	int i, r, fd;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--adj") == 0 && i + 1 < argc) {
			r = write_adj(argv[++i]);
			if (r < 0) {
				fprintf(stderr, "sleeper: oom_score_adj %s: %s\n", argv[i], strerror(-r));
				return 1;
			}
		} else if (strcmp(argv[i], "--ready") == 0 && i + 1 < argc) {
			ready = argv[++i];
		} else {
			fprintf(stderr, "usage: sleeper [--adj N] [--ready FILE]\n");
			return 2;
		}
	}
	/* The file appears only after the exec and the adj write: the test may read now. */
	if (ready != NULL) {
		fd = open(ready, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0) {
			perror(ready);
			return 1;
		}
		close(fd);
	}
	for (;;)
		pause();
}
