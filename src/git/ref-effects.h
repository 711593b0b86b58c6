/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_REF_EFFECTS_H
#define AG_REF_EFFECTS_H

/**
 * Ref effects: what a command line may create, move or delete, as full ref
 * names after git's own expansion of short names, and the one judge of
 * them (the policy table's ref-effects column, git/rules.h). Pure: no I/O.
 *
 * A row fills a struct ref_effects with ref_effect_add() (names it builds
 * are owned by the struct; ref_effects_release() frees them). The judge,
 * ref_effects_judge(), names the first effect that touches
 * refs/agentic-git/ (the safety net) or a protected local branch; a
 * pattern (a refspec's `*`) counts for every ref it may cover.
 *
 * Invariants:
 *  1. A name is judged as git will write it: fetch's destinations as
 *     get_local_ref() expands them (`heads/x`, `tags/x`, `remotes/x` under
 *     refs/, any other short name under refs/heads/), branch names under
 *     refs/heads/, the rest as given.
 *  2. A pattern covers a namespace when its fixed part before the `*`
 *     could begin a name in it, or begins with it: `refs/agentic-git*`
 *     and `refs/<star>` cover refs/agentic-git/. Fail-closed: what a suffix
 *     after the `*` would exclude is not counted.
 *  3. More effects than REF_EFFECTS_MAX are judged as a hit (overflow).
 */
#include "base/common.h"
#include "base/strvec.h"

#define REF_EFFECTS_MAX 64

enum ref_op {
	REF_WRITE,    /* create or move */
	REF_DELETE,   /* delete (a rename deletes the old name) */
	REF_UPSTREAM, /* set or unset its upstream, or its description */
	REF_READ,     /* copy from it (a fetch's source) */
};

struct ref_effect {
	enum ref_op op;
	const char *given; /* as the command line gives it */
	bool pattern;	   /* a refspec pattern: holds a `*` */
};

struct ref_effects {
	struct ref_effect v[REF_EFFECTS_MAX];
	size_t nr;
	bool overflow;
	struct strvec names; /* owned: the names built here */
};

void ref_effects_init(struct ref_effects *fx);
void ref_effects_release(struct ref_effects *fx);

/* The full name (or pattern) of effect `e` of `fx`. */
const char *ref_effect_name(const struct ref_effects *fx,
			    const struct ref_effect *e);

/* Adds `prefix` + `name` (prefix may be ""), as given by `given`. */
void ref_effect_add(struct ref_effects *fx, enum ref_op op, const char *prefix,
		    const char *name, const char *given);

/* A fetch destination as git expands it (invariant 1), added as `op`. */
void ref_effect_add_fetch_dst(struct ref_effects *fx, enum ref_op op,
			      const char *dst, const char *given);

/* Whether a pattern (invariant 2) may cover a name under `ns`. */
bool ref_pattern_covers(const char *pattern, const char *ns);

enum ref_hit {
	REF_HIT_NONE,
	REF_HIT_SNAPSHOTS, /* refs/agentic-git/ */
	REF_HIT_PROTECTED, /* a protected local branch, or any under a
			      pattern into refs/heads/ */
};

/*
 * The first effect that hits, and why (*hit); NULL when none does.
 * `is_protected` answers for a branch name (without refs/heads/). An
 * overflow hits as REF_HIT_PROTECTED with the last effect.
 */
const struct ref_effect *
ref_effects_judge(const struct ref_effects *fx,
		  bool (*is_protected)(const char *branch, void *ctx),
		  void *ctx, enum ref_hit *hit);

#endif
