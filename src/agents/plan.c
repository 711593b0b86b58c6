/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The invocation planner (plan.h). Pure: no I/O, no spawning, no printing.
 */
#include "base/common.h"
#include <errno.h>
#include "agents/plan.h"
#include "base/spawn.h"
#include "base/xalloc.h"

extern char **environ;

/* Linux MAX_ARG_STRLEN: the kernel's limit on one argv element. */
#define ARG_ELEMENT_MAX (32 * 4096)

const char *const agent_env_safe_base[] = {
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TMPDIR",
	"LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", NULL,
};

struct subst {
	const char *prompt;
	const char *model;	   /* NULL: none in effect */
	const char *agent_sandbox; /* NULL: leave the placeholder as is */
};

/*
 * Expands the placeholders of one template token in a single left-to-right
 * pass: substituted text is never scanned again, so a prompt that contains
 * "{prompt}" or "{model}" stays literal (invariant 1).
 */
static int expand_token(const char *tok, const struct subst *s,
			struct strbuf *out, struct strbuf *err)
{
	const char *p = tok;

	while (*p) {
		const char *rest;

		if (skip_prefix(p, "{prompt}", &rest)) {
			strbuf_addstr(out, s->prompt);
		} else if (skip_prefix(p, "{model}", &rest)) {
			if (!s->model) {
				strbuf_addstr(err, "the template uses '{model}' but no model is set (give --model or set 'model:')");
				return -1;
			}
			strbuf_addstr(out, s->model);
		} else if (s->agent_sandbox &&
			   skip_prefix(p, "{agent_sandbox}", &rest)) {
			strbuf_addstr(out, s->agent_sandbox);
		} else {
			strbuf_addch(out, *p);
			rest = p + 1;
		}
		p = rest;
	}
	return 0;
}

static int push_expanded(struct strvec *argv, const char *tok,
			 const struct subst *s, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = expand_token(tok, s, &sb, err);

	if (!ret)
		strvec_push(argv, sb.buf);
	strbuf_release(&sb);
	return ret;
}

static size_t end_of_options(const struct strvec *cmd)
{
	for (size_t i = 1; i < cmd->nr; i++)
		if (!strcmp(cmd->v[i], "--"))
			return i;
	return cmd->nr;
}

/* argv: pinned binary, command[1..], model_args before a bare "--". */
static int build_argv(const struct agent_profile *p, const struct subst *s,
		      struct strvec *argv, struct strbuf *err)
{
	size_t eoo = end_of_options(&p->command);

	strvec_push(argv, p->command.v[0]);
	for (size_t i = 1; i <= p->command.nr; i++) {
		if (i == eoo && s->model)
			for (size_t j = 0; j < p->model_args.nr; j++)
				if (push_expanded(argv, p->model_args.v[j], s,
						  err) < 0)
					return -1;
		if (i < p->command.nr &&
		    push_expanded(argv, p->command.v[i], s, err) < 0)
			return -1;
	}
	return 0;
}

static const char *env_lookup(const char *const *env, const char *name)
{
	size_t n = strlen(name);

	for (; env && *env; env++)
		if (!strncmp(*env, name, n) && (*env)[n] == '=')
			return *env;
	return NULL;
}

static bool already_has(const struct strvec *out, const char *name)
{
	return env_lookup(out->v, name) != NULL;
}

void agent_env_scope(const char *const *parent, const struct strvec *allow,
		     struct strvec *out)
{
	const char *const *env = parent ? parent : (const char *const *)environ;

	for (size_t i = 0; agent_env_safe_base[i]; i++) {
		const char *kv = env_lookup(env, agent_env_safe_base[i]);
		if (kv && !already_has(out, agent_env_safe_base[i]))
			strvec_push(out, kv);
	}
	for (size_t i = 0; allow && i < allow->nr; i++) {
		const char *kv = env_lookup(env, allow->v[i]);
		if (kv && !already_has(out, allow->v[i]))
			strvec_push(out, kv);
	}
}

/* Sets or replaces "K=V" in `env`. */
static void env_put(struct strvec *env, const char *kv)
{
	const char *eq = strchr(kv, '=');
	size_t n = eq ? (size_t)(eq - kv) : strlen(kv);

	for (size_t i = 0; i < env->nr; i++) {
		if (!strncmp(env->v[i], kv, n) && env->v[i][n] == '=') {
			free((char *)env->v[i]);
			env->v[i] = xstrdup(kv);
			return;
		}
	}
	strvec_push(env, kv);
}

static const char *model_in_effect(const struct plan_request *rq)
{
	if (rq->model && *rq->model)
		return rq->model;
	return rq->profile->model;
}

static void plan_stdin(const struct plan_request *rq, struct agent_plan *out)
{
	const struct agent_profile *p = rq->profile;

	if (p->prompt_via == PROMPT_VIA_STDIN) {
		out->use_stdin = true;
		strbuf_addstr(&out->stdin_data, rq->prompt);
		if (rq->input) {
			strbuf_addstr(&out->stdin_data, "\n\n");
			strbuf_addstr(&out->stdin_data, rq->input);
		}
	} else if (rq->input) {
		out->use_stdin = true;
		strbuf_addstr(&out->stdin_data, rq->input);
	}
}

static int check_request(const struct plan_request *rq, struct strbuf *err)
{
	const struct agent_profile *p = rq->profile;

	if (!p || !rq->prompt) {
		strbuf_addstr(err, "internal: a plan needs a profile and a prompt");
		return -1;
	}
	if (!p->command.nr) {
		strbuf_addf(err, "agent '%s' has no command", p->name);
		return -1;
	}
	if (!p->pinned || p->command.v[0][0] != '/') {
		strbuf_addf(err, "agent '%s': binary '%s' not found in PATH (install it, or set agents.%s.command to an absolute path)",
			    p->name, p->command.v[0], p->name);
		return -1;
	}
	if (p->prompt_via == PROMPT_VIA_ARG &&
	    strlen(rq->prompt) >= ARG_ELEMENT_MAX) {
		strbuf_addf(err, "agent '%s': the prompt is %zu bytes, more than one argument may hold (%d); use prompt_via: stdin",
			    p->name, strlen(rq->prompt), ARG_ELEMENT_MAX - 1);
		return -1;
	}
	if (rq->timeout < 0 || rq->timeout > CONFIG_MAX_TIMEOUT) {
		strbuf_addf(err, "timeout must be between 0 and %.0f seconds",
			    CONFIG_MAX_TIMEOUT);
		return -1;
	}
	return 0;
}

static bool argv_has(const struct strvec *argv, const char *arg)
{
	for (size_t i = 1; i < argv->nr; i++)
		if (!strcmp(argv->v[i], arg))
			return true;
	return false;
}

/* The value of `name` in the environment the agent will get, or NULL. */
static const char *plan_env_value(const struct plan_request *rq,
				  const struct agent_plan *out,
				  const char *name)
{
	const char *const *env =
	    out->inherit_env ? (rq->parent_env ? rq->parent_env
					       : (const char *const *)environ)
			     : (const char *const *)out->env.v;
	const char *kv =
	    env_lookup((const char *const *)out->env_extra.v, name);

	if (!kv)
		kv = env_lookup(env, name);
	return kv ? kv + strlen(name) + 1 : NULL;
}

/* Appends `v` as a TOML basic string; -1 when it cannot be one plainly. */
static int toml_string(struct strbuf *sb, const char *v)
{
	for (const char *c = v; *c; c++)
		if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20 ||
		    *c == 0x7f)
			return -1;
	strbuf_addf(sb, "\"%s\"", v);
	return 0;
}

int agent_writable_roots_arg(const struct agent_preset *pr,
			     const char *const *roots, struct strbuf *out,
			     struct strbuf *err)
{
	if (!pr || !pr->writable_roots_config || !roots || !roots[0])
		return 1;
	strbuf_addf(out, "%s=[", pr->writable_roots_config);
	for (size_t i = 0; roots[i]; i++) {
		if (i)
			strbuf_addch(out, ',');
		if (roots[i][0] != '/' || toml_string(out, roots[i]) < 0) {
			strbuf_addf(
				err,
				"agent '%s': the writable root '%s' is not an absolute path without quotes, backslashes or control characters",
				pr->name, roots[i]);
			return -1;
		}
	}
	strbuf_addch(out, ']');
	return 0;
}

/* Invariant 7: the endpoint where the CLI really reads it. */
static int plan_endpoint(const struct plan_request *rq, struct agent_plan *out,
			 struct strbuf *err)
{
	const struct agent_preset *pr = rq->profile->preset;
	const char *v = pr && pr->endpoint_env
			    ? plan_env_value(rq, out, pr->endpoint_env) : NULL;
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	if (v && *v) {
		strbuf_addf(&sb, "%s=", pr->endpoint_config);
		if (toml_string(&sb, v) < 0) {
			strbuf_addf(err, "agent '%s': %s holds a quote, a backslash or a control character",
				    rq->profile->name, pr->endpoint_env);
			rc = -1;
		} else {
			strvec_pushl(&out->argv, "-c", sb.buf, NULL);
		}
	}
	strbuf_release(&sb);
	return rc;
}

/* Invariant 6: what the agent is told of our sandbox, and root. */
static int plan_root(const struct plan_request *rq, struct agent_plan *out,
		     struct strbuf *err)
{
	const struct agent_preset *pr = rq->profile->preset;
	const char *kv = pr ? pr->sandboxed_env : NULL;
	struct strbuf name = STRBUF_INIT;
	bool told;

	if (!kv)
		return 0;
	if (rq->sandboxed) {
		if (out->inherit_env)
			strvec_push(&out->env_extra, kv);
		else
			env_put(&out->env, kv);
		return 0;
	}
	if (!rq->as_root || !pr->root_refused_flag ||
	    !argv_has(&out->argv, pr->root_refused_flag))
		return 0;
	strbuf_add(&name, kv, strcspn(kv, "="));
	told = plan_env_value(rq, out, name.buf) != NULL;
	if (!told)
		strbuf_addf(err, "agent '%s' cannot run as root outside a sandbox: %s refuses %s as root; give the profile 'sandbox: fs-only', or run as a normal user",
			    rq->profile->name, pr->name, pr->root_refused_flag);
	strbuf_release(&name);
	return told ? 0 : -1;
}

/* Invariant 8: under fs+api the CLI's own switch for non-essential traffic. */
static void plan_api_env(const struct plan_request *rq, struct agent_plan *out)
{
	const struct agent_preset *pr = rq->profile->preset;

	if (!pr || !pr->api_env || !rq->sandboxed ||
	    rq->profile->sandbox != SANDBOX_FS_API)
		return;
	for (size_t i = 0; pr->api_env[i]; i++) {
		if (out->inherit_env)
			strvec_push(&out->env_extra, pr->api_env[i]);
		else
			env_put(&out->env, pr->api_env[i]);
	}
}

int agent_plan_build(const struct plan_request *rq, struct agent_plan *out,
		     struct strbuf *err)
{
	const struct agent_profile *p = rq->profile;
	struct subst s;

	if (check_request(rq, err) < 0)
		return -1;
	for (size_t i = 0; rq->extra_env && rq->extra_env[i]; i++) {
		const char *eq = strchr(rq->extra_env[i], '=');
		if (!eq || eq == rq->extra_env[i]) {
			strbuf_addf(err, "internal: extra environment entry '%s' is not K=V",
				    rq->extra_env[i]);
			return -1;
		}
	}
	s.prompt = p->prompt_via == PROMPT_VIA_ARG ? rq->prompt : "";
	s.model = model_in_effect(rq);
	s.agent_sandbox = NULL;
	if (p->preset)
		s.agent_sandbox = rq->sandboxed ? p->preset->agent_sandbox_wrapped
						: p->preset->agent_sandbox_bare;
	if (build_argv(p, &s, &out->argv, err) < 0)
		return -1;
	out->profile = xstrdup(p->name);
	out->model = s.model ? xstrdup(s.model) : NULL;
	out->cwd = rq->cwd ? xstrdup(rq->cwd) : NULL;
	out->sandbox = p->sandbox;
	out->timeout = rq->timeout > 0 ? rq->timeout
		       : p->timeout > 0 ? p->timeout
					: PLAN_DEFAULT_TIMEOUT;
	out->prompt_len = strlen(rq->prompt);
	out->inherit_env = p->inherit_env;
	if (!p->inherit_env)
		agent_env_scope(rq->parent_env, &p->env, &out->env);
	for (size_t i = 0; rq->extra_env && rq->extra_env[i]; i++) {
		strvec_push(&out->env_extra, rq->extra_env[i]);
		if (!p->inherit_env)
			env_put(&out->env, rq->extra_env[i]);
	}
	if (plan_root(rq, out, err) < 0 || plan_endpoint(rq, out, err) < 0)
		return -1;
	plan_api_env(rq, out);
	plan_stdin(rq, out);
	return 0;
}

void agent_plan_release(struct agent_plan *plan)
{
	free(plan->profile);
	strvec_clear(&plan->argv);
	strbuf_release(&plan->stdin_data);
	strvec_clear(&plan->env);
	strvec_clear(&plan->env_extra);
	free(plan->model);
	free(plan->cwd);
	memset(plan, 0, sizeof(*plan));
	strvec_init(&plan->argv);
	strvec_init(&plan->env);
	strvec_init(&plan->env_extra);
	strbuf_init(&plan->stdin_data, 0);
}

void agent_redact_argv(const struct strvec *argv, const char *prompt,
		       struct strvec *out)
{
	size_t plen = prompt ? strlen(prompt) : 0;

	for (size_t i = 0; i < argv->nr; i++) {
		struct strbuf sb = STRBUF_INIT;
		const char *p = argv->v[i], *hit;

		while (plen && (hit = strstr(p, prompt))) {
			strbuf_add(&sb, p, (size_t)(hit - p));
			strbuf_addf(&sb, "<prompt:%zu chars>", plen);
			p = hit + plen;
		}
		strbuf_addstr(&sb, p);
		strvec_push(out, sb.buf);
		strbuf_release(&sb);
	}
}

void agent_plan_redact_argv(const struct agent_plan *plan, const char *prompt,
			    struct strvec *out)
{
	agent_redact_argv(&plan->argv, prompt, out);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void agent_plan_env_keys(const struct agent_plan *plan, struct strvec *out)
{
	const struct strvec *src = plan->inherit_env ? &plan->env_extra
						     : &plan->env;
	size_t first = out->nr;

	for (size_t i = 0; i < src->nr; i++) {
		const char *eq = strchr(src->v[i], '=');
		size_t n = eq ? (size_t)(eq - src->v[i]) : strlen(src->v[i]);
		char *name = xstrndup(src->v[i], n);
		strvec_push(out, name);
		free(name);
	}
	qsort(out->v + first, out->nr - first, sizeof(*out->v), cmp_str);
}

void agent_plan_to_child(const struct agent_plan *plan, struct child *c)
{
	strvec_pushv(&c->args, plan->argv.v);
	if (plan->inherit_env) {
		strvec_pushv(&c->env_set, plan->env_extra.v);
	} else {
		strvec_pushv(&c->env, plan->env.v);
		/*
		 * spawn.h treats an empty `env` as "inherit": an allowlist
		 * that matched nothing must still give an empty environment,
		 * so remove every inherited name instead (invariant 3).
		 */
		for (char **e = environ; !plan->env.nr && e && *e; e++) {
			const char *eq = strchr(*e, '=');
			char *name = xstrndup(*e, eq ? (size_t)(eq - *e)
						     : strlen(*e));
			strvec_push(&c->env_unset, name);
			free(name);
		}
	}
	c->dir = plan->cwd;
	if (plan->use_stdin) {
		c->in = plan->stdin_data.buf;
		c->in_len = plan->stdin_data.len;
	}
	c->new_pgroup = true;
}
