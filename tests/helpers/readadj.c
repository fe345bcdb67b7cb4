/* readadj.c - prints its own oom_score_adj as its first act, then exits: what a
 * program launched by `oompardon exec` sees before anything else can change it. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	char buf[32];
	ssize_t n;
	int fd = open("/proc/self/oom_score_adj", O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		perror("/proc/self/oom_score_adj");
		return 1;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0) {
		perror("read");
		return 1;
	}
	fwrite(buf, 1, (size_t)n, stdout);
	return 0;
}
