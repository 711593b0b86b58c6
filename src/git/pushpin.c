/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The push window closed (git/pushpin.h).
 *
 * Invariants (tests: t0150 "the push window", test-policy):
 *  1. The real push always runs the pre-push hook: `--verify` comes after
 *     every option of the agent's (before its `--`), so `--no-verify`
 *     cannot undo it, and core.hooksPath names the session hooks.
 *  2. A line is sent only when its local oid is one the guard scanned; a
 *     deletion (zero oid) or a line that does not parse is refused.
 *  3. When the hooks cannot be made ready the push does not run.
 */
#include "base/common.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/path.h"
#include "base/spawn.h"
#include "base/strvec.h"
#include "git/gitcmd.h"
#include "git/hooks.h"
#include "git/policy.h"
#include "git/pushpin.h"

/*
 * The hooks directory the real push runs with: the session hooks when the
 * worktree already names them as its core.hooksPath (a session's, a
 * dispatch workspace's: their reference-transaction lock and journal run
 * as always), else <home>/hooks/pin, the pre-push stub alone (an
 * embedder's worktree keeps no other hook of ours). The stub is written
 * when missing. NULL, reason in err, when it cannot be made ready.
 */
static char *pin_hooks(const char *real_git, const char *dir, const char *home,
		       const char *agentic_git, struct strbuf *err)
{
	struct strbuf cfg = STRBUF_INIT, stub = STRBUF_INIT;
	char *session = hooks_dir(home), *hooks = NULL, *have, *want;
	struct child c = CHILD_INIT;
	bool own;

	gitcmd_prepare(&c, GIT_INTERNAL, real_git, dir);
	strvec_pushl(&c.args, "config", "--get", "core.hooksPath", NULL);
	if (gitcmd_run(&c, &cfg, NULL) != 0)
		strbuf_reset(&cfg); /* unset: exit 1 */
	child_release(&c);
	gitcmd_chomp(&cfg);
	/* as written where they do not exist yet */
	have = cfg.len ? real_path(cfg.buf) : NULL;
	want = real_path(session);
	own = cfg.len && !strcmp(have ? have : cfg.buf, want ? want : session);
	hooks = own ? session : hooks_pin_dir(home);
	strbuf_addf(&stub, "%s/pre-push", hooks);
	if (access(stub.buf, X_OK) &&
	    (!agentic_git ||
	     (own ? hooks_install(hooks, agentic_git)
		  : hooks_install_pin(home, agentic_git)) < 0)) {
		strbuf_addf(err,
			    "cannot install the pre-push hook in '%s' (%s)",
			    hooks, strerror(errno));
		free(hooks);
		hooks = NULL;
	}
	if (!own)
		free(session);
	free(have);
	free(want);
	strbuf_release(&cfg);
	strbuf_release(&stub);
	return hooks;
}

int push_pin_apply(struct verdict *v, const char *real_git, const char *home,
		   const char *agentic_git, struct strbuf *err)
{
	struct strbuf cfg = STRBUF_INIT;
	const char *verify[] = { "--verify", NULL };
	const char *hp[] = { "-c", NULL, NULL };
	char *dir;
	size_t end;
	int ret = -1;

	if (!home || !*home) {
		strbuf_addstr(
			err,
			"no AGENTIC_GIT_HOME: no session hooks to pin the push with");
		return -1;
	}
	dir = pin_hooks(real_git, v->route_dir.buf, home, agentic_git, err);
	if (!dir)
		goto out;
	/* --verify after the agent's options: before the word that ends
	 * them (a `--` that is an option's value ends nothing), else last */
	end = v->opts_end_at < v->args.nr ? v->opts_end_at : v->args.nr;
	verdict_insert_args(v, end, verify);
	strbuf_addf(&cfg, "core.hooksPath=%s", dir);
	hp[1] = cfg.buf;
	verdict_insert_args(v, 0, hp);
	if (setenv(PUSH_PIN_ENV, v->push_pins.buf, 1) < 0) {
		strbuf_addf(err, "cannot set %s: %s", PUSH_PIN_ENV,
			    strerror(errno));
		goto out;
	}
	ret = 0;
out:
	free(dir);
	strbuf_release(&cfg);
	return ret;
}

static bool is_zero_oid(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != '0')
			return false;
	return n > 0;
}

bool push_pin_line_ok(const char *pins, const char *line, struct strbuf *why)
{
	const char *sp1 = strchr(line, ' '), *oid, *end, *p;
	size_t n;

	if (!sp1 || !(end = strchr(sp1 + 1, ' ')) || end == sp1 + 1) {
		strbuf_addstr(
			why,
			"a line git should not have written (fail-closed)");
		return false;
	}
	oid = sp1 + 1;
	n = (size_t)(end - oid);
	if (is_zero_oid(oid, n)) {
		strbuf_addf(
			why,
			"'%.*s' would be deleted, which the guard never allows",
			(int)(sp1 - line), line);
		return false;
	}
	for (p = pins; p && *p;) {
		size_t l = strcspn(p, " ");
		if (l == n && !strncmp(p, oid, n))
			return true;
		p += l;
		p += strspn(p, " ");
	}
	strbuf_addf(
		why,
		"'%.*s' is now %.*s, which the push guard did not scan (the ref moved after the scan)",
		(int)(sp1 - line), line, (int)n, oid);
	return false;
}
