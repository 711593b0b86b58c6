/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The config loader's pure entry point (config_parse_buffer_opts, the one
 * the fuzzer calls), resolution order and repository matching. File rules
 * and every error vector are covered end to end by t0500.
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include "agents/config.h"
#include "base/strbuf.h"

static const struct config_parse_opts skip = {
	.pin = CONFIG_PIN_SKIP, .home = "/home/op",
};

static int parse(const char *yaml, struct agent_config *cfg,
		 struct strbuf *errs)
{
	return config_parse_buffer_opts(yaml, strlen(yaml), "/etc/c.yaml",
					&skip, cfg, errs);
}

static void test_full_config(void **state)
{
	struct agent_config cfg = AGENT_CONFIG_INIT;
	struct strbuf errs = STRBUF_INIT;
	const struct agent_profile *p;
	const char *y =
		"default_agent: mine\n"
		"sandbox_fallback: warn-run\n"
		"sandbox_backend: landlock\n"
		"agents:\n"
		"  mine:\n"
		"    command: [tool, run, \"-p={prompt}\"]\n"
		"    model_args: [-m, \"{model}\"]\n"
		"    model: m1\n"
		"    timeout: 90.5\n"
		"    env: [MY_KEY]\n"
		"    sandbox: fs-only\n"
		"    ro_binds: [~/.nvm, /opt/../opt/node]\n"
		"    cache_dir: ~/.cache/mine\n"
		"  codex:\n"
		"    model: null\n"
		"repos:\n"
		"  Owner/Name: {agent: codex}\n"
		"  ~/src/app: {agent: gemini}\n"
		"dispatch:\n"
		"  concurrency: 4\n"
		"  timeout: 600\n"
		"  verify_command: [make, test]\n"
		"  workspace_root: ~/ws\n";

	assert_int_equal(parse(y, &cfg, &errs), 0);
	assert_string_equal(errs.buf, "");
	assert_int_equal(cfg.nr_profiles, 6);
	p = agent_config_find(&cfg, "mine");
	assert_non_null(p);
	assert_null(p->preset);
	assert_true(p->configured);
	assert_false(p->pinned); /* CONFIG_PIN_SKIP */
	assert_string_equal(p->command.v[2], "-p={prompt}");
	assert_string_equal(p->model, "m1");
	assert_true(p->timeout == 90.5);
	assert_false(p->inherit_env);
	assert_string_equal(p->env.v[0], "MY_KEY");
	assert_int_equal(p->sandbox, SANDBOX_FS_ONLY);
	assert_string_equal(p->ro_binds.v[0], "/home/op/.nvm");
	assert_string_equal(p->ro_binds.v[1], "/opt/node");
	assert_string_equal(p->cache_dir, "/home/op/.cache/mine");
	assert_string_equal(p->where, "/etc/c.yaml:5:3");
	assert_int_equal(cfg.sandbox_fallback, SANDBOX_FALLBACK_WARN_RUN);
	assert_int_equal(cfg.sandbox_backend, SANDBOX_BACKEND_LANDLOCK);
	assert_int_equal(cfg.dispatch.concurrency, 4);
	assert_true(cfg.dispatch.timeout == 600);
	assert_string_equal(cfg.dispatch.verify_command.v[1], "test");
	assert_string_equal(cfg.dispatch.workspace_root, "/home/op/ws");
	assert_int_equal(cfg.nr_repos, 2);
	assert_true(cfg.repos[1].is_path);
	assert_string_equal(cfg.repos[1].key, "/home/op/src/app");
	/* A preset override keeps the rest of the preset. */
	p = agent_config_find(&cfg, "codex");
	assert_non_null(p->preset);
	assert_null(p->model);
	assert_int_equal(p->prompt_via, PROMPT_VIA_STDIN);
	assert_string_equal(p->env.v[0], "OPENAI_API_KEY");
	agent_config_release(&cfg);
	strbuf_release(&errs);
}

static void test_resolution_order(void **state)
{
	struct agent_config cfg = AGENT_CONFIG_INIT;
	struct strbuf errs = STRBUF_INIT, err = STRBUF_INIT;
	const struct agent_profile *p;
	const char *y = "default_agent: gemini\n"
			"repos:\n"
			"  owner/name: {agent: codex}\n"
			"  /srv/app: {agent: copilot}\n";

	assert_int_equal(parse(y, &cfg, &errs), 0);
	/* --profile wins */
	assert_int_equal(agent_config_resolve(&cfg, "cursor", "/srv/app",
					      "owner/name", &p, &err), 0);
	assert_string_equal(p->name, "cursor");
	/* then the repository: path key, slug key (case-insensitive) */
	agent_config_resolve(&cfg, NULL, "/srv/app", NULL, &p, &err);
	assert_string_equal(p->name, "copilot");
	agent_config_resolve(&cfg, "", NULL, "OWNER/Name", &p, &err);
	assert_string_equal(p->name, "codex");
	/* a path is not matched by prefix */
	agent_config_resolve(&cfg, NULL, "/srv/app/sub", "other/x", &p, &err);
	assert_string_equal(p->name, "gemini");
	agent_config_release(&cfg);
	/* then default_agent, then claude */
	assert_int_equal(parse("", &cfg, &errs), 0);
	agent_config_resolve(&cfg, NULL, NULL, NULL, &p, &err);
	assert_string_equal(p->name, "claude");
	assert_int_equal(agent_config_resolve(&cfg, "nope", NULL, NULL, &p,
					      &err), -1);
	assert_string_equal(err.buf, "unknown agent 'nope': not defined under 'agents:' and not a built-in preset (claude, codex, copilot, cursor, gemini)");
	agent_config_release(&cfg);
	strbuf_release(&errs);
	strbuf_release(&err);
}

static void test_errors_collected_in_order(void **state)
{
	struct agent_config cfg = AGENT_CONFIG_INIT;
	struct strbuf errs = STRBUF_INIT;
	const char *y = "zzz: 1\n"
			"agents:\n"
			"  claude:\n"
			"    command: claude -p {prompt}\n"
			"    env: GH_TOKEN\n";

	assert_int_equal(parse(y, &cfg, &errs), -1);
	assert_string_equal(
		errs.buf,
		"/etc/c.yaml:1:1: config: unknown key 'zzz'; allowed: agents, default_agent, dispatch, journal, repos, sandbox_backend, sandbox_fallback, snapshots, tls_ca_file\n"
		"/etc/c.yaml:4:14: agents.claude.command: must be a list of argv tokens, not a single string (a string would imply a shell, which agentic-git never uses)\n"
		"/etc/c.yaml:5:10: agents.claude.env: must be a list of argv tokens, not a single string (a string would imply a shell, which agentic-git never uses)\n");
	agent_config_release(&cfg);
	strbuf_release(&errs);
}

/* Whatever the bytes, the parser returns and leaves nothing to leak. */
static void test_garbage_inputs(void **state)
{
	static const char *const inputs[] = {
		"\x00\x01\x02", "[", "{", "- - - -", "a: !!binary x", ":",
		"agents: {claude: {command: [&a x, *a]}}", "\xff\xfe",
		"agents:\n  claude:\n    command: [\"\\0\"]\n", "---\n...\n",
		"? [a]\n: b\n", "agents: {[a]: b}", "repos: {~: {agent: x}}",
		"timeout: 1e999999",
	};

	for (size_t i = 0; i < ARRAY_SIZE(inputs); i++) {
		struct agent_config cfg = AGENT_CONFIG_INIT;
		struct strbuf errs = STRBUF_INIT;
		size_t len = i ? strlen(inputs[i]) : 3;

		config_parse_buffer_opts(inputs[i], len, "f", &skip, &cfg, &errs);
		agent_config_release(&cfg);
		strbuf_release(&errs);
	}
}

static void test_repo_slug(void **state)
{
	static const struct { const char *url, *slug; } v[] = {
		{ "https://github.com/Owner/name.git", "Owner/name" },
		{ "https://github.com/owner/name", "owner/name" },
		{ "https://github.com/owner/name/", "owner/name" },
		{ "git@github.com:owner/name.git", "owner/name" },
		{ "ssh://git@host:22/group/owner/name.git", "owner/name" },
		{ "/srv/git/owner/name.git", "owner/name" },
		{ "name.git", NULL },
		{ "https://github.com/", NULL },
		{ "git@host:name", NULL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		struct strbuf sb = STRBUF_INIT;
		int r = repo_slug_from_url(v[i].url, &sb);
		if (v[i].slug) {
			assert_int_equal(r, 0);
			assert_string_equal(sb.buf, v[i].slug);
		} else {
			assert_int_equal(r, -1);
		}
		strbuf_release(&sb);
	}
}

static void test_default_path(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	setenv("AGENTIC_GIT_HOME", "/ag", 1);
	agent_config_default_path(&sb);
	assert_string_equal(sb.buf, "/ag/config.yaml");
	strbuf_reset(&sb);
	unsetenv("AGENTIC_GIT_HOME");
	unsetenv("AGEND_HOME");
	setenv("HOME", "/home/u", 1);
	agent_config_default_path(&sb);
	assert_string_equal(sb.buf, "/home/u/.agentic-git/config.yaml");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_config),
		cmocka_unit_test(test_resolution_order),
		cmocka_unit_test(test_errors_collected_in_order),
		cmocka_unit_test(test_garbage_inputs),
		cmocka_unit_test(test_repo_slug),
		cmocka_unit_test(test_default_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
