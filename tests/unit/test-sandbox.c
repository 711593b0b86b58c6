/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sandbox planner (agents/sandbox.h): golden bwrap and Landlock argv,
 * backend choice, refusals, the warn-run fallback. Numbers in comments are
 * sandbox.h's invariants.
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include "agents/sandbox.h"
#include "base/eventlog.h"

static const char *const env[] = { "PATH=/usr/bin:/bin", "HOME=/home/op",
				   "TMPDIR=/var/tmp/op", "LANG=C.UTF-8" };
static const char *const cmd[] = { "/usr/bin/claude", "--version" };
static const char *const ro[] = { "/opt/node" };
static const char *const extra[] = { "/usr/local/bin/agentic-git",
				     "/srv/op/repo/.git/objects" };

static void caps_init(struct sandbox_caps *c, bool bwrap, int abi, bool sc)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->bwrap_path, sizeof(c->bwrap_path), "/usr/bin/bwrap");
	c->bwrap_works = bwrap;
	if (!bwrap)
		snprintf(c->bwrap_why, sizeof(c->bwrap_why), "userns blocked");
	c->landlock_abi = abi;
	c->seccomp = sc;
	/* /usr, /bin -> usr/bin, /lib -> usr/lib, /etc; the rest absent. */
	c->sys_kind[0] = SYSDIR_DIR;
	c->sys_kind[1] = SYSDIR_SYMLINK;
	snprintf(c->sys_link[1], sizeof(c->sys_link[1]), "usr/bin");
	c->sys_kind[3] = SYSDIR_SYMLINK;
	snprintf(c->sys_link[3], sizeof(c->sys_link[3]), "usr/lib");
	c->sys_kind[7] = SYSDIR_DIR;
}

static void rq_init(struct sandbox_request *rq, enum sandbox_policy p,
		    enum sandbox_backend b)
{
	memset(rq, 0, sizeof(*rq));
	rq->policy = p;
	rq->backend = b;
	rq->workspace = "/home/op/.cache/ag/ws/t1";
	rq->home = "/home/op";
	rq->cache_dir = "/var/cache/ag/claude";
	rq->tmp_dir = "/var/cache/ag/claude/tmp";
	rq->private_home = "/var/cache/ag/claude/home";
	rq->self_exe = "/usr/local/bin/agentic-git";
	rq->ro_binds = ro;
	rq->ro_binds_nr = ARRAY_SIZE(ro);
	rq->extra_ro = extra;
	rq->extra_ro_nr = ARRAY_SIZE(extra);
	rq->env = env;
	rq->env_nr = ARRAY_SIZE(env);
	rq->argv = cmd;
	rq->argc = ARRAY_SIZE(cmd);
}

static char *joined(const struct strvec *v)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < v->nr; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", v->v[i]);
	return strbuf_detach(&sb, NULL);
}

#define BWRAP_HEAD                                                             \
	"/usr/bin/bwrap --die-with-parent --new-session --unshare-all "
#define BWRAP_TAIL                                                             \
	"--cap-drop ALL --clearenv --setenv PATH /usr/bin:/bin "               \
	"--setenv HOME /home/op --setenv LANG C.UTF-8 "                        \
	"--ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib "   \
	"--ro-bind /etc /etc --proc /proc --dev /dev "                         \
	"--tmpfs /tmp --tmpfs /home/op "                                       \
	"--ro-bind /opt/node /opt/node "                                       \
	"--ro-bind /usr/local/bin/agentic-git /usr/local/bin/agentic-git "     \
	"--bind /var/cache/ag/claude /var/cache/ag/claude "                    \
	"--ro-bind /srv/op/repo/.git/objects /srv/op/repo/.git/objects "       \
	"--bind /home/op/.cache/ag/ws/t1 /home/op/.cache/ag/ws/t1 "            \
	"--chdir /home/op/.cache/ag/ws/t1 -- /usr/bin/claude --version"

static void check_plan(enum sandbox_policy p, enum sandbox_backend b,
		       const struct sandbox_caps *caps, const char *golden,
		       enum sandbox_backend used)
{
	struct sandbox_request rq;
	struct sandbox_plan plan = SANDBOX_PLAN_INIT;
	char *got;

	rq_init(&rq, p, b);
	assert_int_equal(sandbox_plan(&rq, caps, &plan), SANDBOX_WRAPPED);
	assert_int_equal(plan.backend, used);
	got = joined(&plan.argv);
	assert_string_equal(got, golden);
	/* the command follows the prefix unchanged */
	assert_string_equal(plan.argv.v[plan.prefix_nr], "/usr/bin/claude");
	assert_string_equal(plan.dir, "/home/op/.cache/ag/ws/t1");
	free(got);
	sandbox_plan_release(&plan);
}

static void test_bwrap_golden(void **state)
{
	struct sandbox_caps caps;
	caps_init(&caps, true, 7, true);
	/* 1, 2, 5, 6: fs-only keeps the network, fs+no-net does not */
	check_plan(SANDBOX_FS_ONLY, SANDBOX_BACKEND_AUTO, &caps,
		   BWRAP_HEAD "--share-net " BWRAP_TAIL, SANDBOX_BACKEND_BWRAP);
	check_plan(SANDBOX_FS_NO_NET, SANDBOX_BACKEND_BWRAP, &caps,
		   BWRAP_HEAD BWRAP_TAIL, SANDBOX_BACKEND_BWRAP);
}

static void test_bwrap_env_is_exact(void **state)
{
	struct sandbox_caps caps;
	struct sandbox_request rq;
	struct sandbox_plan plan = SANDBOX_PLAN_INIT;

	caps_init(&caps, true, 0, false);
	rq_init(&rq, SANDBOX_FS_NO_NET, SANDBOX_BACKEND_AUTO);
	sandbox_plan(&rq, &caps, &plan);
	/* 2: the env given to execve is the exact env minus TMPDIR */
	assert_int_equal(plan.env.nr, 3);
	assert_string_equal(plan.env.v[0], "PATH=/usr/bin:/bin");
	assert_string_equal(plan.env.v[1], "HOME=/home/op");
	assert_string_equal(plan.env.v[2], "LANG=C.UTF-8");
	sandbox_plan_release(&plan);
}

/* PRODUCT.md §8: the shim over every standard git path, real git at a
 * private one, the shim told where; Landlock cannot remap, so it ignores it */
static void test_bwrap_git_override(void **state)
{
	static const char *const paths[] = { "/usr/bin/git", "/usr/local/bin/git" };
	struct sandbox_caps caps;
	struct sandbox_request rq;
	struct sandbox_plan plan = SANDBOX_PLAN_INIT;
	char *got;

	(void)state;
	caps_init(&caps, true, 7, true);
	rq_init(&rq, SANDBOX_FS_ONLY, SANDBOX_BACKEND_BWRAP);
	rq.git_shim = "/opt/ag/agentic-git-shim";
	rq.git_real = "/usr/bin/git";
	rq.git_paths = paths;
	rq.git_paths_nr = ARRAY_SIZE(paths);
	sandbox_plan(&rq, &caps, &plan);
	got = joined(&plan.argv);
	/* after every other bind, right before the command */
	assert_non_null(strstr(got, "--ro-bind /usr/bin/git " SANDBOX_REAL_GIT
				    " --ro-bind /opt/ag/agentic-git-shim /usr/bin/git"
				    " --ro-bind /opt/ag/agentic-git-shim /usr/local/bin/git"
				    " --chdir "));
	assert_non_null(strstr(got, "--setenv AGENTIC_GIT_REAL_GIT " SANDBOX_REAL_GIT " "));
	free(got);
	sandbox_plan_release(&plan);
	/* no paths to cover: no override at all */
	rq.git_paths_nr = 0;
	sandbox_plan(&rq, &caps, &plan);
	got = joined(&plan.argv);
	assert_null(strstr(got, SANDBOX_REAL_GIT));
	free(got);
	sandbox_plan_release(&plan);
	/* Landlock keeps real git where it is */
	rq.git_paths_nr = ARRAY_SIZE(paths);
	rq.backend = SANDBOX_BACKEND_LANDLOCK;
	sandbox_plan(&rq, &caps, &plan);
	got = joined(&plan.argv);
	assert_null(strstr(got, SANDBOX_REAL_GIT));
	free(got);
	sandbox_plan_release(&plan);
}

#define LL_HEAD "/usr/local/bin/agentic-git sandbox exec --policy "
#define LL_TAIL                                                                \
	"--ro /usr --ro /etc --ro /proc --dev /dev/null --dev /dev/zero "      \
	"--dev /dev/full --dev /dev/random --dev /dev/urandom --dev /dev/tty " \
	"--ro /opt/node --ro /usr/local/bin/agentic-git "                      \
	"--rw /var/cache/ag/claude --ro /srv/op/repo/.git/objects "            \
	"--rw /var/cache/ag/claude/home --rw /var/cache/ag/claude/tmp "        \
	"--rw /home/op/.cache/ag/ws/t1 "

static void test_landlock_golden(void **state)
{
	struct sandbox_caps caps;
	struct sandbox_request rq;
	struct sandbox_plan plan = SANDBOX_PLAN_INIT;

	caps_init(&caps, false, 3, true);
	check_plan(SANDBOX_FS_ONLY, SANDBOX_BACKEND_AUTO, &caps,
		   LL_HEAD "fs-only " LL_TAIL "--net -- /usr/bin/claude --version",
		   SANDBOX_BACKEND_LANDLOCK);
	caps.bwrap_works = true; /* an explicit preference wins */
	check_plan(SANDBOX_FS_NO_NET, SANDBOX_BACKEND_LANDLOCK, &caps,
		   LL_HEAD "fs+no-net " LL_TAIL "--no-net -- /usr/bin/claude --version",
		   SANDBOX_BACKEND_LANDLOCK);
	/* 2: HOME and TMPDIR point at the private dirs */
	rq_init(&rq, SANDBOX_FS_ONLY, SANDBOX_BACKEND_LANDLOCK);
	sandbox_plan(&rq, &caps, &plan);
	assert_int_equal(plan.env.nr, 4);
	assert_string_equal(plan.env.v[0], "PATH=/usr/bin:/bin");
	assert_string_equal(plan.env.v[1], "LANG=C.UTF-8");
	assert_string_equal(plan.env.v[2], "HOME=/var/cache/ag/claude/home");
	assert_string_equal(plan.env.v[3], "TMPDIR=/var/cache/ag/claude/tmp");
	assert_int_equal(plan.landlock_abi, 3);
	sandbox_plan_release(&plan);
}

static void expect_refusal(enum sandbox_policy p, enum sandbox_backend b,
			   const struct sandbox_caps *caps, const char *why)
{
	struct sandbox_request rq;
	struct sandbox_plan plan = SANDBOX_PLAN_INIT;

	rq_init(&rq, p, b);
	/* 1: a refusal, never an unwrapped run */
	assert_int_equal(sandbox_plan(&rq, caps, &plan), SANDBOX_REFUSED);
	assert_int_equal(plan.argv.nr, 0);
	assert_false(plan.bad_input);
	assert_non_null(strstr(plan.reason.buf, why));
	assert_int_equal(sandbox_fallback(&rq, SANDBOX_FALLBACK_REFUSE, "a1", &plan),
			 SANDBOX_REFUSED);
	assert_false(plan.downgraded);
	sandbox_plan_release(&plan);
}

static void test_refusals(void **state)
{
	struct sandbox_caps caps;

	caps_init(&caps, false, 0, true);
	expect_refusal(SANDBOX_FS_ONLY, SANDBOX_BACKEND_AUTO, &caps,
		       "bubblewrap is unavailable (userns blocked) and landlock is unavailable");
	expect_refusal(SANDBOX_FS_NO_NET, SANDBOX_BACKEND_BWRAP, &caps,
		       "cannot be provided on this host (backend bwrap): bubblewrap is unavailable");
	expect_refusal(SANDBOX_FS_ONLY, SANDBOX_BACKEND_LANDLOCK, &caps,
		       "(backend landlock): landlock is unavailable");
	caps_init(&caps, false, 4, false);
	expect_refusal(SANDBOX_FS_NO_NET, SANDBOX_BACKEND_LANDLOCK, &caps,
		       "seccomp filters are unavailable");
	caps_init(&caps, false, 7, true);
	expect_refusal(SANDBOX_FS_NO_NET, SANDBOX_BACKEND_BWRAP, &caps,
		       "bubblewrap is unavailable");
}

static void test_warn_run_downgrades(void **state)
{
	struct sandbox_caps caps;
	struct sandbox_request rq;
	struct sandbox_plan plan = SANDBOX_PLAN_INIT;
	struct event ev = EVENT_INIT("sandbox_downgraded", "a1", "run");
	struct strbuf line = STRBUF_INIT;

	caps_init(&caps, false, 0, false);
	rq_init(&rq, SANDBOX_FS_NO_NET, SANDBOX_BACKEND_AUTO);
	sandbox_plan(&rq, &caps, &plan);
	assert_int_equal(sandbox_fallback(&rq, SANDBOX_FALLBACK_WARN_RUN, "a1", &plan),
			 SANDBOX_RUN_PLAIN);
	assert_true(plan.downgraded);
	assert_true(plan.attention);
	assert_int_equal(plan.backend, SANDBOX_BACKEND_NONE);
	assert_int_equal(plan.prefix_nr, 0);
	assert_int_equal(plan.argv.nr, 2);
	assert_string_equal(plan.argv.v[0], "/usr/bin/claude");
	assert_int_equal(plan.env.nr, ARRAY_SIZE(env)); /* exact, TMPDIR too */
	assert_non_null(strstr(plan.warning.buf, "agent 'a1' ran UNSANDBOXED: sandbox 'fs+no-net' cannot be provided"));
	assert_non_null(strstr(plan.warning.buf, "(sandbox_fallback=warn-run)"));
	sandbox_downgrade_event(&rq, &plan, &ev);
	event_render(&ev, &line);
	assert_non_null(strstr(line.buf, "\"event\":\"sandbox_downgraded\""));
	assert_non_null(strstr(line.buf, "\"disposition\":\"warn\""));
	assert_non_null(strstr(line.buf, "\"requested_policy\":\"fs+no-net\""));
	assert_non_null(strstr(line.buf, "\"fallback\":\"warn-run\""));
	strbuf_release(&line);
	event_release(&ev);
	sandbox_plan_release(&plan);
}

static void test_none_is_plain_without_caps(void **state)
{
	struct sandbox_caps caps;
	struct sandbox_request rq;
	struct sandbox_plan plan = SANDBOX_PLAN_INIT;

	memset(&caps, 0, sizeof(caps));
	rq_init(&rq, SANDBOX_NONE, SANDBOX_BACKEND_BWRAP);
	rq.home = NULL; /* not needed without a sandbox */
	assert_int_equal(sandbox_plan(&rq, &caps, &plan), SANDBOX_RUN_PLAIN);
	assert_false(plan.downgraded);
	assert_int_equal(plan.argv.nr, 2);
	assert_int_equal(plan.env.nr, ARRAY_SIZE(env));
	sandbox_plan_release(&plan);
}

struct bad_case {
	const char *field, *value, *why;
};

static void test_bad_input_never_downgraded(void **state)
{
	static const struct bad_case cases[] = {
		{ "workspace", "relative/ws", "workspace 'relative/ws' must be" },
		{ "workspace", "/home/op/../op/ws", "must be an absolute, normalised" },
		{ "workspace", "/home/op/ws/", "must be an absolute, normalised" },
		{ "workspace", "/home//op/ws", "must be an absolute, normalised" },
		{ "workspace", "/", "would expose the home directory" },
		{ "workspace", "/home", "would expose the home directory" },
		{ "workspace", "/home/op", "would expose the home directory" },
		{ "cache", "/home", "would expose the home directory" },
		{ "cache", "./c", "must be an absolute" },
		{ "ro", "/opt/./node", "ro bind '/opt/./node'" },
		{ "argv", "claude", "absolute path" },
		{ "env", "NOEQUALS", "not NAME=VALUE" },
		{ "home", "home", "home 'home' must be" },
	};
	struct sandbox_caps caps;

	caps_init(&caps, true, 7, true);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sandbox_request rq;
		struct sandbox_plan plan = SANDBOX_PLAN_INIT;
		const char *one[1] = { cases[i].value };

		rq_init(&rq, SANDBOX_FS_ONLY, SANDBOX_BACKEND_AUTO);
		if (!strcmp(cases[i].field, "workspace"))
			rq.workspace = cases[i].value;
		else if (!strcmp(cases[i].field, "cache"))
			rq.cache_dir = cases[i].value;
		else if (!strcmp(cases[i].field, "home"))
			rq.home = cases[i].value;
		else if (!strcmp(cases[i].field, "ro"))
			rq.ro_binds = one, rq.ro_binds_nr = 1;
		else if (!strcmp(cases[i].field, "env"))
			rq.env = one, rq.env_nr = 1;
		else
			rq.argv = one, rq.argc = 1;
		assert_int_equal(sandbox_plan(&rq, &caps, &plan), SANDBOX_REFUSED);
		assert_true(plan.bad_input);
		if (!strstr(plan.reason.buf, cases[i].why))
			fail_msg("case %zu: '%s' lacks '%s'", i, plan.reason.buf,
				 cases[i].why);
		assert_int_equal(sandbox_fallback(&rq, SANDBOX_FALLBACK_WARN_RUN, "a", &plan),
				 SANDBOX_REFUSED);
		assert_false(plan.downgraded);
		sandbox_plan_release(&plan);
	}
}

static void test_bind_order_parents_first(void **state)
{
	static const char *const binds[] = { "/srv/ws/t1/vendor", "/srv",
					     "/srv/ws/t1" };
	struct sandbox_caps caps;
	struct sandbox_request rq;
	struct sandbox_plan plan = SANDBOX_PLAN_INIT;
	char *got;

	caps_init(&caps, true, 0, false);
	memset(caps.sys_kind, 0, sizeof(caps.sys_kind));
	rq_init(&rq, SANDBOX_FS_ONLY, SANDBOX_BACKEND_BWRAP);
	rq.workspace = "/srv/ws/t1";
	rq.home = "/tmp/h"; /* under /tmp: /tmp's tmpfs comes first */
	rq.cache_dir = NULL;
	rq.ro_binds = binds;
	rq.ro_binds_nr = ARRAY_SIZE(binds);
	rq.extra_ro_nr = 0;
	sandbox_plan(&rq, &caps, &plan);
	got = joined(&plan.argv);
	/* 5: /srv ro, the workspace rw on top (rw wins the duplicate), the
	 * nested vendor dir ro on top of that */
	assert_non_null(strstr(got, "--tmpfs /tmp --tmpfs /tmp/h --ro-bind /srv /srv "
				    "--bind /srv/ws/t1 /srv/ws/t1 "
				    "--ro-bind /srv/ws/t1/vendor /srv/ws/t1/vendor --chdir"));
	free(got);
	sandbox_plan_release(&plan);
}

/* 11: a mask after the binds that show it, before those below it;
 * Landlock refuses any mask (it grants whole trees) */
static void test_masks(void **state)
{
	static const char *const binds[] = { "/srv", "/srv/ag/bin" };
	static const char *const masks[] = { "/srv/ag" };
	struct sandbox_caps caps;
	struct sandbox_request rq;
	struct sandbox_plan plan = SANDBOX_PLAN_INIT;
	char *got;

	(void)state;
	caps_init(&caps, true, 6, true);
	memset(caps.sys_kind, 0, sizeof(caps.sys_kind));
	rq_init(&rq, SANDBOX_FS_ONLY, SANDBOX_BACKEND_BWRAP);
	rq.workspace = "/srv/ag/ws/t1";
	rq.home = "/tmp/h";
	rq.cache_dir = NULL;
	rq.ro_binds = binds;
	rq.ro_binds_nr = ARRAY_SIZE(binds);
	rq.extra_ro_nr = 0;
	rq.masks = masks;
	rq.masks_nr = ARRAY_SIZE(masks);
	assert_int_equal(sandbox_plan(&rq, &caps, &plan), SANDBOX_WRAPPED);
	got = joined(&plan.argv);
	assert_non_null(strstr(got,
			       "--ro-bind /srv /srv --tmpfs /srv/ag "
			       "--ro-bind /srv/ag/bin /srv/ag/bin "
			       "--bind /srv/ag/ws/t1 /srv/ag/ws/t1 --chdir"));
	free(got);
	/* a mask equal to a bind comes after it; one nothing shows, last */
	rq.masks = (const char *const[]){ "/srv", "/nowhere/x/y/z" };
	rq.masks_nr = 2;
	assert_int_equal(sandbox_plan(&rq, &caps, &plan), SANDBOX_WRAPPED);
	got = joined(&plan.argv);
	assert_non_null(strstr(got, "--ro-bind /srv /srv --tmpfs /srv "));
	assert_non_null(strstr(got, "--tmpfs /nowhere/x/y/z --chdir"));
	free(got);
	rq.backend = SANDBOX_BACKEND_LANDLOCK;
	assert_int_equal(sandbox_plan(&rq, &caps, &plan), SANDBOX_REFUSED);
	assert_true(plan.bad_input);
	assert_non_null(
		strstr(plan.reason.buf, "inside the landlock cage at '/srv'"));
	assert_int_equal(
		sandbox_fallback(&rq, SANDBOX_FALLBACK_WARN_RUN, "a1", &plan),
		SANDBOX_REFUSED);
	rq.masks = (const char *const[]){ "relative" };
	rq.masks_nr = 1;
	rq.backend = SANDBOX_BACKEND_BWRAP;
	assert_int_equal(sandbox_plan(&rq, &caps, &plan), SANDBOX_REFUSED);
	assert_true(plan.bad_input);
	sandbox_plan_release(&plan);
}

static void allow_bad(struct sandbox_request *rq,
		      const struct sandbox_caps *caps,
		      struct sandbox_plan *plan)
{
	static const char *const bad[] = { "*.10.0.0.1" };

	rq->allow_hosts = bad;
	rq->allow_hosts_nr = 1;
	assert_int_equal(sandbox_plan(rq, caps, plan), SANDBOX_REFUSED);
	assert_true(plan->bad_input);
	assert_non_null(
		strstr(plan->reason.buf, "allow_hosts entry '*.10.0.0.1'"));
}

/* 8: fs+api is bwrap wrapped by our proxy, the relay before the command */
static void test_fs_api(void **state)
{
	static const char *const allow[] = { "api.example.com",
					     "127.0.0.1:8080" };
	struct sandbox_caps caps;
	struct sandbox_request rq;
	struct sandbox_plan plan = SANDBOX_PLAN_INIT;
	char *got;

	caps_init(&caps, true, 7, true);
	rq_init(&rq, SANDBOX_FS_API, SANDBOX_BACKEND_AUTO);
	rq.proxy_sock = "/var/ag/runtime/net/a1.sock";
	rq.proxy_exe = "/usr/local/bin/agentic-git-proxy";
	rq.allow_hosts = allow;
	rq.allow_hosts_nr = ARRAY_SIZE(allow);
	rq.events_home = "/var/ag";
	rq.agent = "a1";
	assert_int_equal(sandbox_plan(&rq, &caps, &plan), SANDBOX_WRAPPED);
	got = joined(&plan.argv);
	/* no secrets: no CA, nothing of TLS */
	assert_null(strstr(got, "--secrets-fd"));
	assert_null(strstr(got, "ca.pem"));
	assert_null(strstr(got, "SSL_CERT_FILE"));
	assert_non_null(strstr(
		got,
		"/usr/local/bin/agentic-git-proxy --socket /var/ag/runtime/net/a1.sock --home /var/ag --agent a1 --allow api.example.com --allow 127.0.0.1:8080 -- /usr/bin/bwrap --die-with-parent --new-session --unshare-all --cap-drop ALL "));
	assert_null(strstr(got, "--share-net"));
	assert_non_null(
		strstr(got, "--setenv HTTPS_PROXY http://127.0.0.1:3128 "));
	assert_non_null(strstr(got, "--setenv NO_PROXY  "));
	assert_non_null(strstr(
		got,
		"--ro-bind /var/ag/runtime/net/a1.sock /run/agentic-git/proxy.sock --chdir /home/op/.cache/ag/ws/t1 -- /usr/local/bin/agentic-git sandbox relay --port 3128 --socket /run/agentic-git/proxy.sock -- /usr/bin/claude --version"));
	assert_string_equal(plan.argv.v[plan.prefix_nr], "/usr/bin/claude");
	free(got);
	/* Landlock knows ports, not addresses: a refusal about the host */
	caps_init(&caps, false, 7, true);
	assert_int_equal(sandbox_plan(&rq, &caps, &plan), SANDBOX_REFUSED);
	assert_false(plan.bad_input);
	assert_non_null(strstr(plan.reason.buf, "ports, not addresses"));
	caps_init(&caps, true, 7, true);
	rq.backend = SANDBOX_BACKEND_LANDLOCK;
	assert_int_equal(sandbox_plan(&rq, &caps, &plan), SANDBOX_REFUSED);
	assert_false(plan.bad_input);
	/* no socket, or a bad entry: bad input */
	rq.backend = SANDBOX_BACKEND_AUTO;
	rq.proxy_sock = NULL;
	assert_int_equal(sandbox_plan(&rq, &caps, &plan), SANDBOX_REFUSED);
	assert_true(plan.bad_input);
	rq.proxy_sock = "/var/ag/runtime/net/a1.sock";
	/* no proxy program: bad input, never a cage without its proxy */
	rq.proxy_exe = NULL;
	assert_int_equal(sandbox_plan(&rq, &caps, &plan), SANDBOX_REFUSED);
	assert_true(plan.bad_input);
	assert_non_null(strstr(plan.reason.buf, "agentic-git-proxy"));
	rq.proxy_exe = "/usr/local/bin/agentic-git-proxy";
	allow_bad(&rq, &caps, &plan);
	sandbox_plan_release(&plan);
}

/* invariant 10: secrets give the proxy its descriptor and the cage the
 * session CA's bundle, read-only, named in every runtime's variable */
static void test_fs_api_secrets(void **state)
{
	static const char *const allow[] = { "api.example.com" };
	static const char *const ca_env[] = { "CODEX_CA_CERTIFICATE", NULL };
	struct sandbox_caps caps;
	struct sandbox_request rq;
	struct sandbox_plan plan = SANDBOX_PLAN_INIT;
	char *got;

	caps_init(&caps, true, 7, true);
	rq_init(&rq, SANDBOX_FS_API, SANDBOX_BACKEND_AUTO);
	rq.proxy_sock = "/var/ag/runtime/net/a1.sock";
	rq.proxy_exe = "/usr/local/bin/agentic-git-proxy";
	rq.allow_hosts = allow;
	rq.allow_hosts_nr = ARRAY_SIZE(allow);
	rq.secrets = true;
	rq.ca_bundle = "/var/ag/runtime/net/a1.ca.pem";
	rq.tls_ca_file = "/etc/corp/ca.pem";
	rq.ca_env = ca_env;
	assert_int_equal(sandbox_plan(&rq, &caps, &plan), SANDBOX_WRAPPED);
	got = joined(&plan.argv);
	assert_non_null(strstr(
		got,
		"--allow api.example.com --secrets-fd 3 --ca-bundle /var/ag/runtime/net/a1.ca.pem --tls-ca-file /etc/corp/ca.pem -- /usr/bin/bwrap "));
	assert_non_null(strstr(
		got,
		"--ro-bind /var/ag/runtime/net/a1.ca.pem /run/agentic-git/ca.pem "));
	for (size_t i = 0; i < 5; i++) {
		static const char *const names[] = { "SSL_CERT_FILE",
						     "CURL_CA_BUNDLE",
						     "NODE_EXTRA_CA_CERTS",
						     "REQUESTS_CA_BUNDLE",
						     "CODEX_CA_CERTIFICATE" };
		char want[128];
		snprintf(want, sizeof(want),
			 "--setenv %s /run/agentic-git/ca.pem ", names[i]);
		assert_non_null(strstr(got, want));
	}
	free(got);
	/* a bundle path that is not one: bad input */
	rq.ca_bundle = "relative.pem";
	assert_int_equal(sandbox_plan(&rq, &caps, &plan), SANDBOX_REFUSED);
	assert_true(plan.bad_input);
	sandbox_plan_release(&plan);
}

static void test_names(void **state)
{
	enum sandbox_policy p;
	enum sandbox_backend b;
	enum sandbox_fallback f;

	assert_int_equal(sandbox_policy_parse("fs+no-net", &p), 0);
	assert_int_equal(p, SANDBOX_FS_NO_NET);
	assert_int_equal(sandbox_policy_parse("fs+api", &p), 0);
	assert_int_equal(p, SANDBOX_FS_API);
	assert_int_equal(sandbox_policy_parse("fs", &p), -1);
	assert_int_equal(sandbox_policy_parse(NULL, &p), -1);
	assert_int_equal(sandbox_backend_parse("landlock", &b), 0);
	assert_int_equal(b, SANDBOX_BACKEND_LANDLOCK);
	assert_int_equal(sandbox_backend_parse("none", &b), -1);
	assert_int_equal(sandbox_fallback_parse("warn-run", &f), 0);
	assert_int_equal(f, SANDBOX_FALLBACK_WARN_RUN);
	assert_int_equal(sandbox_fallback_parse("warn", &f), -1);
	assert_string_equal(sandbox_policy_name(SANDBOX_FS_ONLY), "fs-only");
	assert_string_equal(sandbox_backend_name(SANDBOX_BACKEND_BWRAP), "bwrap");
	assert_string_equal(sandbox_fallback_name(SANDBOX_FALLBACK_REFUSE), "refuse");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bwrap_golden),
		cmocka_unit_test(test_fs_api_secrets),
		cmocka_unit_test(test_bwrap_env_is_exact),
		cmocka_unit_test(test_bwrap_git_override),
		cmocka_unit_test(test_landlock_golden),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_warn_run_downgrades),
		cmocka_unit_test(test_none_is_plain_without_caps),
		cmocka_unit_test(test_bad_input_never_downgraded),
		cmocka_unit_test(test_bind_order_parents_first),
		cmocka_unit_test(test_masks),
		cmocka_unit_test(test_fs_api),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
