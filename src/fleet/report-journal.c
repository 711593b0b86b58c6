/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fleet page's reading of the audit log and of the dispatch runs
 * (fleet/report.h invariant 4: bounded, and what is left out is said).
 */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/fileio.h"
#include "base/strset.h"
#include "base/xalloc.h"
#include "base/yaml-doc.h"
#include "fleet/audit.h"
#include "fleet/report.h"
#include "fleet/report-int.h"

static void event_free(struct report_event *e)
{
	free(e->time);
	free(e->event);
	free(e->disposition);
	free(e->agent);
	free(e->sub);
	free(e->detail);
	memset(e, 0, sizeof(*e));
}

void report_ring_init(struct report_ring *rg, size_t cap)
{
	rg->v = xcalloc(cap, sizeof(*rg->v));
	rg->cap = cap;
}

void report_ring_release(struct report_ring *rg)
{
	for (size_t i = 0; i < rg->nr; i++)
		event_free(&rg->v[(rg->start + i) % rg->cap]);
	free(rg->v);
	memset(rg, 0, sizeof(*rg));
}

const struct report_event *report_ring_at(const struct report_ring *rg,
					  size_t i)
{
	return &rg->v[(rg->start + i) % rg->cap];
}

static void ring_push(struct report_ring *rg, const struct audit_record *a,
		      const char *detail)
{
	struct report_event *e;

	rg->seen++;
	if (rg->nr < rg->cap) {
		e = &rg->v[(rg->start + rg->nr++) % rg->cap];
	} else {
		e = &rg->v[rg->start];
		event_free(e);
		rg->start = (rg->start + 1) % rg->cap;
	}
	e->time = xstrdup(a->timestamp);
	e->event = xstrdup(a->event);
	e->disposition = xstrdup(a->disposition);
	e->agent = xstrdup(a->agent);
	e->sub = xstrdup(a->subcommand);
	e->detail = xstrdup(detail);
}

static void take_line(struct report *r, struct strset *agents, char *line,
		      size_t len)
{
	struct audit_record a;
	struct strbuf detail = STRBUF_INIT;
	struct strset_entry *se;

	r->journal_lines++;
	if (audit_record_parse(line, len, &a) < 0) {
		r->journal_bad++;
		return;
	}
	audit_detail(&a, &detail);
	ring_push(&r->timeline, &a, detail.buf);
	if (!strcmp(a.disposition, "deny"))
		ring_push(&r->denies, &a, detail.buf);
	se = *a.agent ? strset_find(agents, a.agent) : NULL;
	if (se) {
		struct report_agent *ag = &r->agents[se->value];

		ag->events++;
		if (!strcmp(a.disposition, "deny"))
			ag->denies++;
		if (!strcmp(a.event, "snapshot_restored"))
			ag->restores++;
	}
	strbuf_release(&detail);
	audit_record_release(&a);
}

static void last_deny(struct report *r, const struct strset *agents,
		      const char *line, size_t len)
{
	struct audit_record a;
	struct strset_entry *se;
	struct strbuf d = STRBUF_INIT;

	if (audit_record_parse(line, len, &a) < 0)
		return;
	se = strcmp(a.disposition, "deny") ? NULL
					   : strset_find(agents, a.agent);
	if (se) {
		struct report_agent *ag = &r->agents[se->value];

		audit_detail(&a, &d);
		free(ag->last_deny);
		ag->last_deny = xstrfmt("%.19s %s: %s", a.timestamp,
					a.subcommand, d.buf);
	}
	strbuf_release(&d);
	audit_record_release(&a);
}

void report_read_journal(struct report *r)
{
	char *path = xstrfmt("%s/fleet_events.jsonl", r->home);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	struct strset agents = STRSET_INIT;
	struct strbuf data = STRBUF_INIT;
	struct stat st;
	char *p, *end;

	report_ring_init(&r->timeline, REPORT_TIMELINE_MAX);
	report_ring_init(&r->denies, REPORT_DENIES_MAX);
	if (fd < 0) {
		if (errno != ENOENT)
			strvec_pushf(&r->notes,
				     "cannot open the audit log '%s': %s", path,
				     strerror(errno));
		free(path);
		return;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (st.st_size > (off_t)REPORT_JOURNAL_MAX &&
	     lseek(fd, st.st_size - (off_t)REPORT_JOURNAL_MAX, SEEK_SET) < 0) ||
	    read_fd_bounded(fd, REPORT_JOURNAL_MAX, &data) < 0) {
		strvec_pushf(&r->notes, "cannot read the audit log '%s'", path);
		goto out;
	}
	for (size_t i = 0; i < r->agents_nr; i++) {
		bool added;

		strset_add(&agents, r->agents[i].si.agent, &added)->value = i;
	}
	p = data.buf;
	end = data.buf + data.len;
	if (st.st_size > (off_t)REPORT_JOURNAL_MAX) {
		r->journal_cut = true; /* the first line is a partial one */
		p = memchr(p, '\n', (size_t)(end - p));
		p = p ? p + 1 : end;
	}
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			nl = end;
		if (nl > p)
			take_line(r, &agents, p, (size_t)(nl - p));
		p = nl + 1;
	}
out:
	close(fd);
	free(path);
	strbuf_release(&data);
	strset_clear(&agents);
}

void report_last_denies(struct report *r, size_t tail)
{
	char *path = xstrfmt("%s/fleet_events.jsonl", r->home);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	struct strset agents = STRSET_INIT;
	struct strbuf data = STRBUF_INIT;
	struct stat st;
	char *p, *end;

	free(path);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (st.st_size > (off_t)tail &&
	     lseek(fd, st.st_size - (off_t)tail, SEEK_SET) < 0) ||
	    read_fd_bounded(fd, tail, &data) < 0)
		goto out;
	for (size_t i = 0; i < r->agents_nr; i++) {
		bool added;

		strset_add(&agents, r->agents[i].si.agent, &added)->value = i;
	}
	end = data.buf + data.len;
	for (p = data.buf; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			nl = end;
		/* only a deny is parsed: the others are most of the log */
		if (memmem(p, (size_t)(nl - p), "\"deny\"", 6))
			last_deny(r, &agents, p, (size_t)(nl - p));
		p = nl + 1;
	}
out:
	close(fd);
	strbuf_release(&data);
	strset_clear(&agents);
}

/* The scalar text of `key` in mapping `map` (a dotted path one deep:
 * "push.status"), or NULL. */
static const char *yget(const struct ynode *map, const char *key)
{
	const char *dot = strchr(key, '.');
	size_t n = dot ? (size_t)(dot - key) : strlen(key);
	const struct ynode *k, *v;

	if (!map || map->type != YN_MAP)
		return NULL;
	ynode_for_each_pair (k, v, map) {
		if (k->type != YN_SCALAR || strlen(k->u.text) != n ||
		    strncmp(k->u.text, key, n))
			continue;
		if (dot)
			return yget(v, dot + 1);
		return v->type == YN_SCALAR && !v->implicit ? v->u.text : NULL;
	}
	return NULL;
}

static char *ydup(const struct ynode *root, const char *key)
{
	const char *s = yget(root, key);

	return s ? xstrdup(s) : NULL;
}

static int read_meta(struct report_run *run, const char *dir, const char *name)
{
	char *path = xstrfmt("%s/%s", dir, name);
	struct strbuf buf = STRBUF_INIT;
	struct strvec errs = STRVEC_INIT;
	struct ydoc doc = YDOC_INIT(name, &errs);
	struct ydoc_limits lim = { .max_bytes = 1u << 20, .noun = "meta" };
	struct report_target *t;
	int ret = -1;

	if (read_file_bounded(path, 1u << 20, 0, &buf) < 0 ||
	    ydoc_parse(&doc, buf.buf, buf.len, &lim) < 0 || !doc.root)
		goto out;
	ALLOC_GROW(run->t, run->nr + 1, run->alloc);
	t = &run->t[run->nr++];
	memset(t, 0, sizeof(*t));
	t->key = ydup(doc.root, "key");
	t->repo = ydup(doc.root, "repo");
	t->head = ydup(doc.root, "head");
	t->base = ydup(doc.root, "base");
	t->status = ydup(doc.root, "status");
	t->verdict = ydup(doc.root, "verdict");
	t->push = ydup(doc.root, "push.status");
	t->exit_code = ydup(doc.root, "exit_code");
	t->duration = ydup(doc.root, "duration_seconds");
	ret = 0;
out:
	ydoc_release(&doc);
	strvec_clear(&errs);
	strbuf_release(&buf);
	free(path);
	return ret;
}

static int cmp_desc(const void *a, const void *b)
{
	return strcmp(*(const char *const *)b, *(const char *const *)a);
}

static int cmp_asc(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names in `dir` that pass `want`, sorted by `cmp`. */
static void list_dir(const char *dir, bool (*want)(const char *),
		     int (*cmp)(const void *, const void *), struct strvec *out)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (want(de->d_name))
			strvec_push(out, de->d_name);
	closedir(d);
	qsort(out->v, out->nr, sizeof(*out->v), cmp);
}

static bool is_run_id(const char *n)
{
	return n[0] != '.' && strcmp(n, "latest") != 0;
}

static bool is_meta(const char *n)
{
	size_t len = strlen(n), sfx = strlen(".meta.yaml");

	return n[0] != '.' && len > sfx && !strcmp(n + len - sfx, ".meta.yaml");
}

void report_read_runs(struct report *r)
{
	char *runs = xstrfmt("%s/runs", r->home);
	struct strvec ids = STRVEC_INIT;

	list_dir(runs, is_run_id, cmp_desc, &ids);
	r->runs_total = ids.nr;
	for (size_t i = 0; i < ids.nr && i < REPORT_RUNS_MAX; i++) {
		char *dir = xstrfmt("%s/%s", runs, ids.v[i]);
		struct strvec metas = STRVEC_INIT;
		struct report_run *run;

		if (!is_dir(dir)) {
			free(dir);
			continue;
		}
		ALLOC_GROW(r->runs, r->runs_nr + 1, r->runs_alloc);
		run = &r->runs[r->runs_nr++];
		memset(run, 0, sizeof(*run));
		run->id = xstrdup(ids.v[i]);
		list_dir(dir, is_meta, cmp_asc, &metas);
		for (size_t k = 0; k < metas.nr; k++)
			if (read_meta(run, dir, metas.v[k]) < 0 && !run->error)
				run->error =
					xstrfmt("cannot read '%s'", metas.v[k]);
		strvec_clear(&metas);
		free(dir);
	}
	strvec_clear(&ids);
	free(runs);
}

void report_run_release(struct report_run *run)
{
	for (size_t i = 0; i < run->nr; i++) {
		struct report_target *t = &run->t[i];

		free(t->key);
		free(t->repo);
		free(t->head);
		free(t->base);
		free(t->status);
		free(t->verdict);
		free(t->push);
		free(t->exit_code);
		free(t->duration);
	}
	free(run->t);
	free(run->id);
	free(run->error);
}
