/* test_notify.c - the sd_notify datagram protocol: path and abstract sockets, no manager. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include "notify.h"

/* Binds a datagram socket at addr (a path, or "@name"). */
static int listener(const char *addr)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len = strlen(addr);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	memcpy(sa.sun_path, addr, len);
	if (addr[0] == '@')
		sa.sun_path[0] = '\0';
	assert_int_equal(bind(fd, (struct sockaddr *)&sa,
			      (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len + (addr[0] != '@'))), 0);
	return fd;
}

static void expect_datagram(int fd, const char *want_prefix)
{
	char buf[256];
	ssize_t n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);

	assert_true(n > 0);
	buf[n] = '\0';
	assert_memory_equal(buf, want_prefix, strlen(want_prefix));
}

static void path_socket(void **state)
{
	char dir[] = "/tmp/oompardon-notify.XXXXXX", path[64];
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/notify", dir);
	fd = listener(path);
	setenv("NOTIFY_SOCKET", path, 1);
	assert_int_equal(notify_send("READY=1\nSTATUS=ok"), 1);
	expect_datagram(fd, "READY=1\nSTATUS=ok");
	assert_int_equal(notify_reloading(), 1);
	expect_datagram(fd, "RELOADING=1\nMONOTONIC_USEC=");
	close(fd);
	unlink(path);
	rmdir(dir);
	unsetenv("NOTIFY_SOCKET");
}

static void abstract_socket(void **state)
{
	char addr[64];
	int fd;

	(void)state;
	snprintf(addr, sizeof(addr), "@oompardon-unit-%d", (int)getpid());
	fd = listener(addr);
	setenv("NOTIFY_SOCKET", addr, 1);
	assert_int_equal(notify_send("STOPPING=1"), 1);
	expect_datagram(fd, "STOPPING=1");
	close(fd);
	unsetenv("NOTIFY_SOCKET");
}

static void no_manager(void **state)
{
	(void)state;
	unsetenv("NOTIFY_SOCKET");
	assert_int_equal(notify_send("READY=1"), 0);
	setenv("NOTIFY_SOCKET", "vsock:2:1234", 1);
	assert_int_equal(notify_send("READY=1"), -EAFNOSUPPORT);
	setenv("NOTIFY_SOCKET", "/nonexistent/notify", 1);
	assert_int_equal(notify_send("READY=1"), -ENOENT);
	unsetenv("NOTIFY_SOCKET");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(path_socket),
		cmocka_unit_test(abstract_socket),
		cmocka_unit_test(no_manager),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
