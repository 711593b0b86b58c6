/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <string.h>
#include "agents/sandbox-probe.h"
#include "base/die.h"
#include "base/envvar.h"
#include "base/eventlog.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "cmd/run-profile.h"
#include "fleet/spool.h"
#include "fleet/workspace.h"

#define PROMPT_MAX (1024 * 1024)

extern char **environ;

void run_profile_init(struct run_profile *rp)
{
	memset(rp, 0, sizeof(*rp));
	strbuf_init(&rp->prompt, 0);
	rp->plan = (struct agent_plan)AGENT_PLAN_INIT;
	rp->sbp = (struct sandbox_plan)SANDBOX_PLAN_INIT;
	strvec_init(&rp->env);
	strvec_init(&rp->extra_ro);
}

void run_profile_release(struct run_profile *rp)
{
	agent_config_release(&rp->cfg);
	strbuf_release(&rp->prompt);
	agent_plan_release(&rp->plan);
	sandbox_plan_release(&rp->sbp);
	strvec_clear(&rp->env);
	strvec_clear(&rp->extra_ro);
	free(rp->cache);
	free(rp->tmp);
	free(rp->scratch_home);
	free(rp->spool);
	if (rp->stdin_path)
		unlink(rp->stdin_path);
	free(rp->stdin_path);
}

static int load_profile(struct session *s, const struct run_profile_opts *o,
			struct run_profile *rp, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, errs = STRBUF_INIT;
	int rc = 0;

	if (o->config)
		strbuf_addstr(&path, o->config);
	else
		strbuf_addf(&path, "%s/config.yaml", s->home);
	if (agent_config_load(path.buf, o->config != NULL, &rp->cfg, &errs) < 0) {
		strbuf_rtrim(&errs);
		strbuf_addf(err, "config refused; nothing was created:\n%s", errs.buf);
		rc = 1;
	} else if (agent_config_resolve(&rp->cfg, o->profile, s->source_repo,
					NULL, &rp->p, err) < 0) {
		rc = 1;
	}
	strbuf_release(&path);
	strbuf_release(&errs);
	return rc;
}

static int read_prompt(const struct run_profile_opts *o, struct run_profile *rp,
		       struct strbuf *err)
{
	if (!!o->prompt == !!o->prompt_file) {
		strbuf_addstr(err, "--profile needs exactly one of --prompt TEXT or --prompt-file FILE");
		return AG_EXIT_USAGE_RP;
	}
	if (o->prompt) {
		strbuf_addstr(&rp->prompt, o->prompt);
	} else if (read_file_bounded(o->prompt_file, PROMPT_MAX, RF_REGULAR,
				     &rp->prompt) < 0) {
		strbuf_addf(err, "cannot read prompt file '%s': %s", o->prompt_file,
			    errno == EFBIG ? "larger than 1 MiB" : strerror(errno));
		return 1;
	}
	if (!rp->prompt.len) {
		strbuf_addstr(err, "the prompt is empty");
		return 1;
	}
	return 0;
}

/* What the shim inside the sandbox needs to read. */
static void shim_binds(const struct session *s, struct run_profile *rp)
{
	struct strbuf objs = STRBUF_INIT;

	/* the agent's own binary (toolchains it needs: ro_binds) */
	strvec_push(&rp->extra_ro, rp->plan.argv.v[0]);
	strvec_push(&rp->extra_ro, self_exe());
	if (strcmp(shim_exe(), self_exe()))
		strvec_push(&rp->extra_ro, shim_exe());
	strvec_push(&rp->extra_ro, s->real_git);
	strvec_pushf(&rp->extra_ro, "%s/bin", s->home);
	strvec_pushf(&rp->extra_ro, "%s/hooks", s->home);
	strvec_pushf(&rp->extra_ro, "%s/runtime/%s", s->home, s->agent);
	strvec_pushf(&rp->extra_ro, "%s/.config-integrity-key", s->home);
	strbuf_addf(&objs, "%s/objects", s->common_dir);
	workspace_borrowed_stores(objs.buf, &rp->extra_ro);
	strbuf_release(&objs);
}

static int plan_sandbox(struct session *s, struct run_profile *rp,
			struct strbuf *err)
{
	const struct sandbox_caps none = { 0 };
	const struct sandbox_caps *caps;
	struct sandbox_request *rq = &rp->rq;
	const char *home = getenv("HOME");

	rp->cache = rp->p->cache_dir ? xstrdup(rp->p->cache_dir)
				     : xstrfmt("%s/cache/%s", s->home, s->agent);
	rp->tmp = xstrfmt("%s/tmp", rp->cache);
	rp->scratch_home = xstrfmt("%s/home", rp->cache);
	rp->spool = xstrfmt("%s/" SPOOL_NAME, rp->cache);
	/* the shim inside cannot reach the log: its records go to the spool */
	if (rp->p->sandbox != SANDBOX_NONE)
		strvec_pushf(&rp->env, EVENTS_SPOOL_ENV "=%s", rp->spool);
	shim_binds(s, rp);
	rq->policy = rp->p->sandbox;
	rq->backend = rp->cfg.sandbox_backend;
	rq->workspace = s->worktree;
	rq->home = home && *home ? home : "/root";
	rq->cache_dir = rp->cache;
	rq->tmp_dir = rp->tmp;
	rq->private_home = rp->scratch_home;
	rq->self_exe = self_exe();
	rq->ro_binds = rp->p->ro_binds.v;
	rq->ro_binds_nr = rp->p->ro_binds.nr;
	rq->extra_ro = rp->extra_ro.v;
	rq->extra_ro_nr = rp->extra_ro.nr;
	rq->env = rp->env.v;
	rq->env_nr = rp->env.nr;
	rq->argv = rp->plan.argv.v;
	rq->argc = rp->plan.argv.nr;
	caps = rq->policy == SANDBOX_NONE ? &none : sandbox_probe_for(rq->backend);
	if (sandbox_plan(rq, caps, &rp->sbp) != SANDBOX_REFUSED ||
	    sandbox_fallback(rq, rp->cfg.sandbox_fallback, s->agent, &rp->sbp) !=
		    SANDBOX_REFUSED) {
		rp->sandboxed = rp->sbp.verdict == SANDBOX_WRAPPED;
		return 0;
	}
	strbuf_addf(err, "profile '%s' requires sandbox '%s': %s; nothing was created (install bubblewrap with user namespaces, or run a kernel with Landlock and seccomp, or set 'sandbox_fallback: warn-run')",
		    rp->p->name, sandbox_policy_name(rq->policy), rp->sbp.reason.buf);
	return 1;
}

int run_profile_prepare(struct session *s, const struct run_profile_opts *o,
			struct run_profile *rp, struct strbuf *err)
{
	struct plan_request pr = PLAN_REQUEST_INIT;
	int rc;

	if ((rc = load_profile(s, o, rp, err)) || (rc = read_prompt(o, rp, err)))
		return rc == AG_EXIT_USAGE_RP ? 2 : rc;
	pr.profile = rp->p;
	pr.prompt = rp->prompt.buf;
	pr.model = o->model;
	pr.cwd = s->worktree;
	pr.sandboxed = rp->p->sandbox != SANDBOX_NONE;
	if (agent_plan_build(&pr, &rp->plan, err) < 0)
		return 1;
	session_child_env(s, rp->plan.inherit_env ? (const char *const *)environ
						 : rp->plan.env.v,
			  &rp->env);
	if (plan_sandbox(s, rp, err))
		return 1;
	s->private_ws = rp->sandboxed;
	return 0;
}

static void audit_launch(const struct session *s, const struct run_profile *rp)
{
	struct event ev = EVENT_INIT("agent_launch", s->agent, "run");
	struct strvec red = STRVEC_INIT, keys = STRVEC_INIT, all = STRVEC_INIT;

	strvec_pushv(&all, rp->sbp.argv.v);
	agent_redact_argv(&all, rp->prompt.buf, &red);
	for (size_t i = 0; i < rp->env.nr; i++) {
		const char *eq = strchr(rp->env.v[i], '=');
		char *k = xstrndup(rp->env.v[i], eq ? (size_t)(eq - rp->env.v[i])
						    : strlen(rp->env.v[i]));
		strvec_push(&keys, k);
		free(k);
	}
	event_add_str(&ev, "profile", rp->p->name);
	event_add_strv(&ev, "agent_argv", red.v, red.nr);
	if (rp->plan.inherit_env)
		event_add_null(&ev, "agent_env_keys");
	else
		event_add_strv(&ev, "agent_env_keys", keys.v, keys.nr);
	event_add_str(&ev, "sandbox", sandbox_policy_name(rp->p->sandbox));
	event_add_str(&ev, "sandbox_backend",
		      rp->sandboxed ? sandbox_backend_name(rp->sbp.backend) : "none");
	event_add_bool(&ev, "downgraded", rp->sbp.downgraded);
	event_add_str(&ev, "worktree", s->worktree);
	event_write(s->home, &ev);
	event_release(&ev);
	strvec_clear(&red);
	strvec_clear(&keys);
	strvec_clear(&all);
}

static int write_stdin(const struct session *s, struct run_profile *rp,
		       struct strbuf *err)
{
	if (!rp->plan.use_stdin)
		return 0;
	rp->stdin_path = xstrfmt("%s/runtime/%s/prompt.stdin", s->home, s->agent);
	if (write_file_atomic(rp->stdin_path, rp->plan.stdin_data.buf,
			      rp->plan.stdin_data.len, 0600) < 0) {
		strbuf_addf(err, "cannot write the prompt for stdin: %s",
			    strerror(errno));
		return 1;
	}
	return 0;
}

/* the sandboxed agent's own records (fleet/spool.h), after it exited */
static void import_spool(const struct session *s, const struct run_profile *rp)
{
	size_t rejected = 0;

	if (spool_import(s->home, rp->spool, s->agent, &rejected) < 0)
		warning("cannot import the sandbox's event spool '%s': %s",
			rp->spool, strerror(errno));
	if (rejected)
		warning("%zu malformed record(s) in the sandbox's event spool were dropped",
			rejected);
}

int run_profile_launch(struct session *s, struct run_profile *rp,
		       struct strbuf *err)
{
	int code;

	if (rp->sandboxed &&
	    (mkdir_p(rp->tmp, 0700) < 0 || mkdir_p(rp->scratch_home, 0700) < 0 ||
	     spool_create(rp->spool) < 0)) {
		strbuf_addf(err, "cannot create the cache dir '%s': %s", rp->cache,
			    strerror(errno));
		return 1;
	}
	if (rp->sbp.downgraded) {
		struct event ev = EVENT_INIT("sandbox_downgraded", s->agent, "run");
		fprintf(stderr, "agentic-git: warning: %s\n", rp->sbp.warning.buf);
		sandbox_downgrade_event(&rp->rq, &rp->sbp, &ev);
		event_write(s->home, &ev);
		event_release(&ev);
	}
	if (write_stdin(s, rp, err))
		return 1;
	audit_launch(s, rp);
	code = session_launch_io(s, rp->sbp.argv.v, rp->sbp.env.v,
				 rp->stdin_path, err);
	if (rp->sandboxed)
		import_spool(s, rp);
	if (!code && rp->sbp.downgraded)
		code = RUN_EXIT_ATTENTION;
	return code;
}
