/* SPDX-License-Identifier: Apache-2.0 */
/* A session's branch against its base, for review (fleet/review.h). */
#include "base/common.h"
#include <errno.h>
#include <string.h>
#include "base/strset.h"
#include "base/xalloc.h"
#include "fleet/journal.h"
#include "fleet/review.h"
#include "fleet/session.h"
#include "git/gitcmd.h"

int review_git(const char *git, const char *repo, struct strbuf *out,
	       struct strbuf *err, const char *const *args)
{
	struct child c = CHILD_INIT;
	char *common = session_common_dir_of(repo);
	int rc;

	if (!common) {
		if (err)
			strbuf_addf(err, "'%s' is not a git repository", repo);
		return -1;
	}
	/* invariant 1: refs and objects only, nothing of the repo's runs */
	gitcmd_prepare(&c, GIT_AGENT_REPO, git, common);
	strvec_pushl(&c.args, "--bare", "--no-optional-locks", "-c",
		     "core.attributesFile=/dev/null", NULL);
	strvec_pushv(&c.args, args);
	rc = gitcmd_run(&c, out, err);
	child_release(&c);
	free(common);
	return rc;
}

/* Splits NUL-separated output into `v` (the last field may lack its NUL). */
static void split_nul(const struct strbuf *out, struct strvec *v)
{
	const char *p = out->buf, *end = out->buf + out->len;

	while (p < end) {
		size_t n = strnlen(p, (size_t)(end - p));
		char *s = xstrndup(p, n);
		strvec_push(v, s);
		free(s);
		p += n + 1;
	}
}

static int git_ok(const char *git, const struct session_info *si,
		  struct strbuf *out, struct strbuf *err, const char *what,
		  const char *const *args)
{
	struct strbuf e = STRBUF_INIT;
	int rc = review_git(git, si->source_repo, out, &e, args);

	if (rc)
		strbuf_addf(err, "%s failed in '%s': %s", what, si->source_repo,
			    e.len ? e.buf : "git did not run");
	strbuf_release(&e);
	return rc ? -1 : 0;
}

static char *rev_parse(const char *git, const struct session_info *si,
		       const char *ref)
{
	struct strbuf out = STRBUF_INIT, spec = STRBUF_INIT;
	const char *args[] = { "rev-parse",	   "--verify", "--quiet",
			       "--end-of-options", NULL,       NULL };

	strbuf_addf(&spec, "%s^{commit}", ref);
	args[4] = spec.buf;
	if (review_git(git, si->source_repo, &out, NULL, args))
		strbuf_reset(&out);
	gitcmd_chomp(&out);
	strbuf_release(&spec);
	return out.len ? strbuf_detach(&out, NULL)
		       : (strbuf_release(&out), NULL);
}

static int read_counts(const char *git, const struct session_info *si,
		       struct review *r, struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT, range = STRBUF_INIT;
	const char *args[] = { "rev-list", "--left-right", "--count", NULL,
			       NULL };
	int rc;

	strbuf_addf(&range, "%s...%s", r->base_oid, r->head_oid);
	args[3] = range.buf;
	rc = git_ok(git, si, &out, err, "rev-list", args);
	if (!rc && sscanf(out.buf, "%d %d", &r->behind, &r->ahead) != 2) {
		strbuf_addstr(err, "rev-list --count: unexpected output");
		rc = -1;
	}
	strbuf_release(&out);
	strbuf_release(&range);
	return rc;
}

#define LOG_FIELDS 5

static int read_commits(const char *git, const struct session_info *si,
			struct review *r, struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT, range = STRBUF_INIT;
	struct strvec f = STRVEC_INIT;
	const char *args[] = {
		"log",
		"-z",
		"--no-show-signature",
		"--no-color",
		"--format=tformat:%H%x00%an <%ae>%x00%aI%x00%s%x00%(trailers:only,unfold)",
		NULL,
		NULL
	};
	int rc;

	strbuf_addf(&range, "%s..%s", r->base_oid, r->head_oid);
	args[5] = range.buf;
	rc = git_ok(git, si, &out, err, "log", args);
	if (!rc)
		split_nul(&out, &f);
	if (!rc && f.nr % LOG_FIELDS) {
		strbuf_addstr(err, "log: unexpected output");
		rc = -1;
	}
	for (size_t i = 0; !rc && i < f.nr; i += LOG_FIELDS) {
		struct review_commit *c;

		ALLOC_GROW(r->commits, r->commits_nr, r->commits_alloc);
		c = &r->commits[r->commits_nr++];
		c->oid = xstrdup(f.v[i]);
		c->author = xstrdup(f.v[i + 1]);
		c->date = xstrdup(f.v[i + 2]);
		c->subject = xstrdup(f.v[i + 3]);
		c->trailers = xstrdup(f.v[i + 4]);
		/* drop the trailers' last newline */
		if (*c->trailers && ends_with(c->trailers, "\n"))
			c->trailers[strlen(c->trailers) - 1] = '\0';
	}
	strvec_clear(&f);
	strbuf_release(&out);
	strbuf_release(&range);
	return rc;
}

/* `git diff --numstat -z` records: "A\tD\tpath\0" (renames off). */
static int read_numstat(const char *git, const struct session_info *si,
			const char *from, const char *to, struct review *r,
			struct strvec *names, struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT, range = STRBUF_INIT;
	struct strvec f = STRVEC_INIT;
	const char *args[] = { "diff",
			       "--numstat",
			       "-z",
			       "--no-renames",
			       "--no-textconv",
			       "--no-ext-diff",
			       "--end-of-options",
			       NULL,
			       NULL };
	int rc;

	strbuf_addf(&range, "%s...%s", from, to);
	args[7] = range.buf;
	rc = git_ok(git, si, &out, err, "diff --numstat", args);
	if (!rc)
		split_nul(&out, &f);
	for (size_t i = 0; !rc && i < f.nr; i++) {
		char *t1 = strchr(f.v[i], '\t'),
		     *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
		struct review_file *rf;

		if (!t2) {
			strbuf_addstr(err, "diff --numstat: unexpected output");
			rc = -1;
			break;
		}
		if (names) {
			strvec_push(names, t2 + 1);
			continue;
		}
		ALLOC_GROW(r->files, r->files_nr, r->files_alloc);
		rf = &r->files[r->files_nr++];
		rf->path = xstrdup(t2 + 1);
		if (f.v[i][0] == '-') {
			rf->added = rf->deleted = -1;
		} else {
			rf->added = strtol(f.v[i], NULL, 10);
			rf->deleted = strtol(t1 + 1, NULL, 10);
			r->insertions += rf->added;
			r->deletions += rf->deleted;
		}
	}
	strvec_clear(&f);
	strbuf_release(&out);
	strbuf_release(&range);
	return rc;
}

static int read_patch(const char *git, const struct session_info *si,
		      struct review *r, struct strbuf *err)
{
	struct strbuf range = STRBUF_INIT;
	const char *args[] = { "diff",
			       "--no-color",
			       "--no-textconv",
			       "--no-ext-diff",
			       "--end-of-options",
			       NULL,
			       NULL };
	int rc;

	strbuf_addf(&range, "%s...%s", r->base_oid, r->head_oid);
	args[5] = range.buf;
	rc = git_ok(git, si, &r->patch, err, "diff", args);
	strbuf_release(&range);
	return rc;
}

/* ---- the audit log: the session's denies and snapshots ---- */

struct scan {
	struct review *r;
	struct timespec since;
	bool has_since;
};

static void add_event(struct review_event **v, size_t *nr, size_t *alloc,
		      const struct audit_record *a, const char *detail,
		      const char *kept)
{
	struct review_event *e;

	ALLOC_GROW(*v, *nr, *alloc);
	e = &(*v)[(*nr)++];
	e->timestamp = xstrdup(a->timestamp);
	e->event = xstrdup(a->event);
	e->subcommand = xstrdup(a->subcommand);
	e->detail = xstrdup(detail ? detail : "");
	e->kept = kept ? xstrdup(kept) : NULL;
}

static bool before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static int scan_one(const struct audit_record *a, void *data)
{
	struct scan *s = data;
	struct review *r = s->r;

	if (s->has_since && (!a->ts_ok || before(&a->ts, &s->since)))
		return 0;
	if (!strcmp(a->disposition, "deny"))
		add_event(&r->denies, &r->denies_nr, &r->denies_alloc, a,
			  journal_str(a, "reason"), NULL);
	else if (!strcmp(a->event, "snapshot_taken"))
		add_event(&r->snapshots, &r->snapshots_nr, &r->snapshots_alloc,
			  a, journal_str(a, "ref"), journal_str(a, "kept"));
	return 0;
}

static int read_journal(const char *home, const struct session_info *si,
			struct review *r, struct strbuf *err)
{
	struct scan s = { .r = r };

	s.has_since =
		si->issued_at && !audit_parse_time(si->issued_at, 0, &s.since);
	if (journal_each(home, si->agent, scan_one, &s) < 0) {
		strbuf_addf(err, "cannot read '%s/fleet_events.jsonl': %s",
			    home, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- files another live session also changed ---- */

/* The base as a revision: refs/heads/<base>, else the start commit. */
static char *base_of(const struct session_info *si)
{
	if (si->base)
		return xstrfmt("refs/heads/%s", si->base);
	return si->base_oid ? xstrdup(si->base_oid) : NULL;
}

static void add_overlap(struct review *r, const char *path, const char *agent)
{
	struct review_overlap *o = NULL;

	for (size_t i = 0; i < r->overlap_nr; i++)
		if (!strcmp(r->overlap[i].path, path))
			o = &r->overlap[i];
	if (!o) {
		ALLOC_GROW(r->overlap, r->overlap_nr, r->overlap_alloc);
		o = &r->overlap[r->overlap_nr++];
		o->path = xstrdup(path);
		strvec_init(&o->agents);
	}
	strvec_push(&o->agents, agent);
}

static void read_overlap(const char *git, const struct session_info *si,
			 const struct session_list *l, struct review *r)
{
	struct strset mine = STRSET_INIT;
	bool added;

	if (!r->files_nr)
		return;
	for (size_t i = 0; i < r->files_nr; i++)
		strset_add(&mine, r->files[i].path, &added);
	for (size_t i = 0; i < l->nr; i++) {
		const struct session_info *o = &l->v[i];
		struct strvec names = STRVEC_INIT;
		struct strbuf err = STRBUF_INIT;
		char *base, *tip;

		if (!strcmp(o->agent, si->agent) || !o->branch ||
		    !o->source_repo ||
		    strcmp(o->source_repo, si->source_repo) ||
		    (o->state != SESSION_CLEAN && o->state != SESSION_DIRTY))
			continue;
		base = base_of(o);
		tip = xstrfmt("refs/heads/%s", o->branch);
		/* another session's trouble is not this review's: skipped */
		if (base && !read_numstat(git, si, base, tip, r, &names, &err))
			for (size_t j = 0; j < names.nr; j++)
				if (strset_find(&mine, names.v[j]))
					add_overlap(r, names.v[j], o->agent);
		free(base);
		free(tip);
		strvec_clear(&names);
		strbuf_release(&err);
	}
	strset_clear(&mine);
}

int review_read(const char *home, const char *git,
		const struct session_info *si,
		const struct session_list *others, bool want_patch,
		struct review *r, struct strbuf *err)
{
	char *base = base_of(si), *tip;

	if (!base) {
		strbuf_addf(
			err,
			"the binding of '%s' records no base (a session from an older agentic-git): nothing to compare with",
			si->agent);
		return -1;
	}
	r->base = xstrdup(si->base ? si->base : si->base_oid);
	r->base_oid = rev_parse(git, si, base);
	tip = xstrfmt("refs/heads/%s", si->branch);
	r->head_oid = rev_parse(git, si, tip);
	free(base);
	free(tip);
	if (!r->base_oid || !r->head_oid) {
		strbuf_addf(err, "%s '%s' is not a commit in '%s'",
			    r->base_oid ? "branch" : "base",
			    r->base_oid ? si->branch : r->base,
			    si->source_repo);
		return -1;
	}
	if (read_counts(git, si, r, err) || read_commits(git, si, r, err) ||
	    read_numstat(git, si, r->base_oid, r->head_oid, r, NULL, err) ||
	    (want_patch && read_patch(git, si, r, err)) ||
	    read_journal(home, si, r, err))
		return -1;
	if (others)
		read_overlap(git, si, others, r);
	return 0;
}

static void events_release(struct review_event *v, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(v[i].timestamp);
		free(v[i].event);
		free(v[i].subcommand);
		free(v[i].detail);
		free(v[i].kept);
	}
	free(v);
}

void review_release(struct review *r)
{
	for (size_t i = 0; i < r->commits_nr; i++) {
		free(r->commits[i].oid);
		free(r->commits[i].author);
		free(r->commits[i].date);
		free(r->commits[i].subject);
		free(r->commits[i].trailers);
	}
	free(r->commits);
	for (size_t i = 0; i < r->files_nr; i++)
		free(r->files[i].path);
	free(r->files);
	events_release(r->denies, r->denies_nr);
	events_release(r->snapshots, r->snapshots_nr);
	for (size_t i = 0; i < r->overlap_nr; i++) {
		free(r->overlap[i].path);
		strvec_clear(&r->overlap[i].agents);
	}
	free(r->overlap);
	free(r->base);
	free(r->base_oid);
	free(r->head_oid);
	strbuf_release(&r->patch);
	memset(r, 0, sizeof(*r));
}
