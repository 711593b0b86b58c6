/* SPDX-License-Identifier: Apache-2.0 */
/* One way to put an agent in its sandbox; see agent-sandbox.h. */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>
#include "agentic-git/core.h"
#include "agents/sandbox-probe.h"
#include "base/die.h"
#include "base/eventlog.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "fleet/agent-sandbox.h"
#include "fleet/agent-secrets.h"
#include "fleet/sandbox-build.h"
#include "fleet/sandbox-home.h"
#include "fleet/spool.h"
#include "fleet/workspace.h"
#include "git/hooks.h"

extern char **environ;

/* Invariant 10: each secret's placeholder (injected) or its value. */
static void secrets_env(const struct secret_table *t, bool inject,
			struct strvec *env)
{
	for (size_t i = 0; t && i < t->nr; i++) {
		/* a preset's key outside fs+api: the allowlist decides, as
		 * before (values are only added for configured secrets) */
		if (!inject && t->v[i].preset)
			continue;
		strvec_setenv(env, t->v[i].name,
			      inject ? t->v[i].placeholder : t->v[i].value);
	}
}

/* Invariant 10: the proxy's side of the secrets, or none when the plan
 * does not wrap the agent in fs+api after all (then the values). */
static void plan_secrets(const struct agent_sandbox_spec *sp,
			 struct agent_sandbox *as)
{
	const struct agent_profile *p = sp->profile;

	if (!as->net_dir)
		return;
	as->inject = true;
	as->secrets = sp->secrets;
	as->ca_bundle = xstrfmt("%s/%s-%ld.ca.pem", as->net_dir,
				sp->agent ? sp->agent : "run", (long)getpid());
	as->tls_ca_file = sp->tls_ca_file ? xstrdup(sp->tls_ca_file) : NULL;
	as->ca_env = p->preset ? p->preset->ca_env : NULL;
	sandbox_build_request(as);
}

static void unplan_secrets(const struct agent_sandbox_spec *sp,
			   struct agent_sandbox *as)
{
	if (!as->inject || as->plan.verdict == SANDBOX_WRAPPED)
		return;
	as->inject = false;
	secrets_env(sp->secrets, false, &as->env);
	sandbox_build_request(as);
	sandbox_plan_release(&as->plan);
	as->plan = (struct sandbox_plan)SANDBOX_PLAN_INIT;
	sandbox_build_plan(&as->rq, sp->fallback, sp->agent, &as->plan);
}

int agent_sandbox_plan(const struct agent_sandbox_spec *sp,
		       struct agent_sandbox *as, struct strbuf *err)
{
	bool inject = sp->profile->sandbox == SANDBOX_FS_API && sp->secrets &&
		      sp->secrets->nr;
	const struct agent_profile *p = sp->profile;
	struct strvec env = STRVEC_INIT;
	struct strbuf why = STRBUF_INIT;
	char *cache = p->cache_dir ? xstrdup(p->cache_dir)
				   : xstrfmt("%s/cache/%s", sp->home,
					     sp->cache_name ? sp->cache_name
							    : sp->agent);
	char *hint = xstrfmt("agents.%s.allow_hosts in config.yaml", p->name);
	struct sandbox_build_spec s = {
		.policy = p->sandbox,
		.backend = sp->backend,
		.state = sp->home,
		.agent = sp->agent,
		.sock_name = sp->agent,
		.workspace = sp->workspace,
		.cache = cache,
		.scratch = sp->scratch,
		.guard = sp->bare ? SANDBOX_GUARD_BARE : SANDBOX_GUARD_SESSION,
		.toolchain = true,
		.with_hooks = sp->with_hooks,
		.net_stats = true,
		.real_git = sp->real_git,
		.objects = sp->objects,
		.allow_hint = hint,
		.ro_binds = (const char *const *)p->ro_binds.v,
		.ro_binds_nr = p->ro_binds.nr,
		.allow_hosts = (const char *const *)p->allow_hosts.v,
		.allow_hosts_nr = p->allow_hosts.nr,
		.argv = sp->argv,
		.argc = sp->argc,
	};
	int rc;

	as->fallback = sp->fallback;
	as->session = !sp->bare;
	/* invariant 6: a shared cache gets one spool per agent */
	as->spool = sp->scratch ? xstrfmt("%s/%s." SPOOL_NAME, cache, sp->agent)
				: xstrfmt("%s/" SPOOL_NAME, cache);
	strvec_pushn(&env, sp->env, sp->env_nr);
	if (p->sandbox != SANDBOX_NONE)
		strvec_pushf(&env, EVENTS_SPOOL_ENV "=%s", as->spool);
	if (p->sandbox != SANDBOX_NONE && p->preset && p->preset->config_env) {
		/* invariant 8 */
		as->config_dir = xstrfmt("%s/%s", cache, p->preset->config_dir);
		strvec_setenv(&env, p->preset->config_env, as->config_dir);
	}
	secrets_env(sp->secrets, inject, &env);
	s.env = env.v;
	s.env_nr = env.nr;
	rc = sandbox_build(&s, as, &why);
	/* the home never inside (fleet/sandbox-home.h) */
	if (!rc && sandbox_home_guard(as, &why) < 0) {
		free(cache);
		free(hint);
		strvec_clear(&env);
		strbuf_addf(err, "profile '%s': %s; nothing was created",
			    p->name, why.buf);
		strbuf_release(&why);
		return -1;
	}
	free(cache);
	free(hint);
	strvec_clear(&env);
	if (!rc && inject)
		plan_secrets(sp, as);
	if (!rc && sandbox_build_plan(&as->rq, sp->fallback, sp->agent,
				      &as->plan) != SANDBOX_REFUSED) {
		unplan_secrets(sp, as);
		as->sandboxed = as->plan.verdict == SANDBOX_WRAPPED;
		strbuf_release(&why);
		return 0;
	}
	if (!rc)
		strbuf_addbuf(&why, &as->plan.reason);
	strbuf_addf(
		err,
		"profile '%s' requires sandbox '%s': %s; nothing was created",
		p->name, sandbox_policy_name(p->sandbox), why.buf);
	/* a refusal about the request has its own way out, in `why` */
	if (rc || !as->plan.bad_input)
		strbuf_addstr(err, " (install bubblewrap with user namespaces, "
				   "or run a kernel with Landlock and seccomp, "
				   "or set 'sandbox_fallback: warn-run')");
	strbuf_release(&why);
	return -1;
}

int agent_sandbox_mkdirs(struct agent_sandbox *as, struct strbuf *err)
{
	if (!as->sandboxed)
		return 0;
	if (sandbox_build_mkdirs(as, err) < 0)
		return -1;
	if (as->inject &&
	    (as->secrets_fd = agent_secrets_fd(as->secrets)) < 0) {
		strbuf_addf(err, "cannot pass the secrets to the proxy: %s",
			    strerror(errno));
		return -1;
	}
	if (spool_create(as->spool) < 0) {
		strbuf_addf(err, "cannot create the event spool '%s': %s",
			    as->spool, strerror(errno));
		return -1;
	}
	/* invariant 2: the shim inside verifies with a key of this session */
	if (as->session && ag_sandbox_key_issue(as->home, as->agent) < 0) {
		strbuf_addf(err, "cannot issue the sandbox key in '%s/runtime/%s': %s",
			    as->home, as->agent, strerror(errno));
		return -1;
	}
	return 0;
}

void agent_sandbox_import_spool(const struct agent_sandbox *as)
{
	size_t rejected = 0;

	if (!as->sandboxed && !as->own_roots)
		return;
	if (spool_import(as->home, as->spool, as->agent, as->workspace,
			 &rejected) < 0)
		warning("cannot import the sandbox's event spool '%s': %s",
			as->spool, strerror(errno));
	if (rejected)
		warning("%zu malformed record(s) in the sandbox's event spool were dropped",
			rejected);
	/* invariant 9: a proxy killed with its agent leaves its socket */
	if (as->proxy_sock)
		unlink(as->proxy_sock);
}

int agent_sandbox_rewrap(const struct agent_sandbox *as,
			 const char *const *argv, const char *const *env,
			 size_t env_nr, struct sandbox_plan *out,
			 struct strbuf *err)
{
	struct sandbox_request rq = as->rq;
	struct strvec ro = STRVEC_INIT;
	enum sandbox_verdict v;
	int rc = 0;

	if (!argv || !argv[0] || argv[0][0] != '/') {
		strbuf_addstr(err, "the command must be an absolute path");
		return -1;
	}
	strvec_pushv(&ro, as->extra_ro.v);
	strvec_push(&ro, argv[0]);
	rq.extra_ro = ro.v;
	rq.extra_ro_nr = ro.nr;
	rq.argv = argv;
	for (rq.argc = 0; argv[rq.argc]; rq.argc++)
		;
	rq.env = env;
	rq.env_nr = env_nr;
	if (as->sandboxed) {
		/* the same backend the agent had, never another one */
		rq.backend = as->plan.backend;
		v = sandbox_build_plan(&rq, SANDBOX_FALLBACK_REFUSE, as->agent,
				       out);
	} else {
		/* plain (policy none) or downgraded like the agent */
		rq.policy = SANDBOX_NONE;
		v = sandbox_build_plan(&rq, SANDBOX_FALLBACK_REFUSE, as->agent,
				       out);
	}
	if (v == SANDBOX_REFUSED || (as->sandboxed && v != SANDBOX_WRAPPED)) {
		strbuf_addf(err, "cannot run it in the agent's sandbox: %s",
			    out->reason.len ? out->reason.buf : "refused");
		rc = -1;
	}
	strvec_clear(&ro);
	return rc;
}

void agent_sandbox_downgrade_record(const struct agent_sandbox *as,
				    const char *subcommand)
{
	struct event ev =
	    EVENT_INIT("sandbox_downgraded", as->agent, subcommand);

	if (!as->plan.downgraded)
		return;
	warning("%s", as->plan.warning.buf);
	sandbox_downgrade_event(&as->rq, &as->plan, &ev);
	event_write(as->home, &ev);
	event_release(&ev);
}

int agent_sandbox_net_stats(const struct agent_sandbox *as,
			    unsigned long *allowed, unsigned long *denied,
			    struct strvec *denied_hosts)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *j, *hosts;
	int rc = -1;

	*allowed = *denied = 0;
	if (!as->sandboxed || !as->net_stats ||
	    read_small_file(as->net_stats, 64 * 1024, &sb) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	j = json_loadb(sb.buf, sb.len, 0, NULL);
	if (json_is_object(j)) {
		*allowed = (unsigned long)json_integer_value(
			json_object_get(j, "net_allow"));
		*denied = (unsigned long)json_integer_value(
			json_object_get(j, "net_deny"));
		hosts = json_object_get(j, "denied_hosts");
		for (size_t i = 0;
		     json_is_array(hosts) && i < json_array_size(hosts); i++)
			if (json_is_string(json_array_get(hosts, i)))
				strvec_push(denied_hosts,
					    json_string_value(
						    json_array_get(hosts, i)));
		rc = 0;
	}
	json_decref(j);
	strbuf_release(&sb);
	return rc;
}

void agent_sandbox_describe(const struct agent_sandbox *as, struct strbuf *out)
{
	if (as->sandboxed)
		strbuf_addf(out, "%s (%s)", sandbox_policy_name(as->rq.policy),
			    sandbox_backend_name(as->plan.backend));
	else if (as->plan.downgraded)
		strbuf_addstr(out, "none (warn-run)");
	else
		strbuf_addstr(out, "none");
}

void agent_sandbox_redacted_argv(const struct agent_sandbox *as,
				 struct strvec *out)
{
	const struct strvec *a = &as->plan.argv;

	for (size_t i = 0; i < a->nr; i++) {
		bool value = as->plan.backend == SANDBOX_BACKEND_BWRAP &&
			     i >= 2 && i < as->plan.prefix_nr &&
			     !strcmp(a->v[i - 2], "--setenv");
		strvec_push(out, value ? "<redacted>" : a->v[i]);
	}
}

/* The cage's quarantine, when nothing went there (rmdir: only empty
 * directories, never through a link); a launch made once more (dispatch's
 * second run) finds it until the sandbox is released. */
static void drop_empty_quarantine(const struct agent_sandbox *as)
{
	char *up, *agent_dir;

	if (!as->quarantine || rmdir(as->quarantine))
		return;
	up = path_dirname(as->quarantine);
	agent_dir = path_dirname(up);
	if (!rmdir(up))
		rmdir(agent_dir);
	free(up);
	free(agent_dir);
}

void agent_sandbox_release(struct agent_sandbox *as)
{
	sandbox_plan_release(&as->plan);
	strvec_clear(&as->argv);
	strvec_clear(&as->env);
	strvec_clear(&as->extra_ro);
	strvec_clear(&as->ro_binds);
	strvec_clear(&as->masks);
	free(as->workspace);
	free(as->user_home);
	as->user_home = NULL;
	free(as->cache);
	free(as->tmp);
	free(as->private_home);
	drop_empty_quarantine(as);
	free(as->quarantine);
	as->quarantine = NULL;
	free(as->home);
	free(as->agent);
	free(as->spool);
	free(as->config_dir);
	free(as->net_dir);
	free(as->proxy_sock);
	free(as->net_stats);
	free(as->allow_hint);
	as->net_dir = as->proxy_sock = as->net_stats = as->allow_hint = NULL;
	strvec_clear(&as->allow_hosts);
	free(as->real_git);
	as->real_git = NULL;
	strvec_clear(&as->git_paths);
	if (as->secrets_fd >= 0)
		close(as->secrets_fd);
	as->secrets_fd = -1;
	if (as->ca_bundle)
		unlink(as->ca_bundle);
	free(as->ca_bundle);
	free(as->tls_ca_file);
	as->ca_bundle = as->tls_ca_file = NULL;
	as->inject = false;
	as->secrets = NULL;
	as->spool = as->config_dir = NULL;
	as->workspace = as->cache = as->tmp = as->private_home = NULL;
	as->home = as->agent = NULL;
	as->sandboxed = false;
}

bool agent_env_dropped(const char *e)
{
	static const char *const drop[] = {
		"PATH",
		"SSH_AUTH_SOCK",
		"SSH_ASKPASS",
		"GIT_ASKPASS",
		"GIT_SSH",
		"GIT_SSH_COMMAND",
		"GH_TOKEN",
		"GITHUB_TOKEN",
		"GITLAB_TOKEN",
		"GIT_DIR",
		"GIT_WORK_TREE",
		"GIT_INDEX_FILE",
		"GIT_COMMON_DIR",
		"GIT_OBJECT_DIRECTORY",
		"GIT_ALTERNATE_OBJECT_DIRECTORIES",
		"GIT_CONFIG_PARAMETERS",
		"GIT_CONFIG_COUNT",
		"AGENTIC_GIT_BYPASS",
		"AGENTIC_GIT_BYPASS_AGENT",
		"AGENTIC_GIT_BYPASS_UNTIL",
		"AGEND_GIT_BYPASS",
		"AGEND_GIT_BYPASS_AGENT",
		"AGEND_GIT_BYPASS_UNTIL",
		"AGENTIC_GIT_AGENT",
		"AGEND_INSTANCE_NAME",
		"AGENTIC_GIT_HOME",
		"AGEND_HOME",
		"AGENTIC_GIT_SNAPSHOTS",
		"AGENTIC_GIT_POOL_JOB",
		"AGENTIC_GIT_QUARANTINE",
	};
	for (size_t i = 0; i < ARRAY_SIZE(drop); i++) {
		size_t n = strlen(drop[i]);
		if (!strncmp(e, drop[i], n) && e[n] == '=')
			return true;
	}
	return starts_with(e, "AGENTIC_GIT_TARGET_") ||
	       starts_with(e, "GIT_CONFIG_KEY_") || starts_with(e, "GIT_CONFIG_VALUE_");
}

void agent_env_filtered(bool inherit, const struct strvec *extra,
			struct strvec *out)
{
	for (char **e = environ; inherit && e && *e; e++)
		if (!agent_env_dropped(*e))
			strvec_push(out, *e);
	/* A profile's allowlist never brings credentials or our own names. */
	for (size_t i = 0; i < extra->nr; i++)
		if (!agent_env_dropped(extra->v[i]))
			strvec_push(out, extra->v[i]);
}
