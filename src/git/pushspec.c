/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Push refspec guards (reference §3.9, with the holes of §9 closed).
 *
 * Invariants:
 *  1. The remote and the refspecs are push's positionals as git splits
 *     them (git/argv.h): an option's value (-o, --push-option,
 *     --receive-pack, --exec, --repo) is never one.
 *  2. Bulk pushes (--all, --mirror, --prune, in any spelling git accepts)
 *     are denied: they move refs that are not the agent's.
 *  3. Every destination must be the assigned branch or a tag; anything under
 *     refs/agentic-git/ or containing "agentic-git/" is the snapshot
 *     namespace and is denied.
 *  4. A bare force (no lease) is denied even on the agent's own branch.
 *  5. --receive-pack / --exec (a program of the agent's choosing on the
 *     remote side, which could also forge what the remote advertises to
 *     the real-push guard) are denied.
 */
#include "base/common.h"
#include <string.h>
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "git/pushspec.h"

/* The option as the agent spelled it, for the message (owned by ps). */
static const char *spelled_as(struct strbuf *sb, const struct git_optuse *u)
{
	char buf[64];

	git_optuse_spelling(u, buf, sizeof(buf));
	strbuf_reset(sb);
	strbuf_addstr(sb, buf);
	return sb->buf;
}

static const char *spelled(struct strbuf *sb, const struct git_argv *ga,
			   const char *name)
{
	return spelled_as(sb, git_opt_last(ga, name));
}

/*
 * An option git 2.39 would refuse that a later git may take for a bulk
 * push: a prefix of several options (`--a`: --all or --atomic) or of
 * --branches (git 2.46's --all): fail-closed, counted as the bulk push
 * it may be.
 */
static const char *bulk_unknown(struct push_spec *ps, const struct git_argv *ga)
{
	static const char *const words[] = { "all", "branches", "mirror",
					     "prune", NULL };

	for (size_t i = 0; i < ga->nopts; i++) {
		const struct git_optuse *u = &ga->opts[i];
		size_t n = u->spelled_len;

		if (!(u->flags & (GOPT_UNKNOWN | GOPT_AMBIGUOUS)) ||
		    (u->flags & GOPT_SHORT) || !n)
			continue;
		for (const char *const *w = words; *w; w++)
			if (n <= strlen(*w) && !strncmp(*w, u->spelled, n) &&
			    (n >= 2 || strcmp(*w, "prune")))
				return spelled_as(&ps->bulk_spelled, u);
	}
	return NULL;
}

void push_spec_parse(const struct git_argv *ga, struct push_spec *ps)
{
	static const char *const bulk[] = { "all", "mirror", "prune", NULL };
	static const char *const prog[] = { "receive-pack", "exec", NULL };

	memset(ps, 0, sizeof(*ps));
	strbuf_init(&ps->bulk_spelled, 0);
	strbuf_init(&ps->prog_spelled, 0);
	/* invariant 2: --all, --mirror, --prune in any spelling */
	for (const char *const *b = bulk; *b && !ps->bulk_flag; b++)
		if (git_opt_on(ga, *b))
			ps->bulk_flag = spelled(&ps->bulk_spelled, ga, *b);
	if (!ps->bulk_flag)
		ps->bulk_flag = bulk_unknown(ps, ga);
	for (const char *const *p = prog; *p && !ps->remote_prog; p++)
		if (git_opt_on(ga, *p))
			ps->remote_prog = spelled(&ps->prog_spelled, ga, *p);
	ps->delete_flag = git_opt_on(ga, "delete");
	ps->lease = git_opt_on(ga, "force-with-lease") ||
		    git_opt_on(ga, "force-if-includes");
	ps->bare_force = git_opt_on(ga, "force");
	ps->tags = git_opt_on(ga, "tags");
	/* <repository> <refspec>… as git splits them: an option's value
	 * (-o x, --repo x, --receive-pack x) is never one (invariant 1) */
	ps->remote = git_pos(ga, 0);
	if (ga->npos > 1) {
		ps->refspecs = ga->pos + 1;
		ps->nrefspecs = ga->npos - 1;
	}
	for (size_t i = 0; i < ps->nrefspecs; i++)
		if (ps->refspecs[i][0] == '+')
			ps->bare_force = true;
}

void push_spec_release(struct push_spec *ps)
{
	strbuf_release(&ps->bulk_spelled);
	strbuf_release(&ps->prog_spelled);
	memset(ps, 0, sizeof(*ps));
}

static void dst_of(const char *spec, const char *current, struct strbuf *dst,
		   bool *is_delete)
{
	const char *colon;

	if (*spec == '+')
		spec++;
	colon = strchr(spec, ':');
	*is_delete = colon == spec;
	strbuf_reset(dst);
	if (colon)
		strbuf_addstr(dst, colon + 1);
	else if (!strcmp(spec, "HEAD") || !strcmp(spec, "@"))
		strbuf_addstr(dst, current ? current : "HEAD");
	else
		strbuf_addstr(dst, spec);
	if (starts_with(dst->buf, "refs/heads/")) {
		const char *rest = dst->buf + 11;
		memmove(dst->buf, rest, strlen(rest) + 1);
		dst->len = strlen(dst->buf);
	}
}

const char *push_spec_check(const struct push_spec *ps, const char *assigned,
			    const char *current,
			    bool (*is_protected)(const char *branch, void *ctx),
			    void *ctx, struct strbuf *why)
{
	struct strbuf dst = STRBUF_INIT;
	const char *ev = NULL;
	bool del;

	if (ps->remote_prog) {
		strbuf_addf(
			why,
			"'%s' runs a program of your choosing as the remote side of the push — not allowed for agents; push to a configured remote: git push <remote> %s",
			ps->remote_prog, assigned ? assigned : "<branch>");
		return "deny_cross_branch_push";
	}
	if (ps->bulk_flag) {
		strbuf_addf(why, "bulk push '%s' would move refs that are not yours — push only your branch: git push <remote> %s",
			    ps->bulk_flag, assigned ? assigned : "<branch>");
		return "deny_protected_ref";
	}
	for (size_t i = 0; i < ps->nrefspecs + 1; i++) {
		const char *s = i ? ps->refspecs[i - 1] : ps->remote;
		if (s && strstr(s, "agentic-git/")) {
			strbuf_addf(why, "SNAPSHOT_REF_PUSH: '%s' names the refs/agentic-git/ snapshot namespace, which never leaves this machine",
				    s);
			return "deny_snapshot_ref_push";
		}
	}
	if (ps->bare_force && !ps->delete_flag) {
		const char *b = ps->nrefspecs ? ps->refspecs[0] : NULL;
		struct strbuf d = STRBUF_INIT;
		bool x;
		const char *to;

		if (b)
			dst_of(b, current, &d, &x);
		/*
		 * The advice must itself be allowed (issue 35): a lease push
		 * to a protected branch or another agent's is denied too, so
		 * the retry names the session's own branch then.
		 */
		to = b ? d.buf : NULL;
		if (to && assigned &&
		    (strcmp(to, assigned) || is_protected(to, ctx)))
			to = assigned;
		else if (to && is_protected(to, ctx))
			to = NULL;
		strbuf_addf(
			why,
			"bare force-push denied — use a lease so you never overwrite work you have not seen:\n"
			"  git fetch %s %s && git push --force-with-lease %s %s",
			ps->remote && to ? ps->remote : "<remote>",
			to ? to : "<branch>",
			ps->remote && to ? ps->remote : "<remote>",
			to ? to : "<branch>");
		if (b && to != d.buf)
			strbuf_addf(
				why,
				"\n  ('%s' is not yours to push: only your own branch)",
				d.buf);
		strbuf_release(&d);
		return "deny_force_no_lease";
	}
	if (!ps->nrefspecs) {
		if (ps->delete_flag) {
			strbuf_addstr(why, "push --delete needs the refs to delete; deleting remote branches is not allowed for agents");
			return "deny_cross_branch_push";
		}
		if (assigned && (!current || strcmp(current, assigned))) {
			strbuf_addf(why, "cross-branch push — you are bound to '%s' but HEAD is on '%s'; push your branch explicitly: git push %s %s",
				    assigned, current ? current : "(detached)",
				    ps->remote ? ps->remote : "origin", assigned);
			return "deny_cross_branch_push";
		}
		if (assigned && is_protected(assigned, ctx)) {
			strbuf_addf(why, "protected ref — pushing to '%s' is denied", assigned);
			return "deny_protected_ref";
		}
		return NULL;
	}
	for (size_t i = 0; i < ps->nrefspecs && !ev; i++) {
		const char *spec = ps->refspecs[i];
		if (!strcmp(spec, "tag") && i + 1 < ps->nrefspecs) {
			i++;
			continue;
		}
		dst_of(spec, current, &dst, &del);
		if (del || ps->delete_flag) {
			strbuf_addf(why, "deleting the remote branch '%s' is not allowed for agents (%s)",
				    dst.buf, assigned && !strcmp(dst.buf, assigned)
						     ? "your own task branch"
						     : "another agent's branch");
			ev = "deny_cross_branch_push";
		} else if (strchr(dst.buf, '*')) {
			strbuf_addf(why, "wildcard refspec '%s' would move refs that are not yours", spec);
			ev = "deny_protected_ref";
		} else if (starts_with(dst.buf, "refs/tags/")) {
			continue;
		} else if (is_protected(dst.buf, ctx)) {
			strbuf_addf(why, "protected ref — pushing to '%s' is denied", dst.buf);
			ev = "deny_protected_ref";
		} else if (!assigned || strcmp(dst.buf, assigned)) {
			strbuf_addf(why, "cross-branch push — you are bound to '%s', so you may only push that branch, not '%s': git push %s HEAD:%s",
				    assigned ? assigned : "<none>", dst.buf,
				    ps->remote ? ps->remote : "origin",
				    assigned ? assigned : "<branch>");
			/* `push origin v1` cannot tell a tag from a branch here */
			if (!starts_with(dst.buf, "refs/"))
				strbuf_addf(why, " (a tag is pushed by its full name: git push %s refs/tags/%s)",
					    ps->remote ? ps->remote : "origin", dst.buf);
			ev = "deny_cross_branch_push";
		}
	}
	strbuf_release(&dst);
	return ev;
}
