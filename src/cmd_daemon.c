/* cmd_daemon.c - the daemon and status commands: options in, exit status out. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cmd.h"
#include "daemon.h"
#include "log.h"

static const char daemon_usage[] =
	"usage: oompardon daemon [--keep] [--syslog] [--zero-window] [--killer [--scope CGROUP] [--dry-run]]\n"
	"  --keep          leave the values in place at exit (default: restore them)\n"
	"  --zero-window   hold each exec of a file the rules name until its value is written\n"
	"                  (fanotify; needs CAP_SYS_ADMIN): set before its first instruction\n"
	"  --syslog        log to syslog instead of stderr/journald\n"
	"  --killer        run the early OOM killer too; --scope: only inside that memory cgroup;\n"
	"                  --dry-run: say whom it would kill, kill nobody\n"
	"test options:\n"
	"  --test-rcvbuf BYTES  force the proc connector socket's receive buffer (to lose events)\n"
	"  --test-poll          do without the proc connector, as in a container\n";

int cmd_daemon(const struct globals *g, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "keep", no_argument, NULL, 'k' },
		{ "zero-window", no_argument, NULL, 'Z' },
		{ "syslog", no_argument, NULL, 's' },
		{ "killer", no_argument, NULL, 'K' },
		{ "scope", required_argument, NULL, 'S' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "test-rcvbuf", required_argument, NULL, 'R' },
		{ "test-poll", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct daemon_options o = { 0 };
	bool use_syslog = false;
	char *end;
	long v;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		case 'k':
			o.keep = true;
			break;
		case 'Z':
			o.zero_window = true;
			break;
		case 's':
			use_syslog = true;
			break;
		case 'K':
			o.killer = true;
			break;
		case 'S':
			o.killer_scope = optarg;
			break;
		case 'n':
			o.killer_dry_run = true;
			break;
		case 'R':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || v <= 0 || v > INT_MAX) {
				fprintf(stderr, "oompardon: daemon: --test-rcvbuf wants a byte count, not '%s'\n", optarg);
				return EXIT_USAGE;
			}
			o.test_rcvbuf_bytes = (int)v;
			break;
		case 'P':
			o.no_events = true;
			break;
		case 'h':
			fputs(daemon_usage, stdout);
			return 0;
		default:
			fputs(daemon_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc || ((o.killer_scope || o.killer_dry_run) && !o.killer)) {
		fputs(daemon_usage, stderr);
		return EXIT_USAGE;
	}
	if (use_syslog)
		log_setup(LOG_TARGET_SYSLOG, g->verbose);
	return daemon_run(g, &o);
}

/* Prints what the daemon of g->run_dir says about itself. 0 when one answered. */
int cmd_status(const struct globals *g, int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char buf[4096];
	ssize_t n;
	int fd, len;

	(void)argv;
	if (argc != 1) {
		fputs("usage: oompardon status\n", stderr);
		return EXIT_USAGE;
	}
	len = snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/%s", g->run_dir, DAEMON_STATUS_SOCKET);
	if (len < 0 || (size_t)len >= sizeof(sa.sun_path)) {
		log_warnx("run dir %s: path too long for a socket", g->run_dir);
		return EXIT_ACTION_FAILED;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		log_warn("socket");
		return EXIT_ACTION_FAILED;
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		if (errno == ENOENT || errno == ECONNREFUSED)
			log_warnx("no daemon is running for %s", g->run_dir);
		else
			log_warn("cannot reach the daemon at %s", sa.sun_path);
		close(fd);
		return EXIT_ACTION_FAILED;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	close(fd);
	if (n < 0) {
		log_warn("reading the status");
		return EXIT_ACTION_FAILED;
	}
	return fflush(stdout) == 0 ? 0 : EXIT_ACTION_FAILED;
}
