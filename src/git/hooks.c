/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include "base/fileio.h"
#include "base/strbuf.h"
#include "git/hooks.h"

const char *const hooks_names[] = {
	"prepare-commit-msg", "reference-transaction", NULL,
};

int hooks_install(const char *hooks_dir, const char *self_exe)
{
	if (!self_exe || self_exe[0] != '/') {
		errno = EINVAL;
		return -1;
	}
	if (mkdir_p(hooks_dir, 0755) < 0)
		return -1;
	for (size_t i = 0; hooks_names[i]; i++) {
		struct strbuf body = STRBUF_INIT, path = STRBUF_INIT;
		int ret;

		strbuf_addstr(&body, "#!/bin/sh\nexec '");
		for (const char *p = self_exe; *p; p++) {
			if (*p == '\'')
				strbuf_addstr(&body, "'\\''");
			else
				strbuf_addch(&body, *p);
		}
		strbuf_addch(&body, '\'');
		strbuf_addf(&body, " hook %s \"$@\"\n", hooks_names[i]);
		strbuf_addf(&path, "%s/%s", hooks_dir, hooks_names[i]);
		ret = write_file_atomic(path.buf, body.buf, body.len, 0755);
		strbuf_release(&body);
		strbuf_release(&path);
		if (ret < 0)
			return -1;
	}
	return 0;
}
