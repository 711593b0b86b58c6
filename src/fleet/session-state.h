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

/*
 * Registers the object store of the session's clone (its signed
 * source_repo) with the cage of agentic-git's own git (git/gitcmd.h
 * gitcmd_cage_trust_store()); session_info_read() does it first thing.
 */
void session_info_trust_store(const struct session_info *si);

/*
 * Every directory of <home>/runtime/ with a valid agent name, sorted,
 * each read by session_info_read() in session_gather_jobs() processes at
 * once (session_gather()); the rows are the same, in the same order, as
 * reading them one after the other.
 */
int session_list_read(const char *home, const char *git,
		      struct session_list *l);

/* AGENTIC_GIT_SESSIONS_JOBS: 1 to this; unset: the online CPUs, at most
 * SESSION_GATHER_JOBS_DEFAULT_MAX. */
#define SESSION_GATHER_JOBS_MAX 64
#define SESSION_GATHER_JOBS_DEFAULT_MAX 8
/*
 * How many sessions are read at once for a list of `n`: the value of
 * AGENTIC_GIT_SESSIONS_JOBS (a bad one is named in a warning and ignored),
 * else the number of online CPUs up to SESSION_GATHER_JOBS_DEFAULT_MAX;
 * never more than `n`, never less than 1.
 */
size_t session_gather_jobs(size_t n);
/*
 * Reads the sessions `agents[0..n)` into `out[0..n)` with at most `jobs`
 * worker processes (1: in this one); out[i] is agents[i]'s row whatever
 * the order they finish in. A session a worker could not send back is
 * "invalid" with only its name; the others are not affected. The caller
 * releases every out[i].
 */
void session_gather(const char *home, const char *git,
		    const char *const *agents, size_t n, size_t jobs,
		    struct session_info *out);
void session_list_release(struct session_list *l);

/*
 * Fills last_event/last_time for each session from the last 4 MiB of
 * <home>/fleet_events.jsonl (older history is not scanned).
 */
void session_list_last_events(const char *home, struct session_info *v,
			      size_t nr);

#endif
