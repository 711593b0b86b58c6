/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_QUARANTINE_H
#define AG_QUARANTINE_H

/**
 * The quarantine: what `git clean` is about to delete and a snapshot's tree
 * cannot hold is moved into <home>/quarantine/<agent>/<snapshot-id>/,
 * mirroring the paths relative to the work tree's top, so a restore can
 * move it back: ignored files (-x/-X, or un-ignored by the clean's own
 * patterns), nested repositories (-ff: the tree holds at most a gitlink,
 * never their files or their .git), every file when the snapshot left
 * some out, and the directories (-d), which are recorded.
 *
 * Invariants:
 *  1. MUST only move paths that `git clean -n` with the same selection
 *     lists (or lie inside a directory it lists): ignored ones, nested
 *     repositories whole, and with `all` every file.
 *  2. MUST move, never copy-then-delete, on one filesystem (rename(2));
 *     across filesystems it copies, then removes the original. An ignore
 *     file (`.gitignore`) is copied and left in place: it decides what the
 *     clean that follows deletes, and moving it first would make clean
 *     delete the files it ignored (fuzz finding I26).
 *  5. MUST leave clean deleting only what the plan saw: after the moves,
 *     quarantine_verify() asks `git clean -n` again.
 *  3. MUST NOT overwrite anything on restore: a path that exists again is
 *     left in place and its quarantined copy is kept.
 *  4. MUST NOT follow symlinks while walking (lstat, FTW_PHYS).
 *
 * Ownership: the plan owns its vectors (quarantine_plan_release()).
 * Functions return 0 or -1 with `err` filled with a one-line reason.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "base/strvec.h"

struct quarantine_plan {
	struct strvec moves;  /* top-relative paths to move (files or dirs) */
	struct strvec copies; /* top-relative ignore files to copy */
	struct strvec dirs;   /* top-relative directories to record */
	struct strvec listed; /* what `git clean -n` listed, sorted */
};
#define QUARANTINE_PLAN_INIT                                       \
	{                                                          \
		STRVEC_INIT, STRVEC_INIT, STRVEC_INIT, STRVEC_INIT \
	}

/*
 * Asks `git clean -n` (run in `dir`, below `top`, in the repository whose
 * git dir is `gitdir` and work tree `top`, with the same selection as
 * `clean_args` and the clean's own `-c` values `configs`, may be NULL)
 * what it would delete. Into `moves`: the ignored paths among them (as the
 * repository's ignore rules say, whatever the clean's own -e or -x), a
 * nested repository (a directory with a `.git`) whole, and with `all`
 * every file; every other directory it would delete is recorded.
 */
int quarantine_plan_clean(const char *real_git, const char *gitdir,
			  const char *dir, const char *top,
			  const char *const *clean_args,
			  const char *const *configs, bool all,
			  struct quarantine_plan *qp, struct strbuf *err);
bool quarantine_plan_empty(const struct quarantine_plan *qp);
void quarantine_plan_release(struct quarantine_plan *qp);

/*
 * Creates <root>/<who>/<id>[.N] (mode 0700) into `qdir`: `root` is
 * <home>/quarantine, or in a cage the session's own one bound in
 * (quarantine_root()).
 */
int quarantine_claim(const char *root, const char *who, const char *id,
		     struct strbuf *qdir, struct strbuf *err);

/*
 * The quarantine survives the cage (PRODUCT.md §5): a sandboxed launch
 * binds a directory of the home, `<home>/quarantine/<agent>/<stamp>-cage-
 * <pid>/quarantine`, read-write into the cage and names it in
 * QUARANTINE_ENV; a snapshot taken inside puts its quarantine there, on
 * storage that outlives the cage and that no other session writes.
 */
#define QUARANTINE_ENV "AGENTIC_GIT_QUARANTINE"
#define QUARANTINE_CAGE_MARK "-cage-"

/*
 * The quarantine root into `out`: QUARANTINE_ENV when set, else
 * <home>/quarantine. -1 (err set) when QUARANTINE_ENV is not an absolute
 * path ending in "/quarantine" (restore recognises a quarantine by that
 * shape), or neither is known.
 */
int quarantine_root(const char *home, struct strbuf *out, struct strbuf *err);
/* Moves the plan's paths under qdir, copies its ignore files there and
 * records its directories. */
int quarantine_execute(const char *top, const char *qdir,
		       const struct quarantine_plan *qp, struct strbuf *err);
/*
 * After quarantine_execute(), with the arguments quarantine_plan_clean()
 * had: -1 (err names it) when `git clean -n` now lists a path it did not
 * list before, so what the moves left behind is not what was planned for.
 */
int quarantine_verify(const char *real_git, const char *gitdir, const char *dir,
		      const char *top, const char *const *clean_args,
		      const char *const *configs,
		      const struct quarantine_plan *qp, struct strbuf *err);
/*
 * Moves everything in qdir back under top where nothing exists now;
 * counts what came back and what was left because the path exists.
 */
int quarantine_restore(const char *qdir, const char *top, size_t *restored,
		       size_t *kept, struct strbuf *err);
/* Lists qdir's files (top-relative), for `snapshots show`. */
int quarantine_list(const char *qdir, struct strvec *out);
/* rm -rf without following symlinks. 0 or -1 (errno). */
int remove_tree(const char *path);

#endif
