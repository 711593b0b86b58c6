/* SPDX-License-Identifier: Apache-2.0 */
/* What the reference-transaction hook refuses; see reftx.h. */
#include "base/common.h"
#include <string.h>
#include "git/reftx.h"

static bool all_zero(const char *oid)
{
	if (!*oid)
		return false;
	for (; *oid; oid++)
		if (*oid != '0')
			return false;
	return true;
}

static bool in_list(const struct strvec *v, const char *s)
{
	for (size_t i = 0; v && i < v->nr; i++)
		if (!strcmp(v->v[i], s))
			return true;
	return false;
}

static bool judge_branch(const struct reftx_ctx *c, bool exists, const char *b,
			 struct strbuf *why)
{
	if (c->branch && !strcmp(b, c->branch))
		return true;
	if (c->policy_refused || ag_protected_match(c->protected, b)) {
		strbuf_addf(why, "'%s' is a protected branch%s", b,
			    c->policy_refused ? " (policy.toml was refused: every branch is)" : "");
		return false;
	}
	if (in_list(c->others, b)) {
		strbuf_addf(why, "'%s' is another agent's branch", b);
		return false;
	}
	if (exists && in_list(c->ended, b)) {
		strbuf_addf(
			why,
			"'%s' is the branch of an ended session: it is kept until the operator deletes it",
			b);
		return false;
	}
	return true;
}

bool reftx_judge(const struct reftx_ctx *c, bool exists, const char *new_oid,
		 const char *ref, struct strbuf *why)
{
	const char *rest;
	bool create = !exists && !all_zero(new_oid);

	if (!strchr(ref, '/'))
		return true; /* HEAD, ORIG_HEAD, …: this worktree's own */
	if (starts_with(ref, "main-worktree/") || starts_with(ref, "worktrees/")) {
		strbuf_addf(why, "'%s' belongs to another checkout", ref);
		return false;
	}
	if (skip_prefix(ref, "refs/heads/", &rest))
		return judge_branch(c, exists, rest, why);
	if (skip_prefix(ref, "refs/agentic-git/snapshots/", &rest)) {
		size_t n = strlen(c->agent);
		if (create && !strncmp(rest, c->agent, n) && rest[n] == '/')
			return true;
	}
	if (starts_with(ref, "refs/agentic-git/")) {
		strbuf_addf(why, "'%s' is in the snapshot namespace: it only ever grows by agentic-git's own snapshots",
			    ref);
		return false;
	}
	if (starts_with(ref, "refs/tags/") && !create) {
		strbuf_addf(why, "'%s' already exists: tags are shared, they are never moved or deleted", ref);
		return false;
	}
	if (starts_with(ref, "refs/replace/")) {
		strbuf_addf(why, "'%s' would rewrite history for everyone", ref);
		return false;
	}
	return true;
}

bool reftx_value_kept(const char *old_oid, const char *new_oid,
		      const struct reftx_values *v)
{
	if (!*v->now || (!all_zero(old_oid) && strcmp(old_oid, v->now)))
		return false;
	if (!all_zero(new_oid))
		return !strcmp(new_oid, v->now);
	/* a deletion: of the loose file only, packed-refs untouched */
	return !v->packed_locked && *v->packed && !strcmp(v->packed, v->now);
}
