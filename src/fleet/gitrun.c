/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "fleet/gitrun.h"

/* Variables that would point git at another repository than `-C dir`. */
static const char *const repo_vars[] = {
	"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
	"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
	"GIT_NAMESPACE", "GIT_PREFIX",
};

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
