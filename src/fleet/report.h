/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_REPORT_H
#define AG_FLEET_REPORT_H

/**
 * The fleet page (`agentic-git report`, PRODUCT.md §13): what the page
 * shows, read once into a struct report, then rendered to one
 * self-contained HTML document.
 *
 *   struct report r = REPORT_INIT;
 *   report_collect(home, real_git, &r);      reads; never writes
 *   report_render_html(&r, &page);            pure
 *   report_release(&r);
 *
 * Invariants (tests/e2e/t0920-report.bats cites them):
 *  1. Every string that an agent could have written (agent, branch and
 *     file names, commit subjects and authors, deny reasons, event
 *     details, dispatch keys and verdict lines, snapshot paths) reaches
 *     the page only through base/html.h.
 *  2. The page loads nothing: no script, no external stylesheet, image,
 *     font or frame; one inline <style>. It reads the same without CSS.
 *  3. Git runs only in the operator's repository (a session's
 *     source_repo), never in an agent's worktree, and only reads refs and
 *     objects there: --no-optional-locks, -c core.attributesFile=/dev/null,
 *     --no-textconv --no-ext-diff, in the GIT_AGENT_REPO trust mode
 *     (git/gitcmd.h: no hook, filter, driver or helper of any config).
 *  4. Bounded: the journal's last REPORT_JOURNAL_MAX bytes, the last
 *     REPORT_TIMELINE_MAX events and REPORT_DENIES_MAX denies, at most
 *     REPORT_COMMITS_MAX commits and REPORT_FILES_MAX files per agent,
 *     the REPORT_RUNS_MAX newest dispatch runs and REPORT_SNAPSHOTS_MAX
 *     newest snapshots; the page says what it left out.
 *
 * Ownership: the report owns every string in it (report_release()).
 * report_collect() returns 0, or -1 when the home cannot be read; parts it
 * cannot read (a repository gone, a broken run) are noted on the page.
 */
#include "base/common.h"
#include "base/strbuf.h"
#include "base/strvec.h"
#include "fleet/session-state.h"

#define REPORT_JOURNAL_MAX (64u << 20)
#define REPORT_TIMELINE_MAX 500
#define REPORT_DENIES_MAX 200
#define REPORT_COMMITS_MAX 50
#define REPORT_FILES_MAX 100
#define REPORT_RUNS_MAX 20
#define REPORT_SNAPSHOTS_MAX 200

struct report_commit {
	char *oid, *author, *subject;
	long long when;
};

struct report_file {
	char *path;
	char *added, *deleted; /* numstat's text ("-" for binary) */
};

struct report_snapshot {
	char *agent, *ref, *op, *worktree;
	long long when;
	bool tip_only; /* keeps a dropped branch tip: restore --head */
};

/* One session, with what its branch holds that no other branch does. */
struct report_agent {
	struct session_info si; /* owned */
	struct report_commit *commits;
	size_t commits_nr, commits_alloc;
	bool commits_more; /* more than REPORT_COMMITS_MAX */
	struct report_file *files;
	size_t files_nr, files_alloc, files_total;
	long added, deleted; /* numeric lines only */
	size_t snaps_total;
	unsigned long events, denies, restores;
	char *git_error; /* why commits could not be read, or NULL */
	char *last_deny; /* "<time> <command>: <reason>" (report_last_denies) */
};

struct report_event {
	char *time, *event, *disposition, *agent, *sub, *detail;
};

/* A ring of the newest `cap` events. */
struct report_ring {
	struct report_event *v;
	size_t cap, start, nr;
	unsigned long seen;
};

struct report_target {
	char *key, *repo, *head, *base, *status, *verdict, *push, *exit_code,
		*duration;
};

struct report_run {
	char *id;
	struct report_target *t;
	size_t nr, alloc;
	char *error; /* a meta file it could not read, or NULL */
};

struct report {
	char *home;
	char *generated; /* RFC 3339 */
	struct report_agent *agents;
	size_t agents_nr;
	struct report_ring timeline, denies;
	unsigned long journal_lines, journal_bad;
	bool journal_cut; /* older than REPORT_JOURNAL_MAX not read */
	struct report_run *runs;
	size_t runs_nr, runs_alloc, runs_total;
	struct report_snapshot *snaps; /* newest first, every repository */
	size_t snaps_nr, snaps_alloc, snaps_total;
	struct strvec notes; /* what could not be read, one line each */
};

#define REPORT_INIT                  \
	{                            \
		.notes = STRVEC_INIT \
	}

int report_collect(const char *home, const char *real_git, struct report *r);
/*
 * What `sessions --watch` redraws: the sessions with their branches only
 * (report_collect() without snapshots, journal and runs), then the last
 * deny of each from the journal's last `tail` bytes.
 */
int report_read_sessions(const char *home, const char *real_git,
			 struct report *r);
void report_last_denies(struct report *r, size_t tail);
void report_render_html(const struct report *r, struct strbuf *out);
void report_release(struct report *r);

/* i-th oldest of the ring's events (0 = oldest kept). */
const struct report_event *report_ring_at(const struct report_ring *rg,
					  size_t i);

#endif
