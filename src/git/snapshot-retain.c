/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Retention for the fleet: one policy over every agent's snapshots and the
 * quarantine (git/snapshot-retain.h).
 */
#include "base/common.h"
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include "base/path.h"
#include "base/spawn.h"
#include "base/xalloc.h"
#include "git/gitcmd.h"
#include "git/quarantine.h"
#include "git/snapshot-name.h"
#include "git/snapshot-retain.h"

void snapshot_retention_init(struct snapshot_retention *r,
			     unsigned long max_age_days,
			     unsigned long per_worktree,
			     unsigned long per_repository)
{
	r->max_age = (long)(max_age_days ? max_age_days
					 : SNAPSHOT_RETAIN_MAX_AGE_DAYS) *
		     24 * 3600;
	r->per_worktree =
		per_worktree ? per_worktree : SNAPSHOT_RETAIN_PER_WORKTREE;
	r->per_repository = per_repository ? per_repository
					   : SNAPSHOT_RETAIN_PER_REPOSITORY;
}

/* Whether l->v[i] is the newest snapshot of a live agent. */
static bool newest_of_live(const struct snapshot_list *l, size_t i,
			   const struct strvec *live)
{
	const char *agent = l->v[i].name.agent;
	bool is_live = false;

	for (size_t k = 0; k < live->nr && !is_live; k++)
		is_live = !strcmp(live->v[k], agent);
	if (!is_live)
		return false;
	for (size_t k = 0; k < i; k++)
		if (!strcmp(l->v[k].name.agent, agent))
			return false;
	return true;
}

static size_t worktree_rank(const struct snapshot_list *l, size_t i)
{
	const char *wt = l->v[i].meta.worktree ? l->v[i].meta.worktree : "";
	size_t rank = 0;

	for (size_t k = 0; k < i; k++) {
		const char *w =
			l->v[k].meta.worktree ? l->v[k].meta.worktree : "";
		if (!strcmp(w, wt))
			rank++;
	}
	return rank;
}

void snapshot_retain_select(const struct snapshot_list *l,
			    const struct snapshot_retention *r,
			    const struct strvec *live, time_t now,
			    struct strvec *out)
{
	size_t kept = 0; /* the repository's rank counts what is kept */

	for (size_t i = 0; i < l->nr; i++) {
		time_t t = snapshot_stamp_time(l->v[i].name.stamp);
		bool old = t >= 0 && now - t > r->max_age;

		if (newest_of_live(l, i, live)) {
			kept++;
			continue;
		}
		if (old || kept >= r->per_repository ||
		    worktree_rank(l, i) >= r->per_worktree)
			strvec_push(out, l->v[i].ref);
		else
			kept++;
	}
}

void snapshot_live_agents(const char *home, struct strvec *out)
{
	char *dir;
	DIR *d;
	struct dirent *de;

	if (!home || !*home)
		return;
	dir = path_join(home, "runtime");
	d = opendir(dir);
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.' && snapshot_who_valid(de->d_name))
			strvec_push(out, de->d_name);
	if (d)
		closedir(d);
	free(dir);
}

/* The quarantine directory names of `ref` (its id), into `ids` as
 * "<agent>/<id>". */
static void push_id(struct strvec *ids, const char *ref)
{
	const char *rest = ref + strlen(SNAPSHOT_REF_PREFIX);

	if (starts_with(ref, SNAPSHOT_REF_PREFIX) && strchr(rest, '/'))
		strvec_push(ids, rest);
}

/* Whether quarantine entry <agent>/<name> belongs to one of `ids`
 * (<id> or <id>.<N>). */
static bool named_by(const struct strvec *ids, const char *agent,
		     const char *name)
{
	size_t alen = strlen(agent);

	for (size_t i = 0; i < ids->nr; i++) {
		const char *id = ids->v[i];
		size_t n;

		if (strncmp(id, agent, alen) || id[alen] != '/')
			continue;
		id += alen + 1;
		n = strlen(id);
		if (!strncmp(name, id, n) && (!name[n] || name[n] == '.'))
			return true;
	}
	return false;
}

static void sweep_quarantines(const char *home, const struct strvec *gone,
			      const struct strvec *kept, time_t now,
			      long max_age)
{
	char *top = path_join(home, "quarantine");
	DIR *d = opendir(top), *a;
	struct dirent *de, *qe;

	while (d && (de = readdir(d))) {
		char *adir;

		if (de->d_name[0] == '.' || !snapshot_who_valid(de->d_name))
			continue;
		adir = path_join(top, de->d_name);
		a = opendir(adir);
		while (a && (qe = readdir(a))) {
			char stamp[SNAPSHOT_STAMP_LEN + 1];
			time_t t = -1;
			char *p;

			if (qe->d_name[0] == '.')
				continue;
			if (strlen(qe->d_name) >= SNAPSHOT_STAMP_LEN) {
				memcpy(stamp, qe->d_name, SNAPSHOT_STAMP_LEN);
				stamp[SNAPSHOT_STAMP_LEN] = '\0';
				t = snapshot_stamp_time(stamp);
			}
			if (named_by(kept, de->d_name, qe->d_name))
				continue;
			if (!named_by(gone, de->d_name, qe->d_name) &&
			    !(t >= 0 && now - t > max_age))
				continue;
			p = path_join(adir, qe->d_name);
			remove_tree(p);
			free(p);
		}
		if (a)
			closedir(a);
		free(adir);
	}
	if (d)
		closedir(d);
	free(top);
}

int snapshot_retain_apply(const char *real_git, const char *dir,
			  const char *home, const struct snapshot_retention *r,
			  time_t now, struct strvec *pruned, struct strbuf *err)
{
	struct snapshot_list l = SNAPSHOT_LIST_INIT;
	struct strvec live = STRVEC_INIT, gone = STRVEC_INIT,
		      gone_ids = STRVEC_INIT, kept_ids = STRVEC_INIT;
	struct strbuf in = STRBUF_INIT;
	int ret = 0;

	if (snapshot_list_load(real_git, dir, SNAPSHOT_REF_PREFIX, &l, err) < 0)
		return -1;
	snapshot_live_agents(home, &live);
	snapshot_retain_select(&l, r, &live, now, &gone);
	for (size_t i = 0; i < l.nr; i++) {
		bool going = false;

		for (size_t k = 0; k < gone.nr && !going; k++)
			going = !strcmp(gone.v[k], l.v[i].ref);
		if (going)
			strbuf_addf(&in, "delete %s %s\n", l.v[i].ref,
				    l.v[i].commit);
		push_id(going ? &gone_ids : &kept_ids, l.v[i].ref);
	}
	if (gone.nr) {
		struct child c = CHILD_INIT;

		gitcmd_init(&c, real_git, dir);
		/* the fleet's own retention: the session's hook, which
		 * refuses every shrinking of the safety net, is not asked */
		strvec_pushl(&c.args, "-c", "core.hooksPath=/dev/null",
			     "update-ref", "--stdin", NULL);
		c.in = in.buf;
		c.in_len = in.len;
		if (gitcmd_run(&c, NULL, err) != 0) {
			if (!err->len)
				strbuf_addstr(err, "git update-ref failed");
			ret = -1;
		}
		child_release(&c);
	}
	if (!ret) {
		if (pruned)
			strvec_pushv(pruned, gone.v);
		if (home && *home)
			sweep_quarantines(home, &gone_ids, &kept_ids, now,
					  r->max_age);
	}
	snapshot_list_release(&l);
	strvec_clear(&live);
	strvec_clear(&gone);
	strvec_clear(&gone_ids);
	strvec_clear(&kept_ids);
	strbuf_release(&in);
	return ret;
}
