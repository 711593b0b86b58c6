/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git sandbox run: plan (refusing before anything is created),
 * provision the private workspace when --from is given, then exec the
 * planned argv, or under warn-run run it unsandboxed, record the
 * downgrade and exit with the attention status.
 */
#include "base/common.h"
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include "agents/sandbox-probe.h"
#include "agents/sandbox.h"
#include "base/die.h"
#include "base/envvar.h"
#include "base/eventlog.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/spawn.h"
#include "base/xalloc.h"
#include "cmd/sandbox-int.h"
#include "fleet/agent-sandbox.h"
#include "fleet/sandbox-build.h"
#include "fleet/workspace.h"

extern char **environ;

struct run_opts {
	const char *policy, *backend, *fallback, *workspace, *from, *head,
		*base, *cache, *agent;
	struct strvec ro, env_names, allow;
};

struct run_state {
	struct agent_sandbox as; /* the request (fleet/sandbox-build.h) */
	enum sandbox_policy policy;
	enum sandbox_backend backend;
	enum sandbox_fallback fb;
	const char *agent;
	struct strvec env, ro, argv;
	struct workspace ws;
};

static void parse_enums(const struct run_opts *o, struct run_state *st)
{
	if (sandbox_policy_parse(o->policy ? o->policy : "fs+no-net",
				 &st->policy) < 0)
		die_code(
			AG_EXIT_USAGE,
			"sandbox run: unknown policy '%s' (none, fs-only, fs+api, fs+no-net)",
			o->policy);
	if (sandbox_backend_parse(o->backend ? o->backend : "auto",
				  &st->backend) < 0)
		die_code(AG_EXIT_USAGE, "sandbox run: unknown backend '%s' (auto, bwrap, landlock)",
			 o->backend);
	if (sandbox_fallback_parse(o->fallback ? o->fallback : "refuse",
				   &st->fb) < 0)
		die_code(AG_EXIT_USAGE, "sandbox run: unknown fallback '%s' (refuse, warn-run)",
			 o->fallback);
}

/* The request, built where every sandbox's is (fleet/sandbox-build.h). */
static void build(const struct run_opts *o, struct run_state *st)
{
	struct sandbox_build_spec s = {
		.policy = st->policy,
		.backend = st->backend,
		.agent = st->agent,
		.guard = SANDBOX_GUARD_TOOLS,
		.real_git = sandbox_cli_real_git(),
		.allow_hint = "the --allow options of 'sandbox run'",
		.allow_hosts = (const char *const *)o->allow.v,
		.allow_hosts_nr = o->allow.nr,
		.argv = (const char *const *)st->argv.v,
		.argc = st->argv.nr,
		.env = (const char *const *)st->env.v,
		.env_nr = st->env.nr,
	};
	struct strbuf err = STRBUF_INIT;
	char *state = ag_home_dir(), *workspace, *cache = NULL;

	if (o->from) {
		if (!o->workspace || !o->head)
			die_code(AG_EXIT_USAGE, "sandbox run: --from needs --workspace DIR and --head BRANCH");
		workspace = sandbox_cli_canonical_new(o->workspace);
	} else {
		workspace = sandbox_cli_canonical_existing(
			"workspace", o->workspace ? o->workspace : ".");
	}
	for (size_t i = 0; i < o->ro.nr; i++) {
		char *p = sandbox_cli_canonical_existing("ro bind", o->ro.v[i]);
		strvec_push(&st->ro, p);
		free(p);
	}
	if (o->cache)
		cache = sandbox_cli_canonical_new(o->cache);
	s.state = state;
	s.workspace = workspace;
	s.cache = cache;
	s.ro_binds = (const char *const *)st->ro.v;
	s.ro_binds_nr = st->ro.nr;
	if (sandbox_build(&s, &st->as, &err) < 0)
		die("sandbox run: %s", err.buf);
	free(state);
	free(workspace);
	free(cache);
}

/* Plans; a refusal that survives the fallback exits (nothing created). */
static void plan_or_die(struct run_state *st, struct sandbox_plan *plan)
{
	sandbox_plan_release(plan);
	*plan = (struct sandbox_plan)SANDBOX_PLAN_INIT;
	if (sandbox_build_plan(&st->as.rq, st->fb, st->agent, plan) !=
	    SANDBOX_REFUSED)
		return;
	if (plan->bad_input)
		die_code(AG_EXIT_USAGE, "sandbox run: %s", plan->reason.buf);
	die("sandbox run: %s; install bubblewrap and allow user namespaces, or use a kernel with landlock and seccomp, or pass --fallback warn-run to run unsandboxed",
	    plan->reason.buf);
}

static void provision(const struct run_opts *o, struct run_state *st)
{
	struct workspace_request wr = { 0 };
	struct strbuf err = STRBUF_INIT;

	if (o->from) {
		wr.git = sandbox_cli_real_git();
		wr.from = o->from;
		wr.dir = st->as.workspace;
		wr.head = o->head;
		wr.base = o->base;
		wr.refs = WS_REFS_CLONE;
		wr.origin = true;
		wr.identity = true;
		if (workspace_create(&wr, &st->ws, NULL) < 0)
			exit(AG_EXIT_DENY);
		free(st->as.workspace);
		st->as.workspace = xstrdup(st->ws.dir);
		strvec_pushv(&st->as.extra_ro, st->ws.ro_dirs.v);
		sandbox_build_request(&st->as);
	}
	if (sandbox_build_mkdirs(&st->as, &err) < 0)
		die("sandbox run: %s", err.buf);
}

static int run_downgraded(struct run_state *st, struct sandbox_plan *plan)
{
	struct event ev = EVENT_INIT("sandbox_downgraded", st->agent, "sandbox");
	struct child c = CHILD_INIT;
	int status;

	warning("%s", plan->warning.buf);
	sandbox_downgrade_event(&st->as.rq, plan, &ev);
	if (event_write(ag_getenv_str(AGE_HOME), &ev) < 0)
		warning("sandbox run: could not record the downgrade in fleet_events.jsonl");
	event_release(&ev);
	strvec_pushv(&c.args, plan->argv.v);
	strvec_pushv(&c.env, plan->env.v);
	if (!c.env.nr)
		strvec_push(&c.env, "PATH=/usr/bin:/bin");
	c.dir = plan->dir;
	c.inherit_stdin = true;
	if (child_run(&c) < 0)
		die_code(AG_EXIT_EXEC, "sandbox run: cannot run '%s': %s", c.args.v[0],
			 strerror(errno));
	status = c.status;
	child_release(&c);
	return status ? status : SANDBOX_EXIT_ATTENTION;
}

/*
 * AGENTIC_GIT_SANDBOX_HELPER=exec: exec the Landlock helper as its own
 * process, as the agents' plans do, instead of confining this one (the
 * start-up bench takes the bare helper's argv from that exec).
 */
static bool helper_exec(void)
{
	const char *v = getenv("AGENTIC_GIT_SANDBOX_HELPER");

	return v && !strcmp(v, "exec");
}

static void run_state_release(struct run_state *st)
{
	strvec_clear(&st->env);
	strvec_clear(&st->ro);
	strvec_clear(&st->argv);
	agent_sandbox_release(&st->as);
	workspace_release(&st->ws);
}

#define ARGT_STRUCT struct run_opts
const struct argspec sandbox_run_specs[] = {
	/* the sandbox */
	OPT_VALUE(policy),
	OPT_VALUE(backend),
	OPT_VALUE(fallback),
	OPT_VALUE(agent),
	/* its workspace */
	OPT_VALUE(workspace),
	OPT_VALUE(from),
	OPT_VALUE(head),
	OPT_VALUE(base),
	OPT_VALUE(cache),
	/* what it may see and reach: each adds up */
	OPT_LIST(ro),
	OPT_AS("env", ARG_LIST, env_names),
	OPT_LIST(allow),
	ARGSPEC_END,
};
#undef ARGT_STRUCT

static const struct argtable run_table = {
	.cmd = "sandbox run",
	.hint = ARGT_HINT_COMMAND,
	.specs = sandbox_run_specs,
};

/* The options into o; returns the index of the command after `--`. */
static int parse_run_opts(int argc, const char **argv, struct run_opts *o)
{
	struct argres r;
	int idx = sandbox_cli_parse(&run_table, argc, argv, o, &r);

	if (idx >= argc)
		die_code(
			AG_EXIT_USAGE,
			"sandbox run: give the command after '--' (see agentic-git sandbox run --help)");
	return idx;
}

int cmd_sandbox_run(int argc, const char **argv)
{
	struct run_opts o = { .ro = STRVEC_INIT,
			      .env_names = STRVEC_INIT,
			      .allow = STRVEC_INIT };
	struct run_state st = { .as = AGENT_SANDBOX_INIT,
				.env = STRVEC_INIT,
				.ro = STRVEC_INIT,
				.argv = STRVEC_INIT,
				.ws = WORKSPACE_INIT };
	struct sandbox_plan plan = SANDBOX_PLAN_INIT;
	int idx = parse_run_opts(argc, argv, &o), rc;
	char *cmd;

	parse_enums(&o, &st);
	st.agent = o.agent ? o.agent : ag_getenv_str(AGE_AGENT);
	sandbox_cli_build_env(&o.env_names, &st.env);
	cmd = sandbox_cli_resolve_command(argv[idx], &st.env);
	strvec_push(&st.argv, cmd);
	free(cmd);
	strvec_pushn(&st.argv, argv + idx + 1, (size_t)(argc - idx - 1));
	if (o.allow.nr && st.policy != SANDBOX_FS_API)
		die_code(AG_EXIT_USAGE,
			 "sandbox run: --allow is for --policy fs+api");
	build(&o, &st);
	plan_or_die(&st, &plan); /* pre-flight: refuse before creating */
	provision(&o, &st);
	plan_or_die(&st, &plan);
	if (plan.downgraded) {
		rc = run_downgraded(&st, &plan);
	} else if (plan.verdict == SANDBOX_WRAPPED &&
		   plan.backend == SANDBOX_BACKEND_LANDLOCK && !helper_exec()) {
		/*
		 * The plan starts with `agentic-git sandbox exec`: be it, as
		 * the exec'd helper would be (no descriptor of ours left, the
		 * command's environment), without a second start-up of
		 * agentic-git. Confined or exit 126: never half confined.
		 */
		if (chdir(plan.dir) < 0)
			die_errno("sandbox run: cannot enter '%s'", plan.dir);
		closefrom(3);
		environ = (char **)plan.env.v;
		rc = cmd_sandbox_exec((int)plan.argv.nr - 2, plan.argv.v + 2);
	} else {
		if (chdir(plan.dir) < 0)
			die_errno("sandbox run: cannot enter '%s'", plan.dir);
		execve(plan.argv.v[0], (char *const *)plan.argv.v,
		       (char *const *)plan.env.v);
		die_code(AG_EXIT_EXEC, "sandbox run: cannot run '%s': %s",
			 plan.argv.v[0], strerror(errno));
	}
	sandbox_plan_release(&plan);
	run_state_release(&st);
	strvec_clear(&o.ro);
	strvec_clear(&o.env_names);
	strvec_clear(&o.allow);
	return rc;
}
