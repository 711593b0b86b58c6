/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git summarize: one agent call over some input (by default the
 * latest dispatch run's summary.md and salvaged escalations), its answer
 * printed. Same profile, environment and supervision rules as dispatch.
 */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "base/die.h"
#include "base/envvar.h"
#include "base/fileio.h"
#include "base/inert.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "cmd/argtable.h"
#include "cmd/optsets.h"
#include "cmd/cmd.h"
#include "cmd/dispatch-agent.h"
#include "fleet/agent-sandbox.h"
#include "fleet/agent-secrets.h"
#include "fleet/pool.h"
#include "fleet/rundir.h"
#include "fleet/workspace.h"

#define INPUT_MAX (8 << 20)
#define ANSWER_MAX (16 << 20)

static const char usage[] =
	"usage: agentic-git summarize [--profile P] [--model M] [--config F]\n"
	"                             [--run ID|latest | --input FILE]\n"
	"                             [--prompt-file F] [--timeout S] [-- AGENT-CMD...]\n"
	"\n"
	"One agent call over the given input, its answer printed on stdout. The\n"
	"default input is a dispatch run's summary.md followed by its salvaged\n"
	"escalation notes (--run, default latest). The agent is a profile as in\n"
	"dispatch, or a raw command after '--' (input on stdin after the prompt).\n"
	"A profile's agent runs in the sandbox the profile asks for, with no\n"
	"repository: an empty scratch directory is its cwd.\n"
	"Exit: 0 the answer was printed, 2 bad usage, 1 anything else.\n";

static const char default_prompt[] =
	"Below is the report of an unattended agentic-git dispatch run: a summary\n"
	"of every target (repository and branch) and the escalation notes agents\n"
	"wrote when they stopped for a human. Write a short triage for the\n"
	"operator: first the targets that need a human, most urgent first, each\n"
	"with the one thing to decide or do; then what went through; then any\n"
	"pattern across targets. Quote keys exactly. Do not invent facts that are\n"
	"not in the report.\n";

enum { S_PROFILE, S_MODEL, S_CONFIG, S_RUN, S_INPUT, S_PROMPT, S_TIMEOUT };

static const struct argspec specs[] = {
	{ "profile", 0, ARG_VALUE, S_PROFILE }, { "model", 0, ARG_VALUE, S_MODEL },
	{ "config", 0, ARG_VALUE, S_CONFIG }, { "run", 0, ARG_VALUE, S_RUN },
	{ "input", 0, ARG_VALUE, S_INPUT }, { "prompt-file", 0, ARG_VALUE, S_PROMPT },
	{ "timeout", 0, ARG_VALUE, S_TIMEOUT }, { NULL, 0, ARG_FLAG, 0 },
};

const struct cmd_optset summarize_optsets[] = { { NULL, specs, 0 },
						{ NULL, NULL, 0 } };

struct sopts {
	const char *v[S_TIMEOUT + 1];
};

static int on_opt(void *data, int id, const char *val)
{
	struct sopts *o = data;

	if (o->v[id])
		return error("option '--%s' given twice", specs[id].name);
	o->v[id] = val;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* summary.md, then escalations/<key>.md in name order. */
static int read_run(const char *home, const char *id, struct strbuf *out)
{
	struct strbuf dir = STRBUF_INIT, p = STRBUF_INIT;
	struct strvec names = STRVEC_INIT;
	DIR *d;
	int rc = -1;

	if (rundir_resolve(home, id, &dir) < 0)
		goto out;
	strbuf_addf(&p, "%s/summary.md", dir.buf);
	if (read_file_bounded(p.buf, INPUT_MAX, RF_REGULAR, out) < 0) {
		error_errno("cannot read '%s'", p.buf);
		goto out;
	}
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/escalations", dir.buf);
	if ((d = opendir(p.buf))) {
		struct dirent *de;
		while ((de = readdir(d)))
			if (ends_with(de->d_name, ".md"))
				strvec_push(&names, de->d_name);
		closedir(d);
	}
	qsort(names.v, names.nr, sizeof(*names.v), cmp_names);
	for (size_t i = 0; i < names.nr; i++) {
		struct strbuf f = STRBUF_INIT;
		strbuf_addf(&f, "%s/%s", p.buf, names.v[i]);
		strbuf_addf(out, "\n## Escalation note: %.*s\n\n", (int)(strlen(names.v[i]) - 3), names.v[i]);
		if (read_file_bounded(f.buf, INPUT_MAX, RF_REGULAR, out) < 0)
			warning("cannot read '%s': %s", f.buf, strerror(errno));
		strbuf_release(&f);
	}
	rc = out->len > INPUT_MAX ? error("the run's report is larger than %d bytes", INPUT_MAX) : 0;
out:
	strbuf_release(&dir);
	strbuf_release(&p);
	strvec_clear(&names);
	return rc;
}

struct one_call {
	struct agent_launch *launch;
	const struct strbuf *stdin_data;
	const char *dir; /* the agent's cwd, or NULL: ours */
	int out_fd;
	struct pool_result res;
	int secrets_fd; /* the fs+api proxy's (fleet/agent-secrets.h), or -1 */
};

extern char **environ;

static int one_prepare(void *data, size_t i, struct pool_launch *l)
{
	struct one_call *c = data;

	strvec_pushv(&l->argv, c->launch->argv.v);
	if (c->launch->env_inherit)
		strvec_pushv(&l->env, (const char *const *)environ);
	strvec_pushv(&l->env, c->launch->env.v);
	strbuf_addbuf(&l->stdin_data, c->stdin_data);
	if (c->dir)
		l->dir = xstrdup(c->dir);
	l->out_fd = dup(c->out_fd);
	l->err_fd = dup(2);
	l->timeout = c->launch->timeout;
	if (c->secrets_fd >= 0 &&
	    (l->fd3 = fcntl(c->secrets_fd, F_DUPFD_CLOEXEC, 10)) < 0)
		return -1;
	return l->out_fd < 0 || l->err_fd < 0 ? -1 : 0;
}

static void one_finished(void *data, size_t i, const struct pool_result *r)
{
	struct one_call *c = data;
	c->res = *r;
}

/* Runs the agent under the pool; its stdout is appended to `answer`. */
static int call_agent(struct agent_launch *launch, const char *dir,
		      const struct strbuf *in, int secrets_fd,
		      struct strbuf *answer)
{
	struct one_call c = { launch, in, dir, -1, { 0 }, secrets_fd };
	struct pool_ops ops = { 1, 1, 5000, one_prepare, NULL, one_finished, &c };
	int rc = -1;

	c.out_fd = memfd_create("agentic-git-answer", MFD_CLOEXEC);
	if (c.out_fd < 0)
		return error_errno("cannot create a buffer for the answer");
	if (pool_run(&ops, NULL) < 0)
		goto out;
	if (c.res.status == POOL_TIMED_OUT)
		error("the agent timed out after %us", launch->timeout);
	else if (c.res.status == POOL_LAUNCH_FAILED)
		error("cannot launch '%s': %s", launch->argv.v[0], strerror(c.res.launch_errno));
	else if (c.res.status != POOL_EXITED)
		error("the agent was interrupted");
	else if (c.res.exit_code)
		error("the agent failed (exit %d)", c.res.exit_code);
	else if (lseek(c.out_fd, 0, SEEK_SET) < 0 ||
		 read_fd_bounded(c.out_fd, ANSWER_MAX, answer) < 0)
		error_errno("cannot read the agent's answer");
	else
		rc = 0;
out:
	close(c.out_fd);
	return rc;
}

static int plan_agent(const struct sopts *o, int argc, const char **argv,
		      const char *prompt, struct agent_config *cfg,
		      struct agent_launch *l)
{
	unsigned long timeout = 300;

	if (o->v[S_TIMEOUT] && (parse_ulong(o->v[S_TIMEOUT], 86400, &timeout) < 0 || !timeout))
		return error("--timeout: '%s' is not a number from 1 to 86400", o->v[S_TIMEOUT]);
	if (argc) {
		char *abs = strchr(argv[0], '/') ? real_path(argv[0]) : NULL;
		if (o->v[S_PROFILE] || o->v[S_MODEL])
			return error("give either --profile/--model or an agent command after '--', not both");
		if (!abs || access(abs, X_OK) < 0) {
			free(abs);
			return error("agent command '%s' must be a path to an executable", argv[0]);
		}
		strvec_push(&l->argv, abs);
		strvec_pushn(&l->argv, argv + 1, (size_t)argc - 1);
		free(abs);
		l->env_inherit = true;
		l->prompt_on_stdin = true;
		l->timeout = (unsigned)timeout;
		return 0;
	} else {
		struct agent_choice ch = { o->v[S_PROFILE], o->v[S_MODEL],
					   o->v[S_TIMEOUT] ? (unsigned)timeout : 300,
					   NULL, NULL };
		if (dispatch_config_load(o->v[S_CONFIG], cfg) < 0)
			return -1;
		return dispatch_agent_plan(cfg, &ch, prompt, l);
	}
}

/* The agent's environment, filtered as dispatch's. */
static void agent_env(const struct agent_launch *l, struct strvec *env)
{
	const char *path = getenv("PATH");

	strvec_clear(env);
	agent_env_filtered(l->env_inherit, &l->env, env);
	strvec_pushf(env, "PATH=%s", path ? path : "/usr/bin:/bin");
}

/*
 * warn-run downgraded the sandbox: the launch planned without ours, so
 * that nothing tells the agent it is sandboxed (fleet/dispatch.h).
 */
static int plan_downgraded(struct agent_launch *l, struct agent_sandbox *box,
			   struct agent_sandbox_spec *sp, struct strvec *env,
			   struct strbuf *err)
{
	if (!box->plan.downgraded || !l->have_plain)
		return 0;
	if (agent_launch_unsandboxed(l, err) < 0)
		return -1;
	agent_sandbox_release(box);
	*box = (struct agent_sandbox)AGENT_SANDBOX_INIT;
	agent_env(l, env);
	sp->argv = (const char *const *)l->argv.v;
	sp->argc = l->argv.nr;
	sp->env = (const char *const *)env->v;
	sp->env_nr = env->nr;
	return agent_sandbox_plan(sp, box, err);
}

/*
 * A profile's agent runs in the sandbox its profile asks for, as dispatch
 * runs it (fleet/agent-sandbox.h), but with no guarded session inside: it
 * is given no repository. Its cwd is an empty scratch directory,
 * <home>/summarize/<pid>-<time>/work (removed afterwards), its environment
 * is filtered as dispatch's, and a refusal runs nothing and creates
 * nothing. On success the launch is replaced by the wrapped one.
 */
static int box_agent(const char *home, struct agent_launch *l,
		     const struct secret_table *secrets,
		     struct agent_sandbox *box, char **scratch)
{
	struct agent_sandbox_spec sp = {
		.home = home,
		.agent = "summarize",
		.profile = l->prof,
		.backend = l->sandbox_backend,
		.fallback = l->sandbox_fallback,
		.bare = true,
		.cache_name = l->prof->name,
		.argv = (const char *const *)l->argv.v,
		.argc = l->argv.nr,
		.secrets = secrets,
		.tls_ca_file = l->tls_ca_file,
	};
	struct strbuf err = STRBUF_INIT, ws = STRBUF_INIT;
	struct strvec env = STRVEC_INIT;
	int rc = -1;

	agent_env(l, &env);
	sp.env = (const char *const *)env.v;
	sp.env_nr = env.nr;
	*scratch = xstrfmt("%s/summarize/%ld-%ld", home, (long)getpid(),
			   (long)time(NULL));
	strbuf_addf(&ws, "%s/work", *scratch);
	sp.workspace = ws.buf;
	sp.scratch = *scratch;
	if (agent_sandbox_plan(&sp, box, &err) < 0 ||
	    plan_downgraded(l, box, &sp, &env, &err) < 0) {
		free(*scratch); /* nothing was created */
		*scratch = NULL;
		error("%s", err.buf);
		goto out;
	}
	if (mkdir_p(ws.buf, 0700) < 0) {
		error_errno("cannot create '%s'", ws.buf);
		goto out;
	}
	if (agent_sandbox_mkdirs(box, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	if (box->plan.downgraded) {
		warning("profile '%s' asks for sandbox '%s'; the summary agent runs UNSANDBOXED (sandbox_fallback: warn-run)",
			l->prof->name, sandbox_policy_name(l->prof->sandbox));
		agent_sandbox_downgrade_record(box, "summarize");
	}
	strvec_clear(&l->argv);
	strvec_pushv(&l->argv, box->plan.argv.v);
	strvec_clear(&l->env);
	strvec_pushv(&l->env, box->plan.env.v);
	l->env_inherit = false;
	rc = 0;
out:
	strbuf_release(&err);
	strbuf_release(&ws);
	strvec_clear(&env);
	return rc;
}

int cmd_summarize(int argc, const char **argv)
{
	struct sopts o = { { NULL } };
	struct strbuf prompt = STRBUF_INIT, input = STRBUF_INIT,
		      in = STRBUF_INIT, answer = STRBUF_INIT;
	struct agent_config cfg = AGENT_CONFIG_INIT;
	struct agent_launch l;
	struct agent_sandbox box = AGENT_SANDBOX_INIT;
	struct secret_table secrets = SECRET_TABLE_INIT;
	struct secret_context sctx = { .key = "summarize" };
	struct strbuf err = STRBUF_INIT;
	char *home = ag_home_dir(), *scratch = NULL;
	int rest = argc, rc = 1, rc_call;

	if (cmd_wants_help(argc, argv, usage)) {
		free(home);
		return 0;
	}
	if (!home) {
		error("cannot find the home: set AGENTIC_GIT_HOME or HOME");
		return 1;
	}
	agent_launch_init(&l);
	if (argtable_parse_cmd("summarize", "the agent command goes after '--'",
			       argc, argv, specs, on_opt, &o, &rest) < 0) {
		rc = AG_EXIT_USAGE;
		goto out;
	}
	if (o.v[S_INPUT] && o.v[S_RUN]) {
		error("give either --run or --input, not both");
		rc = AG_EXIT_USAGE;
		goto out;
	}
	if (o.v[S_PROMPT]) {
		if (read_file_bounded(o.v[S_PROMPT], 1 << 20, RF_REGULAR, &prompt) < 0) {
			error_errno("cannot read prompt file '%s'", o.v[S_PROMPT]);
			goto out;
		}
		if (!prompt.len) {
			error("prompt file '%s' is empty", o.v[S_PROMPT]);
			goto out;
		}
	} else {
		strbuf_addstr(&prompt, default_prompt);
	}
	if (o.v[S_INPUT]) {
		if (read_file_bounded(o.v[S_INPUT], INPUT_MAX, RF_REGULAR, &input) < 0) {
			error_errno("cannot read input file '%s'", o.v[S_INPUT]);
			goto out;
		}
	} else if (read_run(home, o.v[S_RUN] ? o.v[S_RUN] : "latest", &input) < 0) {
		goto out;
	}
	if (plan_agent(&o, argc - rest, argv + rest, prompt.buf, &cfg, &l) < 0)
		goto out;
	/* the profile's secrets, read once; {key} is "summarize" */
	if (l.prof &&
	    agent_secrets_resolve(l.prof, &sctx, &secrets, &err) < 0) {
		error("%s; nothing was run", err.buf);
		goto out;
	}
	if (l.prof && box_agent(home, &l, &secrets, &box, &scratch) < 0)
		goto out;
	if (l.prompt_on_stdin)
		strbuf_addf(&in, "%s\n\n", prompt.buf);
	strbuf_addbuf(&in, &input);
	rc_call = call_agent(&l, l.prof ? box.plan.dir : NULL, &in,
			     box.secrets_fd, &answer);
	if (l.prof)
		agent_sandbox_import_spool(&box);
	if (rc_call < 0)
		goto out;
	{
		/* an agent's answer, over what other agents wrote: inert,
		 * its lines, tabs and backslashes kept (cmd/output.h) */
		struct strbuf shown = STRBUF_INIT;

		strbuf_add_inert_mem(&shown, answer.buf, answer.len,
				     INERT_KEEP_NL | INERT_KEEP_TAB |
					     INERT_KEEP_BACKSLASH);
		fwrite(shown.buf, 1, shown.len, stdout);
		strbuf_release(&shown);
	}
	rc = 0;
out:
	if (scratch && workspace_remove(scratch) < 0)
		warning("cannot remove the scratch directory '%s'", scratch);
	free(scratch);
	agent_sandbox_release(&box);
	secret_table_wipe(&secrets);
	strbuf_release(&err);
	agent_launch_release(&l);
	agent_config_release(&cfg);
	strbuf_release(&prompt);
	strbuf_release(&input);
	strbuf_release(&in);
	strbuf_release(&answer);
	free(home);
	return rc;
}
