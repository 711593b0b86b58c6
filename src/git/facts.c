/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Invariants:
 *  1. The binding is verified (ag_binding_load) before any of its fields is
 *     used; an invalid agent name never reaches the filesystem.
 *  2. Only AGENTIC_GIT_BYPASS=1 exactly, AGENTIC_GIT_BYPASS_AGENT equal to
 *     the agent, or a future AGENTIC_GIT_BYPASS_UNTIL bypass (legacy names
 *     as fallbacks); "0", "" or anything else does not. Even those count
 *     only when the verified binding does not say "bypass": "denied" (the
 *     bypass belongs to the operator, PRODUCT.md §4); a binding that says
 *     nothing keeps the original contract.
 *  3. When the target cannot be resolved the fact says so (TGT_UNRESOLVED)
 *     and the policy fails closed; nothing here guesses.
 */
#include "base/common.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "base/envvar.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "core/binding-seen.h"
#include "git/classify.h"
#include "git/config-env.h"
#include "git/facts.h"
#include "git/outpaths.h"
#include "git/realgit.h"
#include "git/git-where.h"

extern char **environ;

unsigned facts_depth(void)
{
	unsigned long d = 0;
	if (parse_ulong(ag_getenv(AGE_SHIM_DEPTH), 1000000, &d) < 0)
		d = 0;
	return (unsigned)d;
}

static void gather_bypass(struct policy_env *e)
{
	e->bypass = ag_bypass_requested(e->agent, &e->bypass_layer);
}

static const char *env_get(const char *name)
{
	return getenv(name);
}

/* git exports its own exec path to its children: that one is fine. */
static bool exec_path_is_real_gits(const char *p, const char *real_git)
{
	static const char *const rel[] = { "../lib/git-core", "../libexec/git-core" };
	char *want = real_path(p), *bindir = real_git ? path_dirname(real_git) : NULL;
	bool ok = false;

	for (size_t i = 0; want && bindir && i < ARRAY_SIZE(rel) && !ok; i++) {
		char *j = path_join(bindir, rel[i]);
		char *c = real_path(j);
		ok = c && !strcmp(c, want);
		free(c);
		free(j);
	}
	free(want);
	free(bindir);
	return ok;
}

/* Config, programs and trace files git would take from the environment
 * (config-env.h). */
static void gather_env_config(struct shim_facts *f, struct git_argv *ga)
{
	const char *ep = getenv("GIT_EXEC_PATH");

	git_argv_read_env(ga, env_get);
	f->env.cfg_env = &ga->env_config;
	f->env.exec_path_env = ep && *ep && !exec_path_is_real_gits(ep, f->real_git);
	for (char **e = environ; e && *e && !f->env.trace_var; e++) {
		const char *eq;
		if (!starts_with(*e, "GIT_TRACE"))
			continue;
		eq = strchr(*e, '=');
		if (eq && git_trace_writes(eq + 1))
			f->env.trace_var = *e;
	}
}

/* getcwd(3) returns a physical path: canonical unless -C moved us. */
static char *effective_cwd(const struct git_argv *ga, bool *canonical)
{
	char *cur = getcwd(NULL, 0);

	*canonical = true;
	if (!cur)
		return NULL;
	for (size_t i = 0; i < ga->nchdirs; i++) {
		char *next;
		if (!*ga->chdirs[i])
			continue; /* git ignores -C "" */
		next = path_join(cur, ga->chdirs[i]);
		free(cur);
		cur = next;
		*canonical = false;
	}
	if (!*canonical) {
		char *c = real_path(cur);
		if (c) {
			free(cur);
			cur = c;
			*canonical = true;
		}
	}
	return cur;
}

static unsigned token_facts(const struct shim_facts *f, const char *tok,
			    const char *path_base)
{
	unsigned bits = 0;
	struct strbuf ref = STRBUF_INIT;
	size_t n = strlen(tok);
	bool hex = n >= 4 && n <= 64;

	for (size_t i = 0; i < n && hex; i++)
		hex = isxdigit((unsigned char)tok[i]);
	if (hex || strpbrk(tok, "~^:@") || !strcmp(tok, "HEAD") ||
	    !strcmp(tok, "FETCH_HEAD") || !strcmp(tok, "ORIG_HEAD"))
		bits |= TOK_REVLIKE;
	if (f->have_target) {
		strbuf_addf(&ref, "refs/heads/%s", tok);
		if (repo_ref_exists(&f->target, ref.buf))
			bits |= TOK_LOCAL_BRANCH;
		strbuf_reset(&ref);
		strbuf_addf(&ref, "refs/tags/%s", tok);
		if (repo_ref_exists(&f->target, ref.buf))
			bits |= TOK_TAG;
		if (repo_remote_branch_exists(&f->target, tok))
			bits |= TOK_REMOTE_BRANCH;
	}
	if (path_base) {
		char *p = path_join(path_base, tok);
		if (path_exists(p))
			bits |= TOK_PATH;
		free(p);
	}
	strbuf_release(&ref);
	return bits;
}

static void gather_binding(struct shim_facts *f)
{
	const char *why;

	f->env.agent_valid = ag_agent_name_valid(f->env.agent, &why);
	f->bind.state = BS_UNBOUND;
	if (!f->env.agent_valid) {
		f->bstate = AG_BINDING_BAD_AGENT;
		f->bind.why_unbound = ag_binding_state_str(f->bstate);
		return;
	}
	if (!*f->env.home) {
		f->bstate = AG_BINDING_NONE;
		f->bind.why_unbound = "AGENTIC_GIT_HOME is not set";
		return;
	}
	f->bstate = binding_load_seen(f->env.home, f->env.agent,
				      f->eff_canonical ? f->eff_cwd : NULL,
				      &f->binding);
	if (f->bstate == AG_BINDING_SCHEME)
		fprintf(stderr,
			"agentic-git: HMAC scheme skew — binding signed with a scheme this shim does not implement (%s); treating agent as unbound\n",
			AG_SCHEME_CURRENT);
	if (f->bstate == AG_BINDING_BAD_VERSION)
		fprintf(stderr,
			"agentic-git: binding format version is not supported by this shim (expected 1); treating agent as unbound\n");
	if (f->bstate != AG_BINDING_BOUND) {
		f->bind.why_unbound = ag_binding_state_str(f->bstate);
		return;
	}
	f->bind.state = BS_BOUND;
	f->bind.bypass_denied = f->binding.bypass &&
				strcmp(f->binding.bypass, AG_BYPASS_ALLOWED);
	f->bind.task_id = f->binding.task_id;
	f->bind.branch = f->binding.branch;
	if (f->binding.worktree) {
		const char *rel;
		/* a literal prefix of the canonical cwd is canonical itself:
		 * the usual case (the agent runs in its worktree) needs no
		 * realpath of every component */
		if (f->eff_cwd && f->eff_canonical &&
		    f->binding.worktree[0] == '/' &&
		    path_inside(f->eff_cwd, f->binding.worktree, &rel))
			f->wt_canon = xstrdup(f->binding.worktree);
		else
			f->wt_canon = real_path(f->binding.worktree);
		f->bind.worktree = f->wt_canon;
	}
}

/*
 * True when a .git exists in any directory from top/rel up to (not
 * including) top, or one of them is itself a git dir (git's discovery
 * takes it: a bare repository the agent made, whose core.worktree may
 * name any directory): a repository nested inside the worktree (a scratch
 * repo or a submodule) is its own target.
 */
static bool path_exists_below(const char *top, const char *rel)
{
	struct strbuf p = STRBUF_INIT;
	bool found = false;

	if (!*rel)
		return false;
	strbuf_addpath(&p, top, rel);
	while (!found && p.len > strlen(top)) {
		size_t n = p.len;
		char *slash;
		strbuf_addstr(&p, "/.git");
		found = path_exists(p.buf);
		strbuf_setlen(&p, n);
		found = found || repo_is_git_dir(p.buf);
		slash = strrchr(p.buf, '/');
		if (!slash)
			break;
		strbuf_setlen(&p, (size_t)(slash - p.buf));
	}
	strbuf_release(&p);
	return found;
}

static void copy_loc(struct repo_loc *dst, const struct repo_loc *src,
		     const char *rel)
{
	dst->top = src->top ? xstrdup(src->top) : NULL;
	dst->gitdir = xstrdup(src->gitdir);
	dst->commondir = xstrdup(src->commondir);
	dst->is_main = src->is_main;
	dst->head_branch = src->head_branch ? xstrdup(src->head_branch) : NULL;
	dst->head_unread = src->head_unread;
	dst->rel = xstrdup(rel);
}

void facts_caller_repo(const struct git_argv *ga, const char **git_dir,
		       const char **work_tree)
{
	*git_dir = ga->git_dir ? ga->git_dir : getenv("GIT_DIR");
	*work_tree = ga->work_tree ? ga->work_tree : getenv("GIT_WORK_TREE");
}

static void gather_target(struct shim_facts *f, const struct git_argv *ga)
{
	const char *gd, *wt, *rel;
	enum repo_found r;

	facts_caller_repo(ga, &gd, &wt);
	/* the worktree's branch is the push rule's (wt_branch): a read-only
	 * command (rev-parse, status: the hot path) needs no HEAD read */
	if (f->bind.worktree &&
	    (ga->sub && git_sub_class(ga->sub) == SC_READ
		     ? repo_discover_no_head(f->bind.worktree, &f->wt)
		     : repo_discover_canonical(f->bind.worktree, &f->wt)) ==
		    REPO_FOUND) {
		f->have_wt = true;
		f->repo.wt_branch = f->wt.head_branch;
	}
	if (!f->eff_cwd) {
		f->repo.target = TGT_UNRESOLVED;
		return;
	}
	if (gd && *gd) {
		char *g = path_join(f->eff_cwd, gd);
		char *w = wt && *wt ? path_join(f->eff_cwd, wt) : NULL;
		r = repo_from_gitdir(g, w, &f->target);
		free(g);
		free(w);
	} else if (f->have_wt && f->eff_canonical && f->wt.top &&
		   path_inside(f->eff_cwd, f->wt.top, &rel) &&
		   !path_exists_below(f->wt.top, rel)) {
		/* the common case: inside the bound worktree itself */
		copy_loc(&f->target, &f->wt, rel);
		r = REPO_FOUND;
	} else if (f->eff_canonical) {
		r = repo_discover_canonical(f->eff_cwd, &f->target);
	} else {
		r = repo_discover(f->eff_cwd, &f->target);
	}
	f->have_target = r == REPO_FOUND;
	if (r == REPO_NONE) {
		f->repo.target = TGT_NONE;
		return;
	}
	if (r == REPO_ODD) {
		f->repo.target = TGT_UNRESOLVED;
		return;
	}
	f->repo.target = TGT_FOREIGN;
	f->repo.target_rel = f->target.rel;
	f->repo.canonical_rooted = f->target.is_main && repo_has_origin(&f->target);
	if (f->have_wt && !strcmp(f->wt.commondir, f->target.commondir))
		f->repo.target = TGT_SAME;
}

/* A symlink among `dir`'s entries, `depth` levels down; *budget entries
 * at most (past it: true, fail closed). */
static bool link_below(const char *dir, unsigned depth, size_t *budget)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		char *p;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!*budget) {
			found = true;
			break;
		}
		--*budget;
		p = path_join(dir, e->d_name);
		if (!lstat(p, &st))
			found = S_ISLNK(st.st_mode) ||
				(S_ISDIR(st.st_mode) && depth > 1 &&
				 link_below(p, depth - 1, budget));
		free(p);
	}
	closedir(d);
	return found;
}

/*
 * Whether `git init` in `dir` would re-initialise a repository the agent
 * did not make there (docs/fuzzing.md I22): `.git` that is a file or a
 * link (the worktree's top: the bound repository every checkout shares),
 * a git dir that names a common dir, or a link inside `.git` (git writes
 * its config and copies templates into hooks/ and info/ through one:
 * review of d5ccd4a). A plain `.git` directory of the agent's own nested
 * repository may be re-initialised.
 */
static bool reinit_reaches_out(const char *dir)
{
	char *git = path_join(dir, ".git");
	char *common = path_join(git, "commondir");
	char *own_common = path_join(dir, "commondir");
	size_t budget = 4096;
	struct stat st;
	bool out = !lstat(own_common, &st);

	if (!lstat(git, &st))
		out = out || !S_ISDIR(st.st_mode) || !lstat(common, &st) ||
		      link_below(git, 2, &budget);
	free(git);
	free(common);
	free(own_common);
	return out;
}

/*
 * A bound agent's output paths (git/outpaths.h), resolved from where git
 * will run: the routed directory for the bound repository, else the
 * effective working directory; from the repository's top too.
 */
static void gather_outputs(struct shim_facts *f, const struct git_argv *ga)
{
	struct git_outs outs;
	struct strbuf cwd = STRBUF_INIT, res = STRBUF_INIT;
	const char *top = NULL;
	struct stat st;

	if (f->bind.state != BS_BOUND || !f->bind.worktree ||
	    !git_output_paths(ga, &outs))
		return;
	if (f->repo.target == TGT_SAME) {
		strbuf_addstr(&cwd, f->bind.worktree);
		if (*f->target.rel && f->repo.rel_exists_in_wt)
			strbuf_addf(&cwd, "/%s", f->target.rel);
		top = f->bind.worktree;
	} else if (f->eff_cwd) {
		strbuf_addstr(&cwd, f->eff_cwd);
		if (f->have_target)
			top = f->target.top;
	}
	f->repo.outs_judged = true;
	for (size_t i = 0; i < outs.nr && !f->repo.out_bad; i++) {
		const struct git_out *o = &outs.v[i];
		enum out_state s = OUTP_UNJUDGED;

		strbuf_reset(&res);
		if (!o->bad && cwd.len)
			s = out_path_judge(o->path, cwd.buf,
					   o->from_top ? top : NULL,
					   f->bind.worktree, &res);
		if (s != OUTP_INSIDE) {
			f->repo.out_bad = o->path ? o->path : "";
			f->repo.out_opt = o->opt;
			if (s == OUTP_UNJUDGED)
				f->repo.out_why =
					o->bad ? o->bad
					       : "a link to nowhere, or '..' below a directory that does not exist";
			break;
		}
		if (o->new_repo && !f->repo.reinit_dir &&
		    reinit_reaches_out(res.buf))
			f->repo.reinit_dir = o->path;
		for (size_t at = 0; o->kind == OUT_FILE && at < res.len;
		     at += strlen(res.buf + at) + 1)
			if (!lstat(res.buf + at, &st) &&
			    (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
				strvec_push(&f->out_files, res.buf + at);
	}
	strbuf_release(&cwd);
	strbuf_release(&res);
}

/* `agent` (owned), the marker's above where git acts, when not ours. */
static void note_sibling(struct shim_facts *f, char *agent)
{
	if (agent && strcmp(agent, f->env.agent)) {
		f->sibling_agent = agent;
		f->repo.sibling_agent = agent;
		f->repo.sibling_path = f->sibling_dir;
	} else {
		free(agent);
		free(f->sibling_dir);
		f->sibling_dir = NULL;
	}
}

/*
 * Where git acts besides the working directory, for a command that is not
 * routed into the agent's own worktree: the work tree set apart from the
 * repository (gather_work_tree()), and the worktree whose admin directory the git dir is
 * (<common>/worktrees/<id>: git writes its FETCH_HEAD, index and HEAD
 * there, wherever it runs from), named or the one it runs in. Another
 * agent's marker above either is that agent's worktree.
 */
static void sibling_at(struct shim_facts *f, const char *path, bool admin)
{
	char *top;

	if (f->sibling_agent || !path)
		return;
	if (!admin) {
		note_sibling(f, marker_agent_above(path, &f->sibling_dir));
	} else if ((top = repo_worktree_of_admin(path))) {
		note_sibling(f, marker_agent_above(top, &f->sibling_dir));
		free(top);
	}
}

char *facts_index_file(const char *base, const char *gi)
{
	char *path = gi[0] == '/' ? xstrdup(gi) : path_join(base, gi);
	char *real = real_path(path);

	if (!real) {
		char *dir = path_dirname(path), *rdir = real_path(dir);
		real = rdir ? path_join(rdir, path_basename(path)) : NULL;
		free(dir);
		free(rdir);
	}
	free(path);
	return real;
}

/* The index git would use, from where it resolves a relative one (the
 * working directory and the work tree's top): inside another agent's
 * worktree or admin directory is that agent's. */
static void index_sibling(struct shim_facts *f, const char *base)
{
	const char *gi = getenv("GIT_INDEX_FILE");
	char *real, *dir;

	if (!gi || !*gi || !base || !(real = facts_index_file(base, gi)))
		return;
	dir = path_dirname(real);
	sibling_at(f, dir, false);
	sibling_at(f, dir, true);
	free(dir);
	free(real);
}

/*
 * Where git acts, by git's own answer (git/git-where.h), for a command not
 * routed into the agent's own worktree: its work tree is followed for the
 * sibling boundary (f->work_tree), and named in the repository facts when
 * it is set apart from its git dir (--work-tree, GIT_WORK_TREE,
 * core.worktree in config or config.worktree, the working directory beside
 * a named --git-dir) outside the agent's worktree: `git -C <repo the agent
 * made> clean -fdx` with core.worktree naming the operator's checkout
 * deleted its files (docs/fuzzing.md I18). A repository git finds that is
 * the bound one, where the shim found another or none, is a disagreement:
 * mutations are not judged there (where_disagrees). init and clone find
 * no repository: they make one.
 */
static void gather_work_tree(struct shim_facts *f, const struct git_argv *ga)
{
	struct git_where w;
	const char *rel;

	if (!ga->sub || git_sub_class(ga->sub) == SC_CREATE || !f->eff_cwd ||
	    !f->real_git)
		return;
	if (git_where_ask(f->real_git, f->eff_cwd, ga, &w) < 0) {
		f->repo.work_tree_why = "git could not say where it would act";
		return;
	}
	if (w.commondir && f->have_wt &&
	    !strcmp(w.commondir, f->wt.commondir) && f->repo.target != TGT_SAME)
		f->repo.where_disagrees = true;
	if (w.top) {
		f->work_tree = xstrdup(w.top);
		if (!git_where_natural(&w) &&
		    (!f->bind.worktree ||
		     !path_inside(w.top, f->bind.worktree, &rel)))
			f->repo.work_tree = f->work_tree;
	}
	f->git_gitdir = w.gitdir;
	w.gitdir = NULL;
	git_where_release(&w);
}

static void target_sibling(struct shim_facts *f)
{
	if (f->bind.state == BS_BOUND && f->repo.target == TGT_SAME)
		return; /* routed: git runs in the agent's own worktree */
	sibling_at(f, f->work_tree, false);
	sibling_at(f, f->git_gitdir, true);
	/* discovery takes an admin directory it runs in for the git dir,
	 * as git does (git/repo.h) */
	if (f->have_target) {
		sibling_at(f, f->target.top, false);
		sibling_at(f, f->target.gitdir, true);
		index_sibling(f, f->target.top);
	}
	index_sibling(f, f->eff_cwd);
}

void facts_gather(struct shim_facts *f, struct git_argv *ga,
		  const char *real_git)
{
	const char *snap = ag_getenv(AGE_SNAPSHOTS);
	const char *gi = getenv("GIT_INDEX_FILE");

	memset(f, 0, sizeof(*f));
	strvec_init(&f->out_files);
	f->real_git = real_git;
	f->env.agent = ag_getenv_str(AGE_AGENT);
	f->env.home = ag_getenv_str(AGE_HOME);
	f->env.depth = facts_depth();
	f->env.allow_canonical_mutate =
		!strcmp(ag_getenv_str(AGE_ALLOW_CANONICAL_MUTATE), "1");
	f->env.env_repo_override = getenv("GIT_DIR") || getenv("GIT_WORK_TREE") ||
				   getenv("GIT_COMMON_DIR");
	f->env.env_index_override = gi && *gi;
	f->env.snapshots = !snap ? -1 : ag_env_is_one(snap) ? 1 : 0;
	ag_protected_init(&f->prot);
	f->bind.state = BS_NOAGENT;
	if (!*f->env.agent) {
		if (f->env.snapshots == 1)
			f->eff_cwd = effective_cwd(ga, &f->eff_canonical);
		return; /* operator path: nothing else is needed */
	}
	gather_bypass(&f->env);
	gather_env_config(f, ga);
	if (*f->env.home &&
	    ag_policy_load(f->env.home, &f->prot, f->policy_err,
			   sizeof(f->policy_err)) < 0)
		f->policy_refused = true;
	f->eff_cwd = effective_cwd(ga, &f->eff_canonical);
	gather_binding(f);
	if (f->env.bypass && f->bind.bypass_denied) {
		f->env.bypass = false;
		f->env.bypass_refused = true;
	}
	gather_target(f, ga);
	/* at the top of its own worktree the nearest marker is the agent's
	 * own, by the signed binding: reading it would re-learn our name */
	if (f->eff_cwd &&
	    !(f->bind.state == BS_BOUND && f->bind.worktree &&
	      f->eff_canonical && !strcmp(f->eff_cwd, f->bind.worktree)))
		note_sibling(f, f->eff_canonical
					? marker_agent_above_canonical(
						  f->eff_cwd, &f->sibling_dir)
					: marker_agent_above(f->eff_cwd,
							     &f->sibling_dir));
	if (!(f->bind.state == BS_BOUND && f->repo.target == TGT_SAME))
		gather_work_tree(f, ga);
	if (!f->sibling_agent)
		target_sibling(f);
	if (f->have_target && ga->sub && git_sub_class(ga->sub) == SC_CHECKOUT) {
		struct strbuf base = STRBUF_INIT;
		if (f->repo.target == TGT_SAME && f->bind.worktree) {
			strbuf_addstr(&base, f->bind.worktree);
			if (*f->target.rel)
				strbuf_addf(&base, "/%s", f->target.rel);
		} else {
			strbuf_addstr(&base, f->eff_cwd);
		}
		f->tok_facts = xcalloc(ga->npos + 1, sizeof(unsigned));
		for (size_t i = 0; i < ga->npos; i++)
			f->tok_facts[i] = token_facts(f, ga->pos[i], base.buf);
		f->repo.tok_facts = f->tok_facts;
		strbuf_release(&base);
	}
	if (f->repo.target == TGT_SAME && f->bind.worktree && *f->target.rel) {
		char *p = path_join(f->bind.worktree, f->target.rel);
		f->repo.rel_exists_in_wt = is_dir(p);
		free(p);
	}
	if (ga->sub && git_sub_class(ga->sub) == SC_UNKNOWN)
		f->repo.sub_is_external = git_external_exists(real_git, ga->sub);
	gather_outputs(f, ga);
}

struct policy_input facts_input(const struct shim_facts *f,
				const struct git_argv *ga)
{
	struct policy_input in = {
		.ga = ga,
		.env = &f->env,
		.bind = &f->bind,
		.repo = &f->repo,
		.protected = &f->prot,
		.policy_refused = f->policy_refused,
	};
	return in;
}

void facts_release(struct shim_facts *f)
{
	ag_binding_release(&f->binding);
	ag_protected_release(&f->prot);
	if (f->have_target)
		repo_loc_release(&f->target);
	if (f->have_wt)
		repo_loc_release(&f->wt);
	free(f->eff_cwd);
	free(f->wt_canon);
	free(f->sibling_agent);
	free(f->sibling_dir);
	free(f->work_tree);
	free(f->git_gitdir);
	free(f->tok_facts);
	strvec_clear(&f->out_files);
}
