/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include "base/fileio.h"
#include "base/path.h"
#include "base/strbuf.h"
#include "git/hooks.h"

const char *const hooks_names[] = {
	"prepare-commit-msg",
	"reference-transaction",
	"pre-push",
	NULL,
};

/* Appends s single-quoted for sh. */
static void add_sq(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '\'');
	for (const char *p = s; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '\'');
}

char *hooks_dir(const char *home)
{
	return path_join(home, "hooks");
}

/* One stub `name` in `dir`, naming `home` as the hooks' home. */
static int write_stub(const char *dir, const char *self_exe, const char *home,
		      const char *name)
{
	struct strbuf body = STRBUF_INIT, path = STRBUF_INIT;
	int ret;

	strbuf_addstr(&body, "#!/bin/sh\nexec ");
	add_sq(&body, self_exe);
	strbuf_addstr(&body, " hook --home ");
	add_sq(&body, home);
	strbuf_addf(&body, " %s \"$@\"\n", name);
	strbuf_addf(&path, "%s/%s", dir, name);
	/* a stub already right is left as it is: a session starts on a full
	 * disk too */
	ret = file_has_content(path.buf, body.buf, body.len, 0755)
		      ? 0
		      : write_file_atomic(path.buf, body.buf, body.len, 0755);
	strbuf_release(&body);
	strbuf_release(&path);
	return ret;
}

int hooks_install(const char *hooks_dir, const char *self_exe)
{
	char *home;
	int ret = 0;

	if (!self_exe || self_exe[0] != '/') {
		errno = EINVAL;
		return -1;
	}
	if (mkdir_p(hooks_dir, 0755) < 0)
		return -1;
	/* the home is where the hooks are, not what the agent's env says */
	home = path_dirname(hooks_dir);
	for (size_t i = 0; hooks_names[i] && !ret; i++)
		ret = write_stub(hooks_dir, self_exe, home, hooks_names[i]);
	free(home);
	return ret;
}

char *hooks_pin_dir(const char *home)
{
	return path_join(home, "hooks/pin");
}

int hooks_install_pin(const char *home, const char *self_exe)
{
	char *dir = hooks_pin_dir(home);
	int ret = -1;

	if (!self_exe || self_exe[0] != '/')
		errno = EINVAL;
	else if (mkdir_p(dir, 0755) == 0)
		ret = write_stub(dir, self_exe, home, "pre-push");
	free(dir);
	return ret;
}
