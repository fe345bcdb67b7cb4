/* firstread.c - a launched program that reads its own oom_score_adj at its first instruction
 * (statically linked: no loader runs before main), then spins until it holds EXPECTED.
 * usage: firstread T0_NS EXPECTED -> prints "FIRST_VALUE LATENCY_NS" (-1 latency: never, 100 ms) */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int read_adj(int fd)
{
	char buf[16];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -10000;
	buf[n] = '\0';
	return atoi(buf);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int fd = open("/proc/self/oom_score_adj", O_RDONLY);
	int first = read_adj(fd), v = first, expected;
	long long t0, t;

	if (argc != 3)
		return 2;
	t0 = atoll(argv[1]);
	expected = atoi(argv[2]);
	t = now_ns();
	while (v != expected && (t = now_ns()) - t0 < 100000000LL)
		v = read_adj(fd);
	printf("%d %lld\n", first, v == expected ? t - t0 : -1LL);
	return 0;
}
