/* storm.c - N fork+exec+exit of PROGRAM as fast as one process can: an exec storm. usage: storm N PROGRAM */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i, n;

	if (argc != 3)
		return 2;
	n = atoi(argv[1]);
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			execl(argv[2], argv[2], (char *)NULL);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, NULL, 0) < 0)
			return 1;
	}
	return 0;
}
