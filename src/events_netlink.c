/* events_netlink.c - the netlink proc connector as an event source (drivers/connector/cn_proc.c). */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>

#include "events.h"

/* How long the kernel may take to acknowledge our LISTEN. It answers at once
 * from the send path; silence means it ignored us (another namespace). */
#define ACK_TIMEOUT_MS 1000
#define RECV_BATCH 64	/* datagrams per recvmmsg: one syscall for a burst */
#define MSG_BYTES 256	/* nlmsghdr 16 + cn_msg 20 + proc_event 72 (x86_64, 6.x) */
/* The proc_event sits 36 bytes into a datagram, but holds 64-bit fields: we
 * receive 4 bytes into an 8-aligned buffer so that it lands aligned (the kernel
 * builds its messages the same way, see cn_proc.c's buffer_to_cn_msg). */
#define MSG_SKEW 4

/* Since 6.6 the kernel takes a struct proc_input instead of the bare op and
 * drops events the socket did not ask for (cn_filter). Older uapi headers lack
 * it: the layout is two 32-bit enums. */
struct cn_proc_input {
	uint32_t mcast_op;
	uint32_t event_type;
};
#define CN_EV_FORK 0x00000001u
#define CN_EV_EXEC 0x00000002u
#define CN_EV_UID 0x00000004u
#define CN_EV_COMM 0x00000200u
#define CN_EV_EXIT 0x80000000u

struct netlink_source {
	struct event_source pub;	/* first: the daemon sees only this */
	uint32_t seq;
};

/* Sends one control message (the bare op or a proc_input). 0 or -errno. */
static int send_ctl(int fd, uint32_t seq, uint32_t ack, const void *data, size_t len)
{
	char buf[NLMSG_SPACE(sizeof(struct cn_msg) + sizeof(struct cn_proc_input))];
	struct nlmsghdr *nh = (struct nlmsghdr *)buf;
	struct cn_msg *cn = NLMSG_DATA(nh);
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };

	memset(buf, 0, sizeof(buf));
	nh->nlmsg_len = (uint32_t)NLMSG_LENGTH(sizeof(*cn) + len);
	nh->nlmsg_type = NLMSG_DONE;
	nh->nlmsg_pid = 0;
	cn->id.idx = CN_IDX_PROC;
	cn->id.val = CN_VAL_PROC;
	cn->seq = seq;
	cn->ack = ack;
	cn->len = (uint16_t)len;
	memcpy(cn->data, data, len);
	if (sendto(fd, nh, nh->nlmsg_len, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		return -errno;
	return 0;
}

/* The proc_event inside one datagram from the kernel, or NULL. */
static const struct proc_event *datagram_event(const char *buf, size_t len, const struct sockaddr_nl *from,
					       const struct cn_msg **cnp)
{
	const struct nlmsghdr *nh = (const struct nlmsghdr *)(const void *)buf;
	const struct cn_msg *cn;

	/* Only the kernel (port 0) speaks for the proc connector. */
	if (from->nl_pid != 0 || !NLMSG_OK(nh, len) || nh->nlmsg_type != NLMSG_DONE)
		return NULL;
	if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(*cn) + sizeof(struct proc_event)))
		return NULL;
	cn = (const struct cn_msg *)(const void *)((const char *)nh + NLMSG_HDRLEN);
	if (cn->id.idx != CN_IDX_PROC || cn->id.val != CN_VAL_PROC || cn->len < sizeof(struct proc_event))
		return NULL;
	*cnp = cn;
	return (const struct proc_event *)(const void *)cn->data;
}

/* Translates one kernel event; false for what the daemon never needs (threads,
 * gid/sid/ptrace/coredump). */
static bool translate(const struct proc_event *pe, unsigned want, struct event *ev)
{
	memset(ev, 0, sizeof(*ev));
	switch (pe->what) {
	case PROC_EVENT_FORK:
		if (pe->event_data.fork.child_pid != pe->event_data.fork.child_tgid)
			return false;	/* a new thread: same process, same score */
		ev->kind = EVENT_FORK;
		ev->pid = pe->event_data.fork.child_tgid;
		ev->parent = pe->event_data.fork.parent_tgid;
		return want & EVENTS_FORK;
	case PROC_EVENT_EXEC:
		ev->kind = EVENT_EXEC;
		ev->pid = pe->event_data.exec.process_tgid;
		return want & EVENTS_EXEC;
	case PROC_EVENT_UID:
		ev->kind = EVENT_UID;
		ev->pid = pe->event_data.id.process_tgid;
		return want & EVENTS_UID;
	case PROC_EVENT_COMM:
		if (pe->event_data.comm.process_pid != pe->event_data.comm.process_tgid)
			return false;	/* a thread named itself; the process's comm is its leader's */
		ev->kind = EVENT_COMM;
		ev->pid = pe->event_data.comm.process_tgid;
		return want & EVENTS_COMM;
	case PROC_EVENT_EXIT:
		if (pe->event_data.exit.process_pid != pe->event_data.exit.process_tgid)
			return false;	/* a thread ended, the process lives on */
		ev->kind = EVENT_EXIT;
		ev->pid = pe->event_data.exit.process_tgid;
		return want & EVENTS_EXIT;
	default:
		return false;
	}
}

/* Drains the socket. ENOBUFS says the kernel dropped datagrams for us; the
 * socket stays usable, so we keep reading and report the loss at the end. */
static int netlink_drain(struct event_source *src, event_fn fn, void *ctx)
{
	static char bufs[RECV_BATCH][MSG_BYTES] __attribute__((aligned(8)));	/* 16 KiB; one source per daemon */
	struct mmsghdr msgs[RECV_BATCH];
	struct iovec iov[RECV_BATCH];
	struct sockaddr_nl from[RECV_BATCH];
	int i, n, count = 0;
	bool lost = false;

	for (;;) {
		for (i = 0; i < RECV_BATCH; i++) {
			iov[i].iov_base = bufs[i] + MSG_SKEW;
			iov[i].iov_len = MSG_BYTES - MSG_SKEW;
			memset(&msgs[i], 0, sizeof(msgs[i]));
			msgs[i].msg_hdr.msg_iov = &iov[i];
			msgs[i].msg_hdr.msg_iovlen = 1;
			msgs[i].msg_hdr.msg_name = &from[i];
			msgs[i].msg_hdr.msg_namelen = sizeof(from[i]);
		}
		n = recvmmsg(src->fd, msgs, RECV_BATCH, MSG_DONTWAIT, NULL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				lost = true;
				continue;
			}
			if (errno == EAGAIN)
				break;
			return -errno;
		}
		for (i = 0; i < n; i++) {
			const struct cn_msg *cn;
			const struct proc_event *pe;
			struct event ev;

			pe = datagram_event(bufs[i] + MSG_SKEW, msgs[i].msg_len, &from[i], &cn);
			if (pe != NULL && translate(pe, src->want, &ev)) {
				fn(ctx, &ev);
				count++;
			}
		}
		if (n < RECV_BATCH)
			break;
	}
	return lost ? -ENOBUFS : count;
}

/* Did the kernel take our proc_input? It cannot say (its ack is filtered out
 * like every event we did not ask for), but the filter came with Linux 6.6. */
static bool cn_filter_supported(void)
{
	struct utsname u;
	unsigned major, minor;

	if (uname(&u) < 0 || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return false;
	return major > 6 || (major == 6 && minor >= 6);
}

/* Narrows (or widens) the kernel's filter: a LISTEN with a proc_input. Before
 * 6.6 the kernel ignores it and translate() filters alone. 0 or -errno. */
static int netlink_set_want(struct event_source *src, unsigned want)
{
	struct netlink_source *ns = (struct netlink_source *)src;
	struct cn_proc_input in = { .mcast_op = PROC_CN_MCAST_LISTEN };

	if (want & EVENTS_FORK)
		in.event_type |= CN_EV_FORK;
	if (want & EVENTS_EXEC)
		in.event_type |= CN_EV_EXEC;
	if (want & EVENTS_UID)
		in.event_type |= CN_EV_UID;
	if (want & EVENTS_COMM)
		in.event_type |= CN_EV_COMM;
	if (want & EVENTS_EXIT)
		in.event_type |= CN_EV_EXIT;
	src->want = want;
	return send_ctl(src->fd, ++ns->seq, 0, &in, sizeof(in));
}

static void netlink_free(struct event_source *src)
{
	if (src == NULL)
		return;
	close(src->fd);
	free(src);
}

static long ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) * 1000L + (now.tv_nsec - t0->tv_nsec) / 1000000L;
}

/* Waits for the kernel's answer to our LISTEN: a PROC_EVENT_NONE carrying err
 * and our ack + 1 (the kernel replaces seq, not ack, and sends acks to every
 * listener: ack tells ours). Events before it are dropped: the daemon's full
 * pass follows. 0 or -errno. */
static int wait_ack(int fd, uint32_t ack)
{
	struct timespec t0;
	char buf[MSG_BYTES] __attribute__((aligned(8)));
	long left;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((left = ACK_TIMEOUT_MS - ms_since(&t0)) > 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct sockaddr_nl from;
		socklen_t fl = sizeof(from);
		const struct proc_event *pe;
		const struct cn_msg *cn;
		ssize_t n;

		if (poll(&p, 1, (int)left) < 0 && errno != EINTR)
			return -errno;
		n = recvfrom(fd, buf + MSG_SKEW, sizeof(buf) - MSG_SKEW, MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR || errno == ENOBUFS)
				continue;
			return -errno;
		}
		pe = datagram_event(buf + MSG_SKEW, (size_t)n, &from, &cn);
		if (pe != NULL && pe->what == PROC_EVENT_NONE && cn->ack == ack + 1)
			return -(int)pe->event_data.ack.err;
	}
	return -ETIMEDOUT;
}

int events_netlink_open(struct event_source **out, const struct event_source_options *o)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = CN_IDX_PROC };
	struct netlink_source *ns;
	uint32_t op = PROC_CN_MCAST_LISTEN, ack;
	int fd, r;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_CONNECTOR);
	if (fd < 0)
		return -errno;
	if (o->rcvbuf_bytes > 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &o->rcvbuf_bytes, sizeof(o->rcvbuf_bytes)) < 0)
		goto fail_errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		goto fail_errno;
	ns = calloc(1, sizeof(*ns));
	if (ns == NULL)
		goto fail_errno;
	/* First the bare op every kernel since 2.6.15 understands, acknowledged so
	 * that silence (another namespace) and EPERM can be told. Then the 6.6
	 * proc_input narrowing it to what we want; older kernels ignore a message of
	 * that size without a word, and we filter ourselves as before. */
	ns->seq = 1;
	ack = (uint32_t)getpid() << 8;
	r = send_ctl(fd, ns->seq, ack, &op, sizeof(op));
	if (r == 0)
		r = wait_ack(fd, ack);
	if (r < 0) {
		free(ns);
		close(fd);
		return r;
	}
	ns->pub.fd = fd;
	ns->pub.kernel_filtered = netlink_set_want(&ns->pub, o->want) == 0 && cn_filter_supported();
	ns->pub.name = "netlink proc connector";
	ns->pub.drain = netlink_drain;
	ns->pub.set_want = netlink_set_want;
	ns->pub.free = netlink_free;
	*out = &ns->pub;
	return 0;

fail_errno:
	r = -errno;
	close(fd);
	return r;
}
