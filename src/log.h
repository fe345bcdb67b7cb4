/* log.h - the one logging module: stderr in the foreground, journald or syslog as a service. */
#ifndef OOMPARDON_LOG_H
#define OOMPARDON_LOG_H

enum log_target {
	LOG_TARGET_STDERR,	/* plain "oompardon: message" lines */
	LOG_TARGET_JOURNAL,	/* stderr with "<N>" priority prefixes (systemd reads them) */
	LOG_TARGET_SYSLOG,	/* syslog(3), facility daemon */
};

/* Chooses where messages go; verbose enables log_debug. Picks the journal when
 * JOURNAL_STREAM names our stderr and target is LOG_TARGET_STDERR. */
void log_setup(enum log_target target, int verbose);

/* Only top-level code logs. Every function keeps errno intact. */
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));	/* appends ": strerror(errno)" */
void log_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));	/* one line per change */
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Logs and exits with status 1. */
void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void fatalx(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
