// SPDX-License-Identifier: Apache-2.0
/*
 * Ignored files an operation is about to overwrite (git/snapshot.h,
 * `overwrite_from`). git treats ignored files as expendable: `checkout
 * <tree-ish> -- .env`, `restore --source`, `reset --hard <commit>` and a
 * forced switch write the source's version over an ignored file without a
 * word, and `add -A` (the capture) never saw that file. Such a file is a
 * path the source tree has and the index has not, present in the work
 * tree: git's own diff-index names those paths (with git's pathspec
 * rules), and a forced `add` puts them into the snapshot's private index,
 * so the snapshot's tree holds them and `snapshots restore` brings them
 * back.
 */
#include "git/snapshot-int.h"
#include <string.h>
#include <sys/stat.h>
#include "base/path.h"
#include "git/gitcmd.h"

/* git on the private index, in the located repository */
static void private_index_child(struct snap *s, struct child *c)
{
	static const char *const none[] = { NULL };

	snap_index_child(s, c, s->top.buf, s->tmp_index.buf, none);
}

/*
 * The NUL-separated paths `source` has and the private index has not,
 * appended to `out` when they exist in the work tree as a file or a link.
 * Nothing when git could not tell (a source that is no tree: the
 * operation will fail the same way, so there is nothing to add from it).
 */
static void overwritten(struct snap *s, const char *source, struct strbuf *out)
{
	const struct snapshot_opts *o = s->o;
	struct child c = CHILD_INIT;
	struct strbuf names = STRBUF_INIT, path = STRBUF_INIT;
	int st;

	private_index_child(s, &c);
	strvec_pushl(&c.args, "diff-index", "-z", "--cached", "--name-only",
		     "--no-renames", "--diff-filter=D", "--end-of-options",
		     source, "--", NULL);
	for (const char *const *p = o->overwrite_paths; p && *p; p++)
		strvec_push(&c.args, *p);
	st = gitcmd_run(&c, &names, NULL);
	child_release(&c);
	for (size_t at = 0; !st && at < names.len;) {
		const char *name = names.buf + at;
		size_t len = strlen(name);
		struct stat sb;

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", s->top.buf, name);
		if (!lstat(path.buf, &sb) &&
		    (S_ISREG(sb.st_mode) || S_ISLNK(sb.st_mode)))
			strbuf_add(out, name, len + 1);
		at += len + 1;
	}
	strbuf_release(&names);
	strbuf_release(&path);
}

/*
 * A name that is a branch and a tag too is the tag to git's revision
 * parser (diff-index, reset, merge) but the branch to checkout's and
 * restore's source (fuzz finding I27): both trees are asked, for a plain
 * name (no rev syntax, not a full ref name). An answer of "no such tree"
 * adds nothing; the same path named twice is added once by git.
 */
static void overwritten_either(struct snap *s, const char *src,
			       struct strbuf *out)
{
	struct strbuf branch = STRBUF_INIT;

	overwritten(s, src, out);
	if (!starts_with(src, "refs/") && strcmp(src, "HEAD") &&
	    !strpbrk(src, "~^:@{}*?[\\ ") && src[0] != '-') {
		strbuf_addf(&branch, "refs/heads/%s", src);
		overwritten(s, branch.buf, out);
	}
	strbuf_release(&branch);
}

/*
 * `reset --hard` (HEAD) with an index whose tree is HEAD's: every path
 * HEAD has is in the index, so none can overwrite an ignored file, and no
 * git needs to run (the common case costs nothing).
 */
static bool head_has_nothing_new(const struct snap *s, const char *src)
{
	return !strcmp(src, "HEAD") && s->itree.len && s->head_tree.len &&
	       !strcmp(s->itree.buf, s->head_tree.buf);
}

/*
 * The files a command writes where it is told (`mailinfo .env patch`,
 * `diff --output=.env`), as NUL-separated top-relative names: the capture
 * left out the ignored ones, and a forced add of all of them is the same
 * for the others.
 */
static void output_names(struct snap *s, struct strbuf *out)
{
	char *top = real_path(s->top.buf);
	const char *rel;

	for (const char *const *p = s->o->output_paths; top && p && *p; p++)
		if (path_inside(*p, top, &rel) && *rel)
			strbuf_add(out, rel, strlen(rel) + 1);
	free(top);
}

int snap_add_overwritten(struct snap *s)
{
	struct strbuf paths = STRBUF_INIT, gerr = STRBUF_INIT,
		      tree = STRBUF_INIT;
	struct child c = CHILD_INIT, w = CHILD_INIT;
	int ret = 0;

	if (!s->tmp_index.len)
		goto out;
	for (const char *const *src = s->o->overwrite_from; src && *src; src++)
		if (**src && !head_has_nothing_new(s, *src))
			overwritten_either(s, *src, &paths);
	output_names(s, &paths);
	if (!paths.len)
		goto out;
	private_index_child(s, &c);
	/* the names are literal paths, whatever they look like */
	strvec_push(&c.env_set, "GIT_LITERAL_PATHSPECS=1");
	/* as the capture's add (snapshot-capture.c): no safecrlf death */
	strvec_pushl(&c.args, "-c", "core.safecrlf=false", "add", "-f",
		     "--pathspec-from-file=-", "--pathspec-file-nul", NULL);
	c.in = paths.buf;
	c.in_len = paths.len;
	if (gitcmd_run(&c, NULL, &gerr) != 0) {
		ret = snap_fail(s,
				"git add of overwritten ignored files failed",
				&gerr);
		goto out;
	}
	private_index_child(s, &w);
	strvec_push(&w.args, "write-tree");
	if (gitcmd_run(&w, &tree, &gerr) != 0 || !tree.len) {
		ret = snap_fail(s, "git write-tree failed", &gerr);
		goto out;
	}
	gitcmd_chomp(&tree);
	strbuf_reset(&s->wtree);
	strbuf_addbuf(&s->wtree, &tree);
out:
	child_release(&c);
	child_release(&w);
	strbuf_release(&paths);
	strbuf_release(&gerr);
	strbuf_release(&tree);
	return ret;
}
