/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_PUSHPLAN_H
#define AG_PUSHPLAN_H

/**
 * What a `git push` really does, read from git itself: pure, no I/O.
 *
 * The shim runs the agent's push once as `--dry-run --porcelain` with
 * GIT_TRACE_PACKET pointed at a private file (src/git/pushguard.c). Git's
 * own refspec expansion (argv, `remote.<r>.push`, `remote.<r>.mirror`,
 * `push.default`, `--all`/`--mirror`/`--tags`/`--follow-tags`, matching
 * `:`) gives the porcelain lines parsed by push_plan_parse(); the packet
 * trace holds the remote's ref advertisement — the tips the push target
 * really has, not remote-tracking refs the agent can move — parsed by
 * push_adv_parse(). push_plan_check() judges every update.
 *
 * Ownership: a push_plan owns its strings; push_plan_release() frees them.
 * Parsers return 0, or -1 on input they do not understand (the caller
 * denies: fail-closed).
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "base/strvec.h"

struct push_update {
	char flag; /* git's: ' ' '+' '-' '*' '!' '=' */
	char *src; /* the local side as git names it; "" for a deletion */
	char *dst; /* the full remote ref */
};

struct push_plan {
	struct push_update *u;
	size_t nr;
	size_t urls; /* "To <url>" blocks: one per push URL */
};

int push_plan_parse(struct push_plan *p, const char *out, size_t len);
void push_plan_release(struct push_plan *p);

/*
 * The object ids every push target advertised, from GIT_TRACE_PACKET
 * output: only ids advertised by all of them (`blocks` gets the number of
 * advertisements), so that "the remote has it" holds for each target.
 * Zero ids (an empty repository's capabilities line) and lines that are no
 * ref advertisement are left out; -1 for an advertisement cut short. Each
 * push URL gives at least one block (smart HTTP two).
 */
int push_adv_parse(const char *trace, size_t len, struct strvec *tips,
		   size_t *blocks);

/*
 * Every update must land on refs/heads/<assigned> (not protected) or under
 * refs/tags/; a deletion, anything under refs/agentic-git/ or another
 * namespace is denied, whatever flag git gave it (an up-to-date or
 * rejected entry included: the remote may move before the real push).
 * Returns NULL or the event name, with the reason in `why`.
 */
const char *push_plan_check(const struct push_plan *p, const char *assigned,
			    bool (*is_protected)(const char *branch, void *ctx),
			    void *ctx, struct strbuf *why);

#endif
