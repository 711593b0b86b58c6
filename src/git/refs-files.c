/* SPDX-License-Identifier: Apache-2.0 */
/* Refs read from the files backend, failing closed (refs-files.h). */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include "base/fileio.h"
#include "base/refname.h"
#include "base/strvec.h"
#include "base/xalloc.h"
#include "git/packed-refs.h"
#include "git/refs-files.h"
#include "git/repo-probe.h"

/* Above this, for-each-ref's binary search beats reading it all. */
#define PACKED_REFS_FAST (1u << 20)
/* A refs tree deeper or larger than this is not "a fresh workspace". */
#define LIST_MAX_DEPTH 16
#define LIST_MAX_REFS 4096

/* The repository's refs are plain files of this hex length (repo-probe.h):
 * else every entry point answers "ask git". */
static bool files_backend(const char *gitdir, size_t hexlen)
{
	const struct repo_probe *p = repo_probe_get(gitdir, NULL);

	return repo_probe_refs_ours(p) && repo_probe_hexlen(p) == hexlen;
}

/* Reads a loose ref file: 0 with the oid appended, 1 missing, -1 odd. */
static int read_loose(const char *path, size_t hexlen, struct strbuf *oid)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	if (read_file_bounded(path, 256, RF_REGULAR, &sb))
		rc = errno == ENOENT ? 1 : -1;
	else if (sb.len != hexlen + 1 || sb.buf[hexlen] != '\n' ||
		 !is_lower_hex(sb.buf, hexlen))
		rc = -1;
	else
		strbuf_add(oid, sb.buf, hexlen);
	strbuf_release(&sb);
	return rc;
}

int refs_files_lookup(const char *gitdir, size_t hexlen,
		      const char *const *refs, size_t n, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT, oid = STRBUF_INIT;
	struct packed_refs packed = PACKED_REFS_INIT;
	bool have_packed = false;
	int rc = files_backend(gitdir, hexlen) ? 0 : -1;

	for (size_t i = 0; i < n && !rc; i++) {
		const struct packed_ref *p;
		if (!refname_valid(refs[i], REFNAME_ONELEVEL)) {
			rc = -1; /* not a name git would give a file */
			break;
		}
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", gitdir, refs[i]);
		strbuf_reset(&oid);
		rc = read_loose(path.buf, hexlen, &oid);
		if (!rc) {
			strbuf_addf(out, "%s %s\n", oid.buf, refs[i]);
			continue;
		}
		if (rc < 0)
			continue;
		rc = 0; /* not loose: packed, or absent */
		if (!have_packed)
			rc = packed_refs_read(&packed, gitdir, hexlen,
					      PACKED_REFS_FAST);
		have_packed = true;
		if (!rc && (p = packed_refs_find(&packed, refs[i])))
			strbuf_addf(out, "%s %s\n", p->oid, refs[i]);
	}
	strbuf_release(&path);
	strbuf_release(&oid);
	packed_refs_release(&packed);
	return rc;
}

/*
 * A refname for-each-ref lists as is: git's rules (base/refname.h) and,
 * on top, nothing outside printable ASCII (git's own sorting of those is
 * not strcmp's).
 */
static bool plain_refname(const char *name)
{
	if (!refname_valid(name, REFNAME_ONELEVEL))
		return false;
	for (const char *c = name; *c; c++)
		if ((unsigned char)*c <= ' ' || (unsigned char)*c >= 0x7f)
			return false;
	return true;
}

static int list_dir(const char *gitdir, struct strbuf *rel, size_t hexlen,
		    int depth, struct strvec *refs)
{
	struct strbuf path = STRBUF_INIT;
	DIR *d;
	struct dirent *de;
	int rc = 0, fd;

	strbuf_addf(&path, "%s/%s", gitdir, rel->buf);
	fd = open(path.buf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		if (fd >= 0)
			close(fd);
		strbuf_release(&path);
		return -1;
	}
	while (!rc && (errno = 0, de = readdir(d))) {
		size_t keep = rel->len;
		struct stat st;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strbuf_addf(rel, "/%s", de->d_name);
		/* a directory is judged as a ref of its name would be: one
		 * ending in '.' goes to git, which is only slower */
		if (!plain_refname(rel->buf) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) <
			    0) {
			rc = -1;
			strbuf_setlen(rel, keep);
			break;
		}
		if (S_ISDIR(st.st_mode) && depth < LIST_MAX_DEPTH) {
			rc = list_dir(gitdir, rel, hexlen, depth + 1, refs);
		} else if (S_ISREG(st.st_mode) && refs->nr < LIST_MAX_REFS) {
			struct strbuf line = STRBUF_INIT;
			strbuf_addf(&path, "/%s", de->d_name);
			rc = read_loose(path.buf, hexlen, &line) ? -1 : 0;
			strbuf_setlen(&path, path.len - strlen(de->d_name) - 1);
			strbuf_addf(&line, " %s", rel->buf);
			strvec_push(refs, line.buf);
			strbuf_release(&line);
		} else {
			rc = -1; /* a symlink, a fifo, too deep or too many */
		}
		strbuf_setlen(rel, keep);
	}
	if (!rc && errno)
		rc = -1;
	closedir(d);
	strbuf_release(&path);
	return rc;
}

static const char *refname_of(const char *line)
{
	return strchr(line, ' ') + 1;
}

static int by_refname(const void *a, const void *b)
{
	return strcmp(refname_of(*(const char *const *)a),
		      refname_of(*(const char *const *)b));
}

/* The "oid refname" lines, by refname, one a line. */
static void put_sorted(struct strvec *refs, struct strbuf *out)
{
	qsort(refs->v, refs->nr, sizeof(*refs->v), by_refname);
	for (size_t i = 0; i < refs->nr; i++)
		strbuf_addf(out, "%s\n", refs->v[i]);
}

int refs_files_list(const char *gitdir, size_t hexlen, struct strbuf *out)
{
	struct strbuf rel = STRBUF_INIT, path = STRBUF_INIT;
	struct strvec refs = STRVEC_INIT;
	struct stat st;
	int rc = 0;

	if (!files_backend(gitdir, hexlen))
		return -1;
	strbuf_addf(&path, "%s/packed-refs", gitdir);
	if (!lstat(path.buf, &st) || errno != ENOENT)
		rc = -1; /* packed refs: ask git */
	strbuf_addstr(&rel, "refs");
	if (!rc)
		rc = list_dir(gitdir, &rel, hexlen, 0, &refs);
	if (!rc)
		put_sorted(&refs, out);
	strvec_clear(&refs);
	strbuf_release(&rel);
	strbuf_release(&path);
	return rc;
}

/*
 * The loose refs under rel (a prefix without its '/'): 0 also when a
 * directory on the way does not exist, -1 when one is not a directory.
 */
static int list_loose_under(const char *gitdir, struct strbuf *rel,
			    size_t hexlen, struct strvec *refs)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int rc = 0;

	for (const char *p = rel->buf;; p++) {
		if (*p && *p != '/')
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%.*s", gitdir, (int)(p - rel->buf), rel->buf);
		if (lstat(path.buf, &st) < 0) {
			rc = errno == ENOENT ? 1 : -1;
			break;
		}
		if (!S_ISDIR(st.st_mode)) {
			rc = -1;
			break;
		}
		if (!*p)
			break;
	}
	strbuf_release(&path);
	if (rc)
		return rc > 0 ? 0 : -1;
	return list_dir(gitdir, rel, hexlen, 0, refs);
}

/* Among the first n of refs ("oid refname" lines)? */
static bool listed(const struct strvec *refs, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(refname_of(refs->v[i]), name))
			return true;
	return false;
}

/* Adds the packed refs under prefix that no loose ref overrides. */
static int list_packed_under(const char *gitdir, const char *prefix,
			     size_t hexlen, struct strvec *refs)
{
	struct packed_refs pr = PACKED_REFS_INIT;
	size_t loose = refs->nr;
	int rc = packed_refs_read(&pr, gitdir, hexlen, PACKED_REFS_FAST);

	for (size_t i = 0; !rc && i < pr.nr; i++) {
		const char *name = pr.v[i].name;
		if (!plain_refname(name))
			rc = -1;
		else if (!starts_with(name, prefix) || listed(refs, loose, name))
			continue;
		else if (refs->nr >= LIST_MAX_REFS)
			rc = -1;
		else
			strvec_pushf(refs, "%s %s", pr.v[i].oid, name);
	}
	packed_refs_release(&pr);
	return rc;
}

int refs_files_list_prefix(const char *gitdir, size_t hexlen,
			   const char *prefix, struct strbuf *out)
{
	struct strbuf rel = STRBUF_INIT;
	struct strvec refs = STRVEC_INIT;
	int rc = -1;

	if (files_backend(gitdir, hexlen) && starts_with(prefix, "refs/") &&
	    ends_with(prefix, "/"))
		strbuf_add(&rel, prefix, strlen(prefix) - 1);
	if (rel.len && plain_refname(rel.buf)) {
		rc = list_loose_under(gitdir, &rel, hexlen, &refs);
		if (!rc)
			rc = list_packed_under(gitdir, prefix, hexlen, &refs);
	}
	if (!rc)
		put_sorted(&refs, out);
	strvec_clear(&refs);
	strbuf_release(&rel);
	return rc;
}
