/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fleet page's reading of sessions, their branches and snapshots
 * (fleet/report.h invariants 3 and 4): git reads refs and objects in each
 * session's source repository only, never in an agent's worktree.
 */
#include "base/common.h"
#include <stdlib.h>
#include <string.h>
#include "base/strbuf.h"
#include "base/timefmt.h"
#include "base/xalloc.h"
#include "git/gitcmd.h"
#include "git/snapshot-list.h"
#include "fleet/report.h"
#include "fleet/report-int.h"

/* git, reading an agent-written branch in the operator's repository:
 * nothing of its attributes, textconv or external diff runs. */
static int git_read(const char *repo, struct strbuf *out, struct strbuf *err,
		    const char *const *args)
{
	struct strvec v = STRVEC_INIT;
	int rc;

	strvec_pushl(&v, "-c", "core.attributesFile=/dev/null",
		     "--no-optional-locks", NULL);
	strvec_pushv(&v, args);
	rc = gitcmd(GIT_AGENT_REPO, repo, out, err, v.v);
	strvec_clear(&v);
	return rc;
}

/* Splits `s` at `sep` into at most n fields (the last takes the rest). */
static size_t split(char *s, char sep, char **f, size_t n)
{
	size_t k = 0;

	while (k + 1 < n) {
		char *p = strchr(s, sep);

		if (!p)
			break;
		f[k++] = s;
		*p = '\0';
		s = p + 1;
	}
	f[k++] = s;
	return k;
}

/*
 * The commits on the agent's branch that no other branch (local or
 * remote-tracking) holds, newest first; *base gets the first parent of
 * the oldest of them (what the diffstat is against), or stays NULL.
 */
static int read_commits(struct report_agent *ag, const char *ref, char **base)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf excl = STRBUF_INIT;
	char *p, *line;
	int rc;

	/* --exclude before --branches is a name under refs/heads/ */
	strbuf_addf(&excl, "--exclude=%s", ag->si.branch);
	rc = git_read(ag->si.source_repo, &out, &err,
		      (const char *const[]){
			      "log", "--no-show-signature", "--no-textconv",
			      "--no-ext-diff", "--no-color",
			      "--format=%H%x1f%P%x1f%at%x1f%an%x1f%s", ref,
			      "--not", excl.buf, "--branches", "--remotes",
			      NULL });
	if (rc) {
		gitcmd_chomp(&err);
		ag->git_error = err.len ? strbuf_detach(&err, NULL)
					: xstrfmt("git log failed (%d)", rc);
		goto out;
	}
	for (p = out.buf; *p; p = line) {
		char *f[5], *nl = strchrnul(p, '\n');
		struct report_commit *c;

		line = *nl ? nl + 1 : nl;
		*nl = '\0';
		if (split(p, '\x1f', f, 5) != 5)
			continue;
		free(*base);
		*base = NULL;
		if (*f[1]) /* the first parent */
			*base = xstrndup(f[1], strcspn(f[1], " "));
		if (ag->commits_nr >= REPORT_COMMITS_MAX) {
			ag->commits_more = true;
			continue;
		}
		ALLOC_GROW(ag->commits, ag->commits_nr + 1, ag->commits_alloc);
		c = &ag->commits[ag->commits_nr++];
		c->oid = xstrdup(f[0]);
		c->when = strtoll(f[2], NULL, 10);
		c->author = xstrdup(f[3]);
		c->subject = xstrdup(f[4]);
	}
out:
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&excl);
	return rc;
}

static void read_diffstat(struct report_agent *ag, const char *base,
			  const char *ref)
{
	struct strbuf out = STRBUF_INIT;
	char *p, *line;

	if (git_read(ag->si.source_repo, &out, NULL,
		     (const char *const[]){ "diff", "--no-textconv",
					    "--no-ext-diff", "--no-renames",
					    "--numstat", "-z", base, ref,
					    NULL }))
		goto out;
	/* -z: "<added>\t<deleted>\t<path>\0" (no quoting to undo) */
	for (p = out.buf; p < out.buf + out.len; p = line) {
		char *f[3];
		struct report_file *rf;

		line = p + strlen(p) + 1;
		if (split(p, '\t', f, 3) != 3)
			continue;
		ag->files_total++;
		if (*f[0] != '-') {
			ag->added += strtol(f[0], NULL, 10);
			ag->deleted += strtol(f[1], NULL, 10);
		}
		if (ag->files_nr >= REPORT_FILES_MAX)
			continue;
		ALLOC_GROW(ag->files, ag->files_nr + 1, ag->files_alloc);
		rf = &ag->files[ag->files_nr++];
		rf->added = xstrdup(f[0]);
		rf->deleted = xstrdup(f[1]);
		rf->path = xstrdup(f[2]);
	}
out:
	strbuf_release(&out);
}

static void read_branch(struct report_agent *ag)
{
	char *ref, *base = NULL;

	if (!ag->si.branch || !ag->si.source_repo)
		return;
	ref = xstrfmt("refs/heads/%s", ag->si.branch);
	if (!read_commits(ag, ref, &base) && base)
		read_diffstat(ag, base, ref);
	free(base);
	free(ref);
}

static bool seen_repo(const struct report *r, size_t upto, const char *repo)
{
	for (size_t i = 0; i < upto; i++)
		if (r->agents[i].si.source_repo &&
		    !strcmp(r->agents[i].si.source_repo, repo))
			return true;
	return false;
}

static struct report_agent *agent_of(struct report *r, const char *name)
{
	for (size_t i = 0; i < r->agents_nr; i++)
		if (name && !strcmp(r->agents[i].si.agent, name))
			return &r->agents[i];
	return NULL;
}

static int cmp_snap(const void *a, const void *b)
{
	const struct report_snapshot *x = a, *y = b;

	return x->when < y->when ? 1 : x->when > y->when ? -1 : 0;
}

/* Every snapshot in the repositories the sessions come from. */
static void read_snapshots(struct report *r, const char *real_git)
{
	for (size_t i = 0; i < r->agents_nr; i++) {
		const char *repo = r->agents[i].si.source_repo;
		struct snapshot_list l = SNAPSHOT_LIST_INIT;
		struct strbuf err = STRBUF_INIT;

		if (!repo || seen_repo(r, i, repo))
			continue;
		if (snapshot_list_load(real_git, repo,
				       "refs/agentic-git/snapshots/", &l,
				       &err) < 0) {
			strvec_pushf(&r->notes, "snapshots of '%s': %s", repo,
				     err.buf);
		}
		for (size_t k = 0; k < l.nr; k++) {
			const struct snapshot_info *s = &l.v[k];
			struct report_agent *ag = agent_of(r, s->name.agent);
			struct report_snapshot *rs;

			if (ag)
				ag->snaps_total++;
			ALLOC_GROW(r->snaps, r->snaps_nr + 1, r->snaps_alloc);
			rs = &r->snaps[r->snaps_nr++];
			rs->agent = xstrdup(s->name.agent);
			rs->ref = xstrdup(s->ref);
			rs->op = xstrdup(s->meta.op ? s->meta.op : "");
			rs->worktree = s->meta.worktree
					       ? xstrdup(s->meta.worktree)
					       : xstrdup(repo);
			rs->when = s->when;
			rs->tip_only = s->meta.kept != NULL;
		}
		snapshot_list_release(&l);
		strbuf_release(&err);
	}
	if (r->snaps_nr > 1) /* qsort of a NULL array is undefined */
		qsort(r->snaps, r->snaps_nr, sizeof(*r->snaps), cmp_snap);
	r->snaps_total = r->snaps_nr;
	while (r->snaps_nr > REPORT_SNAPSHOTS_MAX) {
		struct report_snapshot *rs = &r->snaps[--r->snaps_nr];

		free(rs->agent);
		free(rs->ref);
		free(rs->op);
		free(rs->worktree);
	}
}

int report_read_sessions(const char *home, const char *real_git,
			 struct report *r)
{
	struct session_list l = { 0 };
	struct strbuf now = STRBUF_INIT;

	r->home = xstrdup(home);
	time_now_rfc3339(&now);
	r->generated = strbuf_detach(&now, NULL);
	if (session_list_read(home, real_git, &l) < 0)
		return -1;
	session_list_last_events(home, l.v, l.nr);
	r->agents = xcalloc(l.nr ? l.nr : 1, sizeof(*r->agents));
	r->agents_nr = l.nr;
	for (size_t i = 0; i < l.nr; i++) {
		r->agents[i].si = l.v[i]; /* the strings move */
		read_branch(&r->agents[i]);
	}
	free(l.v);
	return 0;
}

int report_collect(const char *home, const char *real_git, struct report *r)
{
	if (report_read_sessions(home, real_git, r) < 0)
		return -1;
	read_snapshots(r, real_git);
	report_read_journal(r);
	report_read_runs(r);
	return 0;
}

void report_release(struct report *r)
{
	for (size_t i = 0; i < r->agents_nr; i++) {
		struct report_agent *ag = &r->agents[i];

		session_info_release(&ag->si);
		for (size_t k = 0; k < ag->commits_nr; k++) {
			free(ag->commits[k].oid);
			free(ag->commits[k].author);
			free(ag->commits[k].subject);
		}
		free(ag->commits);
		for (size_t k = 0; k < ag->files_nr; k++) {
			free(ag->files[k].path);
			free(ag->files[k].added);
			free(ag->files[k].deleted);
		}
		free(ag->files);
		free(ag->git_error);
		free(ag->last_deny);
	}
	free(r->agents);
	for (size_t i = 0; i < r->snaps_nr; i++) {
		free(r->snaps[i].agent);
		free(r->snaps[i].ref);
		free(r->snaps[i].op);
		free(r->snaps[i].worktree);
	}
	free(r->snaps);
	for (size_t i = 0; i < r->runs_nr; i++)
		report_run_release(&r->runs[i]);
	free(r->runs);
	report_ring_release(&r->timeline);
	report_ring_release(&r->denies);
	strvec_clear(&r->notes);
	free(r->home);
	free(r->generated);
	memset(r, 0, sizeof(*r));
}
