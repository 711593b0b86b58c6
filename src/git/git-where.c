/* SPDX-License-Identifier: Apache-2.0 */
/* Where git will act, by git's own answer (git/git-where.h). */
#include "base/common.h"
#include <stdlib.h>
#include <string.h>
#include "base/path.h"
#include "base/spawn.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "git/git-where.h"
#include "git/gitcmd.h"
#include "git/repo.h"

/* The caller's location variables: GIT_AS_AGENT drops them, git reads them */
static void keep_location(struct child *c)
{
	static const char *const loc[] = { "GIT_DIR", "GIT_WORK_TREE",
					   "GIT_COMMON_DIR", NULL };

	for (const char *const *n = loc; *n; n++) {
		const char *v = getenv(*n);
		if (v)
			strvec_pushf(&c->env_set, "%s=%s", *n, v);
	}
}

static char *line_at(const char **p, const char *end)
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	char *raw, *real;

	if (!nl || nl == *p)
		return NULL;
	raw = xstrndup(*p, (size_t)(nl - *p));
	*p = nl + 1;
	real = real_path(raw);
	free(raw);
	return real;
}

int git_where_ask(const char *real_git, const char *cwd,
		  const struct git_argv *ga, struct git_where *out)
{
	struct child c = CHILD_INIT;
	const char *p, *end;
	int r = -1;

	memset(out, 0, sizeof(*out));
	gitcmd_prepare(&c, GIT_AS_AGENT, real_git, cwd);
	keep_location(&c);
	/* no trace file is written on the agent's behalf before the
	 * policy has judged its GIT_TRACE* (threat T63) */
	gitcmd_drop_traces(&c);
	if (ga->git_dir)
		strvec_pushf(&c.args, "--git-dir=%s", ga->git_dir);
	if (ga->work_tree)
		strvec_pushf(&c.args, "--work-tree=%s", ga->work_tree);
	strvec_pushl(&c.args, "rev-parse", "--path-format=absolute",
		     "--git-dir", "--git-common-dir", "--show-toplevel", NULL);
	c.capture_out = true;
	c.capture_err = true;
	if (child_run(&c) == 0) {
		/* no repository: nothing printed, 128; a bare one: the first
		 * two lines, then 128 (no work tree) */
		p = c.out.buf;
		end = c.out.buf + c.out.len;
		out->gitdir = line_at(&p, end);
		out->commondir = out->gitdir ? line_at(&p, end) : NULL;
		out->top = out->commondir ? line_at(&p, end) : NULL;
		r = !out->gitdir || out->commondir ? 0 : -1;
		if (c.status == 0 && !out->top)
			r = -1; /* success says there is a work tree */
	}
	child_release(&c);
	if (r < 0)
		git_where_release(out);
	return r;
}

bool git_where_natural(const struct git_where *w)
{
	struct repo_loc loc = { 0 };
	bool natural;

	if (!w->top || !w->gitdir)
		return true;
	natural = repo_discover(w->top, &loc) == REPO_FOUND && loc.top &&
		  !strcmp(loc.top, w->top) && !strcmp(loc.gitdir, w->gitdir);
	repo_loc_release(&loc);
	return natural;
}

void git_where_release(struct git_where *w)
{
	free(w->gitdir);
	free(w->commondir);
	free(w->top);
	memset(w, 0, sizeof(*w));
}
