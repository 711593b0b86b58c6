/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agents check, second half: is `git` the shim in the agent's tool shell?
 *
 * The shell is run the way the agent runs each tool command (presets.h
 * `tool_shell`, e.g. codex's `bash -lc`, or `bash -c` when its command
 * says `allow_login_shell=false`) in the environment a session gives the
 * agent: the safe base, and PATH led by a directory whose `git` is the
 * shim, as <home>/bin is (fleet/session.h session_child_env()). What that
 * shell then finds as `git` is what the agent's commands meet in a plain
 * session; a login shell's /etc/profile or ~/.profile that resets PATH
 * shows here as a FAIL. (Inside bwrap the shim is also bound over the
 * standard git paths; outside, nothing else holds.)
 */
#include "base/common.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "agents/plan.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "cmd/agents.h"

#define SHELL_TIMEOUT 30.0 /* seconds for `command -v git` */

/* A fresh <tmp>/bin/git -> the shim; the dir is returned (malloc'd). */
static char *shim_dir(struct strbuf *err)
{
	const char *tmp = getenv("TMPDIR");
	const char *exe = shim_exe();
	char *dir = xstrfmt("%s/agentic-git-check.XXXXXX",
			    tmp && tmp[0] == '/' ? tmp : "/tmp");
	char *bin = NULL, *git = NULL;

	if (!exe) {
		strbuf_addstr(err, "cannot find agentic-git's own executable");
		free(dir);
		return NULL;
	}
	if (!mkdtemp(dir)) {
		strbuf_addf(err, "cannot create a directory for the shim: %s",
			    strerror(errno));
		free(dir);
		return NULL;
	}
	bin = xstrfmt("%s/bin", dir);
	git = xstrfmt("%s/git", bin);
	if (mkdir(bin, 0700) < 0 || symlink(exe, git) < 0) {
		strbuf_addf(err, "cannot link '%s' to the shim: %s", git,
			    strerror(errno));
		unlink(git);
		rmdir(bin);
		rmdir(dir);
		free(dir);
		dir = NULL;
	}
	free(bin);
	free(git);
	return dir;
}

static void shim_dir_remove(const char *dir)
{
	char *bin = xstrfmt("%s/bin", dir), *git = xstrfmt("%s/git", bin);

	unlink(git);
	rmdir(bin);
	rmdir(dir);
	free(git);
	free(bin);
}

/* Runs `SHELL… 'command -v git'` with PATH led by dir/bin, into `out`. */
static int run_shell(const char *const *shell, const char *dir,
		     struct strbuf *out, struct strbuf *err)
{
	struct child c = CHILD_INIT;
	struct strvec none = STRVEC_INIT;
	const char *path = getenv("PATH");
	char *lead = xstrfmt("%s/bin:%s", dir,
			     path && *path ? path : "/usr/bin:/bin");
	bool timed_out;
	int ret = 0;

	strvec_pushv(&c.args, shell);
	strvec_push(&c.args, "command -v git");
	agent_env_scope(NULL, &none, &c.env);
	strvec_setenv(&c.env, "PATH", lead);
	c.capture_out = true;
	if (agents_run_child(&c, SHELL_TIMEOUT, &timed_out) < 0) {
		strbuf_addf(err, "cannot run '%s': %s", shell[0],
			    strerror(errno));
		ret = -1;
	} else if (timed_out) {
		strbuf_addf(err, "'%s' did not finish within %.0fs", shell[0],
			    SHELL_TIMEOUT);
		ret = -1;
	} else {
		strbuf_addbuf(out, &c.out);
		strbuf_trim(out);
	}
	child_release(&c);
	free(lead);
	return ret;
}

int agents_check_shell(const struct agent_profile *p)
{
	const struct agent_preset *pr = p->preset;
	const char *const *shell =
		preset_tool_shell(pr, (const char *const *)p->command.v);
	struct strbuf how = STRBUF_INIT, out = STRBUF_INIT, err = STRBUF_INIT;
	char *dir, *want = NULL;
	int ret = 0;

	if (!shell)
		return 0; /* not known: nothing to run it as */
	for (size_t i = 0; shell[i]; i++)
		strbuf_addf(&how, "%s%s", i ? " " : "", shell[i]);
	dir = shim_dir(&err);
	if (dir) {
		want = xstrfmt("%s/bin/git", dir);
		if (run_shell(shell, dir, &out, &err) == 0 &&
		    strcmp(out.buf, want))
			strbuf_addf(
				&err,
				"git there is '%s', not the shim: its start-up files reset PATH%s%s%s",
				out.len ? out.buf : "(none)",
				pr->tool_shell_plain_arg ? "; keep '-c " : "",
				pr->tool_shell_plain_arg
					? pr->tool_shell_plain_arg
					: "",
				pr->tool_shell_plain_arg ? "' in its command"
							 : "");
		shim_dir_remove(dir);
	}
	if (err.len) {
		printf("%s: FAIL: in its tool shell ('%s') %s\n", p->name,
		       how.buf, err.buf);
		ret = -1;
	} else {
		printf("%s: ok: git in its tool shell ('%s') is the shim\n",
		       p->name, how.buf);
	}
	free(dir);
	free(want);
	strbuf_release(&how);
	strbuf_release(&out);
	strbuf_release(&err);
	return ret;
}
