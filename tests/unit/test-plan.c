/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The invocation planner (src/agents/plan.h) and the presets: every preset's
 * exact argv with and without a model, hostile prompts and models, stdin
 * bytes, env scoping, timeouts and redaction. Numbers cite plan.h's
 * invariants.
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include "agents/plan.h"
#include "agents/presets.h"
#include "base/spawn.h"
#include "base/xalloc.h"

#define P "fix the build"

/* A profile from a preset with command[0] pinned to /opt/bin/<binary>. */
static void preset_profile(struct agent_profile *p, const char *name)
{
	const struct agent_preset *pr = preset_find(name);

	assert_non_null(pr);
	agent_profile_init_preset(p, pr);
	char *abs = xstrfmt("/opt/bin/%s", p->command.v[0]);
	free((char *)p->command.v[0]);
	p->command.v[0] = abs;
	p->pinned = true;
}

static void custom_profile(struct agent_profile *p, const char *const *cmd)
{
	memset(p, 0, sizeof(*p));
	strvec_init(&p->command);
	strvec_init(&p->model_args);
	strvec_init(&p->env);
	strvec_init(&p->ro_binds);
	p->name = xstrdup("custom");
	strvec_pushv(&p->command, cmd);
	strvec_pushl(&p->model_args, "--model", "{model}", NULL);
	p->pinned = true;
	p->inherit_env = true;
}

static void assert_argv(const struct strvec *got, ...)
{
	va_list ap;
	size_t i = 0;
	const char *want;

	va_start(ap, got);
	while ((want = va_arg(ap, const char *))) {
		if (i >= got->nr)
			fail_msg("argv too short: missing '%s' at %zu", want, i);
		assert_string_equal(got->v[i], want);
		i++;
	}
	va_end(ap);
	if (i != got->nr)
		fail_msg("argv too long: %zu elements, expected %zu (extra '%s')",
			 got->nr, i, got->v[i]);
}

static void plan_ok(const struct agent_profile *p, const char *prompt,
		    const char *model, bool sandboxed, struct agent_plan *out)
{
	struct plan_request rq = PLAN_REQUEST_INIT;
	struct strbuf err = STRBUF_INIT;

	rq.profile = p;
	rq.prompt = prompt;
	rq.model = model;
	rq.sandboxed = sandboxed;
	if (agent_plan_build(&rq, out, &err) < 0)
		fail_msg("plan failed: %s", err.buf);
	strbuf_release(&err);
}

#define PRESET_CASE(name, model, sandboxed, ...)                              \
	do {                                                                  \
		struct agent_profile p_;                                      \
		struct agent_plan pl_ = AGENT_PLAN_INIT;                      \
		preset_profile(&p_, name);                                    \
		plan_ok(&p_, P, model, sandboxed, &pl_);                      \
		assert_argv(&pl_.argv, __VA_ARGS__, NULL);                    \
		agent_plan_release(&pl_);                                     \
		agent_profile_release(&p_);                                   \
	} while (0)

static void test_preset_claude(void **state)
{
	PRESET_CASE("claude", NULL, false, "/opt/bin/claude", "-p",
		    "--dangerously-skip-permissions", "--", P);
	PRESET_CASE("claude", "claude-opus-4-5", false, "/opt/bin/claude", "-p",
		    "--dangerously-skip-permissions", "--model",
		    "claude-opus-4-5", "--", P);
}

static void test_preset_codex(void **state)
{
	struct agent_profile p;
	struct agent_plan pl = AGENT_PLAN_INIT;

	/* The agent's own sandbox depends on ours (PRODUCT.md §8). */
	PRESET_CASE("codex", NULL, false, "/opt/bin/codex", "exec", "-c",
		    "allow_login_shell=false", "--sandbox", "workspace-write");
	PRESET_CASE("codex", NULL, true, "/opt/bin/codex", "exec", "-c",
		    "allow_login_shell=false", "--sandbox", "danger-full-access");
	PRESET_CASE("codex", "gpt-5-codex", false, "/opt/bin/codex", "exec",
		    "-c", "allow_login_shell=false", "--sandbox",
		    "workspace-write", "--model", "gpt-5-codex");
	/* The prompt goes on stdin, never in argv (invariant 5). */
	preset_profile(&p, "codex");
	plan_ok(&p, P, NULL, false, &pl);
	assert_true(pl.use_stdin);
	assert_string_equal(pl.stdin_data.buf, P);
	for (size_t i = 0; i < pl.argv.nr; i++)
		assert_null(strstr(pl.argv.v[i], P));
	agent_plan_release(&pl);
	agent_profile_release(&p);
}

static void test_preset_gemini(void **state)
{
	PRESET_CASE("gemini", NULL, false, "/opt/bin/gemini", "--yolo",
		    "--skip-trust", "--prompt=" P);
	PRESET_CASE("gemini", "gemini-2.5-pro", false, "/opt/bin/gemini",
		    "--yolo", "--skip-trust", "--prompt=" P, "--model",
		    "gemini-2.5-pro");
}

static void test_preset_copilot(void **state)
{
	PRESET_CASE("copilot", NULL, false, "/opt/bin/copilot",
		    "--allow-all-tools", "--prompt=" P);
	PRESET_CASE("copilot", "gpt-5", false, "/opt/bin/copilot",
		    "--allow-all-tools", "--prompt=" P, "--model", "gpt-5");
}

static void test_preset_cursor(void **state)
{
	PRESET_CASE("cursor", NULL, false, "/opt/bin/cursor-agent", "-p",
		    "--force", P);
	PRESET_CASE("cursor", "sonnet-4", false, "/opt/bin/cursor-agent", "-p",
		    "--force", P, "--model", "sonnet-4");
}

static void test_preset_table(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(preset_count(), 5);
	preset_names(&sb);
	assert_string_equal(sb.buf, "claude, codex, copilot, cursor, gemini");
	strbuf_release(&sb);
	assert_null(preset_find("nope"));
	assert_null(preset_find(NULL));
	/* Every preset is env-scoped, sandbox none by default, and names the
	 * flags `agents check` verifies. */
	for (size_t i = 0; i < preset_count(); i++) {
		const struct agent_preset *pr = preset_at(i);
		assert_non_null(pr->env[0]);
		assert_int_equal(pr->sandbox, SANDBOX_NONE);
		assert_non_null(pr->check_flags[0]);
		assert_non_null(pr->verified);
	}
	assert_null(preset_at(5));
}

static const char *const hostile[] = {
	"; rm -rf ~",
	"$(touch /tmp/x)",
	"`touch /tmp/x`",
	"line one\nline two\n; rm -rf /",
	"--",
	"--help",
	"-p",
	"a {prompt} b {model} c {agent_sandbox}",
	"'\"quoted\" and \\back\\slash'",
	"  spaced   out  ",
	"",
	NULL,
};

/* Invariant 1: whatever the prompt holds, argv has the same shape and the
 * prompt is exactly one element (or exactly inside one). */
static void test_hostile_prompts(void **state)
{
	struct agent_profile claude, gem, cust;
	const char *const ccmd[] = { "/bin/tool", "run", "-p={prompt}!", NULL };

	preset_profile(&claude, "claude");
	preset_profile(&gem, "gemini");
	custom_profile(&cust, ccmd);
	for (size_t i = 0; hostile[i]; i++) {
		struct agent_plan a = AGENT_PLAN_INIT, b = AGENT_PLAN_INIT,
				  c = AGENT_PLAN_INIT;
		char *want;

		plan_ok(&claude, hostile[i], "m{prompt}", false, &a);
		assert_argv(&a.argv, "/opt/bin/claude", "-p",
			    "--dangerously-skip-permissions", "--model",
			    "m{prompt}", "--", hostile[i], NULL);
		plan_ok(&gem, hostile[i], NULL, false, &b);
		want = xstrfmt("--prompt=%s", hostile[i]);
		assert_argv(&b.argv, "/opt/bin/gemini", "--yolo",
			    "--skip-trust", want, NULL);
		free(want);
		plan_ok(&cust, hostile[i], NULL, false, &c);
		want = xstrfmt("-p=%s!", hostile[i]);
		assert_argv(&c.argv, "/bin/tool", "run", want, NULL);
		free(want);
		agent_plan_release(&a);
		agent_plan_release(&b);
		agent_plan_release(&c);
	}
	agent_profile_release(&claude);
	agent_profile_release(&gem);
	agent_profile_release(&cust);
}

static void test_hostile_models(void **state)
{
	struct agent_profile p;
	const char *const ccmd[] = { "/bin/tool", "--m={model}", "{prompt}",
				     NULL };

	custom_profile(&p, ccmd);
	for (size_t i = 0; hostile[i]; i++) {
		struct agent_plan a = AGENT_PLAN_INIT;
		char *want = xstrfmt("--m=%s", hostile[i]);

		if (!*hostile[i]) {
			free(want);
			continue; /* "" means "no model" */
		}
		plan_ok(&p, "{model}", hostile[i], false, &a);
		assert_argv(&a.argv, "/bin/tool", want, "{model}", "--model",
			    hostile[i], NULL);
		free(want);
		agent_plan_release(&a);
	}
	agent_profile_release(&p);
}

static void test_model_rules(void **state)
{
	struct agent_profile p;
	struct agent_plan pl = AGENT_PLAN_INIT;
	struct plan_request rq = PLAN_REQUEST_INIT;
	struct strbuf err = STRBUF_INIT;
	const char *const ccmd[] = { "/bin/tool", "--m={model}", "{prompt}",
				     NULL };

	/* The profile's model applies; --model overrides it (invariant 4). */
	preset_profile(&p, "gemini");
	p.model = xstrdup("from-config");
	plan_ok(&p, P, NULL, false, &pl);
	assert_string_equal(pl.argv.v[pl.argv.nr - 1], "from-config");
	assert_string_equal(pl.model, "from-config");
	agent_plan_release(&pl);
	plan_ok(&p, P, "cli", false, &pl);
	assert_string_equal(pl.argv.v[pl.argv.nr - 1], "cli");
	agent_plan_release(&pl);
	/* An empty --model means none given. */
	plan_ok(&p, P, "", false, &pl);
	assert_string_equal(pl.argv.v[pl.argv.nr - 1], "from-config");
	agent_plan_release(&pl);
	agent_profile_release(&p);
	/* {model} in the command with no model in effect is refused. */
	custom_profile(&p, ccmd);
	rq.profile = &p;
	rq.prompt = P;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), -1);
	assert_non_null(strstr(err.buf, "'{model}'"));
	agent_plan_release(&pl);
	agent_profile_release(&p);
	strbuf_release(&err);
}

static void test_stdin_bytes(void **state)
{
	struct agent_profile p;
	struct agent_plan pl = AGENT_PLAN_INIT;
	struct plan_request rq = PLAN_REQUEST_INIT;
	struct strbuf err = STRBUF_INIT;

	preset_profile(&p, "codex");
	rq.profile = &p;
	rq.prompt = "PROMPT";
	rq.input = "INPUT\n";
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	assert_true(pl.use_stdin);
	assert_string_equal(pl.stdin_data.buf, "PROMPT\n\nINPUT\n");
	agent_plan_release(&pl);
	agent_profile_release(&p);
	/* arg mode: the prompt in argv, the input alone on stdin */
	preset_profile(&p, "claude");
	rq.profile = &p;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	assert_true(pl.use_stdin);
	assert_string_equal(pl.stdin_data.buf, "INPUT\n");
	assert_string_equal(pl.argv.v[pl.argv.nr - 1], "PROMPT");
	agent_plan_release(&pl);
	/* no input: stdin is not used at all */
	rq.input = NULL;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	assert_false(pl.use_stdin);
	assert_int_equal(pl.stdin_data.len, 0);
	agent_plan_release(&pl);
	agent_profile_release(&p);
	strbuf_release(&err);
}

static const char *const parent_env[] = {
	"PATH=/usr/bin:/bin", "HOME=/home/op", "GH_TOKEN=ghp_secret",
	"AWS_SECRET_ACCESS_KEY=aws_secret", "SSH_AUTH_SOCK=/tmp/ssh.sock",
	"ANTHROPIC_API_KEY=sk-ant", "LANG=C.UTF-8", "PATHX=no",
	"TERM=xterm", "NPM_TOKEN=npm", NULL,
};

/* Invariant 3. */
static void test_env_scoping(void **state)
{
	struct agent_profile p;
	struct agent_plan pl = AGENT_PLAN_INIT;
	struct plan_request rq = PLAN_REQUEST_INIT;
	struct strbuf err = STRBUF_INIT;
	struct strvec keys = STRVEC_INIT;
	const char *const ccmd[] = { "/bin/tool", "{prompt}", NULL };

	preset_profile(&p, "claude");
	rq.profile = &p;
	rq.prompt = P;
	rq.parent_env = parent_env;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	assert_false(pl.inherit_env);
	assert_argv(&pl.env, "PATH=/usr/bin:/bin", "HOME=/home/op",
		    "TERM=xterm", "LANG=C.UTF-8", "ANTHROPIC_API_KEY=sk-ant",
		    NULL);
	agent_plan_env_keys(&pl, &keys);
	assert_argv(&keys, "ANTHROPIC_API_KEY", "HOME", "LANG", "PATH", "TERM",
		    NULL);
	strvec_clear(&keys);
	agent_plan_release(&pl);
	/* An empty allowlist is the safe base alone; a listed name that is
	 * also in the base is not duplicated. */
	strvec_clear(&p.env);
	strvec_push(&p.env, "HOME");
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	assert_argv(&pl.env, "PATH=/usr/bin:/bin", "HOME=/home/op",
		    "TERM=xterm", "LANG=C.UTF-8", NULL);
	agent_plan_release(&pl);
	agent_profile_release(&p);
	/* A custom profile without env inherits everything. */
	custom_profile(&p, ccmd);
	rq.profile = &p;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	assert_true(pl.inherit_env);
	assert_int_equal(pl.env.nr, 0);
	agent_plan_env_keys(&pl, &keys);
	assert_int_equal(keys.nr, 0);
	agent_plan_release(&pl);
	agent_profile_release(&p);
	strbuf_release(&err);
}

/* Session variables are layered on top, replacing same-named ones. */
static void test_extra_env(void **state)
{
	struct agent_profile p;
	struct agent_plan pl = AGENT_PLAN_INIT;
	struct plan_request rq = PLAN_REQUEST_INIT;
	struct strbuf err = STRBUF_INIT;
	struct strvec keys = STRVEC_INIT;
	struct child c = CHILD_INIT;
	const char *const extra[] = { "PATH=/ag/bin:/usr/bin", "AGENTIC_GIT_AGENT=a1",
				      NULL };
	const char *const bad[] = { "NOEQUALS", NULL };
	const char *const ccmd[] = { "/bin/tool", "{prompt}", NULL };

	preset_profile(&p, "claude");
	rq.profile = &p;
	rq.prompt = P;
	rq.parent_env = parent_env;
	rq.extra_env = extra;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	assert_argv(&pl.env, "PATH=/ag/bin:/usr/bin", "HOME=/home/op",
		    "TERM=xterm", "LANG=C.UTF-8", "ANTHROPIC_API_KEY=sk-ant",
		    "AGENTIC_GIT_AGENT=a1", NULL);
	agent_plan_release(&pl);
	agent_profile_release(&p);
	/* Inheriting: the extras go on top of the inherited environment. */
	custom_profile(&p, ccmd);
	rq.profile = &p;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	assert_true(pl.inherit_env);
	agent_plan_env_keys(&pl, &keys);
	assert_argv(&keys, "AGENTIC_GIT_AGENT", "PATH", NULL);
	agent_plan_to_child(&pl, &c);
	assert_argv(&c.env_set, "PATH=/ag/bin:/usr/bin", "AGENTIC_GIT_AGENT=a1",
		    NULL);
	assert_int_equal(c.env.nr, 0);
	child_release(&c);
	strvec_clear(&keys);
	agent_plan_release(&pl);
	rq.extra_env = bad;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), -1);
	agent_plan_release(&pl);
	agent_profile_release(&p);
	strbuf_release(&err);
}

static bool env_has(const struct strvec *env, const char *kv)
{
	for (size_t i = 0; i < env->nr; i++)
		if (!strcmp(env->v[i], kv))
			return true;
	return false;
}

/* 6: IS_SANDBOX only inside ours; as root outside, a one-line refusal. */
static void test_claude_root(void **state)
{
	struct agent_profile p;
	struct agent_plan pl = AGENT_PLAN_INIT;
	struct plan_request rq = PLAN_REQUEST_INIT;
	struct strbuf err = STRBUF_INIT;
	const char *const told[] = { "PATH=/usr/bin", "IS_SANDBOX=1", NULL };
	const char *const plain_cmd[] = { "/opt/bin/claude", "-p", "{prompt}",
					  NULL };

	preset_profile(&p, "claude");
	rq.profile = &p;
	rq.prompt = P;
	rq.parent_env = parent_env;
	rq.as_root = true;
	rq.sandboxed = true;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	assert_true(env_has(&pl.env, "IS_SANDBOX=1"));
	agent_plan_release(&pl);
	rq.sandboxed = false; /* not told when ours is not there */
	rq.as_root = false;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	assert_false(env_has(&pl.env, "IS_SANDBOX=1"));
	agent_plan_release(&pl);
	rq.as_root = true;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), -1);
	assert_string_equal(err.buf, "agent 'claude' cannot run as root outside a sandbox: claude refuses --dangerously-skip-permissions as root; give the profile 'sandbox: fs-only', or run as a normal user");
	assert_null(strchr(err.buf, '\n'));
	agent_plan_release(&pl);
	/* the operator passing IS_SANDBOX in is their call, not a refusal */
	strbuf_reset(&err);
	strvec_push(&p.env, "IS_SANDBOX");
	rq.parent_env = told;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	assert_true(env_has(&pl.env, "IS_SANDBOX=1"));
	agent_plan_release(&pl);
	/* without the refused flag there is nothing to refuse */
	strvec_clear(&p.command);
	strvec_pushv(&p.command, plain_cmd);
	rq.parent_env = parent_env;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	agent_plan_release(&pl);
	agent_profile_release(&p);
	/* other presets are told nothing */
	preset_profile(&p, "gemini");
	rq.profile = &p;
	rq.sandboxed = true;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	assert_false(env_has(&pl.env, "IS_SANDBOX=1"));
	agent_plan_release(&pl);
	agent_profile_release(&p);
	strbuf_release(&err);
}

/* 7: codex ignores OPENAI_BASE_URL; it gets the endpoint as config. */
static void test_codex_endpoint(void **state)
{
	struct agent_profile p;
	struct agent_plan pl = AGENT_PLAN_INIT;
	struct plan_request rq = PLAN_REQUEST_INIT;
	struct strbuf err = STRBUF_INIT;
	const char *const url[] = { "PATH=/usr/bin",
				    "OPENAI_BASE_URL=http://127.0.0.1:9/v1", NULL };
	const char *const bad[] = { "OPENAI_BASE_URL=http://x/\"\nmodel=\"y",
				    NULL };

	preset_profile(&p, "codex");
	rq.profile = &p;
	rq.prompt = P;
	rq.parent_env = url;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	assert_argv(&pl.argv, "/opt/bin/codex", "exec", "-c",
		    "allow_login_shell=false", "--sandbox", "workspace-write",
		    "-c", "openai_base_url=\"http://127.0.0.1:9/v1\"", NULL);
	agent_plan_release(&pl);
	/* scoped out of the environment: not given either */
	strvec_clear(&p.env);
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	assert_int_equal(pl.argv.nr, 6);
	agent_plan_release(&pl);
	strvec_push(&p.env, "OPENAI_BASE_URL");
	rq.parent_env = bad; /* no way to smuggle other keys in */
	assert_int_equal(agent_plan_build(&rq, &pl, &err), -1);
	assert_string_equal(err.buf, "agent 'codex': OPENAI_BASE_URL holds a quote, a backslash or a control character");
	agent_plan_release(&pl);
	agent_profile_release(&p);
	strbuf_release(&err);
}

/* 8: writable roots for codex's own sandbox, as TOML strings or refused. */
static void test_writable_roots_arg(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *const roots[] = { "/r/.git/worktrees/a", "/r/.git/refs",
				      NULL };
	const char *const quote[] = { "/r/a\"]\nx=[\"", NULL };
	const char *const rel[] = { "r/.git", NULL };
	const char *const none[] = { NULL };

	assert_int_equal(agent_writable_roots_arg(preset_find("codex"), roots,
						  &out, &err),
			 0);
	assert_string_equal(
		out.buf,
		"sandbox_workspace_write.writable_roots=[\"/r/.git/worktrees/a\",\"/r/.git/refs\"]");
	/* nothing to add: no key, no preset, no roots */
	assert_int_equal(agent_writable_roots_arg(preset_find("claude"), roots,
						  &out, &err),
			 1);
	assert_int_equal(agent_writable_roots_arg(NULL, roots, &out, &err), 1);
	assert_int_equal(agent_writable_roots_arg(preset_find("codex"), none,
						  &out, &err),
			 1);
	assert_int_equal(err.len, 0);
	strbuf_reset(&out);
	assert_int_equal(agent_writable_roots_arg(preset_find("codex"), quote,
						  &out, &err),
			 -1);
	assert_non_null(
		strstr(err.buf, "is not an absolute path without quotes"));
	strbuf_reset(&err);
	strbuf_reset(&out);
	assert_int_equal(
		agent_writable_roots_arg(preset_find("codex"), rel, &out, &err),
		-1);
	assert_string_equal(
		err.buf,
		"agent 'codex': the writable root 'r/.git' is not an absolute path without quotes, backslashes or control characters");
	strbuf_release(&out);
	strbuf_release(&err);
}

/* agents check runs the tool shell the way the agent runs it. */
static void test_tool_shell(void **state)
{
	const struct agent_preset *codex = preset_find("codex");
	const char *const *sh = preset_tool_shell(codex, codex->command);
	const char *const login[] = { "codex", "exec", "--sandbox", "x", NULL };
	/* the value alone, not after -c, is no config */
	const char *const odd[] = { "codex", "allow_login_shell=false", NULL };
	const char *const empty[] = { NULL };

	assert_string_equal(sh[0], "/bin/bash");
	assert_string_equal(sh[1], "-c");
	assert_null(sh[2]);
	assert_string_equal(preset_tool_shell(codex, login)[1], "-lc");
	assert_string_equal(preset_tool_shell(codex, odd)[1], "-lc");
	assert_string_equal(preset_tool_shell(codex, empty)[1], "-lc");
	assert_string_equal(preset_tool_shell(preset_find("claude"), login)[1],
			    "-c");
	assert_null(preset_tool_shell(preset_find("cursor"), login));
	assert_null(preset_tool_shell(NULL, login));
}

static void test_to_child_empty_env(void **state)
{
	struct agent_profile p;
	struct agent_plan pl = AGENT_PLAN_INIT;
	struct plan_request rq = PLAN_REQUEST_INIT;
	struct strbuf err = STRBUF_INIT;
	struct child c = CHILD_INIT;
	struct strvec built = STRVEC_INIT;
	const char *const none[] = { "SECRET=1", NULL };

	preset_profile(&p, "claude");
	rq.profile = &p;
	rq.prompt = P;
	rq.parent_env = none;
	rq.cwd = "/tmp";
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	assert_int_equal(pl.env.nr, 0);
	/* The built environment really is empty, not inherited. */
	setenv("AG_TEST_SECRET", "x", 1);
	agent_plan_to_child(&pl, &c);
	child_build_env(&c, &built);
	assert_int_equal(built.nr, 0);
	assert_string_equal(c.dir, "/tmp");
	assert_true(c.new_pgroup);
	assert_null(c.in);
	strvec_clear(&built);
	child_release(&c);
	agent_plan_release(&pl);
	agent_profile_release(&p);
	strbuf_release(&err);
}

static void test_timeout_and_errors(void **state)
{
	struct agent_profile p;
	struct agent_plan pl = AGENT_PLAN_INIT;
	struct plan_request rq = PLAN_REQUEST_INIT;
	struct strbuf err = STRBUF_INIT;
	char *big;

	preset_profile(&p, "claude");
	rq.profile = &p;
	rq.prompt = P;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	assert_true(pl.timeout == PLAN_DEFAULT_TIMEOUT);
	agent_plan_release(&pl);
	p.timeout = 60;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	assert_true(pl.timeout == 60);
	agent_plan_release(&pl);
	rq.timeout = 5;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), 0);
	assert_true(pl.timeout == 5);
	agent_plan_release(&pl);
	rq.timeout = -1;
	assert_int_equal(agent_plan_build(&rq, &pl, &err), -1);
	agent_plan_release(&pl);
	rq.timeout = 0;
	/* A prompt too large for one argv element is refused up front. */
	big = xmalloc(200000);
	memset(big, 'a', 199999);
	big[199999] = '\0';
	rq.prompt = big;
	strbuf_reset(&err);
	assert_int_equal(agent_plan_build(&rq, &pl, &err), -1);
	assert_non_null(strstr(err.buf, "prompt_via: stdin"));
	agent_plan_release(&pl);
	free(big);
	/* Invariant 2: an unpinned binary is never planned. */
	rq.prompt = P;
	p.pinned = false;
	strbuf_reset(&err);
	assert_int_equal(agent_plan_build(&rq, &pl, &err), -1);
	assert_string_equal(err.buf, "agent 'claude': binary '/opt/bin/claude' not found in PATH (install it, or set agents.claude.command to an absolute path)");
	agent_plan_release(&pl);
	agent_profile_release(&p);
	strbuf_release(&err);
}

static void test_redaction(void **state)
{
	struct strvec in = STRVEC_INIT, out = STRVEC_INIT;

	strvec_pushl(&in, "/bin/t", "-p", "secret plan", "--x=secret plan!",
		     "secret plansecret plan", "other", NULL);
	agent_redact_argv(&in, "secret plan", &out);
	assert_argv(&out, "/bin/t", "-p", "<prompt:11 chars>",
		    "--x=<prompt:11 chars>!",
		    "<prompt:11 chars><prompt:11 chars>", "other", NULL);
	strvec_clear(&out);
	agent_redact_argv(&in, "", &out);
	assert_int_equal(out.nr, in.nr);
	assert_string_equal(out.v[2], "secret plan");
	strvec_clear(&out);
	strvec_clear(&in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_preset_claude),
		cmocka_unit_test(test_preset_codex),
		cmocka_unit_test(test_preset_gemini),
		cmocka_unit_test(test_preset_copilot),
		cmocka_unit_test(test_preset_cursor),
		cmocka_unit_test(test_preset_table),
		cmocka_unit_test(test_hostile_prompts),
		cmocka_unit_test(test_hostile_models),
		cmocka_unit_test(test_model_rules),
		cmocka_unit_test(test_stdin_bytes),
		cmocka_unit_test(test_env_scoping),
		cmocka_unit_test(test_extra_env),
		cmocka_unit_test(test_claude_root),
		cmocka_unit_test(test_codex_endpoint),
		cmocka_unit_test(test_writable_roots_arg),
		cmocka_unit_test(test_tool_shell),
		cmocka_unit_test(test_to_child_empty_env),
		cmocka_unit_test(test_timeout_and_errors),
		cmocka_unit_test(test_redaction),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
