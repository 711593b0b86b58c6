/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fleet's retention policy, pure part (git/snapshot-retain.h): which
 * snapshots it removes. The repository's count is of snapshots kept, so a
 * flood in one worktree never pushes another session's snapshots out.
 */
#include "base/common.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "base/strvec.h"
#include "base/xalloc.h"
#include "git/snapshot-retain.h"

#define WT_A "/home/op/.agentic-git/worktrees/a1/feat/a"
#define WT_B "/home/op/.agentic-git/worktrees/b1/feat/b"

/* adds a snapshot of `agent` in `wt` stamped `stamp` (lists are newest
 * first: callers add in that order) */
static void add(struct snapshot_list *l, const char *agent, const char *wt,
		const char *stamp, unsigned long seq)
{
	struct snapshot_info *s;
	char ref[160];

	if (l->nr == l->alloc) {
		l->alloc = l->alloc ? 2 * l->alloc : 16;
		l->v = xrealloc(l->v, l->alloc * sizeof(*l->v));
	}
	s = &l->v[l->nr++];
	memset(s, 0, sizeof(*s));
	snprintf(ref, sizeof(ref), "refs/agentic-git/snapshots/%s/%s-%lu-reset",
		 agent, stamp, seq);
	s->ref = xstrdup(ref);
	s->name.agent = xstrdup(agent);
	memcpy(s->name.stamp, stamp, SNAPSHOT_STAMP_LEN);
	s->name.seq = seq;
	s->meta.worktree = xstrdup(wt);
}

static void release(struct snapshot_list *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		free(l->v[i].ref);
		free(l->v[i].name.agent);
		free(l->v[i].meta.worktree);
	}
	free(l->v);
}

static bool has(const struct strvec *v, const char *s)
{
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->v[i], s))
			return true;
	return false;
}

/* 1,200 snapshots of one worktree, stamped in the future or now, before
 * two of another session's: the other's are kept, and of the flood only
 * per_worktree */
static void test_flood_keeps_others(void **state)
{
	struct snapshot_list l = SNAPSHOT_LIST_INIT;
	struct strvec out = STRVEC_INIT, live = STRVEC_INIT;
	struct snapshot_retention r;
	time_t now = snapshot_stamp_time("20261206T120000Z");

	(void)state;
	snapshot_retention_init(&r, 0, 0, 0);
	for (unsigned long i = 0; i < 1200; i++)
		add(&l, "a1", WT_A,
		    i < 600 ? "20991231T235959Z" : "20261206T115959Z",
		    1200 - i);
	add(&l, "b1", WT_B, "20261206T100000Z", 1);
	add(&l, "b1", WT_B, "20261205T100000Z", 0);
	snapshot_retain_select(&l, &r, &live, now, &out);
	assert_int_equal(out.nr, 1200 - SNAPSHOT_RETAIN_PER_WORKTREE);
	assert_false(has(&out, l.v[1200].ref));
	assert_false(has(&out, l.v[1201].ref));
	assert_false(has(&out, l.v[0].ref));
	assert_true(has(&out, l.v[SNAPSHOT_RETAIN_PER_WORKTREE].ref));
	strvec_clear(&out);
	release(&l);
}

/* the repository's cap still holds over many worktrees, newest first;
 * age and the newest of a live agent as before */
static void test_caps_and_age(void **state)
{
	struct snapshot_list l = SNAPSHOT_LIST_INIT;
	struct strvec out = STRVEC_INIT, live = STRVEC_INIT;
	struct snapshot_retention r;
	time_t now = snapshot_stamp_time("20261206T120000Z");
	char wt[64];

	(void)state;
	snapshot_retention_init(&r, 1, 2, 5);
	/* four worktrees, two snapshots each, newest first */
	for (int i = 0; i < 8; i++) {
		snprintf(wt, sizeof(wt), "/w/%d", i % 4);
		add(&l, "x1", wt, "20261206T110000Z", (unsigned long)(8 - i));
	}
	add(&l, "old1", "/w/old", "20261201T110000Z", 0); /* past max_age */
	add(&l, "live1", "/w/live", "20261201T100000Z", 0);
	strvec_push(&live, "live1");
	snapshot_retain_select(&l, &r, &live, now, &out);
	/* five kept of the eight, then the cap */
	for (int i = 0; i < 5; i++)
		assert_false(has(&out, l.v[i].ref));
	for (int i = 5; i < 8; i++)
		assert_true(has(&out, l.v[i].ref));
	assert_true(has(&out, l.v[8].ref));
	assert_false(has(&out, l.v[9].ref)); /* a live agent's newest */
	assert_int_equal(out.nr, 4);
	strvec_clear(&out);
	strvec_clear(&live);
	release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flood_keeps_others),
		cmocka_unit_test(test_caps_and_age),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
