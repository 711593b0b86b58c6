/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_GITDIR_WRITE_H
#define AG_GITDIR_WRITE_H

/**
 * Creating a new repository by writing git's stable on-disk format
 * directly (the files `git init --template=` and `git update-ref` write),
 * without starting git: private workspaces (fleet/workspace.c), dispatch
 * workspaces and the per-target push repository (fleet/workspace.c, fleet/push.c).
 *
 * Invariants:
 *  1. Only creates: the git dir's files are opened O_CREAT|O_EXCL|
 *     O_NOFOLLOW, so an existing file or a planted symlink fails the call
 *     rather than being written through.
 *  2. The config exists before any ref: a caller's core.hooksPath is in
 *     place before anything could run a hook.
 *  3. Only object formats git knows in its stable format: sha1 (format
 *     version 0) and sha256 (version 1, extensions.objectformat); anything
 *     else is GITDIR_UNSUPPORTED and nothing is written, so the caller runs
 *     `git init` instead.
 *
 * Strings are borrowed. Functions return 0, or -1 after one error() line
 * (gitdir_write: GITDIR_UNSUPPORTED without a message).
 */
#include "base/common.h"
#include "base/strbuf.h"

struct gitdir_spec {
	const char *git_dir;	 /* <top>/.git or a bare repository's dir */
	bool bare;
	const char *objfmt;	 /* extensions.objectformat; NULL for sha1 */
	const char *head;	 /* HEAD names refs/heads/<head> */
	const char *hooks_path;	 /* core.hooksPath, or NULL for none */
	const char *alternates;	 /* an objects dir to borrow, or NULL */
	const char *extra_config; /* appended to the config as is, or NULL */
};

#define GITDIR_UNSUPPORTED 1

/* config, objects/{info,pack}, refs/{heads,tags}, HEAD, alternates. */
int gitdir_write(const struct gitdir_spec *s);

/* True for the object formats gitdir_write() writes (NULL is sha1). */
bool gitdir_objfmt_ok(const char *objfmt);

/* Creates <git_dir>/<name> (directories too) holding content. */
int gitdir_put(const char *git_dir, const char *name, const char *content);

/* Creates the loose ref <git_dir>/<ref> ("refs/…") holding oid. */
int gitdir_put_ref(const char *git_dir, const char *ref, const char *oid);

/* Appends `\t<key> = "<value>"` with git's config quoting. */
void gitdir_config_value(struct strbuf *sb, const char *key, const char *v);

#endif
