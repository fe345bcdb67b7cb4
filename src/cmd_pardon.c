/* cmd_pardon.c - pardon and unpardon: the runtime rules in RUN_DIR/runtime.conf, then tell the daemon. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "log.h"
#include "state.h"
#include "trust.h"

#define RUNTIME_LOCK "runtime.lock"	/* serialises concurrent pardon/unpardon */
#define RUNTIME_HEADER "# Runtime rules, edited by oompardon pardon/unpardon; gone at reboot.\n"

struct lines {
	char **v;
	size_t n;
};

static void lines_free(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* Appends a copy of s (without its newline). 0 or -ENOMEM. */
static int lines_add(struct lines *l, const char *s, size_t len)
{
	char **v = realloc(l->v, (l->n + 1) * sizeof(*v));

	if (v == NULL)
		return -ENOMEM;
	l->v = v;
	v[l->n] = strndup(s, len);
	if (v[l->n] == NULL)
		return -ENOMEM;
	l->n++;
	return 0;
}

/* Reads path into lines; a missing file is empty. 0 or -errno. */
static int lines_read(struct lines *l, const char *path)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int r = 0;

	if (f == NULL)
		return errno == ENOENT ? 0 : -errno;
	while (r == 0 && (n = getline(&line, &cap, f)) >= 0) {
		if (n > 0 && line[n - 1] == '\n')
			n--;
		r = lines_add(l, line, (size_t)n);
	}
	free(line);
	fclose(f);
	return r;
}

/* A path the config language takes as one selector: absolute, no blanks,
 * commas or '#', no control characters. */
static const char *path_problem(const char *p)
{
	const unsigned char *c;

	if (p[0] != '/')
		return "not an absolute path";
	for (c = (const unsigned char *)p; *c; c++)
		if (*c <= ' ' || *c == ',' || *c == '#' || *c == 0x7f)
			return "blanks, commas, '#' and control characters cannot stand in a rule";
	if (strlen(p) >= PATH_MAX)
		return "too long";
	return NULL;
}

/* Is there a "pardon ... path ..." line? With drop, removes path from it (and
 * the line when nothing is left). Returns how many it found. */
static int find_pardon(struct lines *l, const char *path, bool drop)
{
	size_t i;
	int found = 0;

	for (i = 0; i < l->n; i++) {
		char *copy = strdup(l->v[i]), *save = NULL, *tok, *rebuilt;
		bool hit = false;
		size_t rlen = 0;
		int kept = 0;

		if (copy == NULL)
			return found;
		tok = strtok_r(copy, " \t", &save);
		if (tok == NULL || strcmp(tok, "pardon") != 0) {
			free(copy);
			continue;
		}
		rebuilt = calloc(1, strlen(l->v[i]) + 1);
		if (rebuilt == NULL) {
			free(copy);
			return found;
		}
		rlen = (size_t)sprintf(rebuilt, "pardon");
		while ((tok = strtok_r(NULL, " \t", &save)) != NULL) {
			if (strcmp(tok, path) == 0) {
				hit = true;
				continue;
			}
			rlen += (size_t)sprintf(rebuilt + rlen, " %s", tok);
			kept++;
		}
		free(copy);
		if (hit)
			found++;
		if (hit && drop) {
			free(l->v[i]);
			if (kept > 0) {
				l->v[i] = rebuilt;
			} else {
				memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof(*l->v));
				l->n--;
				i--;
				free(rebuilt);
			}
		} else {
			free(rebuilt);
		}
	}
	return found;
}

/* Replaces path with the lines, atomically (write a temp file, rename). 0 or -errno. */
static int lines_write(const struct lines *l, const char *path)
{
	char tmp[PATH_MAX];
	size_t i;
	FILE *f;
	int r = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(tmp, "we");
	if (f == NULL)
		return -errno;
	if (l->n == 0 || strncmp(l->v[0], "# Runtime rules", 15) != 0)
		fputs(RUNTIME_HEADER, f);
	for (i = 0; i < l->n; i++)
		fprintf(f, "%s\n", l->v[i]);
	if (fflush(f) != 0 || fsync(fileno(f)) != 0)
		r = -errno;
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}

/* Is pid running our very program? A pid file written in another pid namespace
 * names a process of ours only by chance: never signal init by mistake. */
static bool same_program(pid_t pid)
{
	char link[64], theirs[PATH_MAX], ours[PATH_MAX];
	ssize_t a, b;

	snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
	a = readlink(link, theirs, sizeof(theirs) - 1);
	b = readlink("/proc/self/exe", ours, sizeof(ours) - 1);
	if (a < 0 || b < 0)
		return false;
	theirs[a] = ours[b] = '\0';
	return strcmp(theirs, ours) == 0;
}

/* Asks the daemon of run_dir to reload now (its inotify sees the file too). */
static void tell_daemon(const char *run_dir)
{
	pid_t pid = 0;

	if (state_daemon_pid(run_dir, &pid) < 0 || pid <= 0) {
		log_info("no daemon is running for %s: the rules apply when it starts", run_dir);
		return;
	}
	if (!same_program(pid)) {
		log_info("pid %d in %s runs another program than this one (a daemon in another pid namespace?): "
			 "not signalled; a running daemon sees the file change anyway", (int)pid, run_dir);
		return;
	}
	if (kill(pid, SIGHUP) < 0)
		log_warn("cannot signal the daemon (pid %d); it reloads when it sees the file change", (int)pid);
	else
		log_info("daemon (pid %d) reloads", (int)pid);
}

static int edit(const struct globals *g, bool add, int argc, char **argv)
{
	char path[PATH_MAX], lockpath[PATH_MAX], rule[PATH_MAX + 8];
	struct lines l = { 0 };
	int i, r, lockfd, status = 0;
	bool changed = false;

	if (mkdir(g->run_dir, 0755) < 0 && errno != EEXIST) {
		log_warn("cannot create %s", g->run_dir);
		return EXIT_ACTION_FAILED;
	}
	snprintf(path, sizeof(path), "%s/%s", g->run_dir, CONFIG_RUNTIME_FILE);
	snprintf(lockpath, sizeof(lockpath), "%s/%s", g->run_dir, RUNTIME_LOCK);
	lockfd = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lockfd < 0 || flock(lockfd, LOCK_EX) < 0) {
		log_warn("cannot lock %s", lockpath);
		if (lockfd >= 0)
			close(lockfd);
		return EXIT_ACTION_FAILED;
	}
	if ((r = lines_read(&l, path)) < 0) {
		errno = -r;
		log_warn("cannot read %s", path);
		status = EXIT_ACTION_FAILED;
		goto out;
	}
	for (i = 1; i < argc; i++) {
		const char *p = argv[i], *why;

		if (add) {
			if (find_pardon(&l, p, false) > 0) {
				log_info("%s is pardoned already", p);
				continue;
			}
			if (strpbrk(p, "*?[") == NULL && trust_path(p, &why) < 0 && why != NULL)
				log_warnx("%s: %s: the pardon cannot take effect until that changes", p, why);
			if (snprintf(rule, sizeof(rule), "pardon %s", p) >= (int)sizeof(rule) ||
			    lines_add(&l, rule, strlen(rule)) < 0) {
				log_warnx("out of memory");
				status = EXIT_ACTION_FAILED;
				goto out;
			}
		} else if (find_pardon(&l, p, true) == 0) {
			log_warnx("%s has no runtime pardon (unpardon removes only those of %s)", p, path);
			status = EXIT_ACTION_FAILED;
			continue;
		}
		changed = true;
	}
	if (changed) {
		if ((r = lines_write(&l, path)) < 0) {
			errno = -r;
			log_warn("cannot write %s", path);
			status = EXIT_ACTION_FAILED;
			goto out;
		}
		tell_daemon(g->run_dir);
	}
out:
	lines_free(&l);
	close(lockfd);
	return status;
}

int cmd_pardon(const struct globals *g, int argc, char **argv)
{
	bool add = strcmp(argv[0], "pardon") == 0;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: oompardon %s PATH...\n", argv[0]);
		return EXIT_USAGE;
	}
	for (i = 1; i < argc; i++) {
		const char *why = path_problem(argv[i]);

		if (why != NULL) {
			fprintf(stderr, "oompardon: %s: %s: %s\n", argv[0], argv[i], why);
			return EXIT_USAGE;
		}
	}
	return edit(g, add, argc, argv);
}
