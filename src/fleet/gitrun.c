/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "fleet/gitrun.h"
#include "git/gitcmd.h"

/* One runner for every internal git call: git/gitcmd.c. */
void gitrun_prepare(struct child *c, const char *git, const char *dir)
{
	gitcmd_init(c, git, dir);
}

int gitrun_capture(const char *git, const char *dir, struct strbuf *out,
		   struct strbuf *err, ...)
{
	struct child c = CHILD_INIT;
	const char *arg;
	va_list ap;
	int ret;

	gitcmd_init(&c, git, dir);
	va_start(ap, err);
	while ((arg = va_arg(ap, const char *)))
		strvec_push(&c.args, arg);
	va_end(ap);
	ret = gitcmd_run(&c, out, err);
	if (out && ret >= 0)
		gitcmd_chomp(out);
	child_release(&c);
	return ret;
}
