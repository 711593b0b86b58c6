/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The shim policy (PRODUCT.md §4): the original deny matrix with its holes
 * closed. Pure: no I/O, no exit.
 *
 * Invariants:
 *  1. An agent with no valid binding may only run provably read-only forms
 *     (git_form_read_only); everything else is denied.
 *  2. For a bound agent, a mutation of the bound repository never runs
 *     anywhere but the bound worktree: -C, --git-dir, --work-tree and the
 *     GIT_DIR-style variables are stripped/scrubbed and the command is routed
 *     to the same relative position inside the worktree.
 *  3. Branch moves (checkout/switch in any spelling, update-ref, symbolic-ref)
 *     may only land on the assigned branch; protected refs (main, master,
 *     policy.toml globs) are never moved, deleted or pushed.
 *  4. Nothing under refs/agentic-git/ can be written, deleted or pushed by an
 *     agent.
 *  5. Configuration that runs code, redirects git or silences our hooks can
 *     be neither persisted nor passed with -c/--config-env (inert editor and
 *     pager values excepted).
 *  6. Only a matched bypass skips the policy, and it is audited; destructive
 *     bypassed operations are still snapshotted.
 *  7. Unknown global options, aliases and over-long command lines are denied:
 *     when in doubt, deny with a way out.
 */
#include "base/common.h"
#include <stdarg.h>
#include <string.h>
#include "git/classify.h"
#include "git/optable.h"
#include "git/outpaths.h"
#include "git/repo.h" /* SESSION_MARKER_NAME */
#include "git/policy.h"
#include "git/rules.h"
#include "git/snapshot-fence.h"

const char *verdict_kind_str(enum verdict_kind k)
{
	switch (k) {
	case V_PASS: return "pass";
	case V_ROUTE: return "route";
	case V_DENY: return "deny";
	}
	return "?";
}

void verdict_init(struct verdict *v)
{
	memset(v, 0, sizeof(*v));
	strbuf_init(&v->route_dir, 0);
	strvec_init(&v->args);
	strbuf_init(&v->reason, 0);
	strbuf_init(&v->why, 0);
	strbuf_init(&v->push_pins, 0);
	v->sub = "";
}

void verdict_release(struct verdict *v)
{
	strbuf_release(&v->route_dir);
	strvec_clear(&v->args);
	strbuf_release(&v->reason);
	strbuf_release(&v->why);
	strbuf_release(&v->push_pins);
}

#define deny verdict_deny

void verdict_deny(struct verdict *v, const char *event, enum deny_style style,
		  const char *fmt, ...)
{
	va_list ap;
	v->kind = V_DENY;
	v->event = event;
	v->style = style;
	strbuf_reset(&v->reason);
	va_start(ap, fmt);
	strbuf_vaddf(&v->reason, fmt, ap);
	va_end(ap);
	v->snapshot_slug = NULL;
	v->conflict_wrap = v->push_guards = false;
}

/* A constant reason: the hot path's verdicts run no printf (strbuf.h). */
static void why_is(struct verdict *v, const char *reason)
{
	strbuf_reset(&v->why);
	strbuf_addstr(&v->why, reason);
}

static AG_PRINTF(2, 3) void why(struct verdict *v, const char *fmt, ...)
{
	va_list ap;
	strbuf_reset(&v->why);
	va_start(ap, fmt);
	strbuf_vaddf(&v->why, fmt, ap);
	va_end(ap);
}

/* The words an agent's command gets beside its own: the row's (route),
 * and the snapshot fence's exclusion before each --all. */
#define EMIT_INS_MAX 8
static size_t emit_inserts(const struct verdict *v, const struct git_argv *ga,
			   struct git_insert *ins, size_t n)
{
	static const char *const excl[] = { SNAPSHOT_FENCE_EXCLUDE, NULL };
	size_t at[EMIT_INS_MAX];
	size_t k = v->fence_narrow
			   ? snapshot_fence_narrow(ga, at, EMIT_INS_MAX - n)
			   : 0;

	for (size_t i = 0; i < k; i++)
		ins[n++] = (struct git_insert){ at[i], excl };
	return n;
}

static void pass_verbatim(struct verdict *v, const struct git_argv *ga)
{
	struct git_insert ins[EMIT_INS_MAX];
	struct git_emit e = { .routed = false, .ins = ins };

	e.nins = emit_inserts(v, ga, ins, 0);
	v->kind = V_PASS;
	strvec_clear(&v->args);
	git_argv_emit(ga, &e, &v->args, &v->sub_args_at, &v->opts_end_at);
}

/* Runs git in the bound worktree at the same relative position: -C,
 * --git-dir and --work-tree dropped (reference §3.5), the row's words
 * added (clean's exclusion of the session marker). */
static void route(struct verdict *v, const struct policy_input *in)
{
	const struct git_argv *ga = in->ga;
	const char *rel = in->repo->target_rel;
	const struct rule *r = rule_for(ga->sub);
	struct git_insert ins[EMIT_INS_MAX];
	struct git_emit e = { .routed = true, .ins = ins };

	v->kind = V_ROUTE;
	strbuf_reset(&v->route_dir);
	strbuf_addstr(&v->route_dir, in->bind->worktree);
	if (rel && *rel && in->repo->rel_exists_in_wt) {
		strbuf_addch(&v->route_dir, '/');
		strbuf_addstr(&v->route_dir, rel);
	}
	strvec_clear(&v->args);
	strvec_push(&v->args, "-C");
	strvec_push(&v->args, v->route_dir.buf);
	if (r->route_words && r->route_words(ga, &ins[0]))
		e.nins = 1;
	e.nins = emit_inserts(v, ga, ins, e.nins);
	git_argv_emit(ga, &e, &v->args, &v->sub_args_at, &v->opts_end_at);
	v->scrub_repo_env = true;
}

bool policy_protected(const struct policy_input *in, const char *name)
{
	if (in->policy_refused)
		return true;
	return ag_protected_match(in->protected, name);
}

static bool snapshots_for(const struct policy_input *in)
{
	int s = in->env->snapshots;
	if (in->env->bypass || in->bind->state == BS_BOUND)
		return s != 0; /* on unless explicitly turned off */
	return s == 1;
}

static void effects(struct verdict *v, const struct policy_input *in)
{
	bool q = false;
	const char *slug = git_destructive_slug(in->ga, &q);

	if (slug && snapshots_for(in)) {
		v->snapshot_slug = slug;
		v->quarantine = q;
	}
}

/* ---- checks shared by every agent ---- */

/* Another agent's snapshot named or listed (git/snapshot-fence.h); an
 * agent whose binding is not verified has none of its own. */
static bool snapshot_fence_denied(struct verdict *v,
				  const struct policy_input *in)
{
	const char *own = in->bind->state == BS_BOUND ? in->env->agent : NULL;
	const char *word = "";
	enum fence_hit hit = snapshot_fence(in->ga, own, &word);

	if (!hit)
		hit = snapshot_fence_config(in->ga, in->env->cfg_env, own,
					    &word);

	/* an agent not bound reads with the allowlist, listings among them:
	 * the names it may not give are every agent's (docs/snapshots.md) */
	if (hit == FENCE_LISTED && !own)
		hit = FENCE_NONE;

	if (hit == FENCE_NAMED)
		deny(v, "deny", DS_BLOCK,
		     "'%s' names another agent's snapshot: snapshots are private to the agent that took them — yours are under refs/agentic-git/snapshots/%s/ (agentic-git snapshots list), and the operator can show any (agentic-git snapshots show)",
		     word, own ? own : "<your name, once bound>");
	else if (hit == FENCE_LISTED)
		deny(v, "deny", DS_BLOCK,
		     "'%s' would list another agent's snapshots, which are private to the agent that took them — name what you want: refs/heads, refs/tags, or your own refs/agentic-git/snapshots/%s/",
		     word, own ? own : "<your name, once bound>");
	return hit != FENCE_NONE;
}

static bool agent_common_denies(struct verdict *v, const struct policy_input *in)
{
	const struct git_argv *ga = in->ga;
	enum sub_class cls = git_sub_class(ga->sub);
	bool read_only = git_form_read_only(ga);

	if (ga->bad_global) {
		deny(v, "deny", DS_BLOCK,
		     "unrecognized global option '%s' before the subcommand — refusing to guess what git would run (fail-closed); put options after the subcommand",
		     ga->bad_global);
		return true;
	}
	if (snapshot_fence_denied(v, in))
		return true;
	if (ga->exec_path) {
		deny(v, "deny", DS_BLOCK,
		     "--exec-path redirects which git programs run — not allowed for agents; run git without it");
		return true;
	}
	if (config_carried_denied(v, in, read_only))
		return true;
	if (in->repo->sibling_agent) {
		deny(v, "deny_cross_agent_sibling", DS_SIBLING,
		     "caller=%s target_agent=%s target=%s", in->env->agent,
		     in->repo->sibling_agent,
		     in->repo->sibling_path ? in->repo->sibling_path : "");
		return true;
	}
	if (cls == SC_FORBIDDEN) {
		deny(v, "deny", DS_BLOCK,
		     "git %s is not allowed for agents: it rewrites or exposes what is not this agent's (history of every branch, credentials, served repositories) or moves refs past the guarded paths (use git push, git commit)",
		     ga->sub);
		return true;
	}
	if (cls == SC_TOOL) {
		/* docs/fuzzing.md I16: with no tool configured, difftool ran
		 * vimdiff, which wrote ~/.viminfo */
		deny(v, "deny", DS_BLOCK,
		     "git %s starts the program the configuration names (vimdiff when none is set): an interactive tool that waits for a person and writes outside the repository — not allowed for agents; read changes with git diff (--stat, --word-diff, <a> <b> -- <path>) and resolve conflicts by editing the files, then git add",
		     ga->sub);
		return true;
	}
	if (ga->sub && rule_for(ga->sub)->deny_any &&
	    rule_for(ga->sub)->deny_any(v, in))
		return true;
	if (cls == SC_HELPER && in->env->depth == 0) {
		deny(v, "deny", DS_BLOCK,
		     "direct submodule--helper invocation is not allowed — submodule operations must go through `git submodule`");
		return true;
	}
	return false;
}

/* ---- bound-agent checks on the bound repository ---- */

static bool check_bound_sub(struct verdict *v, const struct policy_input *in)
{
	return in->ga->sub && rule_check(rule_for(in->ga->sub), v, in);
}

void verdict_insert_args(struct verdict *v, size_t at, const char *const *words)
{
	struct strvec args = STRVEC_INIT;
	size_t n = 0;

	while (words[n])
		n++;
	strvec_pushn(&args, v->args.v, at);
	strvec_pushv(&args, words);
	strvec_pushn(&args, v->args.v + at, v->args.nr - at);
	strvec_clear(&v->args);
	v->args = args;
	if (at < v->sub_args_at)
		v->sub_args_at += n;
	if (at <= v->opts_end_at)
		v->opts_end_at += n;
}

/* The config the row says an agent's command runs with (`-c <kv>`
 * before the subcommand). */
static void run_config(struct verdict *v, const struct git_argv *ga)
{
	const char *kv = ga->sub ? (rule_for(ga->sub)->run_config
					    ? rule_for(ga->sub)->run_config(ga)
					    : NULL)
				 : NULL;
	const char *const cfg[] = { "-c", kv, NULL };

	if (!kv || !v->sub_args_at || v->sub_args_at - 1 >= v->args.nr)
		return;
	verdict_insert_args(v, v->sub_args_at - 1, cfg);
}

/*
 * The policy reads options as git does only where it knows them all: one
 * it cannot name could take the next token as its value and so hide a
 * branch or a path. After the specific checks, whose messages say more.
 */
static bool deny_unknown_option(struct verdict *v,
				const struct policy_input *in)
{
	const struct git_argv *ga = in->ga;
	const char *unknown;

	unknown = ga->unknown;
	if (git_form_read_only(ga) || !unknown)
		return false;
	deny(v, "deny", DS_BLOCK,
	     "'git %s': option '%s' is not one this guard knows (git %s's own options are, spelled out in full) — use an option `git %s -h` lists, or ask the operator",
	     ga->sub, unknown, GIT_OPTABLE_VERSION, ga->sub);
	return true;
}

static void decide_bound_same(struct verdict *v, const struct policy_input *in)
{
	if (check_bound_sub(v, in))
		return;
	route(v, in);
	run_config(v, in->ga);
	if (deny_unknown_option(v, in))
		return;
	effects(v, in);
	v->conflict_wrap = git_conflict_capable(in->ga->sub);
	/* what git really pushes is judged next, by git's own dry run */
	v->push_guards = git_sub_class(in->ga->sub) == SC_PUSH;
	why_is(v, "bound to '");
	strbuf_addstr(&v->why, in->bind->branch ? in->bind->branch : "");
	strbuf_addstr(&v->why, "': routed into the worktree");
}

/*
 * A file written where the command is told (git/outpaths.h) lands in the
 * agent's own worktree or nowhere: `archive -o <the operator's file>`,
 * `mailinfo - ~/.gitconfig` (docs/fuzzing.md I5). The facts resolved the
 * paths; a command whose paths were not judged is denied (fail-closed).
 */
static bool deny_output_path(struct verdict *v, const struct policy_input *in)
{
	const struct policy_repo *r = in->repo;
	struct git_outs outs;

	if (!git_output_paths(in->ga, &outs) || (r->outs_judged && !r->out_bad))
		return false;
	if (!r->outs_judged || r->out_why) {
		deny(v, "deny", DS_BLOCK,
		     "'git %s' writes a file where it is told, and where %s%s%s would write cannot be judged (%s) — name a path inside your worktree %s, or write to stdout",
		     in->ga->sub, r->out_opt ? r->out_opt : "it",
		     r->out_bad && *r->out_bad ? " " : "",
		     r->out_bad ? r->out_bad : "",
		     r->out_why ? r->out_why : "not resolved",
		     in->bind->worktree);
		return true;
	}
	if (git_sub_class(in->ga->sub) == SC_CREATE) {
		deny(v, "deny", DS_BLOCK,
		     "'git %s' would make a repository at '%s' (%s), outside your worktree — agents write files only inside their own worktree: make it under %s (git %s … %s/<name>)",
		     in->ga->sub, r->out_bad,
		     r->out_opt ? r->out_opt : "output", in->bind->worktree,
		     in->ga->sub, in->bind->worktree);
		return true;
	}
	deny(v, "deny", DS_BLOCK,
	     "'git %s' would write '%s' (%s) outside your worktree — agents write files only inside their own worktree: name a path under %s (not its .git), or write to stdout",
	     in->ga->sub, r->out_bad, r->out_opt ? r->out_opt : "output",
	     in->bind->worktree);
	return true;
}

/*
 * An agent with no binding has no worktree: it may read, and write
 * nothing, files included (`format-patch` into the operator's checkout,
 * docs/fuzzing.md I21).
 */
static void deny_unbound(struct verdict *v, const struct policy_input *in)
{
	const char *why =
		in->bind->why_unbound ? in->bind->why_unbound : "no binding";
	struct git_outs outs;

	if (git_output_paths(in->ga, &outs)) {
		deny(v, "deny", DS_BLOCK,
		     "unbound — no active task assignment (%s): 'git %s' writes files (%s%s%s), and an agent with no session has no worktree to write them into — write to stdout instead (format-patch --stdout), or work inside a session (agentic-git run)",
		     why, in->ga->sub, outs.v[0].opt, outs.v[0].path ? " " : "",
		     outs.v[0].path ? outs.v[0].path : "");
		return;
	}
	deny(v, "deny", DS_BLOCK, "unbound — no active task assignment (%s)",
	     why);
}

/*
 * Another repository's mutations pass through in place, in the directory
 * its .git sits in. A work tree set apart from it (--work-tree,
 * GIT_WORK_TREE, core.worktree, the working directory beside a named git
 * dir) is anywhere it names: it must lie in the agent's own worktree
 * (docs/fuzzing.md I18: `clean -fdx` in a repository the agent made, its
 * core.worktree the operator's checkout, deleted the operator's files).
 * Where git and the shim disagree on the repository, git's answer wins,
 * and a mutation is not judged there. Reads pass.
 */
static bool deny_work_tree_apart(struct verdict *v,
				 const struct policy_input *in, bool ro)
{
	const struct policy_repo *r = in->repo;

	if (ro || (!r->work_tree && !r->work_tree_why && !r->where_disagrees))
		return false;
	if (r->where_disagrees)
		deny(v, "deny", DS_BLOCK,
		     "'git %s' would act on the repository you are bound to, where this guard finds another repository or none (an unusual .git layout) — run it inside your worktree %s",
		     in->ga->sub, in->bind->worktree);
	else if (r->work_tree_why)
		deny(v, "deny", DS_BLOCK,
		     "'git %s': where it would act cannot be judged (%s) — run it inside your worktree %s",
		     in->ga->sub, r->work_tree_why, in->bind->worktree);
	else
		deny(v, "deny", DS_BLOCK,
		     "'git %s' would act on the work tree '%s' (set by --work-tree, GIT_WORK_TREE or core.worktree), outside your worktree — a work tree apart from its repository must lie inside your worktree %s: name one there, or unset core.worktree",
		     in->ga->sub, r->work_tree, in->bind->worktree);
	return true;
}

static void decide_bound(struct verdict *v, const struct policy_input *in)
{
	const struct git_argv *ga = in->ga;
	bool ro = git_form_read_only(ga);
	enum sub_class cls = git_sub_class(ga->sub);
	if (!in->bind->worktree) {
		if (ro) {
			pass_verbatim(v, ga);
			why_is(v, "bound without a worktree: read-only form passes through");
			return;
		}
		deny(v, "deny", DS_BLOCK, "bound but no worktree path");
		return;
	}
	if (deny_output_path(v, in) ||
	    (rule_for(ga->sub)->deny_bound &&
	     rule_for(ga->sub)->deny_bound(v, in)) ||
	    (in->repo->target != TGT_SAME && deny_work_tree_apart(v, in, ro)))
		return;
	switch (in->repo->target) {
	case TGT_NONE:
		pass_verbatim(v, ga);
		why_is(v, "not inside a repository: passes through");
		return;
	case TGT_UNRESOLVED:
		if (ro) {
			pass_verbatim(v, ga);
			return;
		}
		deny(v, "deny", DS_BLOCK,
		     "cannot tell which repository this would change (unusual .git layout) — run it inside your worktree %s",
		     in->bind->worktree);
		return;
	case TGT_FOREIGN:
		if (cls == SC_PUSH) {
			deny(v, "deny_cross_branch_push", DS_BLOCK,
			     "pushing from a repository other than your bound worktree is not allowed");
			return;
		}
		if (in->repo->canonical_rooted && !ro) {
			struct co_analysis co = { CO_NONE, NULL, false };
			bool q;
			if (cls == SC_CHECKOUT)
				git_checkout_analyse(ga, in->repo->tok_facts, &co);
			if ((co.kind != CO_NONE && co.kind != CO_FILES) ||
			    git_destructive_slug(ga, &q)) {
				deny(v, "deny", DS_BLOCK,
				     "DENIED — agent callers must not change another canonical checkout (#852): no checkout, reset or clean there; inspect it with git -C <dir> log/diff/show, or gh pr diff / repo action=checkout");
				return;
			}
		}
		if (deny_unknown_option(v, in))
			return;
		pass_verbatim(v, ga);
		run_config(v, ga);
		effects(v, in);
		why_is(v, "another repository: passes through");
		return;
	case TGT_SAME:
		decide_bound_same(v, in);
		return;
	}
}

static bool canonical_bypass_deny(struct verdict *v, const struct policy_input *in)
{
	const struct git_argv *ga = in->ga;
	bool hit = false;

	if (!*in->env->agent || in->env->allow_canonical_mutate ||
	    !in->repo->canonical_rooted || !ga->sub)
		return false;
	if (!strcmp(ga->sub, "worktree"))
		hit = ga->verb && !strcmp(ga->verb, "add");
	else if (git_sub_class(ga->sub) == SC_CHECKOUT)
		/* the original's: its first argument is not an option */
		hit = ga->pos_leads && *ga->pos[0];
	if (!hit)
		return false;
	deny(v, "", DS_CANONICAL, "bypass-%s in a canonical-rooted repo", ga->sub);
	return true;
}

void policy_decide(const struct policy_input *in, struct verdict *v)
{
	const struct git_argv *ga = in->ga;

	v->sub = ga->sub ? ga->sub : "";
	v->bound_remedy = in->bind->state == BS_BOUND && in->bind->worktree;
	if (ga->too_long) {
		deny(v, "deny", DS_BLOCK, "command line too long (over %d arguments)",
		     GIT_ARGV_MAX);
		return;
	}
	if (!*in->env->agent) {
		pass_verbatim(v, ga);
		effects(v, in);
		why_is(v, "no agent identity: operator command passes through");
		return;
	}
	if (in->env->bypass) {
		if (canonical_bypass_deny(v, in))
			return;
		pass_verbatim(v, ga);
		effects(v, in);
		v->audit_bypass = in->env->depth == 0 && !git_form_read_only(ga);
		why(v, "bypassed (%s): passes through, audited", in->env->bypass_layer);
		return;
	}
	v->fence_narrow = true; /* an agent's command, from here on */
	if (agent_common_denies(v, in))
		return;
	if (ga->info_only && !ga->sub) {
		/* --version/--help: after the common denies, so that
		 * `-c man.viewer=… --help` cannot slip through (fuzz-argv) */
		pass_verbatim(v, ga);
		return;
	}
	if (git_sub_class(ga->sub) == SC_HELPER) {
		pass_verbatim(v, ga); /* nested call from git itself */
		return;
	}
	if (in->bind->state != BS_BOUND) {
		if (git_form_read_only(ga)) {
			pass_verbatim(v, ga);
			why_is(v, "unbound agent: read-only form passes through");
			return;
		}
		deny_unbound(v, in);
		return;
	}
	decide_bound(v, in);
}
