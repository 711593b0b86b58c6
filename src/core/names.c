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

bool ag_branch_name_valid(const char *name, const char **why)
{
	size_t n = name ? strlen(name) : 0;
	const char *comp;

	if (!n || n > 255) {
		*why = "branch name must be 1 to 255 bytes";
		return false;
	}
	if (name[0] == '-' || name[0] == '/' || name[n - 1] == '/' ||
	    name[n - 1] == '.') {
		*why = "branch name must not start with '-' or '/' nor end with '/' or '.'";
		return false;
	}
	if (!strcmp(name, "@") || !strcmp(name, "HEAD")) {
		*why = "branch name must not be '@' or 'HEAD'";
		return false;
	}
	if (strstr(name, "..") || strstr(name, "//") || strstr(name, "@{")) {
		*why = "branch name must not contain '..', '//' or '@{'";
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c < 0x20 || c == 0x7f || strchr(" ~^:?*[\\", c)) {
			*why = "branch name must not contain spaces, control characters or any of ~^:?*[\\";
			return false;
		}
	}
	for (comp = name; comp; comp = strchr(comp, '/')) {
		const char *end;
		if (*comp == '/')
			comp++;
		end = strchr(comp, '/');
		if (*comp == '.') {
			*why = "branch name components must not start with '.'";
			return false;
		}
		if (end ? (end - comp >= 5 && !strncmp(end - 5, ".lock", 5))
			: (strlen(comp) >= 5 &&
			   !strcmp(comp + strlen(comp) - 5, ".lock"))) {
			*why = "branch name components must not end with '.lock'";
			return false;
		}
	}
	return true;
}
