/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git dispatch: one agent task over many targets, the agent never
 * touching a remote (PRODUCT.md §9; docs/dispatch.md). This file does the
 * command-line I/O; the lifecycle is fleet/dispatch.c, the supervisor
 * fleet/pool.c.
 */
#include "base/common.h"
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include "agentic-git/core.h"
#include "base/die.h"
#include "base/envvar.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "cmd/argtable.h"
#include "cmd/dispatch-progress.h"
#include "cmd/optsets.h"
#include "cmd/cmd.h"
#include "cmd/dispatch-agent.h"
#include "fleet/retention.h"
#include "fleet/dispatch.h"
#include "fleet/prompts.h"
#include "fleet/run-reclaim.h"
#include "git/gitcmd.h"
#include "git/hooks.h"

#define PROMPT_MAX (1 << 20)
#define TARGETS_FILE_MAX (16 << 20)
#define MAX_JOBS 256

static const char usage[] =
	"usage: agentic-git dispatch (--targets FILE | --repo PATH --head B --base B [--key K])\n"
	"                            (--task resolve-conflicts | --prompt-file F)\n"
	"                            [-j N] [--timeout S] [--grace S] [--shard K/N]\n"
	"                            [--profile P] [--model M] [--config F]\n"
	"                            [--dry-run] [--json | --json-lines]\n"
	"                            [-- AGENT-CMD [ARGS...]]\n"
	"\n"
	"Run one agent task over many targets (repository + branch) in parallel.\n"
	"The agent works in a private workspace with no remote and no credentials,\n"
	"inside the sandbox its profile asks for; agentic-git fetches base and\n"
	"head, verifies the result itself and pushes with an explicit lease.\n"
	"See docs/dispatch.md.\n"
	"\n"
	"  --targets FILE      YAML or JSON (.json) list of targets\n"
	"  --repo/--head/--base/--key   one target from flags\n"
	"  --task NAME         built-in task: resolve-conflicts\n"
	"  --prompt-file F     the prompt text from a file\n"
	"  -j, --concurrency N agents at once (default 2, at most 256)\n"
	"  --timeout S         per-target timeout in seconds (default 1800)\n"
	"  --grace S           SIGTERM-to-SIGKILL grace in seconds (default 5)\n"
	"  --shard K/N         run only shard K of N (deterministic)\n"
	"  --dry-run           print the plan; create and run nothing\n"
	"  --json              machine-readable output on stdout\n"
	"  --json-lines        one JSON record per line on stdout as the run goes:\n"
	"                      run_start, target_start, target_end, run_end\n"
	"  --profile P         agent profile (else per-repo rule, default_agent, claude)\n"
	"  --model M           model override for the profile\n"
	"  --config F          config.yaml (default $AGENTIC_GIT_HOME/config.yaml)\n"
	"  -- AGENT-CMD ...    a raw agent command instead of a profile; it gets\n"
	"                      the prompt on stdin and the environment (minus\n"
	"                      credentials)\n"
	"\n"
	"Exit codes: 0 every target pushed or already up to date, 1 bad input or\n"
	"setup failure (nothing ran), 2 bad usage (nothing ran), 3 only\n"
	"escalations besides successes, 4 attention (failed, timed out,\n"
	"blocked, push refused, interrupted, sandbox refused or downgraded).\n";

enum opt_id {
	O_TARGETS,
	O_REPO,
	O_HEAD,
	O_BASE,
	O_KEY,
	O_TASK,
	O_PROMPT_FILE,
	O_PROFILE,
	O_MODEL,
	O_CONFIG,
	O_JOBS,
	O_TIMEOUT,
	O_GRACE,
	O_SHARD,
	O_DRY,
	O_JSON,
	O_JSON_LINES,
};

static const struct argspec specs[] = {
	{ "targets", 0, ARG_VALUE, O_TARGETS },
	{ "repo", 0, ARG_VALUE, O_REPO },
	{ "head", 0, ARG_VALUE, O_HEAD },
	{ "base", 0, ARG_VALUE, O_BASE },
	{ "key", 0, ARG_VALUE, O_KEY },
	{ "task", 0, ARG_VALUE, O_TASK },
	{ "prompt-file", 0, ARG_VALUE, O_PROMPT_FILE },
	{ "profile", 0, ARG_VALUE, O_PROFILE },
	{ "model", 0, ARG_VALUE, O_MODEL },
	{ "config", 0, ARG_VALUE, O_CONFIG },
	{ "concurrency", 'j', ARG_VALUE, O_JOBS },
	{ "timeout", 0, ARG_VALUE, O_TIMEOUT },
	{ "grace", 0, ARG_VALUE, O_GRACE },
	{ "shard", 0, ARG_VALUE, O_SHARD },
	{ "dry-run", 0, ARG_FLAG, O_DRY },
	{ "json", 0, ARG_FLAG, O_JSON },
	{ "json-lines", 0, ARG_FLAG, O_JSON_LINES },
	{ NULL, 0, ARG_FLAG, 0 },
};

const struct cmd_optset dispatch_optsets[] = { { NULL, specs, 0 },
					       { NULL, NULL, 0 } };

struct dopts {
	const char *v[O_CONFIG + 1];
	unsigned long jobs, timeout, grace;
	unsigned shard_k, shard_n;
	bool dry, json, json_lines, jobs_set, timeout_set;
};

static int on_opt(void *data, int id, const char *val)
{
	struct dopts *o = data;
	unsigned long *num[] = { &o->jobs, &o->timeout, &o->grace };
	const unsigned long max[] = { MAX_JOBS, 7 * 86400, 3600 };

	if (id <= O_CONFIG) {
		if (o->v[id])
			return error("option '--%s' given twice", specs[id].name);
		o->v[id] = val;
	} else if (id <= O_GRACE) {
		o->jobs_set |= id == O_JOBS;
		o->timeout_set |= id == O_TIMEOUT;
		if (parse_ulong(val, max[id - O_JOBS], num[id - O_JOBS]) < 0 ||
		    (id != O_GRACE && !*num[id - O_JOBS]))
			return error("--%s: '%s' is not a number from 1 to %lu",
				     specs[id].name, val, max[id - O_JOBS]);
	} else if (id == O_SHARD) {
		if (shard_parse(val, &o->shard_k, &o->shard_n) < 0)
			return error("--shard: '%s' is not K/N with 1 <= K <= N", val);
	} else if (id == O_DRY) {
		o->dry = true;
	} else if (id == O_JSON_LINES) {
		o->json_lines = true;
	} else {
		o->json = true;
	}
	return 0;
}

/* "~/x" -> $HOME/x; relative -> against `dir`; then canonical. */
static char *resolve_path(const char *p, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	const char *home = getenv("HOME");
	char *rp;

	if (starts_with(p, "~/") && home)
		strbuf_addf(&sb, "%s/%s", home, p + 2);
	else if (p[0] != '/' && dir)
		strbuf_addf(&sb, "%s/%s", dir, p);
	else
		strbuf_addstr(&sb, p);
	rp = real_path(sb.buf);
	if (!rp)
		rp = strbuf_detach(&sb, NULL);
	strbuf_release(&sb);
	return rp;
}

static void print_errors(const struct strvec *errs)
{
	for (size_t i = 0; i < errs->nr; i++)
		error("%s", errs->v[i]);
}

/* Targets from the file or the flags, keys finished, shard applied. */
static int load_targets(const struct dopts *o, struct target_list *tl,
			char **file_dir)
{
	struct strvec errs = STRVEC_INIT;
	struct strbuf text = STRBUF_INIT;
	int rc = -1;

	if (!!o->v[O_TARGETS] == !!(o->v[O_REPO] || o->v[O_HEAD] || o->v[O_BASE])) {
		error("give either --targets FILE or --repo, --head and --base (see --help)");
		goto out;
	}
	if (o->v[O_TARGETS]) {
		const char *f = o->v[O_TARGETS];
		if (o->v[O_KEY]) {
			error("--key goes with --repo; in a targets file use 'key:'");
			goto out;
		}
		if (read_file_bounded(f, TARGETS_FILE_MAX, RF_REGULAR, &text) < 0) {
			error_errno("cannot read targets file '%s'", f);
			goto out;
		}
		{
			char *abs = resolve_path(f, NULL);
			*file_dir = path_dirname(abs);
			free(abs);
		}
		if (targets_parse(text.buf, text.len, f, ends_with(f, ".json"), tl, &errs) < 0)
			goto out;
	} else if (targets_add(tl, o->v[O_REPO], o->v[O_HEAD], o->v[O_BASE],
			       o->v[O_KEY], &errs) < 0) {
		goto out;
	}
	if (targets_finish(tl, &errs) < 0)
		goto out;
	if (o->shard_n)
		targets_shard(tl, o->shard_k, o->shard_n);
	rc = 0;
out:
	print_errors(&errs);
	strvec_clear(&errs);
	strbuf_release(&text);
	return rc;
}

static int read_prompt(const char *path, struct strbuf *out)
{
	if (read_file_bounded(path, PROMPT_MAX, RF_REGULAR, out) < 0)
		return error_errno("cannot read prompt file '%s'", path);
	if (!out->len)
		return error("prompt file '%s' is empty", path);
	return 0;
}

/* The agent command after "--", argv[0] pinned to an absolute path. */
static int agent_command(int argc, const char **argv, struct strvec *out)
{
	const char *path = getenv("PATH");
	char *abs = NULL;

	if (!argc)
		return 0; /* the agent comes from a profile */
	if (strchr(argv[0], '/')) {
		abs = real_path(argv[0]);
	} else {
		for (const char *p = path ? path : ""; *p && !abs;) {
			const char *c = strchrnul(p, ':');
			struct strbuf sb = STRBUF_INIT;
			strbuf_add(&sb, p, (size_t)(c - p));
			strbuf_addf(&sb, "/%s", argv[0]);
			if (sb.buf[0] == '/' && access(sb.buf, X_OK) == 0)
				abs = real_path(sb.buf);
			strbuf_release(&sb);
			p = *c ? c + 1 : c;
		}
	}
	if (!abs || access(abs, X_OK) < 0) {
		free(abs);
		return error("agent command '%s' not found or not executable", argv[0]);
	}
	strvec_push(out, abs);
	strvec_pushn(out, argv + 1, (size_t)argc - 1);
	free(abs);
	return 0;
}

struct plan {
	struct agent_config cfg;
	struct target_list tl;
	struct dispatch_run run;
	struct strbuf default_prompt;
	struct strvec agent_argv;
	char *file_dir;
};

/*
 * The clone's URL, object store and identity from an earlier target of the
 * same repository (t->repo is canonical: resolve_path): each repository is
 * probed once per run, not once per target. A failed probe is not reused
 * (its target reported the error; this one probes and reports again).
 */
static bool probe_from_earlier(struct dispatch_run *run, size_t i)
{
	struct dispatch_target *d = &run->v[i];

	for (size_t j = 0; j < i; j++) {
		const struct dispatch_target *e = &run->v[j];
		if (strcmp(e->t->repo, d->t->repo) || !e->src.url)
			continue;
		workspace_source_copy(&d->src, &e->src);
		d->objects = xstrdup(e->objects);
		return true;
	}
	return false;
}

/* Validates every target (all errors reported) and builds the run. */
static int build_plan(const struct dopts *o, struct plan *p)
{
	int bad = 0;

	p->run.nr = p->tl.nr;
	p->run.v = xcalloc(p->tl.nr ? p->tl.nr : 1, sizeof(*p->run.v));
	for (size_t i = 0; i < p->tl.nr; i++) {
		struct target *t = &p->tl.v[i];
		struct dispatch_target *d = &p->run.v[i];
		struct strbuf err = STRBUF_INIT;
		char *repo = resolve_path(t->repo, p->file_dir);

		free(t->repo);
		t->repo = repo;
		d->t = t;
		strbuf_init(&d->prompt, 0);
		agent_launch_init(&d->launch);
		run_record_init(&d->rec);
		d->ws = (struct workspace)WORKSPACE_INIT;
		strbuf_init(&d->refs_before, 0);
		d->box = (struct agent_sandbox)AGENT_SANDBOX_INIT;
		strbuf_init(&d->sandbox_desc, 0);
		d->rec.key = t->key, d->rec.repo = t->repo;
		d->rec.head = t->head, d->rec.base = t->base;
		if (!probe_from_earlier(&p->run, i)) {
			/* the workspace builder's probe (fleet/workspace.h) */
			if (workspace_probe(gitcmd_real_git(), t->repo, true,
					    &d->src, &err) < 0)
				bad = error("target '%s': %s", t->key, err.buf);
			else
				d->objects =
					xstrfmt("%s/objects", d->src.common);
		}
		if (t->profile && p->agent_argv.nr)
			bad = error("target '%s': 'profile' and an agent command after '--' exclude each other",
				    t->key);
		if (!t->verify_command.nr && p->cfg.dispatch.verify_command.nr)
			strvec_pushv(&t->verify_command, p->cfg.dispatch.verify_command.v);
		if (t->prompt) {
			char *pf = resolve_path(t->prompt, p->file_dir);
			if (read_prompt(pf, &d->prompt) < 0)
				bad = -1;
			free(pf);
		} else {
			strbuf_addbuf(&d->prompt, &p->default_prompt);
		}
		if (p->agent_argv.nr) {
			strvec_pushv(&d->launch.argv, p->agent_argv.v);
			d->launch.env_inherit = true;
			d->launch.prompt_on_stdin = true;
			d->launch.timeout = (unsigned)o->timeout;
		} else if (!bad) {
			struct agent_choice ch = {
				t->profile ? t->profile : o->v[O_PROFILE],
				o->v[O_MODEL],
				o->timeout_set ? (unsigned)o->timeout : 0,
				t->repo, d->src.url ? d->src.url : ""
			};
			if (dispatch_agent_plan(&p->cfg, &ch, d->prompt.buf, &d->launch) < 0)
				bad = error("target '%s': no agent to run", t->key);
		}
		strbuf_release(&err);
	}
	return bad ? -1 : 0;
}

static void plan_release(struct plan *p)
{
	for (size_t i = 0; i < p->run.nr; i++)
		dispatch_target_release(&p->run.v[i]);
	free(p->run.v);
	rundir_release(&p->run.rd);
	target_list_release(&p->tl);
	agent_config_release(&p->cfg);
	strbuf_release(&p->default_prompt);
	strvec_clear(&p->agent_argv);
	free(p->file_dir);
}

static void print_dry_run(const struct plan *p, bool json)
{
	struct strbuf o = STRBUF_INIT;

	if (json)
		strbuf_addstr(&o, "{\"dry_run\":true,\"targets\":[");
	for (size_t i = 0; i < p->run.nr; i++) {
		const struct dispatch_target *d = &p->run.v[i];
		/* the policy asked for; the host is probed only when it runs */
		enum sandbox_policy sbx = d->launch.prof ? d->launch.prof->sandbox
							 : SANDBOX_NONE;
		if (json) {
			strbuf_addstr(&o, i ? ",{\"key\":" : "{\"key\":");
			strbuf_add_json_str(&o, d->t->key);
			strbuf_addstr(&o, ",\"repo\":");
			strbuf_add_json_str(&o, d->t->repo);
			strbuf_addstr(&o, ",\"head\":");
			strbuf_add_json_str(&o, d->t->head);
			strbuf_addstr(&o, ",\"base\":");
			strbuf_add_json_str(&o, d->t->base);
			strbuf_addf(&o, ",\"prompt_chars\":%zu,\"sandbox\":", d->prompt.len);
			strbuf_add_json_str(&o, sandbox_policy_name(sbx));
			strbuf_addch(&o, '}');
		} else {
			strbuf_addf_inert(
				&o,
				"would dispatch %s: %s %s onto %s (prompt %zu chars, sandbox %s)\n",
				d->t->key, d->t->repo, d->t->head, d->t->base,
				d->prompt.len, sandbox_policy_name(sbx));
		}
	}
	if (json)
		strbuf_addstr(&o, "]}\n");
	else
		strbuf_addf_inert(
			&o, "%zu target(s); agent: %s; nothing was created\n",
			p->run.nr,
			p->agent_argv.nr ? p->agent_argv.v[0]
			: p->run.nr && p->run.v[0].launch.profile
				? p->run.v[0].launch.profile
				: "-");
	fputs(o.buf, stdout);
	strbuf_release(&o);
}

/* The state root (ag_home_dir()), made and canonical. */
static char *prepare_home(void)
{
	char *h = ag_home_dir();
	struct strbuf sb = STRBUF_INIT, bin = STRBUF_INIT;
	char *abs = NULL, *hooks;

	if (!h) {
		error("cannot find the home: set AGENTIC_GIT_HOME or HOME");
		return NULL;
	}
	strbuf_addstr(&sb, h);
	free(h);
	strbuf_addf(&bin, "%s/bin", sb.buf);
	if (mkdir_p(bin.buf, 0700) < 0 || !(abs = real_path(sb.buf))) {
		error_errno("cannot create '%s'", bin.buf);
		goto out;
	}
	if (ag_key_ensure(abs) < 0) {
		error_errno("cannot create the integrity key in '%s'", abs);
		free(abs);
		abs = NULL;
		goto out;
	}
	strbuf_addstr(&bin, "/git");
	/* The shim the agent finds first on PATH (an existing one is kept). */
	if (!path_exists(bin.buf) && shim_exe() && symlink(shim_exe(), bin.buf) < 0)
		warning("cannot install the shim at '%s': %s", bin.buf, strerror(errno));
	/* The session hooks every workspace names (fleet/workspace.h, git/hooks.h). */
	hooks = hooks_dir(abs);
	if (hooks_install(hooks, self_exe()) < 0) {
		error_errno("cannot write hooks in '%s'", hooks);
		free(abs);
		abs = NULL;
	}
	free(hooks);
out:
	strbuf_release(&sb);
	strbuf_release(&bin);
	return abs;
}

static void print_result(const struct plan *p, int code, bool json)
{
	struct strbuf o = STRBUF_INIT;

	if (json) {
		strbuf_addstr(&o, "{\"run_id\":");
		strbuf_add_json_str(&o, p->run.rd.id);
		strbuf_addstr(&o, ",\"run_dir\":");
		strbuf_add_json_str(&o, p->run.rd.path);
		strbuf_addf(&o, ",\"exit_code\":%d,\"targets\":[", code);
		for (size_t i = 0; i < p->run.nr; i++) {
			if (i)
				strbuf_addch(&o, ',');
			run_record_json(&p->run.v[i].rec, &o);
		}
		strbuf_addstr(&o, "]}\n");
	} else {
		for (size_t i = 0; i < p->run.nr; i++) {
			const struct run_record *r = &p->run.v[i].rec;
			strbuf_addf_inert(&o, "%-13s %s\n",
					  run_status_str(r->status), r->key);
		}
		strbuf_addf_inert(&o, "run %s: %s (exit %d)\n", p->run.rd.id,
				  p->run.rd.path, code);
	}
	fputs(o.buf, stdout);
	strbuf_release(&o);
}

static int run_plan(struct plan *p, const struct dopts *o)
{
	struct pool_ops ops = { p->run.nr, o->jobs, (unsigned)(o->grace * 1000),
				dispatch_prepare, dispatch_started,
				dispatch_finished, &p->run };
	struct strbuf summary = STRBUF_INIT;
	struct dispatch_progress prog;
	char *home = prepare_home();
	int code;

	if (!home)
		return 1;
	p->run.home = home;
	if (rundir_create(home, &p->run.rd) < 0) {
		free(home);
		return 1;
	}
	/* this run's lock, then what killed runs left (fleet/run-reclaim.h) */
	rundir_hold(p->run.rd.path);
	rundir_reclaim(home, p->run.rd.id);
	/* the retention of runs/ (docs/dispatch.md, "Run directories") */
	rundir_prune(home, p->cfg.dispatch.keep_runs,
		     (long)p->cfg.dispatch.keep_days * 24 * 3600, time(NULL),
		     p->run.rd.id);
	p->run.log_cap = (unsigned long long)p->cfg.dispatch.log_cap_mib << 20;
	/* the journal's limits, from the same config (fleet/retention.h) */
	retention_sync_journal(home, &p->cfg);
	dispatch_progress_setup(&p->run, &prog, o->json, o->json_lines);
	dispatch_progress_begin(&p->run);
	if (pool_run(&ops, NULL) < 0) {
		free(home);
		return 1;
	}
	code = dispatch_exit_code(&p->run);
	{
		const struct run_record **recs = xcalloc(p->run.nr + 1, sizeof(*recs));
		for (size_t i = 0; i < p->run.nr; i++)
			recs[i] = &p->run.v[i].rec;
		run_summary_md(p->run.rd.id, recs, p->run.nr, code, &summary);
		free(recs);
	}
	rundir_write(&p->run.rd, "summary.md", &summary);
	dispatch_progress_end(&p->run, code);
	if (!o->json_lines)
		print_result(p, code, o->json);
	strbuf_release(&summary);
	free(home);
	return code;
}

int cmd_dispatch(int argc, const char **argv)
{
	struct dopts o = { .jobs = 2, .timeout = 1800,
			   .grace = POOL_DEFAULT_GRACE_S };
	struct plan p = { TARGET_LIST_INIT };
	const struct builtin_task *task = NULL;
	int rest = argc, code = 1;

	if (cmd_wants_help(argc, argv, usage))
		return 0;
	umask(077);
	strbuf_init(&p.default_prompt, 0);
	strvec_init(&p.agent_argv);
	if (argtable_parse_cmd("dispatch", "the agent command goes after '--'",
			       argc, argv, specs, on_opt, &o, &rest) < 0)
		return AG_EXIT_USAGE;
	if ((o.v[O_PROFILE] || o.v[O_MODEL]) && rest < argc) {
		error("give either --profile/--model or an agent command after '--', not both");
		return AG_EXIT_USAGE;
	}
	if (o.json_lines && (o.json || o.dry)) {
		error("--json-lines goes with neither --json nor --dry-run");
		return 1;
	}
	if (!!o.v[O_TASK] == !!o.v[O_PROMPT_FILE]) {
		error("give exactly one of --task %s or --prompt-file FILE", builtin_task_names());
		return AG_EXIT_USAGE;
	}
	if (o.v[O_TASK] && !(task = builtin_task_find(o.v[O_TASK]))) {
		error("unknown task '%s' (built in: %s)", o.v[O_TASK], builtin_task_names());
		return AG_EXIT_USAGE;
	}
	if (task)
		strbuf_addstr(&p.default_prompt, task->prompt);
	p.run.rebase_task = task && task->rebase;
	if ((o.v[O_PROMPT_FILE] && read_prompt(o.v[O_PROMPT_FILE], &p.default_prompt) < 0) ||
	    agent_command(argc - rest, argv + rest, &p.agent_argv) < 0 ||
	    dispatch_config_load(o.v[O_CONFIG], &p.cfg) < 0 ||
	    load_targets(&o, &p.tl, &p.file_dir) < 0 || build_plan(&o, &p) < 0)
		goto out;
	if (!o.jobs_set && p.cfg.dispatch.concurrency)
		o.jobs = p.cfg.dispatch.concurrency;
	if (o.dry)
		print_dry_run(&p, o.json), code = 0;
	else
		code = run_plan(&p, &o);
out:
	plan_release(&p);
	return code;
}
