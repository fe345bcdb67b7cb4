/* log.c - the one logging module: stderr in the foreground, journald or syslog as a service. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"

/* The only mutable state of this module: set once at start-up. */
static enum log_target target = LOG_TARGET_STDERR;
static int verbose;

/* JOURNAL_STREAM is "DEV:INO" of the stream systemd connected to us. */
static int stderr_is_journal(void)
{
	const char *e = getenv("JOURNAL_STREAM");
	struct stat st;
	unsigned long long dev, ino;

	if (e == NULL || sscanf(e, "%llu:%llu", &dev, &ino) != 2)
		return 0;
	if (fstat(STDERR_FILENO, &st) != 0)
		return 0;
	return (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

void log_setup(enum log_target t, int v)
{
	verbose = v;
	target = t;
	if (t == LOG_TARGET_STDERR && stderr_is_journal())
		target = LOG_TARGET_JOURNAL;
	if (target == LOG_TARGET_SYSLOG)
		openlog("oompardon", LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

__attribute__((format(printf, 3, 0)))
static void vlog(int prio, const char *suffix, const char *fmt, va_list ap)
{
	char msg[2048];
	int saved = errno;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	switch (target) {
	case LOG_TARGET_SYSLOG:
		syslog(prio, "%s%s%s", msg, suffix ? ": " : "", suffix ? suffix : "");
		break;
	case LOG_TARGET_JOURNAL:
		fprintf(stderr, "<%d>%s%s%s\n", prio, msg, suffix ? ": " : "", suffix ? suffix : "");
		break;
	case LOG_TARGET_STDERR:
		fprintf(stderr, "oompardon: %s%s%s\n", msg, suffix ? ": " : "", suffix ? suffix : "");
		break;
	}
	errno = saved;
}

void log_warn(const char *fmt, ...)
{
	va_list ap;
	const char *err = strerror(errno);

	va_start(ap, fmt);
	vlog(LOG_WARNING, err, fmt, ap);
	va_end(ap);
}

#define LOG_FN(name, prio, cond)                  \
	void name(const char *fmt, ...)           \
	{                                         \
		va_list ap;                       \
		if (!(cond))                      \
			return;                   \
		va_start(ap, fmt);                \
		vlog(prio, NULL, fmt, ap);        \
		va_end(ap);                       \
	}

LOG_FN(log_warnx, LOG_WARNING, 1)
LOG_FN(log_notice, LOG_NOTICE, 1)
LOG_FN(log_info, LOG_INFO, 1)
LOG_FN(log_debug, LOG_DEBUG, verbose)

void fatal(const char *fmt, ...)
{
	va_list ap;
	const char *err = strerror(errno);

	va_start(ap, fmt);
	vlog(LOG_CRIT, err, fmt, ap);
	va_end(ap);
	exit(1);
}

void fatalx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_CRIT, NULL, fmt, ap);
	va_end(ap);
	exit(1);
}
