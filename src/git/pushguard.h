/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_PUSHGUARD_H
#define AG_PUSHGUARD_H

/**
 * The push guards that need the repository, run after the pure argv checks
 * (git/pushspec.h) passed, on what git really pushes (PRODUCT.md §4):
 *  1. the agent's push runs once as `git push --dry-run --porcelain` with
 *     the same arguments, environment and configuration, and a packet
 *     trace into a private memfd: git's own refspec expansion gives every
 *     ref update (git/pushplan.h), the trace the remote's real tips;
 *  2. every update is judged (push_plan_check());
 *  3. every commit pushed, measured against those tips, is scanned
 *     (git/pushscan.h: trust-root files, snapshot commits, tags of trees).
 * Anything that cannot be read or run denies (fail-closed).
 *
 * `args` is the routed argv after `git` (NULL-terminated, borrowed), the
 * push's own arguments from `args[sub_args_at]`, its options ending at
 * `args[opts_end_at]` (the verdict's), `ps` their parse.
 * Returns NULL when the push may run; otherwise the event name, with the
 * reason in `why`.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "git/pushspec.h"

struct push_guard_in {
	const char *real_git;
	const char *dir; /* where the routed push runs */
	const char *const *args;
	size_t sub_args_at;
	size_t opts_end_at; /* args[opts_end_at]: where push's options end */
	const struct push_spec *ps;
	const char *assigned; /* the bound branch */
	bool (*is_protected)(const char *branch, void *ctx);
	void *ctx;
	unsigned depth; /* the shim's nesting depth */
	/* out, may be NULL: the object ids scanned, space-separated — what
	 * the pushed refs were when the guard looked (git/pushpin.h) */
	struct strbuf *pins;
};

const char *push_guards_run(const struct push_guard_in *in, struct strbuf *why);

/*
 * For a verdict that asked for them (v->push_guards): runs the guards on
 * the routed push; a deny turns `v` into that deny. The shim's and
 * `check`'s one call.
 */
struct policy_input;
struct verdict;
void push_guards_verdict(const char *real_git, const struct policy_input *in,
			 struct verdict *v);

#endif
