/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Invariants (tests: tests/e2e/t0151-push-real.bats,
 * t0702-dispatch-verify.bats):
 *  1. Every commit in `tips --not haves` is measured, merges included
 *     (diff-tree -c: a path differing from every parent); by induction
 *     over the parents a trust-root path in any pushed commit either came
 *     from a have or is a hit in the commit that introduced it.
 *  2. Paths are read with -z: no quoting, no miss of a non-ASCII name.
 *  3. Only plumbing runs (cat-file, rev-list, for-each-ref, diff-tree),
 *     with replace refs, grafts and the commit-graph off (each can make
 *     git read other parents or trees than the objects hold): porcelain
 *     configuration
 *     (log.showRoot, diff.relative …) cannot shape what is read.
 *  4. Any git failure is PS_ERROR (fail-closed).
 */
#include "base/common.h"
#include <stdarg.h>
#include <string.h>
#include "base/spawn.h"
#include "base/strvec.h"
#include "base/path.h"
#include "git/pushscan.h"

bool trust_root_path(const char *path)
{
	const char *b = path_basename(path);

	return !strcmp(b, ".config-integrity-key") ||
	       !strcmp(b, "policy.toml") || !strcmp(b, "fleet.yaml") ||
	       ends_with(b, ".jsonl");
}

/* One plumbing call: `in` on stdin, stdout into `out`, stderr into `err`. */
static int run(const struct push_scan *s, const char *in, size_t in_len,
	       struct strbuf *out, struct strbuf *err, ...)
{
	const char *git = s->real_git ? s->real_git : gitcmd_real_git();
	struct child c = CHILD_INIT;
	const char *a;
	va_list ap;
	int rc;

	if (!git)
		return -1;
	gitcmd_prepare(&c, s->trust, git, s->dir);
	/* what git sends, not what a replace ref, a graft or a commit-graph
	 * the agent wrote says (invariant 3) */
	strvec_pushl(&c.args, "--no-replace-objects", "-c",
		     "core.commitGraph=false", NULL);
	va_start(ap, err);
	while ((a = va_arg(ap, const char *)))
		strvec_push(&c.args, a);
	va_end(ap);
	strvec_push(&c.env_set,
		    "GIT_GRAFT_FILE=/nonexistent/agentic-git-no-grafts");
	if (s->trust == GIT_INTERNAL)
		strvec_pushf(&c.env_set, "AGENTIC_GIT_SHIM_DEPTH=%u",
			     s->depth + 1);
	c.in = in;
	c.in_len = in_len;
	rc = gitcmd_run(&c, out, err);
	child_release(&c);
	return rc;
}

/*
 * Each tip peeled: commits into `revs`, anything else is the result; then
 * each have this repository knows as "^<id>" (rev-list dies on an id it
 * does not have, --ignore-missing or not).
 */
static enum push_scan_result
peel_tips(const struct push_scan *s, struct strbuf *revs, struct strbuf *detail)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT, err = STRBUF_INIT;
	enum push_scan_result r = PS_OK;
	size_t ntips = 0, i = 0;
	const char *p;

	for (const char *const *t = s->tips; *t; t++, ntips++)
		strbuf_addf(&in, "%s^{}\n", *t);
	for (const char *const *h = s->haves; h && *h; h++)
		strbuf_addf(&in, "%s\n", *h);
	if (run(s, in.buf, in.len, &out, &err, "cat-file",
		"--batch-check=%(objecttype) %(objectname)", NULL)) {
		strbuf_addf(detail, "cannot resolve what is pushed: %s",
			    err.buf);
		r = PS_ERROR;
	}
	for (p = out.buf; r == PS_OK && *p; i++) {
		const char *nl = strchrnul(p, '\n');
		const char *sp = memchr(p, ' ', (size_t)(nl - p));
		bool missing =
			sp && nl - sp == 8 && !strncmp(sp, " missing", 8);

		if (i >= ntips) {
			if (sp && !missing)
				strbuf_addf(revs, "^%.*s\n", (int)(nl - sp - 1),
					    sp + 1);
		} else if (starts_with(p, "commit ")) {
			strbuf_add(revs, p + 7, (size_t)(nl - p - 7));
			strbuf_addch(revs, '\n');
		} else if (starts_with(p, "tree ") || starts_with(p, "blob ")) {
			strbuf_addf(detail, "'%s' is a %.4s, not a commit",
				    s->tips[i], p);
			r = PS_NOT_COMMIT;
		} else {
			strbuf_addf(detail, "cannot resolve '%s'", s->tips[i]);
			r = PS_ERROR;
		}
		p = *nl ? nl + 1 : nl;
	}
	if (r == PS_OK && i < ntips) {
		strbuf_addstr(detail, "cannot resolve what is pushed");
		r = PS_ERROR;
	}
	strbuf_release(&in);
	strbuf_release(&out);
	strbuf_release(&err);
	return r;
}

static enum push_scan_result snapshot_hit(const struct push_scan *s,
					  const struct strbuf *commits,
					  struct strbuf *detail)
{
	struct strbuf tips = STRBUF_INIT;
	enum push_scan_result r = PS_OK;

	if (run(s, NULL, 0, &tips, NULL, "for-each-ref",
		"--format=%(objectname)", "refs/agentic-git/", NULL)) {
		strbuf_addstr(detail, "cannot list the snapshot refs");
		r = PS_ERROR;
	}
	for (const char *p = commits->buf; r == PS_OK && *p;) {
		const char *nl = strchrnul(p, '\n');
		size_t n = (size_t)(nl - p);
		for (const char *q = tips.buf; n && *q;) {
			const char *qn = strchrnul(q, '\n');
			if ((size_t)(qn - q) == n && !strncmp(p, q, n)) {
				strbuf_addf(detail, "%.*s", (int)n, p);
				r = PS_SNAPSHOT;
				break;
			}
			q = *qn ? qn + 1 : qn;
		}
		p = *nl ? nl + 1 : nl;
	}
	strbuf_release(&tips);
	return r;
}

static enum push_scan_result paths_hit(const struct push_scan *s,
				       const struct strbuf *commits,
				       struct strbuf *detail)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	enum push_scan_result r = PS_OK;

	if (run(s, commits->buf, commits->len, &out, &err, "diff-tree",
		"--stdin", "-z", "-r", "-c", "--root", "--name-only",
		"--no-renames", "--no-commit-id", "--no-relative", NULL)) {
		strbuf_addf(detail, "cannot list the paths pushed: %s",
			    err.buf);
		r = PS_ERROR;
	}
	for (size_t off = 0; r == PS_OK && off < out.len;) {
		const char *path = out.buf + off;
		off += strlen(path) + 1;
		if (*path && trust_root_path(path)) {
			strbuf_addstr(detail, path);
			r = PS_TRUST_ROOT;
		}
	}
	strbuf_release(&out);
	strbuf_release(&err);
	return r;
}

enum push_scan_result push_scan_run(const struct push_scan *s,
				    struct strbuf *detail)
{
	struct strbuf in = STRBUF_INIT, commits = STRBUF_INIT,
		      err = STRBUF_INIT;
	enum push_scan_result r = PS_OK;

	/* git 2.39's rev-list --stdin takes no "--not" line: ^<id> */
	if (s->peel) {
		r = peel_tips(s, &in, detail);
	} else {
		for (const char *const *t = s->tips; *t; t++)
			strbuf_addf(&in, "%s\n", *t);
		for (const char *const *h = s->haves; h && *h; h++)
			strbuf_addf(&in, "^%s\n", *h);
	}
	if (r != PS_OK || !s->tips[0])
		goto out;
	if (run(s, in.buf, in.len, &commits, &err, "rev-list", "--stdin",
		NULL)) {
		strbuf_addf(detail, "cannot list the commits pushed: %s",
			    err.buf);
		r = PS_ERROR;
		goto out;
	}
	if (!commits.len)
		goto out;
	if (s->snapshots)
		r = snapshot_hit(s, &commits, detail);
	if (r == PS_OK)
		r = paths_hit(s, &commits, detail);
out:
	strbuf_release(&in);
	strbuf_release(&commits);
	strbuf_release(&err);
	return r;
}
