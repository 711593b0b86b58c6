/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Invariants:
 *  1. MUST NOT return a path that canonicalises to the running executable
 *     (same inode) or to any file named agentic-git / agentic-git-shim (a
 *     self-referential REAL_GIT would recurse or land in the CLI).
 *  2. MUST NOT search <home>/bin, where the shim lives.
 *  3. Only regular executable files qualify.
 */
#include "base/common.h"
#include <string.h>
#include <sys/stat.h>
#include "base/envvar.h"
#include "base/path.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "git/realgit.h"

/*
 * c (canonical, stat'ed as st) is this executable (same inode: one stat of
 * /proc/self/exe, not a realpath of it on the hot path) or an installed
 * agentic-git executable under any directory.
 */
static bool is_own_exe(const char *c, const struct stat *st)
{
	const char *cb = path_basename(c);
	struct stat self;

	if (!strcmp(cb, "agentic-git") || !strcmp(cb, "agentic-git-shim"))
		return true;
	return !stat("/proc/self/exe", &self) && self.st_dev == st->st_dev &&
	       self.st_ino == st->st_ino;
}

static char *usable(const char *candidate)
{
	struct stat st;
	char *c;

	/*
	 * An absolute path whose last component is a regular file, not a
	 * symlink: its name is already the file's own (what the basename
	 * check needs), so the realpath of every component is skipped.
	 */
	if (candidate[0] == '/' && lstat(candidate, &st) < 0)
		return NULL; /* nothing there: no realpath walk of its dirs */
	if (candidate[0] == '/' && S_ISREG(st.st_mode))
		c = xstrdup(candidate);
	else if (!(c = real_path(candidate)) || stat(c, &st) < 0) {
		free(c);
		return NULL;
	}
	/* execute bits from the stat we have, not access(2): a file they
	 * allow that exec still refuses fails there with its errno */
	if (!S_ISREG(st.st_mode) || !(st.st_mode & 0111) || is_own_exe(c, &st)) {
		free(c);
		return NULL;
	}
	return c;
}

char *realgit_locate(const char *home)
{
	const char *env = ag_getenv(AGE_REAL_GIT);
	const char *path = getenv("PATH");
	char *found = NULL;
	struct strbuf bin = STRBUF_INIT;

	if (env && *env && (found = usable(env)))
		return found;
	if (home && *home)
		strbuf_addpath(&bin, home, "bin");
	while (path && *path && !found) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);
		if (n) {
			char *dir = xstrndup(path, n);
			char *cand = path_join(dir, "git");
			/* a git found in <home>/bin is the shim: look on */
			found = usable(cand);
			if (found && bin.len && same_real_path(dir, bin.buf)) {
				free(found);
				found = NULL;
			}
			free(cand);
			free(dir);
		}
		path = colon ? colon + 1 : NULL;
	}
	if (!found)
		found = usable("/usr/bin/git");
	strbuf_release(&bin);
	return found;
}

static bool exe_in(const char *dir, const char *name)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	bool ok;

	strbuf_addf(&p, "%s/%s", dir, name);
	ok = !stat(p.buf, &st) && S_ISREG(st.st_mode) && !access(p.buf, X_OK);
	strbuf_release(&p);
	return ok;
}

bool git_external_exists(const char *real_git, const char *sub)
{
	struct strbuf name = STRBUF_INIT;
	const char *env = getenv("GIT_EXEC_PATH");
	const char *path = getenv("PATH");
	bool ok = false;

	if (!*sub || strchr(sub, '/'))
		return false;
	strbuf_addf(&name, "git-%s", sub);
	if (env && *env)
		ok = exe_in(env, name.buf);
	if (!ok && real_git) {
		char *bindir = path_dirname(real_git);
		char *prefix = path_dirname(bindir);
		char *libexec = path_join(prefix, "libexec/git-core");
		char *lib = path_join(prefix, "lib/git-core");
		ok = exe_in(libexec, name.buf) || exe_in(lib, name.buf);
		free(bindir);
		free(prefix);
		free(libexec);
		free(lib);
	}
	while (!ok && path && *path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);
		if (n) {
			char *dir = xstrndup(path, n);
			ok = exe_in(dir, name.buf);
			free(dir);
		}
		path = colon ? colon + 1 : NULL;
	}
	strbuf_release(&name);
	return ok;
}
