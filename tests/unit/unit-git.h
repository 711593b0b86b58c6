/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_UNIT_GIT_H
#define AG_UNIT_GIT_H

/**
 * Real git for the unit tests that check our git-format code against it.
 * unit_find_git() is git's absolute path from PATH (owned by the caller),
 * or NULL: such tests skip. unit_run_git(git, dir, out, arg…, NULL) runs
 * `git -C dir arg…` isolated from the user's and the system's
 * configuration and the caller's GIT_* variables, appends its stdout to
 * `out` (may be NULL) and returns its exit code; when git dies (an exit of
 * 128 or more) its stderr is printed as a test message.
 *
 * UNIT_GIT_GROUP(tag) defines a group's `dir` (a fresh scratch directory,
 * unit-tmpdir.h), `git` (unit_find_git(), owned) and the `setup` and
 * `teardown` that make and remove them, for cmocka_run_group_tests().
 */
#include <stdarg.h>
#include <unistd.h>
#include "base/spawn.h"
#include "base/strbuf.h"
#include "base/strvec.h"
#include "unit-tmpdir.h"

static inline char *unit_find_git(void)
{
	const char *p = getenv("PATH");
	struct strbuf sb = STRBUF_INIT;

	while (p && *p) {
		const char *end = strchrnul(p, ':');

		strbuf_reset(&sb);
		strbuf_add(&sb, p, (size_t)(end - p));
		strbuf_addstr(&sb, "/git");
		if (sb.buf[0] == '/' && !access(sb.buf, X_OK))
			return strbuf_detach(&sb, NULL);
		p = *end ? end + 1 : end;
	}
	strbuf_release(&sb);
	return NULL;
}

static inline int unit_run_git(const char *git, const char *dir,
			       struct strbuf *out, ...)
{
	struct child c = CHILD_INIT;
	const char *arg;
	va_list ap;
	int status;

	strvec_pushl(&c.args, git, "-C", dir, NULL);
	va_start(ap, out);
	while ((arg = va_arg(ap, const char *)))
		strvec_push(&c.args, arg);
	va_end(ap);
	strvec_pushl(&c.env_set, "GIT_CONFIG_NOSYSTEM=1",
		     "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C", NULL);
	strvec_pushl(&c.env_unset, "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE",
		     "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
		     NULL);
	c.capture_out = true;
	c.capture_err = true;
	status = child_run(&c) < 0 ? -1 : c.status;
	if (status < 0 || status >= 128)
		print_message("git %s: %s", c.args.v[3], c.err.buf);
	if (out)
		strbuf_addbuf(out, &c.out);
	child_release(&c);
	return status;
}

#define UNIT_GIT_GROUP(tag)                                     \
	static char dir[64];                                    \
	static char *git; /* owned; NULL: no git on PATH */     \
	static int setup(void **state)                          \
	{                                                       \
		(void)state;                                    \
		git = unit_find_git();                          \
		return unit_tmpdir_make(dir, sizeof(dir), tag); \
	}                                                       \
	static int teardown(void **state)                       \
	{                                                       \
		(void)state;                                    \
		free(git);                                      \
		return unit_tmpdir_remove(dir);                 \
	}

#endif
