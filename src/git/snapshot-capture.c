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
#include "base/fileio.h"
#include "base/path.h"
#include "git/gitcmd.h"
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
		snap_fail(s, st < 0 ? "cannot run git" : "not in a git work tree",
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
		return snap_fail(s, "cannot read the index", NULL);
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
		ret = snap_fail(s, "git add -A failed", &gerr);
	} else if (have_before && s->itree.len &&
		   !stat(s->tmp_index.buf, &after) && same_file(&before, &after)) {
		strbuf_addbuf(&s->wtree, &s->itree);
	} else if (git_tmp_index(s, &s->wtree, &gerr, write_tree) != 0 ||
		   !s->wtree.len) {
		ret = snap_fail(s, "git write-tree failed", &gerr);
	}
	strbuf_release(&gerr);
	strbuf_release(&junk);
	return ret;
}

int snap_capture(struct snap *s)
{
	return locate(s) || prepare_index(s) || scan_worktree(s) ? -1 : 0;
}
