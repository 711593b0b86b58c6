/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Agent and branch name validation. Names are joined into paths
 * (runtime/<agent>, worktrees/<agent>/<branch>) and into ref names, so they
 * MUST be validated before any such use: no '/', no "..", no control bytes.
 */
#include "base/common.h"
#include <ctype.h>
#include <string.h>
#include <strings.h>
#include "agentic-git/core.h"
#include "base/refname.h"

bool ag_agent_name_valid(const char *name, const char **why)
{
	static const char *const reserved[] = { "CON", "PRN", "AUX", "NUL" };
	size_t n = name ? strlen(name) : 0, stem;
	const char *dot;

	if (n < 1 || n > 64) {
		*why = "agent name must be 1 to 64 bytes";
		return false;
	}
	if (!(islower((unsigned char)name[0]) || isdigit((unsigned char)name[0]))) {
		*why = "agent name must start with [a-z0-9]";
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		if (!(islower(c) || isdigit(c) || c == '.' || c == '_' ||
		      c == '-')) {
			*why = "agent name may only contain [a-z0-9._-]";
			return false;
		}
	}
	if (name[n - 1] == '.') {
		*why = "agent name must not end with '.'";
		return false;
	}
	if (strstr(name, "..")) {
		*why = "agent name must not contain '..'";
		return false;
	}
	dot = strchr(name, '.');
	stem = dot ? (size_t)(dot - name) : n;
	for (size_t i = 0; i < ARRAY_SIZE(reserved); i++)
		if (stem == 3 && !strncasecmp(name, reserved[i], 3))
			goto device;
	if (stem == 4 && (!strncasecmp(name, "com", 3) ||
			  !strncasecmp(name, "lpt", 3)) &&
	    name[3] >= '1' && name[3] <= '9')
		goto device;
	return true;
device:
	*why = "agent name must not be a Windows device name (CON, PRN, AUX, NUL, COM1-9, LPT1-9)";
	return false;
}

/*
 * What agentic-git refuses on top of git's rules, on purpose: a name that
 * starts with '-' reads as an option on a git command line, "@" and "HEAD"
 * read as revisions, and a branch over 255 bytes does not fit in one
 * file name of the refs directory.
 */
static const char *branch_reserved(const char *name, size_t n)
{
	if (!n || n > 255)
		return "must be 1 to 255 bytes";
	if (name[0] == '-')
		return "must not start with '-'";
	if (!strcmp(name, "@") || !strcmp(name, "HEAD"))
		return "must not be '@' or 'HEAD'";
	return NULL;
}

bool ag_branch_name_valid(const char *name, const char **why)
{
	const char *w = branch_reserved(name, name ? strlen(name) : 0);

	if (!w)
		w = refname_problem(name, REFNAME_BRANCH);
	if (w)
		*why = w;
	return !w;
}
