/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/envvar.h"
#include "base/path.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "fleet/gitrun.h"

/* Variables that would point git at another repository than `-C dir`. */
static const char *const repo_vars[] = {
	"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
	"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
	"GIT_NAMESPACE", "GIT_PREFIX",
};

static bool is_us(const char *candidate)
{
	char *rp = real_path(candidate);
	const char *me = self_exe();
	bool same = rp && me && !strcmp(rp, me);

	free(rp);
	return same;
}

static bool usable(const char *path)
{
	struct stat st;

	return path[0] == '/' && !stat(path, &st) && S_ISREG(st.st_mode) &&
	       !access(path, X_OK) && !is_us(path);
}

static bool same_dir(const char *a, const char *b)
{
	char *ra = real_path(a), *rb = real_path(b);
	bool same = ra && rb ? !strcmp(ra, rb) : !strcmp(a, b);

	free(ra);
	free(rb);
	return same;
}

char *realgit_find(const char *home)
{
	const char *env = ag_getenv(AGE_REAL_GIT);
	const char *path = getenv("PATH");
	char *shim_dir = home && *home ? path_join(home, "bin") : NULL;
	char *found = NULL;

	if (env && *env && usable(env))
		found = xstrdup(env);
	while (!found && path && *path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);
		char *dir = xstrndup(path, n);

		if (n && dir[0] == '/' && !(shim_dir && same_dir(dir, shim_dir))) {
			char *cand = path_join(dir, "git");
			if (usable(cand))
				found = cand;
			else
				free(cand);
		}
		free(dir);
		path = colon ? colon + 1 : path + n;
	}
	if (!found && usable("/usr/bin/git"))
		found = xstrdup("/usr/bin/git");
	free(shim_dir);
	return found;
}

void gitrun_prepare(struct child *c, const char *git, const char *dir)
{
	strvec_push(&c->args, git);
	if (dir)
		strvec_pushl(&c->args, "-C", dir, NULL);
	strvec_pushl(&c->env_set, "AGENTIC_GIT_BYPASS=1", "AGEND_GIT_BYPASS=1",
		     NULL);
	for (size_t i = 0; i < ARRAY_SIZE(repo_vars); i++)
		strvec_push(&c->env_unset, repo_vars[i]);
}

int gitrun_capture(const char *git, const char *dir, struct strbuf *out,
		   struct strbuf *err, ...)
{
	struct child c = CHILD_INIT;
	const char *arg;
	va_list ap;
	int ret;

	gitrun_prepare(&c, git, dir);
	va_start(ap, err);
	while ((arg = va_arg(ap, const char *)))
		strvec_push(&c.args, arg);
	va_end(ap);
	c.capture_out = true;
	c.capture_err = true;
	if (child_run(&c) < 0) {
		child_release(&c);
		return -1;
	}
	ret = c.status;
	if (out) {
		if (c.out.len && c.out.buf[c.out.len - 1] == '\n')
			strbuf_setlen(&c.out, c.out.len - 1);
		strbuf_addbuf(out, &c.out);
	}
	if (err) {
		strbuf_rtrim(&c.err);
		strbuf_addbuf(err, &c.err);
	}
	child_release(&c);
	return ret;
}
