/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Symbolic links where we write in a git dir; see owned-links.h.
 */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include "base/path.h"
#include "base/xalloc.h"
#include "git/owned-links.h"

#define MAX_DEPTH 24

/*
 * `path` itself, without following it; 1 when it is a link, or anything
 * but a regular file or a directory (a FIFO there would hang git, F8).
 */
static int is_link(const char *path, struct strbuf *where)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : (strbuf_addstr(where, path), 1);
	if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
		return 0;
	strbuf_addstr(where, path);
	return 1;
}

/* Invariant 1: every entry below `dir`, `depth` levels at most. */
static int walk(const char *dir, int depth, struct strbuf *where)
{
	struct dirent *e;
	DIR *d;
	int rc = 0;

	if (is_link(dir, where))
		return 1;
	d = opendir(dir);
	if (!d) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		strbuf_addstr(where, dir); /* invariant 2 */
		return 1;
	}
	while (!rc && (e = readdir(d))) {
		char *p;
		unsigned char type = e->d_type;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		p = path_join(dir, e->d_name);
		if (type == DT_UNKNOWN) {
			struct stat st;
			type = lstat(p, &st) < 0     ? DT_UNKNOWN
			       : S_ISLNK(st.st_mode) ? DT_LNK
			       : S_ISDIR(st.st_mode) ? DT_DIR
						     : DT_REG;
		}
		if (type != DT_DIR && type != DT_REG) {
			/* a link, a FIFO, a socket, a device */
			strbuf_addstr(where, p);
			rc = 1;
		} else if (type == DT_DIR && depth > 0) {
			rc = walk(p, depth - 1, where);
		}
		free(p);
	}
	closedir(d);
	return rc;
}

int gitdir_links_find(const char *gitdir, struct strbuf *where)
{
	static const char *const files[] = { "HEAD",	    "index",
					     "packed-refs", "config",
					     "shallow",	    "commondir",
					     "gitdir",	    "config.worktree" };
	static const struct {
		const char *name;
		int depth;
	} dirs[] = { { "refs", MAX_DEPTH },
		     { "logs", MAX_DEPTH },
		     { "objects", 1 } };
	int rc = 0;

	if (is_link(gitdir, where))
		return 1;
	for (size_t i = 0; !rc && i < ARRAY_SIZE(files); i++) {
		char *p = path_join(gitdir, files[i]);
		rc = is_link(p, where);
		free(p);
	}
	for (size_t i = 0; !rc && i < ARRAY_SIZE(dirs); i++) {
		char *p = path_join(gitdir, dirs[i].name);
		rc = walk(p, dirs[i].depth, where);
		free(p);
	}
	return rc;
}
