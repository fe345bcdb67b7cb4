/* killer_hog.c - grows its memory at a set pace, then holds it: the early killer's test load.
 * usage: killer_hog [-t] TOTAL_MIB [STEP_MIB INTERVAL_MS]
 *   -t  ignore SIGTERM (only SIGKILL ends it) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MIB (1024UL * 1024UL)

int main(int argc, char **argv)
{
	unsigned long total_mib, step_mib, interval_ms, done_mib = 0;
	int a = 1;

	if (a < argc && strcmp(argv[a], "-t") == 0) {
		signal(SIGTERM, SIG_IGN);
		a++;
	}
	if (argc - a != 1 && argc - a != 3) {
		fprintf(stderr, "usage: killer_hog [-t] TOTAL_MIB [STEP_MIB INTERVAL_MS]\n");
		return 2;
	}
	total_mib = strtoul(argv[a], NULL, 10);
	step_mib = argc - a == 3 ? strtoul(argv[a + 1], NULL, 10) : total_mib;
	interval_ms = argc - a == 3 ? strtoul(argv[a + 2], NULL, 10) : 0;
	if (step_mib == 0)
		step_mib = 1;
	while (done_mib < total_mib) {
		unsigned long n = total_mib - done_mib < step_mib ? total_mib - done_mib : step_mib;
		struct timespec ts = { (time_t)(interval_ms / 1000), (long)(interval_ms % 1000) * 1000000L };
		char *p = mmap(NULL, n * MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("killer_hog: mmap");
			return 1;
		}
		memset(p, 0x5a, n * MIB);	/* touch every page: RSS, not just address space */
		done_mib += n;
		if (interval_ms && done_mib < total_mib)
			nanosleep(&ts, NULL);
	}
	for (;;)
		pause();
}
