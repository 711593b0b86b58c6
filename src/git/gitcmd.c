/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one runner of real git for agentic-git itself; see gitcmd.h.
 *
 * Invariants:
 *  1. Every child removes gitcmd_repo_vars() and the GIT_CONFIG_KEY_n /
 *     GIT_CONFIG_VALUE_n pairs, whatever the mode but GIT_AS_AGENT (which
 *     must see what the agent's command will see).
 *  2. GIT_AGENT_REPO never lets the repository's config run code: the
 *     overrides below come first on git's command line (command-line
 *     config wins over the repository's), and the filter, diff and merge
 *     drivers the repository defines are emptied one by one, read with the
 *     same neutralised git (`git config` itself runs nothing): a filter's
 *     commands empty and not required (its content is stored and written
 *     as it is in git), a textconv `cat`, an external diff or merge driver
 *     empty (a command that would need one fails instead of running it).
 *  3. What cannot be neutralised fails closed: a repository whose drivers
 *     cannot be listed gets no git at all in that mode (the child is
 *     pointed at a path that does not exist, so it fails to start).
 *  4. Every mode but GIT_AS_AGENT runs git with GIT_OPTIONAL_LOCKS=0: the
 *     operator looking (`sessions`, `review`, `events`, snapshot listings,
 *     `end`'s checks) never holds an index.lock an agent's command needs.
 *  5. GIT_AGENT_REPO git runs in the process's cage (gitcmd_cage_set(),
 *     docs/sandbox.md "The boundary rule"); invariant 2 is only a second
 *     wall. The cage may write the repository's work tree, and its git and
 *     common dir only when they lie inside it or are the admin dir of a
 *     linked worktree that names this work tree (a `.git` file an agent
 *     wrote cannot hand the cage another repository). No cage, or a
 *     repository whose git dir is elsewhere: git is not run, and the
 *     reason is printed once.
 *  6. Submodules are never entered (submodule.recurse=false,
 *     diff.ignoreSubmodules=all): a nested repository's config is the
 *     agent's too.
 */
#include "base/common.h"
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include "base/die.h"
#include "base/envvar.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "git/gitcmd.h"
#include "git/config-includes.h"
#include "git/owned-links.h"
#include "git/realgit.h"
#include "git/repo.h"

extern char **environ;

/* git's `rev-parse --local-env-vars` (2.39), then what else steers it */
static const char *const repo_vars[] = {
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS",
	"GIT_CONFIG_COUNT", "GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE",
	"GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE", "GIT_INDEX_FILE",
	"GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_PREFIX",
	"GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE", "GIT_COMMON_DIR",
	"GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES", "GIT_QUARANTINE_PATH",
	"GIT_LITERAL_PATHSPECS", "GIT_GLOB_PATHSPECS", "GIT_NOGLOB_PATHSPECS",
	"GIT_ICASE_PATHSPECS", "GIT_EXEC_PATH", "GIT_EXTERNAL_DIFF",
	"AGENTIC_GIT_BYPASS", "AGEND_GIT_BYPASS", NULL,
};

/* GIT_AGENT_REPO: what would hand git the operator's secrets or config */
static const char *const agent_env_out[] = {
	"SSH_AUTH_SOCK", "SSH_ASKPASS", "GIT_ASKPASS", "GIT_SSH",
	"GIT_SSH_COMMAND", "GH_TOKEN", "GITHUB_TOKEN", "GITLAB_TOKEN",
	"XDG_CONFIG_HOME", "GIT_PAGER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR",
	"GIT_PROXY_COMMAND", NULL,
};
static const char *const agent_env_set[] = {
	"HOME=/nonexistent", "GIT_CONFIG_GLOBAL=/dev/null",
	"GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0",
	"GCM_INTERACTIVE=never", "GIT_PAGER=cat", "GIT_EDITOR=:", NULL,
};

/* Both GIT_OPERATOR and GIT_AGENT_REPO: no hooks, no background gc. */
static const char *const own_ops[] = {
	"core.hooksPath=/dev/null", "gc.auto=0", "maintenance.auto=false", NULL,
};
/* GIT_AGENT_REPO: every code path the repository's config could name. */
static const char *const neutral[] = {
	"core.fsmonitor=false",
	"core.sshCommand=false",
	"core.pager=cat",
	"core.editor=:",
	"sequence.editor=:",
	"core.askPass=",
	"credential.helper=",
	"diff.external=",
	"core.alternateRefsCommand=",
	"commit.gpgSign=false",
	"tag.gpgSign=false",
	"protocol.ext.allow=never",
	/* invariant 6 */
	"submodule.recurse=false",
	"diff.ignoreSubmodules=all",
	"status.submoduleSummary=false",
	"fetch.recurseSubmodules=false",
	NULL,
};

/* GIT_AGENT_REPO too: a log of an agent's signed commit would run the
 * repository's gpg.program (threat T107). */
static const char *const no_verify[] = { "log.showSignature=false", NULL };

static enum git_trust process_trust = GIT_INTERNAL;
static char *real_git_path; /* owned, found once */
static gitcmd_cage_fn cage_fn;
static bool cage_required = true;
static struct strvec trusted_stores = STRVEC_INIT; /* owned */

void gitcmd_cage_set(gitcmd_cage_fn fn)
{
	cage_fn = fn;
}

void gitcmd_cage_require(bool required)
{
	cage_required = required;
}

static bool has(const struct strvec *v, const char *s)
{
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->v[i], s))
			return true;
	return false;
}

static void store_chain(const char *objects, struct strvec *out, int depth);

void gitcmd_cage_trust_store(const char *dir, bool chain)
{
	char *real = real_path(dir);

	if (real && !has(&trusted_stores, real)) {
		strvec_push(&trusted_stores, real);
		if (chain)
			store_chain(real, &trusted_stores, 1);
	}
	free(real);
}

void gitcmd_trust_set(enum git_trust t)
{
	process_trust = t;
}

enum git_trust gitcmd_trust(void)
{
	return process_trust;
}

const char *const *gitcmd_repo_vars(void)
{
	return repo_vars;
}

const char *gitcmd_real_git(void)
{
	if (!real_git_path) {
		char *home = ag_home_dir();
		real_git_path = realgit_locate(home);
		free(home);
	}
	if (!real_git_path)
		error("cannot find the real git on PATH (set AGENTIC_GIT_REAL_GIT)");
	return real_git_path;
}

/* Every variable of the environment whose name starts with `prefix`. */
static void unset_prefixed(struct child *c, const char *prefix)
{
	for (char **e = environ; e && *e; e++) {
		if (starts_with(*e, prefix)) {
			const char *eq = strchr(*e, '=');
			char *name = xstrndup(*e, eq ? (size_t)(eq - *e) : strlen(*e));
			strvec_push(&c->env_unset, name);
			free(name);
		}
	}
}

void gitcmd_drop_traces(struct child *c)
{
	unset_prefixed(c, "GIT_TRACE");
}

static void scrub_env(struct child *c, bool agent_repo)
{
	for (const char *const *v = repo_vars; *v; v++)
		strvec_push(&c->env_unset, *v);
	unset_prefixed(c, "GIT_CONFIG_KEY_");
	unset_prefixed(c, "GIT_CONFIG_VALUE_");
	/* GIT_TRACE*: our own git traces into no file the caller named */
	gitcmd_drop_traces(c);
	/* git's messages in English: the dry run of a clean and other
	 * callers read its words ("Would remove"), which a caller's
	 * LANGUAGE or LC_ALL would translate */
	strvec_push(&c->env_unset, "LANGUAGE");
	strvec_push(&c->env_set, "LC_ALL=C");
	/* invariant 4: what we run never takes a lock git calls optional
	 * (status refreshing the index): an agent's git must not find one */
	strvec_push(&c->env_set, "GIT_OPTIONAL_LOCKS=0");
	if (agent_repo) {
		strvec_pushv(&c->env_unset, agent_env_out);
		strvec_pushv(&c->env_set, agent_env_set);
	}
}

static void push_configs(struct strvec *args, const char *const *kv)
{
	for (; *kv; kv++)
		strvec_pushl(args, "-c", *kv, NULL);
}

static int cage_prefix(const char *real_git, const char *dir,
		       const char *gitdir, const char *top, const char *also,
		       struct strvec *prefix, struct strvec *env);

/* The filter, diff and merge drivers a repository defines (invariant 2). */
struct drivers {
	char *key;	      /* dir or git dir it was read for */
	struct strvec kv;     /* "-c" values that empty them */
	bool ok;
};
static struct drivers seen[8]; /* owned, for the process */

static void parse_drivers(const struct strbuf *out, struct strvec *kv)
{
	for (const char *p = out->buf; p < out->buf + out->len;) {
		const char *name = p, *last = strrchr(p, '.');
		size_t n = strlen(p);
		p += n + 1;
		if (!last || last == name)
			continue;
		/* an empty textconv would be run as ""; cat is the identity */
		strvec_pushf(kv, "%s=%s", name,
			     ends_with(name, ".textconv") ? "cat" : "");
		if (starts_with(name, "filter."))
			strvec_pushf(kv, "%.*s.required=false",
				     (int)(last - name), name);
	}
}

static const struct drivers *drivers_of(const char *real_git, const char *dir,
					const char *gitdir, const char *top)
{
	static const char *const pattern =
		"^(filter|diff|merge)\\..*\\.(clean|smudge|process|textconv|command|driver)$";
	const char *key = gitdir ? gitdir : dir ? dir : ".";
	struct child c = CHILD_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(seen) && seen[i].key; i++)
		if (!strcmp(seen[i].key, key))
			return &seen[i];
	if (i == ARRAY_SIZE(seen)) /* a process this busy: start over */
		for (i = 0; i < ARRAY_SIZE(seen); i++) {
			free(seen[i].key);
			strvec_clear(&seen[i].kv);
			seen[i].key = NULL;
		}
	for (i = 0; seen[i].key; i++)
		;
	seen[i].key = xstrdup(key);
	strvec_init(&seen[i].kv);
	if (cage_prefix(real_git, dir, gitdir, top, NULL, &c.args, &c.env_set) <
	    0) {
		child_release(&c);
		return &seen[i]; /* not ok: invariant 3 */
	}
	strvec_push(&c.args, real_git);
	push_configs(&c.args, own_ops);
	push_configs(&c.args, neutral);
	push_configs(&c.args, no_verify);
	strvec_pushl(&c.args, "config", "--null", "--name-only",
		     "--get-regexp", pattern, NULL);
	c.dir = top ? top : dir;
	scrub_env(&c, true);
	if (gitdir) {
		strvec_pushf(&c.env_set, "GIT_DIR=%s", gitdir);
		strvec_pushf(&c.env_set, "GIT_WORK_TREE=%s", top);
	}
	c.capture_out = true;
	c.capture_err = true;
	/* 1: no such key, the usual answer */
	if (!child_run(&c) && (c.status == 0 || c.status == 1)) {
		parse_drivers(&c.out, &seen[i].kv);
		seen[i].ok = true;
	}
	child_release(&c);
	return &seen[i];
}

/* The object stores `objects` reads (its alternates, 5 deep as git). */
static void store_chain(const char *objects, struct strvec *out, int depth)
{
	struct strbuf alt = STRBUF_INIT;
	char *path = path_join(objects, "info/alternates");

	if (depth <= 5 && !read_file_bounded(path, 1 << 16, RF_REGULAR, &alt)) {
		for (char *l = alt.buf, *e; *l; l = e) {
			e = strchrnul(l, '\n');
			if (*e)
				*e++ = '\0';
			if (*l && *l != '#') {
				char *j = path_join(objects, l);
				char *real = real_path(j);
				if (real && !has(out, real)) {
					strvec_push(out, real);
					store_chain(real, out, depth + 1);
				}
				free(real);
				free(j);
			}
		}
	}
	strbuf_release(&alt);
	free(path);
}

/*
 * Invariant 5: may the cage write `d`, a git or common dir of `top`? Where
 * the caller pointed (`start`) holds it, or the work tree does, or it is
 * the admin dir of a linked worktree of `top`: never a place a `.git`
 * file in the work tree names on its own.
 */
static bool repo_dir_ok(const char *d, const char *top, const char *gitdir,
			const char *start)
{
	const char *rel;
	char *wt;
	bool ok;

	if (!top || path_inside(d, top, &rel) || path_inside(d, start, &rel) ||
	    path_inside(start, d, &rel))
		return true;
	/* a linked worktree: its admin dir's `gitdir` names <top>/.git */
	wt = repo_worktree_of_admin(gitdir);
	ok = wt && !strcmp(wt, top);
	free(wt);
	return ok;
}

/* Invariant 5: no link where we write in `dir` (owned-links.h). */
static int links_ok(const char *dir, struct strbuf *why)
{
	static struct strvec clean = STRVEC_INIT; /* owned: checked dirs */
	struct strbuf where = STRBUF_INIT;
	int rc = 0;

	if (has(&clean, dir))
		return 0;
	if (gitdir_links_find(dir, &where)) {
		strbuf_addf(
			why,
			"the git dir '%s' holds a symbolic link (or a FIFO, socket, device or unreadable directory) at '%s': git would write through it, or hang",
			dir, where.buf);
		rc = -1;
	} else {
		strvec_push(&clean, dir);
	}
	strbuf_release(&where);
	return rc;
}

static void cage_refused(const char *why)
{
	static bool said;

	if (!said)
		error("agentic-git's own git was not run: %s (docs/sandbox.md, \"The boundary rule\")",
		      why);
	said = true;
}

/* Invariant 5: the cage's prefix for git in `dir` (or gitdir/top). */
static int cage_prefix(const char *real_git, const char *dir,
		       const char *gitdir, const char *top, const char *also,
		       struct strvec *prefix, struct strvec *env)
{
	struct repo_loc r = { 0 };
	struct strvec rw = STRVEC_INIT, ro = STRVEC_INIT;
	struct strbuf why = STRBUF_INIT;
	char *cwd = real_path(top ? top : dir ? dir : ".");
	char *git_real = real_path(real_git), *git_dir = NULL;
	enum repo_found f;
	int rc = -1;

	if (!cwd || !git_real) {
		strbuf_addf(&why, "cannot resolve '%s'",
			    !cwd ? (dir ? dir : ".") : real_git);
		goto out;
	}
	f = gitdir ? repo_from_gitdir(gitdir, top, &r) : repo_discover(cwd, &r);
	strvec_push(&rw, r.top && f == REPO_FOUND ? r.top : cwd);
	if (f == REPO_FOUND) {
		const char *wt = r.top ? r.top : NULL;
		const char *start = gitdir ? r.gitdir : cwd;
		if (!repo_dir_ok(r.gitdir, wt, r.gitdir, start) ||
		    !repo_dir_ok(r.commondir, wt, r.gitdir, start)) {
			strbuf_addf(
				&why,
				"the git dir of '%s' lies outside it ('%s')",
				wt, r.gitdir);
			goto out;
		}
		if (links_ok(r.gitdir, &why) < 0 ||
		    links_ok(r.commondir, &why) < 0)
			goto out;
		strvec_push(&rw, r.gitdir);
		if (strcmp(r.commondir, r.gitdir))
			strvec_push(&rw, r.commondir);
	}
	if (also) {
		char *a = real_path(also);
		if (a)
			strvec_push(&rw, a);
		free(a);
	}
	git_dir = path_dirname(git_real);
	strvec_push(&ro, git_dir);
	if (f == REPO_FOUND) {
		/* what the repository's config includes, read-only: git dies
		 * on an include it may not read (git/config-includes.h) */
		char *c = path_join(r.commondir, "config");
		char *w = path_join(r.gitdir, "config.worktree");
		config_include_targets(c, getenv("HOME"), &ro);
		config_include_targets(w, getenv("HOME"), &ro);
		free(c);
		free(w);
	}
	if (trusted_stores.nr) {
		strvec_pushv(&ro, (const char *const *)trusted_stores.v);
	} else if (f == REPO_FOUND) {
		char *objects = path_join(r.commondir, "objects");
		store_chain(objects, &ro, 1);
		free(objects);
	}
	if (!cage_fn) {
		strbuf_addstr(&why, "no cage is set up for it");
		goto out;
	}
	{
		struct gitcmd_cage cg = { .dir = cwd,
					  .real_git = git_real,
					  .rw = (const char *const *)rw.v,
					  .rw_nr = rw.nr,
					  .ro = (const char *const *)ro.v,
					  .ro_nr = ro.nr };
		rc = cage_fn(&cg, prefix, env, &why);
		if (rc && !cage_required)
			rc = 0; /* no caged agent wrote it: as before */
	}
out:
	if (rc)
		cage_refused(why.buf);
	repo_loc_release(&r);
	strvec_clear(&rw);
	strvec_clear(&ro);
	strbuf_release(&why);
	free(cwd);
	free(git_real);
	free(git_dir);
	return rc;
}

static void prepare_also(struct child *c, enum git_trust t,
			 const char *real_git, const char *dir,
			 const char *gitdir, const char *top, const char *also)
{
	const struct drivers *d;

	if (t == GIT_AGENT_REPO && cage_prefix(real_git, dir, gitdir, top, also,
					       &c->args, &c->env_set) < 0) {
		strvec_push(&c->args, "/nonexistent/git-not-caged");
		return;
	}
	strvec_push(&c->args, real_git);
	c->dir = top ? top : dir;
	if (t == GIT_AS_AGENT) {
		strvec_pushl(&c->env_unset, "GIT_DIR", "GIT_WORK_TREE",
			     "GIT_COMMON_DIR", NULL);
		return;
	}
	scrub_env(c, t == GIT_AGENT_REPO);
	strvec_push(&c->env_set, "AGENTIC_GIT_BYPASS=1");
	strvec_push(&c->env_set, "AGEND_GIT_BYPASS=1");
	if (gitdir) {
		strvec_pushf(&c->env_set, "GIT_DIR=%s", gitdir);
		strvec_pushf(&c->env_set, "GIT_WORK_TREE=%s", top);
	}
	if (t == GIT_INTERNAL)
		return;
	push_configs(&c->args, own_ops);
	if (t != GIT_AGENT_REPO)
		return;
	push_configs(&c->args, neutral);
	push_configs(&c->args, no_verify);
	d = drivers_of(real_git, dir, gitdir, top);
	if (!d->ok) {
		/* invariant 3 */
		strvec_clear(&c->args);
		strvec_push(&c->args, "/nonexistent/git-drivers-not-listed");
		return;
	}
	for (size_t i = 0; i < d->kv.nr; i++)
		strvec_pushl(&c->args, "-c", d->kv.v[i], NULL);
}

static void prepare(struct child *c, enum git_trust t, const char *real_git,
		    const char *dir, const char *gitdir, const char *top)
{
	prepare_also(c, t, real_git, dir, gitdir, top, NULL);
}

void gitcmd_init_also(struct child *c, const char *real_git, const char *dir,
		      const char *also_rw)
{
	prepare_also(c, process_trust, real_git, dir, NULL, NULL, also_rw);
}

void gitcmd_prepare(struct child *c, enum git_trust t, const char *real_git,
		    const char *dir)
{
	prepare(c, t, real_git, dir, NULL, NULL);
}

void gitcmd_init(struct child *c, const char *real_git, const char *dir)
{
	prepare(c, process_trust, real_git, dir, NULL, NULL);
}

void gitcmd_init_repo(struct child *c, const char *real_git,
		      const char *gitdir, const char *top)
{
	prepare(c, process_trust, real_git, top, gitdir, top);
}

void gitcmd_scrubbed_env(struct strvec *env)
{
	struct child c = CHILD_INIT;

	scrub_env(&c, true);
	child_build_env(&c, env);
	child_release(&c);
}

/* 256 MiB: a short-lived git never gives its heap back */
#define KEEP_HEAP "glibc.malloc.trim_threshold=268435456"

void gitcmd_keep_heap(struct child *c)
{
	const char *user = getenv("GLIBC_TUNABLES");

	strvec_pushf(&c->env_set, "GLIBC_TUNABLES=%s%s%s", KEEP_HEAP,
		     user && *user ? ":" : "", user ? user : "");
}

int gitcmd_run(struct child *c, struct strbuf *out, struct strbuf *err)
{
	int ret;

	c->capture_out = out != NULL;
	c->capture_err = true;
	if (child_run(c) < 0)
		return -1;
	ret = c->status;
	if (out)
		strbuf_addbuf(out, &c->out);
	if (err) {
		strbuf_addbuf(err, &c->err);
		strbuf_rtrim(err);
	}
	return ret;
}

int gitcmd_capture(const char *real_git, const char *dir, struct strbuf *out,
		   struct strbuf *err, ...)
{
	struct child c = CHILD_INIT;
	const char *a;
	va_list ap;
	int ret;

	gitcmd_init(&c, real_git, dir);
	va_start(ap, err);
	while ((a = va_arg(ap, const char *)))
		strvec_push(&c.args, a);
	va_end(ap);
	ret = gitcmd_run(&c, out, err);
	child_release(&c);
	return ret;
}

int gitcmd(enum git_trust t, const char *dir, struct strbuf *out,
	   struct strbuf *err, const char *const *args)
{
	const char *git = gitcmd_real_git();
	struct child c = CHILD_INIT;
	int rc;

	if (!git)
		return -1;
	gitcmd_prepare(&c, t, git, dir);
	strvec_pushv(&c.args, args);
	c.capture_out = true;
	c.capture_err = true;
	rc = child_run(&c);
	if (rc == 0)
		rc = c.status;
	else
		error_errno("cannot run '%s'", git);
	if (out)
		strbuf_addbuf(out, &c.out);
	if (err)
		strbuf_addbuf(err, &c.err);
	child_release(&c);
	return rc;
}

int gitcmdl(enum git_trust t, const char *dir, struct strbuf *out,
	    struct strbuf *err, ...)
{
	struct strvec args = STRVEC_INIT;
	const char *s;
	va_list ap;
	int rc;

	va_start(ap, err);
	while ((s = va_arg(ap, const char *)))
		strvec_push(&args, s);
	va_end(ap);
	rc = gitcmd(t, dir, out, err, args.v);
	strvec_clear(&args);
	return rc;
}

void gitcmd_parallel(enum git_trust t, const char *dir,
		     struct gitcmd_job *jobs, size_t n)
{
	const char *git = gitcmd_real_git();
	struct child *c = xcalloc(n ? n : 1, sizeof(*c));

	for (size_t i = 0; i < n; i++) {
		c[i] = (struct child)CHILD_INIT;
		jobs[i].status = -1;
		if (!git)
			continue;
		gitcmd_prepare(&c[i], t, git, dir);
		strvec_pushv(&c[i].args, jobs[i].args);
		c[i].capture_out = true;
		c[i].capture_err = true;
		if (child_start(&c[i]) < 0)
			error_errno("cannot run '%s'", c[i].args.v[0]);
	}
	/* in order: a child whose pipe fills waits until its turn */
	for (size_t i = 0; i < n; i++) {
		if (c[i].pid >= 0 && child_finish(&c[i]) == 0) {
			jobs[i].status = c[i].status;
			strbuf_addbuf(&jobs[i].out, &c[i].out);
		}
		child_release(&c[i]);
	}
	free(c);
}

void gitcmd_chomp(struct strbuf *sb)
{
	if (sb->len && sb->buf[sb->len - 1] == '\n')
		strbuf_setlen(sb, sb->len - 1);
}
