/* cmd_exec.c - `exec [--pardon | --score N] -- CMD [ARGS]`: sets our own oom_score_adj,
 * then becomes CMD, so the value is in place before CMD's first instruction.
 *
 * Exit status when CMD does not run: 1 the value could not be set (CMD is not run:
 * the promise of the launch would not hold), 2 usage or config error, 127 CMD not
 * found, 126 found but not executable (as shells say it). Otherwise CMD's own.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adjust.h"
#include "cmd.h"
#include "log.h"
#include "match.h"
#include "proc.h"

#define EXIT_CANNOT_EXECUTE 126
#define EXIT_NOT_FOUND 127
#define DEFAULT_PATH "/bin:/usr/bin"	/* glibc's execvp without PATH (confstr _CS_PATH) */
#define TASK_COMM_LEN 16		/* the kernel's comm: the exec'd file's name, cut to 15 */

static const char exec_usage[] =
	"usage: oompardon [-c FILE] exec [--pardon | --score N] -- CMD [ARGS]\n"
	"  sets oompardon's own oom_score_adj, then executes CMD in its place: the value\n"
	"  holds from CMD's first instruction. --pardon: -1000; --score N: -1000..1000;\n"
	"  neither: what the rules say for CMD (nothing when no rule names it).\n"
	"  When the value cannot be set (lowering needs CAP_SYS_RESOURCE), CMD is not run\n"
	"  and the exit status is 1; 127: CMD not found, 126: CMD not executable.\n";

/* Is path a regular file we may execute? */
static bool executable(const char *path)
{
	struct stat sb;

	return access(path, X_OK) == 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* Finds cmd as execvp(3) would: as given when it holds a '/', else along PATH.
 * 0, -ENOENT, -EACCES (found, not executable), -ENAMETOOLONG. */
static int find_program(const char *cmd, char *out, size_t size)
{
	const char *path = getenv("PATH"), *p, *colon;
	bool seen = false;
	size_t dlen;
	int n;

	if (strchr(cmd, '/') != NULL) {
		if ((size_t)snprintf(out, size, "%s", cmd) >= size)
			return -ENAMETOOLONG;
		return executable(out) ? 0 : access(out, F_OK) == 0 ? -EACCES : -ENOENT;
	}
	if (path == NULL)
		path = DEFAULT_PATH;
	for (p = path;; p = colon + 1) {
		colon = strchr(p, ':');
		dlen = colon ? (size_t)(colon - p) : strlen(p);
		/* an empty element is the current directory */
		n = dlen == 0 ? snprintf(out, size, "%s", cmd) : snprintf(out, size, "%.*s/%s", (int)dlen, p, cmd);
		if (n > 0 && (size_t)n < size) {
			if (executable(out))
				return 0;
			seen = seen || access(out, F_OK) == 0;
		}
		if (colon == NULL)
			return seen ? -EACCES : -ENOENT;
	}
}

/* A "#!" script runs its interpreter: the kernel shows the interpreter as the exe.
 * Replaces path with the interpreter's when the file is a script (one level). */
static void script_interpreter(char *path, size_t size)
{
	char buf[PATH_MAX + 3], *p, *end;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 3 || buf[0] != '#' || buf[1] != '!')
		return;
	buf[n] = '\0';
	for (p = buf + 2; *p == ' ' || *p == '\t'; p++)
		;
	end = p + strcspn(p, " \t\n");
	*end = '\0';
	if (*p == '/' && strlen(p) < size)
		strcpy(path, p);
}

/* The facts the process would have after exec'ing path: ours, with its executable. */
static int would_be_facts(const char *found, struct proc_facts *pf)
{
	char exe[PATH_MAX];
	const char *base;
	struct stat sb;
	int r;

	r = proc_read(getpid(), MATCH_NEEDS | PROC_OOM, pf);
	if (r < 0)
		return r;
	if (strlen(found) >= sizeof(exe))
		return -ENAMETOOLONG;
	strcpy(exe, found);
	script_interpreter(exe, sizeof(exe));
	if (realpath(exe, pf->exe) == NULL || stat(pf->exe, &sb) != 0)
		return -errno;
	pf->has_exe = true;
	pf->exe_deleted = false;
	pf->exe_dev = sb.st_dev;
	pf->exe_ino = sb.st_ino;
	base = strrchr(found, '/');
	base = base ? base + 1 : found;
	snprintf(pf->comm, sizeof(pf->comm), "%.*s", TASK_COMM_LEN - 1, base);
	return 0;
}

/* What the rules say for cmd. 1 with *value set, 0 nothing to set, or an exit status
 * (negated) when the rules or cmd cannot be had. */
static int value_from_rules(const struct globals *g, const char *cmd, int *value, int *current)
{
	char found[PATH_MAX];
	struct proc_facts pf;
	struct ruleset rs;
	struct verdict v;
	int r, ret = 0;

	r = find_program(cmd, found, sizeof(found));
	if (r < 0) {
		log_warnx("%s: %s", cmd, r == -ENOENT ? "command not found" : strerror(-r));
		return r == -ENOENT ? -EXIT_NOT_FOUND : -EXIT_CANNOT_EXECUTE;
	}
	ruleset_init(&rs);
	if (cmd_load_rules(g, &rs) < 0) {
		ruleset_free(&rs);
		return -EXIT_USAGE;
	}
	r = would_be_facts(found, &pf);
	if (r < 0) {
		log_warnx("%s: %s", found, strerror(-r));
		ruleset_free(&rs);
		return -EXIT_CANNOT_EXECUTE;
	}
	match_process(&rs, &pf, &v);
	if (v.refused != NULL)
		log_warnx("%s:%u: cannot protect %s: %s; running it without", v.refused->file,
			  v.refused->line, pf.exe, v.refused_why ? v.refused_why : "not verified");
	if (v.kind == VERDICT_SET) {
		*value = v.score;
		ret = 1;
	}
	*current = pf.oom_score_adj;
	ruleset_free(&rs);
	return ret;
}

/* A strict integer in [-1000, 1000]. 0 or -EINVAL. */
static int parse_score(const char *s, int *value)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end != '\0' || v < OOM_ADJ_MIN || v > OOM_ADJ_MAX)
		return -EINVAL;
	*value = (int)v;
	return 0;
}

int cmd_exec(const struct globals *g, int argc, char **argv)
{
	bool pardon = false, score = false;
	int i, r, value = 0, current = 0;
	char **cmd;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(exec_usage, stdout);
			return 0;
		}
		if (strcmp(argv[i], "--pardon") == 0) {
			pardon = true;
			value = OOM_ADJ_MIN;
		} else if (strcmp(argv[i], "--score") == 0 && i + 1 < argc && parse_score(argv[i + 1], &value) == 0) {
			score = true;
			i++;
		} else if (strncmp(argv[i], "--score=", 8) == 0 && parse_score(argv[i] + 8, &value) == 0) {
			score = true;
		} else if (strncmp(argv[i], "--score", 7) == 0) {
			fprintf(stderr, "oompardon: exec: --score takes an integer from -1000 to 1000\n%s", exec_usage);
			return EXIT_USAGE;
		} else {
			/* without "--", global options inside CMD's arguments would be taken as ours */
			fprintf(stderr, "oompardon: exec: put -- before the command (at %s)\n%s", argv[i], exec_usage);
			return EXIT_USAGE;
		}
	}
	if (i >= argc || (pardon && score)) {
		fputs(exec_usage, stderr);
		return EXIT_USAGE;
	}
	cmd = argv + i;
	if (pardon || score) {
		r = adjust_read(getpid(), &current);
		r = r < 0 ? 1 : current != value;
	} else {
		r = value_from_rules(g, cmd[0], &value, &current);
		if (r < 0)
			return -r;
		r = r && current != value;
	}
	if (r) {
		r = adjust_write_self(value);
		if (r == -EACCES || r == -EPERM) {
			log_warnx("cannot lower oom_score_adj to %d: oompardon lacks CAP_SYS_RESOURCE "
				  "(containers often drop it); %s not run", value, cmd[0]);
			return EXIT_ACTION_FAILED;
		}
		if (r < 0) {
			log_warnx("cannot set oom_score_adj to %d: %s; %s not run", value, strerror(-r), cmd[0]);
			return EXIT_ACTION_FAILED;
		}
	}
	fflush(NULL);
	execvp(cmd[0], cmd);
	r = errno;
	log_warnx("%s: %s", cmd[0], r == ENOENT ? "command not found" : strerror(r));
	return r == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXECUTE;
}
