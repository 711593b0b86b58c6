/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <unistd.h>
#include "agents/plan.h"
#include "base/die.h"
#include "base/strbuf.h"
#include "cmd/dispatch-agent.h"

int dispatch_config_load(const char *path, struct agent_config *cfg)
{
	struct strbuf def = STRBUF_INIT, errs = STRBUF_INIT;
	int rc;

	if (!path) {
		agent_config_default_path(&def);
		path = def.buf;
	}
	rc = agent_config_load(path, def.len == 0, cfg, &errs);
	if (rc < 0) {
		for (const char *p = errs.buf; *p;) {
			const char *nl = strchrnul(p, '\n');
			if (nl > p)
				error("%.*s", (int)(nl - p), p);
			p = *nl ? nl + 1 : nl;
		}
	}
	strbuf_release(&def);
	strbuf_release(&errs);
	return rc < 0 ? -1 : 0;
}

/*
 * warn-run may downgrade the sandbox: the launch as planned without it
 * (agent_launch.have_plain), or why there is none (as root, a preset that
 * refuses to run unsandboxed).
 */
static void plan_plain(const struct plan_request *sandboxed,
		       struct agent_launch *out)
{
	struct plan_request rq = *sandboxed;
	struct agent_plan plan = AGENT_PLAN_INIT;
	struct strbuf err = STRBUF_INIT;

	rq.sandboxed = false;
	out->have_plain = true;
	if (agent_plan_build(&rq, &plan, &err) < 0) {
		strbuf_addf(&out->plain_refused,
			    "profile '%s' (sandbox_fallback: warn-run): %s",
			    rq.profile->name, err.buf);
	} else {
		strvec_pushv(&out->plain_argv, plan.argv.v);
		strvec_pushv(&out->plain_env, plan.env.v);
	}
	agent_plan_release(&plan);
	strbuf_release(&err);
}

int dispatch_agent_plan(const struct agent_config *cfg,
			const struct agent_choice *ch, const char *prompt,
			struct agent_launch *out)
{
	const struct agent_profile *p = NULL;
	struct strbuf err = STRBUF_INIT, slug = STRBUF_INIT;
	struct plan_request rq = PLAN_REQUEST_INIT;
	struct agent_plan plan = AGENT_PLAN_INIT;
	int rc = -1;

	if (ch->url && repo_slug_from_url(ch->url, &slug) < 0)
		strbuf_reset(&slug);
	if (agent_config_resolve(cfg, ch->profile, ch->repo,
				 slug.len ? slug.buf : NULL, &p, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	/* the caller wraps a sandboxed profile's agent itself
	 * (fleet/agent-sandbox.h), with the config's backend and fallback */
	out->prof = p;
	out->sandbox_backend = cfg->sandbox_backend;
	out->sandbox_fallback = cfg->sandbox_fallback;
	out->tls_ca_file = cfg->tls_ca_file;
	rq.profile = p;
	rq.prompt = prompt;
	rq.model = ch->model;
	rq.timeout = ch->timeout;
	rq.sandboxed = p->sandbox != SANDBOX_NONE;
	rq.as_root = geteuid() == 0;
	if (agent_plan_build(&rq, &plan, &err) < 0) {
		error("profile '%s': %s", p->name, err.buf);
		goto out;
	}
	strvec_pushv(&out->argv, plan.argv.v);
	strvec_pushv(&out->env, plan.env.v);
	out->env_inherit = plan.inherit_env;
	out->prompt_on_stdin = plan.use_stdin;
	out->timeout = plan.timeout < 1 ? 1 : (unsigned)plan.timeout;
	out->profile = p->name;
	if (rq.sandboxed && cfg->sandbox_fallback == SANDBOX_FALLBACK_WARN_RUN)
		plan_plain(&rq, out);
	rc = 0;
out:
	agent_plan_release(&plan);
	strbuf_release(&err);
	strbuf_release(&slug);
	return rc;
}
