/* events_fanotify.c - the zero-window event source: fanotify exec-permission events on the listed files. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <unistd.h>

#include "events.h"

/* Events read per read(2); metadata is 24 bytes on Linux 6.x. */
#define FAN_BUF_SIZE 4096

struct fan_source {
	struct event_source src;	/* first: the daemon holds a pointer to it */
};

/* Lets the exec go on. It always may: oompardon only sets values, it never
 * refuses a program. */
static void allow(int fanfd, int fd)
{
	struct fanotify_response resp = { .fd = fd, .response = FAN_ALLOW };

	while (write(fanfd, &resp, sizeof(resp)) < 0 && errno == EINTR)
		;
}

/* Hands each held exec to fn, then allows it. Count handled, or -errno. */
static int fan_drain(struct event_source *src, event_fn fn, void *ctx)
{
	char buf[FAN_BUF_SIZE] __attribute__((aligned(__alignof__(struct fanotify_event_metadata))));
	struct fanotify_event_metadata *m;
	int count = 0;
	ssize_t len;

	for (;;) {
		len = read(src->fd, buf, sizeof(buf));
		if (len < 0 && errno == EINTR)
			continue;
		if (len < 0)
			return errno == EAGAIN ? count : -errno;
		if (len == 0)
			return count;
		for (m = (struct fanotify_event_metadata *)(void *)buf; FAN_EVENT_OK(m, len);
		     m = FAN_EVENT_NEXT(m, len)) {
			if (m->vers != FANOTIFY_METADATA_VERSION)
				return -EPROTO;
			if (m->fd < 0)
				continue;	/* FAN_NOFD: a queue overflow; only notifications have it */
			if (m->mask & FAN_OPEN_EXEC_PERM) {
				struct event ev = { .kind = EVENT_EXEC_HOLD, .pid = m->pid, .fd = m->fd };

				fn(ctx, &ev);
				allow(src->fd, m->fd);
				count++;
			}
			close(m->fd);
		}
	}
}

static int fan_set_want(struct event_source *src, unsigned want)
{
	(void)src;
	(void)want;	/* it only ever hears of the marked files' execs */
	return 0;
}

static void fan_free(struct event_source *src)
{
	if (src == NULL)
		return;
	close(src->fd);	/* the kernel allows every exec still waiting on us */
	free(src);
}

int events_fanotify_open(struct event_source **out, char *const *paths, size_t n)
{
	struct fan_source *s;
	size_t i, marked = 0;
	int fd, err = ENOENT;

	fd = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC | FAN_NONBLOCK, O_RDONLY | O_LARGEFILE | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		if (fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN_EXEC_PERM, AT_FDCWD, paths[i]) == 0)
			marked++;
		else if (errno != ENOENT)
			err = errno;
	}
	if (marked == 0) {
		close(fd);
		return -err;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		close(fd);
		return -ENOMEM;
	}
	s->src.name = "fanotify exec-permission events";
	s->src.fd = fd;
	s->src.want = EVENTS_EXEC;
	s->src.kernel_filtered = true;
	s->src.drain = fan_drain;
	s->src.set_want = fan_set_want;
	s->src.free = fan_free;
	*out = &s->src;
	return 0;
}
