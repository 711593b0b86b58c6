/* SPDX-License-Identifier: Apache-2.0 */
/* Where a snapshot's branch points, and putting it back; snapshot-tip.h. */
#include "base/common.h"
#include <string.h>
#include "base/path.h"
#include "base/xalloc.h"
#include "git/gitcmd.h"
#include "git/snapshot-tip.h"

const char *snapshot_tip_short(const char *ref)
{
	const char *b = ref;

	if (ref)
		skip_prefix(ref, "refs/heads/", &b);
	return b;
}

static int run(const char *git, const char *gitdir, const char *top,
	       struct strbuf *out, struct strbuf *err, const char *const *args)
{
	struct child c = CHILD_INIT;
	int st;

	gitcmd_init_repo(&c, git, gitdir, top);
	strvec_pushv(&c.args, args);
	st = gitcmd_run(&c, out, err);
	child_release(&c);
	if (out)
		strbuf_trim(out);
	return st;
}

/* The work tree other than `top` that has `ref` checked out, or NULL. */
static char *checked_out_elsewhere(const char *git, const char *gitdir,
				   const char *top, const char *ref)
{
	static const char *const list[] = { "worktree", "list", "--porcelain",
					    NULL };
	struct strbuf out = STRBUF_INIT;
	char *found = NULL, *wt = NULL;

	if (run(git, gitdir, top, &out, NULL, list) != 0) {
		strbuf_release(&out);
		return xstrdup("(git worktree list failed)"); /* fail-closed */
	}
	for (char *l = out.buf; *l && !found;) {
		char *nl = strchrnul(l, '\n');
		bool last = !*nl;
		const char *v;

		*nl = '\0';
		if (skip_prefix(l, "worktree ", &v)) {
			free(wt);
			wt = xstrdup(v);
		} else if (skip_prefix(l, "branch ", &v) && !strcmp(v, ref) &&
			   wt && !same_real_path(wt, top)) {
			found = xstrdup(wt);
		}
		l = last ? nl : nl + 1;
	}
	free(wt);
	strbuf_release(&out);
	return found;
}

int snapshot_tip_read(const char *real_git, const char *gitdir, const char *top,
		      const struct snapshot_info *s, struct snapshot_tip *t,
		      struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;

	t->kept = s->meta.kept != NULL;
	t->ref = t->kept ? s->meta.kept : s->meta.branch;
	t->want = s->meta.head;
	if (t->ref && !starts_with(t->ref, "refs/heads/"))
		t->ref = NULL; /* only branches are put back */
	if (!t->ref || !t->want)
		return 0;
	if (run(real_git, gitdir, top, &out, NULL,
		(const char *const[]){ "rev-parse", "--verify", "-q",
				       "--end-of-options", t->ref, NULL }) >
	    1) {
		strbuf_addf(err, "cannot read '%s'", t->ref);
		strbuf_release(&out);
		return -1;
	}
	t->now = strbuf_detach(&out, NULL);
	if (run(real_git, gitdir, top, &out, NULL,
		(const char *const[]){ "symbolic-ref", "-q", "HEAD", NULL }) ==
	    0)
		t->here = strbuf_detach(&out, NULL);
	strbuf_release(&out);
	if (snapshot_tip_moved(t) && (!t->here || strcmp(t->here, t->ref)))
		t->elsewhere =
			checked_out_elsewhere(real_git, gitdir, top, t->ref);
	return 0;
}

bool snapshot_tip_moved(const struct snapshot_tip *t)
{
	return t->ref && t->want && t->now && strcmp(t->now, t->want);
}

enum tip_plan snapshot_tip_plan(const struct snapshot_tip *t,
				struct strbuf *why)
{
	bool here = t->here && t->ref && !strcmp(t->here, t->ref);

	if (!t->ref || !t->want) {
		strbuf_addstr(
			why,
			"the snapshot records no branch to put back (it was taken on a detached HEAD, or before snapshots recorded the branch)");
		return TIP_REFUSED;
	}
	if (!snapshot_tip_moved(t))
		return TIP_NOTHING;
	if (t->elsewhere) {
		strbuf_addf(
			why,
			"'%s' is checked out in work tree '%s'; moving it would leave that work tree behind",
			snapshot_tip_short(t->ref), t->elsewhere);
		return TIP_REFUSED;
	}
	if (!t->kept && !here) {
		strbuf_addf(
			why,
			"the snapshot was taken on '%s', and this work tree is on %s%s%s",
			snapshot_tip_short(t->ref), t->here ? "'" : "",
			t->here ? snapshot_tip_short(t->here)
				: "a detached HEAD",
			t->here ? "'" : "");
		return TIP_REFUSED;
	}
	return here ? TIP_RESET : TIP_UPDATE_REF;
}

int snapshot_tip_move(const char *real_git, const char *gitdir, const char *top,
		      const struct snapshot_tip *t, enum tip_plan plan,
		      struct strbuf *err)
{
	const char *const reset[] = { "reset", "-q", "--no-refresh",
				      t->want, "--", NULL };
	const char *const update[] = {
		"update-ref", "-m",    "agentic-git: snapshots restore --head",
		t->ref,	      t->want, t->now,
		NULL
	};

	if (run(real_git, gitdir, top, NULL, err,
		plan == TIP_RESET ? reset : update) == 0)
		return 0;
	if (!err->len)
		strbuf_addf(err, "cannot move '%s' to %s", t->ref, t->want);
	return -1;
}

void snapshot_tip_release(struct snapshot_tip *t)
{
	free(t->now);
	free(t->here);
	free(t->elsewhere);
	memset(t, 0, sizeof(*t));
}
