// SPDX-License-Identifier: Apache-2.0
/*
 * Work the index hides from the capture (git/snapshot-hidden.h): the
 * assume-unchanged and skip-worktree bits of the snapshot's private
 * index, cleared before `add -A` scans the work tree, so a tracked file
 * whose changes git was told to overlook is in the snapshot all the same.
 * Only the private index is changed (git writes it by rename: the real
 * index, a second name for the same file until then, keeps its bits).
 *
 * A skip-worktree entry whose file is absent is what a sparse checkout
 * is made of: that file is not work, and clearing its bit would record it
 * as deleted. Only the entries whose file is in the work tree lose it.
 */
#include "git/snapshot-hidden.h"
#include <ctype.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/bigendian.h"
#include "git/gitcmd.h"
#include "git/repo-probe.h"
#include "git/snapshot-int.h"

#define HDR_LEN 12
#define STAT_LEN 40
#define F_VALID 0x8000 /* assume-unchanged */
#define F_EXTENDED 0x4000
#define XF_SKIP_WORKTREE 0x4000

/* The entry after the one at p (NULL: malformed); sets *hides. */
static const unsigned char *next_entry(const unsigned char *p,
				       const unsigned char *end,
				       unsigned version, size_t hash_len,
				       bool *hides)
{
	size_t fixed = STAT_LEN + hash_len + 2, size;
	const unsigned char *name, *nul;
	unsigned flags;

	if ((size_t)(end - p) < fixed)
		return NULL;
	flags = get_be16(p + STAT_LEN + hash_len);
	*hides |= (flags & F_VALID) != 0;
	if (flags & F_EXTENDED) {
		if (version < 3 || (size_t)(end - p) < fixed + 2)
			return NULL;
		*hides |= (get_be16(p + fixed) & XF_SKIP_WORKTREE) != 0;
		fixed += 2;
	}
	name = p + fixed;
	if (version == 4) {
		/* the varint (bytes cut off the previous path), then the
		 * rest of the path up to its NUL; no padding */
		while (name < end && (*name & 0x80))
			name++;
		if (name++ >= end)
			return NULL;
		nul = memchr(name, '\0', (size_t)(end - name));
		return nul ? nul + 1 : NULL;
	}
	nul = memchr(name, '\0', (size_t)(end - name));
	if (!nul)
		return NULL;
	/* padded with 1 to 8 NULs to a multiple of 8 */
	size = (fixed + (size_t)(nul - name) + 8) & ~(size_t)7;
	return (size_t)(end - p) < size ? NULL : p + size;
}

enum snapshot_hidden snapshot_index_hidden(const unsigned char *buf, size_t len,
					   size_t hash_len)
{
	const unsigned char *p, *end;
	unsigned version;
	uint32_t nr;
	bool hides = false;

	if ((hash_len != 20 && hash_len != 32) || len < HDR_LEN + hash_len ||
	    memcmp(buf, "DIRC", 4))
		return SNAPSHOT_HIDDEN_UNKNOWN;
	version = get_be32(buf + 4);
	nr = get_be32(buf + 8);
	if (version < 2 || version > 4)
		return SNAPSHOT_HIDDEN_UNKNOWN;
	p = buf + HDR_LEN;
	end = buf + len - hash_len; /* the trailing checksum */
	for (uint32_t i = 0; i < nr; i++)
		if (!(p = next_entry(p, end, version, hash_len, &hides)))
			return SNAPSHOT_HIDDEN_UNKNOWN;
	if (hides)
		return SNAPSHOT_HIDDEN_SOME;
	while (p < end) {
		uint32_t size;

		if (end - p < 8)
			return SNAPSHOT_HIDDEN_UNKNOWN;
		size = get_be32(p + 4);
		if ((size_t)(end - p - 8) < size || !memcmp(p, "link", 4))
			return SNAPSHOT_HIDDEN_UNKNOWN;
		p += 8 + size;
	}
	return SNAPSHOT_HIDDEN_NONE;
}

bool snap_index_may_hide(const char *path, const char *commondir,
			 const char *gitdir)
{
	size_t hash_len =
		repo_probe_hexlen(repo_probe_get(commondir, gitdir)) / 2;
	cleanup_fd int fd =
		open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	enum snapshot_hidden h = SNAPSHOT_HIDDEN_UNKNOWN;
	struct stat st;
	void *map;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size <= 0)
		return true;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ,
		   MAP_PRIVATE | MAP_POPULATE, fd, 0);
	if (map == MAP_FAILED)
		return true;
	h = snapshot_index_hidden(map, (size_t)st.st_size, hash_len);
	munmap(map, (size_t)st.st_size);
	return h != SNAPSHOT_HIDDEN_NONE;
}

/* Sorts `git ls-files -v -z` entries ("<tag> <path>" NUL) into the paths
 * that lose their assume-unchanged bit (a lowercase tag) and those that
 * lose skip-worktree (`S`, `s`: when the file is there), each list
 * NUL-separated for `update-index -z --stdin`. */
static void sort_hidden(const struct snap *s, const struct strbuf *ls,
			struct strbuf *valid, struct strbuf *skip)
{
	struct strbuf path = STRBUF_INIT;
	struct stat sb;

	for (size_t at = 0; at < ls->len;) {
		const char *e = ls->buf + at;
		size_t len = strlen(e);

		at += len + 1;
		if (len < 3 || e[1] != ' ')
			continue;
		if (e[0] == 'm' || e[0] == 'M')
			continue; /* unmerged: write-tree fails on it anyway */
		if (islower((unsigned char)e[0]))
			strbuf_add(valid, e + 2, len - 1);
		if (e[0] != 'S' && e[0] != 's')
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", s->top.buf, e + 2);
		if (!lstat(path.buf, &sb))
			strbuf_add(skip, e + 2, len - 1);
	}
	strbuf_release(&path);
}

/* `update-index <flag> -z --stdin` on the private index, for `paths`. */
static int clear_bit(struct snap *s, const char *flag,
		     const struct strbuf *paths)
{
	static const char *const none[] = { NULL };
	struct child c = CHILD_INIT;
	struct strbuf gerr = STRBUF_INIT;
	int ret = 0;

	if (!paths->len)
		return 0;
	snap_index_child(s, &c, s->top.buf, s->tmp_index.buf, none);
	strvec_pushl(&c.args, "update-index", flag, "-z", "--stdin", NULL);
	c.in = paths->buf;
	c.in_len = paths->len;
	if (gitcmd_run(&c, NULL, &gerr) != 0)
		ret = snap_fail(s, "git update-index of hidden files failed",
				&gerr);
	child_release(&c);
	strbuf_release(&gerr);
	return ret;
}

int snap_unhide(struct snap *s)
{
	static const char *const ls_args[] = { "ls-files", "-v", "-z", NULL };
	struct strbuf ls = STRBUF_INIT, valid = STRBUF_INIT, skip = STRBUF_INIT,
		      gerr = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int ret = 0;

	if (!s->tmp_index.len || access(s->tmp_index.buf, F_OK) ||
	    !snap_index_may_hide(s->tmp_index.buf, s->commondir.buf,
				 s->gitdir.buf))
		return 0;
	snap_index_child(s, &c, s->top.buf, s->tmp_index.buf, ls_args);
	if (gitcmd_run(&c, &ls, &gerr) != 0) {
		ret = snap_fail(s, "git ls-files -v failed", &gerr);
		goto out;
	}
	sort_hidden(s, &ls, &valid, &skip);
	ret = clear_bit(s, "--no-assume-unchanged", &valid);
	if (!ret)
		ret = clear_bit(s, "--no-skip-worktree", &skip);
out:
	child_release(&c);
	strbuf_release(&ls);
	strbuf_release(&valid);
	strbuf_release(&skip);
	strbuf_release(&gerr);
	return ret;
}
