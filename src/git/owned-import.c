/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A workspace's commits into a repository agentic-git owns; see
 * owned-import.h for the invariants.
 */
#include "base/common.h"
#include <string.h>
#include "base/spawn.h"
#include "base/xalloc.h"
#include "git/gitcmd.h"
#include "git/owned-import.h"

const char *const owned_read_config[] = {
	"core.attributesFile=/dev/null",
	"core.bigFileThreshold=2047m",
	NULL,
};

/* Invariant 3: the haves `owned` has, as "^<id>" lines. */
static int usable_haves(const char *owned, const char *const *haves,
			struct strbuf *lines, struct strbuf *err)
{
	struct strbuf in = STRBUF_INIT, found = STRBUF_INIT, msg = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int rc = 0;

	for (size_t i = 0; haves && haves[i]; i++)
		if (*haves[i])
			strbuf_addf(&in, "%s\n", haves[i]);
	if (!in.len)
		goto out;
	gitcmd_prepare(&c, GIT_OPERATOR, gitcmd_real_git(), owned);
	strvec_pushl(&c.args, "cat-file", "--batch-check=%(objectname)", NULL);
	c.in = in.buf;
	c.in_len = in.len;
	if (gitcmd_run(&c, &found, &msg)) {
		strbuf_addf(err, "cannot read agentic-git's repository: %s",
			    msg.buf);
		rc = -1;
		goto out;
	}
	/* "<id> missing" lines are dropped, the others get their '^' */
	for (const char *p = found.buf; *p;) {
		const char *nl = strchrnul(p, '\n');
		size_t n = (size_t)(nl - p);
		if (n && !memchr(p, ' ', n))
			strbuf_addf(lines, "^%.*s\n", (int)n, p);
		p = *nl ? nl + 1 : nl;
	}
out:
	child_release(&c);
	strbuf_release(&in);
	strbuf_release(&found);
	strbuf_release(&msg);
	return rc;
}

int owned_import(const char *workspace, const char *owned, const char *tip,
		 const char *const *haves, struct strbuf *err)
{
	struct strbuf revs = STRBUF_INIT, pack = STRBUF_INIT, msg = STRBUF_INIT,
		      idx = STRBUF_INIT;
	struct child p = CHILD_INIT, ix = CHILD_INIT;
	int rc = -1;

	strbuf_addf(&revs, "%s\n", tip);
	if (usable_haves(owned, haves, &revs, err) < 0)
		goto out;
	/* invariant 1 */
	gitcmd_prepare(&p, GIT_AGENT_REPO, gitcmd_real_git(), workspace);
	strvec_pushl(&p.env_set,
		     "GIT_SHALLOW_FILE=", "GIT_GRAFT_FILE=/dev/null",
		     "GIT_NO_REPLACE_OBJECTS=1", NULL);
	strvec_pushl(&p.args, "-c", "pack.threads=1", "-c",
		     "advice.graftFileDeprecated=false", "pack-objects",
		     "--revs", "--stdout", "-q", NULL);
	p.in = revs.buf;
	p.in_len = revs.len;
	if (gitcmd_run(&p, &pack, &msg) || !pack.len) {
		strbuf_addf(err, "cannot read the commits of the workspace: %s",
			    msg.len ? msg.buf : "no pack");
		goto out;
	}
	/* invariant 2 */
	strbuf_reset(&msg);
	gitcmd_prepare(&ix, GIT_OPERATOR, gitcmd_real_git(), owned);
	strvec_pushl(&ix.args, "index-pack", "--stdin", "--strict", NULL);
	ix.in = pack.buf;
	ix.in_len = pack.len;
	if (gitcmd_run(&ix, &idx, &msg)) {
		strbuf_addf(
			err,
			"agentic-git's repository refused the workspace's objects: %s",
			msg.buf);
		goto out;
	}
	rc = 0;
out:
	child_release(&p);
	child_release(&ix);
	strbuf_release(&revs);
	strbuf_release(&pack);
	strbuf_release(&msg);
	strbuf_release(&idx);
	return rc;
}
