/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "base/envvar.h"
#include "base/path.h"
#include "base/strbuf.h"

extern char **environ;

static const char *const names[AGE__COUNT][2] = {
	[AGE_HOME] = { "AGENTIC_GIT_HOME", "AGEND_HOME" },
	[AGE_AGENT] = { "AGENTIC_GIT_AGENT", "AGEND_INSTANCE_NAME" },
	[AGE_REAL_GIT] = { "AGENTIC_GIT_REAL_GIT", "AGEND_REAL_GIT" },
	[AGE_BYPASS] = { "AGENTIC_GIT_BYPASS", "AGEND_GIT_BYPASS" },
	[AGE_BYPASS_AGENT] = { "AGENTIC_GIT_BYPASS_AGENT",
			       "AGEND_GIT_BYPASS_AGENT" },
	[AGE_BYPASS_UNTIL] = { "AGENTIC_GIT_BYPASS_UNTIL",
			       "AGEND_GIT_BYPASS_UNTIL" },
	[AGE_SHIM_DEPTH] = { "AGENTIC_GIT_SHIM_DEPTH", "AGEND_GIT_SHIM_DEPTH" },
	[AGE_ALLOW_CANONICAL_MUTATE] = { "AGENTIC_GIT_ALLOW_CANONICAL_MUTATE",
					 "AGEND_GIT_ALLOW_CANONICAL_MUTATE" },
	[AGE_SNAPSHOTS] = { "AGENTIC_GIT_SNAPSHOTS", "AGEND_GIT_SNAPSHOTS" },
};

const char *ag_env_primary(enum ag_env e)
{
	return names[e][0];
}

const char *ag_env_legacy(enum ag_env e)
{
	return names[e][1];
}

/* entry's value when it is name=value */
static const char *env_entry_value(const char *entry, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(entry, name, n) && entry[n] == '=' ? entry + n + 1
							   : NULL;
}

/*
 * Both names in one pass over the environment, not one getenv(3) each:
 * the shim asks for unset names on every call (its hot path, PRODUCT.md
 * §11). As getenv(3), the first entry of a name counts.
 */
const char *ag_getenv(enum ag_env e)
{
	const char *legacy = NULL, *v;

	for (char **p = environ; p && *p; p++) {
		if ((*p)[0] != 'A' || (*p)[1] != 'G')
			continue; /* AGENTIC_GIT_* and AGEND_* alike */
		if ((v = env_entry_value(*p, names[e][0])))
			return v;
		if (!legacy)
			legacy = env_entry_value(*p, names[e][1]);
	}
	return legacy;
}

const char *ag_getenv_str(enum ag_env e)
{
	const char *v = ag_getenv(e);
	return v ? v : "";
}

char *ag_home_dir(void)
{
	const char *h = ag_getenv(AGE_HOME);
	struct strbuf sb = STRBUF_INIT;
	char cwd[4096];

	if (h && *h) {
		strbuf_addstr(&sb, h);
	} else {
		const char *home = getenv("HOME");
		if (!home || !*home)
			return NULL;
		strbuf_addf(&sb, "%s/.agentic-git", home);
	}
	if (sb.buf[0] != '/') {
		/* a relative home would break once the agent is in its worktree */
		char *abs;
		if (!getcwd(cwd, sizeof(cwd))) {
			strbuf_release(&sb);
			return NULL;
		}
		abs = path_join(cwd, sb.buf);
		strbuf_reset(&sb);
		strbuf_addstr(&sb, abs);
		free(abs);
	}
	path_normalize(&sb);
	return strbuf_detach(&sb, NULL);
}

bool ag_bypass_requested(const char *agent, const char **layer)
{
	const char *b = ag_getenv(AGE_BYPASS);
	const char *ba = ag_getenv(AGE_BYPASS_AGENT);
	const char *bu = ag_getenv(AGE_BYPASS_UNTIL);
	unsigned long until;

	if (b && !strcmp(b, "1"))
		*layer = "env";
	else if (ba && *ba && agent && *agent && !strcmp(ba, agent))
		*layer = "agent";
	else if (bu && !parse_ulong(bu, ULONG_MAX, &until) &&
		 (unsigned long)time(NULL) < until)
		*layer = "until";
	else
		return false;
	return true;
}

bool ag_env_is_one(const char *v)
{
	if (!v)
		return false;
	while (isspace((unsigned char)*v))
		v++;
	if (*v != '1')
		return false;
	v++;
	while (isspace((unsigned char)*v))
		v++;
	return !*v;
}

int parse_ulong(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}
