/* pretender.c - sits idle until killed; with --comm NAME it first takes that name
 * (prctl PR_SET_NAME), as a forger would. Copies of it play the listed binary too. */
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--comm") == 0 &&
	    prctl(PR_SET_NAME, argv[2], 0, 0, 0) != 0) {
		perror("pretender: prctl");
		return 1;
	}
	for (;;)
		pause();
}
