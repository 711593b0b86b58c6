/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git run [--agent NAME] [--branch B] [--base REF] -- <cmd…>
 * Provision (or re-enter) a guarded session and run the agent inside it.
 * See fleet/session.h for the invariants and docs/sessions.md.
 */
#include "base/common.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include "base/die.h"
#include "base/envvar.h"
#include "base/eventlog.h"
#include "base/strbuf.h"
#include "base/strvec.h"
#include "cmd/argtable.h"
#include "cmd/cmd.h"
#include "cmd/optsets.h"
#include "cmd/run-profile.h"
#include "cmd/run-report.h"
#include "fleet/retention.h"
#include "fleet/pool.h" /* POOL_DEFAULT_GRACE_S: dispatch's grace */
#include "fleet/session.h"
#include "git/gitcmd.h"
#include "fleet/session-lock.h"

#define GRACE_MAX 3600 /* seconds, as dispatch --grace */

extern char **environ;

static const char run_usage[] =
	"usage: agentic-git run [--agent NAME] [--branch B] [--base REF] -- <cmd>...\n"
	"   or: agentic-git run [--agent NAME] [--branch B] [--base REF]\n"
	"                       --profile NAME (--prompt TEXT | --prompt-file F)\n"
	"                       [--model M] [--config FILE]\n"
	"   (either form also takes --timeout S, --grace S, --allow-bypass, --json)\n"
	"\n"
	"Provision a guarded session and run <cmd> inside it: a worktree at\n"
	"<home>/worktrees/<agent>/<branch> on a new branch from --base, a signed\n"
	"binding, worktree-scoped hooks, and the git shim first on PATH with\n"
	"snapshots on. Running it again with the same --agent and --branch\n"
	"re-enters the session after verifying its binding. While the command\n"
	"runs, run holds the session's lock (<home>/runtime/<agent>/run.lock,\n"
	"which names the command's pid): another run of the same agent is\n"
	"refused until the command exits or is stopped with\n"
	"agentic-git end --agent NAME --force.\n"
	"\n"
	"  --agent NAME   agent name (default run-<12 hex>)\n"
	"  --branch B     branch to create (default agent/<agent>/<UTC YYYYMMDD-HHMM>)\n"
	"  --base REF     start point of the branch (default HEAD)\n"
	"  --profile NAME launch an agent profile (config.yaml or a preset) instead\n"
	"                 of a command: its argv, env allowlist and sandbox apply;\n"
	"                 a sandboxed profile gets a private workspace\n"
	"  --prompt TEXT, --prompt-file F   the task for the profile\n"
	"  --model M      override the profile's model\n"
	"  --config FILE  config file (default <home>/config.yaml)\n"
	"  --timeout S    stop the command after S seconds (default: the profile's\n"
	"                 timeout:, else none): SIGTERM to its whole process tree,\n"
	"                 SIGKILL to what is left after the grace, exit 124\n"
	"  --grace S      seconds from that SIGTERM to SIGKILL (default 5)\n"
	"  --allow-bypass let the agent use AGENTIC_GIT_BYPASS* in this session\n"
	"                 (audited); without it the shim ignores them and its\n"
	"                 deny messages tell the agent to ask you\n"
	"  --json         end with one JSON record on stdout, its last line (after\n"
	"                 the command's own output): agent, branch, worktree,\n"
	"                 exit_code, timed_out, times; replaces the summary\n"
	"\n"
	"When stdout is not a terminal, run says on stderr when the session is\n"
	"ready, when the command starts and when it ends, one line each.\n"
	"\n"
	"Exits with the command's status (128+signal when it was killed), 124 when\n"
	"its timeout stopped it, 2 on bad usage, 78 when the home cannot give a\n"
	"guarded PATH, 127 when the command\n"
	"cannot be started, 3 when a profile ran unsandboxed under\n"
	"sandbox_fallback: warn-run, 1 for other failures (the session is\n"
	"running, a bad base, a refused reuse, ...).\n";

struct run_opts {
	const char *agent, *branch, *base;
	const char *timeout, *grace; /* as given; checked by parse_limits() */
	bool allow_bypass, json;
	const char *const *cmd;
	struct run_profile_opts prof;
};

#define ARGT_STRUCT struct run_opts
static const struct argspec run_specs[] = {
	/* the session */
	OPT_VALUE(agent),
	OPT_VALUE(branch),
	OPT_VALUE(base),
	OPT_VALUE(timeout),
	OPT_VALUE(grace),
	OPT_AS("allow-bypass", ARG_FLAG, allow_bypass),
	OPT_FLAG(json),
	/* a profile to run instead of a command */
	OPT_AS("profile", ARG_VALUE, prof.profile),
	OPT_AS("prompt", ARG_VALUE, prof.prompt),
	OPT_AS("prompt-file", ARG_VALUE, prof.prompt_file),
	OPT_AS("model", ARG_VALUE, prof.model),
	OPT_AS("config", ARG_VALUE, prof.config),
	ARGSPEC_END,
};

const struct cmd_optset run_optsets[] = { { NULL, run_specs, 0 },
					  { NULL, NULL, 0 } };
#undef ARGT_STRUCT

static int parse(int argc, const char **argv, struct run_opts *o)
{
	const struct argtable t = { .cmd = "run",
				    .hint = ARGT_HINT_COMMAND,
				    .specs = run_specs };
	struct argres r;
	int i;

	if (argtable_parse_table(&t, argc, argv, o, &r) < 0)
		return -1;
	i = r.dashdash ? r.rest - 1 : r.rest; /* at the `--`, if any */
	if (o->prof.profile) {
		if (i < argc)
			return error("run: give either --profile or a command after '--', not both");
		return 0;
	}
	if (o->prof.prompt || o->prof.prompt_file || o->prof.model || o->prof.config)
		return error("run: --prompt, --prompt-file, --model and --config need --profile");
	if (i >= argc)
		return error("run: missing '--' before the command");
	if (i + 1 >= argc)
		return error("run: no command given after '--'");
	o->cmd = argv + i + 1;
	return 0;
}

/*
 * --timeout and --grace, checked before anything is created. Returns 0, or
 * -1 with the one-line reason printed.
 */
static int parse_limits(const struct run_opts *o, struct session_limits *lim)
{
	unsigned long v;

	lim->grace_ms = POOL_DEFAULT_GRACE_S * 1000UL;
	if (o->timeout) {
		if (parse_ulong(o->timeout, (unsigned long)CONFIG_MAX_TIMEOUT, &v) < 0 || !v)
			return error("run: --timeout: '%s' is not a number of seconds from 1 to %lu",
				     o->timeout, (unsigned long)CONFIG_MAX_TIMEOUT);
		lim->timeout_ms = v * 1000UL;
	}
	if (o->grace) {
		if (parse_ulong(o->grace, GRACE_MAX, &v) < 0)
			return error("run: --grace: '%s' is not a number of seconds from 0 to %d",
				     o->grace, GRACE_MAX);
		lim->grace_ms = v * 1000UL;
	}
	return 0;
}

/* Without --timeout, a profile's `timeout:` bounds it (invariant 7). */
static void profile_limit(const struct run_profile *rp,
			  struct session_limits *lim)
{
	if (!lim->timeout_ms && rp->p && rp->p->timeout > 0)
		lim->timeout_ms = (unsigned long)(rp->p->timeout * 1000.0 + 0.5);
}

/* The `timeout` event and the line saying why the run ends with 124. */
static void log_timeout(const struct session *s,
			const struct session_limits *lim)
{
	struct event ev = EVENT_INIT("timeout", s->agent, "run");
	const char *sig = lim->ended_by == SIGKILL ? "SIGKILL" : "SIGTERM";
	long long secs = (long long)((lim->timeout_ms + 999) / 1000);

	error("run: the command ran past its timeout of %llds and was stopped (%s)",
	      secs, sig);
	event_add_int(&ev, "seconds", secs);
	event_add_int(&ev, "grace_seconds", (long long)(lim->grace_ms / 1000));
	event_add_str(&ev, "signal", sig);
	event_add_str(&ev, "branch", s->branch);
	event_add_str(&ev, "worktree", s->worktree);
	event_write(s->home, &ev);
	event_release(&ev);
}

static bool snapshots_on(const char *const *envp)
{
	for (const char *const *e = envp; *e; e++)
		if (starts_with(*e, "AGENTIC_GIT_SNAPSHOTS="))
			return ag_env_is_one(*e + strlen("AGENTIC_GIT_SNAPSHOTS="));
	for (const char *const *e = envp; *e; e++)
		if (starts_with(*e, "AGEND_GIT_SNAPSHOTS="))
			return ag_env_is_one(*e + strlen("AGEND_GIT_SNAPSHOTS="));
	return false;
}

static void log_event(const struct session *s, const char *name, int code,
		      const char *cmd)
{
	struct event ev = EVENT_INIT(name, s->agent, "run");

	event_add_str(&ev, "branch", s->branch);
	event_add_str(&ev, "worktree", s->worktree);
	event_add_str(&ev, "source_repo", s->source_repo);
	if (code < 0) {
		event_add_bool(&ev, "reused", s->reused);
		event_add_str(&ev, "command", cmd);
	} else {
		event_add_int(&ev, "exit_code", code);
	}
	event_write(s->home, &ev);
	event_release(&ev);
}

static void summary(const struct session *s, int code, bool snaps)
{
	struct strbuf wt = STRBUF_INIT, br = STRBUF_INIT;

	strbuf_add_shell_quoted(&wt, s->worktree);
	strbuf_add_shell_quoted(&br, s->branch);
	fprintf(stderr,
		"agentic-git: session ended (exit %d).\n"
		"  worktree:  %s\n"
		"  branch:    %s\n",
		code, s->worktree, s->branch);
	if (snaps)
		fprintf(stderr,
			"  snapshots: safety net ON (destructive git ops were snapshotted; AGENTIC_GIT_SNAPSHOTS=0 to disable)\n"
			"    list:    agentic-git snapshots list --repo %s\n"
			"    restore: agentic-git snapshots restore --repo %s --since 1h\n",
			wt.buf, wt.buf);
	else
		fprintf(stderr,
			"  snapshots: safety net OFF (AGENTIC_GIT_SNAPSHOTS was set to something other than 1)\n");
	fprintf(stderr,
		"  re-enter:  agentic-git run --agent %s --branch %s -- <cmd>   (or: cd %s && git status)\n"
		"  remove:    agentic-git end --agent %s   (refuses while work is unsaved; the branch is kept)\n",
		s->agent, br.buf, wt.buf, s->agent);
	strbuf_release(&wt);
	strbuf_release(&br);
}

/*
 * The operator's uncommitted edits stay in their checkout: a new session
 * starts from the base's commit (issue 35). Said once, on stderr, when
 * the base is HEAD, the default a user expects to carry them.
 */
static void warn_left_behind(const struct session *s)
{
	struct strbuf out = STRBUF_INIT;
	size_t n = 0;

	if (s->reused || s->adopt_oid || strcmp(s->base, "HEAD") ||
	    gitcmd_capture(s->real_git, s->source_repo, &out, NULL, "status",
			   "--porcelain", "-z", "--untracked-files=no", NULL)) {
		strbuf_release(&out);
		return;
	}
	for (const char *p = out.buf; p < out.buf + out.len; n++) {
		bool two = p[0] == 'R' || p[0] == 'C'; /* then its source */
		p += strlen(p) + 1;
		if (two && p < out.buf + out.len)
			p += strlen(p) + 1;
	}
	if (n)
		warning("run: %s has %zu uncommitted change(s) that the session does not carry: it starts from the last commit of %s. Commit them first if the agent is to see them",
			s->source_repo, n,
			s->base_branch ? s->base_branch : "HEAD");
	strbuf_release(&out);
}

/* Invariant 6: a running session is refused before anything changes. */
static int check_idle(const struct session *s, struct strbuf *err)
{
	struct session_holder h;

	if (!session_lock_probe(s->home, s->agent, &h))
		return 0;
	session_lock_busy_msg(s->agent, &h, err);
	return 1;
}

/* Again when taking the lock: another run may have started meanwhile. */
static int lock_session(struct session *s, struct session_lock *l,
			struct strbuf *err)
{
	struct session_holder h;
	int rc = session_lock_take(l, s->home, s->agent, &h);

	if (rc < 0) {
		strbuf_addstr(err, "cannot take the session's lock '");
		session_lock_file(s->home, s->agent, err);
		strbuf_addf(err, "': %s", strerror(errno));
	} else if (rc > 0) {
		session_lock_busy_msg(s->agent, &h, err);
	} else {
		s->lock = l;
	}
	return rc ? 1 : 0;
}

/* Nothing is created until the command is known to exist. */
static int check_cmd(const struct session *s, const char *cmd,
		     struct strbuf *err)
{
	struct strvec env = STRVEC_INIT;
	char *exe;

	if (!strcmp(cmd, "git"))
		return 0; /* the shim, linked during provisioning */
	session_child_env(s, (const char *const *)environ, &env);
	exe = session_resolve_cmd(cmd, env.v);
	strvec_clear(&env);
	if (exe) {
		free(exe);
		return 0;
	}
	strbuf_addf(err, "'%s': command not found in the session's PATH; nothing was created",
		    cmd);
	return AG_EXIT_EXEC;
}

static int prepare(struct session *s, const struct run_opts *o,
		   struct run_profile *rp, struct session_lock *lock)
{
	struct strbuf err = STRBUF_INIT;
	unsigned char rnd[6] = { 0 };
	char *home = ag_home_dir();
	int rc;

	if (!o->agent && getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		die_errno("run: cannot draw a random agent name");
	s->allow_bypass = o->allow_bypass;
	rc = session_plan(s, o->agent, o->branch, o->base, home,
			  time(NULL), rnd, &err);
	free(home);
	if (!rc)
		rc = check_idle(s, &err);
	if (!rc)
		rc = session_inspect_repo(s, &err);
	/* the profile first: a sandboxed one may only reuse a workspace */
	if (!rc)
		rc = o->prof.profile ? run_profile_prepare(s, &o->prof, rp, &err)
				     : check_cmd(s, o->cmd[0], &err);
	if (!rc)
		rc = session_check_existing(s, &err);
	if (!rc)
		rc = session_provision(s, &err);
	if (!rc)
		rc = lock_session(s, lock, &err);
	if (rc)
		error("run: %s", err.buf);
	strbuf_release(&err);
	return rc;
}

int cmd_run(int argc, const char **argv)
{
	struct run_opts o = { 0 };
	struct session s = { 0 };
	struct strvec env = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	struct session_lock lock = SESSION_LOCK_INIT;
	struct run_profile rp;
	struct session_limits lim = { 0 };
	struct run_outcome out = { 0 };
	int code;

	run_profile_init(&rp);
	if (cmd_wants_help(argc, argv, run_usage))
		return 0;
	/* provisioning works in the operator's clone; the private
	 * workspace's own config is never run (fleet/session-sync.h) */
	gitcmd_trust_set(GIT_OPERATOR);
	if (parse(argc, argv, &o) < 0) {
		fputs("usage: agentic-git run [--agent NAME] [--branch B] [--base REF] (-- <cmd>... | --profile NAME --prompt TEXT)\n",
		      stderr);
		return AG_EXIT_USAGE;
	}
	if (parse_limits(&o, &lim) < 0)
		return AG_EXIT_USAGE;
	code = prepare(&s, &o, &rp, &lock);
	if (code) {
		run_profile_release(&rp);
		session_release(&s);
		return code;
	}
	warn_left_behind(&s);
	out.s = &s;
	out.profile = o.prof.profile != NULL;
	out.command = out.profile ? rp.p->name : o.cmd[0];
	run_progress(&s, "session ready (%s worktree %s, branch %s)",
		     s.adopt_oid ? "resumed"
		     : s.reused	 ? "reused"
				 : "new",
		     s.worktree, s.branch);
	clock_gettime(CLOCK_REALTIME, &out.started);
	if (o.prof.profile) {
		strvec_pushv(&env, rp.env.v);
		log_event(&s, "session_start", -1, rp.p->name);
		profile_limit(&rp, &lim);
		run_progress(&s, "agent profile '%s' starting", rp.p->name);
		code = run_profile_launch(&s, &rp, &lim, &err);
	} else {
		session_child_env(&s, (const char *const *)environ, &env);
		log_event(&s, "session_start", -1, o.cmd[0]);
		run_progress(&s, "command '%s' starting", o.cmd[0]);
		code = session_launch(&s, o.cmd, env.v, &lim, &err);
	}
	clock_gettime(CLOCK_REALTIME, &out.ended);
	if (err.len)
		error("run: %s", err.buf);
	if (lim.ended_by)
		log_timeout(&s, &lim);
	run_progress(&s, "ended (exit %d%s)", code,
		     lim.ended_by ? ", stopped at its timeout" : "");
	log_event(&s, "session_end", code, NULL);
	out.exit_code = code;
	out.timed_out = lim.ended_by != 0;
	out.snapshots = snapshots_on(env.v);
	if (o.json)
		run_end_json(&out);
	else
		summary(&s, code, out.snapshots);
	/* the session stays live (its newest snapshot kept) until `end` */
	retention_after_session(s.home, s.real_git, s.source_repo, "run");
	strvec_clear(&env);
	strbuf_release(&err);
	run_profile_release(&rp);
	session_release(&s);
	session_lock_release(&lock); /* the session is no longer running */
	return code;
}
