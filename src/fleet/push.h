/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_PUSH_H
#define AG_FLEET_PUSH_H

/**
 * The push, done by agentic-git and never by the agent. Security module.
 *
 * Invariants (tests: t0701-dispatch-push.bats):
 *  1. git never runs in the agent's workspace with our credentials: the
 *     verified commit is taken into a bare repository agentic-git created
 *     under the run directory (its own config, hooks disabled) by
 *     git/owned-import.h before it is verified there; that repository's
 *     objects/info/alternates names only the object stores the workspace
 *     borrowed when agentic-git made it (the operator's clone), never the
 *     workspace's own store, whose alternates file is the agent's (W9).
 *  2. The push is `git push --force-with-lease=refs/heads/<head>:<observed>
 *     <url> <sha>:refs/heads/<head>`: exactly one ref, an explicit lease
 *     on the SHA agentic-git observed before the agent ran, to the URL read
 *     from the operator's clone before the agent ran.
 *  3. Hooks are disabled for the push (core.hooksPath=/dev/null).
 *
 * Decision: a bare repository of ours (`<run>/push-<key>.git`, one per
 * target, removed when it is done) rather than the operator's clone: the
 * clone's config and hooks are reachable by an unsandboxed agent (same
 * uid), ours is created after we start and is only named in our own argv.
 */
#include "base/common.h"
#include "base/strbuf.h"

enum push_status {
	PUSH_NONE = 0,	    /* not attempted */
	PUSH_PUSHED,
	PUSH_LEASE_REFUSED, /* someone else moved the branch */
	PUSH_FAILED,
};

const char *push_status_str(enum push_status s);

struct push_req {
	/* <run>/push-<key>.git (created when missing, written directly:
	 * git/gitdir-write.h) */
	const char *push_repo;
	const char *const *stores; /* what the workspace borrowed, from
				      workspace_create(), not its own */
	size_t stores_nr;
	const char *url;	   /* remote URL observed before the agent ran */
	const char *head;	   /* branch name */
	const char *expected_sha;  /* the lease */
	const char *sha;	   /* the verified commit */
	const char *objfmt;	   /* the workspace's object format, NULL: sha1 */
};

/*
 * Creates the push repository when missing and points its alternates at
 * req->stores: the owned repository the verifier imports into first
 * (git/owned-import.h). 0, or -1 with `detail` set.
 */
int push_repo_prepare(const struct push_req *req, struct strbuf *detail);

/* Returns the status; `detail` gets git's message on failure. */
enum push_status push_run(const struct push_req *req, struct strbuf *detail);

#endif
