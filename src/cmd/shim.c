/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shim mode: an agent ran `git …` and found us first on PATH.
 *
 * Invariants:
 *  1. The recursion guard runs before anything else: a real loop (the
 *     depth reaches SHIM_DEPTH_MAX) exits 70; legitimate nesting (git
 *     runs a hook or an alias whose shell finds the shim again) passes.
 *  2. Real git is never this binary; failing to find it exits 127.
 *  3. The hot path (no deny, nothing destructive, no push) spawns no
 *     process: facts come from files and the shim execs real git.
 *  4. A denied command never reaches git and exits 1 with the deny block.
 *  5. A snapshot failure blocks the operation in agentic-git's own
 *     sessions and dispatch targets (their signed binding says so: it
 *     carries the bypass field only they write) and when the operator set
 *     AGENTIC_GIT_FAIL_CLOSED=1; in the embedding mode it warns loudly and
 *     the operation runs (the original's contract).
 */
#include "base/common.h"
#include <errno.h>
#include <string.h>
#include "base/die.h"
#include "base/envvar.h"
#include "base/eventlog.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/spawn.h"
#include "base/strvec.h"
#include "base/xalloc.h"
#include "cmd/cmd.h"
#include "cmd/denymsg.h"
#include "cmd/shim-stash.h"
#include "git/argv.h"
#include "git/classify.h"
#include "git/config-env.h"
#include "git/facts.h"
#include "git/gitcmd.h"
#include "git/policy.h"
#include "git/pushguard.h"
#include "git/pushpin.h"
#include "git/pushspec.h"
#include "git/realgit.h"
#include "git/snapshot.h"
#include "git/stale-locks.h"
#include "git/stash-map.h"

/*
 * Eight levels: legitimate nesting (git runs a hook or an alias whose
 * shell finds the shim again) stays well below; a real loop (real git
 * that leads back to the shim) climbs one level per turn and stops here.
 */
#define SHIM_DEPTH_MAX 8

/* A routed command's GIT_INDEX_FILE that is not a temp index of the
 * agent's own: in the repository's git dirs but not its worktree's (the
 * file's symlinks followed), from where git resolves a relative one (the
 * routed directory, the worktree's top), or unresolvable. */
static bool index_elsewhere(const struct shim_facts *f, const char *gi,
			    const char *route_dir)
{
	const char *bases[] = { route_dir, f->wt.top };
	const char *rel;
	bool out = false;

	for (size_t i = 0; i < ARRAY_SIZE(bases) && !out; i++) {
		char *real = facts_index_file(bases[i], gi);
		out = !real || (path_inside(real, f->wt.commondir, &rel) &&
				!path_inside(real, f->wt.gitdir, &rel));
		if (real && !out) {
			char *dir = path_dirname(real), *d = NULL;
			char *agent = marker_agent_above(dir, &d);
			out = agent && strcmp(agent, f->env.agent);
			free(agent);
			free(d);
			free(dir);
		}
		free(real);
	}
	return out;
}

static void recursion_guard(unsigned depth)
{
	if (depth < SHIM_DEPTH_MAX)
		return;
	fprintf(stderr,
		"agentic-git: FATAL recursion guard tripped (AGENTIC_GIT_SHIM_DEPTH=%u) — the shim keeps finding itself as git; set AGENTIC_GIT_REAL_GIT to the real git binary\n",
		depth);
	exit(AG_EXIT_RECURSION);
}

static void prepare_env(const struct verdict *v, const struct shim_facts *f,
			const struct git_argv *ga)
{
	struct strbuf depth = STRBUF_INIT;

	strbuf_addu(&depth, f->env.depth + 1UL);
	setenv("AGENTIC_GIT_SHIM_DEPTH", depth.buf, 1);
	strbuf_release(&depth);
	/* an agent's shell that keeps repository hooks off keeps the
	 * session's on: they are agentic-git's (config-env.h) */
	if (v->drop_env_hooks_off)
		config_env_drop_hooks_off(&ga->env_config);
	/* git itself refuses abbreviated long options (`reset --har`) for
	 * agents: the policy reasons about full spellings (PRODUCT.md §4),
	 * the read-only allowlist too (`config --remove-s` or
	 * `interpret-trailers --in-pl` read as reads). Not where no spelling
	 * can make a write (status, log: the hot path) */
	if (*f->env.agent && !f->env.bypass && !git_read_whatever_spelling(ga))
		setenv("GIT_TEST_DISALLOW_ABBREVIATED_OPTIONS", "1", 1);
	if (v->kind != V_ROUTE)
		return;
	/* each unsetenv(3) walks the environment: only when one is set */
	if (f->env.env_repo_override) {
		unsetenv("GIT_DIR");
		unsetenv("GIT_WORK_TREE");
		unsetenv("GIT_COMMON_DIR");
	}
	if (f->env.env_index_override && f->have_wt &&
	    index_elsewhere(f, getenv("GIT_INDEX_FILE"), v->route_dir.buf))
		unsetenv("GIT_INDEX_FILE");
}

static AG_NORETURN void exec_git(const char *real_git, const struct verdict *v)
{
	struct strvec argv = STRVEC_INIT;

	strvec_push(&argv, real_git);
	strvec_pushv(&argv, v->args.v);
	execv(real_git, (char *const *)argv.v);
	fprintf(stderr, "agentic-git: exec failed: %s: %s\n", real_git,
		strerror(errno));
	exit(AG_EXIT_EXEC);
}

static void audit_bypass(const struct git_argv *ga, const struct shim_facts *f,
			 const struct verdict *v)
{
	struct event ev = EVENT_INIT("bypass_mutating_op", f->env.agent, v->sub);
	char *cwd = getcwd(NULL, 0);
	struct strvec words = STRVEC_INIT;

	git_argv_push_all(ga, &words);
	event_add_strv(&ev, "argv", (const char *const *)words.v, words.nr);
	strvec_clear(&words);
	event_add_str(&ev, "cwd", cwd ? cwd : "");
	event_add_int(&ev, "ppid", (long long)getppid());
	event_add_str(&ev, "bypass_layer", f->env.bypass_layer);
	event_write(f->env.home, &ev);
	event_release(&ev);
	fprintf(stderr,
		"agentic-git: AGENTIC_GIT_BYPASS mutating git %s (layer=%s, ppid=%ld, cwd=%s) — audited\n",
		v->sub, f->env.bypass_layer, (long)getppid(), cwd ? cwd : "?");
	free(cwd);
}

/*
 * Whether a failed snapshot refuses the operation (invariant 5): a binding
 * of agentic-git's own `run` or dispatch (signed, so the agent cannot
 * strip the field), or the operator's opt-in in the embedding mode.
 */
static bool fail_closed(const struct shim_facts *f)
{
	const char *v = getenv("AGENTIC_GIT_FAIL_CLOSED");

	if (f->bstate == AG_BINDING_BOUND && f->binding.bypass)
		return true;
	return v && ag_env_is_one(v);
}

/*
 * What the operation deletes that no tree holds is kept in the quarantine
 * (git/snapshot-keep.c): sparse-checkout's ignored files, the work of the
 * submodules rm or submodule names (every one when the pathspec comes
 * from a file, or a command recurses into them). Such an operation is refused when they cannot be kept.
 */
static void keep_what_no_tree_holds(const struct git_argv *ga,
				    struct snapshot_opts *o,
				    struct strvec *subpaths)
{
	size_t from = 0;

	if (!strcmp(ga->sub, "sparse-checkout")) {
		o->keep_sparse_ignored = true;
		return;
	}
	if (!strcmp(ga->sub, "submodule"))
		from = 1; /* after its verb: update [--] <path>… */
	else if (git_opt_on(ga, "recurse-submodules")) {
		/* reset, checkout, switch, read-tree into every submodule
		 * (invariant fuzzer, seed 77: reset --recurse-submodules
		 * --hard) */
		o->keep_submodules = true;
		return;
	} else if (strcmp(ga->sub, "rm"))
		return;
	o->keep_submodules = true;
	if (git_opt_value(ga, "pathspec-from-file"))
		return;
	for (size_t i = from; i < ga->npos; i++)
		strvec_push(subpaths, ga->pos[i]);
	o->submodule_paths = subpaths->v;
}

/* What `sub` deletes that the quarantine could not hold, and the way out. */
static void keep_refused(const char *sub)
{
	const char *
		what = "a submodule's work",
	       *out = "commit the submodule's work, or move it out of the submodule, first";

	if (!strcmp(sub, "clean")) {
		what = "ignored files, nested repositories";
		out = "run git clean without -x/-X and with one -f";
	} else if (!strcmp(sub, "sparse-checkout")) {
		what = "ignored files in the directories that leave the cone";
		out = "move those ignored files out of them first";
	}
	fprintf(stderr,
		"agentic-git: git %s refused: what it would delete and no snapshot can hold (%s) could not be quarantined (see above) — free space in $AGENTIC_GIT_HOME and retry, or %s\n",
		sub, what, out);
}

/* A lock a killed git left makes the command fail: git says so, we add
 * which one and the way out (git/stale-locks.h). */
static void name_stale_locks(const char *dir, const char *sub)
{
	struct strvec locks = STRVEC_INIT;
	struct strbuf msg = STRBUF_INIT;

	if (stale_locks_find(dir, true, &locks)) {
		stale_locks_explain(&locks, &msg);
		fprintf(stderr, "agentic-git: warning — git %s may fail: %s\n",
			sub, msg.buf);
	}
	strvec_clear(&locks);
	strbuf_release(&msg);
}

/* 0, or -1 when the operation must not run: its snapshot failed in a
 * session, or what it deletes and no snapshot can hold (clean -x/-X's
 * ignored files, sparse-checkout's, a submodule's work) is not safe. */
static int take_snapshot(const struct git_argv *ga, const struct shim_facts *f,
			 const struct verdict *v)
{
	bool incomplete = false;
	struct strvec paths = STRVEC_INIT, configs = STRVEC_INIT,
		      sources = STRVEC_INIT, subpaths = STRVEC_INIT;
	struct snapshot_opts o = {
		.real_git = f->real_git,
		.agent = f->env.agent,
		.home = f->env.home,
		.slug = v->snapshot_slug,
		.quarantine_ignored = v->quarantine,
		.quarantine_incomplete = &incomplete,
		.fail_closed = fail_closed(f),
	};
	int ret = 0;

	o.dir = v->kind == V_ROUTE ? v->route_dir.buf : f->eff_cwd;
	if (!o.dir)
		return 0;
	if (shim_stash_wanted(v, f))
		o.stash_ref = STASH_SESSION_REF;
	git_overwrite_sources(ga, f->tok_facts, &sources, &paths);
	o.overwrite_from = sources.nr ? sources.v : NULL;
	o.overwrite_paths = paths.v;
	o.output_paths = f->out_files.nr ? f->out_files.v : NULL;
	/* a routed command runs without them; any other names its own */
	if (v->kind != V_ROUTE)
		facts_caller_repo(ga, &o.git_dir, &o.work_tree);
	/* what will really run: a routed clean keeps the session marker */
	if (!strcmp(v->snapshot_slug, "clean")) {
		o.clean_args = (const char *const *)v->args.v + v->sub_args_at;
		strvec_pushn(&configs, ga->configs, ga->nconfigs);
		o.clean_configs = configs.v;
	}
	keep_what_no_tree_holds(ga, &o, &subpaths);
	ret = snapshot_guard(&o);
	if (!ret)
		name_stale_locks(o.dir, v->sub);
	if (ret == -1)
		keep_refused(ga->sub);
	ret = ret < 0 ? -1 : 0;
	strvec_clear(&subpaths);
	strvec_clear(&paths);
	strvec_clear(&configs);
	strvec_clear(&sources);
	return ret;
}

/*
 * A push the guards passed is pinned to what they scanned (git/pushpin.h):
 * the session hooks' stubs run the agentic-git beside the shim.
 */
static void pin_push(struct verdict *v, const struct shim_facts *f)
{
	struct strbuf err = STRBUF_INIT;
	const char *self = self_exe();
	char *dir = self ? path_dirname(self) : NULL;
	char *ag = dir ? path_join(dir, "agentic-git") : NULL;

	if (ag && access(ag, X_OK)) {
		free(ag);
		ag = self ? xstrdup(self) : NULL;
	}
	if (push_pin_apply(v, f->real_git, f->env.home, ag, &err) < 0) {
		v->kind = V_DENY;
		v->event = "deny";
		v->style = DS_BLOCK;
		strbuf_reset(&v->reason);
		strbuf_addf(
			&v->reason,
			"the push cannot be pinned to what the guard scanned (fail-closed): %s — ask the operator",
			err.buf);
	}
	free(dir);
	free(ag);
	strbuf_release(&err);
}

/* rebase/merge/…: run git, then explain a conflict instead of letting the
 * agent abandon the work (reference §3.10). */
static int run_with_conflict_guidance(const char *real_git,
				      const struct verdict *v,
				      const struct shim_facts *f)
{
	struct child c = CHILD_INIT, d = CHILD_INIT;
	int status;

	strvec_push(&c.args, real_git);
	strvec_pushv(&c.args, v->args.v);
	c.inherit_stdin = true;
	if (child_run(&c) < 0) {
		fprintf(stderr, "agentic-git: exec failed: %s: %s\n", real_git,
			strerror(errno));
		exit(AG_EXIT_EXEC);
	}
	status = c.status;
	child_release(&c);
	if (!status)
		return 0;
	gitcmd_prepare(&d, GIT_INTERNAL, real_git, v->route_dir.buf);
	strvec_pushl(&d.args, "diff", "--name-only", "--diff-filter=U", NULL);
	d.capture_out = true;
	d.capture_err = true;
	if (!child_run(&d) && d.out.len) {
		struct event ev = EVENT_INIT("git_conflict", f->env.agent, v->sub);
		event_add_null(&ev, "target_branch");
		event_add_str(&ev, "reason",
			      "merge conflict — resolve the markers and continue (do not abandon/redo)");
		event_write(f->env.home, &ev);
		event_release(&ev);
		fprintf(stderr,
			"⚠ Merge conflict detected. To resolve:\n"
			"  1. edit the conflicted files below and resolve every <<<<<<< / >>>>>>> marker\n"
			"  2. git add <file> for each resolved file\n"
			"  3. git %s --continue\n"
			"  Do NOT abandon the operation or redo the work from scratch.\n"
			"Conflicted files:\n%s",
			v->sub, d.out.buf);
	}
	child_release(&d);
	return status;
}

int cmd_shim(int argc, const char **argv)
{
	unsigned depth = facts_depth();
	struct git_argv ga;
	struct shim_facts f;
	struct policy_input in;
	struct verdict v;
	char *real_git;
	int status;

	recursion_guard(depth);
	/* the hot path's reads are closed by execve (base/fileio.h) */
	fileio_keep_fds_to_exec(16);
	real_git = realgit_locate(ag_getenv_str(AGE_HOME));
	if (!real_git) {
		fprintf(stderr,
			"agentic-git: exec failed: cannot find the real git (not on PATH outside the shim's bin/, not at /usr/bin/git); set AGENTIC_GIT_REAL_GIT\n");
		return AG_EXIT_EXEC;
	}
	git_argv_parse(&ga, argv + 1, (size_t)(argc - 1));
	facts_gather(&f, &ga, real_git);
	in = facts_input(&f, &ga);
	verdict_init(&v);
	policy_decide(&in, &v);
	if (v.kind != V_DENY && v.push_guards) {
		push_guards_verdict(f.real_git, &in, &v);
		if (v.kind != V_DENY)
			pin_push(&v, &f);
	}
	if (v.kind == V_DENY) {
		deny_print(stderr, &v, &f);
		deny_record(&v, &f);
		status = AG_EXIT_DENY;
		goto out;
	}
	if (v.audit_bypass)
		audit_bypass(&ga, &f, &v);
	if (v.snapshot_slug && take_snapshot(&ga, &f, &v) < 0)
		return AG_EXIT_DENY;
	prepare_env(&v, &f, &ga);
	if (shim_stash_wanted(&v, &f)) {
		status = shim_stash_run(&v, &ga, &f);
		goto out;
	}
	if (v.conflict_wrap && v.kind == V_ROUTE) {
		status = run_with_conflict_guidance(real_git, &v, &f);
		goto out;
	}
	exec_git(real_git, &v);
out:
	verdict_release(&v);
	facts_release(&f);
	git_argv_release(&ga);
	free(real_git);
	return status;
}
