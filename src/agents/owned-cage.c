/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The cage of agentic-git's own git; see owned-cage.h for the invariants.
 */
#include "base/common.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "agents/owned-cage.h"
#include "agents/sandbox-landlock.h"
#include "agents/sandbox-probe.h"
#include "agents/sandbox.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "git/quarantine.h" /* remove_tree */

static const char *const sys_dirs[] = SANDBOX_SYS_DIRS;
static const char *const devs[] = SANDBOX_LANDLOCK_DEVS;
static char *private_tmp; /* owned: invariant 5, Landlock */
static pid_t tmp_owner;	  /* the process that made it */

/* Only by its maker: a worker forked after it was made (sessions,
 * fleet/session-gather.c) exits without taking it from its parent. */
static void remove_private_tmp(void)
{
	if (private_tmp && getpid() == tmp_owner)
		remove_tree(private_tmp);
}

/* Invariant 5: made once; NULL when it cannot be. */
static const char *landlock_tmp(void)
{
	const char *base = getenv("TMPDIR");
	char *t;

	if (private_tmp)
		return private_tmp;
	t = xstrfmt("%s/agentic-git-own-XXXXXX",
		    base && *base == '/' ? base : "/tmp");
	if (!mkdtemp(t)) {
		free(t);
		return NULL;
	}
	private_tmp = t;
	tmp_owner = getpid();
	atexit(remove_private_tmp);
	return private_tmp;
}

/* Invariant 4. */
static int paths_ok(const struct gitcmd_cage *cg, struct strbuf *why)
{
	const char *bad = NULL;

	if (!cg->dir || cg->dir[0] != '/')
		bad = cg->dir ? cg->dir : "(none)";
	for (size_t i = 0; !bad && i < cg->rw_nr; i++)
		if (cg->rw[i][0] != '/')
			bad = cg->rw[i];
	for (size_t i = 0; !bad && i < cg->ro_nr; i++)
		if (cg->ro[i][0] != '/')
			bad = cg->ro[i];
	if (!bad)
		return 0;
	strbuf_addf(why, "'%s' is not an absolute path", bad);
	return -1;
}

/* Invariant 1 with Landlock: `agentic-git sandbox exec`. */
static void landlock_prefix(const struct sandbox_caps *caps,
			    const struct gitcmd_cage *cg, const char *tmp,
			    struct strvec *p)
{
	strvec_pushl(p, self_exe(), "sandbox", "exec", "--policy", "fs+no-net",
		     NULL);
	for (size_t i = 0; i < SANDBOX_SYS_DIRS_NR; i++)
		if (caps->sys_kind[i] == SYSDIR_DIR)
			strvec_pushl(p, "--ro", sys_dirs[i], NULL);
	for (size_t i = 0; i < ARRAY_SIZE(devs); i++)
		strvec_pushl(p, "--dev", devs[i], NULL);
	for (size_t i = 0; i < cg->ro_nr; i++)
		strvec_pushl(p, "--ro", cg->ro[i], NULL);
	for (size_t i = 0; i < cg->rw_nr; i++)
		strvec_pushl(p, "--rw", cg->rw[i], NULL);
	strvec_pushl(p, "--rw", tmp, "--no-net", "--", NULL);
}

/* Invariant 1 with bubblewrap: nothing mounted but what is granted. */
static void bwrap_prefix(const struct sandbox_caps *caps,
			 const struct gitcmd_cage *cg, struct strvec *p)
{
	strvec_pushl(p, caps->bwrap_path, "--unshare-all", "--die-with-parent",
		     "--new-session", "--cap-drop", "ALL", NULL);
	for (size_t i = 0; i < SANDBOX_SYS_DIRS_NR; i++) {
		if (caps->sys_kind[i] == SYSDIR_DIR)
			strvec_pushl(p, "--ro-bind", sys_dirs[i], sys_dirs[i],
				     NULL);
		else if (caps->sys_kind[i] == SYSDIR_SYMLINK)
			strvec_pushl(p, "--symlink", caps->sys_link[i],
				     sys_dirs[i], NULL);
	}
	strvec_pushl(p, "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
		     NULL);
	/* read-only first: a repository below a store stays writable */
	for (size_t i = 0; i < cg->ro_nr; i++)
		strvec_pushl(p, "--ro-bind", cg->ro[i], cg->ro[i], NULL);
	for (size_t i = 0; i < cg->rw_nr; i++)
		strvec_pushl(p, "--bind", cg->rw[i], cg->rw[i], NULL);
	strvec_pushl(p, "--chdir", cg->dir, "--", NULL);
}

int owned_cage_prefix(const struct gitcmd_cage *cg, struct strvec *prefix,
		      struct strvec *env, struct strbuf *why)
{
	const struct sandbox_caps *caps;
	const char *tmp;

	if (paths_ok(cg, why) < 0)
		return -1;
	/* invariant 2: Landlock costs one exec; the probe is a syscall */
	caps = sandbox_probe_for(SANDBOX_BACKEND_LANDLOCK);
	if (caps->landlock_abi > 0 && caps->seccomp && self_exe() &&
	    (tmp = landlock_tmp())) {
		landlock_prefix(caps, cg, tmp, prefix);
		strvec_pushf(env, "TMPDIR=%s", tmp);
		return 0;
	}
	caps = sandbox_probe_for(SANDBOX_BACKEND_BWRAP);
	if (caps->bwrap_works && *caps->bwrap_path) {
		bwrap_prefix(caps, cg, prefix);
		strvec_push(env, "TMPDIR=/tmp");
		return 0;
	}
	strbuf_addf(
		why,
		"this host can sandbox nothing (landlock: %s; bubblewrap: %s)",
		*caps->landlock_why ? caps->landlock_why : "unavailable",
		*caps->bwrap_why ? caps->bwrap_why : "unavailable");
	return -1;
}

void owned_cage_install(void)
{
	gitcmd_cage_set(owned_cage_prefix);
}
