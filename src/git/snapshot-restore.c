/* SPDX-License-Identifier: Apache-2.0 */
/* Restoring a snapshot into its work tree (git/snapshot-restore.h). */
#include "base/common.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "base/die.h"
#include "base/eventlog.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "git/gitcmd.h"
#include "git/quarantine.h"
#include "git/snapshot-restore.h"
#include "git/snapshot.h"
#include "git/stash-map.h"

/*
 * Where a restore works: the work tree's top and git dir, and the caller's
 * place in the work tree (empty at its top, or when the caller stands in a
 * directory that holds the .git of a work tree elsewhere: core.worktree).
 */
struct restore_loc {
	struct strbuf top, gitdir, prefix;
};

static int locate_repo(const struct restore_opts *o, struct restore_loc *l,
		       struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;
	char *p, *top, *gitdir, *prefix;
	int ret = -1;

	if (gitcmd_capture(o->real_git, o->dir, &out, err, "rev-parse",
			   "--show-toplevel", "--absolute-git-dir",
			   "--show-prefix", NULL) == 0) {
		p = out.buf;
		top = strsep(&p, "\n");
		gitdir = p ? strsep(&p, "\n") : NULL;
		prefix = p ? strsep(&p, "\n") : NULL;
		if (*top == '/' && gitdir && *gitdir == '/' && prefix) {
			strbuf_addstr(&l->top, top);
			strbuf_addstr(&l->gitdir, gitdir);
			strbuf_addstr(&l->prefix, prefix);
			ret = 0;
		}
	}
	if (ret < 0 && !err->len)
		strbuf_addstr(err, "not in a git work tree");
	strbuf_release(&out);
	return ret;
}

/*
 * One git command in the located work tree; `in` (may be NULL) on its
 * stdin; `literal`: pathspecs are plain paths (invariant 3).
 */
static int loc_run(const struct restore_opts *o, const struct restore_loc *l,
		   struct strbuf *out, struct strbuf *err,
		   const char *const *args, const struct strbuf *in,
		   bool literal)
{
	struct child c = CHILD_INIT;
	int st;

	gitcmd_init_repo(&c, o->real_git, l->gitdir.buf, l->top.buf);
	if (literal)
		strvec_push(&c.env_set, "GIT_LITERAL_PATHSPECS=1");
	strvec_pushv(&c.args, args);
	if (in) {
		c.in = in->buf;
		c.in_len = in->len;
	}
	st = gitcmd_run(&c, out, err);
	child_release(&c);
	return st;
}

/* Paths (top-relative, NUL-separated) under the caller's place that differ
 * from the snapshot, minus newer files. */
static int changed_paths(const struct restore_opts *o,
			 const struct restore_loc *l, struct strbuf *paths,
			 size_t *n, struct strbuf *err)
{
	const char *const diff[] = { "diff",
				     "--name-status",
				     "--no-renames",
				     "--no-ext-diff",
				     "-z",
				     o->snap->commit,
				     "--",
				     l->prefix.len ? l->prefix.buf : ".",
				     NULL };
	struct strbuf out = STRBUF_INIT;

	if (loc_run(o, l, &out, err, diff, NULL, true) != 0) {
		if (!err->len)
			strbuf_addstr(err, "git diff failed");
		strbuf_release(&out);
		return -1;
	}
	*n = 0;
	for (size_t off = 0; off < out.len;) {
		const char *status = out.buf + off, *path;
		size_t sl = strlen(status);

		if (off + sl + 1 >= out.len)
			break;
		path = status + sl + 1;
		off += sl + 1 + strlen(path) + 1;
		/* invariant 1: A = exists now, not in the snapshot */
		if (status[0] == 'A')
			continue;
		strbuf_add(paths, path, strlen(path) + 1);
		(*n)++;
	}
	strbuf_release(&out);
	return 0;
}

/* Invariant 3: checkout/reset with literal paths from stdin. */
static int git_paths(const struct restore_opts *o, const struct restore_loc *l,
		     const struct strbuf *paths, const char *const *args,
		     struct strbuf *err)
{
	struct strvec a = STRVEC_INIT;
	int st;

	strvec_pushv(&a, args);
	strvec_pushl(&a, "--pathspec-from-file=-", "--pathspec-file-nul", NULL);
	st = loc_run(o, l, NULL, err, a.v, paths, true);
	strvec_clear(&a);
	return st == 0 ? 0 : -1;
}

/* Stash commits the snapshot saved that the stash list lost, oldest first. */
static void missing_stashes(const struct restore_opts *o,
			    const struct restore_loc *l, struct strvec *missing)
{
	static const char *const refs[] = { "refs/stash", STASH_SESSION_REF };
	const struct strvec *saved = &o->snap->meta.stashes;
	struct strbuf out = STRBUF_INIT;

	if (!saved->nr)
		return;
	/* in the shared stash or a session's own (git/stash-map.h) */
	for (size_t i = 0; i < ARRAY_SIZE(refs); i++)
		loc_run(o, l, &out, NULL,
			(const char *const[]){ "log", "-g", "--format=%H",
					       refs[i], "--", NULL },
			NULL, false);
	for (size_t i = saved->nr; i-- > 0;)
		if (!strstr(out.buf, saved->v[i]))
			strvec_push(missing, saved->v[i]);
	strbuf_release(&out);
}

/* Quarantined paths that are missing from the work tree now; the files
 * among them that exist again into *present (a kept copy: git
 * overwrote the file, `submodule update --force`). */
static size_t quarantine_pending(const char *qdir, const char *top,
				 size_t *present)
{
	struct strvec all = STRVEC_INIT;
	size_t n = 0;

	*present = 0;
	if (!qdir)
		return 0;
	quarantine_list(qdir, &all);
	for (size_t i = 0; i < all.nr; i++) {
		char *p = xstrfmt("%s/%s", top, all.v[i]);
		size_t len = strlen(p);
		bool dir = len > 1 && p[len - 1] == '/';
		if (dir)
			p[len - 1] = '\0';
		if (!path_exists(p))
			n++;
		else if (!dir)
			(*present)++;
		free(p);
	}
	strvec_clear(&all);
	return n;
}

/* Taken where the caller stands: git finds the repository from there. */
int snapshot_restore_save(const struct restore_opts *o, struct strbuf *ref,
			  struct strbuf *err)
{
	struct snapshot_opts so = { .real_git = o->real_git,
				    .dir = o->dir,
				    .agent = o->agent,
				    .home = o->home,
				    .slug = "restore",
				    .always = o->head };
	struct strbuf serr = STRBUF_INIT;
	int ret = 0;

	/* invariant 2: fail closed */
	if (snapshot_take(&so, ref, &serr) < 0) {
		strbuf_addf(
			err,
			"could not save the current state before restoring (%s); aborted to avoid overwriting unsaved work",
			serr.buf);
		ret = -1;
	}
	strbuf_release(&serr);
	return ret;
}

/*
 * The snapshot's quarantine when it is one the engine made for this ref:
 * <home>/quarantine/<agent>/<id>[.N] (git/snapshot.c claim_quarantine),
 * <agent> and <id> the ref's own, whatever home it was taken in. The
 * commit message that names it is anyone's to write, and a restore moves
 * what it holds into the work tree: a directory of other files (someone's
 * ~/.ssh) is never taken for one. A cage writes its own quarantine
 * (git/quarantine.h QUARANTINE_ENV): the directory and its parent, what
 * an agent could have replaced, are taken only as directories of ours,
 * never through a symbolic link.
 */
static bool our_dir(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISDIR(st.st_mode) &&
	       st.st_uid == geteuid();
}

static const char *own_quarantine(const struct restore_opts *o)
{
	const char *q = o->snap->meta.quarantine, *ref = o->snap->ref;
	const char *id = ref ? strrchr(ref, '/') : NULL;
	char *real = q ? real_path(q) : NULL, *dot, *want;
	bool ok = false;

	if (real && id && o->snap->name.agent) {
		want = xstrfmt("/quarantine/%s/%s", o->snap->name.agent,
			       id + 1);
		/* <id>.<N>: claim_quarantine's second and later tries */
		dot = strrchr(real, '.');
		if (dot && dot[1] &&
		    strspn(dot + 1, "0123456789") == strlen(dot + 1))
			*dot = '\0';
		ok = ends_with(real, want);
		free(want);
	}
	if (ok) {
		char *up = path_dirname(q);
		ok = our_dir(q) && our_dir(up);
		free(up);
	}
	free(real);
	return ok ? q : NULL;
}

static void put_back_extras(const struct restore_opts *o,
			    const struct restore_loc *l,
			    const struct strvec *stashes,
			    struct restore_result *r)
{
	struct strbuf qerr = STRBUF_INIT, msg = STRBUF_INIT;
	const char *q = own_quarantine(o);

	/* (one a restore consumed is gone: nothing to say) */
	if (!q && o->snap->meta.quarantine &&
	    path_exists(o->snap->meta.quarantine))
		warning("quarantine '%s' is not this snapshot's (<home>/quarantine/%s/<id>): left alone",
			o->snap->meta.quarantine,
			o->snap->name.agent ? o->snap->name.agent : "?");
	if (q && quarantine_restore(q, l->top.buf, &r->quarantined, &r->kept,
				    &qerr) < 0)
		warning("quarantine: %s", qerr.buf);
	for (size_t i = 0; i < stashes->nr; i++) {
		const char *const subject[] = { "show",	       "-s",
						"--format=%s", stashes->v[i],
						"--",	       NULL };
		/* under its own message: git stash writes the entry's
		 * reflog message as the stash commit's subject */
		strbuf_reset(&msg);
		if (loc_run(o, l, &msg, NULL, subject, NULL, false) != 0 ||
		    !msg.len)
			strbuf_addf(&msg, "agentic-git: restored from %s",
				    o->snap->ref);
		gitcmd_chomp(&msg);
		/* an agent's restore: into its session's own stash */
		if (loc_run(o, l, NULL, NULL,
			    o->agent && *o->agent
				    ? (const char *const[]){ "update-ref",
							     "--create-reflog",
							     "-m", msg.buf,
							     STASH_SESSION_REF,
							     stashes->v[i],
							     NULL }
				    : (const char *const[]){ "stash", "store",
							     "-m", msg.buf,
							     stashes->v[i],
							     NULL },
			    NULL, false) == 0)
			r->stashes++;
	}
	strbuf_release(&qerr);
	strbuf_release(&msg);
}

static void log_restored(const struct restore_opts *o, const char *top,
			 const struct restore_result *r)
{
	struct event ev = EVENT_INIT("snapshot_restored", o->agent, "restore");

	event_add_str(&ev, "ref", o->snap->ref);
	event_add_str(&ev, "worktree", top);
	event_add_int(&ev, "paths", (long long)r->paths);
	if (r->pre_ref.len)
		event_add_str(&ev, "pre_restore_ref", r->pre_ref.buf);
	event_write(o->home, &ev);
	event_release(&ev);
}

/* The tip of o->snap and, with o->head, what --head may do with it. */
static int plan_tip(const struct restore_opts *o, const struct restore_loc *l,
		    struct snapshot_tip *t, enum tip_plan *plan,
		    struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;

	*plan = TIP_NOTHING;
	if (snapshot_tip_read(o->real_git, l->gitdir.buf, l->top.buf, o->snap,
			      t, err) < 0)
		return -1;
	if (o->head && (*plan = snapshot_tip_plan(t, &why)) == TIP_REFUSED) {
		strbuf_addf(err, "--head refused: %s; nothing was changed",
			    why.buf);
		strbuf_release(&why);
		return -1;
	}
	strbuf_release(&why);
	return 0;
}

int snapshot_restore_head_check(const struct restore_opts *o,
				struct strbuf *err)
{
	struct restore_loc l = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	struct snapshot_tip t = SNAPSHOT_TIP_INIT;
	enum tip_plan plan;
	int ret = locate_repo(o, &l, err);

	if (!ret)
		ret = plan_tip(o, &l, &t, &plan, err);
	snapshot_tip_release(&t);
	strbuf_release(&l.top);
	strbuf_release(&l.gitdir);
	strbuf_release(&l.prefix);
	return ret;
}

static void log_tip(const struct restore_opts *o, const char *top,
		    const struct snapshot_tip *t)
{
	struct event ev = EVENT_INIT("ref_update", o->agent, "restore");

	/* our own move of a branch: no hook of the session saw it */
	event_add_str(&ev, "ref", t->ref);
	event_add_str(&ev, "old", *t->now ? t->now : NULL);
	event_add_str(&ev, "new", t->want);
	event_add_str(&ev, "worktree", top);
	event_add_str(&ev, "snapshot", o->snap->ref);
	event_write(o->home, &ev);
	event_release(&ev);
}

int snapshot_restore(const struct restore_opts *o, struct restore_result *r,
		     struct strbuf *err)
{
	static const char *const checkout[] = { "checkout", NULL, NULL };
	static const char *const reset[] = { "reset", "-q", NULL };
	const char *co[3] = { checkout[0], o->snap->commit, NULL };
	struct restore_loc l = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	struct strbuf paths = STRBUF_INIT;
	struct strvec stashes = STRVEC_INIT;
	enum tip_plan plan;
	size_t n = 0;
	int ret = -1;

	if (locate_repo(o, &l, err) || changed_paths(o, &l, &paths, &n, err) ||
	    plan_tip(o, &l, &r->tip, &plan, err))
		goto out;
	missing_stashes(o, &l, &stashes);
	if (!n && !stashes.nr && plan == TIP_NOTHING &&
	    !quarantine_pending(own_quarantine(o), l.top.buf, &r->kept)) {
		ret = 0;
		goto out;
	}
	if (!o->saved && snapshot_restore_save(o, &r->pre_ref, err))
		goto out;
	if (plan != TIP_NOTHING) {
		if (snapshot_tip_move(o->real_git, l.gitdir.buf, l.top.buf,
				      &r->tip, plan, err) < 0)
			goto out;
		r->tip_moved = true;
		log_tip(o, l.top.buf, &r->tip);
	}
	put_back_extras(o, &l, &stashes, r);
	if (n) {
		if (git_paths(o, &l, &paths, co, err) < 0) {
			if (!err->len)
				strbuf_addstr(err, "git checkout failed");
			goto out;
		}
		r->paths = n;
		if (!o->staged && git_paths(o, &l, &paths, reset, NULL) < 0)
			r->unstage_failed = true;
	}
	log_restored(o, l.top.buf, r);
	ret = 0;
out:
	strbuf_release(&l.top);
	strbuf_release(&l.gitdir);
	strbuf_release(&l.prefix);
	strbuf_release(&paths);
	strvec_clear(&stashes);
	return ret;
}

void restore_result_release(struct restore_result *r)
{
	strbuf_release(&r->pre_ref);
	snapshot_tip_release(&r->tip);
}
