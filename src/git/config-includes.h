/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_CONFIG_INCLUDES_H
#define AG_CONFIG_INCLUDES_H

/**
 * The files a repository's config includes (`[include] path = …`,
 * `[includeIf "…"] path = …`), for the cage agentic-git's own git runs in
 * (git/gitcmd.h): git reads them, and under Landlock a file the cage may
 * not read makes git die instead of skipping it, so an operator's
 * `include.path` outside the repository would break every command over it.
 *
 * Appends to `out` the real path of every existing file named, following
 * includes of includes (5 deep, as far as git's own limit matters here).
 * `~/` is the HOME given; a relative path is relative to the including
 * file's directory, as git reads it. Conditions are not evaluated: a file
 * an `includeIf` names is readable whether or not git takes it. Only read
 * access is ever granted from this list.
 */
#include "base/common.h"
#include "base/strvec.h"

void config_include_targets(const char *config_path, const char *home,
			    struct strvec *out);

#endif
