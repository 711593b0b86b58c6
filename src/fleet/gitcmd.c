/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <stdarg.h>
#include <sys/stat.h>
#include "base/die.h"
#include "base/envvar.h"
#include "base/path.h"
#include "base/spawn.h"
#include "base/xalloc.h"
#include "fleet/gitcmd.h"
#include "git/realgit.h"

extern char **environ;

/* Repository-selecting variables (git's local_repo_env) and credentials. */
static const char *const repo_vars[] = {
	"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
	"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
	"GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES", "GIT_CONFIG",
	"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_PREFIX",
	"GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE", "GIT_QUARANTINE_PATH",
	"GIT_REPLACE_REF_BASE", "GIT_GRAFT_FILE", "GIT_NO_REPLACE_OBJECTS",
	"GIT_EXTERNAL_DIFF", "GIT_EXEC_PATH",
};

static char *real_git_path; /* owned, cached for the process */

/* The same real git the shim would use (git/realgit.c), never the shim. */
const char *gitcmd_real_git(void)
{
	if (!real_git_path)
		real_git_path = realgit_locate(ag_getenv_str(AGE_HOME));
	if (!real_git_path)
		error("cannot find the real git on PATH (set AGENTIC_GIT_REAL_GIT)");
	return real_git_path;
}

static bool drop_var(const char *e, bool scrub)
{
	static const char *const creds[] = {
		"SSH_AUTH_SOCK", "SSH_ASKPASS", "GIT_ASKPASS", "GIT_SSH",
		"GIT_SSH_COMMAND", "GH_TOKEN", "GITHUB_TOKEN", "GITLAB_TOKEN",
		"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "HOME", "XDG_CONFIG_HOME",
		"GIT_TERMINAL_PROMPT", "GCM_INTERACTIVE",
	};
	size_t n;

	for (size_t i = 0; i < ARRAY_SIZE(repo_vars); i++) {
		n = strlen(repo_vars[i]);
		if (!strncmp(e, repo_vars[i], n) && e[n] == '=')
			return true;
	}
	if (!strncmp(e, "GIT_CONFIG_KEY_", 15) || !strncmp(e, "GIT_CONFIG_VALUE_", 17))
		return true;
	for (size_t i = 0; scrub && i < ARRAY_SIZE(creds); i++) {
		n = strlen(creds[i]);
		if (!strncmp(e, creds[i], n) && e[n] == '=')
			return true;
	}
	return false;
}

static void build_env(struct strvec *env, bool scrub)
{
	for (char **e = environ; e && *e; e++)
		if (!drop_var(*e, scrub))
			strvec_push(env, *e);
	if (scrub) {
		strvec_pushl(env, "HOME=/nonexistent", "GIT_CONFIG_GLOBAL=/dev/null",
			     "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0",
			     "GCM_INTERACTIVE=never", NULL);
	}
}

void gitcmd_scrubbed_env(struct strvec *env)
{
	build_env(env, true);
}

/* The child for one command; false when there is no real git. */
static bool prepare(struct child *c, enum gitcmd_mode mode, const char *dir,
		    const char *const *args)
{
	const char *git = gitcmd_real_git();

	if (!git)
		return false;
	strvec_pushl(&c->args, git, "-c", "core.hooksPath=/dev/null", "-c",
		     "gc.auto=0", "-c", "maintenance.auto=false", NULL);
	if (mode == GITCMD_WORKSPACE)
		strvec_pushl(&c->args, "-c", "core.fsmonitor=false", "-c",
			     "diff.external=", "-c", "core.sshCommand=false",
			     "-c", "credential.helper=", NULL);
	strvec_pushv(&c->args, args);
	build_env(&c->env, mode == GITCMD_WORKSPACE);
	c->dir = dir;
	c->capture_out = true;
	c->capture_err = true;
	return true;
}

void gitcmd_parallel(enum gitcmd_mode mode, const char *dir,
		     struct gitcmd_job *jobs, size_t n)
{
	struct child *c = xcalloc(n ? n : 1, sizeof(*c));

	for (size_t i = 0; i < n; i++) {
		c[i] = (struct child)CHILD_INIT;
		jobs[i].status = -1;
		if (!prepare(&c[i], mode, dir, jobs[i].args))
			continue;
		if (child_start(&c[i]) < 0)
			error_errno("cannot run '%s'", c[i].args.v[0]);
	}
	/* in order: a child whose pipe fills waits until its turn */
	for (size_t i = 0; i < n; i++) {
		if (c[i].pid >= 0 && child_finish(&c[i]) == 0) {
			jobs[i].status = c[i].status;
			strbuf_addbuf(&jobs[i].out, &c[i].out);
		}
		child_release(&c[i]);
	}
	free(c);
}

int gitcmd(enum gitcmd_mode mode, const char *dir, struct strbuf *out,
	   struct strbuf *err, const char *const *args)
{
	struct child c = CHILD_INIT;
	const char *git;
	int rc;

	if (!prepare(&c, mode, dir, args)) {
		child_release(&c);
		return -1;
	}
	git = c.args.v[0];
	rc = child_run(&c);
	if (rc == 0)
		rc = c.status;
	else
		error_errno("cannot run '%s'", git);
	if (out)
		strbuf_addbuf(out, &c.out);
	if (err)
		strbuf_addbuf(err, &c.err);
	child_release(&c);
	return rc;
}

int gitcmdl(enum gitcmd_mode mode, const char *dir, struct strbuf *out,
	    struct strbuf *err, ...)
{
	struct strvec args = STRVEC_INIT;
	const char *s;
	va_list ap;
	int rc;

	va_start(ap, err);
	while ((s = va_arg(ap, const char *)))
		strvec_push(&args, s);
	va_end(ap);
	rc = gitcmd(mode, dir, out, err, args.v);
	strvec_clear(&args);
	return rc;
}
