/* vm_mem - holds (and optionally keeps growing) anonymous memory: the VM tests' locker and hogs.
 *
 * usage: vm_mem [-n COMM] [-g | -e] MIB [PROG ARGS...]
 *   touches MIB MiB page by page, writes "ready\n" to stdout, then pauses;
 *   -g: after "ready", waits for SIGUSR1, then grows by 1 MiB steps until the
 *       kernel kills it (the test first checks its score, then lets it grow);
 *   -e: after "ready", waits for SIGUSR1, then execs PROG ARGS (a pardoned
 *       program starting one nobody listed);
 *   -n: renames itself (prctl PR_SET_NAME) before anything else, a forged name.
 * The same binary is installed under several names (vm_locker, vm_hog), so that
 * rules can tell them apart by executable. Exit 3 when memory cannot be had
 * without the OOM killer (so a test can tell that from a kill). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define STEP_BYTES (1024 * 1024)

/* Takes and touches one more MiB; 0 or -1 when malloc refused. */
static int grow_one(void)
{
	long page = sysconf(_SC_PAGESIZE);
	/* volatile: the memory is never read, the compiler must not drop the stores */
	volatile char *p = malloc(STEP_BYTES);
	size_t i;

	if (!p)
		return -1;
	for (i = 0; i < STEP_BYTES; i += (size_t)page)
		p[i] = 1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *comm = NULL;
	int grow = 0, exec = 0, opt, sig;
	long mib, i;
	sigset_t usr1;

	while ((opt = getopt(argc, argv, "+n:ge")) != -1) {
		if (opt == 'n')
			comm = optarg;
		else if (opt == 'g')
			grow = 1;
		else if (opt == 'e')
			exec = 1;
		else
			return 2;
	}
	/* MIB, and with -e the program to start */
	if ((grow && exec) || (exec ? argc - optind < 2 : argc - optind != 1)) {
		fprintf(stderr, "usage: vm_mem [-n COMM] [-g | -e] MIB [PROG ARGS...]\n");
		return 2;
	}
	mib = strtol(argv[optind], NULL, 10);
	/* blocked before "ready": a SIGUSR1 sent right after it waits for sigwait */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	if (comm && prctl(PR_SET_NAME, comm, 0, 0, 0) < 0) {
		perror("vm_mem: prctl");
		return 3;
	}
	for (i = 0; i < mib; i++)
		if (grow_one() < 0) {
			fprintf(stderr, "vm_mem: malloc failed at %ld MiB\n", i);
			return 3;
		}
	if (write(STDOUT_FILENO, "ready\n", 6) != 6)
		return 3;
	if ((grow || exec) && sigwait(&usr1, &sig) != 0)
		return 3;
	if (exec) {
		sigprocmask(SIG_UNBLOCK, &usr1, NULL);
		execv(argv[optind + 1], &argv[optind + 1]);
		perror("vm_mem: exec");
		return 3;
	}
	while (grow)
		if (grow_one() < 0) {
			fprintf(stderr, "vm_mem: malloc failed while growing\n");
			return 3;
		}
	for (;;)
		pause();
}
