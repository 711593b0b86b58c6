/* SPDX-License-Identifier: Apache-2.0 */
/* The per-target lifecycle; see dispatch.h for the invariants. */
#include "base/common.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include "agentic-git/core.h"
#include "base/die.h"
#include "base/fileio.h"
#include "base/inert.h"
#include "base/path.h"
#include "base/timefmt.h"
#include "base/xalloc.h"
#include "fleet/agent-roots.h"
#include "fleet/agent-secrets.h"
#include "fleet/dispatch.h"
#include "fleet/session-write.h"
#include "git/gitcmd.h"
#include "git/hooks.h"
#include "git/refs-files.h"

#define VERDICT_TAIL 65536   /* bytes of stdout scanned for the verdict */
#define ESCALATION_MAX (1 << 20)

void agent_launch_init(struct agent_launch *l)
{
	memset(l, 0, sizeof(*l));
	strvec_init(&l->argv);
	strvec_init(&l->env);
	strvec_init(&l->plain_argv);
	strvec_init(&l->plain_env);
	strbuf_init(&l->plain_refused, 0);
}

void agent_launch_release(struct agent_launch *l)
{
	strvec_clear(&l->argv);
	strvec_clear(&l->env);
	strvec_clear(&l->plain_argv);
	strvec_clear(&l->plain_env);
	strbuf_release(&l->plain_refused);
}

int agent_launch_unsandboxed(struct agent_launch *l, struct strbuf *err)
{
	if (!l->have_plain)
		return 0;
	if (l->plain_refused.len) {
		strbuf_addbuf(err, &l->plain_refused);
		return -1;
	}
	strvec_clear(&l->argv);
	strvec_pushv(&l->argv, l->plain_argv.v);
	strvec_clear(&l->env);
	strvec_pushv(&l->env, l->plain_env.v);
	l->have_plain = false;
	return 0;
}

void dispatch_target_release(struct dispatch_target *d)
{
	strbuf_release(&d->prompt);
	agent_launch_release(&d->launch);
	workspace_release(&d->ws);
	strbuf_release(&d->refs_before);
	agent_sandbox_release(&d->box);
	strbuf_release(&d->sandbox_desc);
	free(d->scratch);
	run_record_release(&d->rec);
	secret_table_wipe(&d->secrets);
	workspace_source_release(&d->src);
	free(d->objects);
}

static void build_env(const struct dispatch_run *run,
		      const struct dispatch_target *d, struct strvec *env)
{
	const char *path = getenv("PATH");

	agent_env_filtered(d->launch.env_inherit, &d->launch.env, env);
	strvec_pushf(env, "PATH=%s/bin:%s", run->home, path ? path : "/usr/bin:/bin");
	strvec_pushf(env, "AGENTIC_GIT_HOME=%s", run->home);
	strvec_pushf(env, "AGENTIC_GIT_AGENT=%s", d->agent);
	if (gitcmd_real_git())
		strvec_pushf(env, "AGENTIC_GIT_REAL_GIT=%s", gitcmd_real_git());
	strvec_push(env, "AGENTIC_GIT_SNAPSHOTS=1");
	strvec_push(env, "GIT_TERMINAL_PROMPT=0");
	strvec_pushf(env, "AGENTIC_GIT_TARGET_KEY=%s", d->t->key);
	strvec_pushf(env, "AGENTIC_GIT_TARGET_BASE=%s", d->t->base);
	strvec_pushf(env, "AGENTIC_GIT_TARGET_HEAD=%s", d->t->head);
	strvec_pushf(env, "AGENTIC_GIT_RUN_ID=%s", run->rd.id);
}

static void agent_name(const struct dispatch_run *run, size_t i, char *out,
		       size_t len)
{
	snprintf(out, len, "dispatch-%s-%zu", run->rd.id, i);
	for (char *p = out; *p; p++)
		*p = (char)tolower((unsigned char)*p);
}

/*
 * Invariant 3: a signed binding for the shim, the session marker, and
 * the files an agent leaves for the operator kept out of its commits
 * (fleet/session-write.h).
 */
static int write_session(const struct dispatch_run *run,
			 const struct dispatch_target *d, struct strbuf *err)
{
	static const char *const more[] = { "ESCALATION.md",
					    "AGENTIC-GIT-NOTE.md", NULL };
	struct strbuf task = STRBUF_INIT, now = STRBUF_INIT;
	char *git_dir = path_join(d->ws.dir, ".git");
	struct session_record r = {
		.home = run->home,
		.agent = d->agent,
		.branch = d->t->head,
		.worktree = d->ws.dir,
		.source_repo = d->t->repo,
		/* the agent only edits; agentic-git verifies and pushes */
		.allow_bypass = false,
		.exclude_git_dir = git_dir,
		.more_excludes = more,
	};
	int rc;

	strbuf_addf(&task, "dispatch:%s:%s", run->rd.id, d->t->key);
	time_now_rfc3339(&now);
	r.task_id = task.buf;
	r.issued_at = now.buf;
	rc = session_write(&r, err);
	free(git_dir);
	strbuf_release(&task);
	strbuf_release(&now);
	return rc;
}

/* "<prefix><message>" */
static void err_prefix(struct strbuf *err, const char *prefix)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s%s", prefix, err->buf);
	strbuf_release(err);
	*err = sb;
}

/*
 * The refs before the agent runs. Right after our fetch and checkout the
 * workspace's refs are loose files naming objects the fetch's
 * connectivity check and the checkout have just seen, so reading the
 * refs directory gives what for-each-ref prints (git/refs-files.h);
 * anything else asks git.
 */
static int refs_before(struct dispatch_target *d, struct strbuf *err)
{
	struct strbuf raw = STRBUF_INIT;
	char *gd = path_join(d->ws.dir, ".git");
	int rc = refs_files_list(gd, d->src.objfmt ? 64 : 40, &raw);

	if (!rc)
		verify_refs_filter(raw.buf, &d->refs_before);
	else
		rc = verify_refs_snapshot(d->ws.dir, &d->refs_before);
	if (rc)
		strbuf_addstr(err, "cannot list the workspace's refs");
	free(gd);
	strbuf_release(&raw);
	return rc;
}

static void remove_session(const struct dispatch_run *run,
			   const struct dispatch_target *d)
{
	struct strbuf dir = STRBUF_INIT;

	strbuf_addf(&dir, "%s/runtime/%s", run->home, d->agent);
	workspace_remove(dir.buf); /* says why it could not */
	strbuf_release(&dir);
}

static void remove_scratch(const struct dispatch_target *d)
{
	if (d->scratch)
		workspace_remove(d->scratch); /* says why it could not */
}

static int open_logs(const struct dispatch_run *run, const struct dispatch_target *d,
		     struct pool_launch *l)
{
	struct strbuf n = STRBUF_INIT;

	strbuf_addf(&n, "%s.stdout.log", d->t->key);
	l->out_fd = rundir_open(&run->rd, n.buf);
	strbuf_reset(&n);
	strbuf_addf(&n, "%s.stderr.log", d->t->key);
	l->err_fd = rundir_open(&run->rd, n.buf);
	strbuf_release(&n);
	return l->out_fd < 0 || l->err_fd < 0 ? -1 : 0;
}

/*
 * Invariant 5: the profile's sandbox for this target, planned before the
 * workspace exists (a refusal creates nothing). A raw command runs as is.
 */
static int plan_sandbox(const struct dispatch_run *run, struct dispatch_target *d,
			const char *ws, const struct strvec *env, struct strbuf *err)
{
	const struct agent_profile *p = d->launch.prof;
	struct agent_sandbox_spec sp = {
		.home = run->home,
		.agent = d->agent,
		.profile = p,
		.backend = d->launch.sandbox_backend,
		.fallback = d->launch.sandbox_fallback,
		.workspace = ws,
		.objects = d->objects,
		.real_git = gitcmd_real_git(),
		.with_hooks = true,
		.cache_name = p ? p->name : NULL,
		.argv = (const char *const *)d->launch.argv.v,
		.argc = d->launch.argv.nr,
		.env = (const char *const *)env->v,
		.env_nr = env->nr,
		.secrets = &d->secrets,
		.tls_ca_file = d->launch.tls_ca_file,
	};

	if (!p) {
		strbuf_addstr(&d->sandbox_desc, "none");
		return 0;
	}
	d->scratch = xstrfmt("%s/scratch/%s", run->rd.path, d->t->key);
	sp.scratch = d->scratch;
	if (agent_sandbox_plan(&sp, &d->box, err) < 0)
		return -1;
	agent_sandbox_describe(&d->box, &d->sandbox_desc);
	return 0;
}

/*
 * The profile's secrets for this target, read once, before its workspace
 * exists (fleet/agent-secrets.h): a command gets the target's repo, head,
 * base and key, and its AGENTIC_GIT_TARGET_* variables.
 */
static int read_secrets(const struct dispatch_run *run,
			struct dispatch_target *d, struct strbuf *err)
{
	struct strvec tenv = STRVEC_INIT;
	struct secret_context ctx = { .repo = d->t->repo,
				      .head = d->t->head,
				      .base = d->t->base,
				      .key = d->t->key };
	int rc;

	if (!d->launch.prof || !d->launch.prof->nr_secrets)
		return 0;
	strvec_pushf(&tenv, "AGENTIC_GIT_TARGET_KEY=%s", d->t->key);
	strvec_pushf(&tenv, "AGENTIC_GIT_TARGET_BASE=%s", d->t->base);
	strvec_pushf(&tenv, "AGENTIC_GIT_TARGET_HEAD=%s", d->t->head);
	strvec_pushf(&tenv, "AGENTIC_GIT_TARGET_REPO=%s", d->t->repo);
	strvec_pushf(&tenv, "AGENTIC_GIT_RUN_ID=%s", run->rd.id);
	ctx.target_env = tenv.v;
	rc = agent_secrets_resolve(d->launch.prof, &ctx, &d->secrets, err);
	strvec_clear(&tenv);
	return rc;
}

/*
 * warn-run downgraded the target's sandbox: the agent runs the launch
 * planned without ours (agent_launch.have_plain), in a plan made again
 * from it, so no preset flag or variable says it is sandboxed.
 */
static int plan_downgraded(const struct dispatch_run *run,
			   struct dispatch_target *d, const char *ws,
			   struct strvec *env, struct strbuf *err)
{
	if (!d->box.plan.downgraded || !d->launch.have_plain)
		return 0;
	if (agent_launch_unsandboxed(&d->launch, err) < 0)
		return -1;
	agent_sandbox_release(&d->box);
	d->box = (struct agent_sandbox)AGENT_SANDBOX_INIT;
	strbuf_reset(&d->sandbox_desc);
	free(d->scratch);
	d->scratch = NULL;
	strvec_clear(env);
	build_env(run, d, env);
	return plan_sandbox(run, d, ws, env, err);
}

/*
 * A preset's agent that needs its vendor's API under a sandbox with no
 * network: recorded in the target's meta, said on stderr once per run
 * (targets are prepared in order, so earlier ones are already recorded).
 */
static void network_warning(const struct dispatch_run *run, size_t i)
{
	struct dispatch_target *d = &run->v[i];
	const struct agent_profile *p = d->launch.prof;

	if (!p || !preset_network_warning(p->preset, p->name,
					  d->box.sandboxed ? d->box.rq.policy
							   : SANDBOX_NONE,
					  &d->rec.warning))
		return;
	for (size_t j = 0; j < i; j++)
		if (!strcmp(run->v[j].rec.warning.buf, d->rec.warning.buf))
			return;
	warning("%s", d->rec.warning.buf);
}

/* What the pool runs, and what meta.yaml records of it. */
static void fill_launch(struct dispatch_target *d, struct strvec *env,
			struct pool_launch *l)
{
	if (d->launch.prof) {
		strvec_pushv(&l->argv, d->box.plan.argv.v);
		strvec_pushv(&l->env, d->box.plan.env.v);
		l->dir = xstrdup(d->box.plan.dir);
		agent_sandbox_redacted_argv(&d->box, &d->rec.agent_argv);
		env_key_names(&d->box.plan.env, &d->rec.agent_env_keys);
	} else {
		strvec_pushv(&l->argv, d->launch.argv.v);
		strvec_pushv(&l->env, env->v);
		l->dir = xstrdup(d->ws.dir);
		strvec_pushv(&d->rec.agent_argv, l->argv.v);
		env_key_names(&l->env, &d->rec.agent_env_keys);
	}
	argv_elide(&d->rec.agent_argv, d->prompt.buf);
	strvec_push(&d->rec.agent_env_keys, "AGENTIC_GIT_POOL_JOB");
}

int dispatch_prepare(void *data, size_t i, struct pool_launch *l)
{
	struct dispatch_run *run = data;
	struct dispatch_target *d = &run->v[i];
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	struct strvec env = STRVEC_INIT;
	/*
	 * The session's hooks, as a session's workspace has them: the agent's
	 * commits carry the provenance trailers, its ref moves are journaled
	 * and judged (invariant 3); agentic-git's own git never runs them.
	 * No remote: an agent's fetch or push has nowhere to go (invariant 1).
	 */
	char *hooks = hooks_dir(run->home);
	struct workspace_request rq = {
		.git = gitcmd_real_git(),
		.from = d->t->repo,
		.src = &d->src,
		.head = d->t->head,
		.base = d->t->base,
		.refs = WS_REFS_FETCH,
		.origin = false,
		.hooks_path = hooks,
		.identity = true,
	};

	agent_name(run, i, d->agent, sizeof(d->agent));
	d->rec.sandbox = "none";
	d->rec.profile = d->launch.profile;
	strbuf_addf(&path, "%s/work", run->rd.path);
	if (mkdir_p(path.buf, 0700) < 0) {
		strbuf_addf(&err, "cannot create '%s': %s", path.buf, strerror(errno));
		goto fail;
	}
	strbuf_addf(&path, "/%s", d->t->key);
	build_env(run, d, &env);
	if (read_secrets(run, d, &err) < 0) {
		d->rec.status = RS_ERROR;
		strbuf_addbuf(&d->rec.note, &err);
		error("target '%s': %s", d->t->key, err.buf);
		goto out;
	}
	if (plan_sandbox(run, d, path.buf, &env, &err) < 0 ||
	    plan_downgraded(run, d, path.buf, &env, &err) < 0) {
		d->rec.status = RS_REFUSED;
		strbuf_addbuf(&d->rec.note, &err);
		error("target '%s': %s", d->t->key, err.buf);
		goto out;
	}
	d->rec.sandbox = d->sandbox_desc.buf;
	network_warning(run, i);
	rq.dir = path.buf;
	if (workspace_create(&rq, &d->ws, &err) < 0) {
		err_prefix(&err, "cannot create the workspace: ");
		goto fail;
	}
	d->have_ws = true;
	if (refs_before(d, &err) < 0 || write_session(run, d, &err) < 0 ||
	    open_logs(run, d, l) < 0 || agent_sandbox_mkdirs(&d->box, &err) < 0)
		goto fail;
	if (d->launch.prof &&
	    agent_own_sandbox_roots(&d->box, d->launch.prof->preset, &err) < 0)
		goto fail;
	d->rec.workspace = xstrdup(d->ws.dir);
	agent_sandbox_downgrade_record(&d->box, "dispatch");
	fill_launch(d, &env, l);
	l->fd3 = d->box.secrets_fd; /* the pool's now: it closes it */
	d->box.secrets_fd = -1;
	if (d->launch.prompt_on_stdin)
		strbuf_addbuf(&l->stdin_data, &d->prompt);
	l->timeout = d->launch.timeout;
	strvec_clear(&env);
	strbuf_release(&path);
	strbuf_release(&err);
	free(hooks);
	return 0;
fail:
	d->rec.status = RS_ERROR;
	strbuf_addbuf(&d->rec.note, &err);
	if (d->have_ws)
		workspace_remove(d->ws.dir); /* says why it could not */
	d->have_ws = false;
	remove_session(run, d);
out:
	remove_scratch(d);
	strvec_clear(&env);
	strbuf_release(&path);
	strbuf_release(&err);
	free(hooks);
	return -1;
}

void dispatch_started(void *data, size_t i)
{
	struct dispatch_run *run = data;

	run->v[i].rec.ran = true;
	if (run->on_start)
		run->on_start(run, i);
}

static enum agent_verdict read_verdict(const struct dispatch_run *run,
				       struct dispatch_target *d)
{
	struct strbuf p = STRBUF_INIT, buf = STRBUF_INIT;
	enum agent_verdict v = AGENT_VERDICT_NONE;
	struct stat st;
	int fd;

	strbuf_addf(&p, "%s/%s.stdout.log", run->rd.path, d->t->key);
	fd = open(p.buf, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode)) {
		if (st.st_size > VERDICT_TAIL)
			lseek(fd, st.st_size - VERDICT_TAIL, SEEK_SET);
		if (read_fd_bounded(fd, VERDICT_TAIL, &buf) == 0)
			v = agent_verdict_parse(buf.buf, buf.len,
						&d->rec.verdict_line);
	}
	if (fd >= 0)
		close(fd);
	strbuf_release(&p);
	strbuf_release(&buf);
	return v;
}

static void salvage_escalation(const struct dispatch_run *run,
			       struct dispatch_target *d)
{
	struct strbuf src = STRBUF_INIT, data = STRBUF_INIT, dst = STRBUF_INIT,
		      text = STRBUF_INIT;

	strbuf_addf(&src, "%s/ESCALATION.md", d->ws.dir);
	if (read_file_bounded(src.buf, ESCALATION_MAX, RF_REGULAR, &data) == 0) {
		/* the agent's text, for the operator to read: inert, its
		 * lines, tabs and backslashes kept (docs/commands.md "Output") */
		strbuf_add_inert_mem(&text, data.buf, data.len,
				     INERT_KEEP_NL | INERT_KEEP_TAB |
					     INERT_KEEP_BACKSLASH);
		strbuf_addf(&dst, "escalations/%s.md", d->t->key);
		if (rundir_write(&run->rd, dst.buf, &text) == 0)
			d->rec.escalation = path_join(run->rd.path, dst.buf);
	} else if (errno != ENOENT) {
		warning("cannot salvage '%s': %s", src.buf, strerror(errno));
	}
	strbuf_release(&src);
	strbuf_release(&data);
	strbuf_release(&dst);
	strbuf_release(&text);
}

/* Invariant 5: verify_command in the agent's sandbox (a profile's). */
static void verify_command_box(const struct dispatch_target *d,
			       struct verify_input *in, struct strvec *env,
			       struct sandbox_plan *plan, struct strbuf *why)
{
	if (!in->command || !d->launch.prof)
		return; /* a raw command: scrubbed env, as it always was */
	gitcmd_scrubbed_env(env);
	in->command_name = in->command[0];
	if (agent_sandbox_rewrap(&d->box, in->command, (const char *const *)env->v,
				 env->nr, plan, why) < 0) {
		in->command_refused = why->buf;
		return;
	}
	in->command = (const char *const *)plan->argv.v;
	in->command_env = &plan->env;
}

/*
 * The commits the operator's clone has at its branch and remote-tracking
 * tips (read as the operator, before nothing of the agent's): what the
 * import into the owned repository need not carry.
 */
static void clone_tips(const char *repo, struct strvec *out)
{
	struct strbuf tips = STRBUF_INIT;

	if (!gitcmdl(GIT_OPERATOR, repo, &tips, NULL, "for-each-ref",
		     "--format=%(objectname)", "refs/heads/", "refs/remotes/",
		     NULL))
		for (const char *p = tips.buf; *p;) {
			const char *nl = strchrnul(p, '\n');
			char *id = xstrndup(p, (size_t)(nl - p));
			if (*id && out->nr < 4096)
				strvec_push(out, id);
			free(id);
			p = *nl ? nl + 1 : nl;
		}
	strbuf_release(&tips);
}

/* RESOLVED: verify everything, then push (invariant 2). */
static void verify_and_push(const struct dispatch_run *run,
			    struct dispatch_target *d)
{
	struct verify_input in = {
		.workspace = d->ws.dir,
		.head = d->t->head,
		.head_sha = d->ws.head_oid,
		.base_sha = d->ws.base_oid,
		.refs_before = d->refs_before.buf,
		.exit_ok = d->rec.exit_code == 0 && !d->rec.timed_out,
		.rebase_task = run->rebase_task,
		.command =
			d->t->verify_command.nr ? d->t->verify_command.v : NULL,
		.command_timeout = d->launch.timeout,
	};
	struct sandbox_plan vplan = SANDBOX_PLAN_INIT;
	struct strvec venv = STRVEC_INIT, haves = STRVEC_INIT;
	struct strbuf pr = STRBUF_INIT, why = STRBUF_INIT, prep = STRBUF_INIT;
	struct push_req req;

	d->rec.verified = true;
	/*
	 * The repository we own (fleet/push.h 1): the verifier takes the
	 * agent's commits into it and reads them there, and the push goes
	 * from it. One per target, removed when it is done: a shared one
	 * gained a pack per target, and every git command in it paid for
	 * all of them (per-target cost growing with the run).
	 */
	strbuf_addf(&pr, "%s/push-%s.git", run->rd.path, d->t->key);
	req = (struct push_req){ .push_repo = pr.buf,
				 .stores = (const char *const *)d->ws.ro_dirs.v,
				 .stores_nr = d->ws.ro_dirs.nr,
				 .url = d->ws.origin_url,
				 .head = d->t->head,
				 .expected_sha = d->ws.head_oid,
				 .objfmt = d->src.objfmt };
	for (size_t i = 0; i < d->ws.ro_dirs.nr; i++)
		gitcmd_cage_trust_store(d->ws.ro_dirs.v[i], false);
	if (push_repo_prepare(&req, &prep) < 0)
		in.owned_refused = prep.buf;
	else
		in.owned = pr.buf;
	clone_tips(d->t->repo, &haves);
	in.haves = (const char *const *)haves.v;
	verify_command_box(d, &in, &venv, &vplan, &why);
	/* an agent that ran uncaged wrote nothing a cage would keep in */
	gitcmd_cage_require(!starts_with(d->rec.sandbox, "none"));
	verify_run(&in, &d->rec.verify);
	gitcmd_cage_require(true);
	sandbox_plan_release(&vplan);
	strvec_clear(&venv);
	strvec_clear(&haves);
	strbuf_release(&why);
	strbuf_release(&prep);
	if (!d->rec.verify.ok) {
		bool only_unmoved =
			d->rec.verify.state[VC_HEAD] == VS_FAIL &&
			!strcmp(d->rec.verify.new_head, d->ws.head_oid);
		for (int c = 0; c < VC__COUNT && only_unmoved; c++)
			if (c != VC_HEAD && d->rec.verify.state[c] == VS_FAIL)
				only_unmoved = false;
		d->rec.status = only_unmoved ? RS_NO_CHANGE : RS_BLOCKED;
		goto out;
	}
	req.sha = d->rec.verify.new_head;
	d->rec.push = push_run(&req, &d->rec.push_detail);
	d->rec.status = d->rec.push == PUSH_PUSHED ? RS_PUSHED :
			d->rec.push == PUSH_LEASE_REFUSED ? RS_LEASE_REFUSED :
							    RS_PUSH_FAILED;
	if (d->rec.push == PUSH_PUSHED)
		memcpy(d->rec.pushed_sha, d->rec.verify.new_head, sizeof(d->rec.pushed_sha));
out:
	if (is_dir(pr.buf))
		workspace_remove(pr.buf); /* says why it could not */
	strbuf_release(&pr);
}

/* Bounded logs (rundir.h): a 300 MB stdout is not kept whole. */
static void cap_logs(const struct dispatch_run *run,
		     const struct dispatch_target *d, struct strbuf *note)
{
	static const char *const logs[] = { "stdout", "stderr" };
	struct strbuf name = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(logs); i++) {
		unsigned long long cut = 0;

		strbuf_reset(&name);
		strbuf_addf(&name, "%s.%s.log", d->t->key, logs[i]);
		if (!rundir_cap_log(&run->rd, name.buf, run->log_cap, &cut) &&
		    cut)
			strbuf_addf(note, "%s%s.log capped: %llu bytes cut",
				    note->len ? "; " : "", logs[i], cut);
	}
	strbuf_release(&name);
}

static void judge(const struct dispatch_run *run, struct dispatch_target *d,
		  const struct pool_result *r)
{
	switch (r->status) {
	case POOL_INTERRUPTED:
	case POOL_KILLED:
		d->rec.status = RS_INTERRUPTED;
		return;
	case POOL_TIMED_OUT:
		d->rec.status = RS_TIMED_OUT;
		d->rec.timed_out = true;
		strbuf_addstr(&d->rec.note, "killed at the timeout");
		return;
	case POOL_LAUNCH_FAILED:
		d->rec.status = RS_FAILED;
		strbuf_addf(&d->rec.note, "cannot launch the agent: %s",
			    strerror(r->launch_errno));
		return;
	default:
		break;
	}
	d->rec.verdict = read_verdict(run, d);
	if (d->rec.verdict == AGENT_VERDICT_RESOLVED) {
		verify_and_push(run, d);
		return;
	}
	if (d->rec.exit_code != 0) {
		d->rec.status = RS_FAILED;
		strbuf_addf(&d->rec.note, "the agent exited %d", d->rec.exit_code);
	} else if (d->rec.verdict == AGENT_VERDICT_ESCALATED) {
		d->rec.status = RS_ESCALATED;
	} else {
		d->rec.status = RS_NO_VERDICT;
		strbuf_addstr(&d->rec.note, "no RESOLVED:/ESCALATED: line on the agent's stdout");
	}
}

/* Invariant 4: keep what a human must look at, remove the rest. */
static void teardown(const struct dispatch_run *run, struct dispatch_target *d)
{
	struct strbuf why = STRBUF_INIT, note = STRBUF_INIT, p = STRBUF_INIT;

	salvage_escalation(run, d);
	if (!d->rec.verified) {
		gitcmd_cage_require(!starts_with(d->rec.sandbox, "none"));
		verify_conflicts(d->ws.dir, &d->rec.verify);
		gitcmd_cage_require(true);
	}
	if (d->rec.verify.in_conflict)
		strbuf_addstr(&why, "the workspace is in conflict (unmerged paths or an operation in progress)");
	else if (d->rec.status == RS_LEASE_REFUSED || d->rec.status == RS_PUSH_FAILED)
		strbuf_addf(&why, "the push failed: %s", d->rec.push_detail.buf);
	else if (workspace_remove(d->ws.dir) < 0)
		strbuf_addf(&why, "removing it failed: %s", strerror(errno));
	if (why.len) {
		d->rec.kept = true;
		strbuf_addf_inert(
			&note,
			"# Kept by agentic-git dispatch\n\nTarget `%s` (%s, %s onto %s), run %s.\n\n"
			"Kept because %s.\n\nLogs: %s/%s.stdout.log and .stderr.log; record: %s.meta.yaml.\n\n"
			"Nothing here is pushed. When you are done, remove it with:\n\n    rm -rf '%s'\n",
			d->t->key, d->t->repo, d->t->head, d->t->base,
			run->rd.id, why.buf, run->rd.path, d->t->key, d->t->key,
			d->ws.dir);
		strbuf_addf(&p, "%s/AGENTIC-GIT-NOTE.md", d->ws.dir);
		if (write_file_atomic(p.buf, note.buf, note.len, 0600) < 0)
			warning("cannot write '%s': %s", p.buf, strerror(errno));
		if (!d->rec.note.len)
			strbuf_addf(&d->rec.note, "workspace kept: %s", why.buf);
	}
	remove_session(run, d);
	remove_scratch(d);
	strbuf_release(&why);
	strbuf_release(&note);
	strbuf_release(&p);
}

void dispatch_finished(void *data, size_t i, const struct pool_result *r)
{
	struct dispatch_run *run = data;
	struct dispatch_target *d = &run->v[i];
	struct strbuf meta = STRBUF_INIT, name = STRBUF_INIT;
	struct strbuf capped = STRBUF_INIT;

	if (r->status != POOL_SKIPPED) {
		agent_sandbox_import_spool(&d->box); /* agent-sandbox.h 6 */
		/* agent-sandbox.h 9, before verify_command's proxy replaces it */
		d->rec.net = !agent_sandbox_net_stats(
			&d->box, &d->rec.net_allow, &d->rec.net_deny,
			&d->rec.net_denied_hosts);
		d->rec.started = r->started;
		d->rec.finished = r->finished;
		d->rec.duration = r->duration;
		d->rec.exit_code = r->exit_code;
		d->rec.orphans_killed = r->orphans_killed;
		cap_logs(run, d, &capped);
		judge(run, d, r);
		if (capped.len)
			strbuf_addf(&d->rec.note, "%s%s",
				    d->rec.note.len ? "; " : "", capped.buf);
	}
	if (d->have_ws)
		teardown(run, d);
	run_record_meta_yaml(&d->rec, &meta);
	strbuf_addf(&name, "%s.meta.yaml", d->t->key);
	rundir_write(&run->rd, name.buf, &meta);
	strbuf_release(&meta);
	strbuf_release(&name);
	strbuf_release(&capped);
	if (run->on_finish)
		run->on_finish(run, i);
}

int dispatch_exit_code(const struct dispatch_run *run)
{
	int worst = 0;

	for (size_t i = 0; i < run->nr; i++) {
		int s = run_status_severity(run->v[i].rec.status);
		if (run->v[i].box.plan.downgraded)
			s = 2; /* never degrade silently */
		if (s == 2 || (s == 3 && worst == 0))
			worst = s;
	}
	/* one ladder across commands (docs/commands.md): 2 is bad usage */
	return worst == 2 ? AG_EXIT_ATTENTION : worst;
}
