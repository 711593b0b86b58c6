/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SNAPSHOT_LIST_H
#define AG_SNAPSHOT_LIST_H

/**
 * Reading snapshots (the engine that writes them is git/snapshot.h,
 * restoring them git/snapshot-restore.h).
 *
 * snapshot_list_load() reads every snapshot of `who` (NULL: all agents)
 * with its metadata, newest first ((stamp, seq) order, so same-second
 * snapshots are ordered by creation).
 *
 * Ownership: lists own their strings (snapshot_list_release()). Functions
 * return 0 or -1 with `err` set to a one-line reason.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "git/snapshot-name.h"

struct snapshot_info {
	char *ref;
	char *commit;
	long long when; /* committer date, seconds since the epoch */
	struct snapshot_name name;
	struct snapshot_meta meta;
};

struct snapshot_list {
	struct snapshot_info *v;
	size_t nr, alloc;
};
#define SNAPSHOT_LIST_INIT \
	{                  \
		NULL, 0, 0 \
	}

/* `pattern`: a ref or a ref prefix under refs/agentic-git/snapshots/. */
int snapshot_list_load(const char *real_git, const char *dir,
		       const char *pattern, struct snapshot_list *l,
		       struct strbuf *err);
/* Keeps only the snapshots taken in work tree `top`, order unchanged. */
void snapshot_list_keep_worktree(struct snapshot_list *l, const char *top);
void snapshot_list_release(struct snapshot_list *l);

#endif
