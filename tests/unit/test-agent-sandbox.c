/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fleet/agent-sandbox.h: the one place an agent is put in its sandbox.
 * The host is made unable to sandbox (AGENTIC_GIT_SANDBOX_UNAVAILABLE, set
 * before the first probe) so the refusal and warn-run paths are exact;
 * the wrapped paths run against the real backends in t0709-t0711 and
 * t0450. Numbers in comments are agent-sandbox.h's invariants.
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <cmocka.h>
#include <unistd.h>
#include "base/xalloc.h"
#include "fleet/agent-sandbox.h"

static const char *const cmd[] = { "/usr/bin/true", "--task", "x" };
static const char *const env[] = { "PATH=/usr/bin:/bin", "API_KEY=s3cr3t" };

static void profile_init(struct agent_profile *p, enum sandbox_policy pol)
{
	memset(p, 0, sizeof(*p));
	p->name = (char *)"boxed";
	p->sandbox = pol;
	strvec_init(&p->ro_binds);
	strvec_init(&p->command);
	strvec_init(&p->env);
	strvec_init(&p->model_args);
}

static struct agent_sandbox_spec spec(const struct agent_profile *p,
				      enum sandbox_fallback fb)
{
	struct agent_sandbox_spec sp = {
		.home = "/srv/ag", .agent = "a1", .profile = p,
		.backend = SANDBOX_BACKEND_AUTO, .fallback = fb,
		.workspace = "/srv/ag/runs/r1/work/k1", .argv = cmd,
		.argc = ARRAY_SIZE(cmd), .env = env, .env_nr = ARRAY_SIZE(env),
	};
	return sp;
}

static void test_none_runs_plain(void **state)
{
	struct agent_profile p;
	struct agent_sandbox as = AGENT_SANDBOX_INIT;
	struct agent_sandbox_spec sp;
	struct strbuf err = STRBUF_INIT, d = STRBUF_INIT;

	profile_init(&p, SANDBOX_NONE);
	sp = spec(&p, SANDBOX_FALLBACK_REFUSE);
	assert_int_equal(agent_sandbox_plan(&sp, &as, &err), 0);
	assert_int_equal(as.plan.verdict, SANDBOX_RUN_PLAIN);
	assert_false(as.sandboxed);
	assert_false(as.plan.downgraded);
	assert_int_equal(as.plan.argv.nr, 3);
	assert_string_equal(as.plan.argv.v[0], "/usr/bin/true");
	assert_string_equal(as.plan.dir, "/srv/ag/runs/r1/work/k1");
	agent_sandbox_describe(&as, &d);
	assert_string_equal(d.buf, "none");
	/* 3: no cache dir is made for a plain run */
	assert_int_equal(agent_sandbox_mkdirs(&as, &err), 0);
	agent_sandbox_release(&as);
	strbuf_release(&err);
	strbuf_release(&d);
}

/* 1: a host that cannot sandbox refuses, with the reason and way out. */
static void test_refused(void **state)
{
	struct agent_profile p;
	struct agent_sandbox as = AGENT_SANDBOX_INIT;
	struct agent_sandbox_spec sp;
	struct strbuf err = STRBUF_INIT;

	profile_init(&p, SANDBOX_FS_NO_NET);
	sp = spec(&p, SANDBOX_FALLBACK_REFUSE);
	assert_int_equal(agent_sandbox_plan(&sp, &as, &err), -1);
	assert_int_equal(as.plan.verdict, SANDBOX_REFUSED);
	assert_non_null(strstr(err.buf, "profile 'boxed' requires sandbox 'fs+no-net': "));
	assert_non_null(strstr(err.buf, "cannot be provided on this host"));
	assert_non_null(strstr(err.buf, "sandbox_fallback: warn-run"));
	assert_int_equal(as.plan.argv.nr, 0);
	agent_sandbox_release(&as);
	strbuf_release(&err);
}

/* 1, 4: warn-run is a marked downgrade; a later command runs the same. */
static void test_warn_run_and_rewrap(void **state)
{
	static const char *const vcmd[] = { "/usr/bin/make", "check", NULL };
	static const char *const rel[] = { "make", NULL };
	static const char *const venv[] = { "HOME=/nonexistent" };
	struct agent_profile p;
	struct agent_sandbox as = AGENT_SANDBOX_INIT;
	struct sandbox_plan vp = SANDBOX_PLAN_INIT;
	struct agent_sandbox_spec sp;
	struct strbuf err = STRBUF_INIT, d = STRBUF_INIT;

	profile_init(&p, SANDBOX_FS_ONLY);
	sp = spec(&p, SANDBOX_FALLBACK_WARN_RUN);
	assert_int_equal(agent_sandbox_plan(&sp, &as, &err), 0);
	assert_true(as.plan.downgraded);
	assert_true(as.plan.attention);
	assert_false(as.sandboxed);
	assert_non_null(strstr(as.plan.warning.buf, "agent 'a1' ran UNSANDBOXED"));
	agent_sandbox_describe(&as, &d);
	assert_string_equal(d.buf, "none (warn-run)");
	assert_int_equal(agent_sandbox_rewrap(&as, vcmd, venv, 1, &vp, &err), 0);
	assert_int_equal(vp.verdict, SANDBOX_RUN_PLAIN);
	assert_string_equal(vp.argv.v[0], "/usr/bin/make");
	assert_int_equal(vp.env.nr, 1);
	assert_string_equal(vp.env.v[0], "HOME=/nonexistent");
	assert_int_equal(agent_sandbox_rewrap(&as, rel, venv, 1, &vp, &err), -1);
	sandbox_plan_release(&vp);
	agent_sandbox_release(&as);
	strbuf_release(&err);
	strbuf_release(&d);
}

/* 5: only the wrapper's --setenv values are redacted, not the command. */
static void test_redacted_argv(void **state)
{
	static const char *const argv[] = {
		"/usr/bin/bwrap", "--clearenv", "--setenv", "API_KEY", "s3cr3t",
		"--setenv", "PATH", "/usr/bin", "--ro-bind", "/usr", "/usr",
		"--", "/usr/bin/agent", "--setenv", "KEEP", "this",
	};
	static const char *const want[] = {
		"/usr/bin/bwrap", "--clearenv", "--setenv", "API_KEY", "<redacted>",
		"--setenv", "PATH", "<redacted>", "--ro-bind", "/usr", "/usr",
		"--", "/usr/bin/agent", "--setenv", "KEEP", "this",
	};
	struct agent_sandbox as = AGENT_SANDBOX_INIT;
	struct strvec out = STRVEC_INIT;
	struct strbuf d = STRBUF_INIT;

	strvec_pushn(&as.plan.argv, argv, ARRAY_SIZE(argv));
	as.plan.prefix_nr = 12;
	as.plan.backend = SANDBOX_BACKEND_BWRAP;
	as.plan.verdict = SANDBOX_WRAPPED;
	as.sandboxed = true;
	as.rq.policy = SANDBOX_FS_NO_NET;
	agent_sandbox_redacted_argv(&as, &out);
	assert_int_equal(out.nr, ARRAY_SIZE(want));
	for (size_t i = 0; i < out.nr; i++)
		assert_string_equal(out.v[i], want[i]);
	agent_sandbox_describe(&as, &d);
	assert_string_equal(d.buf, "fs+no-net (bwrap)");
	strvec_clear(&out);
	strbuf_release(&d);
	agent_sandbox_release(&as);
}

/* 7: the toolchain dirs from the resolved binary and its interpreter. */
static void test_toolchain_dirs(void **state)
{
	struct strvec ro = STRVEC_INIT;

	agent_toolchain_dirs("/home/op/.cache/clis/node_modules/@openai/codex/bin/codex.js",
			     "/home/op/.nvm/versions/node/v20.1.0/bin/node", &ro);
	assert_int_equal(ro.nr, 2);
	assert_string_equal(ro.v[0], "/home/op/.cache/clis/node_modules");
	assert_string_equal(ro.v[1], "/home/op/.nvm/versions/node/v20.1.0");
	strvec_clear(&ro);
	/* the first node_modules: a nested package's siblings are there */
	agent_toolchain_dirs("/p/node_modules/a/node_modules/b/x", NULL, &ro);
	assert_int_equal(ro.nr, 1);
	assert_string_equal(ro.v[0], "/p/node_modules");
	strvec_clear(&ro);
	/* a whole component only; no node_modules: the binary itself */
	agent_toolchain_dirs("/p/my_node_modules/x/claude", "/srv/node/node", &ro);
	assert_int_equal(ro.nr, 2);
	assert_string_equal(ro.v[0], "/p/my_node_modules/x/claude");
	assert_string_equal(ro.v[1], "/srv/node");
	strvec_clear(&ro);
	/* the system dirs are bound anyway */
	agent_toolchain_dirs("/usr/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe",
			     "/usr/bin/node", &ro);
	assert_int_equal(ro.nr, 0);
	strvec_clear(&ro);
}

/* 8: a preset's config dir is the cache's when sandboxed, only then. */
static void test_config_dir(void **state)
{
	struct agent_profile p;
	struct agent_sandbox as = AGENT_SANDBOX_INIT;
	struct agent_sandbox_spec sp;
	struct strbuf err = STRBUF_INIT;
	bool found = false;

	profile_init(&p, SANDBOX_FS_ONLY);
	p.preset = preset_find("claude");
	sp = spec(&p, SANDBOX_FALLBACK_WARN_RUN);
	assert_int_equal(agent_sandbox_plan(&sp, &as, &err), 0);
	assert_string_equal(as.config_dir, "/srv/ag/cache/a1/.claude");
	for (size_t i = 0; i < as.env.nr; i++)
		found |= !strcmp(as.env.v[i], "CLAUDE_CONFIG_DIR=/srv/ag/cache/a1/.claude");
	assert_true(found);
	agent_sandbox_release(&as);
	as = (struct agent_sandbox)AGENT_SANDBOX_INIT;
	profile_init(&p, SANDBOX_NONE);
	p.preset = preset_find("claude");
	sp = spec(&p, SANDBOX_FALLBACK_REFUSE);
	assert_int_equal(agent_sandbox_plan(&sp, &as, &err), 0);
	assert_null(as.config_dir);
	agent_sandbox_release(&as);
	strbuf_release(&err);
}

/*
 * sandbox-build.h 1: $HOME is compared as its real path, so a workspace
 * that is the home behind a symlinked $HOME is refused as bad input (no
 * warn-run), and a sandboxed profile without HOME is refused.
 */
static void test_home_canonical(void **state)
{
	char dir[] = "/tmp/test-agent-sandbox-XXXXXX", *link;
	struct agent_profile p;
	struct agent_sandbox as = AGENT_SANDBOX_INIT;
	struct agent_sandbox_spec sp;
	struct strbuf err = STRBUF_INIT;

	assert_non_null(mkdtemp(dir));
	link = xstrfmt("%s.link", dir);
	assert_int_equal(symlink(dir, link), 0);
	setenv("HOME", link, 1);
	profile_init(&p, SANDBOX_FS_ONLY);
	sp = spec(&p, SANDBOX_FALLBACK_WARN_RUN);
	sp.workspace = dir;
	assert_int_equal(agent_sandbox_plan(&sp, &as, &err), -1);
	assert_non_null(strstr(err.buf, "would expose the home directory"));
	assert_false(as.plan.downgraded);
	agent_sandbox_release(&as);
	strbuf_reset(&err);
	unsetenv("HOME");
	as = (struct agent_sandbox)AGENT_SANDBOX_INIT;
	assert_int_equal(agent_sandbox_plan(&sp, &as, &err), -1);
	assert_non_null(strstr(err.buf, "HOME is not set"));
	assert_false(as.plan.downgraded);
	agent_sandbox_release(&as);
	as = (struct agent_sandbox)AGENT_SANDBOX_INIT;
	profile_init(&p, SANDBOX_NONE);
	assert_int_equal(agent_sandbox_plan(&sp, &as, &err), 0);
	agent_sandbox_release(&as);
	setenv("HOME", "/home/op", 1);
	unlink(link);
	rmdir(dir);
	free(link);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_none_runs_plain),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_warn_run_and_rewrap),
		cmocka_unit_test(test_redacted_argv),
		cmocka_unit_test(test_toolchain_dirs),
		cmocka_unit_test(test_config_dir),
		cmocka_unit_test(test_home_canonical),
	};

	/* before the first (cached) probe: this host cannot sandbox */
	setenv("AGENTIC_GIT_SANDBOX_UNAVAILABLE", "bwrap,landlock,seccomp,userns", 1);
	setenv("HOME", "/home/op", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
