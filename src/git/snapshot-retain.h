/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SNAPSHOT_RETAIN_H
#define AG_SNAPSHOT_RETAIN_H

/**
 * Retention for the fleet (issue 37 point 3; docs/snapshots.md,
 * "Retention"): one policy over every agent's snapshots in a repository,
 * finished sessions included, and over the quarantine.
 *
 * A snapshot goes when it is older than max_age, or when newer ones of
 * the same work tree number keep_per_worktree, or when newer ones of the
 * repository number keep_per_repository — except the newest snapshot of
 * each live agent (a session whose runtime directory exists), which is
 * never removed.
 */
#include "base/common.h"
#include <time.h>
#include "base/strbuf.h"
#include "base/strvec.h"
#include "git/snapshot-list.h"

#define SNAPSHOT_RETAIN_MAX_AGE_DAYS 7
#define SNAPSHOT_RETAIN_PER_WORKTREE 100
#define SNAPSHOT_RETAIN_PER_REPOSITORY 1000

struct snapshot_retention {
	long max_age; /* seconds */
	size_t per_worktree;
	size_t per_repository;
};

/* The defaults above, each replaced by a non-zero value given. */
void snapshot_retention_init(struct snapshot_retention *r,
			     unsigned long max_age_days,
			     unsigned long per_worktree,
			     unsigned long per_repository);

/*
 * Pure: the snapshots of `l` (newest first, snapshot_list_load()) that the
 * policy removes at `now`, their refs onto `out`. `live` lists the live
 * agents; the newest snapshot of each is kept. A snapshot goes when it is
 * older than max_age, or per_worktree newer ones of its worktree precede
 * it, or per_repository newer ones are kept before it: the repository's
 * count is of snapshots kept, so that one worktree's many (a flood of
 * snapshots, or of names from the future) can take no more than its
 * per_worktree places and never push another session's out.
 */
void snapshot_retain_select(const struct snapshot_list *l,
			    const struct snapshot_retention *r,
			    const struct strvec *live, time_t now,
			    struct strvec *out);

/* The agents whose session is live: the names under <home>/runtime. */
void snapshot_live_agents(const char *home, struct strvec *out);

/*
 * Applies the policy to the repository at `dir`: deletes the refs (one
 * `git update-ref --stdin`, each against the commit it was read at, the
 * hooks not asked), their quarantines, and every quarantine under
 * <home>/quarantine older than max_age that no kept snapshot names.
 * The deleted refs go to `pruned`. 0, or -1 with `err` set.
 */
int snapshot_retain_apply(const char *real_git, const char *dir,
			  const char *home, const struct snapshot_retention *r,
			  time_t now, struct strvec *pruned,
			  struct strbuf *err);

#endif
