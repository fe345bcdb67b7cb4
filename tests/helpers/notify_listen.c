/* notify_listen.c - a stand-in service manager: binds NOTIFY_SOCKET's address (a path, or "@name"
 * for the abstract namespace) and prints each datagram received, "|" for newlines, one a line.
 * usage: notify_listen ADDRESS COUNT TIMEOUT_MS; exits 0 after COUNT datagrams, 1 on timeout. */
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, count, timeout_ms, got = 0;
	size_t len;

	if (argc != 4 || (len = strlen(argv[1])) >= sizeof(sa.sun_path))
		return 2;
	count = atoi(argv[2]);
	timeout_ms = atoi(argv[3]);
	memcpy(sa.sun_path, argv[1], len);
	if (sa.sun_path[0] == '@')
		sa.sun_path[0] = '\0';
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa,
			   (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len + (argv[1][0] != '@'))) < 0) {
		perror("notify_listen");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("listening\n");
	while (got < count) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char buf[4096];
		ssize_t n, i;

		if (poll(&p, 1, timeout_ms) <= 0)
			return 1;
		n = recv(fd, buf, sizeof(buf) - 1, 0);
		if (n < 0)
			return 1;
		for (i = 0; i < n; i++)
			if (buf[i] == '\n')
				buf[i] = '|';
		buf[n] = '\0';
		printf("%s\n", buf);
		got++;
	}
	return 0;
}
