/* test_config.c - the config language: parser, settings, locations and precedence, errors. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#include "rules.h"

/* ---- helpers ---- */

static char tmpdir[64];	/* short: paths built from it never truncate */

static int make_tmpdir(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/oompardon-test-config.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Writes text to tmpdir/rel, making the directories on the way. */
static void put(const char *rel, const char *text)
{
	char path[PATH_MAX], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	for (slash = strchr(path + strlen(tmpdir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	chmod(path, 0644);
}

static char *tmp(const char *rel)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	return path;
}

static int parse(struct ruleset *rs, const char *text)
{
	ruleset_init(rs);
	return config_parse_buffer(rs, "t.conf", text);
}

static bool has_message(char **v, size_t n, const char *needle)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strstr(v[i], needle) != NULL)
			return true;
	return false;
}

#define assert_error(rs, s) assert_true(has_message((rs)->errors, (rs)->n_errors, (s)))
#define assert_warning(rs, s) assert_true(has_message((rs)->warnings, (rs)->n_warnings, (s)))

/* ---- the parser ---- */

static void test_rules(void **state)
{
	struct ruleset rs;
	const struct rule *r;

	(void)state;
	assert_int_equal(parse(&rs,
			       "# comment\n"
			       "pardon /usr/sbin/vlock-main /usr/bin/xlock\n"
			       "\n"
			       "score +500 /usr/lib/firefox/firefox\n"
			       "  score -300 /usr/lib/postgresql/*/bin/postgres  # why\n"
			       "score 800  comm=chrome,user=0\n"
			       "pardon cgroup=/system.slice/sshd.service\n"
			       "score -0 exe=/opt/[ab]/x,cgroup=/a/*,user=root,comm=x\n"),
			 0);
	assert_int_equal(rs.n_errors, 0);
	assert_int_equal(rs.n_rules, 6);

	r = &rs.rules[0];
	assert_int_equal(r->action, RULE_PARDON);
	assert_int_equal(r->score, -1000);
	assert_int_equal(r->n_sels, 2);
	assert_string_equal(r->file, "t.conf");
	assert_int_equal(r->line, 2);
	assert_int_equal(r->sels[1].n_conds, 1);
	assert_int_equal(r->sels[1].conds[0].kind, COND_EXE);
	assert_string_equal(r->sels[1].conds[0].pattern, "/usr/bin/xlock");
	assert_false(r->sels[1].conds[0].is_glob);

	assert_int_equal(rs.rules[1].score, 500);
	assert_false(rule_protects(&rs.rules[1]));
	assert_int_equal(rs.rules[2].score, -300);
	assert_true(rule_protects(&rs.rules[2]));
	assert_true(rs.rules[2].sels[0].conds[0].is_glob);
	assert_int_equal(rs.rules[2].line, 5);

	r = &rs.rules[3];
	assert_int_equal(r->sels[0].n_conds, 2);
	assert_int_equal(r->sels[0].conds[0].kind, COND_COMM);
	assert_string_equal(r->sels[0].conds[0].pattern, "chrome");
	assert_int_equal(r->sels[0].conds[1].kind, COND_USER);
	assert_int_equal(r->sels[0].conds[1].uid, 0);
	assert_string_equal(r->sels[0].text, "comm=chrome,user=0");

	assert_int_equal(rs.rules[4].sels[0].conds[0].kind, COND_CGROUP);
	assert_false(rs.rules[4].sels[0].conds[0].is_glob);

	r = &rs.rules[5];
	assert_int_equal(r->score, 0);
	assert_int_equal(r->sels[0].n_conds, 4);
	assert_true(r->sels[0].conds[0].is_glob);
	assert_true(r->sels[0].conds[1].is_glob);
	assert_int_equal(r->sels[0].conds[2].uid, 0);	/* root, by name */
	ruleset_free(&rs);
}

static void test_settings(void **state)
{
	struct ruleset rs;
	const struct settings *s = &rs.settings;

	(void)state;
	assert_int_equal(parse(&rs, ""), 0);
	assert_int_equal(s->pardon_score, -1000);
	assert_false(s->inherit);
	assert_int_equal(s->rescan_interval_ms, 60000);
	assert_false(s->killer);
	assert_null(s->killer_scope);
	assert_int_equal(s->killer_mem_min_pct, 10);
	assert_int_equal(s->killer_mem_min_kib, 0);
	assert_int_equal(s->killer_swap_min_pct, 10);
	assert_int_equal(s->killer_grace_ms, 5000);
	assert_null(s->killer_psi);
	assert_int_equal(s->killer_target, KILLER_TARGET_PROCESS);
	assert_int_equal(s->killer_last_resort, KILLER_LAST_WAIT);
	assert_null(s->killer_hook);
	assert_false(s->killer_dry_run);
	assert_null(rs.setting_origin[SET_KILLER].file);
	ruleset_free(&rs);

	assert_int_equal(parse(&rs,
			       "pardon-score -999\n"
			       "inherit yes\n"
			       "rescan-interval 2m\n"
			       "killer yes\n"
			       "killer-scope /sys/fs/cgroup/app\n"
			       "killer-mem-min 512M\n"
			       "killer-swap-min 1G\n"
			       "killer-swap-min 25%\n"
			       "killer-grace 250ms\n"
			       "killer-psi some 150ms 1s\n"
			       "killer-target cgroup\n"
			       "killer-last-resort command /sbin/x 'a b'  # comment\n"
			       "killer-hook /usr/bin/logger -t \"a #b\"\n"
			       "killer-dry-run yes\n"),
			 0);
	assert_int_equal(s->pardon_score, -999);
	assert_true(s->inherit);
	assert_int_equal(s->rescan_interval_ms, 120000);
	assert_true(s->killer);
	assert_string_equal(s->killer_scope, "/sys/fs/cgroup/app");
	assert_int_equal(s->killer_mem_min_kib, 512 * 1024);
	assert_int_equal(s->killer_swap_min_kib, 0);	/* the later percentage wins */
	assert_int_equal(s->killer_swap_min_pct, 25);
	assert_int_equal(s->killer_grace_ms, 250);
	assert_string_equal(s->killer_psi, "some 150000 1000000");	/* the kernel's trigger, in us */
	assert_int_equal(s->killer_target, KILLER_TARGET_CGROUP);
	assert_int_equal(s->killer_last_resort, KILLER_LAST_COMMAND);
	assert_string_equal(s->killer_last_resort_command, "/sbin/x 'a b'");
	assert_string_equal(s->killer_hook, "/usr/bin/logger -t \"a #b\"");
	assert_true(s->killer_dry_run);
	assert_string_equal(rs.setting_origin[SET_KILLER_SWAP_MIN].file, "t.conf");
	assert_int_equal(rs.setting_origin[SET_KILLER_SWAP_MIN].line, 8);
	ruleset_free(&rs);
}

/* pardon-score is read like any setting, but every pardon writes the last one. */
static void test_pardon_score_is_final(void **state)
{
	struct ruleset rs;

	(void)state;
	assert_int_equal(parse(&rs, "pardon /a\npardon-score -999\npardon /b\nscore -1000 /c\n"), 0);
	assert_int_equal(rs.rules[0].score, -999);
	assert_int_equal(rs.rules[1].score, -999);
	assert_int_equal(rs.rules[2].score, -1000);
	ruleset_free(&rs);
}

static void test_all_errors_in_one_pass(void **state)
{
	struct ruleset rs;

	(void)state;
	assert_int_equal(parse(&rs,
			       "pardon /ok\n"
			       "score 1001 /x\n"
			       "pardon relative\n"
			       "frobnicate\n"
			       "killer-grace soon\n"
			       "pardon exe=x,user=nosuchuser-oompardon,bogus=1\n"
			       "pardon /also-ok\n"),
			 -EINVAL);
	assert_int_equal(rs.n_errors, 7);
	assert_string_equal(rs.errors[0], "t.conf:2: score: 1001 is out of range -1000..1000");
	assert_error(&rs, "t.conf:3: 'relative' is not a selector");
	assert_error(&rs, "t.conf:4: unknown keyword 'frobnicate'");
	assert_error(&rs, "t.conf:5: killer-grace: 'soon' is not a duration");
	assert_error(&rs, "t.conf:6: 'exe=x,user=nosuchuser-oompardon,bogus=1': exe= needs an absolute path");
	assert_error(&rs, "t.conf:6: 'exe=x,user=nosuchuser-oompardon,bogus=1': unknown user");
	assert_error(&rs, "t.conf:6: 'exe=x,user=nosuchuser-oompardon,bogus=1': unknown condition 'bogus='");
	/* the good lines still parsed: the caller applies nothing anyway */
	assert_int_equal(rs.n_rules, 2);
	ruleset_free(&rs);
}

static void test_comm_only_protection_warns(void **state)
{
	struct ruleset rs;

	(void)state;
	assert_int_equal(parse(&rs, "pardon comm=Xorg\nscore -1 comm=a\nscore 5 comm=b\n"
			       "pardon comm=c,user=0\n"), 0);
	assert_int_equal(rs.n_warnings, 2);
	assert_string_equal(rs.warnings[0], "t.conf:1: warning: 'comm=Xorg': comm= can be forged by any "
			    "process: this rule can only raise scores");
	assert_warning(&rs, "t.conf:2: warning: 'comm=a'");
	ruleset_free(&rs);
}

static void test_missing_exe_warns_but_not_embedded(void **state)
{
	struct ruleset rs;

	(void)state;
	assert_int_equal(parse(&rs, "pardon /nonexistent/oompardon/x\n"), 0);
	assert_int_equal(rs.n_warnings, 1);
	assert_warning(&rs, "/nonexistent/oompardon/x does not exist (yet); the rule waits for it");
	ruleset_free(&rs);

	ruleset_init(&rs);
	assert_int_equal(config_parse_buffer(&rs, "<embedded>", "pardon /nonexistent/oompardon/x\n"), 0);
	assert_int_equal(rs.n_warnings, 0);
	ruleset_free(&rs);
}

/* The embedded list parses with no error, and names no script or link on this machine. */
static void test_embedded_default_parses(void **state)
{
	struct ruleset rs;
	size_t i;

	(void)state;
	ruleset_init(&rs);
	assert_int_equal(config_parse_buffer(&rs, "<embedded>", config_embedded_default), 0);
	assert_int_equal(rs.n_errors, 0);
	for (i = 0; i < rs.n_warnings; i++)
		assert_null(strstr(rs.warnings[i], "script"));
	assert_true(rs.n_rules >= 10);
	for (i = 0; i < rs.n_rules; i++)
		assert_int_equal(rs.rules[i].action, RULE_PARDON);
	ruleset_free(&rs);
}

/* A #! script: the process shows its interpreter; name what the script execs. */
static void test_script_warns(void **state)
{
	struct ruleset rs;
	char text[PATH_MAX * 2];

	(void)state;
	put("bin/vlock", "#!/bin/sh\n# like Debian's vlock\nVLOCK_MAIN=\"/usr/sbin/vlock-main\"\n"
	    "if true; then\n    exec \"${VLOCK_MAIN}\" ${plugins} \"$@\"\nfi\n");
	put("bin/direct", "#! /bin/bash -e\nexec /usr/lib/thing/thing-main --flag\n");
	put("bin/py", "#!/usr/bin/env python3\nprint('hi')\n");
	put("bin/zcat", "#!/bin/sh\nexec 2>/dev/null\nexec gzip -cd \"$@\"\n");
	snprintf(text, sizeof(text), "pardon %s/bin/vlock\nscore 5 %s/bin/direct\npardon %s/bin/py\n"
		 "score 1 %s/bin/zcat\n", tmpdir, tmpdir, tmpdir, tmpdir);
	assert_int_equal(parse(&rs, text), 0);
	assert_warning(&rs, "/bin/vlock is a #! script: a running process shows its interpreter (/bin/sh), "
		       "not the script; list /usr/sbin/vlock-main instead");
	assert_warning(&rs, "interpreter (/bin/bash -e), not the script; list /usr/lib/thing/thing-main instead");
	assert_warning(&rs, "interpreter (/usr/bin/env python3), not the script; list the program it runs instead");
	assert_warning(&rs, "/bin/zcat is a #! script: a running process shows its interpreter (/bin/sh), "
		       "not the script; list the full path of gzip (which it execs) instead");
	assert_int_equal(rs.n_warnings, 4);
	ruleset_free(&rs);

	/* a link to a script: the script is what counts (cinnamon-screensaver is one) */
	unlink(tmp("bin/py-link"));
	assert_int_equal(symlink("py", tmp("bin/py-link")), 0);
	snprintf(text, sizeof(text), "pardon %s/bin/py-link\n", tmpdir);
	assert_int_equal(parse(&rs, text), 0);
	assert_int_equal(rs.n_warnings, 1);
	assert_warning(&rs, "/bin/py-link (a link to ");
	assert_warning(&rs, "/bin/py) is a #! script: a running process shows its interpreter "
		       "(/usr/bin/env python3)");
	ruleset_free(&rs);
}

static void test_link_warns(void **state)
{
	struct ruleset rs;
	char text[PATH_MAX * 2], link[PATH_MAX];

	(void)state;
	put("real/prog", "\177ELF not really\n");
	snprintf(link, sizeof(link), "%s/prog-link", tmpdir);
	unlink(link);
	assert_int_equal(symlink(tmp("real/prog"), link), 0);
	snprintf(text, sizeof(text), "score 100 %s\n", link);
	assert_int_equal(parse(&rs, text), 0);
	assert_int_equal(rs.n_warnings, 1);
	assert_warning(&rs, "/prog-link is a link to ");
	assert_warning(&rs, "/real/prog: a running process shows that path; list it instead");
	ruleset_free(&rs);
}

/* ---- loading: locations, precedence, security ---- */

static void load(struct ruleset *rs, const char *root, const char *file, const char *run_dir, int expect)
{
	struct config_source src = { .file = file, .root = root, .run_dir = run_dir };

	ruleset_init(rs);
	assert_int_equal(config_load(rs, &src), expect);
}

static void test_dropins(void **state)
{
	struct ruleset rs;
	char origin[PATH_MAX], root[128], rundir[128];

	(void)state;
	put("root1/etc/oompardon.conf", "pardon /main\nrescan-interval 10s\n");
	put("root1/usr/lib/oompardon.d/20-b.conf", "pardon /replaced\n");
	put("root1/usr/lib/oompardon.d/30-c.conf", "pardon /vendor-c\n");
	put("root1/etc/oompardon.d/20-b.conf", "pardon /etc-b\n");
	put("root1/etc/oompardon.d/40-masked.conf", "pardon /masked\n");
	put("root1/etc/oompardon.d/notes.txt", "pardon /not-a-dropin\n");
	put("root1/run/oompardon.d/10-a.conf", "pardon /run-a\nrescan-interval 20s\n");
	put("root1/run/oompardon.d/20-b.conf", "pardon /run-b\n");
	symlink("/dev/null", tmp("root1/run/oompardon.d/40-masked.conf"));
	put("rundir/runtime.conf", "pardon /runtime\n");
	snprintf(root, sizeof(root), "%s/root1", tmpdir);
	snprintf(rundir, sizeof(rundir), "%s/rundir", tmpdir);

	load(&rs, root, NULL, NULL, 0);
	assert_false(rs.embedded);
	assert_int_equal(rs.n_rules, 4);
	/* the main file, then drop-ins by name; a later dir replaces a same-named file */
	assert_string_equal(rs.rules[0].sels[0].text, "/main");
	assert_string_equal(rs.rules[1].sels[0].text, "/run-a");
	assert_string_equal(rs.rules[2].sels[0].text, "/run-b");
	assert_string_equal(rs.rules[3].sels[0].text, "/vendor-c");
	snprintf(origin, sizeof(origin), "%s/run/oompardon.d/10-a.conf", root);
	assert_string_equal(rs.rules[1].file, origin);
	assert_int_equal(rs.settings.rescan_interval_ms, 20000);
	ruleset_free(&rs);

	/* the runtime rules come last */
	load(&rs, root, NULL, rundir, 0);
	assert_int_equal(rs.n_rules, 5);
	assert_string_equal(rs.rules[4].sels[0].text, "/runtime");
	ruleset_free(&rs);
}

static void test_embedded_when_no_config(void **state)
{
	struct ruleset rs;
	char rundir[PATH_MAX];

	(void)state;
	put("empty/etc/README", "no config here\n");
	put("run2/runtime.conf", "pardon /runtime-only\n");
	snprintf(rundir, sizeof(rundir), "%s/run2", tmpdir);
	load(&rs, tmp("empty"), NULL, rundir, 0);
	assert_true(rs.embedded);
	assert_string_equal(rs.files[0], "<embedded>");
	assert_string_equal(rs.rules[0].file, "<embedded>");
	assert_string_equal(rs.rules[rs.n_rules - 1].sels[0].text, "/runtime-only");
	ruleset_free(&rs);
}

static void test_file_only(void **state)
{
	struct ruleset rs;

	(void)state;
	put("etc/oompardon.conf", "pardon /not-read-with-c\n");
	put("only.conf", "score 7 /only\n");
	/* the standard locations below tmpdir exist, and -c ignores them */
	load(&rs, tmpdir, tmp("only.conf"), NULL, 0);
	assert_false(rs.embedded);
	assert_int_equal(rs.n_rules, 1);
	assert_int_equal(rs.rules[0].score, 7);
	ruleset_free(&rs);

	load(&rs, "", tmp("nonexistent.conf"), NULL, -EINVAL);
	assert_error(&rs, "nonexistent.conf: cannot read it: No such file or directory");
	assert_false(rs.embedded);
	ruleset_free(&rs);
}

static void test_insecure_files_refused(void **state)
{
	struct ruleset rs;

	(void)state;
	put("loose.conf", "pardon /x\n");
	chmod(tmp("loose.conf"), 0666);
	load(&rs, "", tmp("loose.conf"), NULL, -EINVAL);
	assert_int_equal(rs.n_rules, 0);
	assert_error(&rs, "loose.conf: writable by others: refusing it");
	ruleset_free(&rs);

	chmod(tmp("loose.conf"), 0620);
	load(&rs, "", tmp("loose.conf"), NULL, -EINVAL);
	assert_error(&rs, "loose.conf: writable by its group: refusing it");
	ruleset_free(&rs);

	if (geteuid() == 0) {
		chmod(tmp("loose.conf"), 0644);
		assert_int_equal(chown(tmp("loose.conf"), 65534, 65534), 0);
		load(&rs, "", tmp("loose.conf"), NULL, -EINVAL);
		assert_error(&rs, "loose.conf: owned by uid 65534: refusing it");
		ruleset_free(&rs);
	}
}

/* An error in one file and one in the runtime rules: both said, -EINVAL. */
static void test_errors_across_files(void **state)
{
	struct ruleset rs;
	char rundir[PATH_MAX];

	(void)state;
	put("bad1.conf", "pardon rel1\n");
	put("run3/runtime.conf", "pardon /fine\npardon rel2\n");
	snprintf(rundir, sizeof(rundir), "%s/run3", tmpdir);
	load(&rs, "", tmp("bad1.conf"), rundir, -EINVAL);
	assert_int_equal(rs.n_errors, 2);
	assert_error(&rs, "bad1.conf:1: 'rel1'");
	assert_error(&rs, "run3/runtime.conf:2: 'rel2'");
	ruleset_free(&rs);
}

static void test_unreadable_dropin_dir(void **state)
{
	struct ruleset rs;

	(void)state;
	put("loop/etc/oompardon.conf", "pardon /x\n");
	mkdir(tmp("loop/etc/oompardon.d"), 0755);
	rmdir(tmp("loop/etc/oompardon.d"));
	assert_int_equal(symlink("oompardon.d", tmp("loop/etc/oompardon.d")), 0);	/* ELOOP */
	load(&rs, tmp("loop"), NULL, NULL, -EINVAL);
	assert_error(&rs, "/loop/etc/oompardon.d: cannot read the directory: Too many levels of symbolic links");
	ruleset_free(&rs);
}

static void test_watch_paths(void **state)
{
	struct config_source src = { .file = NULL, .root = "/r", .run_dir = "/run/op" };
	char **v;
	size_t n;

	(void)state;
	v = config_watch_paths(&src);
	assert_non_null(v);
	assert_string_equal(v[0], "/r/etc/oompardon.conf");
	assert_string_equal(v[1], "/r/etc");
	assert_string_equal(v[2], "/r/usr/lib/oompardon.d");
	assert_string_equal(v[3], "/r/etc/oompardon.d");
	assert_string_equal(v[4], "/r/run/oompardon.d");
	assert_string_equal(v[5], "/run/op/runtime.conf");
	assert_string_equal(v[6], "/run/op");
	assert_null(v[7]);
	for (n = 0; v[n]; n++)
		free(v[n]);
	free(v);

	src.file = "x.conf";
	src.run_dir = NULL;
	v = config_watch_paths(&src);
	assert_string_equal(v[0], "x.conf");
	assert_string_equal(v[1], ".");
	assert_null(v[2]);
	for (n = 0; v[n]; n++)
		free(v[n]);
	free(v);
}

/* What `rules` prints is itself a config that means the same. */
static void test_print_parses_back(void **state)
{
	static const char text[] =
		"pardon /a /b/*\nscore +5 comm=x,user=0\nscore -3 cgroup=/s/*\n"
		"pardon-score -999\nkiller-psi full 100ms 2s\nkiller-hook /bin/h 'a b'\n"
		"killer-last-resort command /bin/c\nkiller-mem-min 1536K\nkiller-swap-min 3G\n"
		"rescan-interval 1500ms\n";
	struct ruleset rs;
	char *out1 = NULL, *out2 = NULL;
	size_t len1, len2;
	FILE *f;

	(void)state;
	assert_int_equal(parse(&rs, text), 0);
	f = open_memstream(&out1, &len1);
	config_print(&rs, f);
	fclose(f);
	ruleset_free(&rs);
	assert_non_null(strstr(out1, "pardon /a /b/*                          # t.conf:1 (-999)\n"));
	assert_non_null(strstr(out1, "score +5 comm=x,user=0                  # t.conf:2\n"));
	assert_non_null(strstr(out1, "killer-psi full 100ms 2s                # t.conf:5\n"));
	assert_non_null(strstr(out1, "inherit no                              # default\n"));

	assert_int_equal(parse(&rs, out1), 0);
	assert_int_equal(rs.n_rules, 3);
	assert_int_equal(rs.rules[0].score, -999);
	assert_string_equal(rs.settings.killer_psi, "full 100000 2000000");
	assert_string_equal(rs.settings.killer_hook, "/bin/h 'a b'");
	assert_int_equal(rs.settings.killer_mem_min_kib, 1536);
	assert_int_equal(rs.settings.killer_swap_min_kib, 3 * 1024 * 1024);
	assert_int_equal(rs.settings.rescan_interval_ms, 1500);
	f = open_memstream(&out2, &len2);
	config_print(&rs, f);
	fclose(f);
	ruleset_free(&rs);
	/* the same text, but for the origins, which now point into the printed text */
	assert_int_equal(strncmp(out1, out2, 10), 0);
	free(out1);
	free(out2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_settings),
		cmocka_unit_test(test_pardon_score_is_final),
		cmocka_unit_test(test_all_errors_in_one_pass),
		cmocka_unit_test(test_comm_only_protection_warns),
		cmocka_unit_test(test_missing_exe_warns_but_not_embedded),
		cmocka_unit_test(test_embedded_default_parses),
		cmocka_unit_test(test_script_warns),
		cmocka_unit_test(test_link_warns),
		cmocka_unit_test(test_dropins),
		cmocka_unit_test(test_embedded_when_no_config),
		cmocka_unit_test(test_file_only),
		cmocka_unit_test(test_insecure_files_refused),
		cmocka_unit_test(test_errors_across_files),
		cmocka_unit_test(test_unreadable_dropin_dir),
		cmocka_unit_test(test_watch_paths),
		cmocka_unit_test(test_print_parses_back),
	};

	return cmocka_run_group_tests_name("config", tests, make_tmpdir, remove_tmpdir);
}
