/* config.c - the config language: files and drop-ins into a ruleset, every error in one pass.
 *
 * A line is a rule (`pardon SELECTOR...`, `score N SELECTOR...`) or a setting
 * (`NAME VALUE...`, the last one read wins); `#` after a blank starts a comment.
 * oompardon.conf(5) is the reference; keep it true when this file changes.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "config.h"
#include "trust.h"

#define CONFIG_SIZE_MAX (1024 * 1024)	/* a bigger config is a mistake, not a pardon list */
#define SCRIPT_HEAD_MAX 65536		/* how much of a #! script we search for its exec line */
#define COMM_LEN_MAX 15			/* the kernel's TASK_COMM_LEN (16) less the NUL */
#define RESCAN_MIN_MS 10u
#define RESCAN_MAX_MS (24u * 3600 * 1000)
#define GRACE_MAX_MS (10u * 60 * 1000)
#define PSI_WINDOW_MIN_MS 500u		/* kernel/sched/psi.c: WINDOW_MIN_US */
#define PSI_WINDOW_MAX_MS 10000u	/* kernel/sched/psi.c: WINDOW_MAX_US */
#define EMBEDDED_NAME "<embedded>"

/* Who holds the lock, found in the Debian 12 packages (apt-get download, dpkg -x,
 * file(1)); oompardon.conf(5) tells the same story. Paths that do not exist on a
 * machine cost nothing: the rule waits for them. */
const char config_embedded_default[] =
	"# The embedded default: used when no configuration file exists. Each program\n"
	"# here holds a screen or console lock; if the OOM killer takes it, the session\n"
	"# is open to whoever sits down (or, at best, shows a broken lock screen).\n"
	"# i3lock (X11): the i3lock process itself holds the keyboard and pointer grabs\n"
	"pardon /usr/bin/i3lock\n"
	"# swaylock (Wayland): holds the compositor's session lock\n"
	"pardon /usr/bin/swaylock\n"
	"# hyprlock (Hyprland): not packaged in Debian 12; upstream installs it here\n"
	"pardon /usr/bin/hyprlock\n"
	"# slock (suckless-tools): holds the grabs itself\n"
	"pardon /usr/bin/slock\n"
	"# xsecurelock: the main process holds the grabs; its auth_x11 child only asks\n"
	"pardon /usr/bin/xsecurelock\n"
	"# xscreensaver 6: the small daemon holds the grabs (xscreensaver-gfx draws,\n"
	"# xscreensaver-auth asks for the password; the daemon restarts both)\n"
	"pardon /usr/bin/xscreensaver\n"
	"# physlock: the console lock itself (setuid root)\n"
	"pardon /usr/bin/physlock\n"
	"# vlock: /usr/bin/vlock is a shell script that execs vlock-main (setuid root)\n"
	"pardon /usr/sbin/vlock-main\n"
	"# xlock (xlockmore): not in Debian 12; where other distributions install it\n"
	"pardon /usr/bin/xlock\n"
	"# light-locker: covers the session while lightdm's greeter asks on another VT\n"
	"pardon /usr/bin/light-locker\n"
	"# KDE Plasma 5: ksmserver (X11) and kwin_wayland (Wayland) host the locker\n"
	"# library (libKScreenLocker); kscreenlocker_greet draws the prompt\n"
	"pardon /usr/bin/ksmserver /usr/bin/kwin_wayland\n"
	"pardon /usr/lib/*/libexec/kscreenlocker_greet /usr/libexec/kscreenlocker_greet\n"
	"# GNOME: the lock screen is part of gnome-shell itself\n"
	"pardon /usr/bin/gnome-shell\n"
	"# gnome-screensaver (GNOME Flashback) and mate-screensaver hold their grabs;\n"
	"# cinnamon-screensaver is Python (the process shows python3): its ELF\n"
	"# cs-backup-locker keeps the screen covered when the Python part dies\n"
	"pardon /usr/bin/gnome-screensaver /usr/bin/mate-screensaver\n"
	"pardon /usr/lib/*/cinnamon-screensaver/cs-backup-locker\n";

struct parser {
	struct ruleset *rs;
	const char *file;	/* owned by rs->files */
	unsigned line;		/* 0: a message about the whole file */
	bool embedded;		/* no "does not exist" warnings for the embedded list */
	bool oom;
};

/* Room for element n (the capacity is the next power of two). 0 or -ENOMEM. */
static int grow_(void **arr, size_t n, size_t size)
{
	size_t cap = n ? 2 * n : 1;
	void *p;

	if (n & (n - 1))
		return 0;
	p = reallocarray(*arr, cap, size);
	if (p == NULL)
		return -ENOMEM;
	*arr = p;
	return 0;
}
#define GROW(arr, n) grow_((void **)&(arr), (n), sizeof(*(arr)))

static int strv_push(char ***v, size_t *n, char *s)
{
	if (s == NULL || GROW(*v, *n) < 0) {
		free(s);
		return -ENOMEM;
	}
	(*v)[(*n)++] = s;
	return 0;
}

__attribute__((format(printf, 3, 0)))
static void vnote(struct parser *p, bool error, const char *fmt, va_list ap)
{
	struct ruleset *rs = p->rs;
	char *msg, *full = NULL;
	int r;

	if (vasprintf(&msg, fmt, ap) < 0) {
		p->oom = true;
		return;
	}
	if (p->line)
		r = asprintf(&full, "%s:%u: %s%s", p->file, p->line, error ? "" : "warning: ", msg);
	else
		r = asprintf(&full, "%s: %s%s", p->file, error ? "" : "warning: ", msg);
	free(msg);
	if (r < 0)
		full = NULL;
	if ((error ? strv_push(&rs->errors, &rs->n_errors, full)
		   : strv_push(&rs->warnings, &rs->n_warnings, full)) < 0)
		p->oom = true;
}

__attribute__((format(printf, 2, 3)))
static void perr(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(p, true, fmt, ap);
	va_end(ap);
}

__attribute__((format(printf, 2, 3)))
static void pwarn(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(p, false, fmt, ap);
	va_end(ap);
}

/* ---- values ---- */

/* A whole decimal number with optional sign into *v. 0 or -EINVAL. */
static int parse_long(const char *s, long *v)
{
	char *end;

	if (!isdigit((unsigned char)s[0]) && !((s[0] == '+' || s[0] == '-') && isdigit((unsigned char)s[1])))
		return -EINVAL;
	errno = 0;
	*v = strtol(s, &end, 10);
	if (errno != 0 || end == s)
		return -EINVAL;
	return *end == '\0' ? 0 : -EINVAL;
}

/* Digits then a unit suffix: *v and *unit (pointing into s). 0 or -EINVAL. */
static int parse_unit_number(const char *s, unsigned long long *v, const char **unit)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno != 0)
		return -EINVAL;
	*unit = end;
	return 0;
}

/* "150ms", "5s", "2m" into milliseconds. 0 or -EINVAL. */
static int parse_duration(const char *s, unsigned long long *ms)
{
	unsigned long long v, mult;
	const char *u;

	if (parse_unit_number(s, &v, &u) < 0)
		return -EINVAL;
	if (strcmp(u, "ms") == 0)
		mult = 1;
	else if (strcmp(u, "s") == 0)
		mult = 1000;
	else if (strcmp(u, "m") == 0)
		mult = 60 * 1000;
	else
		return -EINVAL;
	if (v > ULLONG_MAX / mult)
		return -EINVAL;
	*ms = v * mult;
	return 0;
}

/* "512M" into KiB, or "10%" into a percentage. 0 or -EINVAL (-ERANGE: 0 size or over 100%). */
static int parse_size_or_pct(const char *s, unsigned long long *kib, unsigned *pct)
{
	unsigned long long v, mult;
	const char *u;

	if (parse_unit_number(s, &v, &u) < 0)
		return -EINVAL;
	*kib = 0;
	if (strcmp(u, "%") == 0) {
		if (v > 100)
			return -ERANGE;
		*pct = (unsigned)v;
		return 0;
	}
	if (strcmp(u, "K") == 0 || strcmp(u, "k") == 0)
		mult = 1;
	else if (strcmp(u, "M") == 0 || strcmp(u, "m") == 0)
		mult = 1024;
	else if (strcmp(u, "G") == 0 || strcmp(u, "g") == 0)
		mult = 1024 * 1024;
	else
		return -EINVAL;
	if (v == 0)
		return -ERANGE;
	if (v > ULLONG_MAX / mult)
		return -EINVAL;
	*kib = v * mult;
	return 0;
}

static void format_duration(char *buf, size_t len, unsigned long long ms)
{
	if (ms != 0 && ms % 60000 == 0)
		snprintf(buf, len, "%llum", ms / 60000);
	else if (ms != 0 && ms % 1000 == 0)
		snprintf(buf, len, "%llus", ms / 1000);
	else
		snprintf(buf, len, "%llums", ms);
}

static void format_size_or_pct(char *buf, size_t len, unsigned long long kib, unsigned pct)
{
	if (kib == 0)
		snprintf(buf, len, "%u%%", pct);
	else if (kib % (1024 * 1024) == 0)
		snprintf(buf, len, "%lluG", kib / (1024 * 1024));
	else if (kib % 1024 == 0)
		snprintf(buf, len, "%lluM", kib / 1024);
	else
		snprintf(buf, len, "%lluK", kib);
}

/* Are the quotes of a command balanced, as the killer splits it ('...' and "...", no escapes)? */
static bool quotes_balanced(const char *s)
{
	char q = 0;

	for (; *s; s++) {
		if (q && *s == q)
			q = 0;
		else if (!q && (*s == '\'' || *s == '"'))
			q = *s;
	}
	return q == 0;
}

/* ---- settings ---- */

struct words {
	char **w;	/* the words of the line, in place */
	size_t n;
	const char **rest;	/* rest[i]: the line from word i on, as written */
};

static const char *const setting_names[SETTING_COUNT] = {
	[SET_PARDON_SCORE] = "pardon-score",
	[SET_INHERIT] = "inherit",
	[SET_RESCAN_INTERVAL] = "rescan-interval",
	[SET_KILLER] = "killer",
	[SET_KILLER_SCOPE] = "killer-scope",
	[SET_KILLER_MEM_MIN] = "killer-mem-min",
	[SET_KILLER_SWAP_MIN] = "killer-swap-min",
	[SET_KILLER_GRACE] = "killer-grace",
	[SET_KILLER_PSI] = "killer-psi",
	[SET_KILLER_TARGET] = "killer-target",
	[SET_KILLER_LAST_RESORT] = "killer-last-resort",
	[SET_KILLER_HOOK] = "killer-hook",
	[SET_KILLER_DRY_RUN] = "killer-dry-run",
};

static int setting_lookup(const char *name)
{
	int i;

	for (i = 0; i < SETTING_COUNT; i++)
		if (strcmp(name, setting_names[i]) == 0)
			return i;
	return -1;
}

static int parse_bool(struct parser *p, const char *name, const char *v, bool *out)
{
	if (strcmp(v, "yes") == 0)
		*out = true;
	else if (strcmp(v, "no") == 0)
		*out = false;
	else {
		perr(p, "%s: expected yes or no, not '%s'", name, v);
		return -EINVAL;
	}
	return 0;
}

static int set_string(struct parser *p, char **field, const char *v)
{
	char *s = NULL;

	if (v != NULL && (s = strdup(v)) == NULL) {
		p->oom = true;
		return -ENOMEM;
	}
	free(*field);
	*field = s;
	return 0;
}

static int parse_duration_in(struct parser *p, const char *name, const char *v,
			     unsigned long long min_ms, unsigned long long max_ms, unsigned long long *ms)
{
	char lo[32], hi[32];

	if (parse_duration(v, ms) < 0) {
		perr(p, "%s: '%s' is not a duration (a whole number with ms, s or m)", name, v);
		return -EINVAL;
	}
	if (*ms < min_ms || *ms > max_ms) {
		format_duration(lo, sizeof(lo), min_ms);
		format_duration(hi, sizeof(hi), max_ms);
		perr(p, "%s: %s is out of range %s..%s", name, v, lo, hi);
		return -ERANGE;
	}
	return 0;
}

/* killer-psi some|full STALL WINDOW -> the kernel's trigger text, in microseconds. */
static int parse_psi(struct parser *p, const struct words *w, struct settings *s)
{
	unsigned long long stall_ms, window_ms;
	char trigger[96];
	int bad = 0;

	if (w->n == 2 && strcmp(w->w[1], "off") == 0)
		return set_string(p, &s->killer_psi, NULL);
	if (w->n != 4) {
		perr(p, "killer-psi: expected 'off' or 'some|full STALL WINDOW' (e.g. some 150ms 1s)");
		return -EINVAL;
	}
	if (strcmp(w->w[1], "some") != 0 && strcmp(w->w[1], "full") != 0) {
		perr(p, "killer-psi: expected some or full, not '%s'", w->w[1]);
		bad = -EINVAL;
	}
	if (parse_duration_in(p, "killer-psi stall", w->w[2], 1, PSI_WINDOW_MAX_MS, &stall_ms) < 0)
		bad = -EINVAL;
	if (parse_duration_in(p, "killer-psi window", w->w[3], PSI_WINDOW_MIN_MS, PSI_WINDOW_MAX_MS,
			      &window_ms) < 0)
		bad = -EINVAL;
	if (bad)
		return bad;
	if (stall_ms > window_ms) {
		perr(p, "killer-psi: the stall (%s) is longer than the window (%s)", w->w[2], w->w[3]);
		return -EINVAL;
	}
	snprintf(trigger, sizeof(trigger), "%s %llu %llu", w->w[1], stall_ms * 1000, window_ms * 1000);
	return set_string(p, &s->killer_psi, trigger);
}

/* A command (rest of the line) for the killer: split later without a shell. */
static int parse_command(struct parser *p, const char *name, const char *cmd, char **field)
{
	if (!quotes_balanced(cmd)) {
		perr(p, "%s: unbalanced quote in '%s'", name, cmd);
		return -EINVAL;
	}
	return set_string(p, field, cmd);
}

static int parse_setting(struct parser *p, int id, const struct words *w)
{
	struct settings *s = &p->rs->settings;
	const char *name = w->w[0], *v = w->n > 1 ? w->w[1] : NULL;
	unsigned long long ms, kib;
	unsigned pct = 0;
	long n;
	int r;

	if (v == NULL) {
		perr(p, "%s needs a value", name);
		return -EINVAL;
	}
	if (w->n > 2 && id != SET_KILLER_PSI && id != SET_KILLER_LAST_RESORT && id != SET_KILLER_HOOK) {
		perr(p, "%s takes one value, not %zu", name, w->n - 1);
		return -EINVAL;
	}
	switch (id) {
	case SET_PARDON_SCORE:
		if (parse_long(v, &n) < 0 || (n != -1000 && n != -999)) {
			perr(p, "pardon-score must be -1000 or -999, not '%s'", v);
			return -EINVAL;
		}
		s->pardon_score = (int)n;
		return 0;
	case SET_INHERIT:
		return parse_bool(p, name, v, &s->inherit);
	case SET_KILLER:
		return parse_bool(p, name, v, &s->killer);
	case SET_KILLER_DRY_RUN:
		return parse_bool(p, name, v, &s->killer_dry_run);
	case SET_RESCAN_INTERVAL:
		if ((r = parse_duration_in(p, name, v, RESCAN_MIN_MS, RESCAN_MAX_MS, &ms)) < 0)
			return r;
		s->rescan_interval_ms = (unsigned)ms;
		return 0;
	case SET_KILLER_GRACE:
		if ((r = parse_duration_in(p, name, v, 0, GRACE_MAX_MS, &ms)) < 0)
			return r;
		s->killer_grace_ms = (unsigned)ms;
		return 0;
	case SET_KILLER_SCOPE:
		if (strcmp(v, "none") == 0)
			return set_string(p, &s->killer_scope, NULL);
		if (v[0] != '/') {
			perr(p, "killer-scope: '%s' is not an absolute path (a memory cgroup's directory, or none)", v);
			return -EINVAL;
		}
		return set_string(p, &s->killer_scope, v);
	case SET_KILLER_MEM_MIN:
	case SET_KILLER_SWAP_MIN:
		r = parse_size_or_pct(v, &kib, &pct);
		if (r == -ERANGE) {
			perr(p, "%s: %s is out of range (1K and up, or 0%%..100%%)", name, v);
			return r;
		} else if (r < 0) {
			perr(p, "%s: '%s' is neither a percentage (10%%) nor a size (512M; K, M or G)", name, v);
			return r;
		}
		if (id == SET_KILLER_MEM_MIN) {
			s->killer_mem_min_kib = kib;
			if (kib == 0)
				s->killer_mem_min_pct = pct;
		} else {
			s->killer_swap_min_kib = kib;
			if (kib == 0)
				s->killer_swap_min_pct = pct;
		}
		return 0;
	case SET_KILLER_PSI:
		return parse_psi(p, w, s);
	case SET_KILLER_TARGET:
		if (strcmp(v, "process") == 0)
			s->killer_target = KILLER_TARGET_PROCESS;
		else if (strcmp(v, "group") == 0)
			s->killer_target = KILLER_TARGET_GROUP;
		else if (strcmp(v, "cgroup") == 0)
			s->killer_target = KILLER_TARGET_CGROUP;
		else {
			perr(p, "killer-target: expected process, group or cgroup, not '%s'", v);
			return -EINVAL;
		}
		return 0;
	case SET_KILLER_LAST_RESORT:
		if (strcmp(v, "command") == 0) {
			if (w->n < 3) {
				perr(p, "killer-last-resort command needs a command");
				return -EINVAL;
			}
			if ((r = parse_command(p, name, w->rest[2], &s->killer_last_resort_command)) < 0)
				return r;
			s->killer_last_resort = KILLER_LAST_COMMAND;
			return 0;
		}
		if (w->n > 2) {
			perr(p, "killer-last-resort %s takes no arguments", v);
			return -EINVAL;
		}
		if (strcmp(v, "wait") == 0)
			s->killer_last_resort = KILLER_LAST_WAIT;
		else if (strcmp(v, "panic") == 0)
			s->killer_last_resort = KILLER_LAST_PANIC;
		else {
			perr(p, "killer-last-resort: expected wait, panic or command CMD..., not '%s'", v);
			return -EINVAL;
		}
		return set_string(p, &s->killer_last_resort_command, NULL);
	case SET_KILLER_HOOK:
		if (w->n == 2 && strcmp(v, "none") == 0)
			return set_string(p, &s->killer_hook, NULL);
		return parse_command(p, name, w->rest[1], &s->killer_hook);
	}
	return -EINVAL;
}

/* ---- selectors and rules ---- */

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* /proc/PID/exe and /proc/PID/cgroup never show "//", "/./", "/../" or a trailing '/'. */
static bool path_canonical(const char *s)
{
	const char *c = s;

	if (strcmp(s, "/") == 0)
		return true;
	while (*c == '/') {
		const char *e = strchrnul(c + 1, '/');
		size_t n = (size_t)(e - c - 1);

		if (n == 0 || (n == 1 && c[1] == '.') || (n == 2 && c[1] == '.' && c[2] == '.'))
			return false;
		c = e;
	}
	return true;
}

static int parse_user(struct parser *p, const char *sel, const char *v, uid_t *uid)
{
	struct passwd *pw;
	long n;

	if (parse_long(v, &n) == 0) {
		if (n < 0 || (unsigned long)n >= (uid_t)-1) {
			perr(p, "'%s': user=%s is not a valid uid", sel, v);
			return -EINVAL;
		}
		*uid = (uid_t)n;
		return 0;
	}
	errno = 0;
	pw = getpwnam(v);
	if (pw == NULL) {
		if (errno != 0 && errno != ENOENT && errno != ESRCH)
			perr(p, "'%s': cannot look up user '%s': %s", sel, v, strerror(errno));
		else
			perr(p, "'%s': unknown user '%s'", sel, v);
		return -EINVAL;
	}
	*uid = pw->pw_uid;
	return 0;
}

static const char *const cond_names[] = {
	[COND_EXE] = "exe", [COND_COMM] = "comm", [COND_USER] = "user", [COND_CGROUP] = "cgroup",
};

/* One condition `name=value` (or a bare path: exe) of selector sel. 0 or -EINVAL (said). */
static int parse_cond(struct parser *p, const char *sel, enum cond_kind kind, const char *v,
		      struct cond *c)
{
	const char *name = cond_names[kind];

	memset(c, 0, sizeof(*c));
	c->kind = kind;
	if (v[0] == '\0') {
		perr(p, "'%s': %s= needs a value", sel, name);
		return -EINVAL;
	}
	switch (kind) {
	case COND_EXE:
	case COND_CGROUP:
		if (v[0] != '/') {
			if (kind == COND_EXE)
				perr(p, "'%s': exe= needs an absolute path", sel);
			else
				perr(p, "'%s': cgroup= needs a path as /proc/PID/cgroup shows it, starting with '/'", sel);
			return -EINVAL;
		}
		if (!path_canonical(v)) {
			if (strcmp(sel, v) == 0)
				perr(p, "'%s' can never match: the kernel shows paths without '//', '.', '..' "
				     "or a trailing '/'", v);
			else
				perr(p, "'%s': %s=%s can never match: the kernel shows paths without '//', "
				     "'.', '..' or a trailing '/'", sel, name, v);
			return -EINVAL;
		}
		break;
	case COND_COMM:
		if (strlen(v) > COMM_LEN_MAX) {
			perr(p, "'%s': comm=%s can never match: the kernel keeps only %d characters of a name",
			     sel, v, COMM_LEN_MAX);
			return -EINVAL;
		}
		break;
	case COND_USER:
		return parse_user(p, sel, v, &c->uid);
	}
	c->pattern = strdup(v);
	if (c->pattern == NULL) {
		p->oom = true;
		return -ENOMEM;
	}
	c->is_glob = kind != COND_COMM && has_glob(v);
	return 0;
}

static int cond_lookup(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(cond_names) / sizeof(cond_names[0]); i++)
		if (strlen(cond_names[i]) == len && strncmp(name, cond_names[i], len) == 0)
			return (int)i;
	return -1;
}

/* Fills sel from its text. 0 or -EINVAL (every problem said). */
static int parse_selector(struct parser *p, const char *text, struct selector *sel)
{
	char *copy = NULL, *part, *next;
	bool seen[4] = { false, false, false, false };
	int r = 0;

	memset(sel, 0, sizeof(*sel));
	if ((sel->text = strdup(text)) == NULL)
		goto oom;
	if (text[0] == '/') {
		if ((sel->conds = calloc(1, sizeof(*sel->conds))) == NULL)
			goto oom;
		if (parse_cond(p, text, COND_EXE, text, &sel->conds[0]) < 0)
			return -EINVAL;
		sel->n_conds = 1;
		return 0;
	}
	if (strchr(text, '=') == NULL) {
		perr(p, "'%s' is not a selector: an absolute path, or conditions exe=, comm=, user=, cgroup= "
		     "joined by commas", text);
		return -EINVAL;
	}
	if ((copy = strdup(text)) == NULL)
		goto oom;
	for (part = copy; part != NULL; part = next) {
		char *eq;
		int kind;

		next = strchr(part, ',');
		if (next != NULL)
			*next++ = '\0';
		eq = strchr(part, '=');
		if (part[0] == '\0') {
			perr(p, "'%s': empty condition", text);
			r = -EINVAL;
			continue;
		}
		if (eq == NULL) {
			perr(p, "'%s': '%s' is not a condition (NAME=VALUE)", text, part);
			r = -EINVAL;
			continue;
		}
		kind = cond_lookup(part, (size_t)(eq - part));
		if (kind < 0) {
			perr(p, "'%s': unknown condition '%.*s=' (exe=, comm=, user=, cgroup=)", text,
			     (int)(eq - part), part);
			r = -EINVAL;
			continue;
		}
		if (seen[kind]) {
			perr(p, "'%s': %s= given twice", text, cond_names[kind]);
			r = -EINVAL;
			continue;
		}
		seen[kind] = true;
		if (GROW(sel->conds, sel->n_conds) < 0)
			goto oom;
		if (parse_cond(p, text, (enum cond_kind)kind, eq + 1, &sel->conds[sel->n_conds]) < 0)
			r = -EINVAL;
		else
			sel->n_conds++;
	}
	free(copy);
	return r;
oom:
	free(copy);
	p->oom = true;
	return -ENOMEM;
}

/* The program that `exec` starts in a #! script, if a line says so plainly: `exec /abs/path`
 * or `exec "$VAR"` with VAR=/abs/path assigned on a line of its own (vlock does that).
 * 0 with the path in out; 1 with a bare name (`exec gzip`, found through PATH); -ENOENT. */
static int script_exec_target(const char *text, char *out, size_t outlen)
{
	const char *line, *eol;
	bool bare = false;

	for (line = text; *line; line = *eol ? eol + 1 : eol) {
		const char *s = line, *w;
		char var[64];
		size_t n;

		eol = strchrnul(line, '\n');
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		if (strncmp(s, "exec", 4) != 0 || (s[4] != ' ' && s[4] != '\t'))
			continue;
		for (s += 4; s < eol && (*s == ' ' || *s == '\t'); s++)
			;
		w = s;
		if (*w == '"' || *w == '\'')
			w++;
		if (*w == '/') {
			n = strcspn(w, " \t\n\"'");
			if (n < outlen && w + n <= eol) {
				snprintf(out, outlen, "%.*s", (int)n, w);
				return 0;
			}
			continue;
		}
		if (*w != '$') {
			n = strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+-");
			if (!bare && n > 0 && n < outlen && (w[n] == ' ' || w[n] == '\t' || w + n == eol) &&
			    w[0] != '-' && !isdigit((unsigned char)w[0])) {
				snprintf(out, outlen, "%.*s", (int)n, w);
				bare = true;
			}
			continue;
		}
		w += w[1] == '{' ? 2 : 1;
		n = strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
		if (n == 0 || n + 2 > sizeof(var))
			continue;
		snprintf(var, sizeof(var), "%.*s=", (int)n, w);
		/* the assignment: VAR=/path or VAR="/path" at the start of a line */
		for (s = text; (s = strstr(s, var)) != NULL; s++) {
			if (s != text && s[-1] != '\n' && s[-1] != ' ' && s[-1] != '\t')
				continue;
			w = s + n + 1;
			if (*w == '"' || *w == '\'')
				w++;
			if (*w != '/')
				continue;
			n = strcspn(w, " \t\n\"';");
			if (n < outlen) {
				snprintf(out, outlen, "%.*s", (int)n, w);
				return 0;
			}
		}
	}
	return bare ? 1 : -ENOENT;
}

/* Warns when the file at path is a #! script (named `shown` in the message): a running
 * process shows its interpreter, not the script. Was it one? */
static bool check_script(struct parser *p, const char *path, const char *shown)
{
	char *buf, interp[PATH_MAX], target[PATH_MAX];
	ssize_t len;
	size_t n;
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	buf = malloc(SCRIPT_HEAD_MAX + 1);
	if (buf == NULL) {
		close(fd);
		p->oom = true;
		return false;
	}
	len = read(fd, buf, SCRIPT_HEAD_MAX);
	close(fd);
	if (len < 2 || buf[0] != '#' || buf[1] != '!') {
		free(buf);
		return false;
	}
	buf[len] = '\0';
	/* the interpreter with its first argument (#!/usr/bin/env python3 runs python3) */
	n = strspn(buf + 2, " \t");
	n = strcspn(buf + 2 + n, "\n") + n;
	snprintf(interp, sizeof(interp), "%.*s", (int)n, buf + 2);
	n = strspn(interp, " \t");
	memmove(interp, interp + n, strlen(interp + n) + 1);
	for (n = strlen(interp); n > 0 && isspace((unsigned char)interp[n - 1]); n--)
		interp[n - 1] = '\0';
	r = script_exec_target(buf, target, sizeof(target));
	if (r == 0)
		pwarn(p, "%s is a #! script: a running process shows its interpreter (%s), not the script; "
		      "list %s instead", shown, interp, target);
	else if (r == 1)
		pwarn(p, "%s is a #! script: a running process shows its interpreter (%s), not the script; "
		      "list the full path of %s (which it execs) instead", shown, interp, target);
	else
		pwarn(p, "%s is a #! script: a running process shows its interpreter (%s), not the script; "
		      "list the program it runs instead", shown, interp);
	free(buf);
	return true;
}

/* Load-time advice about an exact exe path: it must be what /proc/PID/exe will show. */
static void check_exe(struct parser *p, const struct rule *r, const char *path)
{
	char real[PATH_MAX], shown[2 * PATH_MAX + 16];
	const char *why;
	struct stat st;
	int t;

	if (stat(path, &st) < 0) {
		if (p->embedded)
			return;
		if (errno == ENOENT || errno == ENOTDIR)
			pwarn(p, "%s does not exist (yet); the rule waits for it", path);
		else
			pwarn(p, "%s: cannot check it: %s", path, strerror(errno));
		return;
	}
	if (realpath(path, real) != NULL && strcmp(real, path) != 0) {
		snprintf(shown, sizeof(shown), "%s (a link to %s)", path, real);
		if (!S_ISREG(st.st_mode) || !check_script(p, real, shown))
			pwarn(p, "%s is a link to %s: a running process shows that path; list it instead",
			      path, real);
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		pwarn(p, "%s is not a regular file: no process runs it", path);
		return;
	}
	if (check_script(p, path, path) || !rule_protects(r))
		return;
	t = trust_path(path, &why);
	if (t < 0 && t != -ENOSYS)
		pwarn(p, "%s: %s: this rule cannot protect it", path, why);
}

/* Advice that never fails the load: rules that cannot do what they seem to. */
static void check_rule(struct parser *p, const struct rule *r)
{
	size_t i, j;

	for (i = 0; i < r->n_sels; i++) {
		const struct selector *sel = &r->sels[i];
		bool only_comm = true;

		for (j = 0; j < sel->n_conds; j++) {
			if (sel->conds[j].kind != COND_COMM)
				only_comm = false;
			if (sel->conds[j].kind == COND_EXE && !sel->conds[j].is_glob)
				check_exe(p, r, sel->conds[j].pattern);
		}
		if (only_comm && rule_protects(r))
			pwarn(p, "'%s': comm= can be forged by any process: this rule can only raise scores",
			      sel->text);
	}
}

static void parse_rule(struct parser *p, enum rule_action action, const struct words *w)
{
	struct ruleset *rs = p->rs;
	struct rule r = { .action = action, .file = p->file, .line = p->line };
	size_t i, first = 1;
	bool ok = true;
	long n = 0;

	if (action == RULE_SCORE) {
		if (w->n < 2) {
			perr(p, "score needs a value (-1000..1000) and at least one selector");
			return;
		}
		if (parse_long(w->w[1], &n) < 0) {
			perr(p, "score: '%s' is not a number (-1000..1000)", w->w[1]);
			ok = false;
		} else if (n < OOM_ADJ_MIN || n > OOM_ADJ_MAX) {
			perr(p, "score: %s is out of range -1000..1000", w->w[1]);
			ok = false;
		}
		r.score = (int)n;
		first = 2;
	} else {
		r.score = rs->settings.pardon_score;
	}
	if (w->n <= first) {
		perr(p, "%s needs at least one selector", w->w[0]);
		return;
	}
	r.sels = calloc(w->n - first, sizeof(*r.sels));
	if (r.sels == NULL) {
		p->oom = true;
		return;
	}
	for (i = first; i < w->n; i++) {
		if (parse_selector(p, w->w[i], &r.sels[r.n_sels]) < 0) {
			selector_free(&r.sels[r.n_sels]);
			ok = false;
		} else {
			r.n_sels++;
		}
	}
	if (ok && GROW(rs->rules, rs->n_rules) == 0) {
		check_rule(p, &r);
		rs->rules[rs->n_rules++] = r;
		return;
	}
	if (ok)
		p->oom = true;
	for (i = 0; i < r.n_sels; i++)
		selector_free(&r.sels[i]);
	free(r.sels);
}

/* ---- lines and files ---- */

/* Cuts the comment off line: a '#' at the start or after a blank (outside quotes
 * when quoted says so: the killer's commands). */
static void strip_comment(char *line, bool quoted)
{
	char q = 0, *c;

	for (c = line; *c; c++) {
		if (q) {
			if (*c == q)
				q = 0;
		} else if (quoted && (*c == '\'' || *c == '"')) {
			q = *c;
		} else if (*c == '#' && (c == line || isspace((unsigned char)c[-1]))) {
			*c = '\0';
			return;
		}
	}
}

static void parse_line(struct parser *p, char *line)
{
	char *raw, *c, *start;
	struct words w = { NULL, 0, NULL };
	size_t first_len;
	int id;

	c = start = line + strspn(line, " \t\r\v\f");
	first_len = strcspn(c, " \t\r\v\f");
	strip_comment(c, (first_len == 11 && strncmp(c, "killer-hook", 11) == 0) ||
			 (first_len == 18 && strncmp(c, "killer-last-resort", 18) == 0));
	if ((raw = strdup(c)) == NULL) {
		p->oom = true;
		return;
	}
	while (*c) {
		if (GROW(w.w, w.n) < 0 || GROW(w.rest, w.n) < 0) {
			p->oom = true;
			goto out;
		}
		w.w[w.n] = c;
		w.rest[w.n] = raw + (c - start);
		w.n++;
		c += strcspn(c, " \t\r\v\f");
		if (*c)
			*c++ = '\0';
		c += strspn(c, " \t\r\v\f");
	}
	/* right-trim each rest so that commands end where the text does */
	for (c = raw + strlen(raw); c > raw && isspace((unsigned char)c[-1]); c--)
		c[-1] = '\0';
	if (w.n == 0)
		goto out;
	if (strcmp(w.w[0], "pardon") == 0) {
		parse_rule(p, RULE_PARDON, &w);
	} else if (strcmp(w.w[0], "score") == 0) {
		parse_rule(p, RULE_SCORE, &w);
	} else if ((id = setting_lookup(w.w[0])) >= 0) {
		if (parse_setting(p, id, &w) == 0) {
			p->rs->setting_origin[id].file = p->file;
			p->rs->setting_origin[id].line = p->line;
		}
	} else {
		perr(p, "unknown keyword '%s' (pardon, score, or a setting; see oompardon.conf(5))", w.w[0]);
	}
out:
	free(w.w);
	free(w.rest);
	free(raw);
}

/* Every pardon rule writes the pardon-score in force at the end: the last one read. */
static void finish(struct ruleset *rs)
{
	size_t i;

	for (i = 0; i < rs->n_rules; i++)
		if (rs->rules[i].action == RULE_PARDON)
			rs->rules[i].score = rs->settings.pardon_score;
}

/* Adds name to rs->files; the copy there is the one rules point to. NULL on ENOMEM. */
static const char *file_add(struct ruleset *rs, const char *name)
{
	if (strv_push(&rs->files, &rs->n_files, strdup(name)) < 0)
		return NULL;
	return rs->files[rs->n_files - 1];
}

static int parse_text(struct parser *p, const char *buf)
{
	const char *s = buf, *eol;
	char *line;

	for (p->line = 1; *s; p->line++, s = *eol ? eol + 1 : eol) {
		eol = strchrnul(s, '\n');
		line = strndup(s, (size_t)(eol - s));
		if (line == NULL) {
			p->oom = true;
			break;
		}
		parse_line(p, line);
		free(line);
	}
	p->line = 0;
	finish(p->rs);
	if (p->oom)
		return -ENOMEM;
	return p->rs->n_errors ? -EINVAL : 0;
}

int config_parse_buffer(struct ruleset *rs, const char *name, const char *buf)
{
	struct parser p = { .rs = rs, .embedded = strcmp(name, EMBEDDED_NAME) == 0 };

	if ((p.file = file_add(rs, name)) == NULL)
		return -ENOMEM;
	return parse_text(&p, buf);
}

/* Is st /dev/null, the systemd way of masking a drop-in? */
static bool is_dev_null(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(1, 3);
}

/* Reads and parses one file. 0; -ENOENT when it does not exist and may be missing;
 * -EINVAL when it has errors (said); -ENOMEM. */
static int load_file(struct ruleset *rs, const char *path, bool may_be_missing)
{
	struct parser p = { .rs = rs };
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	ssize_t n;
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT && may_be_missing)
		return -ENOENT;
	if ((p.file = file_add(rs, path)) == NULL) {
		r = -ENOMEM;
		goto out;
	}
	if (fd < 0 || fstat(fd, &st) < 0) {
		perr(&p, "cannot read it: %s", strerror(errno));
		r = -EINVAL;
		goto out;
	}
	if (is_dev_null(&st)) {
		r = 0;	/* masked */
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		perr(&p, "not a regular file");
		r = -EINVAL;
		goto out;
	}
	/* Anyone who can write a config can pardon: only root's (or our own) files count. */
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		perr(&p, "owned by uid %u: refusing it", (unsigned)st.st_uid);
		r = -EINVAL;
		goto out;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		perr(&p, "writable by %s: refusing it", st.st_mode & S_IWOTH ? "others" : "its group");
		r = -EINVAL;
		goto out;
	}
	if (st.st_size > CONFIG_SIZE_MAX) {
		perr(&p, "larger than %d bytes: refusing it", CONFIG_SIZE_MAX);
		r = -EINVAL;
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (buf == NULL) {
		r = -ENOMEM;
		goto out;
	}
	while (len < (size_t)st.st_size && (n = read(fd, buf + len, (size_t)st.st_size - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			perr(&p, "cannot read it: %s", strerror(errno));
			r = -EINVAL;
			goto out;
		}
		len += (size_t)n;
	}
	buf[len] = '\0';
	if (memchr(buf, '\0', len) != NULL) {
		perr(&p, "contains a NUL byte: not a text file");
		r = -EINVAL;
		goto out;
	}
	r = parse_text(&p, buf);
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	if (p.oom)
		return -ENOMEM;
	return r;
}

struct dropin {
	char *name;	/* file name: the key of systemd's replacement rule */
	char *path;
};

static int dropin_cmp(const void *a, const void *b)
{
	return strcmp(((const struct dropin *)a)->name, ((const struct dropin *)b)->name);
}

static bool is_conf_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 5 && strcmp(name + n - 5, ".conf") == 0;
}

/* Gathers the *.conf of every drop-in dir below root; a same-named file in a later
 * dir replaces the earlier one. Count or -errno; errors opening a dir go to rs. */
static int dropins_list(struct ruleset *rs, const char *root, struct dropin **out)
{
	static const char *const dirs[] = CONFIG_DROPIN_DIRS;
	struct dropin *d = NULL;
	size_t n = 0, i, k;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		struct dirent *de;
		char *dir;
		DIR *dh;

		if (asprintf(&dir, "%s%s", root, dirs[i]) < 0)
			goto oom;
		dh = opendir(dir);
		if (dh == NULL) {
			if (errno != ENOENT && errno != ENOTDIR) {
				struct parser p = { .rs = rs, .file = dir };
				int e = errno;

				perr(&p, "cannot read the directory: %s", strerror(e));
				if (p.oom) {
					free(dir);
					goto oom;
				}
			}
			free(dir);
			continue;
		}
		while ((de = readdir(dh)) != NULL) {
			char *path;

			if (!is_conf_name(de->d_name))
				continue;
			if (asprintf(&path, "%s/%s", dir, de->d_name) < 0) {
				closedir(dh);
				free(dir);
				goto oom;
			}
			for (k = 0; k < n && strcmp(d[k].name, de->d_name) != 0; k++)
				;
			if (k < n) {
				free(d[k].path);
				d[k].path = path;
				continue;
			}
			if (GROW(d, n) < 0 || (d[n].name = strdup(de->d_name)) == NULL) {
				free(path);
				closedir(dh);
				free(dir);
				goto oom;
			}
			d[n++].path = path;
		}
		closedir(dh);
		free(dir);
	}
	if (n > 1)
		qsort(d, n, sizeof(*d), dropin_cmp);
	*out = d;
	return (int)n;
oom:
	for (k = 0; k < n; k++) {
		free(d[k].name);
		free(d[k].path);
	}
	free(d);
	return -ENOMEM;
}

/* Keeps the worst result: -ENOMEM over -EINVAL over 0. */
static int worst(int a, int b)
{
	if (a == -ENOMEM || b == -ENOMEM)
		return -ENOMEM;
	if (a == -EINVAL || b == -EINVAL)
		return -EINVAL;
	return 0;
}

int config_load(struct ruleset *rs, const struct config_source *src)
{
	const char *root = src->root ? src->root : "";
	struct dropin *d = NULL;
	char *path = NULL;
	int r = 0, n, i;
	bool any = false;

	if (src->file != NULL) {
		r = load_file(rs, src->file, false);
		any = true;
	} else {
		if (asprintf(&path, "%s%s", root, CONFIG_MAIN_FILE) < 0)
			return -ENOMEM;
		r = load_file(rs, path, true);
		free(path);
		any = r != -ENOENT;
		if (r == -ENOENT)
			r = 0;
		n = dropins_list(rs, root, &d);
		if (n < 0)
			return n;
		any = any || n > 0;
		for (i = 0; i < n; i++) {
			r = worst(r, load_file(rs, d[i].path, true));
			free(d[i].name);
			free(d[i].path);
		}
		free(d);
	}
	if (!any) {
		rs->embedded = true;
		r = worst(r, config_parse_buffer(rs, EMBEDDED_NAME, config_embedded_default));
	}
	if (src->run_dir != NULL) {
		if (asprintf(&path, "%s/%s", src->run_dir, CONFIG_RUNTIME_FILE) < 0)
			return -ENOMEM;
		n = load_file(rs, path, true);
		free(path);
		if (n != -ENOENT)
			r = worst(r, n);
	}
	finish(rs);
	if (r == -ENOMEM)
		return r;
	return rs->n_errors ? -EINVAL : 0;
}

/* ---- printing ---- */

#define PRINT_COLUMN 39	/* where the origin comment starts */

static void print_line(FILE *out, const char *text, const struct origin *o, const char *extra)
{
	if (o->file == NULL)
		fprintf(out, "%-*s # default%s\n", PRINT_COLUMN, text, extra);
	else
		fprintf(out, "%-*s # %s:%u%s\n", PRINT_COLUMN, text, o->file, o->line, extra);
}

static void print_setting(FILE *out, const struct ruleset *rs, int id)
{
	const struct settings *s = &rs->settings;
	static const char *const targets[] = { "process", "group", "cgroup" };
	char val[64], text[PATH_MAX + 64];
	unsigned long long stall_us, window_us;
	char kind[8];
	const char *v = val;

	switch (id) {
	case SET_PARDON_SCORE:
		snprintf(val, sizeof(val), "%d", s->pardon_score);
		break;
	case SET_INHERIT:
		v = s->inherit ? "yes" : "no";
		break;
	case SET_RESCAN_INTERVAL:
		format_duration(val, sizeof(val), s->rescan_interval_ms);
		break;
	case SET_KILLER:
		v = s->killer ? "yes" : "no";
		break;
	case SET_KILLER_SCOPE:
		v = s->killer_scope ? s->killer_scope : "none";
		break;
	case SET_KILLER_MEM_MIN:
		format_size_or_pct(val, sizeof(val), s->killer_mem_min_kib, s->killer_mem_min_pct);
		break;
	case SET_KILLER_SWAP_MIN:
		format_size_or_pct(val, sizeof(val), s->killer_swap_min_kib, s->killer_swap_min_pct);
		break;
	case SET_KILLER_GRACE:
		format_duration(val, sizeof(val), s->killer_grace_ms);
		break;
	case SET_KILLER_PSI:
		if (s->killer_psi == NULL ||
		    sscanf(s->killer_psi, "%7s %llu %llu", kind, &stall_us, &window_us) != 3) {
			v = "off";
			break;
		}
		{
			char a[24], b[24];

			format_duration(a, sizeof(a), stall_us / 1000);
			format_duration(b, sizeof(b), window_us / 1000);
			snprintf(val, sizeof(val), "%s %s %s", kind, a, b);
		}
		break;
	case SET_KILLER_TARGET:
		v = targets[s->killer_target >= 0 && s->killer_target <= 2 ? s->killer_target : 0];
		break;
	case SET_KILLER_LAST_RESORT:
		v = s->killer_last_resort == KILLER_LAST_PANIC ? "panic"
		    : s->killer_last_resort == KILLER_LAST_COMMAND ? "command" : "wait";
		break;
	case SET_KILLER_HOOK:
		v = s->killer_hook ? s->killer_hook : "none";
		break;
	case SET_KILLER_DRY_RUN:
		v = s->killer_dry_run ? "yes" : "no";
		break;
	}
	if (id == SET_KILLER_LAST_RESORT && s->killer_last_resort == KILLER_LAST_COMMAND)
		snprintf(text, sizeof(text), "%s command %s", setting_names[id],
			 s->killer_last_resort_command ? s->killer_last_resort_command : "");
	else
		snprintf(text, sizeof(text), "%s %s", setting_names[id], v);
	print_line(out, text, &rs->setting_origin[id], "");
}

void config_print(const struct ruleset *rs, FILE *out)
{
	size_t i, j;
	int id;

	if (rs->embedded)
		fprintf(out, "# no configuration file: the embedded default\n");
	fprintf(out, "# settings\n");
	for (id = 0; id < SETTING_COUNT; id++)
		print_setting(out, rs, id);
	fprintf(out, "# rules: pardon beats score; among scores the last one wins\n");
	for (i = 0; i < rs->n_rules; i++) {
		const struct rule *r = &rs->rules[i];
		struct origin o = { r->file, r->line };
		char *text = NULL, *t, extra[32] = "";
		size_t len;

		if (r->action == RULE_PARDON) {
			len = strlen("pardon") + 1;
			snprintf(extra, sizeof(extra), " (%d)", r->score);
		} else {
			len = strlen("score +1000") + 1;
		}
		for (j = 0; j < r->n_sels; j++)
			len += strlen(r->sels[j].text) + 1;
		text = malloc(len);
		if (text == NULL)
			continue;
		t = text + (r->action == RULE_PARDON ? sprintf(text, "pardon") : sprintf(text, "score %+d", r->score));
		for (j = 0; j < r->n_sels; j++)
			t += sprintf(t, " %s", r->sels[j].text);
		print_line(out, text, &o, extra);
		free(text);
	}
}

/* ---- watching ---- */

/* Pushes a formatted path onto v. 0 or -ENOMEM. */
__attribute__((format(printf, 3, 4)))
static int push_path(char ***v, size_t *n, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	return r < 0 ? -ENOMEM : strv_push(v, n, s);
}

char **config_watch_paths(const struct config_source *src)
{
	static const char *const dirs[] = CONFIG_DROPIN_DIRS;
	const char *root = src->root ? src->root : "", *slash;
	char **v = NULL;
	size_t n = 0, i;
	int r;

	/* Directories too: editors replace a file by renaming a new one over it, and
	 * a watch on a directory sees every file in it come and go. */
	if (src->file != NULL) {
		slash = strrchr(src->file, '/');
		r = push_path(&v, &n, "%s", src->file);
		if (r == 0 && slash == NULL)
			r = push_path(&v, &n, ".");
		else if (r == 0)
			r = push_path(&v, &n, "%.*s", slash == src->file ? 1 : (int)(slash - src->file),
				      src->file);
	} else {
		r = push_path(&v, &n, "%s%s", root, CONFIG_MAIN_FILE);
		if (r == 0)
			r = push_path(&v, &n, "%s%.*s", root,
				      (int)(strrchr(CONFIG_MAIN_FILE, '/') - CONFIG_MAIN_FILE), CONFIG_MAIN_FILE);
		for (i = 0; r == 0 && i < sizeof(dirs) / sizeof(dirs[0]); i++)
			r = push_path(&v, &n, "%s%s", root, dirs[i]);
	}
	if (r == 0 && src->run_dir != NULL) {
		r = push_path(&v, &n, "%s/%s", src->run_dir, CONFIG_RUNTIME_FILE);
		if (r == 0)
			r = push_path(&v, &n, "%s", src->run_dir);
	}
	if (r == 0 && GROW(v, n) == 0) {
		v[n] = NULL;
		return v;
	}
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return NULL;
}
