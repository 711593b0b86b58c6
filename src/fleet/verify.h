/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_VERIFY_H
#define AG_FLEET_VERIFY_H

/**
 * Independent verification of an agent's result before any push
 * (PRODUCT.md §9). Security module.
 *
 * Invariants (tests: t0702-verify.bats, tests/unit/test-verify.c):
 *  1. Nothing is pushed unless EVERY check passes; a check that cannot be
 *     evaluated (git failed) fails.
 *  2. Checks read the workspace only through GIT_AGENT_REPO (caged, no
 *     credentials, hooks/fsmonitor/external diff off). The checks of what
 *     is pushed (markers, ancestry, trust roots) read the commits in the
 *     repository agentic-git owns (`owned`), imported by
 *     git/owned-import.h with the workspace's shallow, grafts, replace
 *     refs and alternates ignored, and never the workspace's attributes
 *     or config: the diff is --text --no-textconv --no-ext-diff with
 *     core.attributesFile and core.bigFileThreshold our own (W5, W6,
 *     W13, W14). Without an owned repository they fail.
 *  3. Every comparison is against values agentic-git observed itself before
 *     the agent ran (head and base SHAs, the ref snapshot), never against
 *     refs the agent could have moved (refs/remotes/origin/<base>).
 *  4. The pushed commit is HEAD as verified (its SHA is returned), and HEAD
 *     must be the branch refs/heads/<head>.
 *  5. A trust-root file (basename .config-integrity-key, policy.toml,
 *     fleet.yaml, or *.jsonl) touched by any commit in the pushed range
 *     (HEAD --not observed head, observed base), a merge included, blocks
 *     the push: git/pushscan.h, the same scan as the shim's push guard.
 *
 * The check list is fixed and in this order; `verify_check_names` lists it.
 * verify_refs_filter() and verify_refs_diff() are pure helpers.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "base/strvec.h"

enum verify_check {
	VC_EXIT,	/* exit 0 within the timeout */
	VC_UNMERGED,	/* no unmerged index entries */
	VC_MARKERS,	/* no conflict markers added in the branch's diff */
	VC_IN_PROGRESS, /* no rebase/merge/cherry-pick/revert in progress */
	VC_HEAD,	/* HEAD readable, on refs/heads/<head>, and moved */
	VC_ANCESTRY,	/* the observed base is an ancestor of HEAD */
	VC_REFS,	/* no ref but refs/heads/<head> changed */
	VC_TRUST_ROOT,	/* no trust-root file in the pushed range */
	VC_COMMAND,	/* verify_command passed (skipped when none) */
	VC__COUNT
};

enum verify_state { VS_PASS = 0, VS_FAIL, VS_SKIP };

struct verify_input {
	const char *workspace;	  /* the agent's cwd */
	const char *head;	  /* branch name */
	const char *head_sha;	  /* observed before the agent ran */
	const char *base_sha;	  /* observed before the agent ran */
	const char *refs_before;  /* verify_refs_snapshot() output */
	bool exit_ok;		  /* exited 0 within the timeout */
	bool rebase_task;	  /* VC_ANCESTRY applies */
	const char *const *command; /* verify_command argv, or NULL */
	unsigned command_timeout;   /* seconds */
	const struct strvec *command_env; /* the sandbox/agent env for it */
	const char *command_name;   /* for messages; NULL: command[0] (a
				       sandbox wrapper's argv[0] is not it) */
	const char *command_refused; /* non-NULL: fails with this reason,
					nothing runs */
	const char *owned;	     /* the bare repository the range is
				       imported into and read in */
	const char *owned_refused;   /* why there is none (then `owned` is
				       NULL and the range checks fail) */
	const char *const *haves;    /* more commits the owned repository may
				       have (NULL-terminated, or NULL) */
};

struct verify_report {
	enum verify_state state[VC__COUNT];
	struct strbuf detail[VC__COUNT];
	char new_head[65]; /* verified HEAD sha, "" when unreadable */
	bool in_conflict;  /* unmerged paths or an operation in progress */
	bool ok;	   /* every check passed or was skipped */
};

const char *verify_check_name(enum verify_check c);

void verify_report_init(struct verify_report *r);
void verify_report_release(struct verify_report *r);

/* Runs every check (even after a failure, so the report is complete). */
void verify_run(const struct verify_input *in, struct verify_report *r);

/* Only the cheap conflict checks (for teardown decisions). */
void verify_conflicts(const char *workspace, struct verify_report *r);

/*
 * `git for-each-ref` of the workspace as "sha refname" lines, sorted, with
 * refs/agentic-git/ left out. 0 or -1.
 */
int verify_refs_snapshot(const char *workspace, struct strbuf *out);

/* Pure: for-each-ref-style lines without refs/agentic-git/, appended. */
void verify_refs_filter(const char *raw, struct strbuf *out);

/* Pure: the refs that differ between two snapshots, except `keep_ref`. */
void verify_refs_diff(const char *before, const char *after,
		      const char *keep_ref, struct strvec *changed);

/* Pure: true when a unified diff adds a conflict-marker line. */
bool verify_diff_adds_markers(const char *diff, size_t len, struct strbuf *where);

#endif
