/* SPDX-License-Identifier: Apache-2.0 */
/* agentic-git's home kept out of every cage; see sandbox-home.h. */
#include "base/common.h"
#include <string.h>
#include <sys/stat.h>
#include "agents/sandbox.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "fleet/agent-sandbox.h"
#include "fleet/sandbox-build.h"
#include "fleet/sandbox-home.h"

bool sandbox_home_shown(const char *home_real, const char *rule,
			const char *rule_real, struct strbuf *at)
{
	const char *rel;

	if (!home_real || !rule || !rule_real ||
	    !path_inside(home_real, rule_real, &rel))
		return false;
	strbuf_addstr(at, rule);
	if (*rel) {
		if (strcmp(rule, "/"))
			strbuf_addch(at, '/');
		strbuf_addstr(at, rel);
	}
	return true;
}

/* Invariant 3: the real path, or the path itself when it does not exist. */
static char *real_or_same(const char *p)
{
	char *r = real_path(p);
	return r ? r : xstrdup(p);
}

static bool has(const struct strvec *v, const char *s)
{
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->v[i], s))
			return true;
	return false;
}

/*
 * Invariant 1: a mask where `rule` shows the home, once; `as_rule`: the
 * rule itself instead (the probe's report).
 */
static void add_mask(const char *home_real, const char *rule,
		     struct strvec *masks, bool as_rule)
{
	struct strbuf at = STRBUF_INIT;
	char *real = real_or_same(rule);

	if (sandbox_home_shown(home_real, rule, real, &at) &&
	    !has(masks, as_rule ? rule : at.buf))
		strvec_push(masks, as_rule ? rule : at.buf);
	strbuf_release(&at);
	free(real);
}

static void system_dirs(const char *home_real, struct strvec *masks,
			bool as_rule)
{
	static const char *const sys[] = SANDBOX_SYS_DIRS;
	struct stat st;

	/* a linked system dir (/bin -> usr/bin) shows what its target shows */
	for (size_t i = 0; i < ARRAY_SIZE(sys); i++)
		if (!lstat(sys[i], &st) && S_ISDIR(st.st_mode))
			add_mask(home_real, sys[i], masks, as_rule);
}

int sandbox_home_guard(struct agent_sandbox *as, struct strbuf *err)
{
	const char *const own[] = { as->cache, as->quarantine, as->tmp,
				    as->private_home, as->workspace };
	char *home_real;
	int rc = 0;

	strvec_clear(&as->masks);
	if (!as->home || !*as->home || as->rq.policy == SANDBOX_NONE) {
		sandbox_build_request(as);
		return 0;
	}
	home_real = real_or_same(as->home);
	/* invariant 2: what the profile names never lies in the home */
	for (size_t i = 0; i < as->ro_binds.nr && !rc; i++) {
		char *real = real_or_same(as->ro_binds.v[i]);
		const char *rel;

		if (path_inside(real, home_real, &rel) && *rel) {
			strbuf_addf(
				err,
				"ro_binds entry '%s' lies in agentic-git's home '%s': a cage sees only its own session's part of it (never the fleet key, other sessions' bindings or the audit log); bind a directory outside the home",
				as->ro_binds.v[i], as->home);
			rc = -1;
		}
		free(real);
	}
	if (!rc) {
		system_dirs(home_real, &as->masks, false);
		for (size_t i = 0; i < as->ro_binds.nr; i++)
			add_mask(home_real, as->ro_binds.v[i], &as->masks,
				 false);
		for (size_t i = 0; i < as->extra_ro.nr; i++)
			add_mask(home_real, as->extra_ro.v[i], &as->masks,
				 false);
		for (size_t i = 0; i < ARRAY_SIZE(own); i++)
			if (own[i])
				add_mask(home_real, own[i], &as->masks, false);
	}
	free(home_real);
	sandbox_build_request(as);
	return rc;
}

void sandbox_home_exposure(const char *home, const char *const *binds,
			   size_t nr, struct strvec *out)
{
	char *home_real = real_or_same(home);

	system_dirs(home_real, out, true);
	for (size_t i = 0; i < nr; i++)
		add_mask(home_real, binds[i], out, true);
	free(home_real);
}
