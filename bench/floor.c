/* floor.c - the least a proc connector listener can cost: wake on each exec, read it, nothing else.
 * Built with src/events_netlink.c; bench/run.sh runs the storm against it for comparison. */
#include <stddef.h>
#include <sys/epoll.h>

#include "events.h"

static void ignore(void *ctx, const struct event *ev)
{
	(void)ctx;
	(void)ev;
}

int main(void)
{
	struct event_source_options o = { .want = EVENTS_EXEC };
	struct epoll_event ev = { .events = EPOLLIN }, got;
	struct event_source *src;
	int ep;

	if (events_netlink_open(&src, &o) < 0 || (ep = epoll_create1(0)) < 0 ||
	    epoll_ctl(ep, EPOLL_CTL_ADD, src->fd, &ev) < 0)
		return 1;
	for (;;)
		if (epoll_wait(ep, &got, 1, -1) > 0)
			src->drain(src, ignore, NULL);
}
