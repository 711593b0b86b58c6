/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_SESSION_WRITE_H
#define AG_FLEET_SESSION_WRITE_H

/**
 * The one writer of a session (a `run` session, a sandboxed session, a
 * dispatch target), next to its readers (core/binding.c ag_binding_load(),
 * fleet/session-state.c): the signed binding under
 * <home>/runtime/<agent>/, the marker at the workspace's top and the
 * marker's info/exclude line. Security module.
 *
 * Invariants:
 *  1. The binding is signed over exactly the bytes written; binding.json
 *     and binding.json.sig are written atomically, mode 0600, in a
 *     runtime directory of mode 0700.
 *  2. The marker is named by SESSION_MARKER_NAME (git/repo.h) alone; it
 *     is written atomically with mode 0600 and holds `agent=` and
 *     `leased_at=` lines.
 *  3. The exclude lines are anchored at the top ("/<name>") and appended
 *     in place to an existing info/exclude (its mode, owner and inode
 *     stay: a shared repository's group modes among them); a missing one
 *     is created with git's own modes, 0644 (info/ 0755): it holds no
 *     secret, no one else may write it, and the operator's other users
 *     of a shared repository must still be able to read it.
 *  4. A failure of any part fails the whole: a session whose marker or
 *     exclude line is missing is not started.
 *
 * Strings are borrowed. Functions return 0, or -1 with one message in
 * `err` (errno's text included).
 */
#include "base/common.h"
#include "base/strbuf.h"

struct session_record {
	const char *home;  /* the agentic-git home */
	const char *agent; /* the session's agent name (validated) */
	const char *task_id;
	const char *branch;
	const char *worktree;	 /* the workspace's top */
	const char *source_repo; /* the operator's clone */
	const char *issued_at;	 /* RFC 3339; also the marker's leased_at */
	bool allow_bypass;	 /* the binding says AG_BYPASS_ALLOWED */
	/* the base branch (or NULL) and the commit the session started
	   from (or NULL): extra keys "base", "base_oid" of the binding */
	const char *base, *base_oid;
	/* the git dir whose info/exclude gets the marker line (a worktree's
	   common dir, a private workspace's own .git) */
	const char *exclude_git_dir;
	/* more top-level names to exclude, NULL-terminated, or NULL */
	const char *const *more_excludes;
};

/* The signed binding alone (re-signing an existing session). */
int session_write_binding(const struct session_record *r, struct strbuf *err);

/* The marker, its exclude lines, then the signed binding. */
int session_write(const struct session_record *r, struct strbuf *err);

#endif
