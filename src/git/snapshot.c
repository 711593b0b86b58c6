/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The snapshot engine (invariants in snapshot.h). One snapshot costs, when
 * there is work to save: rev-parse (which also lists the agent's refs),
 * add -A, write-tree, commit-tree, update-ref; plus a write-tree first when
 * the index's cached root tree is not valid (staged changes), a second
 * commit-tree when the staged tree must be kept, and clean -n/check-ignore
 * before a clean or a reflog read before a stash drop. When there is
 * nothing to lose it stops after add -A (which then leaves the index copy
 * untouched): the `add -A` into the index copy is the only scan of the
 * work tree. docs/snapshots.md, "Cost", says where the time goes.
 */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include "base/die.h"
#include "base/eventlog.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/timefmt.h"
#include "base/xalloc.h"
#include "git/gitcmd.h"
#include "git/loose-ref.h"
#include "git/quarantine.h"
#include "git/snapshot-index.h"
#include "git/snapshot-name.h"
#include "git/snapshot-tmp.h"
#include "git/snapshot.h"

/* an index this large (tens of millions of files) is not copied */
#define SNAPSHOT_INDEX_MAX ((size_t)1 << 30)

#define EMPTY_TREE_SHA1 "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
#define EMPTY_TREE_SHA256 \
	"6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321"

struct snap {
	const struct snapshot_opts *o;
	const char *who;
	time_t now;
	struct strbuf top, index, commondir, head, head_tree, tmp_index;
	struct strbuf wtree, itree, icommit, commit, qdir;
	bool itree_known; /* itree read from the index's cache-tree */
	struct strvec stashes, refs;
	struct quarantine_plan qp;
	struct strbuf *err;
};

static void snap_release(struct snap *s)
{
	if (s->tmp_index.len)
		unlink(s->tmp_index.buf);
	strbuf_release(&s->top);
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
}

/* Cuts the next line off *p; NULL when none is left. */
static char *next_line(char **p)
{
	char *line = *p, *eol;

	if (!*line)
		return NULL;
	eol = strchrnul(line, '\n');
	*p = *eol ? eol + 1 : eol;
	*eol = '\0';
	return line;
}

static int fail(struct snap *s, const char *what, struct strbuf *gerr)
{
	strbuf_addstr(s->err, what);
	if (gerr && gerr->len) {
		const char *nl = strchr(gerr->buf, '\n');
		strbuf_addstr(s->err, ": ");
		strbuf_add(s->err, gerr->buf,
			   nl ? (size_t)(nl - gerr->buf) : gerr->len);
	}
	return -1;
}

/* Reads rev-parse's answer: top, index, common dir, [HEAD, HEAD^{tree},]
 * refs. */
static int parse_locate(struct snap *s, char *p, bool born)
{
	char *top = next_line(&p), *index = next_line(&p),
	     *common = next_line(&p), *l;

	if (!top || !*top || !index || !*index || !common || !*common)
		return -1;
	strbuf_addstr(&s->top, top);
	if (index[0] != '/')
		strbuf_addf(&s->index, "%s/", s->o->dir);
	strbuf_addstr(&s->index, index);
	if (common[0] != '/')
		strbuf_addf(&s->commondir, "%s/", s->o->dir);
	strbuf_addstr(&s->commondir, common);
	if (born) {
		char *head = next_line(&p), *tree = next_line(&p);
		if (!head || !tree || strlen(head) != strlen(tree))
			return -1;
		strbuf_addstr(&s->head, head);
		strbuf_addstr(&s->head_tree, tree);
	}
	while ((l = next_line(&p)))
		if (*l)
			strvec_push(&s->refs, l);
	return 0;
}

/*
 * The work tree's top, its index file, HEAD (commit and tree) and the
 * names of the agent's snapshot refs (for the seq and the TTL prune), in
 * one git call; a second one when HEAD is unborn.
 */
static int locate(struct snap *s)
{
	struct strbuf out = STRBUF_INIT, gerr = STRBUF_INIT,
		      glob = STRBUF_INIT;
	bool born;
	int st, ret = -1;

	/* --symbolic: the refs after it print as names, not object ids */
	strbuf_addf(&glob, "--glob=%s%s/*", SNAPSHOT_REF_PREFIX, s->who);
	st = gitcmd_capture(s->o->real_git, s->o->dir, &out, &gerr,
			    "rev-parse", "--show-toplevel", "--git-path",
			    "index", "--git-common-dir", "HEAD", "HEAD^{tree}",
			    "--symbolic",
			    glob.buf, NULL);
	born = st == 0;
	if (st > 0) {
		/* unborn HEAD (or worse: then this call says why) */
		strbuf_reset(&out);
		strbuf_reset(&gerr);
		st = gitcmd_capture(s->o->real_git, s->o->dir, &out, &gerr,
				    "rev-parse", "--show-toplevel",
				    "--git-path", "index", "--git-common-dir",
				    "--symbolic",
				    glob.buf, NULL);
	}
	if (st == 0 && !parse_locate(s, out.buf, born))
		ret = 0;
	else
		fail(s, st < 0 ? "cannot run git" : "not in a git work tree",
		     &gerr);
	strbuf_release(&out);
	strbuf_release(&gerr);
	strbuf_release(&glob);
	return ret;
}

/*
 * The fast way: a second name (a hard link, next to the real index) for
 * the real index's file. git never writes an index in place: it writes
 * `<name>.lock` and renames it over `<name>`, so what `add -A` writes
 * replaces our name only, and the real index stays as it was. Nothing is
 * copied, and the stat data, the mtime included, is the real index's own.
 */
static int link_index(struct snap *s)
{
	char *dir = path_dirname(s->index.buf);
	int ret;

	snapshot_tmp_sweep(dir);
	snapshot_tmp_name(&s->tmp_index, dir);
	free(dir);
	ret = link(s->index.buf, s->tmp_index.buf);
	if (ret < 0 && errno != ENOENT)
		strbuf_reset(&s->tmp_index); /* not ours (EEXIST…) */
	return ret;
}

/*
 * The fallback when the index's directory takes no link (a file system
 * without hard links, EMLINK…): a copy in $TMPDIR.
 *
 * The copy keeps the real index's mtime: git trusts an entry's stat data
 * only when the file is older than the index (racy git). A copy stamped
 * "now" would make a file modified in the same second as the real index
 * was written, with the same size, look unchanged: `add -A` would skip it
 * and the snapshot would miss that work.
 */
static int copy_index(struct snap *s)
{
	const char *tmp = getenv("TMPDIR");
	struct strbuf buf = STRBUF_INIT;
	struct stat st;
	cleanup_fd int in = -1;
	cleanup_fd int out = -1;
	int ret = -1;

	snapshot_tmp_name(&s->tmp_index, tmp && *tmp == '/' ? tmp : "/tmp");
	out = open(s->tmp_index.buf,
		   O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (out < 0) {
		strbuf_addf(s->err, "cannot create '%s': %s",
			    s->tmp_index.buf, strerror(errno));
		strbuf_reset(&s->tmp_index);
		return -1;
	}
	in = open(s->index.buf, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (in < 0 || fstat(in, &st) < 0 || !S_ISREG(st.st_mode))
		return fail(s, "cannot read the index", NULL);
	if (read_fd_bounded(in, SNAPSHOT_INDEX_MAX, &buf) < 0 ||
	    write_all(out, buf.buf, buf.len) < 0 ||
	    futimens(out, (struct timespec[2]){ st.st_atim, st.st_mtim }) < 0)
		strbuf_addf(s->err, "cannot copy the index: %s",
			    strerror(errno));
	else
		ret = 0;
	strbuf_release(&buf);
	return ret;
}

/*
 * git's cached staged tree, from the temp index's bytes (mapped, not
 * read: no copy). The file is ours and git replaces it by rename, never
 * truncates it, so the mapping stays whole while we read it.
 */
static void read_cached_tree(struct snap *s, int fd, const struct stat *st)
{
	size_t len = (size_t)st->st_size;
	void *map;

	if (!s->head.len || st->st_size <= 0 ||
	    (uint64_t)st->st_size > SNAPSHOT_INDEX_MAX)
		return;
	map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return;
	if (snapshot_index_tree(map, len, s->head.len / 2, &s->itree) ==
	    SNAPSHOT_INDEX_TREE_VALID)
		s->itree_known = true;
	munmap(map, len);
}

/*
 * The index git works on for the snapshot, so that unchanged files keep
 * their stat data and are not hashed again; and the staged tree when git
 * cached it (git/snapshot-index.h).
 */
static int prepare_index(struct snap *s)
{
	struct stat st;
	cleanup_fd int fd = -1;

	if (link_index(s) < 0) {
		/* no index yet: git starts from an empty one (our name
		 * with no file behind it, not a 0-byte file) */
		if (errno == ENOENT && lstat(s->index.buf, &st) < 0 &&
		    errno == ENOENT)
			return 0;
		if (copy_index(s) < 0)
			return -1;
	}
	fd = open(s->tmp_index.buf, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return fail(s, "cannot read the index", NULL);
	read_cached_tree(s, fd, &st);
	return 0;
}

/* Runs git with the temp index; stdout into out. Returns git's status. */
static int git_tmp_index(struct snap *s, struct strbuf *out,
			 struct strbuf *gerr, const char *const *args)
{
	struct child c = CHILD_INIT;
	int st;

	gitcmd_init(&c, s->o->real_git, s->top.buf);
	gitcmd_keep_heap(&c);
	strvec_pushf(&c.env_set, "GIT_INDEX_FILE=%s", s->tmp_index.buf);
	strvec_pushv(&c.args, args);
	st = gitcmd_run(&c, out, gerr);
	child_release(&c);
	gitcmd_chomp(out);
	return st;
}

/* Whether the temp index is still the very file it was (git replaces the
 * index by renaming a new file over it, so a write changes the inode). */
static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_dev == b->st_dev &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/*
 * The staged tree before the scan (unless the index copy already told
 * it), then the work tree after `add -A`. When `add -A` left the index
 * untouched, the work tree's tree is the staged tree: no second
 * write-tree.
 */
static int scan_worktree(struct snap *s)
{
	static const char *const write_tree[] = { "write-tree", NULL };
	/*
	 * No pathspec: naming an ignored path (the session marker is
	 * ignored through info/exclude) would make `add` fail.
	 * core.bigFileThreshold=1: every new blob goes into one pack
	 * (git's bulk check-in) instead of a loose file each; creating
	 * hundreds of small files is most of the cost of a snapshot on a
	 * journalling file system. Content is the same: files that need a
	 * filter or an eol conversion still take git's normal path.
	 */
	static const char *const add[] = { "-c", "core.bigFileThreshold=1",
					   "add", "-A", NULL };
	struct strbuf gerr = STRBUF_INIT, junk = STRBUF_INIT;
	struct stat before, after;
	bool have_before;
	int ret = 0;

	/* fails with unmerged entries: then there is no staged tree */
	if (!s->itree_known &&
	    git_tmp_index(s, &s->itree, &gerr, write_tree) != 0)
		strbuf_reset(&s->itree);
	strbuf_reset(&gerr);
	have_before = !stat(s->tmp_index.buf, &before);
	if (git_tmp_index(s, &junk, &gerr, add) != 0) {
		ret = fail(s, "git add -A failed", &gerr);
	} else if (have_before && s->itree.len &&
		   !stat(s->tmp_index.buf, &after) && same_file(&before, &after)) {
		strbuf_addbuf(&s->wtree, &s->itree);
	} else if (git_tmp_index(s, &s->wtree, &gerr, write_tree) != 0 ||
		   !s->wtree.len) {
		ret = fail(s, "git write-tree failed", &gerr);
	}
	strbuf_release(&gerr);
	strbuf_release(&junk);
	return ret;
}

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

/* The stash entries, newest first, before `stash drop/clear`. */
static void read_stashes(struct snap *s)
{
	struct strbuf out = STRBUF_INIT;
	char *p;

	if (gitcmd_capture(s->o->real_git, s->top.buf, &out, NULL, "log",
			   "-g", "--format=%H", "refs/stash", "--", NULL) == 0) {
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

/* Invariant 3: the identity and date never come from the environment. */
static int commit_tree(struct snap *s, const char *tree,
		       const struct strvec *parents, const char *msg,
		       struct strbuf *out)
{
	struct child c = CHILD_INIT;
	struct strbuf gerr = STRBUF_INIT;
	int st;

	gitcmd_init(&c, s->o->real_git, s->top.buf);
	strvec_pushl(&c.env_set, "GIT_AUTHOR_NAME=agentic-git",
		     "GIT_AUTHOR_EMAIL=agentic-git@localhost",
		     "GIT_COMMITTER_NAME=agentic-git",
		     "GIT_COMMITTER_EMAIL=agentic-git@localhost", NULL);
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
		st = fail(s, "git commit-tree failed", &gerr);
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
			 gitcmd_capture(s->o->real_git, s->top.buf, NULL, &gerr,
					"update-ref", "-m", msg.buf, ref->buf,
					s->commit.buf, "", NULL) == 0)
			ret = 0;
		else if (lr == LOOSE_REF_EXISTS)
			strbuf_addf(&gerr, "%s exists", ref->buf);
	}
	if (ret < 0) {
		strbuf_reset(ref);
		fail(s, "git update-ref failed", &gerr);
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
			const char *home, const char *who,
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
		gitcmd_init(&c, real_git, dir);
		strvec_pushl(&c.args, "update-ref", "--stdin", NULL);
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
	struct strbuf id = STRBUF_INIT;
	int ret;

	time_compact_utc(s->now, &id);
	strbuf_addf(&id, "-%lu-%s",
		    snapshot_next_seq(s->refs.v, s->refs.nr, s->who,
				      id.buf),
		    s->o->slug);
	ret = quarantine_claim(s->o->home, s->who, id.buf, &s->qdir, s->err);
	strbuf_release(&id);
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

/* What the snapshot must also hold besides the work tree. */
static int plan_extras(struct snap *s)
{
	const struct snapshot_opts *o = s->o;

	if (!strcmp(o->slug, "stash"))
		read_stashes(s);
	/* `end --force` passes clean_args too: worktree removal is a clean -fdx */
	if (strcmp(o->slug, "clean") && !o->clean_args)
		return 0;
	if (!o->home || !*o->home) {
		if (o->quarantine_ignored)
			warning("no AGENTIC_GIT_HOME: the ignored files clean deletes are not quarantined");
		return 0;
	}
	return quarantine_plan_clean(o->real_git, o->dir, s->top.buf,
				     o->clean_args, o->quarantine_ignored,
				     &s->qp, s->err);
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

	if (quarantine_execute(s->top.buf, s->qdir.buf, &s->qp, &qerr) < 0) {
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

int snapshot_take(const struct snapshot_opts *o, struct strbuf *ref_out,
		  struct strbuf *err)
{
	struct snap s = { .o = o, .who = snapshot_who(o->agent),
			  .now = time(NULL), .err = err,
			  .top = STRBUF_INIT, .index = STRBUF_INIT,
			  .commondir = STRBUF_INIT,
			  .head = STRBUF_INIT, .head_tree = STRBUF_INIT,
			  .tmp_index = STRBUF_INIT, .wtree = STRBUF_INIT,
			  .itree = STRBUF_INIT, .icommit = STRBUF_INIT,
			  .commit = STRBUF_INIT, .qdir = STRBUF_INIT,
			  .stashes = STRVEC_INIT, .refs = STRVEC_INIT,
			  .qp = QUARANTINE_PLAN_INIT };
	struct strbuf perr = STRBUF_INIT;
	int ret = -1;

	strbuf_reset(ref_out);
	if (check_opts(o, s.who, err) || locate(&s) || prepare_index(&s) ||
	    scan_worktree(&s) || plan_extras(&s))
		goto out;
	if (nothing_to_lose(&s)) {
		ret = 0;
		goto out;
	}
	if (save_index_commit(&s) ||
	    (!quarantine_plan_empty(&s.qp) && claim_quarantine(&s)))
		goto out;
	if (save_commit(&s) || create_ref(&s, ref_out)) {
		if (s.qdir.len)
			rmdir(s.qdir.buf);
		goto out;
	}
	if (s.qdir.len)
		move_to_quarantine(&s);
	log_taken(&s, ref_out->buf);
	snapshot_prune_refs(o->real_git, s.top.buf, o->home, s.who, &s.refs,
			    s.now, SNAPSHOT_TTL_SECONDS, ref_out->buf, NULL,
			    &perr);
	ret = 0;
out:
	strbuf_release(&perr);
	snap_release(&s);
	return ret;
}

int snapshot_guard(const struct snapshot_opts *o)
{
	struct strbuf ref = STRBUF_INIT, err = STRBUF_INIT;
	int ret = 0;

	if (snapshot_take(o, &ref, &err) < 0) {
		ret = o->quarantine_ignored ? -1 : 0;
		struct event ev = EVENT_INIT("snapshot_failed", o->agent,
					     o->slug);
		fprintf(stderr,
			"agentic-git: warning — pre-op snapshot FAILED (%s); proceeding without a safety net\n",
			err.len ? err.buf : "unknown error");
		event_add_null(&ev, "target_branch");
		event_add_str(&ev, "reason", err.buf);
		event_write(o->home, &ev);
		event_release(&ev);
	}
	strbuf_release(&ref);
	strbuf_release(&err);
	if (o->quarantine_incomplete && *o->quarantine_incomplete)
		ret = -1;
	return ret;
}
