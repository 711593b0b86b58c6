// SPDX-License-Identifier: Apache-2.0
/* Ref effects and their judge (git/ref-effects.h). Pure: no I/O. */
#include "base/common.h"
#include <string.h>
#include "base/strbuf.h"
#include "git/ref-effects.h"

#define SNAPSHOT_NS "refs/agentic-git/"

void ref_effects_init(struct ref_effects *fx)
{
	memset(fx, 0, sizeof(*fx));
	strvec_init(&fx->names);
}

void ref_effects_release(struct ref_effects *fx)
{
	strvec_clear(&fx->names);
	memset(fx, 0, sizeof(*fx));
}

void ref_effect_add(struct ref_effects *fx, enum ref_op op, const char *prefix,
		    const char *name, const char *given)
{
	struct ref_effect *e;

	if (fx->nr == REF_EFFECTS_MAX) {
		fx->overflow = true;
		return;
	}
	e = &fx->v[fx->nr++];
	e->op = op;
	e->given = given;
	strvec_pushf(&fx->names, "%s%s", prefix, name);
	e->pattern = strchr(name, '*') != NULL;
}

void ref_effect_add_fetch_dst(struct ref_effects *fx, enum ref_op op,
			      const char *dst, const char *given)
{
	/* git's remote.c get_local_ref() */
	if (starts_with(dst, "refs/"))
		ref_effect_add(fx, op, "", dst, given);
	else if (starts_with(dst, "heads/") || starts_with(dst, "tags/") ||
		 starts_with(dst, "remotes/"))
		ref_effect_add(fx, op, "refs/", dst, given);
	else
		ref_effect_add(fx, op, "refs/heads/", dst, given);
}

const char *ref_effect_name(const struct ref_effects *fx,
			    const struct ref_effect *e)
{
	return fx->names.v[e - fx->v];
}

bool ref_pattern_covers(const char *pattern, const char *ns)
{
	size_t fixed = strcspn(pattern, "*");
	size_t n = strlen(ns);

	return !strncmp(pattern, ns, fixed < n ? fixed : n);
}

/* refs/agentic-git/, or a name that spells its way into it
 * (`agentic-git/…`: fail-closed, as the policy always read it) */
static bool in_snapshots(const char *name, bool pattern)
{
	if (pattern && ref_pattern_covers(name, SNAPSHOT_NS))
		return true;
	return starts_with(name, SNAPSHOT_NS) ||
	       !strcmp(name, "refs/agentic-git") ||
	       strstr(name, "agentic-git/") != NULL;
}

const struct ref_effect *
ref_effects_judge(const struct ref_effects *fx,
		  bool (*is_protected)(const char *branch, void *ctx),
		  void *ctx, enum ref_hit *hit)
{
	*hit = REF_HIT_NONE;
	for (size_t i = 0; i < fx->nr; i++) {
		const struct ref_effect *e = &fx->v[i];
		const char *name = fx->names.v[i], *b;

		if (in_snapshots(name, e->pattern)) {
			*hit = REF_HIT_SNAPSHOTS;
		} else if (e->op == REF_READ) {
			continue;
		} else if (e->pattern) {
			if (ref_pattern_covers(name, "refs/heads/"))
				*hit = REF_HIT_PROTECTED;
		} else if (skip_prefix(name, "refs/heads/", &b) &&
			   is_protected(b, ctx)) {
			*hit = REF_HIT_PROTECTED;
		}
		if (*hit)
			return e;
	}
	if (fx->overflow && fx->nr) {
		*hit = REF_HIT_PROTECTED;
		return &fx->v[fx->nr - 1];
	}
	return NULL;
}
