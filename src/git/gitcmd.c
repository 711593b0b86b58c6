/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <stdarg.h>
#include "base/envvar.h"
#include "base/path.h"
#include "git/gitcmd.h"

static const char *const scrubbed[] = {
	"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
	"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
	"GIT_NAMESPACE", "GIT_PREFIX", "GIT_LITERAL_PATHSPECS", "GIT_GLOB_PATHSPECS",
	"GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS",
	"AGENTIC_GIT_BYPASS", "AGEND_GIT_BYPASS",
};

void gitcmd_init(struct child *c, const char *real_git, const char *dir)
{
	strvec_push(&c->args, real_git);
	c->dir = dir;
	for (size_t i = 0; i < ARRAY_SIZE(scrubbed); i++)
		strvec_push(&c->env_unset, scrubbed[i]);
	strvec_push(&c->env_set, "AGENTIC_GIT_BYPASS=1");
	strvec_push(&c->env_set, "AGEND_GIT_BYPASS=1");
}

void gitcmd_init_repo(struct child *c, const char *real_git,
		      const char *gitdir, const char *top)
{
	gitcmd_init(c, real_git, top);
	strvec_pushf(&c->env_set, "GIT_DIR=%s", gitdir);
	strvec_pushf(&c->env_set, "GIT_WORK_TREE=%s", top);
}

/* 256 MiB: a short-lived git never gives its heap back */
#define KEEP_HEAP "glibc.malloc.trim_threshold=268435456"

void gitcmd_keep_heap(struct child *c)
{
	const char *user = getenv("GLIBC_TUNABLES");

	strvec_pushf(&c->env_set, "GLIBC_TUNABLES=%s%s%s", KEEP_HEAP,
		     user && *user ? ":" : "", user ? user : "");
}

int gitcmd_run(struct child *c, struct strbuf *out, struct strbuf *err)
{
	int ret;

	c->capture_out = out != NULL;
	c->capture_err = true;
	if (child_run(c) < 0)
		return -1;
	ret = c->status;
	if (out)
		strbuf_addbuf(out, &c->out);
	if (err) {
		strbuf_addbuf(err, &c->err);
		strbuf_rtrim(err);
	}
	return ret;
}

int gitcmd_capture(const char *real_git, const char *dir, struct strbuf *out,
		   struct strbuf *err, ...)
{
	struct child c = CHILD_INIT;
	const char *a;
	va_list ap;
	int ret;

	gitcmd_init(&c, real_git, dir);
	va_start(ap, err);
	while ((a = va_arg(ap, const char *)))
		strvec_push(&c.args, a);
	va_end(ap);
	ret = gitcmd_run(&c, out, err);
	child_release(&c);
	return ret;
}

void gitcmd_chomp(struct strbuf *sb)
{
	if (sb->len && sb->buf[sb->len - 1] == '\n')
		strbuf_setlen(sb, sb->len - 1);
}
