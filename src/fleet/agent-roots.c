/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The writable roots of an agent's own sandbox in a plain session
 * (agent-roots.h).
 */
#include "base/common.h"
#include <errno.h>
#include <string.h>
#include "agents/plan.h"
#include "base/eventlog.h"
#include "base/fileio.h"
#include "base/xalloc.h"
#include "fleet/agent-roots.h"
#include "fleet/spool.h"
#include "git/repo.h"

/* Invariants 1-3, in that order; -1 when the workspace is no repository. */
static int collect(const struct agent_sandbox *as, struct strvec *roots,
		   struct strbuf *err)
{
	static const char *const common_parts[] = { "objects", "refs", "logs" };
	struct repo_loc loc = { 0 };
	char *p;

	if (repo_discover(as->workspace, &loc) != REPO_FOUND) {
		strbuf_addf(err, "cannot find the git dir of '%s'",
			    as->workspace);
		repo_loc_release(&loc);
		return -1;
	}
	strvec_push(roots, loc.gitdir);
	for (size_t i = 0;
	     strcmp(loc.commondir, loc.gitdir) && i < ARRAY_SIZE(common_parts);
	     i++) {
		p = xstrfmt("%s/%s", loc.commondir, common_parts[i]);
		if (is_dir(p))
			strvec_push(roots, p);
		free(p);
	}
	repo_loc_release(&loc);
	/* the layout of git/quarantine.h; then the spool's directory */
	p = xstrfmt("%s/quarantine/%s", as->home, as->agent);
	strvec_push(roots, p);
	free(p);
	strvec_push(roots, as->cache);
	for (size_t i = roots->nr - 2; i < roots->nr; i++)
		if (mkdir_p(roots->v[i], 0700) < 0) {
			strbuf_addf(err, "cannot create '%s': %s", roots->v[i],
				    strerror(errno));
			return -1;
		}
	return 0;
}

int agent_own_sandbox_roots(struct agent_sandbox *as,
			    const struct agent_preset *pr, struct strbuf *err)
{
	struct strvec roots = STRVEC_INIT;
	struct strbuf arg = STRBUF_INIT;
	int rc = 0;

	if (as->sandboxed || !pr || !pr->writable_roots_config)
		return 0;
	if (collect(as, &roots, err) < 0 ||
	    (rc = agent_writable_roots_arg(pr, (const char *const *)roots.v,
					   &arg, err)) < 0)
		rc = -1;
	else if (rc == 0 && spool_create(as->spool) < 0) {
		strbuf_addf(err, "cannot create the event spool '%s': %s",
			    as->spool, strerror(errno));
		rc = -1;
	} else if (rc == 0) {
		strvec_pushl(&as->plan.argv, "-c", arg.buf, NULL);
		strvec_setenv(&as->plan.env, EVENTS_SPOOL_ENV, as->spool);
		as->own_roots = true;
	}
	strvec_clear(&roots);
	strbuf_release(&arg);
	return rc < 0 ? -1 : 0;
}
