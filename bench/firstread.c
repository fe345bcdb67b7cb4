/* firstread.c - a launched program that reads its own oom_score_adj at its first instruction
 * (statically linked: no loader runs before main), then spins until it holds EXPECTED.
 * usage: firstread T0_NS EXPECTED -> prints "FIRST_VALUE LATENCY_NS MAIN_NS": from T0 (taken just
 * before execve) to holding EXPECTED (-1: not within 100 ms), and to main's first instruction. */
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
	long long t_main = now_ns(), t0, t;
	int fd = open("/proc/self/oom_score_adj", O_RDONLY);
	int first = read_adj(fd), v = first, expected;

	if (argc != 3)
		return 2;
	t0 = atoll(argv[1]);
	expected = atoi(argv[2]);
	t = now_ns();
	while (v != expected && (t = now_ns()) - t0 < 100000000LL)
		v = read_adj(fd);
	printf("%d %lld %lld\n", first, v == expected ? t - t0 : -1LL, t_main - t0);
	return 0;
}
