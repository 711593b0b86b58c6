/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_SESSION_STATE_H
#define AG_FLEET_SESSION_STATE_H

/**
 * What `sessions` shows and what `end` checks: the state of each session
 * under <home>/runtime/, read without changing anything.
 *
 * Every session is described from its *verified* binding only: a binding
 * whose signature fails is reported as "forged" and none of its fields are
 * trusted (nothing unverified reaches the JSON parser). All strings in the
 * structs are owned by them and freed by the *_release() functions.
 * Functions return 0 or -1; they print nothing.
 */
#include "base/common.h"
#include "base/strbuf.h"

enum session_state {
	SESSION_CLEAN,
	SESSION_DIRTY,
	SESSION_MISSING, /* the worktree is gone */
	SESSION_FORGED,	 /* the binding does not verify */
	SESSION_INVALID, /* verified, but not a usable v1 session binding */
};

const char *session_state_str(enum session_state s);

struct session_info {
	char *agent;
	char *branch;	   /* NULL unless the binding verified */
	char *worktree;	   /* idem */
	char *source_repo; /* idem */
	char *base;	   /* the base branch the binding records, or NULL */
	char *base_oid;	   /* the commit the session started from, or NULL */
	char *issued_at;   /* when the binding was written, or NULL */
	enum session_state state;
	int changed;	   /* tracked paths with changes (staged or not) */
	int untracked;	   /* untracked, not ignored, files */
	int unpushed;	   /* commits on no remote-tracking ref (-1: unknown) */
	int snapshots;	   /* refs under refs/agentic-git/snapshots/<agent>/ */
	char *last_event;  /* event name, or NULL */
	char *last_time;   /* its timestamp, or NULL */
	bool running;	   /* someone holds the run lock (fleet/session-lock.h) */
	long pid;	   /* the agent it names, 0 when not running or unknown */
};

struct session_list {
	struct session_info *v;
	size_t nr, alloc;
};

/*
 * Reads one session (agent name already validated). `git` is the real
 * git. Never fails: unreadable parts are reported through `state`.
 * `running` comes from probing the run lock, whatever the binding's state.
 */
void session_info_read(const char *home, const char *git, const char *agent,
		       struct session_info *si);
void session_info_release(struct session_info *si);

/* Every directory of <home>/runtime/ with a valid agent name, sorted. */
int session_list_read(const char *home, const char *git,
		      struct session_list *l);
void session_list_release(struct session_list *l);

/*
 * Fills last_event/last_time for each session from the last 4 MiB of
 * <home>/fleet_events.jsonl (older history is not scanned).
 */
void session_list_last_events(const char *home, struct session_info *v,
			      size_t nr);

#endif
