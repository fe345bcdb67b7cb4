/* hog.c - test helper: holds N MiB of touched anonymous memory, then waits to be killed.
 *
 * hog [--join PROCS_FILE] [--adj N] [--name COMM] [--ready FILE] MIB
 *   --join   write our pid into that cgroup.procs first, so every page is charged there
 *   --adj    write N to our own oom_score_adj (raising works without privileges)
 *   --name   set our comm with prctl(PR_SET_NAME) (hostile names for the tests)
 *   --ready  create FILE (containing our pid) once all memory is touched
 * Touches page by page, so a cgroup limit is hit in the middle of the allocation. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -EIO;
}

int main(int argc, char **argv)
{
	const char *join = NULL, *adj = NULL, *name = NULL, *ready = NULL;
	char buf[32], tmp[4096 + 8];
	size_t len, off, page = (size_t)sysconf(_SC_PAGESIZE);
	char *mem;
	int i, fd;

	for (i = 1; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (strcmp(argv[i], "--join") == 0)
			join = argv[i + 1];
		else if (strcmp(argv[i], "--adj") == 0)
			adj = argv[i + 1];
		else if (strcmp(argv[i], "--name") == 0)
			name = argv[i + 1];
		else if (strcmp(argv[i], "--ready") == 0)
			ready = argv[i + 1];
		else
			break;
	}
	if (i != argc - 1) {
		fprintf(stderr, "usage: hog [--join PROCS] [--adj N] [--name COMM] [--ready FILE] MIB\n");
		return 2;
	}
	len = (size_t)strtoul(argv[i], NULL, 10) << 20;
	snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
	if (join && write_text(join, buf) < 0) {
		perror("hog: join");
		return 1;
	}
	if (adj && write_text("/proc/self/oom_score_adj", adj) < 0) {
		perror("hog: oom_score_adj");
		return 1;
	}
	if (name && prctl(PR_SET_NAME, name, 0, 0, 0) != 0) {
		perror("hog: PR_SET_NAME");
		return 1;
	}
	if (len) {
		mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED) {
			perror("hog: mmap");
			return 1;
		}
		for (off = 0; off < len; off += page)
			mem[off] = 1;
	}
	if (ready) {
		/* write then rename: the waiter never sees a half-written file */
		snprintf(tmp, sizeof(tmp), "%s.tmp", ready);
		fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || write(fd, buf, strlen(buf)) < 0 || close(fd) != 0 || rename(tmp, ready) != 0) {
			perror("hog: ready");
			return 1;
		}
	}
	for (;;)
		pause();
}
