/* launch.c - launches PROGRAM N times, one after the other, each with the time just before its
 * execve, and prints what each reports. usage: launch N PROGRAM EXPECTED */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i, n;

	if (argc != 4)
		return 2;
	n = atoi(argv[1]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			struct timespec ts;
			char t0[32];

			clock_gettime(CLOCK_MONOTONIC, &ts);
			snprintf(t0, sizeof(t0), "%lld", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
			execl(argv[2], argv[2], t0, argv[3], (char *)NULL);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, NULL, 0) < 0)
			return 1;
	}
	return 0;
}
