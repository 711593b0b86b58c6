/* SPDX-License-Identifier: Apache-2.0 */
/* agentic-git snapshots show|diff|restore: picking a snapshot and using it. */
#include "base/common.h"
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "base/die.h"
#include "base/envvar.h"
#include "base/xalloc.h"
#include "base/timefmt.h"
#include "cmd/cmd.h"
#include "cmd/snapshots-cli.h"
#include "git/gitcmd.h"
#include "git/quarantine.h"
#include "git/snapshot-store.h"

/* An explicit ref: ours, existing, and the caller's (agents only). */
static int resolve_explicit(struct snap_cli *c, struct snapshot_list *l)
{
	struct snapshot_name n;
	struct strbuf err = STRBUF_INIT;

	if (snapshot_ref_parse(c->ref, &n) < 0) {
		error("snapshots %s: `%s` is not an agentic-git snapshot ref (must start with %s<agent>/<stamp>-<seq>-<op>); see `agentic-git snapshots list`",
		      c->sub, c->ref, SNAPSHOT_REF_PREFIX);
		return AG_EXIT_USAGE;
	}
	if (c->caller_is_agent && strcmp(n.agent, c->caller_who)) {
		error("snapshots %s: `%s` belongs to agent '%s', not to '%s'; an agent only uses its own snapshots",
		      c->sub, c->ref, n.agent, c->caller_who);
		snapshot_name_release(&n);
		return 1;
	}
	snapshot_name_release(&n);
	if (snapshot_list_load(c->git.buf, c->repo, c->ref, l, &err) < 0) {
		error("snapshots %s: %s", c->sub, err.buf);
		strbuf_release(&err);
		return 1;
	}
	strbuf_release(&err);
	if (!l->nr) {
		error("snapshots %s: no such snapshot `%s`", c->sub, c->ref);
		return 1;
	}
	return 0;
}

static void refuse_to_guess(const struct snapshot_list *l, size_t n,
			    const size_t *idx)
{
	fprintf(stderr,
		"agentic-git: snapshots restore: %zu snapshots exist — refusing to guess.\n",
		n);
	for (size_t i = 0; i < n && i < 3; i++) {
		struct strbuf when = STRBUF_INIT;
		time_rfc3339_seconds(l->v[idx[i]].when, &when);
		fprintf(stderr, "  %s  %s  (%s)\n", l->v[idx[i]].ref, when.buf,
			l->v[idx[i]].name.slug);
		strbuf_release(&when);
	}
	fprintf(stderr,
		"  restore the newest with --yes, or name one: agentic-git snapshots restore <ref>\n");
}

/* `<N>m`, `<N>h` or `<N>d` into seconds. */
static int parse_window(const char *v, long long *secs)
{
	char *end;
	long long n;

	if (!v || !*v || *v < '0' || *v > '9')
		return -1;
	n = strtoll(v, &end, 10);
	if (n < 0 || n > 100000 || end[0] == '\0' || end[1] != '\0')
		return -1;
	switch (*end) {
	case 'm': *secs = n * 60; return 0;
	case 'h': *secs = n * 3600; return 0;
	case 'd': *secs = n * 86400; return 0;
	}
	return -1;
}

/* The newest snapshot of the caller's agent taken in this work tree. */
static int resolve_default(struct snap_cli *c, struct snapshot_list *l,
			   size_t *pick)
{
	struct strbuf err = STRBUF_INIT, top = STRBUF_INIT, pat = STRBUF_INIT;
	size_t *idx = NULL, n = 0;
	int ret = 1;

	strbuf_addf(&pat, "%s%s/", SNAPSHOT_REF_PREFIX, c->caller_who);
	if (gitcmd_capture(c->git.buf, c->repo, &top, &err, "rev-parse",
			   "--show-toplevel", NULL) != 0 ||
	    snapshot_list_load(c->git.buf, c->repo, pat.buf, l, &err) < 0) {
		error("snapshots restore: %s",
		      err.len ? err.buf : "not in a git work tree");
		goto out;
	}
	gitcmd_chomp(&top);
	idx = xcalloc(l->nr + 1, sizeof(*idx));
	for (size_t i = 0; i < l->nr; i++)
		if (l->v[i].meta.worktree &&
		    !strcmp(l->v[i].meta.worktree, top.buf))
			idx[n++] = i;
	if (!n) {
		error("snapshots restore: no snapshots to restore from (agent '%s', work tree '%s')",
		      c->caller_who, top.buf);
	} else if (n > 1 && !c->yes) {
		refuse_to_guess(l, n, idx);
		ret = AG_EXIT_USAGE;
	} else {
		*pick = idx[0];
		ret = 0;
	}
out:
	free(idx);
	strbuf_release(&err);
	strbuf_release(&top);
	strbuf_release(&pat);
	return ret;
}

static void print_restored(const struct snap_cli *c,
			   const struct snapshot_info *s,
			   const struct restore_result *r)
{
	struct strbuf when = STRBUF_INIT;

	time_rfc3339_seconds(s->when, &when);
	printf("Restored %zu path(s) from %s\n", r->paths, s->ref);
	printf("  snapshot taken %s (before a `%s` operation)\n", when.buf,
	       s->name.slug);
	printf("  files created after the snapshot were left untouched; changes %s\n",
	       c->staged ? "left staged in the index"
			 : "left unstaged (working tree only)");
	if (r->quarantined || r->kept)
		printf("  moved back %zu quarantined path(s); %zu left in %s because they exist again\n",
		       r->quarantined, r->kept, s->meta.quarantine);
	if (r->stashes)
		printf("  stored back %zu stash entr%s (see `git stash list`)\n",
		       r->stashes, r->stashes == 1 ? "y" : "ies");
	if (r->unstage_failed)
		warning("snapshots restore: could not unstage the restored paths; they are staged");
	if (r->pre_ref.len)
		printf("  ↩ your pre-restore state was saved — undo with:\n"
		       "      agentic-git snapshots restore %s\n",
		       r->pre_ref.buf);
	strbuf_release(&when);
}

static int snapshots_restore_one_ref(struct snap_cli *c);

static int restore_one(struct snap_cli *c, const struct snapshot_info *s)
{
	struct restore_result r = RESTORE_RESULT_INIT;
	struct strbuf err = STRBUF_INIT;
	struct restore_opts o = {
		.real_git = c->git.buf, .dir = c->repo,
		.agent = c->caller_is_agent ? c->caller_who : "",
		.home = ag_getenv_str(AGE_HOME), .snap = s,
		.staged = c->staged,
	};
	int ret = 0;

	if (snapshot_restore(&o, &r, &err) < 0) {
		error("snapshots restore: %s", err.buf);
		ret = 1;
	} else if (!r.paths && !r.quarantined && !r.stashes) {
		printf("Working tree already matches %s — nothing to restore.\n",
		       s->ref);
	} else {
		print_restored(c, s, &r);
	}
	restore_result_release(&r);
	strbuf_release(&err);
	return ret;
}

/*
 * restore --since <window>: every snapshot of the caller taken in this work
 * tree within the window, newest first, so that where two snapshots hold
 * the same path the oldest (the state before the first destructive
 * command) wins, and what only a later snapshot holds (a quarantined
 * ignored file) comes back too: a burst such as reset --hard then
 * clean -fdx is undone with one command.
 */
static int restore_since(struct snap_cli *c)
{
	struct snapshot_list l = SNAPSHOT_LIST_INIT;
	long long window;
	size_t pick = 0;
	bool yes = c->yes;
	int ret;

	if (c->ref) {
		error("snapshots restore: --since restores a window of snapshots; do not name a ref");
		return AG_EXIT_USAGE;
	}
	if (parse_window(c->since, &window) < 0) {
		error("snapshots restore: --since value \"%s\" must look like <N>m, <N>h or <N>d",
		      c->since);
		return AG_EXIT_USAGE;
	}
	c->yes = true;
	ret = resolve_default(c, &l, &pick);
	c->yes = yes;
	if (!ret) {
		long long cutoff = (long long)time(NULL) - window;
		size_t n = 0;
		/* l is newest first; pick is the newest in this tree */
		const char *wt = l.v[pick].meta.worktree;
		for (size_t i = 0; i < l.nr && !ret; i++) {
			if (l.v[i].when < cutoff || !l.v[i].meta.worktree ||
			    strcmp(l.v[i].meta.worktree, wt))
				continue;
			ret = restore_one(c, &l.v[i]);
			n++;
		}
		if (!ret && !n)
			printf("No snapshot of yours in this work tree within %s.\n", c->since);
	}
	snapshot_list_release(&l);
	return ret;
}

int snapshots_restore(struct snap_cli *c)
{
	if (c->since)
		return restore_since(c);
	return snapshots_restore_one_ref(c);
}

static int snapshots_restore_one_ref(struct snap_cli *c)
{
	struct snapshot_list l = SNAPSHOT_LIST_INIT;
	struct restore_result r = RESTORE_RESULT_INIT;
	struct strbuf err = STRBUF_INIT;
	size_t pick = 0;
	int ret;

	ret = c->ref ? resolve_explicit(c, &l) : resolve_default(c, &l, &pick);
	if (!ret) {
		struct restore_opts o = {
			.real_git = c->git.buf, .dir = c->repo,
			.agent = c->caller_is_agent ? c->caller_who : "",
			.home = ag_getenv_str(AGE_HOME), .snap = &l.v[pick],
			.staged = c->staged,
		};
		if (snapshot_restore(&o, &r, &err) < 0) {
			error("snapshots restore: %s", err.buf);
			ret = 1;
		} else if (!r.paths && !r.quarantined && !r.stashes) {
			printf("Working tree already matches %s — nothing to restore.\n",
			       l.v[pick].ref);
		} else {
			print_restored(c, &l.v[pick], &r);
		}
	}
	restore_result_release(&r);
	strbuf_release(&err);
	snapshot_list_release(&l);
	return ret;
}

static int run_git_out(struct snap_cli *c, const char *const *args)
{
	struct child ch = CHILD_INIT;
	struct strbuf err = STRBUF_INIT;
	int st;

	fflush(stdout);
	gitcmd_init(&ch, c->git.buf, c->repo);
	strvec_pushv(&ch.args, args);
	st = gitcmd_run(&ch, NULL, &err);
	child_release(&ch);
	if (st != 0)
		error("snapshots %s: %s", c->sub,
		      err.len ? err.buf : "git failed");
	strbuf_release(&err);
	return st == 0 ? 0 : 1;
}

static void show_meta(const struct snapshot_info *s)
{
	const struct snapshot_meta *m = &s->meta;
	struct strbuf when = STRBUF_INIT;

	time_rfc3339_seconds(s->when, &when);
	printf("snapshot    %s\ncommit      %s\n", s->ref, s->commit);
	printf("taken       %s (before a `%s` operation)\n", when.buf,
	       s->name.slug);
	printf("agent       %s\n", s->name.agent);
	printf("worktree    %s\n", m->worktree ? m->worktree : "(unknown)");
	printf("head        %s\n", m->head ? m->head : "(unborn)");
	if (m->index)
		printf("staged      %s (the index, where it differed)\n",
		       m->index);
	for (size_t i = 0; i < m->stashes.nr; i++)
		printf("stash       %s\n", m->stashes.v[i]);
	if (m->quarantine)
		printf("quarantine  %s\n", m->quarantine);
	strbuf_release(&when);
}

int snapshots_show(struct snap_cli *c)
{
	struct snapshot_list l = SNAPSHOT_LIST_INIT;
	struct strvec q = STRVEC_INIT;
	int ret;

	if (!c->ref) {
		error("snapshots show: which snapshot? (see `agentic-git snapshots list`)");
		return AG_EXIT_USAGE;
	}
	ret = resolve_explicit(c, &l);
	if (!ret) {
		const struct snapshot_info *s = &l.v[0];
		const char *args[] = { "-c", "core.quotePath=false",
				       "diff-tree", "-r", "--name-status",
				       "--no-renames",
				       s->meta.head ? s->meta.head
						    : "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
				       s->commit, NULL };
		show_meta(s);
		printf("\nchanges saved (against HEAD at the time):\n");
		ret = run_git_out(c, args);
		if (s->meta.quarantine &&
		    !quarantine_list(s->meta.quarantine, &q) && q.nr) {
			printf("\nquarantined (moved out of the way of `clean`):\n");
			for (size_t i = 0; i < q.nr; i++)
				printf("  %s\n", q.v[i]);
		}
	}
	strvec_clear(&q);
	snapshot_list_release(&l);
	return ret;
}

int snapshots_diff(struct snap_cli *c)
{
	struct snapshot_list l = SNAPSHOT_LIST_INIT;
	int ret;

	if (!c->ref) {
		error("snapshots diff: which snapshot? (see `agentic-git snapshots list`)");
		return AG_EXIT_USAGE;
	}
	ret = resolve_explicit(c, &l);
	if (!ret) {
		/* what a restore would write: -R, minus newer files */
		const char *args[] = { "diff", "--no-ext-diff", "-R",
				       "--diff-filter=d", l.v[0].commit, "--",
				       ".", NULL };
		ret = run_git_out(c, args);
	}
	snapshot_list_release(&l);
	return ret;
}
