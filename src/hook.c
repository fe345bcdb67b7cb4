/* hook.c - runs the early killer's commands: split without a shell, double fork, facts in env. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hook.h"

int hook_split(const char *cmd, char *buf, char *argv[])
{
	const char *p = cmd;
	char *out = buf;
	int n = 0;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		if (n == HOOK_ARGS_MAX)
			return -EINVAL;
		argv[n++] = out;
		while (*p && *p != ' ' && *p != '\t') {
			if (*p == '\'' || *p == '"') {
				char q = *p++;

				while (*p && *p != q)
					*out++ = *p++;
				if (*p != q)
					return -EINVAL;
				p++;
				continue;
			}
			*out++ = *p++;
		}
		*out++ = '\0';
	}
	argv[n] = NULL;
	return n == 0 ? -EINVAL : n;
}

/* In the grandchild: never returns. */
static void hook_exec(char *argv[], char *const env[])
{
	sigset_t none;
	int fd, sig;

	/* ignored signals stay ignored across exec: the daemon's choices are not the command's */
	for (sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setsid();
	for (; *env; env++)
		putenv(*env);
	fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		/* raising needs no privilege, so this works where lowering does not */
		if (write(fd, "0", 1) < 0) {
			/* nothing to do: the command runs with what it inherited */
		}
		close(fd);
	}
#ifdef SYS_close_range
	syscall(SYS_close_range, 3U, ~0U, 0U);
#endif
	execvp(argv[0], argv);
	_exit(127);
}

int hook_spawn(const char *cmd, char *const env[])
{
	char *argv[HOOK_ARGS_MAX + 1], *buf;
	int pipefd[2], status, r;
	pid_t child, grandchild = -1;

	buf = malloc(strlen(cmd) + 1);
	if (!buf)
		return -ENOMEM;
	r = hook_split(cmd, buf, argv);
	if (r < 0)
		goto out;
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		r = -errno;
		goto out;
	}
	child = fork();
	if (child < 0) {
		r = -errno;
		close(pipefd[0]);
		close(pipefd[1]);
		goto out;
	}
	if (child == 0) {
		pid_t g = fork();

		if (g == 0) {
			close(pipefd[0]);
			close(pipefd[1]);
			hook_exec(argv, env);
		}
		if (write(pipefd[1], &g, sizeof(g)) != sizeof(g))
			_exit(1);
		_exit(0);
	}
	close(pipefd[1]);
	if (read(pipefd[0], &grandchild, sizeof(grandchild)) != sizeof(grandchild))
		grandchild = -1;
	close(pipefd[0]);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	r = grandchild > 0 ? grandchild : -ECHILD;
out:
	free(buf);
	return r;
}
