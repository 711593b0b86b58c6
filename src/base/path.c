/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/fileio.h"
#include "base/path.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

char *real_path(const char *path)
{
	return realpath(path, NULL);
}

bool same_real_path(const char *a, const char *b)
{
	char *ra = a ? real_path(a) : NULL, *rb = b ? real_path(b) : NULL;
	bool same = ra && rb && !strcmp(ra, rb);

	free(ra);
	free(rb);
	return same;
}

/*
 * The kernel's name for an open directory, in a buffer of `size`: its
 * length, or -1 (or >= size: did not fit).
 */
static ssize_t fd_dir_name(int fd, char *buf, size_t size)
{
	struct strbuf link = STRBUF_INIT;
	ssize_t n;

	strbuf_addstr(&link, "/proc/self/fd/");
	strbuf_addu(&link, (unsigned long)fd);
	n = readlink(link.buf, buf, size);
	strbuf_release(&link);
	return n;
}

char *real_dir_path(const char *path)
{
	/* most names fit the small buffer, which keeps the shim's hot path
	 * off a fresh stack page (docs/architecture.md) */
	char small[256], *buf = small, *big = NULL;
	size_t size = sizeof(small);
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ssize_t n = -1;

	if (fd >= 0) {
		n = fd_dir_name(fd, buf, size);
		if (n >= (ssize_t)size) {
			buf = big = xmalloc(size = PATH_MAX);
			n = fd_dir_name(fd, buf, size);
		}
		fd_done(fd);
	}
	if (n > 0 && (size_t)n < size) {
		buf[n] = '\0';
		/* " (deleted)" is the kernel's mark for a removed directory; a
		 * directory really named so is left to realpath */
		if (buf[0] == '/' && !ends_with(buf, " (deleted)"))
			return big ? big : xstrdup(buf);
	}
	free(big);
	return realpath(path, NULL);
}

char *path_join(const char *a, const char *b)
{
	struct strbuf sb = STRBUF_INIT;

	if (b[0] == '/' || !a[0])
		return xstrdup(b);
	if (!b[0])
		return xstrdup(a);
	strbuf_addstr(&sb, a);
	if (!ends_with(a, "/"))
		strbuf_addch(&sb, '/');
	strbuf_addstr(&sb, b);
	return strbuf_detach(&sb, NULL);
}

void path_normalize(struct strbuf *sb)
{
	struct strbuf out = STRBUF_INIT;
	const char *p = sb->buf;
	bool abs = *p == '/';

	while (*p) {
		const char *seg;
		size_t n;

		while (*p == '/')
			p++;
		seg = p;
		while (*p && *p != '/')
			p++;
		n = (size_t)(p - seg);
		if (!n || (n == 1 && seg[0] == '.'))
			continue;
		if (n == 2 && seg[0] == '.' && seg[1] == '.') {
			char *slash = strrchr(out.buf, '/');
			if (slash)
				strbuf_setlen(&out, (size_t)(slash - out.buf));
			else if (!abs)
				strbuf_addstr(&out, out.len ? "/.." : "..");
			continue;
		}
		if (out.len || abs)
			strbuf_addch(&out, '/');
		strbuf_add(&out, seg, n);
	}
	if (!out.len)
		strbuf_addstr(&out, abs ? "/" : ".");
	strbuf_reset(sb);
	strbuf_addbuf(sb, &out);
	strbuf_release(&out);
}

char *path_absolute(const char *p)
{
	struct strbuf sb = STRBUF_INIT;

	if (p[0] != '/') {
		char *cwd = getcwd(NULL, 0);

		if (!cwd)
			return NULL;
		strbuf_addf(&sb, "%s/", cwd);
		free(cwd);
	}
	strbuf_addstr(&sb, p);
	path_normalize(&sb);
	return strbuf_detach(&sb, NULL);
}

bool path_inside(const char *path, const char *dir, const char **rel)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/') {
		if (path[0] != '/')
			return false;
		*rel = path + 1;
		return true;
	}
	if (strncmp(path, dir, n))
		return false;
	if (path[n] == '\0') {
		*rel = path + n;
		return true;
	}
	if (path[n] != '/')
		return false;
	*rel = path + n + 1;
	return true;
}

char *path_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

const char *path_basename(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

const char *self_exe(void)
{
	static char *cached; /* owned */
	if (!cached)
		cached = realpath("/proc/self/exe", NULL);
	return cached;
}

/* `name` beside this executable, if it is a regular executable file there
 * (malloc'd), else NULL. */
static char *beside_self(const char *self, const char *name)
{
	char *dir = path_dirname(self);
	char *cand = path_join(dir, name);
	struct stat st;

	free(dir);
	if (!stat(cand, &st) && S_ISREG(st.st_mode) && !access(cand, X_OK))
		return cand;
	free(cand);
	return NULL;
}

const char *shim_exe(void)
{
	static char *cached; /* owned */
	const char *self = self_exe();

	if (cached || !self)
		return cached ? cached : self;
	if (!strcmp(path_basename(self), "agentic-git-shim"))
		return cached = xstrdup(self);
	cached = beside_self(self, "agentic-git-shim");
	if (!cached)
		cached = xstrdup(self);
	return cached;
}

const char *proxy_exe(void)
{
	static char *cached; /* owned */
	static bool looked;
	const char *self = self_exe();

	if (looked || !self)
		return cached;
	looked = true;
	if (!strcmp(path_basename(self), "agentic-git-proxy"))
		return cached = xstrdup(self);
	return cached = beside_self(self, "agentic-git-proxy");
}
