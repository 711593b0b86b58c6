/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The snapshot's capture (git/snapshot-int.h): where the work tree is, the
 * private index, and the one scan of the work tree (`add -A` into that
 * index). Everything here reads the work tree; nothing here records.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "base/die.h"
#include "base/fileio.h"
#include "base/path.h"
#include "git/gitcmd.h"
#include "git/repo.h"
#include "git/repo-probe.h"
#include "git/snapshot-index.h"
#include "git/snapshot-int.h"
#include "git/snapshot-name.h"
#include "git/snapshot-tmp.h"

/* an index this large (tens of millions of files) is not copied */
#define SNAPSHOT_INDEX_MAX ((size_t)1 << 30)

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

int snap_fail(struct snap *s, const char *what, struct strbuf *gerr)
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
	     *common = next_line(&p), *gitdir = next_line(&p), *l;

	if (!top || !*top || !index || !*index || !common || !*common ||
	    !gitdir || gitdir[0] != '/')
		return -1;
	strbuf_addstr(&s->top, top);
	strbuf_addstr(&s->gitdir, gitdir);
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
 * Whether the snapshot may format its trees and commits itself and write
 * them as one pack (git/packw.h): a SHA-1 repository (HEAD's id has 40
 * digits; unborn, we cannot tell) that the repository probe says is ours
 * to write (git/repo-probe.h: no other object format, no shared
 * repository, nothing it does not know). Anything else: git write-tree
 * and commit-tree.
 */
static bool objects_ours(struct snap *s)
{
	const struct repo_probe *p;

	p = repo_probe_get(s->commondir.buf, s->gitdir.buf);
	return s->head.len == 40 && repo_probe_objects_ours(p);
}

int snap_flush_objects(struct snap *s)
{
	struct strbuf dir = STRBUF_INIT;
	int ret;

	if (!packw_count(&s->pw))
		return 0;
	strbuf_addpath(&dir, s->commondir.buf, "objects");
	ret = packw_finish(&s->pw, dir.buf, s->err);
	strbuf_release(&dir);
	return ret;
}

/*
 * The work tree's top, its index file, HEAD (commit and tree) and the
 * names of the agent's snapshot refs (for the seq and the TTL prune), in
 * one git call; `born` false leaves HEAD out (an unborn HEAD fails it).
 * --symbolic: the refs after it print as names, not object ids.
 */
static void locate_child(struct snap *s, struct child *c, bool born)
{
	gitcmd_init(c, s->o->real_git, s->o->dir);
	/* the repository the operation names itself (its git dir, its work
	 * tree), as the operation will see it: from here on every call is
	 * given the git dir and top this call finds */
	if (s->o->git_dir && *s->o->git_dir)
		strvec_pushf(&c->env_set, "GIT_DIR=%s", s->o->git_dir);
	if (s->o->work_tree && *s->o->work_tree)
		strvec_pushf(&c->env_set, "GIT_WORK_TREE=%s", s->o->work_tree);
	strvec_pushl(&c->args, "rev-parse", "--show-toplevel", "--git-path",
		     "index", "--git-common-dir", "--absolute-git-dir", NULL);
	if (born)
		strvec_pushl(&c->args, "HEAD", "HEAD^{tree}", NULL);
	strvec_push(&c->args, "--symbolic");
	strvec_pushf(&c->args, "--glob=%s%s/*", SNAPSHOT_REF_PREFIX, s->who);
}

static int locate_run(struct snap *s, bool born, struct strbuf *out,
		      struct strbuf *gerr)
{
	struct child c = CHILD_INIT;
	int st;

	locate_child(s, &c, born);
	st = gitcmd_run(&c, out, gerr);
	child_release(&c);
	return st;
}

/* rev-parse's status `st` and answer (HEAD left out when it failed with
 * st > 0: unborn, or worse, and then the second call says why). */
static int locate_end(struct snap *s, int st, struct strbuf *out,
		      struct strbuf *gerr)
{
	bool born = st == 0;

	if (st > 0) {
		strbuf_reset(out);
		strbuf_reset(gerr);
		st = locate_run(s, false, out, gerr);
	}
	if (st == 0 && !parse_locate(s, out->buf, born)) {
		s->own_objects = objects_ours(s);
		return 0;
	}
	return snap_fail(s, st < 0 ? "cannot run git" : "not in a git work tree",
			 gerr);
}

static int locate(struct snap *s)
{
	struct strbuf out = STRBUF_INIT, gerr = STRBUF_INIT;
	int ret = locate_end(s, locate_run(s, true, &out, &gerr), &out, &gerr);

	strbuf_release(&out);
	strbuf_release(&gerr);
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
		return snap_fail(s, "cannot read the index", NULL);
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
 * The tree of the index file at `path` without git (git/snapshot-index.h):
 * git's cached root, or, when the snapshot writes its own objects, the
 * trees built from the entries. The bytes are mapped, not read: no copy;
 * MAP_POPULATE maps them in one call, not a page fault every few pages.
 * The file is ours and git replaces it by rename, never truncates it, so
 * the mapping stays whole while we read it. 1: `tree` holds it; 0: git
 * must tell; -1: the file cannot be read. Only in a repository whose index
 * the probe says is ours (git/repo-probe.h), of HEAD's object format.
 */
static int index_tree(struct snap *s, const char *path, struct strbuf *tree)
{
	cleanup_fd int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	const struct repo_probe *p;
	struct stat st;
	size_t len;
	void *map;
	int ret;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	len = (size_t)st.st_size;
	p = repo_probe_get(s->commondir.buf, s->gitdir.buf);
	if (!s->head.len || !repo_probe_index_ours(p) ||
	    s->head.len != repo_probe_hexlen(p) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > SNAPSHOT_INDEX_MAX)
		return 0;
	map = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	if (map == MAP_FAILED)
		return 0;
	ret = snapshot_index_build(map, len, s->head.len / 2,
				   s->own_objects ? &s->pw : NULL, tree) ==
	      SNAPSHOT_INDEX_TREE_VALID;
	munmap(map, len);
	return ret;
}

/* The staged tree from the index file at `path` when it can be read
 * without git (s->itree_known). */
static int cached_tree_of(struct snap *s, const char *path)
{
	int r = index_tree(s, path, &s->itree);

	if (r < 0)
		return snap_fail(s, "cannot read the index", NULL);
	s->itree_known = r > 0;
	return 0;
}

/*
 * The index git works on for the snapshot, so that unchanged files keep
 * their stat data and are not hashed again; and the staged tree when git
 * cached it (git/snapshot-index.h).
 */
static int prepare_index(struct snap *s)
{
	struct stat st;

	if (link_index(s) < 0) {
		/* no index yet: git starts from an empty one (our name
		 * with no file behind it, not a 0-byte file) */
		if (errno == ENOENT && lstat(s->index.buf, &st) < 0 &&
		    errno == ENOENT)
			return 0;
		if (copy_index(s) < 0)
			return -1;
	}
	return cached_tree_of(s, s->tmp_index.buf);
}

void snap_git_init(struct snap *s, struct child *c)
{
	gitcmd_init_repo(c, s->o->real_git, s->gitdir.buf, s->top.buf);
}

/*
 * git with `index` as its index: in the located repository, or, before
 * rev-parse has answered (the overlapped scan), found from `top` by git's
 * own discovery, which also keeps git's safe.directory check.
 */
void snap_index_child(struct snap *s, struct child *c, const char *top,
		      const char *index, const char *const *args)
{
	if (s->gitdir.len)
		snap_git_init(s, c);
	else
		gitcmd_init(c, s->o->real_git, top);
	gitcmd_keep_heap(c);
	strvec_pushf(&c->env_set, "GIT_INDEX_FILE=%s", index);
	strvec_pushv(&c->args, args);
}

/* Runs git on `index`; stdout into out. Returns git's status. */
static int git_index(struct snap *s, const char *index, struct strbuf *out,
		     struct strbuf *gerr, const char *const *args)
{
	struct child c = CHILD_INIT;
	int st;

	snap_index_child(s, &c, s->top.buf, index, args);
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

static const char *const write_tree[] = { "write-tree", NULL };
/*
 * No pathspec: naming an ignored path (the session marker is ignored
 * through info/exclude) would make `add` fail. core.bigFileThreshold=1:
 * every new blob goes into one pack (git's bulk check-in) instead of a
 * loose file each; creating hundreds of small files is most of the cost
 * of a snapshot on a journalling file system. Content is the same: files
 * that need a filter or an eol conversion still take git's normal path.
 *
 * What the repository's config or state must not make fail or overlook
 * (each a key or a command a bound agent may use): core.safecrlf=false,
 * or `core.autocrlf=true` with `core.safecrlf=true` makes `add` die on
 * the first file with LF endings and the snapshot fail; --sparse, or in
 * a sparse checkout every untracked file outside the sparse patterns is
 * refused (and add exits 1); --ignore-errors, or the first file git
 * cannot index stops the whole scan: a nested repository with no commit
 * yet (`git init sub`: there is no gitlink to record), an unreadable
 * file. With it git adds everything else, writes the index and exits 1.
 */
static const char *const add_all[] = { "-c",	   "core.bigFileThreshold=1",
				       "-c",	   "core.safecrlf=false",
				       "add",	   "-A",
				       "--sparse", "--ignore-errors",
				       NULL };

/* add_all's status: 1 is files left out (--ignore-errors), the rest of
 * the work tree in the index all the same */
static bool add_all_done(int st)
{
	return st == 0 || st == 1;
}

/* The staged tree, from `index` as it was before the scan, unless git's
 * cached tree already told it; none with unmerged entries. */
static void staged_tree(struct snap *s, const char *index)
{
	struct strbuf gerr = STRBUF_INIT;

	if (!s->itree_known && git_index(s, index, &s->itree, &gerr,
					 write_tree) != 0)
		strbuf_reset(&s->itree);
	strbuf_release(&gerr);
}

/*
 * The work tree's tree after `add -A` (its status `st`, stderr `gerr`).
 * When `add -A` left the index untouched (`before` is the index file's
 * stat before it ran), it is the staged tree: no second write-tree.
 */
static int worktree_tree(struct snap *s, int st, struct strbuf *gerr,
			 bool have_before, const struct stat *before)
{
	struct stat after;

	if (!add_all_done(st))
		return snap_fail(s, "git add -A failed", gerr);
	if (st == 1) {
		/* the rest is saved; say what is not, in git's words: its
		 * first error, not a warning about an embedded repository */
		const char *line = strstr(gerr->buf, "error: ");
		const char *nl;

		if (!line || (line != gerr->buf && line[-1] != '\n'))
			line = gerr->buf;
		nl = strchrnul(line, '\n');
		warning("the pre-op snapshot leaves out what git could not add (%.*s)",
			(int)(nl - line), line);
		s->partial = true;
	}
	if (have_before && s->itree.len && !stat(s->tmp_index.buf, &after) &&
	    same_file(before, &after)) {
		strbuf_addbuf(&s->wtree, &s->itree);
		return 0;
	}
	if (s->own_objects && index_tree(s, s->tmp_index.buf, &s->wtree) > 0)
		return 0;
	strbuf_reset(&s->wtree);
	strbuf_reset(gerr);
	if (git_index(s, s->tmp_index.buf, &s->wtree, gerr, write_tree) != 0 ||
	    !s->wtree.len)
		return snap_fail(s, "git write-tree failed", gerr);
	return 0;
}

/* The staged tree, then the work tree's, one after the other. */
static int scan_worktree(struct snap *s)
{
	struct strbuf gerr = STRBUF_INIT, junk = STRBUF_INIT;
	struct stat before;
	bool have_before;
	int st, ret;

	staged_tree(s, s->tmp_index.buf);
	have_before = !stat(s->tmp_index.buf, &before);
	st = git_index(s, s->tmp_index.buf, &junk, &gerr, add_all);
	ret = worktree_tree(s, st, &gerr, have_before, &before);
	strbuf_release(&gerr);
	strbuf_release(&junk);
	return ret;
}

/*
 * What the next capture may reuse: the private index's entries that the
 * real index (`real`) has not. When `add -A` left the private index the
 * real index's very file, there are none.
 */
static void collect_untracked(struct snap *s, const char *real, bool merged,
			      const struct timespec *scan_at)
{
	struct stat a, b;

	if (!merged && !stat(real, &a) && !stat(s->tmp_index.buf, &b) &&
	    a.st_ino == b.st_ino && a.st_dev == b.st_dev) {
		snapshot_ucache_release(&s->uc);
		s->uc.ready = true;
		return;
	}
	snapshot_ucache_collect(&s->uc, s->commondir.buf, s->top.buf, real,
				s->tmp_index.buf, scan_at);
}

/*
 * The overlapped capture. rev-parse (for HEAD and the agent's refs) and
 * `add -A` (the scan, the longest step) run at the same time: `add` needs
 * only the work tree's top and its index, which the .git files tell
 * (git/repo.h). What the .git files said is checked against rev-parse's
 * answer before anything is used; on any difference the result is thrown
 * away and the capture runs again, one step after the other.
 *
 * The staged tree needs the hash length, known from rev-parse only, and
 * the index as it was before the scan: a second link keeps that file.
 *
 * 0, -1 (error set), or 1: not taken this way (nothing kept in `s`).
 */
static int capture_overlapped(struct snap *s)
{
	struct repo_loc loc = { 0 };
	struct child rp = CHILD_INIT, add = CHILD_INIT;
	struct strbuf index = STRBUF_INIT, before_scan = STRBUF_INIT,
		      out = STRBUF_INIT, gerr = STRBUF_INIT;
	struct stat before;
	struct timespec scan_at;
	size_t err_len = s->err->len;
	int ret = 1, rps = -1, merged = 0;

	/* a repository named by the operation is not the one around dir */
	if ((s->o->git_dir && *s->o->git_dir) ||
	    (s->o->work_tree && *s->o->work_tree) ||
	    repo_discover(s->o->dir, &loc) != REPO_FOUND || !loc.top)
		goto out;
	strbuf_addf(&index, "%s/index", loc.gitdir);
	/* bits to clear before the scan (git/snapshot-hidden.h): the
	 * plain way clears them, once rev-parse has answered */
	if (snap_index_may_hide(index.buf, loc.commondir, loc.gitdir))
		goto out;
	snapshot_tmp_sweep(loc.gitdir);
	snapshot_tmp_name(&s->tmp_index, loc.gitdir);
	snapshot_tmp_name(&before_scan, loc.gitdir);
	if (link(index.buf, before_scan.buf) < 0) {
		strbuf_reset(&before_scan);
		goto out; /* no index yet, or no links: the plain way */
	}
	/* the real index and what the last capture learnt of the untracked
	 * files (git/snapshot-ucache.h), or the real index itself */
	merged = snapshot_ucache_merge(loc.gitdir, loc.commondir, loc.top,
				       before_scan.buf, s->tmp_index.buf);
	if ((merged <= 0 && link(before_scan.buf, s->tmp_index.buf) < 0) ||
	    merged < 0) {
		strbuf_reset(&s->tmp_index);
		goto out;
	}
	if (stat(s->tmp_index.buf, &before) < 0)
		goto out;
	locate_child(s, &rp, true);
	rp.capture_out = rp.capture_err = true;
	snap_index_child(s, &add, loc.top, s->tmp_index.buf, add_all);
	add.capture_out = add.capture_err = true;
	if (child_start(&rp) < 0)
		goto out;
	clock_gettime(CLOCK_REALTIME_COARSE, &scan_at);
	if (child_start(&add) < 0) {
		child_finish(&rp);
		goto out;
	}
	if (!child_finish(&rp))
		rps = rp.status;
	strbuf_addbuf(&out, &rp.out);
	strbuf_addbuf(&gerr, &rp.err);
	strbuf_rtrim(&gerr);
	ret = locate_end(s, rps, &out, &gerr);
	if (!ret && (!same_real_path(s->top.buf, loc.top) ||
		     !same_real_path(s->index.buf, index.buf) ||
		     !same_real_path(s->commondir.buf, loc.commondir)))
		ret = 1; /* the .git files misled us: start over */
	if (!ret)
		ret = cached_tree_of(s, before_scan.buf);
	if (!ret)
		staged_tree(s, before_scan.buf);
	strbuf_reset(&gerr);
	if (child_finish(&add) < 0)
		add.status = -1;
	strbuf_addbuf(&gerr, &add.err);
	strbuf_rtrim(&gerr);
	if (!ret)
		ret = worktree_tree(s, add.status, &gerr, merged <= 0, &before);
	if (!ret)
		collect_untracked(s, before_scan.buf, merged > 0, &scan_at);
out:
	s->merged = merged > 0 && !ret;
	if (ret > 0) {
		/* forget everything: the plain way starts from nothing */
		snap_release(s);
		s->itree_known = false;
		strbuf_setlen(s->err, err_len);
	}
	if (before_scan.len)
		unlink(before_scan.buf);
	child_release(&rp);
	child_release(&add);
	repo_loc_release(&loc);
	strbuf_release(&index);
	strbuf_release(&before_scan);
	strbuf_release(&out);
	strbuf_release(&gerr);
	return ret;
}

int snap_capture(struct snap *s)
{
	int ret = capture_overlapped(s);

	if (ret <= 0)
		return ret;
	return locate(s) || prepare_index(s) || snap_unhide(s) ||
			       scan_worktree(s)
		       ? -1
		       : 0;
}
