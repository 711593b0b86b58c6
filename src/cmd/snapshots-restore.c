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
#include "fleet/audit.h"
#include "cmd/cmd.h"
#include "cmd/git-out.h"
#include "cmd/snapshots-cli.h"
#include "git/gitcmd.h"
#include "git/quarantine.h"
#include "git/snapshot-restore.h"
#include "git/stale-locks.h"

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
	if (c->target_who && strcmp(n.agent, c->target_who)) {
		error("snapshots %s: `%s` belongs to agent '%s', not to '%s' (--agent)",
		      c->sub, c->ref, n.agent, c->target_who);
		snapshot_name_release(&n);
		return 1;
	}
	snapshot_name_release(&n);
	if (snapshot_list_load(c->git, c->repo, c->ref, l, &err) < 0) {
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

static void refuse_to_guess(const struct snap_cli *c,
			    const struct snapshot_list *l, size_t n,
			    const size_t *idx)
{
	struct strbuf yes = STRBUF_INIT, named = STRBUF_INIT;

	fprintf(stderr,
		"agentic-git: snapshots restore: %zu snapshots exist — refusing to guess.\n",
		n);
	for (size_t i = 0; i < n && i < 3; i++) {
		struct strbuf when = STRBUF_INIT;
		time_rfc3339_seconds(l->v[idx[i]].when, &when);
		fprintf(stderr, "  %s  %s  (%s, agent %s)\n", l->v[idx[i]].ref,
			when.buf, l->v[idx[i]].name.slug, l->v[idx[i]].name.agent);
		strbuf_release(&when);
	}
	snapshots_hint_cmd(&yes, "restore", c->top.buf, "--yes");
	snapshots_hint_cmd(&named, "restore", c->top.buf, "<ref>");
	fprintf(stderr,
		"  restore the newest: %s\n  or name one: %s\n  or undo a burst: add --since 1h\n",
		yes.buf, named.buf);
	strbuf_release(&yes);
	strbuf_release(&named);
}

/*
 * The window back from now, in the one duration syntax of every --since
 * (fleet/audit.h): an age <N>s|m|h|d|w, or an RFC 3339 time.
 */
static int parse_window(const char *v, long long *secs)
{
	time_t now = time(NULL);
	struct timespec ts;

	if (!v || audit_parse_time(v, now, &ts) < 0 || ts.tv_sec > now)
		return -1;
	*secs = (long long)(now - ts.tv_sec);
	return 0;
}

/* The newest snapshot of the scope (snapshots-cli.h) taken here. */
static int resolve_default(struct snap_cli *c, struct snapshot_list *l,
			   size_t *pick)
{
	size_t idx[3];

	if (snapshots_load_here(c, l) < 0)
		return 1;
	if (!l->nr) {
		error("snapshots restore: no snapshots to restore from (%s%s%s, work tree '%s'); see: agentic-git snapshots list --all",
		      c->target_who ? "agent '" : "any agent",
		      c->target_who ? c->target_who : "",
		      c->target_who ? "'" : "", c->top.buf);
		return 1;
	}
	if (l->nr > 1 && !c->yes) {
		for (size_t i = 0; i < ARRAY_SIZE(idx); i++)
			idx[i] = i;
		refuse_to_guess(c, l, l->nr, idx);
		return AG_EXIT_USAGE;
	}
	*pick = 0;
	return 0;
}

/*
 * Restore covers the tip: where the snapshot's branch is now against
 * where it was, and the one command that puts it back.
 */
static void print_tip(const struct snap_cli *c, const struct snapshot_info *s,
		      const struct restore_result *r)
{
	const struct snapshot_tip *t = &r->tip;
	const char *b = snapshot_tip_short(t->ref);
	struct strbuf cmd = STRBUF_INIT, rest = STRBUF_INIT;

	if (r->tip_moved) {
		printf("  branch '%s' is back at %s (it was at %s)\n", b,
		       t->want, *t->now ? t->now : "nothing: deleted");
		return;
	}
	if (!snapshot_tip_moved(t))
		return;
	strbuf_addf(&rest, "--head %s", s->ref);
	snapshots_hint_cmd(&cmd, "restore", c->top.buf, rest.buf);
	if (*t->now)
		printf("  the branch '%s' is at %s now; the snapshot was taken at %s. To put it back there too:\n      %s\n",
		       b, t->now, t->want, cmd.buf);
	else
		printf("  the branch '%s' no longer exists; it was at %s. To put it back:\n      %s\n",
		       b, t->want, cmd.buf);
	strbuf_release(&cmd);
	strbuf_release(&rest);
}

/* The undo of a restore: with --head when the branch moved. */
static void hint_undo(struct strbuf *undo, const struct snap_cli *c,
		      const char *pre_ref, bool head)
{
	struct strbuf rest = STRBUF_INIT;

	strbuf_addf(&rest, "%s%s", head ? "--head " : "", pre_ref);
	snapshots_hint_cmd(undo, "restore", c->top.buf, rest.buf);
	strbuf_release(&rest);
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
	print_tip(c, s, r);
	if (r->pre_ref.len) {
		struct strbuf undo = STRBUF_INIT;
		hint_undo(&undo, c, r->pre_ref.buf, r->tip_moved);
		printf("  ↩ your pre-restore state was saved — undo with:\n"
		       "      %s\n", undo.buf);
		strbuf_release(&undo);
	}
	strbuf_release(&when);
}

/* A snapshot goes back into the work tree it was taken in (or asked). */
/* A lock a killed git left would stop the restore halfway (the index's;
 * with --head, the refs'): refused before anything changes, naming it
 * and the way out. */
static int check_locks(struct snap_cli *c)
{
	struct strvec locks = STRVEC_INIT;
	struct strbuf msg = STRBUF_INIT;
	int ret = 0;

	if (stale_locks_find(c->top.buf, c->head, &locks)) {
		stale_locks_explain(&locks, &msg);
		error("snapshots restore: refused, nothing was changed: %s; then retry",
		      msg.buf);
		ret = 1;
	}
	strvec_clear(&locks);
	strbuf_release(&msg);
	return ret;
}

static int check_worktree(struct snap_cli *c, const struct snapshot_info *s)
{
	struct strbuf there = STRBUF_INIT;

	if (snapshots_locate_top(c) < 0 || check_locks(c))
		return 1;
	if (c->any_worktree || !s->meta.worktree ||
	    !strcmp(s->meta.worktree, c->top.buf))
		return 0;
	snapshots_hint_cmd(&there, "restore", s->meta.worktree, s->ref);
	error("snapshots restore: `%s` was taken in work tree '%s', not in '%s'; nothing was changed. Restore it there: %s (or pass --any-worktree to write it here)",
	      s->ref, s->meta.worktree, c->top.buf, there.buf);
	strbuf_release(&there);
	return 1;
}

static struct restore_opts restore_opts_of(const struct snap_cli *c,
					   const struct snapshot_info *s)
{
	struct restore_opts o = {
		.real_git = c->git,
		.dir = c->repo,
		.agent = c->caller_is_agent ? c->caller_who : "",
		.home = c->home,
		.snap = s,
		.staged = c->staged,
		.head = c->head,
	};
	return o;
}

/* `saved`: the current state was saved for the whole batch already;
 * `head`: put the snapshot's branch back too (--head). */
static int restore_one(struct snap_cli *c, const struct snapshot_info *s,
		       bool saved, bool head)
{
	struct restore_result r = RESTORE_RESULT_INIT;
	struct strbuf err = STRBUF_INIT;
	struct restore_opts o = restore_opts_of(c, s);
	int ret;

	o.saved = saved;
	o.head = head;

	if ((ret = check_worktree(c, s)))
		return ret;
	if (snapshot_restore(&o, &r, &err) < 0) {
		error("snapshots restore: %s", err.buf);
		ret = 1;
	} else if (!r.paths && !r.quarantined && !r.kept && !r.stashes &&
		   !r.tip_moved) {
		printf("Working tree already matches %s — nothing to restore.\n",
		       s->ref);
		print_tip(c, s, &r);
	} else {
		print_restored(c, s, &r);
	}
	restore_result_release(&r);
	strbuf_release(&err);
	return ret;
}

/*
 * The snapshots of `l` (newest first, this work tree's) taken since
 * `cutoff`, after one save of the current state for the whole batch, so
 * that one undo takes the work tree back to where it was.
 */
static int restore_window(struct snap_cli *c, const struct snapshot_list *l,
			  long long cutoff)
{
	struct strbuf pre = STRBUF_INIT, err = STRBUF_INIT, undo = STRBUF_INIT;
	struct restore_opts o;
	size_t n = 0, oldest = 0;
	int ret = 0;

	for (size_t i = 0; i < l->nr; i++)
		if (l->v[i].when >= cutoff) {
			n++;
			oldest = i;
		}
	if (!n) {
		printf("No snapshot taken in this work tree within %s.\n",
		       c->since);
		return 0;
	}
	/* --head: the branch goes where the oldest step found it, and a
	 * refusal comes before the first step */
	o = restore_opts_of(c, &l->v[oldest]);
	if (c->head && snapshot_restore_head_check(&o, &err) < 0) {
		error("snapshots restore: %s", err.buf);
		strbuf_release(&err);
		return 1;
	}
	o = restore_opts_of(c, &l->v[0]);
	if (snapshot_restore_save(&o, &pre, &err) < 0) {
		error("snapshots restore: %s", err.buf);
		ret = 1;
	}
	for (size_t i = 0; i < l->nr && !ret; i++)
		if (l->v[i].when >= cutoff)
			ret = restore_one(c, &l->v[i], true,
					  c->head && i == oldest);
	if (!ret && pre.len) {
		hint_undo(&undo, c, pre.buf, c->head);
		printf("↩ the state before this restore was saved — undo all of it with:\n"
		       "      %s\n", undo.buf);
	} else if (!ret) {
		printf("(before this restore the work tree had no unsaved changes)\n");
	}
	strbuf_release(&pre);
	strbuf_release(&err);
	strbuf_release(&undo);
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
	size_t pick;
	bool yes = c->yes;
	int ret;

	if (c->ref) {
		error("snapshots restore: --since restores a window of snapshots; do not name a ref");
		return AG_EXIT_USAGE;
	}
	if (parse_window(c->since, &window) < 0) {
		error("snapshots restore: --since value \"%s\" is neither an age (30s, 10m, 2h, 3d, 1w) nor an RFC 3339 time",
		      c->since);
		return AG_EXIT_USAGE;
	}
	c->yes = true;
	ret = resolve_default(c, &l, &pick);
	c->yes = yes;
	if (!ret)
		ret = restore_window(c, &l, (long long)time(NULL) - window);
	snapshot_list_release(&l);
	return ret;
}

int snapshots_restore(struct snap_cli *c)
{
	struct snapshot_list l = SNAPSHOT_LIST_INIT;
	size_t pick = 0;
	int ret;

	/* a lock a killed git left: named before anything else */
	if (snapshots_locate_top(c) < 0 || check_locks(c))
		return 1;
	if (c->since)
		return restore_since(c);
	ret = c->ref ? resolve_explicit(c, &l) : resolve_default(c, &l, &pick);
	if (!ret)
		ret = restore_one(c, &l.v[pick], false, c->head);
	snapshot_list_release(&l);
	return ret;
}

static int run_git_out(struct snap_cli *c, const char *const *args)
{
	struct child ch = CHILD_INIT;
	struct strbuf err = STRBUF_INIT;
	int st;

	gitcmd_init(&ch, c->git, c->repo);
	strvec_pushv(&ch.args, args);
	st = git_run_inert(&ch, &err);
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
	if (m->branch)
		printf("branch      %s\n", m->branch);
	if (m->kept)
		printf("kept        %s at %s (its tip only: no files; restore --head puts it back)\n",
		       m->kept, m->head ? m->head : "?");
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
		if (!s->meta.kept) {
			printf("\nchanges saved (against HEAD at the time):\n");
			ret = run_git_out(c, args);
		}
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
