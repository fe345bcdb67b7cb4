/* hook.h - the early killer's commands (hook, last resort): run without a shell, detached. */
#ifndef OOMPARDON_HOOK_H
#define OOMPARDON_HOOK_H

#define HOOK_ARGS_MAX 64

/* Splits cmd into words at blanks; '...' and "..." keep blanks inside one
 * word (no escapes, no expansion: no shell). Writes them into buf (at least
 * strlen(cmd)+1 bytes) and argv (HOOK_ARGS_MAX+1 slots, NULL-terminated).
 * Count, or -EINVAL (unbalanced quote, no words, too many). */
int hook_split(const char *cmd, char *buf, char *argv[]);

/* Starts cmd detached (double fork: nothing of it is left for the caller to
 * reap), with env ("NAME=value", NULL-terminated) added to our environment, its
 * signal mask cleared, only fds 0-2 kept and oom_score_adj back to 0 (the
 * daemon itself may hold -1000; its commands must not). The child's pid, or
 * -errno (-EINVAL: cmd does not split). A failed exec shows as exit status 127. */
int hook_spawn(const char *cmd, char *const env[]);

#endif
