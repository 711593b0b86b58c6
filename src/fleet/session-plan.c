/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pure half of sessions: names, paths, the agent's environment.
 * Nothing here touches the filesystem or spawns.
 */
#include "base/common.h"
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "agentic-git/core.h"
#include "base/envvar.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "fleet/session.h"

/* Removed from the agent's environment (invariant 4). */
static const char *const bypass_vars[] = {
	"AGENTIC_GIT_BYPASS", "AGENTIC_GIT_BYPASS_AGENT",
	"AGENTIC_GIT_BYPASS_UNTIL", "AGEND_GIT_BYPASS",
	"AGEND_GIT_BYPASS_AGENT", "AGEND_GIT_BYPASS_UNTIL",
	"AGENTIC_GIT_ALLOW_CANONICAL_MUTATE", "AGEND_GIT_ALLOW_CANONICAL_MUTATE",
};

bool session_agent_reserved(const char *name)
{
	/* <home>/runtime/ entries that are agentic-git's own state */
	static const char *const own[] = { "net", "sandbox-probe", NULL };

	for (size_t i = 0; own[i]; i++)
		if (!strcmp(name, own[i]))
			return true;
	return false;
}

static int plan_names(struct session *s, const char *agent, const char *branch,
		      time_t now, const unsigned char rnd[6], struct strbuf *err)
{
	const char *why;

	if (agent) {
		s->agent = xstrdup(agent);
	} else {
		s->agent = xstrfmt("run-%02x%02x%02x%02x%02x%02x", rnd[0], rnd[1],
				   rnd[2], rnd[3], rnd[4], rnd[5]);
	}
	if (!ag_agent_name_valid(s->agent, &why)) {
		strbuf_addf(err, "invalid agent name '%s': %s", s->agent, why);
		return 2;
	}
	if (session_agent_reserved(s->agent)) {
		strbuf_addf(
			err,
			"invalid agent name '%s': reserved for agentic-git's own state under <home>/runtime",
			s->agent);
		return 2;
	}
	if (branch) {
		s->branch = xstrdup(branch);
	} else {
		struct tm tm;
		char stamp[32];

		gmtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M", &tm);
		s->branch = xstrfmt("agent/%s/%s", s->agent, stamp);
	}
	if (!ag_branch_name_valid(s->branch, &why)) {
		strbuf_addf(err, "invalid branch name '%s': %s", s->branch, why);
		return 2;
	}
	return 0;
}

int session_plan(struct session *s, const char *agent, const char *branch,
		 const char *base, const char *home, time_t now,
		 const unsigned char rnd[6], struct strbuf *err)
{
	int ret = plan_names(s, agent, branch, now, rnd, err);

	if (ret)
		return ret;
	s->base = xstrdup(base ? base : "HEAD");
	if (!*s->base || s->base[0] == '-' || strpbrk(s->base, " \t\n")) {
		strbuf_addf(err, "invalid base '%s': give a branch, tag or commit",
			    s->base);
		return 2;
	}
	if (!home || home[0] != '/') {
		strbuf_addstr(err, "cannot find a home for agentic-git: set AGENTIC_GIT_HOME to an absolute path");
		return 1;
	}
	if (strchr(home, ':') || strchr(home, '\n')) {
		strbuf_addf(err, "home '%s' contains ':' so it cannot build a guarded PATH (the shim directory would split into two entries). Refusing to launch the agent unguarded; set AGENTIC_GIT_HOME to a path without ':'",
			    home);
		return 78;
	}
	s->home = xstrdup(home);
	s->worktree = xstrfmt("%s/worktrees/%s/%s", home, s->agent, s->branch);
	return 0;
}

static bool is_var(const char *entry, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(entry, name, n) && entry[n] == '=';
}

void session_child_env(const struct session *s, const char *const *environ_,
		       struct strvec *out)
{
	const char *path = NULL;
	bool snap_set = false;

	for (const char *const *e = environ_; e && *e; e++) {
		bool drop = false;

		for (size_t i = 0; i < ARRAY_SIZE(bypass_vars) && !drop; i++)
			drop = is_var(*e, bypass_vars[i]);
		if (is_var(*e, "AGENTIC_GIT_SNAPSHOTS") ||
		    is_var(*e, "AGEND_GIT_SNAPSHOTS"))
			snap_set = true;
		if (is_var(*e, "PATH")) {
			path = *e + 5;
			drop = true;
		}
		drop = drop || is_var(*e, "AGENTIC_GIT_HOME") ||
		       is_var(*e, "AGENTIC_GIT_QUARANTINE") ||
		       is_var(*e, "AGENTIC_GIT_AGENT") ||
		       is_var(*e, "AGENTIC_GIT_REAL_GIT");
		if (!drop)
			strvec_push(out, *e);
	}
	if (path && *path)
		strvec_pushf(out, "PATH=%s/bin:%s", s->home, path);
	else
		strvec_pushf(out, "PATH=%s/bin:/usr/local/bin:/usr/bin:/bin", s->home);
	strvec_pushf(out, "AGENTIC_GIT_HOME=%s", s->home);
	strvec_pushf(out, "AGENTIC_GIT_AGENT=%s", s->agent);
	strvec_pushf(out, "AGENTIC_GIT_REAL_GIT=%s", s->real_git);
	if (!snap_set)
		strvec_push(out, "AGENTIC_GIT_SNAPSHOTS=1");
}

void session_lock_path(const char *home, const char *common_dir,
		       struct strbuf *out)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const unsigned char *p = (const unsigned char *)common_dir; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ULL;
	}
	strbuf_addf(out, "%s/locks/wt-%016llx.lock", home, (unsigned long long)h);
}

void session_release(struct session *s)
{
	free(s->home);
	free(s->agent);
	free(s->branch);
	free(s->base);
	free(s->base_oid);
	free(s->base_branch);
	free(s->adopt_oid);
	free(s->worktree);
	free(s->real_git);
	free(s->source_repo);
	free(s->common_dir);
	free(s->issued_at);
	memset(s, 0, sizeof(*s));
}
