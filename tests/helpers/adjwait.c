/* adjwait.c - reads its own oom_score_adj first thing, then waits (bounded) until it is EXPECTED.
 * usage: adjwait EXPECTED TIMEOUT_MS  -> prints "first F final V after_us U"; exit 0 when reached,
 * 1 on timeout. A daemon test launches it as a listed (or unlisted) program. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int read_adj(void)
{
	char buf[16];
	ssize_t n;
	int fd = open("/proc/self/oom_score_adj", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -10000;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -10000;
	buf[n] = '\0';
	return atoi(buf);
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
	int first = read_adj(), v = first, expected;
	long long t0 = now_us(), timeout_us;

	if (argc != 3) {
		fprintf(stderr, "usage: adjwait EXPECTED TIMEOUT_MS\n");
		return 2;
	}
	expected = atoi(argv[1]);
	timeout_us = atoll(argv[2]) * 1000;
	while (v != expected && now_us() - t0 < timeout_us) {
		struct timespec pause = { 0, 200000 };	/* 0.2 ms: a poll, bounded by the timeout */

		nanosleep(&pause, NULL);
		v = read_adj();
	}
	printf("first %d final %d after_us %lld\n", first, v, now_us() - t0);
	return v == expected ? 0 : 1;
}
