/* SPDX-License-Identifier: Apache-2.0 */
/* git's locks left behind by a killed git (invariants in stale-locks.h). */
#include "base/common.h"
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include "base/proctree.h"
#include "base/xalloc.h"
#include "git/repo.h"
#include "git/stale-locks.h"

static void add_if_there(struct strvec *v, const char *dir, const char *name,
			 const char *suffix)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;

	strbuf_addf(&p, "%s/%s%s", dir, name, suffix);
	if (!lstat(p.buf, &st) && S_ISREG(st.st_mode))
		strvec_push(v, p.buf);
	strbuf_release(&p);
}

/* Every `*.lock` file directly in `dir` but ours (agentic-git-*): HEAD's,
 * ORIG_HEAD's, config's, packed-refs' … */
static void add_top_locks(struct strvec *v, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		if (!ends_with(de->d_name, ".lock") ||
		    starts_with(de->d_name, "agentic-git-") ||
		    !strcmp(de->d_name, "index.lock"))
			continue;
		add_if_there(v, dir, de->d_name, "");
	}
	if (d)
		closedir(d);
}

size_t stale_locks_find(const char *dir, bool refs, struct strvec *out)
{
	struct repo_loc loc = { 0 };
	struct strvec there = STRVEC_INIT;
	bool *open;
	size_t n = 0;

	if (repo_discover(dir, &loc) != REPO_FOUND || !loc.gitdir ||
	    !loc.commondir)
		goto out;
	add_if_there(&there, loc.gitdir, "index", ".lock");
	if (refs)
		add_top_locks(&there, loc.gitdir);
	if (refs && strcmp(loc.gitdir, loc.commondir))
		add_top_locks(&there, loc.commondir);
	/* git maintenance skips, silently and for good, while it is there */
	if (refs)
		add_if_there(&there, loc.commondir, "objects/maintenance",
			     ".lock");
	if (refs && loc.head_branch) {
		struct strbuf ref = STRBUF_INIT;
		strbuf_addf(&ref, "refs/heads/%s", loc.head_branch);
		add_if_there(&there, loc.commondir, ref.buf, ".lock");
		strbuf_release(&ref);
	}
	if (!there.nr)
		goto out;
	open = xcalloc(there.nr, sizeof(*open));
	/* without /proc nothing can be told: each is named all the same */
	proc_files_open((const char *const *)there.v, there.nr, open);
	for (size_t i = 0; i < there.nr; i++)
		if (!open[i]) {
			strvec_push(out, there.v[i]);
			n++;
		}
	free(open);
out:
	strvec_clear(&there);
	repo_loc_release(&loc);
	return n;
}

void stale_locks_explain(const struct strvec *locks, struct strbuf *out)
{
	bool many = locks->nr > 1;

	strbuf_addstr(out, many ? "git's lock files " : "git's lock file ");
	for (size_t i = 0; i < locks->nr; i++)
		strbuf_addf(out, "%s'%s'", i ? ", " : "", locks->v[i]);
	strbuf_addf(
		out,
		" %s and no process has %s open: a git that was killed left %s behind, and git refuses to write while %s there; when no git is running in this work tree, remove %s: rm",
		many ? "exist" : "exists", many ? "them" : "it",
		many ? "them" : "it", many ? "they are" : "it is",
		many ? "them" : "it");
	for (size_t i = 0; i < locks->nr; i++) {
		strbuf_addch(out, ' ');
		strbuf_add_shell_quoted(out, locks->v[i]);
	}
}
