/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_REVIEW_H
#define AG_FLEET_REVIEW_H

/**
 * What `agentic-git review` shows (PRODUCT.md §13): a session's branch
 * against its base, read from the operator's repository.
 *
 * Invariants (tests in tests/e2e/t0900-t0903 cite these numbers):
 *  1. The branch is the agent's writing: git runs in the operator's
 *     repository as a bare repository (refs and objects only, never the
 *     agent's worktree), in the GIT_AGENT_REPO trust mode (no repository
 *     driver, hook, pager or external diff), with --no-optional-locks,
 *     core.attributesFile=/dev/null, --no-textconv and --no-ext-diff.
 *  2. Nothing is written: no ref, no index, no lock.
 *  3. Every string here is the agent's; printing it is the caller's, as
 *     inert text (base/inert.h) or JSON.
 *
 * The base is the branch the session's binding records ("base"), else
 * the commit it started from ("base_oid"). Denies and snapshots come from
 * the audit log: the agent's records since the binding was issued.
 *
 * Every string is owned by the struct review and freed by
 * review_release(). review_read() returns 0, or -1 with one line in err.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "base/strvec.h"
#include "fleet/session-state.h"

struct review_commit {
	char *oid, *author, *date, *subject;
	char *trailers; /* "Key: value" lines, unfolded, or "" */
};

struct review_file {
	char *path;
	long added, deleted; /* -1, -1 for a binary file */
};

struct review_event {
	char *timestamp, *event, *subcommand;
	char *detail; /* a deny's reason, a snapshot's ref */
	char *kept;   /* a snapshot: the ref it kept, or NULL */
};

struct review_overlap {
	char *path;
	struct strvec agents; /* the other live sessions that changed it */
};

struct review {
	char *base; /* what the branch was compared with */
	char *base_oid, *head_oid;
	int ahead, behind;
	struct review_commit *commits;
	size_t commits_nr, commits_alloc;
	struct review_file *files;
	size_t files_nr, files_alloc;
	long insertions, deletions;
	struct review_event *denies, *snapshots;
	size_t denies_nr, denies_alloc, snapshots_nr, snapshots_alloc;
	struct review_overlap *overlap;
	size_t overlap_nr, overlap_alloc;
	struct strbuf patch; /* with want_patch: `git diff` of base...branch */
};

#define REVIEW_INIT                  \
	{                            \
		.patch = STRBUF_INIT \
	}

/*
 * Reads the review of session `si` (trusted: its binding verified) in
 * the home `home` with the real git `git`. `others` are the home's
 * sessions (si among them is skipped); NULL skips the overlap.
 */
int review_read(const char *home, const char *git,
		const struct session_info *si,
		const struct session_list *others, bool want_patch,
		struct review *r, struct strbuf *err);
void review_release(struct review *r);

/*
 * Runs git for review in the operator's repository (invariant 1): `args`
 * NULL-terminated after the options. Returns git's status, -1 when it
 * could not run.
 */
int review_git(const char *git, const char *repo, struct strbuf *out,
	       struct strbuf *err, const char *const *args);

#endif
