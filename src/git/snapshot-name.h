/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SNAPSHOT_NAME_H
#define AG_SNAPSHOT_NAME_H

/**
 * Snapshot ref names and commit metadata (pure: no I/O).
 *
 * A snapshot ref is
 *   refs/agentic-git/snapshots/<agent>/<UTC YYYYMMDDTHHMMSSZ>-<seq>-<slug>
 * where <seq> is a decimal counter that increases across every snapshot of
 * one agent within one second, whatever its slug, so (stamp, seq) orders an
 * agent's snapshots exactly. The snapshot commit's message carries
 * `Agentic-Snapshot-<Key>: <value>` lines (values escaped: `\\` and `\n`)
 * naming the op, agent, worktree, HEAD, index commit, quarantine directory
 * and saved stash commits.
 *
 * Ownership: every char * in the structs below is owned by the struct and
 * freed by its *_release(). Functions return 0 / true on success, -1 / false
 * on malformed input, and never print.
 */
#include "base/common.h"
#include <time.h>
#include "base/strbuf.h"
#include "base/strvec.h"

#define SNAPSHOT_REF_PREFIX "refs/agentic-git/snapshots/"
#define SNAPSHOT_NOAGENT "noagent"
#define SNAPSHOT_STAMP_LEN 16 /* YYYYMMDDTHHMMSSZ */
#define SNAPSHOT_SEQ_MAX 999999UL

struct snapshot_name {
	char *agent; /* owned */
	char stamp[SNAPSHOT_STAMP_LEN + 1];
	unsigned long seq;
	char *slug; /* owned */
};

/* The agent a snapshot is filed under: "noagent" for NULL or "". */
const char *snapshot_who(const char *agent);
/* Agent segment rule: the agent-name rule, or exactly "noagent". */
bool snapshot_who_valid(const char *who);
/* Slug rule: 1-32 of [a-z0-9-], starting with a letter. */
bool snapshot_slug_valid(const char *slug);

/* Appends the full ref name. -1 when who/slug fail their rules. */
int snapshot_ref_build(struct strbuf *out, const char *who, time_t t,
		       unsigned long seq, const char *slug);
/* Parses a full ref name; -1 (and `n` left released) when not ours. */
int snapshot_ref_parse(const char *ref, struct snapshot_name *n);
void snapshot_name_release(struct snapshot_name *n);
/* Orders newest first: <0 when a is newer than b. */
int snapshot_name_cmp_newest(const struct snapshot_name *a,
			     const struct snapshot_name *b);
/* The stamp's time in seconds since the epoch, or -1. */
time_t snapshot_stamp_time(const char *stamp);

/*
 * The seq for a new snapshot of `who` at `stamp`, given the names of the
 * refs that already exist (any agent, any stamp; others are ignored): one
 * more than the largest seq of (who, stamp), or 0.
 */
unsigned long snapshot_next_seq(const char *const *refs, size_t nr,
				const char *who, const char *stamp);

struct snapshot_meta {
	char *op;
	char *agent;
	char *worktree;
	char *head;	  /* HEAD commit at snapshot time, or NULL (unborn) */
	char *index;	  /* commit holding the staged tree, when it differed */
	char *quarantine; /* absolute quarantine directory, or NULL */
	/* the branch HEAD was on (refs/heads/…), NULL when detached or
	 * not recorded (snapshots before it was) */
	char *branch;
	/* a tip-only snapshot (git/reftx-keep.h): the ref whose dropped
	 * tip `head` it keeps; it holds no files (the empty tree) */
	char *kept;
	struct strvec stashes; /* stash commits, newest first */
};
#define SNAPSHOT_META_INIT { .stashes = STRVEC_INIT }

/* Renders the full commit message ("<op> snapshot", blank, key lines). */
void snapshot_meta_render(const struct snapshot_meta *m, struct strbuf *out);
/* Parses what render wrote; unknown lines are ignored. -1 if no op. */
int snapshot_meta_parse(const char *msg, struct snapshot_meta *m);
void snapshot_meta_release(struct snapshot_meta *m);

#endif
