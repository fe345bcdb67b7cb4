/* vm_as - runs a program as an unprivileged user, with an argv[0] of our choosing.
 *
 * usage: vm_as UID ARGV0 PATH [ARGS...]
 * Drops every group and both gids and uids to UID (the VM tests' forger), then
 * execs PATH with argv[0] = ARGV0 (a name forged the `exec -a` way). */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long id;
	const char *path;
	uid_t uid;

	if (argc < 4) {
		fprintf(stderr, "usage: vm_as UID ARGV0 PATH [ARGS...]\n");
		return 2;
	}
	id = strtoul(argv[1], NULL, 10);
	uid = (uid_t)id;
	if (setgroups(0, NULL) < 0 || setresgid((gid_t)id, (gid_t)id, (gid_t)id) < 0 ||
	    setresuid(uid, uid, uid) < 0) {
		perror("vm_as: dropping privileges");
		return 2;
	}
	path = argv[3];
	argv[3] = argv[2];
	execv(path, &argv[3]);
	perror("vm_as: exec");
	return 127;
}
