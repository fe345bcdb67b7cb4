/* test_match.c - selectors, precedence, and protection only through verified identities. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cgroup.h"
#include "match.h"
#include "trusted_dir.h"

static char base[256];		/* root's, 0755 */
static char good[320];		/* base/bin/locker: root's, every parent root's */
static char open_dir[320];	/* base/open: 01777 */
static char bad[340];		/* base/open/locker: a root-owned copy in a sticky 1777 dir */

static int setup(void **state)
{
	char bin[300];

	(void)state;
	if (trusted_dir_make(base, sizeof(base)) != 0)
		return -1;
	snprintf(bin, sizeof(bin), "%s/bin", base);
	snprintf(good, sizeof(good), "%s/locker", bin);
	snprintf(open_dir, sizeof(open_dir), "%s/open", base);
	snprintf(bad, sizeof(bad), "%s/locker", open_dir);
	if (mkdir(bin, 0755) != 0 || mkdir(open_dir, 0755) != 0 || chmod(open_dir, 01777) != 0)
		return -1;
	if (trusted_dir_copy("/bin/true", good, 0755) != 0 ||
	    trusted_dir_copy("/bin/true", bad, 0755) != 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	trusted_dir_remove(base);
	return 0;
}

/* ---- building rules and facts by hand ---- */

static struct cond cond_of(const char *text)
{
	struct cond c;
	const char *eq = strchr(text, '=');

	memset(&c, 0, sizeof(c));
	assert_non_null(eq);
	c.pattern = (char *)(uintptr_t)(eq + 1);	/* never written through */
	c.is_glob = strpbrk(eq + 1, "*?[") != NULL;
	if (strncmp(text, "exe=", 4) == 0)
		c.kind = COND_EXE;
	else if (strncmp(text, "comm=", 5) == 0)
		c.kind = COND_COMM;
	else if (strncmp(text, "cgroup=", 7) == 0)
		c.kind = COND_CGROUP;
	else {
		c.kind = COND_USER;
		c.uid = (uid_t)atoi(eq + 1);
	}
	return c;
}

#define MAX_CONDS 4

struct test_rule {
	struct rule rule;
	struct selector sel;
	struct cond conds[MAX_CONDS];
};

/* One rule with one selector of up to MAX_CONDS conditions (NULL-terminated). */
static void rule_init(struct test_rule *t, enum rule_action action, int score, ...)
{
	const char *text;
	va_list ap;

	memset(t, 0, sizeof(*t));
	va_start(ap, score);
	while ((text = va_arg(ap, const char *)) != NULL) {
		assert_true(t->sel.n_conds < MAX_CONDS);
		t->conds[t->sel.n_conds++] = cond_of(text);
	}
	va_end(ap);
	t->sel.conds = t->conds;
	t->sel.text = (char *)(uintptr_t)"test";
	t->rule.action = action;
	t->rule.score = action == RULE_PARDON ? OOM_ADJ_MIN : score;
	t->rule.sels = &t->sel;
	t->rule.n_sels = 1;
	t->rule.file = "test.conf";
}

/* Facts of a process running path as uid 1000 in cgroup "0::/user.slice/u.scope". */
static void facts_init(struct proc_facts *pf, const char *path, const char *comm)
{
	struct stat st;

	memset(pf, 0, sizeof(*pf));
	pf->pid = 4242;
	pf->have = MATCH_NEEDS;
	snprintf(pf->comm, sizeof(pf->comm), "%s", comm);
	pf->has_exe = true;
	snprintf(pf->exe, sizeof(pf->exe), "%s", path);
	if (stat(path, &st) == 0) {
		pf->exe_dev = st.st_dev;
		pf->exe_ino = st.st_ino;
	}
	pf->uid = 1000;
	snprintf(pf->cgroup, sizeof(pf->cgroup), "0::/user.slice/u.scope\n");
}

static void verdict_of(struct test_rule *rules, size_t n, const struct proc_facts *pf,
		       struct verdict *v)
{
	struct rule r[8];
	struct ruleset rs;
	size_t i;

	assert_true(n <= 8);
	for (i = 0; i < n; i++)
		r[i] = rules[i].rule;
	memset(&rs, 0, sizeof(rs));
	rs.rules = r;
	rs.n_rules = n;
	match_process(&rs, pf, v);
	/* v->rule points into r: callers compare scores and lines, not pointers */
	if (v->rule != NULL)
		v->rule = &rules[v->rule - r].rule;
	if (v->refused != NULL)
		v->refused = &rules[v->refused - r].rule;
}

static bool sel_matches(const char *c1, const char *c2, const struct proc_facts *pf)
{
	struct test_rule t;

	rule_init(&t, RULE_SCORE, 1, c1, c2, (const char *)NULL);
	return match_selector(&t.sel, pf);
}

/* ---- selectors ---- */

static void test_exe_globs(void **state)
{
	struct proc_facts pf;

	(void)state;
	facts_init(&pf, "/usr/lib/postgresql/15/bin/postgres", "postgres");
	assert_true(sel_matches("exe=/usr/lib/postgresql/*/bin/postgres", NULL, &pf));
	assert_true(sel_matches("exe=/usr/lib/postgresql/1?/bin/postgres", NULL, &pf));
	assert_true(sel_matches("exe=/usr/lib/postgresql/[0-9]*/bin/*", NULL, &pf));
	assert_true(sel_matches("exe=/usr/lib/postgresql/15/bin/postgres", NULL, &pf));
	assert_false(sel_matches("exe=/usr/lib/postgresql/15/bin/postgre", NULL, &pf));
	assert_false(sel_matches("exe=/usr/lib/*", NULL, &pf));	/* one component only */
	assert_false(sel_matches("exe=/usr/lib/*/postgres", NULL, &pf));
	facts_init(&pf, "/usr/lib/postgresql/15/x/bin/postgres", "postgres");
	assert_false(sel_matches("exe=/usr/lib/postgresql/*/bin/postgres", NULL, &pf));
	/* a literal pattern is not a glob: no escapes, no prefix */
	facts_init(&pf, "/usr/bin/i3lock", "i3lock");
	assert_true(sel_matches("exe=/usr/bin/i3lock", NULL, &pf));
	assert_false(sel_matches("exe=/usr/bin/i3", NULL, &pf));
	assert_false(sel_matches("exe=/usr/bin/i3lock/", NULL, &pf));
}

static void test_comm_user_and(void **state)
{
	struct proc_facts pf;

	(void)state;
	facts_init(&pf, "/usr/bin/chromium", "chrome");
	assert_true(sel_matches("comm=chrome", NULL, &pf));
	assert_false(sel_matches("comm=chrom", NULL, &pf));
	assert_false(sel_matches("comm=chrome*", NULL, &pf));	/* exact, never a glob */
	assert_true(sel_matches("comm=chrome", "user=1000", &pf));
	assert_false(sel_matches("comm=chrome", "user=0", &pf));
	assert_true(sel_matches("user=1000", "exe=/usr/bin/*", &pf));
	/* a condition on facts that were not read never holds */
	pf.have = PROC_STAT;
	assert_false(sel_matches("user=1000", NULL, &pf));
	assert_false(sel_matches("exe=/usr/bin/chromium", NULL, &pf));
	pf.have = MATCH_NEEDS;
	pf.has_exe = false;	/* kernel thread, zombie */
	assert_false(sel_matches("exe=/usr/bin/chromium", NULL, &pf));
	assert_false(sel_matches("exe=*", NULL, &pf));
}

static void test_cgroup_globs(void **state)
{
	struct proc_facts pf;

	(void)state;
	facts_init(&pf, "/usr/sbin/sshd", "sshd");
	snprintf(pf.cgroup, sizeof(pf.cgroup), "0::/system.slice/ssh.service\n");
	assert_true(sel_matches("cgroup=/system.slice/ssh.service", NULL, &pf));
	assert_true(sel_matches("cgroup=/system.slice/*.service", NULL, &pf));
	assert_true(sel_matches("cgroup=/system.slice", NULL, &pf));	/* and below */
	assert_false(sel_matches("cgroup=/system.slice/ssh", NULL, &pf));	/* not a prefix */
	assert_false(sel_matches("cgroup=/system.slice/ssh.service/x", NULL, &pf));
	assert_false(sel_matches("cgroup=/user.slice", NULL, &pf));
	/* a sub-cgroup of a service */
	snprintf(pf.cgroup, sizeof(pf.cgroup), "0::/system.slice/ssh.service/sub\n");
	assert_true(sel_matches("cgroup=/system.slice/ssh.service", NULL, &pf));
	assert_true(sel_matches("cgroup=/system.slice/*", NULL, &pf));
	/* cgroup v1 / hybrid: any hierarchy's line may match */
	snprintf(pf.cgroup, sizeof(pf.cgroup),
		 "9:name=systemd:/system.slice/ssh.service\n"
		 "4:memory:/process_api/e3e5\n"
		 "2:cpu,cpuacct:/\n"
		 "0::/\n");
	assert_true(sel_matches("cgroup=/system.slice/ssh.service", NULL, &pf));
	assert_true(sel_matches("cgroup=/process_api/*", NULL, &pf));
	assert_false(sel_matches("cgroup=/user.slice", NULL, &pf));
	/* hostile-looking text: lines without a path are skipped */
	snprintf(pf.cgroup, sizeof(pf.cgroup), "garbage\n1:x\n3:y:relative\n0::/ok\n");
	assert_true(sel_matches("cgroup=/ok", NULL, &pf));
	assert_false(sel_matches("cgroup=relative", NULL, &pf));
	pf.cgroup[0] = '\0';
	assert_false(sel_matches("cgroup=/*", NULL, &pf));
}

/* ---- verdicts ---- */

static void test_pardon_beats_score(void **state)
{
	struct test_rule r[3];
	struct proc_facts pf;
	struct verdict v;
	char pattern[400];

	(void)state;
	facts_init(&pf, good, "locker");
	snprintf(pattern, sizeof(pattern), "exe=%s", good);
	rule_init(&r[0], RULE_SCORE, 300, "comm=locker", NULL);
	rule_init(&r[1], RULE_PARDON, 0, pattern, NULL);
	rule_init(&r[2], RULE_SCORE, 500, "comm=locker", NULL);
	verdict_of(r, 3, &pf, &v);
	assert_int_equal(v.kind, VERDICT_SET);
	assert_int_equal(v.score, -1000);
	assert_true(v.pardoned);
	assert_ptr_equal(v.rule, &r[1].rule);
	assert_null(v.refused);
}

static void test_last_score_wins(void **state)
{
	struct test_rule r[3];
	struct proc_facts pf;
	struct verdict v;

	(void)state;
	facts_init(&pf, "/usr/bin/chromium", "chrome");
	rule_init(&r[0], RULE_SCORE, 300, "comm=chrome", NULL);
	rule_init(&r[1], RULE_SCORE, 800, "exe=/usr/bin/*", NULL);
	rule_init(&r[2], RULE_SCORE, 100, "comm=firefox", NULL);
	verdict_of(r, 3, &pf, &v);
	assert_int_equal(v.kind, VERDICT_SET);
	assert_int_equal(v.score, 800);
	assert_false(v.pardoned);
	assert_ptr_equal(v.rule, &r[1].rule);
	/* nothing matches */
	verdict_of(&r[2], 1, &pf, &v);
	assert_int_equal(v.kind, VERDICT_NONE);
	assert_null(v.rule);
}

/* A verified negative score is a score: the last matching one still wins. */
static void test_negative_score_order(void **state)
{
	struct test_rule r[2];
	struct proc_facts pf;
	struct verdict v;

	(void)state;
	facts_init(&pf, "/usr/bin/chromium", "chrome");
	rule_init(&r[0], RULE_SCORE, 500, "comm=chrome", NULL);
	rule_init(&r[1], RULE_SCORE, -300, "user=1000", NULL);
	verdict_of(r, 2, &pf, &v);
	assert_int_equal(v.kind, VERDICT_SET);
	assert_int_equal(v.score, -300);
	assert_false(v.pardoned);
	verdict_of(&r[1], 1, &pf, &v);
	assert_int_equal(v.score, -300);
}

static void test_comm_only_refused(void **state)
{
	struct test_rule r[2];
	struct proc_facts pf;
	struct verdict v;

	(void)state;
	facts_init(&pf, "/usr/bin/chromium", "i3lock");
	rule_init(&r[0], RULE_PARDON, 0, "comm=i3lock", NULL);
	verdict_of(r, 1, &pf, &v);
	assert_int_equal(v.kind, VERDICT_NONE);
	assert_false(v.pardoned);
	assert_ptr_equal(v.refused, &r[0].rule);
	assert_non_null(v.refused_why);
	/* a raising rule still applies; the refusal is still told */
	rule_init(&r[1], RULE_SCORE, 200, "comm=i3lock", NULL);
	verdict_of(r, 2, &pf, &v);
	assert_int_equal(v.kind, VERDICT_SET);
	assert_int_equal(v.score, 200);
	assert_ptr_equal(v.refused, &r[0].rule);
	/* comm= may raise alone, and lower with a uid */
	rule_init(&r[0], RULE_SCORE, -100, "comm=i3lock", NULL);
	verdict_of(r, 1, &pf, &v);
	assert_int_equal(v.kind, VERDICT_NONE);
	assert_non_null(v.refused);
	rule_init(&r[0], RULE_PARDON, 0, "comm=i3lock", "user=1000", NULL);
	verdict_of(r, 1, &pf, &v);
	assert_int_equal(v.kind, VERDICT_SET);
	assert_true(v.pardoned);
	assert_null(v.refused);
}

/* The listed path in a world-writable directory never protects, even a root-owned file. */
static void test_untrusted_exe_refused(void **state)
{
	struct test_rule r[1];
	struct proc_facts pf;
	struct verdict v;
	char pattern[400];

	(void)state;
	facts_init(&pf, bad, "locker");
	snprintf(pattern, sizeof(pattern), "exe=%s", bad);
	rule_init(&r[0], RULE_PARDON, 0, pattern, NULL);
	verdict_of(r, 1, &pf, &v);
	assert_int_equal(v.kind, VERDICT_NONE);
	assert_ptr_equal(v.refused, &r[0].rule);
	assert_string_equal(v.refused_why, "a parent directory others can write");
	/* the glob that matches the copy too */
	snprintf(pattern, sizeof(pattern), "exe=%s/*/locker", base);
	rule_init(&r[0], RULE_PARDON, 0, pattern, NULL);
	verdict_of(r, 1, &pf, &v);
	assert_int_equal(v.kind, VERDICT_NONE);
	assert_non_null(v.refused);
	facts_init(&pf, good, "locker");
	verdict_of(r, 1, &pf, &v);
	assert_int_equal(v.kind, VERDICT_SET);
	assert_true(v.pardoned);
}

/* The listed path, but not the file the process runs (a bind mount in a private
 * mount namespace, or a race): refused. */
static void test_exe_inode_mismatch(void **state)
{
	struct test_rule r[1];
	struct proc_facts pf;
	struct verdict v;
	char pattern[400];
	struct stat st;

	(void)state;
	facts_init(&pf, good, "locker");
	assert_int_equal(stat(bad, &st), 0);
	pf.exe_dev = st.st_dev;
	pf.exe_ino = st.st_ino;
	snprintf(pattern, sizeof(pattern), "exe=%s", good);
	rule_init(&r[0], RULE_PARDON, 0, pattern, NULL);
	verdict_of(r, 1, &pf, &v);
	assert_int_equal(v.kind, VERDICT_NONE);
	assert_string_equal(v.refused_why, "the process does not run the file at that path");
}

static void test_deleted_exe(void **state)
{
	struct test_rule r[3];
	struct proc_facts pf;
	struct verdict v;
	char pattern[400];

	(void)state;
	facts_init(&pf, good, "locker");
	pf.exe_deleted = true;
	pf.exe_ino++;		/* upgraded: the path names a new file */
	snprintf(pattern, sizeof(pattern), "exe=%s", good);
	rule_init(&r[0], RULE_PARDON, 0, pattern, NULL);
	verdict_of(r, 1, &pf, &v);
	assert_int_equal(v.kind, VERDICT_KEEP);
	assert_false(v.pardoned);
	assert_ptr_equal(v.rule, &r[0].rule);
	assert_null(v.refused);
	/* a kept pardon still beats a score */
	rule_init(&r[1], RULE_SCORE, 500, "comm=locker", NULL);
	verdict_of(r, 2, &pf, &v);
	assert_int_equal(v.kind, VERDICT_KEEP);
	/* a raising rule alone applies to a deleted exe */
	verdict_of(&r[1], 1, &pf, &v);
	assert_int_equal(v.kind, VERDICT_SET);
	assert_int_equal(v.score, 500);
	rule_init(&r[2], RULE_SCORE, 700, pattern, NULL);
	verdict_of(&r[2], 1, &pf, &v);
	assert_int_equal(v.kind, VERDICT_SET);
	assert_int_equal(v.score, 700);
	/* a lowering score on a deleted exe keeps at its rank; a later raise wins */
	rule_init(&r[0], RULE_SCORE, -500, pattern, NULL);
	verdict_of(r, 1, &pf, &v);
	assert_int_equal(v.kind, VERDICT_KEEP);
	verdict_of(r, 2, &pf, &v);
	assert_int_equal(v.kind, VERDICT_SET);
	assert_int_equal(v.score, 500);
	/* a pardon verified another way wins over the kept one */
	rule_init(&r[1], RULE_PARDON, 0, "user=1000", NULL);
	verdict_of(r, 2, &pf, &v);
	assert_int_equal(v.kind, VERDICT_SET);
	assert_true(v.pardoned);
}

static void test_never_touched(void **state)
{
	struct test_rule r[2];
	struct proc_facts pf;
	struct verdict v;

	(void)state;
	rule_init(&r[0], RULE_SCORE, 1000, "exe=*", NULL);
	rule_init(&r[1], RULE_SCORE, 1000, "comm=kthreadd", NULL);
	facts_init(&pf, "/sbin/init", "kthreadd");
	pf.kthread = true;
	pf.has_exe = false;
	verdict_of(r, 2, &pf, &v);
	assert_int_equal(v.kind, VERDICT_KEEP);
	assert_null(v.rule);
	facts_init(&pf, "/sbin/init", "init");
	pf.pid = 1;
	rule_init(&r[1], RULE_SCORE, 1000, "comm=init", NULL);
	verdict_of(r, 2, &pf, &v);
	assert_int_equal(v.kind, VERDICT_KEEP);
}

/* A cgroup that is not in a mounted hierarchy cannot be verified: refused. */
static void test_cgroup_unverified(void **state)
{
	struct test_rule r[1];
	struct proc_facts pf;
	struct verdict v;

	(void)state;
	facts_init(&pf, "/usr/sbin/sshd", "sshd");
	snprintf(pf.cgroup, sizeof(pf.cgroup), "0::/no/such/cgroup.%d\n", (int)getpid());
	rule_init(&r[0], RULE_PARDON, 0, "cgroup=/no/such/*", NULL);
	verdict_of(r, 1, &pf, &v);
	assert_int_equal(v.kind, VERDICT_NONE);
	assert_non_null(v.refused);
	rule_init(&r[0], RULE_SCORE, 10, "cgroup=/no/such/*", NULL);
	verdict_of(r, 1, &pf, &v);
	assert_int_equal(v.kind, VERDICT_SET);
}

/* A real child cgroup: root's is trusted; delegated (cgroup.procs given to a user) is not. */
static void test_cgroup_real(void **state)
{
	char path[PROC_CGROUP_MAX], mount[PATH_MAX], dir[PATH_MAX + PROC_CGROUP_MAX + 64];
	char procs[sizeof(dir) + 16], pattern[PROC_CGROUP_MAX + 64], pidtext[32];
	const char *controller = "memory";
	struct test_rule r[1];
	struct proc_facts pf;
	struct verdict v, root_v;
	int fd, read_ok, chown_ok;
	pid_t pid;

	(void)state;
	assert_int_equal(proc_read(getpid(), PROC_CGROUP, &pf), 0);
	if (cgroup_path_of(pf.cgroup, controller, path, sizeof(path)) != 0 ||
	    cgroup_mount_of(controller, mount, sizeof(mount)) != 0) {
		controller = "";	/* cgroup v2 */
		if (cgroup_path_of(pf.cgroup, controller, path, sizeof(path)) != 0 ||
		    cgroup_mount_of(controller, mount, sizeof(mount)) != 0)
			skip();
	}
	snprintf(dir, sizeof(dir), "%s%s/test_match.%d", mount, strcmp(path, "/") ? path : "",
		 (int)getpid());
	if (mkdir(dir, 0755) != 0)
		skip();		/* not root, or a read-only cgroupfs */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	snprintf(pidtext, sizeof(pidtext), "%d\n", (int)pid);
	fd = open(procs, O_WRONLY);
	assert_true(fd >= 0);
	assert_true(write(fd, pidtext, strlen(pidtext)) > 0);
	close(fd);

	/* verdicts first, asserts after the clean-up: a failure leaves nothing behind */
	read_ok = proc_read(pid, MATCH_NEEDS, &pf);
	snprintf(pattern, sizeof(pattern), "cgroup=%s/test_match.*", strcmp(path, "/") ? path : "");
	rule_init(&r[0], RULE_PARDON, 0, pattern, NULL);
	verdict_of(r, 1, &pf, &root_v);
	/* delegated to nobody: the user could move any process in */
	chown_ok = chown(procs, 65534, 65534);
	verdict_of(r, 1, &pf, &v);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_int_equal(rmdir(dir), 0);

	assert_int_equal(read_ok, 0);
	assert_int_equal(root_v.kind, VERDICT_SET);
	assert_true(root_v.pardoned);
	assert_int_equal(chown_ok, 0);
	assert_int_equal(v.kind, VERDICT_NONE);
	assert_string_equal(v.refused_why, "cgroup.procs is not owned by root");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exe_globs),
		cmocka_unit_test(test_comm_user_and),
		cmocka_unit_test(test_cgroup_globs),
		cmocka_unit_test(test_pardon_beats_score),
		cmocka_unit_test(test_last_score_wins),
		cmocka_unit_test(test_negative_score_order),
		cmocka_unit_test(test_comm_only_refused),
		cmocka_unit_test(test_untrusted_exe_refused),
		cmocka_unit_test(test_exe_inode_mismatch),
		cmocka_unit_test(test_deleted_exe),
		cmocka_unit_test(test_never_touched),
		cmocka_unit_test(test_cgroup_unverified),
		cmocka_unit_test(test_cgroup_real),
	};

	return cmocka_run_group_tests_name("match", tests, setup, teardown);
}
