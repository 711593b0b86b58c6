/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include "base/fileio.h"
#include "base/strbuf.h"
#include "fleet/hookstubs.h"

int hookstubs_install(const char *hooks_dir, const char *self_exe)
{
	static const char *const names[] = { "prepare-commit-msg",
					     "reference-transaction" };
	int ret = 0;

	if (!self_exe) {
		errno = ENOENT;
		return -1;
	}
	if (mkdir_p(hooks_dir, 0755) < 0)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(names) && !ret; i++) {
		struct strbuf body = STRBUF_INIT, path = STRBUF_INIT;

		strbuf_addstr(&body, "#!/bin/sh\n# agentic-git hook stub: all logic is in the binary.\nexec ");
		strbuf_add_shell_quoted(&body, self_exe);
		strbuf_addf(&body, " hook %s \"$@\"\n", names[i]);
		strbuf_addf(&path, "%s/%s", hooks_dir, names[i]);
		ret = write_file_atomic(path.buf, body.buf, body.len, 0755);
		strbuf_release(&body);
		strbuf_release(&path);
	}
	return ret;
}
