/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_REPO_PROBE_H
#define AG_REPO_PROBE_H

/**
 * The one gate in front of our own git-format code (issue 21, point 3).
 * agentic-git reads and writes some of git's formats itself on its fast
 * paths: the index reader (snapshot-index.h), the pack writer (packw.h),
 * loose refs (loose-ref.h, refs-files.h, repo.h). Each asks the probe of
 * the repository first; whatever the probe does not know goes to real git
 * (gitcmd.h), so a repository in a shape we do not handle gets git's own
 * answer, never a wrong one of ours and never a refusal.
 *
 * Invariants:
 *  1. Fail towards git: a config we cannot read exactly (a syntax error, an
 *     include, over REPO_PROBE_CONFIG_MAX, unreadable) sets PROBE_ODD, and
 *     every query answers "not ours".
 *  2. Only what our code handles is ours: format version 0 or 1, object
 *     format sha1 (sha256 for refs), the files ref backend, no extension
 *     we do not know (git's rule: version 1 with an unknown extension is
 *     refused by git; we leave the repository to git whatever the
 *     version), no split or sparse index configured, no shared repository
 *     (git gives what it writes there group permissions), no reflog for
 *     every ref where we create refs (core.logAllRefUpdates = always).
 *  3. Cheap: repo_probe_get() reads a repository's config once per process
 *     and checks it is unchanged (and reftable/ still absent or present)
 *     with an lstat(2) each per call.
 *
 * The queries are pure. repo_probe_get() reads the files git reads: the
 * system and global config, the repository's config (the only one the
 * format version and extensions count in), config.worktree, and every
 * included file whatever its condition. `-c` and GIT_CONFIG_PARAMETERS
 * are not read: our own git runs without them (gitcmd.h).
 */
#include "base/common.h"
#include "base/strvec.h"

#define REPO_PROBE_CONFIG_MAX ((size_t)1 << 20)

enum repo_probe_objfmt { PROBE_SHA1 = 0, PROBE_SHA256, PROBE_OBJFMT_OTHER };

enum repo_probe_flags {
	PROBE_ODD = 1 << 0,		/* config not read exactly (inv. 1) */
	PROBE_FORMAT_NEWER = 1 << 1,	/* repositoryformatversion > 1 */
	PROBE_UNKNOWN_EXT = 1 << 2,	/* an extensions.* we do not know */
	PROBE_REFS_OTHER = 1 << 3,	/* refStorage not files; reftable/ */
	PROBE_SPLIT_INDEX = 1 << 4,	/* core.splitIndex */
	PROBE_SPARSE_INDEX = 1 << 5,	/* index.sparse */
	PROBE_SHARED = 1 << 6,		/* core.sharedRepository, setgid */
	PROBE_WORKTREE_CONFIG = 1 << 7, /* extensions.worktreeConfig */
	PROBE_REFLOG_ALWAYS = 1 << 8	/* core.logAllRefUpdates = always */
};

struct repo_probe {
	unsigned version; /* core.repositoryformatversion */
	enum repo_probe_objfmt objfmt;
	unsigned flags; /* enum repo_probe_flags */
};

/* The object format named `name` (NULL is sha1). */
enum repo_probe_objfmt repo_probe_objfmt_of(const char *name);

/*
 * Which config file a text is: the repository's own `config` (the only one
 * git reads core.repositoryformatversion and extensions.* from), or any
 * other (config.worktree, the global and system files, included files).
 */
enum repo_probe_level { PROBE_LEVEL_REPO, PROBE_LEVEL_OTHER };

/*
 * Reads one config file's text into p (flags are added to, so the other
 * files can follow). The `path` of every include.path and includeIf.*.path
 * is appended to `includes` as written (the caller reads those files too,
 * whatever the condition); with `includes` NULL an include is PROBE_ODD.
 * Pure.
 */
void repo_probe_config(struct repo_probe *p, const char *buf, size_t len,
		       enum repo_probe_level level, struct strvec *includes);

/* Loose and packed refs may be read and created as files. */
bool repo_probe_refs_ours(const struct repo_probe *p);
/* Files in the git dir may be written with our modes: nothing in doubt,
 * not a shared repository (git gives what it writes there group modes). */
bool repo_probe_files_ours(const struct repo_probe *p);
/* Loose refs may be created as we create them: refs ours, files ours, no
 * reflog for every ref (we write none). */
bool repo_probe_ref_writes_ours(const struct repo_probe *p);
/* Objects may be written by packw: files ours, SHA-1 (any ref storage). */
bool repo_probe_objects_ours(const struct repo_probe *p);
/* The index file may be read by snapshot-index (no split/sparse index). */
bool repo_probe_index_ours(const struct repo_probe *p);
/* 40 or 64, the hex length of the object format; 0 for another. */
size_t repo_probe_hexlen(const struct repo_probe *p);

/*
 * The probe of the repository whose common dir is `commondir` (absolute):
 * its config, `config.worktree` of `gitdir` when worktreeConfig is on
 * (gitdir NULL: the common dir's), a reftable/ directory, the objects
 * directory's setgid bit. Cached per process. Never NULL; the pointer is
 * the cache's and valid until the next call.
 */
const struct repo_probe *repo_probe_get(const char *commondir,
					const char *gitdir);

#endif
