/* notify.c - tells the service manager how we are: systemd's sd_notify datagram protocol. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "notify.h"

/* The protocol (sd_notify(3)): one datagram of newline-separated KEY=VALUE to the
 * AF_UNIX socket named by $NOTIFY_SOCKET; a leading '@' means the abstract
 * namespace. A socket per message: we send a handful in our whole life. */
int notify_send(const char *state)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t plen, len = strlen(state);
	socklen_t salen;
	ssize_t n;
	int fd, err = 0;

	if (path == NULL || path[0] == '\0')
		return 0;
	plen = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || plen >= sizeof(sa.sun_path))
		return -EAFNOSUPPORT;	/* vsock: and other forms: not for a local daemon */
	memcpy(sa.sun_path, path, plen);
	if (sa.sun_path[0] == '@')
		sa.sun_path[0] = '\0';
	salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + plen + (path[0] == '/'));
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	n = sendto(fd, state, len, MSG_NOSIGNAL, (struct sockaddr *)&sa, salen);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EMSGSIZE;
	close(fd);
	return err < 0 ? err : 1;
}

int notify_reloading(void)
{
	struct timespec ts;
	char msg[64];

	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(msg, sizeof(msg), "RELOADING=1\nMONOTONIC_USEC=%llu",
		 (unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000ULL);
	return notify_send(msg);
}
