/* SPDX-License-Identifier: Apache-2.0 */
/* Reading the snapshot refs and their metadata (git/snapshot-list.h). */
#include "base/common.h"
#include <stdlib.h>
#include <string.h>
#include "base/die.h"
#include "base/xalloc.h"
#include "git/gitcmd.h"
#include "git/snapshot-list.h"

static int cmp_info(const void *a, const void *b)
{
	const struct snapshot_info *x = a, *y = b;
	int c = snapshot_name_cmp_newest(&x->name, &y->name);

	return c ? c : strcmp(x->name.agent, y->name.agent);
}

/* Reads one "<ref>\0<oid>\0<unix>\0<message>\0\n" record. */
static const char *parse_record(const char *p, const char *end,
				struct snapshot_list *l)
{
	const char *f[4];
	struct snapshot_info *si;

	for (int i = 0; i < 4; i++) {
		const char *z = memchr(p, '\0', (size_t)(end - p));
		if (!z)
			return NULL;
		f[i] = p;
		p = z + 1;
	}
	if (p < end && *p == '\n')
		p++;
	ALLOC_GROW(l->v, l->nr, l->alloc);
	si = &l->v[l->nr];
	memset(si, 0, sizeof(*si));
	strvec_init(&si->meta.stashes);
	if (snapshot_ref_parse(f[0], &si->name) < 0)
		return p; /* not ours: skipped */
	si->ref = xstrdup(f[0]);
	si->commit = xstrdup(f[1]);
	si->when = strtoll(f[2], NULL, 10);
	snapshot_meta_parse(f[3], &si->meta);
	l->nr++;
	return p;
}

int snapshot_list_load(const char *real_git, const char *dir,
		       const char *pattern, struct snapshot_list *l,
		       struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;
	const char *p, *end;
	int st;

	st = gitcmd_capture(real_git, dir, &out, err, "for-each-ref",
			    "--format=%(refname)%00%(objectname)%00"
			    "%(committerdate:unix)%00%(contents)%00",
			    pattern, NULL);
	if (st != 0) {
		if (!err->len)
			strbuf_addstr(err, "git for-each-ref failed");
		strbuf_release(&out);
		return -1;
	}
	p = out.buf;
	end = out.buf + out.len;
	while (p && p < end)
		p = parse_record(p, end, l);
	strbuf_release(&out);
	if (l->nr > 1)
		qsort(l->v, l->nr, sizeof(*l->v), cmp_info);
	return 0;
}

static void info_release(struct snapshot_info *si)
{
	free(si->ref);
	free(si->commit);
	snapshot_name_release(&si->name);
	snapshot_meta_release(&si->meta);
}

void snapshot_list_keep_worktree(struct snapshot_list *l, const char *top)
{
	size_t keep = 0;

	for (size_t i = 0; i < l->nr; i++) {
		if (l->v[i].meta.worktree &&
		    !strcmp(l->v[i].meta.worktree, top))
			l->v[keep++] = l->v[i];
		else
			info_release(&l->v[i]);
	}
	l->nr = keep;
}

void snapshot_list_release(struct snapshot_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		info_release(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}
