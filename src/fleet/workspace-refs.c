/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The workspace builder's refs (workspace.h): the head and base from the
 * clone's refs or from a fetch, written as loose refs of the new
 * repository, and the checkout.
 */
#include "base/common.h"
#include "base/xalloc.h"
#include "fleet/workspace-git.h"
#include "fleet/workspace.h"
#include "git/gitdir-write.h"
#include "git/refs-files.h"

static size_t hexlen_of(const struct workspace_source *src)
{
	return src->objfmt ? 64 : 40;
}

/* Looks up the exact ref among for-each-ref's "oid refname" lines. */
static char *find_ref(const char *lines, const char *prefix, const char *name)
{
	struct strbuf want = STRBUF_INIT;
	char *found = NULL;

	strbuf_addf(&want, "%s%s", prefix, name);
	for (const char *l = lines; *l && !found;) {
		const char *e = strchrnul(l, '\n'), *sp = strchr(l, ' ');
		if (sp && sp < e && (size_t)(e - sp - 1) == want.len &&
		    !strncmp(sp + 1, want.buf, want.len))
			found = xstrndup(l, (size_t)(sp - l));
		l = *e ? e + 1 : e;
	}
	strbuf_release(&want);
	return found;
}

/*
 * "oid refname" lines for the refs asked for: the ref files of `git_dir`
 * where they are plain files (git/refs-files.h consults the repository
 * probe: reftable and odd layouts go to git), else for-each-ref in `dir`.
 */
static int lookup_refs(const struct workspace_request *rq,
		       const struct workspace_source *src, const char *git_dir,
		       const char *dir, char *const pats[4], struct strbuf *out,
		       struct strbuf *err)
{
	if (!refs_files_lookup(git_dir, hexlen_of(src),
			       (const char *const *)pats, 4, out))
		return 0;
	strbuf_reset(out);
	return workspace_git(rq->git, dir, out, err, 0, "for-each-ref",
			     "--format=%(objectname) %(refname)", pats[0],
			     pats[1], pats[2], pats[3], NULL)
		       ? -1
		       : 0;
}

/*
 * WS_REFS_CLONE: the head and base from the clone's own refs (origin's
 * tracking ref first, then the local branch); origin/<head> is recorded
 * in *origin_head when the clone has it.
 */
int workspace_clone_refs(const struct workspace_request *rq,
			 const struct workspace_source *src,
			 struct workspace *ws, char **origin_head,
			 struct strbuf *err)
{
	const char *base = rq->base ? rq->base : rq->head;
	struct strbuf out = STRBUF_INIT;
	char *pats[4], *local_head = NULL;
	int rc;

	if (rq->start && strlen(rq->start) != hexlen_of(src))
		return workspace_fail(err, "'%s' is not a commit id of '%s'",
				      rq->start, src->top);
	pats[0] = xstrfmt("refs/remotes/origin/%s", rq->head);
	pats[1] = xstrfmt("refs/heads/%s", rq->head);
	pats[2] = xstrfmt("refs/remotes/origin/%s", base);
	pats[3] = xstrfmt("refs/heads/%s", base);
	rc = lookup_refs(rq, src, src->common, src->top, pats, &out, err);
	for (int i = 0; i < 4; i++)
		free(pats[i]);
	if (rc < 0)
		goto out;
	*origin_head = find_ref(out.buf, "refs/remotes/origin/", rq->head);
	local_head = find_ref(out.buf, "refs/heads/", rq->head);
	if (rq->base) {
		ws->base_oid =
			find_ref(out.buf, "refs/remotes/origin/", rq->base);
		if (!ws->base_oid)
			ws->base_oid =
				find_ref(out.buf, "refs/heads/", rq->base);
		if (!ws->base_oid && !rq->start)
			rc = workspace_fail(
				err,
				"base branch '%s' not found in '%s' (neither origin/%s nor %s); fetch it first",
				rq->base, src->top, rq->base, rq->base);
	}
	ws->head_oid = rq->start      ? xstrdup(rq->start)
		       : *origin_head ? xstrdup(*origin_head)
		       : local_head   ? xstrdup(local_head)
		       : ws->base_oid ? xstrdup(ws->base_oid)
				      : NULL;
	if (!rc && !ws->head_oid)
		rc = workspace_fail(
			err,
			"branch '%s' not found in '%s' and no base to start it from",
			rq->head, src->top);
out:
	free(local_head);
	strbuf_release(&out);
	return rc;
}

/*
 * WS_REFS_FETCH: one fetch of the base and the head from the clone's
 * origin, then their ids from the workspace's fresh loose ref files (git
 * for anything else).
 */
int workspace_fetch_refs(const struct workspace_request *rq,
			 const struct workspace_source *src,
			 struct workspace *ws, struct strbuf *err)
{
	struct strbuf rb = STRBUF_INIT, rh = STRBUF_INIT, out = STRBUF_INIT;
	char *git_dir = xstrfmt("%s/.git", ws->dir), *pats[4];
	int rc = -1;

	strbuf_addf(&rb, "+refs/heads/%s:refs/remotes/origin/%s", rq->base,
		    rq->base);
	strbuf_addf(&rh, "+refs/heads/%s:refs/remotes/origin/%s", rq->head,
		    rq->head);
	if (workspace_git(rq->git, ws->dir, NULL, err, 0, "fetch", "-q",
			  "--no-tags", "--no-write-fetch-head", "--", src->url,
			  rb.buf, rh.buf, NULL))
		goto out;
	pats[0] = pats[1] = xstrfmt("refs/remotes/origin/%s", rq->head);
	pats[2] = pats[3] = xstrfmt("refs/remotes/origin/%s", rq->base);
	if (!lookup_refs(rq, src, git_dir, ws->dir, pats, &out, err)) {
		ws->head_oid =
			find_ref(out.buf, "refs/remotes/origin/", rq->head);
		ws->base_oid =
			find_ref(out.buf, "refs/remotes/origin/", rq->base);
	}
	free(pats[0]);
	free(pats[2]);
	if (ws->head_oid && ws->base_oid)
		rc = 0;
	else
		workspace_fail(err, "cannot resolve the fetched base and head");
out:
	free(git_dir);
	strbuf_release(&rb);
	strbuf_release(&rh);
	strbuf_release(&out);
	return rc;
}

static int put_ref(const char *git_dir, const char *prefix, const char *name,
		   const char *oid)
{
	char *ref = xstrfmt("refs/%s/%s", prefix, name);
	int rc = gitdir_put_ref(git_dir, ref, oid);
	free(ref);
	return rc;
}

/*
 * Records the refs, then checks the head out. `git reset --hard` peels a
 * head naming a tag object and rewrites the branch to the commit; then
 * git says which commits the head and base are.
 */
int workspace_checkout(const struct workspace_request *rq,
		       const struct workspace_source *src, struct workspace *ws,
		       const char *origin_head, struct strbuf *err)
{
	char *git_dir = xstrfmt("%s/.git", ws->dir);
	char *ref = xstrfmt("refs/heads/%s", rq->head);
	struct strbuf out = STRBUF_INIT;
	size_t hl = hexlen_of(src);
	int rc = put_ref(git_dir, "heads", rq->head, ws->head_oid);

	if (!rc && origin_head)
		rc = put_ref(git_dir, "remotes/origin", rq->head, origin_head);
	if (!rc && rq->refs == WS_REFS_CLONE && ws->base_oid &&
	    strcmp(rq->base, rq->head))
		rc = put_ref(git_dir, "remotes/origin", rq->base, ws->base_oid);
	if (!rc && workspace_git(rq->git, ws->dir, NULL, err, 0, "reset", "-q",
				 "--hard", NULL))
		rc = -1;
	if (!rc && (refs_files_lookup(git_dir, hl, (const char *const *)&ref, 1,
				      &out) ||
		    out.len <= hl || memcmp(out.buf, ws->head_oid, hl))) {
		char *h = xstrfmt("%s^{commit}", ws->head_oid);
		char *b = ws->base_oid ? xstrfmt("%s^{commit}", ws->base_oid)
				       : NULL;
		strbuf_reset(&out);
		rc = workspace_git(rq->git, ws->dir, &out, err, 0, "rev-parse",
				   h, b, NULL)
			     ? -1
			     : 0;
		if (!rc && out.len > hl && out.buf[hl] == '\n') {
			memcpy(ws->head_oid, out.buf, hl);
			if (b && out.len > 2 * hl + 1)
				memcpy(ws->base_oid, out.buf + hl + 1, hl);
		} else if (!rc) {
			rc = workspace_fail(
				err, "cannot resolve the head and base of '%s'",
				ws->dir);
		}
		free(h);
		free(b);
	}
	strbuf_release(&out);
	free(ref);
	free(git_dir);
	return rc;
}
