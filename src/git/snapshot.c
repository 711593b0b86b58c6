/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The snapshot engine (invariants in snapshot.h). One snapshot costs, when
 * there is work to save: rev-parse (which also lists the agent's refs) and
 * add -A, at the same time; the trees and commits are then formatted here
 * and written as one pack (git/packw.h), and the ref as a loose file
 * (git/loose-ref.h). Where git's bookkeeping is needed (SHA-256, a shared
 * repository, an index the builder leaves to git) write-tree, commit-tree
 * and update-ref run instead. Before a clean: clean -n/check-ignore; before
 * a stash drop: a reflog read. When there is nothing to lose it stops
 * after add -A: the `add -A` into the index copy is the only scan of the
 * work tree. docs/snapshots.md, "Cost", says where the time goes.
 */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "base/die.h"
#include "base/eventlog.h"
#include "base/path.h"
#include "base/timefmt.h"
#include "base/xalloc.h"
#include "git/gitcmd.h"
#include "git/loose-ref.h"
#include "git/quarantine.h"
#include "git/repo.h"
#include "git/snapshot-compact.h"
#include "git/snapshot-name.h"
#include "git/snapshot-int.h"
#include "git/snapshot-space.h"
#include "git/snapshot.h"

void snap_release(struct snap *s)
{
	if (s->tmp_index.len)
		unlink(s->tmp_index.buf);
	strbuf_release(&s->top);
	strbuf_release(&s->gitdir);
	strbuf_release(&s->index);
	strbuf_release(&s->commondir);
	strbuf_release(&s->head);
	strbuf_release(&s->head_tree);
	strbuf_release(&s->tmp_index);
	strbuf_release(&s->wtree);
	strbuf_release(&s->itree);
	strbuf_release(&s->icommit);
	strbuf_release(&s->commit);
	strbuf_release(&s->qdir);
	strvec_clear(&s->stashes);
	strvec_clear(&s->refs);
	quarantine_plan_release(&s->qp);
	packw_release(&s->pw);
	snapshot_ucache_release(&s->uc);
	s->merged = false;
	s->own_objects = false;
	s->partial = false;
}

#define EMPTY_TREE_SHA1 "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
#define EMPTY_TREE_SHA256 \
	"6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321"

static bool is_empty_tree(const char *t)
{
	return !strcmp(t, EMPTY_TREE_SHA1) || !strcmp(t, EMPTY_TREE_SHA256);
}

static bool same_as_head(const struct snap *s, const char *tree)
{
	if (!s->head_tree.len)
		return is_empty_tree(tree);
	return !strcmp(tree, s->head_tree.buf);
}

/* One git command in the located repository (snap_git_init). */
static int snap_run(struct snap *s, struct strbuf *out, struct strbuf *gerr,
		    const char *const *args)
{
	struct child c = CHILD_INIT;
	int st;

	snap_git_init(s, &c);
	strvec_pushv(&c.args, args);
	st = gitcmd_run(&c, out, gerr);
	child_release(&c);
	return st;
}

/* The stash entries, newest first, before `stash drop/clear`. */
static void read_stashes(struct snap *s)
{
	const char *const log[] = {
		"log",	       "-g",
		"--format=%H", s->o->stash_ref ? s->o->stash_ref : "refs/stash",
		"--",	       NULL
	};
	struct strbuf out = STRBUF_INIT;
	char *p;

	if (snap_run(s, &out, NULL, log) == 0) {
		p = out.buf;
		while (*p) {
			char *eol = strchrnul(p, '\n');
			bool last = !*eol;
			*eol = '\0';
			if (*p)
				strvec_push(&s->stashes, p);
			p = last ? eol : eol + 1;
		}
	}
	strbuf_release(&out);
}

static bool nothing_to_lose(const struct snap *s)
{
	return same_as_head(s, s->wtree.buf) && s->itree.len &&
	       same_as_head(s, s->itree.buf) &&
	       quarantine_plan_empty(&s->qp) && !s->stashes.nr;
}

/* the snapshot commits' author and committer, whatever the environment */
#define SNAPSHOT_NAME "agentic-git"
#define SNAPSHOT_EMAIL "agentic-git@localhost"
#define SNAPSHOT_IDENT SNAPSHOT_NAME " <" SNAPSHOT_EMAIL ">"

/*
 * The commit object `git commit-tree` would write for the same input
 * (no signature, no encoding header: the message is ours), kept in s->pw.
 * A parent named twice is kept once, as git does.
 */
static void format_commit(struct snap *s, const char *tree,
			  const struct strvec *parents, const char *msg,
			  struct strbuf *out)
{
	struct strbuf c = STRBUF_INIT;
	unsigned char oid[20];

	strbuf_addf(&c, "tree %s\n", tree);
	for (size_t i = 0; i < parents->nr; i++) {
		bool dup = false;
		for (size_t k = 0; k < i && !dup; k++)
			dup = !strcmp(parents->v[k], parents->v[i]);
		if (!dup)
			strbuf_addf(&c, "parent %s\n", parents->v[i]);
	}
	strbuf_addf(&c, "author " SNAPSHOT_IDENT " %lld +0000\n",
		    (long long)s->now);
	strbuf_addf(&c, "committer " SNAPSHOT_IDENT " %lld +0000\n\n%s",
		    (long long)s->now, msg);
	packw_add(&s->pw, PACKW_COMMIT, c.buf, c.len, oid);
	strbuf_addhex(out, oid, sizeof(oid));
	strbuf_release(&c);
}

/* Invariant 3: the identity and date never come from the environment. */
static int commit_tree(struct snap *s, const char *tree,
		       const struct strvec *parents, const char *msg,
		       struct strbuf *out)
{
	struct child c = CHILD_INIT;
	struct strbuf gerr = STRBUF_INIT;
	int st;

	if (s->own_objects) {
		format_commit(s, tree, parents, msg, out);
		return 0;
	}
	snap_git_init(s, &c);
	strvec_pushl(&c.env_set, "GIT_AUTHOR_NAME=" SNAPSHOT_NAME,
		     "GIT_AUTHOR_EMAIL=" SNAPSHOT_EMAIL,
		     "GIT_COMMITTER_NAME=" SNAPSHOT_NAME,
		     "GIT_COMMITTER_EMAIL=" SNAPSHOT_EMAIL, NULL);
	strvec_pushf(&c.env_set, "GIT_AUTHOR_DATE=@%lld +0000",
		     (long long)s->now);
	strvec_pushf(&c.env_set, "GIT_COMMITTER_DATE=@%lld +0000",
		     (long long)s->now);
	gitcmd_keep_heap(&c);
	strvec_pushl(&c.args, "commit-tree", "--no-gpg-sign", tree, NULL);
	for (size_t i = 0; i < parents->nr; i++)
		strvec_pushl(&c.args, "-p", parents->v[i], NULL);
	strvec_pushl(&c.args, "-F", "-", NULL);
	c.in = msg;
	c.in_len = strlen(msg);
	st = gitcmd_run(&c, out, &gerr);
	child_release(&c);
	gitcmd_chomp(out);
	if (st != 0 || !out->len)
		st = snap_fail(s, "git commit-tree failed", &gerr);
	strbuf_release(&gerr);
	return st ? -1 : 0;
}

int snapshot_list_refs(const char *real_git, const char *dir, const char *who,
		       struct strvec *refs, struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT, pattern = STRBUF_INIT;
	char *p;
	int st;

	strbuf_addf(&pattern, "%s%s%s", SNAPSHOT_REF_PREFIX, who ? who : "",
		    who ? "/" : "");
	st = gitcmd_capture(real_git, dir, &out, err, "for-each-ref",
			    "--format=%(refname)", pattern.buf, NULL);
	strbuf_release(&pattern);
	if (st != 0) {
		strbuf_release(&out);
		if (!err->len)
			strbuf_addstr(err, "git for-each-ref failed");
		return -1;
	}
	for (p = out.buf; *p;) {
		char *eol = strchrnul(p, '\n');
		bool last = !*eol;
		*eol = '\0';
		if (*p)
			strvec_push(refs, p);
		p = last ? eol : eol + 1;
	}
	strbuf_release(&out);
	return 0;
}

/* Picks the next free name of this second and creates the ref on it. */
static int create_ref(struct snap *s, struct strbuf *ref)
{
	struct strbuf stamp = STRBUF_INIT, gerr = STRBUF_INIT, msg = STRBUF_INIT;
	enum loose_ref_result lr;
	unsigned long seq;
	int ret = -1;

	time_compact_utc(s->now, &stamp);
	seq = snapshot_next_seq(s->refs.v, s->refs.nr, s->who, stamp.buf);
	strbuf_addf(&msg, "agentic-git: %s snapshot", s->o->slug);
	for (int attempt = 0; attempt < 5 && ret < 0; attempt++, seq++) {
		strbuf_reset(ref);
		strbuf_reset(&gerr);
		if (snapshot_ref_build(ref, s->who, s->now, seq, s->o->slug)) {
			strbuf_addstr(&gerr, "invalid agent or op name");
			break;
		}
		/* written directly when the files backend allows (no process,
		 * no hooks); else git, with "" as old value: the ref must not
		 * exist yet (race-free) */
		lr = loose_ref_create(s->commondir.buf, ref->buf, s->commit.buf);
		if (lr == LOOSE_REF_CREATED)
			ret = 0;
		else if (lr == LOOSE_REF_UNSUPPORTED &&
			 snap_run(s, NULL, &gerr, (const char *const[]){
				 "update-ref", "-m", msg.buf, ref->buf,
				 s->commit.buf, "", NULL }) == 0)
			ret = 0;
		else if (lr == LOOSE_REF_EXISTS)
			strbuf_addf(&gerr, "%s exists", ref->buf);
	}
	if (ret < 0) {
		strbuf_reset(ref);
		snap_fail(s, "git update-ref failed", &gerr);
	}
	strbuf_release(&stamp);
	strbuf_release(&gerr);
	strbuf_release(&msg);
	return ret;
}

static void sweep_quarantine(const char *home, const char *who, time_t now,
			     long ttl)
{
	struct strbuf dir = STRBUF_INIT;
	DIR *d;
	struct dirent *de;

	strbuf_addf(&dir, "%s/quarantine/%s", home, who);
	d = opendir(dir.buf);
	while (d && (de = readdir(d))) {
		char stamp[SNAPSHOT_STAMP_LEN + 1];
		time_t t;

		if (strlen(de->d_name) < SNAPSHOT_STAMP_LEN)
			continue;
		memcpy(stamp, de->d_name, SNAPSHOT_STAMP_LEN);
		stamp[SNAPSHOT_STAMP_LEN] = '\0';
		t = snapshot_stamp_time(stamp);
		if (t >= 0 && now - t > ttl) {
			char *p = path_join(dir.buf, de->d_name);
			remove_tree(p);
			free(p);
		}
	}
	if (d)
		closedir(d);
	strbuf_release(&dir);
}

int snapshot_prune_refs(const char *real_git, const char *dir,
			const char *gitdir, const char *home, const char *who,
			const struct strvec *refs, time_t now, long ttl,
			const char *keep, struct strvec *pruned,
			struct strbuf *err)
{
	struct strbuf in = STRBUF_INIT;
	struct strvec gone = STRVEC_INIT;
	struct child c = CHILD_INIT;
	int ret = 0;

	for (size_t i = 0; i < refs->nr; i++) {
		struct snapshot_name n;
		time_t t;

		if (snapshot_ref_parse(refs->v[i], &n) < 0)
			continue;
		t = snapshot_stamp_time(n.stamp);
		/* invariant 5: only `who`'s; strictly older than the TTL */
		if ((!who || !strcmp(n.agent, who)) && t >= 0 &&
		    now - t > ttl && (!keep || strcmp(keep, refs->v[i]))) {
			strbuf_addf(&in, "delete %s\n", refs->v[i]);
			strvec_push(&gone, refs->v[i]);
		}
		snapshot_name_release(&n);
	}
	if (gone.nr) {
		if (gitdir)
			gitcmd_init_repo(&c, real_git, gitdir, dir);
		else
			gitcmd_init(&c, real_git, dir);
		/* our own pruning of the safety net: the session's hook,
		 * which refuses every shrinking of it, is not asked */
		strvec_pushl(&c.args, "-c", "core.hooksPath=/dev/null",
			     "update-ref", "--stdin", NULL);
		c.in = in.buf;
		c.in_len = in.len;
		if (gitcmd_run(&c, NULL, err) != 0) {
			if (!err->len)
				strbuf_addstr(err, "git update-ref failed");
			ret = -1;
		} else if (pruned) {
			strvec_pushv(pruned, gone.v);
		}
		child_release(&c);
	}
	if (home && *home && who)
		sweep_quarantine(home, who, now, ttl);
	strbuf_release(&in);
	strvec_clear(&gone);
	return ret;
}

static int save_index_commit(struct snap *s)
{
	struct strvec parents = STRVEC_INIT;
	int ret;

	if (!s->itree.len || !strcmp(s->itree.buf, s->wtree.buf) ||
	    same_as_head(s, s->itree.buf))
		return 0;
	if (s->head.len)
		strvec_push(&parents, s->head.buf);
	ret = commit_tree(s, s->itree.buf, &parents, "index snapshot\n",
			  &s->icommit);
	strvec_clear(&parents);
	return ret;
}

static int save_commit(struct snap *s)
{
	struct snapshot_meta m = SNAPSHOT_META_INIT;
	struct strvec parents = STRVEC_INIT;
	struct strbuf msg = STRBUF_INIT;
	int ret;

	m.op = xstrdup(s->o->slug);
	m.agent = xstrdup(s->who);
	m.worktree = xstrdup(s->top.buf);
	m.head = s->head.len ? xstrdup(s->head.buf) : NULL;
	m.index = s->icommit.len ? xstrdup(s->icommit.buf) : NULL;
	m.quarantine = s->qdir.len ? xstrdup(s->qdir.buf) : NULL;
	/* restore covers the tip: the branch HEAD was on (git/snapshot-tip.h) */
	m.branch = repo_head_ref(s->gitdir.buf);
	strvec_pushv(&m.stashes, s->stashes.v);
	snapshot_meta_render(&m, &msg);
	if (s->head.len)
		strvec_push(&parents, s->head.buf);
	if (s->icommit.len)
		strvec_push(&parents, s->icommit.buf);
	strvec_pushv(&parents, s->stashes.v);
	ret = commit_tree(s, s->wtree.buf, &parents, msg.buf, &s->commit);
	snapshot_meta_release(&m);
	strvec_clear(&parents);
	strbuf_release(&msg);
	return ret;
}

/* Claims the quarantine directory, named after the ref about to exist. */
static int claim_quarantine(struct snap *s)
{
	struct strbuf id = STRBUF_INIT, root = STRBUF_INIT;
	int ret;

	time_compact_utc(s->now, &id);
	strbuf_addf(&id, "-%lu-%s",
		    snapshot_next_seq(s->refs.v, s->refs.nr, s->who,
				      id.buf),
		    s->o->slug);
	ret = quarantine_root(s->o->home, &root, s->err);
	if (!ret)
		ret = quarantine_claim(root.buf, s->who, id.buf, &s->qdir,
				       s->err);
	strbuf_release(&id);
	strbuf_release(&root);
	return ret;
}

static int check_opts(const struct snapshot_opts *o, const char *who,
		      struct strbuf *err)
{
	if (!o->real_git || o->real_git[0] != '/') {
		strbuf_addstr(err, "real git is not an absolute path");
		return -1;
	}
	if (!o->dir || !*o->dir) {
		strbuf_addstr(err, "no work tree given");
		return -1;
	}
	/* invariant 4 */
	if (!snapshot_who_valid(who)) {
		strbuf_addstr(err, "invalid agent name");
		return -1;
	}
	if (!o->slug || !snapshot_slug_valid(o->slug)) {
		strbuf_addstr(err, "invalid operation name");
		return -1;
	}
	return 0;
}

/*
 * What clean would delete, asked from where it runs: the operation's
 * directory, or the top when that lies outside the work tree (a named
 * --work-tree: git then runs on the whole tree, from its top).
 */
static bool clean_runs_in_dir(const struct snap *s)
{
	char *real = real_path(s->o->dir);
	const char *rel;
	bool inside = real && path_inside(real, s->top.buf, &rel);

	free(real);
	return inside;
}

static int plan_clean(struct snap *s)
{
	const struct snapshot_opts *o = s->o;

	return quarantine_plan_clean(
		o->real_git, s->gitdir.buf,
		clean_runs_in_dir(s) ? o->dir : s->top.buf, s->top.buf,
		o->clean_args, o->clean_configs, s->partial, &s->qp, s->err);
}

/* After the moves (a plan is a clean's), clean still deletes only what
 * was planned for. */
static int verify_clean(struct snap *s, struct strbuf *err)
{
	const struct snapshot_opts *o = s->o;

	return quarantine_verify(o->real_git, s->gitdir.buf,
				 clean_runs_in_dir(s) ? o->dir : s->top.buf,
				 s->top.buf, o->clean_args, o->clean_configs,
				 &s->qp, err);
}

/* What the snapshot must also hold besides the work tree. */
static int plan_extras(struct snap *s)
{
	const struct snapshot_opts *o = s->o;

	if (!strcmp(o->slug, "stash") || o->stash_ref)
		read_stashes(s);
	/* `end --force` passes clean_args too: worktree removal is a clean -fdx */
	if (strcmp(o->slug, "clean") && !o->clean_args &&
	    !o->keep_sparse_ignored && !o->keep_submodules)
		return 0;
	if (!o->home || !*o->home) {
		if (o->quarantine_ignored || o->keep_sparse_ignored ||
		    o->keep_submodules)
			warning("no AGENTIC_GIT_HOME: what git %s deletes and no snapshot holds is not quarantined",
				o->slug);
		return 0;
	}
	if (o->keep_sparse_ignored && snap_plan_sparse(s))
		return -1;
	if (o->keep_submodules &&
	    snap_plan_submodules(s, clean_runs_in_dir(s) ? o->dir : s->top.buf))
		return -1;
	if (strcmp(o->slug, "clean") && !o->clean_args)
		return 0;
	return plan_clean(s);
}

static void log_taken(const struct snap *s, const char *ref)
{
	struct event ev = EVENT_INIT("snapshot_taken", s->o->agent,
				     s->o->slug);

	event_add_str(&ev, "ref", ref);
	/* the ref's creation, journaled here (it is written without
	 * update-ref, so the reference-transaction hook does not see it) */
	event_add_str(&ev, "new", s->commit.buf);
	event_add_str(&ev, "worktree", s->top.buf);
	if (s->qdir.len)
		event_add_str(&ev, "quarantine", s->qdir.buf);
	event_write(s->o->home, &ev);
	event_release(&ev);
}

static void move_to_quarantine(struct snap *s)
{
	struct strbuf qerr = STRBUF_INIT;

	bool clean = !strcmp(s->o->slug, "clean") || s->o->clean_args;

	if (quarantine_execute(s->top.buf, s->qdir.buf, &s->qp, &qerr) < 0 ||
	    (clean && verify_clean(s, &qerr) < 0)) {
		struct event ev = EVENT_INIT("quarantine_failed", s->o->agent,
					     s->o->slug);
		warning("quarantine incomplete (%s); those files are not protected",
			qerr.buf);
		if (s->o->quarantine_incomplete)
			*s->o->quarantine_incomplete = true;
		event_add_str(&ev, "reason", qerr.buf);
		event_write(s->o->home, &ev);
		event_release(&ev);
	}
	strbuf_release(&qerr);
}

static int take(const struct snapshot_opts *o, struct strbuf *ref_out,
		struct strbuf *err)
{
	struct snap s = { .o = o, .who = snapshot_who(o->agent),
			  .now = time(NULL), .err = err,
			  .top = STRBUF_INIT, .gitdir = STRBUF_INIT,
			  .index = STRBUF_INIT,
			  .commondir = STRBUF_INIT,
			  .head = STRBUF_INIT, .head_tree = STRBUF_INIT,
			  .tmp_index = STRBUF_INIT, .wtree = STRBUF_INIT,
			  .itree = STRBUF_INIT, .icommit = STRBUF_INIT,
			  .commit = STRBUF_INIT, .qdir = STRBUF_INIT,
			  .stashes = STRVEC_INIT, .refs = STRVEC_INIT,
			  .qp = QUARANTINE_PLAN_INIT, .pw = PACKW_INIT };
	struct strbuf perr = STRBUF_INIT;
	int ret = -1;

	s.uc = (struct snapshot_ucache)SNAPSHOT_UCACHE_INIT;

	strbuf_reset(ref_out);
	if (check_opts(o, s.who, err) || snap_capture(&s) ||
	    snap_add_overwritten(&s) || plan_extras(&s))
		goto out;
	if (nothing_to_lose(&s) && !o->always) {
		ret = 0;
		goto out;
	}
	if (save_index_commit(&s) ||
	    (!quarantine_plan_empty(&s.qp) && claim_quarantine(&s)))
		goto out;
	if (save_commit(&s) || snap_flush_objects(&s) ||
	    create_ref(&s, ref_out)) {
		if (s.qdir.len)
			rmdir(s.qdir.buf);
		goto out;
	}
	if (s.qdir.len)
		move_to_quarantine(&s);
	/* the ref holds every object the cache names: now it may name them */
	snapshot_ucache_save(&s.uc, s.gitdir.buf, ref_out->buf, s.commit.buf);
	log_taken(&s, ref_out->buf);
	/* a killed snapshot's ref lock would stop the prune for good */
	snapshot_sweep_ref_locks(s.commondir.buf, s.who);
	snapshot_prune_refs(o->real_git, s.top.buf, s.gitdir.buf, o->home,
			    s.who, &s.refs, s.now, SNAPSHOT_TTL_SECONDS,
			    ref_out->buf, NULL, &perr);
	/* bounded storage: packs and loose refs consolidated, detached */
	snapshot_compact_maybe(o->real_git, s.gitdir.buf, s.top.buf,
			       s.commondir.buf);
	ret = 0;
out:
	/* what only the quarantine would have held is not safe: the
	 * operation must not run (snapshot_guard) */
	if (ret < 0 && o->quarantine_incomplete &&
	    (!quarantine_plan_empty(&s.qp) || o->keep_sparse_ignored))
		*o->quarantine_incomplete = true;
	/* a failed snapshot removes what its git wrote (a tmp_pack_* keeps
	 * a full disk full) */
	if (ret < 0 && s.commondir.len)
		snapshot_sweep_failed(s.commondir.buf, s.now);
	strbuf_release(&perr);
	snap_release(&s);
	return ret;
}

/*
 * A relative `dir` is made absolute first: the capture hands paths to git
 * children that may run elsewhere (a work tree apart from its .git).
 */
int snapshot_take(const struct snapshot_opts *o, struct strbuf *ref_out,
		  struct strbuf *err)
{
	struct snapshot_opts abs = *o;
	char *dir = NULL;
	int ret;

	if (o->dir && o->dir[0] != '/') {
		dir = real_path(o->dir);
		if (!dir) {
			strbuf_reset(ref_out);
			strbuf_addf(err, "cannot resolve '%s': %s", o->dir,
				    strerror(errno));
			return -1;
		}
		abs.dir = dir;
	}
	ret = take(&abs, ref_out, err);
	free(dir);
	return ret;
}

int snapshot_guard(const struct snapshot_opts *o)
{
	struct strbuf ref = STRBUF_INIT, err = STRBUF_INIT, why = STRBUF_INIT;
	int ret = 0;

	if (snapshot_take(o, &ref, &err) < 0) {
		struct event ev = EVENT_INIT("snapshot_failed", o->agent,
					     o->slug);

		if (!err.len)
			strbuf_addstr(&err, "unknown error");
		if (snapshot_reason_is_space(err.buf))
			snapshot_space_hint(o->real_git, o->dir, o->home, &why);
		ret = o->quarantine_ignored ? -1 : 0;
		if (o->fail_closed) {
			ret = -2;
			fprintf(stderr,
				"agentic-git: git %s refused: its pre-op snapshot FAILED (%s)%s%s — in a session a destructive command does not run without its safety net; free space and retry, or commit the work first\n",
				o->slug, err.buf, why.len ? "; " : "", why.buf);
		} else {
			fprintf(stderr,
				"agentic-git: warning — pre-op snapshot FAILED (%s)%s%s; proceeding without a safety net\n",
				err.buf, why.len ? "; " : "", why.buf);
		}
		event_add_null(&ev, "target_branch");
		event_add_str(&ev, "reason", err.buf);
		if (why.len)
			event_add_str(&ev, "space", why.buf);
		event_add_bool(&ev, "refused", ret == -2);
		event_write(o->home, &ev);
		event_release(&ev);
	}
	strbuf_release(&ref);
	strbuf_release(&err);
	strbuf_release(&why);
	if (!ret && o->quarantine_incomplete && *o->quarantine_incomplete)
		ret = -1;
	return ret;
}
