// SPDX-License-Identifier: Apache-2.0
/*
 * What an operation deletes that no tree of the repository can hold,
 * kept in the quarantine while it stays in place (git/snapshot.h,
 * `keep_sparse_ignored`, `keep_submodules`; issue 33):
 *
 *  - `sparse-checkout set/add/reapply/init/disable`: in cone mode git
 *    removes a directory that leaves the cone when nothing but ignored
 *    files is left in it, ignored files and all (`conf/prod.env`). Which
 *    directories leave the cone is git's to work out; every ignored entry
 *    below the top (a directory that holds tracked files is never the
 *    top itself) is a candidate.
 *  - `rm` of a submodule (forced or not: its ignored files go with its
 *    work tree either way) and `submodule update` (`--force` checks out
 *    over local changes; every mode over ignored files): the submodule's
 *    unsaved work — changed tracked files, untracked and ignored ones —
 *    lives in its own repository, where the superproject's snapshot has
 *    a gitlink at most. Those files, and the submodule's `.git` file so a
 *    restored directory is a checkout again, are kept.
 *
 * Kept means copied into the quarantine and left where they are
 * (git/quarantine.h, `copies`): a hard link where the quarantine is on
 * the same file system (git replaces a file it writes, it does not write
 * into it, so the link keeps the old bytes), else a copy. The operation
 * then deletes or overwrites what it would; `snapshots restore` moves
 * back what is missing and names what it kept.
 *
 * Invariants:
 *  1. MUST NOT change the work tree, the index or a ref: it only reads
 *     (ls-files, status) and fills the plan.
 *  2. MUST run git in a submodule only through the one runner
 *     (git/gitcmd.h), in the process's trust mode, and only in a
 *     directory that holds a `.git` (lstat: a link is no submodule).
 */
#include "git/snapshot-int.h"
#include <string.h>
#include <sys/stat.h>
#include "base/path.h"
#include "git/gitcmd.h"

/* git on the private index in the located repository, run in `where`
 * (where the operation's pathspec is relative to); stdout into out */
static int index_git(struct snap *s, const char *where, struct strbuf *out,
		     const char *const *args, const char *const *paths)
{
	struct child c = CHILD_INIT;
	int st;

	snap_index_child(s, &c, s->top.buf, s->tmp_index.buf, args);
	c.dir = where;
	for (const char *const *p = paths; p && *p; p++)
		strvec_push(&c.args, *p);
	st = gitcmd_run(&c, out, NULL);
	child_release(&c);
	return st;
}

/* top-relative `rel` (a trailing '/' dropped) onto the plan's copies */
static void keep(struct snap *s, const char *rel, size_t len)
{
	while (len && rel[len - 1] == '/')
		len--;
	if (len)
		strvec_pushf(&s->qp.copies, "%.*s", (int)len, rel);
}

int snap_plan_sparse(struct snap *s)
{
	static const char *const args[] = { "ls-files",		  "-z",
					    "--others",		  "--ignored",
					    "--exclude-standard", "--directory",
					    "--full-name",	  NULL };
	struct strbuf out = STRBUF_INIT;
	int st = index_git(s, s->top.buf, &out, args, NULL);

	for (size_t at = 0; !st && at < out.len;) {
		const char *name = out.buf + at;
		size_t len = strlen(name);
		const char *slash = memchr(name, '/', len);

		/* below the top: a slash that is not the last character */
		if (slash && (size_t)(slash - name) + 1 < len)
			keep(s, name, len);
		at += len + 1;
	}
	strbuf_release(&out);
	if (st)
		return snap_fail(s, "git ls-files --ignored failed", NULL);
	return 0;
}

/* The unsaved files of the submodule at top-relative `sub`. */
static int keep_submodule(struct snap *s, const char *sub)
{
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT, rel = STRBUF_INIT;
	char *dir = path_join(s->top.buf, sub),
	     *gitfile = path_join(dir, ".git");
	struct stat gst, st;
	size_t before = s->qp.copies.nr;
	int rc = 0;

	if (lstat(gitfile, &gst) < 0 || S_ISLNK(gst.st_mode))
		goto out; /* not checked out: no work to lose */
	gitcmd_init(&c, s->o->real_git, dir);
	strvec_pushl(&c.args, "status", "--porcelain=v1", "-z", "--ignored",
		     "--untracked-files=normal", "--ignore-submodules=none",
		     NULL);
	rc = gitcmd_run(&c, &out, NULL);
	child_release(&c);
	if (rc) {
		rc = snap_fail(s, "git status in a submodule failed", NULL);
		goto out;
	}
	for (size_t at = 0; at < out.len;) {
		const char *e = out.buf + at;
		size_t len = strlen(e);
		bool renamed = len > 3 && (e[0] == 'R' || e[0] == 'C');

		if (len > 3) {
			char *abs;

			strbuf_reset(&rel);
			strbuf_addf(&rel, "%s/%s", sub, e + 3);
			abs = path_join(s->top.buf, rel.buf);
			if (!lstat(abs, &st)) /* a deletion leaves nothing */
				keep(s, rel.buf, rel.len);
			free(abs);
		}
		at += len + 1;
		if (renamed && at < out.len) /* the source of a rename */
			at += strlen(out.buf + at) + 1;
	}
	/* the `.git` file makes the restored directory a checkout again */
	if (s->qp.copies.nr > before && S_ISREG(gst.st_mode))
		strvec_pushf(&s->qp.copies, "%s/.git", sub);
out:
	strbuf_release(&out);
	strbuf_release(&rel);
	free(gitfile);
	free(dir);
	return rc;
}

int snap_plan_submodules(struct snap *s, const char *where)
{
	static const char *const args[] = { "ls-files",	   "-z", "--stage",
					    "--full-name", "--", NULL };
	const char *const *paths = s->o->submodule_paths;
	struct strbuf out = STRBUF_INIT;
	int st =
		index_git(s, where, &out, args, paths && *paths ? paths : NULL);

	if (st) {
		strbuf_release(&out);
		/* a pathspec git refuses: the operation fails the same way */
		return 0;
	}
	for (size_t at = 0; !st && at < out.len;) {
		const char *e = out.buf + at, *tab = strchr(e, '\t');
		size_t len = strlen(e);

		if (starts_with(e, "160000 ") && tab)
			st = keep_submodule(s, tab + 1);
		at += len + 1;
	}
	strbuf_release(&out);
	return st;
}
