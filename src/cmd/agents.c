/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git agents list | show NAME | check [NAME] | exec NAME …
 * (PRODUCT.md §7). list and show are here; check and exec in agents-run.c.
 */
#include "base/common.h"
#include <stddef.h>
#include <stdio.h>
#include "agents/plan.h"
#include "base/die.h"
#include "base/xalloc.h"
#include "cmd/agents.h"
#include "cmd/argtable.h"
#include "cmd/cmd.h"
#include "cmd/optsets.h"
#include "fleet/agent-secrets.h"

static const char usage[] =
	"usage: agentic-git agents list [--json] [--config FILE]\n"
	"   or: agentic-git agents show NAME [--json] [--model M] [--config FILE]\n"
	"   or: agentic-git agents check [NAME] [--config FILE]\n"
	"   or: agentic-git agents exec NAME (--prompt TEXT | --prompt-file F)\n"
	"                               [--input-file F] [--model M] [--cwd DIR]\n"
	"                               [--timeout SECONDS] [--dry-run] [--config FILE]\n"
	"\n"
	"List the agent profiles (built-in presets and config.yaml's agents:),\n"
	"show how one is launched, or check that its binary exists and accepts\n"
	"the flags it is given, and that git in its tool shell is the shim.\n"
	"exec plans and runs one profile outside a session and without its\n"
	"profile's sandbox (a check of the launch, used by tests; summarize\n"
	"and dispatch run profiles in their sandbox).\n"
	"The config is $AGENTIC_GIT_HOME/config.yaml unless --config is given;\n"
	"see docs/configuration.md.\n";

enum { F_LIST = 1, F_SHOW = 2, F_CHECK = 4, F_EXEC = 8 };

/* The options of every verb, and whether help was asked for. */
struct agents_cli {
	struct agents_opts o;
	bool help;
};

#define AGENTS_OPT(name, kind, field, verbs) \
	ARGSPEC_AT(name, 0, kind, struct agents_cli, o.field, verbs, 0)
static const struct argspec specs[] = {
	AGENTS_OPT("config", ARG_VALUE, config, 0),
	AGENTS_OPT("json", ARG_FLAG, json, F_LIST | F_SHOW),
	AGENTS_OPT("model", ARG_VALUE, model, F_SHOW | F_EXEC),
	AGENTS_OPT("prompt", ARG_VALUE, prompt, F_EXEC),
	AGENTS_OPT("prompt-file", ARG_VALUE, prompt_file, F_EXEC),
	AGENTS_OPT("input-file", ARG_VALUE, input_file, F_EXEC),
	AGENTS_OPT("cwd", ARG_VALUE, cwd, F_EXEC),
	AGENTS_OPT("timeout", ARG_VALUE, timeout, F_EXEC),
	AGENTS_OPT("dry-run", ARG_FLAG, dry_run, F_EXEC),
	/* a value is never help: `--prompt --help` is a prompt */
	ARGSPEC_AT("help", 'h', ARG_FLAG, struct agents_cli, help, 0, 0),
	ARGSPEC_END,
};

const struct cmd_optset agents_optsets[] = {
	{ "list", specs, F_LIST },   { "show", specs, F_SHOW },
	{ "check", specs, F_CHECK }, { "exec", specs, F_EXEC },
	{ NULL, NULL, 0 },
};

struct verb {
	const char *name;
	unsigned flag;
	int (*fn)(const struct agents_opts *o);
	bool needs_name;
	size_t names; /* NAMEs it takes: 0 or 1 */
};

/*
 * Parses argv after the verb: options and NAME in any order, `--` ends
 * the options. Returns 0, or exits (0 after --help, else a usage error).
 */
static void parse_opts(int argc, const char **argv, const struct verb *vb,
		       struct agents_opts *o)
{
	char cmd[32];
	const struct argtable t = { .cmd = cmd,
				    .specs = specs,
				    .flags = ARGT_NO_REST,
				    .sub = vb->flag,
				    .max_pos = vb->names };
	struct agents_cli cli = { .o = *o };
	struct argres r;

	snprintf(cmd, sizeof(cmd), "agents %s", vb->name);
	if (argtable_parse_table(&t, argc, argv, &cli, &r) < 0)
		exit(AG_EXIT_USAGE);
	if (cli.help) {
		fputs(usage, stdout);
		exit(0);
	}
	*o = cli.o;
	if (r.pos_nr)
		o->name = r.pos[0];
	if (vb->needs_name && !o->name)
		die_code(AG_EXIT_USAGE, "agents %s: missing NAME (see 'agentic-git agents list')",
			 vb->name);
}

int agents_load_config(const struct agents_opts *o, struct agent_config *cfg)
{
	struct strbuf path = STRBUF_INIT, errs = STRBUF_INIT;
	int ret;

	if (o->config)
		strbuf_addstr(&path, o->config);
	else
		agent_config_default_path(&path);
	ret = agent_config_load(path.buf, o->config != NULL, cfg, &errs);
	if (ret < 0) {
		const char *line = errs.buf;
		while (*line) {
			const char *eol = strchrnul(line, '\n');
			error("%.*s", (int)(eol - line), line);
			line = *eol ? eol + 1 : eol;
		}
	}
	strbuf_release(&errs);
	strbuf_release(&path);
	return ret;
}

static const char *source_of(const struct agent_profile *p)
{
	if (!p->preset)
		return "custom";
	return p->configured ? "preset+config" : "preset";
}

static void json_strv(struct strbuf *sb, const struct strvec *v)
{
	strbuf_addch(sb, '[');
	for (size_t i = 0; i < v->nr; i++) {
		if (i)
			strbuf_addch(sb, ',');
		strbuf_add_json_str(sb, v->v[i]);
	}
	strbuf_addch(sb, ']');
}

static void json_opt_str(struct strbuf *sb, const char *key, const char *v)
{
	strbuf_addf(sb, ",\"%s\":", key);
	if (v)
		strbuf_add_json_str(sb, v);
	else
		strbuf_addstr(sb, "null");
}

/*
 * A profile's secrets (PRODUCT.md §7): where each is put under fs+api,
 * or that any other policy hands the agent the value itself.
 */
static void secrets_text(struct strbuf *sb, const struct agent_profile *p)
{
	bool api = p->sandbox == SANDBOX_FS_API;

	for (size_t i = 0; i < p->nr_secrets; i++) {
		const struct secret_rule *r = &p->secrets[i];
		struct strvec hosts = STRVEC_INIT;

		strbuf_addf(sb, "secret:     %s (", r->name);
		secret_rule_source(r, sb);
		strbuf_addstr(sb, r->optional ? ", when set)" : ")");
		if (!api) {
			strbuf_addf(
				sb,
				" EXPOSED: under sandbox '%s' the agent gets the value in its environment; 'sandbox: fs+api' keeps it outside\n",
				sandbox_policy_name(p->sandbox));
			continue;
		}
		agent_secret_hosts(r, NULL, &hosts);
		strbuf_addstr(sb, " for");
		for (size_t j = 0; j < hosts.nr; j++)
			strbuf_addf(sb, "%s %s", j ? "," : "", hosts.v[j]);
		strbuf_addch(sb, '\n');
		strvec_clear(&hosts);
	}
}

static void secrets_json(struct strbuf *sb, const struct agent_profile *p)
{
	strbuf_addstr(sb, ",\"secrets\":[");
	for (size_t i = 0; i < p->nr_secrets; i++) {
		const struct secret_rule *r = &p->secrets[i];
		struct strvec hosts = STRVEC_INIT;
		struct strbuf src = STRBUF_INIT;

		secret_rule_source(r, &src);
		agent_secret_hosts(r, NULL, &hosts);
		strbuf_addf(sb, "%s{\"name\":", i ? "," : "");
		strbuf_add_json_str(sb, r->name);
		strbuf_addstr(sb, ",\"from\":");
		strbuf_add_json_str(sb, src.buf);
		strbuf_addstr(sb, ",\"hosts\":");
		json_strv(sb, &hosts);
		strbuf_addf(sb, ",\"preset\":%s,\"exposed\":%s}",
			    r->optional ? "true" : "false",
			    p->sandbox == SANDBOX_FS_API ? "false" : "true");
		strvec_clear(&hosts);
		strbuf_release(&src);
	}
	strbuf_addch(sb, ']');
}

static void profile_json(struct strbuf *sb, const struct agent_profile *p,
			 bool is_default)
{
	strbuf_addstr(sb, "{\"name\":");
	strbuf_add_json_str(sb, p->name);
	json_opt_str(sb, "source", source_of(p));
	strbuf_addf(sb, ",\"default\":%s,\"pinned\":%s,\"command\":",
		    is_default ? "true" : "false", p->pinned ? "true" : "false");
	json_strv(sb, &p->command);
	strbuf_addstr(sb, ",\"model_args\":");
	json_strv(sb, &p->model_args);
	json_opt_str(sb, "model", p->model);
	json_opt_str(sb, "prompt_via", prompt_via_name(p->prompt_via));
	if (p->timeout > 0)
		strbuf_addf(sb, ",\"timeout\":%.3f", p->timeout);
	else
		strbuf_addstr(sb, ",\"timeout\":null");
	strbuf_addstr(sb, ",\"env\":");
	if (p->inherit_env)
		strbuf_addstr(sb, "null");
	else
		json_strv(sb, &p->env);
	json_opt_str(sb, "sandbox", sandbox_policy_name(p->sandbox));
	strbuf_addstr(sb, ",\"ro_binds\":");
	json_strv(sb, &p->ro_binds);
	strbuf_addstr(sb, ",\"allow_hosts\":");
	json_strv(sb, &p->allow_hosts);
	secrets_json(sb, p);
	json_opt_str(sb, "cache_dir", p->cache_dir);
	json_opt_str(sb, "where", p->where);
	json_opt_str(sb, "verified", p->preset ? p->preset->verified : NULL);
	strbuf_addch(sb, '}');
}

static const char *default_name(const struct agent_config *cfg)
{
	return cfg->default_agent ? cfg->default_agent : "claude";
}

static int agents_list(const struct agents_opts *o)
{
	struct agent_config cfg = AGENT_CONFIG_INIT;
	struct strbuf sb = STRBUF_INIT;

	if (agents_load_config(o, &cfg) < 0) {
		agent_config_release(&cfg);
		return 1;
	}
	if (o->json)
		strbuf_addch(&sb, '[');
	else
		strbuf_addf(&sb, "  %-12s %-14s %-9s %-10s %s\n", "NAME", "SOURCE",
			    "SANDBOX", "ENV", "BINARY");
	for (size_t i = 0; i < cfg.nr_profiles; i++) {
		const struct agent_profile *p = &cfg.profiles[i];
		bool dflt = !strcmp(p->name, default_name(&cfg));
		if (o->json) {
			if (i)
				strbuf_addch(&sb, ',');
			profile_json(&sb, p, dflt);
			continue;
		}
		strbuf_addf(&sb, "%c %-12s %-14s %-9s %-10s %s%s\n",
			    dflt ? '*' : ' ', p->name, source_of(p),
			    sandbox_policy_name(p->sandbox),
			    p->inherit_env ? "INHERIT" : "allowlist",
			    p->command.v[0], p->pinned ? "" : " (not found)");
	}
	if (o->json)
		strbuf_addstr(&sb, "]\n");
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
	agent_config_release(&cfg);
	return 0;
}

static void show_text(struct strbuf *sb, const struct agent_profile *p,
		      const struct agent_plan *pl, const char *planerr)
{
	strbuf_addf(sb, "profile:    %s (%s%s%s)\n", p->name, source_of(p),
		    p->where ? ", " : "", p->where ? p->where : "");
	strbuf_addf(sb, "binary:     %s%s\n", p->command.v[0],
		    p->pinned ? " (pinned)" : " (NOT FOUND in PATH)");
	strbuf_addstr(sb, "argv:      ");
	if (planerr) {
		strbuf_addf(sb, " (cannot plan: %s)\n", planerr);
	} else {
		for (size_t i = 0; i < pl->argv.nr; i++) {
			strbuf_addch(sb, ' ');
			strbuf_add_shell_quoted(sb, pl->argv.v[i]);
		}
		strbuf_addch(sb, '\n');
	}
	strbuf_addf(sb, "prompt via: %s\n", prompt_via_name(p->prompt_via));
	strbuf_addf(sb, "model:      %s\n",
		    pl && pl->model ? pl->model : "(none: the CLI's default)");
	if (p->timeout > 0)
		strbuf_addf(sb, "timeout:    %gs\n", p->timeout);
	else
		strbuf_addf(sb, "timeout:    %gs (default)\n", PLAN_DEFAULT_TIMEOUT);
	if (p->inherit_env) {
		strbuf_addstr(sb, "env:        INHERITS the whole environment\n");
	} else {
		strbuf_addstr(sb, "env:        safe base:");
		for (size_t i = 0; agent_env_safe_base[i]; i++)
			strbuf_addf(sb, " %s", agent_env_safe_base[i]);
		strbuf_addstr(sb, "\n            allowlist:");
		for (size_t i = 0; i < p->env.nr; i++)
			strbuf_addf(sb, " %s", p->env.v[i]);
		strbuf_addstr(sb, p->env.nr ? "\n" : " (none)\n");
	}
	strbuf_addf(sb, "sandbox:    %s\n", sandbox_policy_name(p->sandbox));
	for (size_t i = 0; i < p->ro_binds.nr; i++)
		strbuf_addf(sb, "ro_bind:    %s\n", p->ro_binds.v[i]);
	for (size_t i = 0; i < p->allow_hosts.nr; i++)
		strbuf_addf(sb, "allow_host: %s\n", p->allow_hosts.v[i]);
	if (p->cache_dir)
		strbuf_addf(sb, "cache_dir:  %s\n", p->cache_dir);
	secrets_text(sb, p);
	if (p->preset)
		strbuf_addf(sb, "flags:      %s\n", p->preset->verified);
}

#define INHERIT_WARNING                                                       \
	"agent '%s' has no env allowlist: it inherits your whole environment " \
	"(tokens, SSH agent, cloud credentials); add 'env: [...]' to its profile"

static int agents_show(const struct agents_opts *o)
{
	struct agent_config cfg = AGENT_CONFIG_INIT;
	struct plan_request rq = PLAN_REQUEST_INIT;
	struct agent_plan pl = AGENT_PLAN_INIT;
	struct strbuf sb = STRBUF_INIT, err = STRBUF_INIT;
	const struct agent_profile *p;
	int ret = 0;

	if (agents_load_config(o, &cfg) < 0) {
		agent_config_release(&cfg);
		return 1;
	}
	if (agent_config_resolve(&cfg, o->name, NULL, NULL, &p, &err) < 0) {
		error("%s", err.buf);
		ret = 1;
		goto out;
	}
	rq.profile = p;
	rq.prompt = "<prompt>";
	rq.model = o->model;
	/* As it would run: inside our sandbox when the profile asks for one. */
	rq.sandboxed = p->sandbox != SANDBOX_NONE;
	if (agent_plan_build(&rq, &pl, &err) < 0)
		ret = -1; /* still shown, with the reason */
	if (o->json) {
		strbuf_addstr(&sb, "{\"profile\":");
		profile_json(&sb, p, !strcmp(p->name, default_name(&cfg)));
		strbuf_addstr(&sb, ",\"argv\":");
		if (ret)
			strbuf_addstr(&sb, "null");
		else
			json_strv(&sb, &pl.argv);
		json_opt_str(&sb, "error", ret ? err.buf : NULL);
		strbuf_addstr(&sb, ",\"warning\":");
		if (p->inherit_env)
			strbuf_addf(&sb, "\"" INHERIT_WARNING "\"", p->name);
		else
			strbuf_addstr(&sb, "null");
		strbuf_addstr(&sb, "}\n");
	} else {
		show_text(&sb, p, ret ? NULL : &pl, ret ? err.buf : NULL);
		if (p->inherit_env)
			strbuf_addf(&sb, "WARNING: " INHERIT_WARNING "\n", p->name);
	}
	fputs(sb.buf, stdout);
	ret = 0;
out:
	agent_plan_release(&pl);
	strbuf_release(&sb);
	strbuf_release(&err);
	agent_config_release(&cfg);
	return ret;
}

static const struct verb verbs[] = {
	{ "list", F_LIST, agents_list, false, 0 },
	{ "show", F_SHOW, agents_show, true, 1 },
	{ "check", F_CHECK, agents_check, false, 1 },
	{ "exec", F_EXEC, agents_exec, true, 1 },
};

int cmd_agents(int argc, const char **argv)
{
	struct agents_opts o = { 0 };

	/* Only argv[1] or an option position is help: a --prompt value of
	 * "--help" is a prompt. */
	if (cmd_wants_help(argc < 2 ? argc : 2, argv, usage))
		return 0;
	if (argc < 2) {
		fputs(usage, stderr);
		return AG_EXIT_USAGE;
	}
	for (size_t i = 0; i < ARRAY_SIZE(verbs); i++) {
		if (strcmp(verbs[i].name, argv[1]))
			continue;
		parse_opts(argc - 1, argv + 1, &verbs[i], &o);
		return verbs[i].fn(&o);
	}
	error("agents: unknown verb '%s' (list, show, check, exec)", argv[1]);
	return AG_EXIT_USAGE;
}
