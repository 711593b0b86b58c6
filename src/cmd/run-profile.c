/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "base/die.h"
#include "base/envvar.h"
#include "base/eventlog.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "cmd/run-profile.h"
#include "git/gitcmd.h"
#include "fleet/agent-roots.h"
#include "fleet/agent-secrets.h"
#include "fleet/session-sync.h"

#define PROMPT_MAX (1024 * 1024)

extern char **environ;

void run_profile_init(struct run_profile *rp)
{
	memset(rp, 0, sizeof(*rp));
	strbuf_init(&rp->prompt, 0);
	strbuf_init(&rp->net_warning, 0);
	rp->secrets = (struct secret_table)SECRET_TABLE_INIT;
	rp->plan = (struct agent_plan)AGENT_PLAN_INIT;
	rp->box = (struct agent_sandbox)AGENT_SANDBOX_INIT;
	strvec_init(&rp->env);
}

void run_profile_release(struct run_profile *rp)
{
	agent_config_release(&rp->cfg);
	strbuf_release(&rp->prompt);
	strbuf_release(&rp->net_warning);
	agent_plan_release(&rp->plan);
	agent_sandbox_release(&rp->box);
	strvec_clear(&rp->env);
	secret_table_wipe(&rp->secrets);
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

static int plan_sandbox(struct session *s, struct run_profile *rp,
			struct strbuf *err)
{
	struct strbuf objs = STRBUF_INIT;
	struct agent_sandbox_spec sp = {
		.home = s->home,
		.agent = s->agent,
		.profile = rp->p,
		.backend = rp->cfg.sandbox_backend,
		.fallback = rp->cfg.sandbox_fallback,
		.workspace = s->worktree,
		.real_git = s->real_git,
		.with_hooks = true,
		.argv = (const char *const *)rp->plan.argv.v,
		.argc = rp->plan.argv.nr,
		.env = (const char *const *)rp->env.v,
		.env_nr = rp->env.nr,
		.secrets = &rp->secrets,
		.tls_ca_file = rp->cfg.tls_ca_file,
	};
	int rc;

	strbuf_addf(&objs, "%s/objects", s->common_dir);
	sp.objects = objs.buf;
	rc = agent_sandbox_plan(&sp, &rp->box, err) < 0 ? 1 : 0;
	strbuf_release(&objs);
	return rc;
}

/* "Name <email> <time> <tz>", as `git var GIT_*_IDENT` prints it. */
static bool parse_ident(const char *id, struct strbuf *name,
			struct strbuf *email)
{
	const char *gt = strrchr(id, '>');
	const char *lt = gt ? memrchr(id, '<', (size_t)(gt - id)) : NULL;

	if (!lt)
		return false;
	strbuf_add(name, id, (size_t)(lt - id));
	strbuf_trim(name);
	strbuf_add(email, lt + 1, (size_t)(gt - lt - 1));
	return name->len && email->len && !strchr(email->buf, '\n') &&
	       !strchr(name->buf, '\n');
}

/*
 * The commit identity git resolves in the operator's clone, from config
 * or the GIT_AUTHOR_* and GIT_COMMITTER_* variables, passed in by name
 * and email: a profile's allowlist drops the variables and a sandbox's
 * HOME is empty.
 * Without one (git var fails) the agent's git decides, as outside.
 */
static void pass_identity(const struct session *s, struct strvec *env)
{
	static const char *const roles[] = { "AUTHOR", "COMMITTER" };

	for (size_t i = 0; i < ARRAY_SIZE(roles); i++) {
		struct strbuf var = STRBUF_INIT, out = STRBUF_INIT;
		struct strbuf name = STRBUF_INIT, email = STRBUF_INIT;

		strbuf_addf(&var, "GIT_%s_IDENT", roles[i]);
		if (gitcmd_capture(s->real_git, s->source_repo, &out, NULL,
				   "var", var.buf, NULL))
			strbuf_reset(&out);
		gitcmd_chomp(&out);
		if (parse_ident(out.buf, &name, &email)) {
			strbuf_reset(&var);
			strbuf_addf(&var, "GIT_%s_NAME", roles[i]);
			strvec_setenv(env, var.buf, name.buf);
			strbuf_reset(&var);
			strbuf_addf(&var, "GIT_%s_EMAIL", roles[i]);
			strvec_setenv(env, var.buf, email.buf);
		}
		strbuf_release(&var);
		strbuf_release(&out);
		strbuf_release(&name);
		strbuf_release(&email);
	}
}

/*
 * The profile's secrets, read once for the session, before anything is
 * created (fleet/agent-secrets.h): {repo} is the operator's clone, {head}
 * the session's branch, {base} its base, {key} the agent.
 */
static int read_secrets(const struct session *s, struct run_profile *rp,
			struct strbuf *err)
{
	struct secret_context ctx = { .repo = s->source_repo,
				      .head = s->branch,
				      .base = s->base,
				      .key = s->agent };

	if (agent_secrets_resolve(rp->p, &ctx, &rp->secrets, err) < 0) {
		strbuf_addstr(err, "; nothing was created");
		return 1;
	}
	return 0;
}

/* The agent's argv and env, then the sandbox around them. */
static int plan_agent(struct session *s, const struct plan_request *pr,
		      struct run_profile *rp, struct strbuf *err)
{
	if (agent_plan_build(pr, &rp->plan, err) < 0)
		return 1;
	session_child_env(s,
			  rp->plan.inherit_env ? (const char *const *)environ
					       : rp->plan.env.v,
			  &rp->env);
	pass_identity(s, &rp->env);
	return plan_sandbox(s, rp, err);
}

int run_profile_prepare(struct session *s, const struct run_profile_opts *o,
			struct run_profile *rp, struct strbuf *err)
{
	struct plan_request pr = PLAN_REQUEST_INIT;
	int rc;

	if ((rc = load_profile(s, o, rp, err)) || (rc = read_prompt(o, rp, err)))
		return rc == AG_EXIT_USAGE_RP ? 2 : rc;
	if ((rc = read_secrets(s, rp, err)))
		return rc;
	pr.profile = rp->p;
	pr.prompt = rp->prompt.buf;
	pr.model = o->model;
	pr.cwd = s->worktree;
	pr.sandboxed = rp->p->sandbox != SANDBOX_NONE;
	pr.as_root = geteuid() == 0;
	if ((rc = plan_agent(s, &pr, rp, err)))
		return rc;
	if (rp->box.plan.downgraded) {
		/* warn-run: the agent is not told of a sandbox it lacks
		 * (plan.h invariant 6), so plan it again as a plain run */
		pr.sandboxed = false;
		agent_plan_release(&rp->plan);
		agent_sandbox_release(&rp->box);
		rp->box = (struct agent_sandbox)AGENT_SANDBOX_INIT;
		strvec_clear(&rp->env);
		if ((rc = plan_agent(s, &pr, rp, err)))
			return rc;
	}
	s->private_ws = rp->box.sandboxed;
	/* invariant 4: the policy in effect, not the one asked for */
	preset_network_warning(rp->p->preset, rp->p->name,
			       rp->box.sandboxed ? rp->box.rq.policy : SANDBOX_NONE,
			       &rp->net_warning);
	return 0;
}

static void audit_launch(const struct session *s, const struct run_profile *rp)
{
	struct event ev = EVENT_INIT("agent_launch", s->agent, "run");
	struct strvec red = STRVEC_INIT, keys = STRVEC_INIT, all = STRVEC_INIT;

	agent_sandbox_redacted_argv(&rp->box, &all);
	agent_redact_argv(&all, rp->prompt.buf, &red);
	for (size_t i = 0; i < rp->box.env.nr; i++) {
		const char *e = rp->box.env.v[i], *eq = strchr(e, '=');
		char *k = xstrndup(e, eq ? (size_t)(eq - e) : strlen(e));
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
		      rp->box.sandboxed ? sandbox_backend_name(rp->box.plan.backend)
					: "none");
	event_add_bool(&ev, "downgraded", rp->box.plan.downgraded);
	if (rp->net_warning.len)
		event_add_str(&ev, "network_warning", rp->net_warning.buf);
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

/*
 * After a sandboxed agent: its workspace's config is provisioning's again
 * and the branch and snapshots are in the operator's clone (session-sync.h).
 */
static int bring_back(const struct session *s)
{
	struct session_ws w = { .home = s->home, .git = s->real_git,
				.agent = s->agent, .branch = s->branch,
				.workspace = s->worktree, .repo = s->source_repo };

	/* no config of ours there: leave the workspace as it is */
	return session_ws_disarm(&w, "run") < 0 || session_ws_sync(&w, "run") < 0
		       ? -1 : 0;
}

int run_profile_launch(struct session *s, struct run_profile *rp,
		       struct session_limits *lim, struct strbuf *err)
{
	struct session_io io = { .fd3 = -1 };
	int code;

	if (agent_sandbox_mkdirs(&rp->box, err) < 0 ||
	    agent_own_sandbox_roots(&rp->box, rp->p->preset, err) < 0)
		return 1;
	agent_sandbox_downgrade_record(&rp->box, "run");
	if (write_stdin(s, rp, err))
		return 1;
	if (rp->net_warning.len)
		warning("%s", rp->net_warning.buf);
	audit_launch(s, rp);
	io.stdin_path = rp->stdin_path;
	io.fd3 = rp->box.secrets_fd;
	code = session_launch_io(s, (const char *const *)rp->box.plan.argv.v,
				 (const char *const *)rp->box.plan.env.v, &io,
				 lim, err);
	agent_sandbox_import_spool(&rp->box);
	if (s->private_ws && bring_back(s) < 0 && !code)
		code = 1;
	if (!code && rp->box.plan.downgraded)
		code = RUN_EXIT_ATTENTION;
	return code;
}
