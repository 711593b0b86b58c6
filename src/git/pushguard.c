/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Invariants:
 *  1. The scanned range is taken from what is pushed (each refspec's
 *     source), relative to the named remote's tracking refs — never a
 *     hard-coded origin/main, so master-default and dual-trunk repositories
 *     work and a laundered `other:feat/a` is scanned.
 *  2. Any git failure while verifying denies (fail-closed).
 *  3. A push without a refspec goes where git's configuration says; unless
 *     that is provably the current branch's own name (push.default simple,
 *     current or nothing, or upstream/tracking with an upstream of the same
 *     name, and no remote.*.push), it is denied.
 */
#include "base/common.h"
#include <stdarg.h>
#include <string.h>
#include "base/spawn.h"
#include "base/strbuf.h"
#include "base/strvec.h"
#include "base/xalloc.h"
#include "git/gitcmd.h"
#include "git/pushguard.h"

bool trust_root_path(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return !strcmp(base, ".config-integrity-key") ||
	       !strcmp(base, "policy.toml") || !strcmp(base, "fleet.yaml") ||
	       ends_with(base, ".jsonl");
}

static int git_capture(const char *real_git, const char *dir, unsigned depth,
		       struct strbuf *out, ...)
{
	struct child c = CHILD_INIT;
	va_list ap;
	const char *a;
	int ret;

	gitcmd_prepare(&c, GIT_INTERNAL, real_git, dir);
	va_start(ap, out);
	while ((a = va_arg(ap, const char *)))
		strvec_push(&c.args, a);
	va_end(ap);
	strvec_pushf(&c.env_set, "AGENTIC_GIT_SHIM_DEPTH=%u", depth + 1);
	c.capture_out = true;
	c.capture_err = true;
	ret = child_run(&c) < 0 ? -1 : c.status;
	if (out)
		strbuf_addbuf(out, &c.out);
	child_release(&c);
	return ret;
}

static bool is_remote_name(const char *real_git, const char *dir,
			   unsigned depth, const char *remote)
{
	struct strbuf key = STRBUF_INIT;
	int rc;
	strbuf_addf(&key, "remote.%s.url", remote);
	rc = git_capture(real_git, dir, depth, NULL, "config", "--get", key.buf,
			 NULL);
	strbuf_release(&key);
	return rc == 0;
}

static const char *scan_range(const char *real_git, const char *dir,
			      unsigned depth, const char *src,
			      const char *remote_opt, struct strbuf *why)
{
	struct strbuf out = STRBUF_INIT;
	const char *ev = NULL;
	char *line, *save = NULL;
	int rc;

	rc = git_capture(real_git, dir, depth, &out, "log", "--name-only",
			 "--format=", "--no-renames", src, "--not", remote_opt,
			 "--", NULL);
	if (rc != 0) {
		strbuf_addf(why, "could not verify the push range for '%s' (fail-closed) — check that it names a commit; if the remote's tracking refs are missing: git fetch <remote> && git remote set-head origin -a",
			    src);
		strbuf_release(&out);
		return "deny_trust_root";
	}
	for (line = strtok_r(out.buf, "\n", &save); line && !ev;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!trust_root_path(line))
			continue;
		strbuf_addf(why, "push range contains a trust-root file: `%s` — remove it from the branch history before pushing (git rm --cached %s, then rewrite the commits that added it)",
			    line, line);
		ev = "deny_trust_root";
	}
	strbuf_release(&out);
	return ev;
}

static const char *check_snapshot_tips(const char *real_git, const char *dir,
				       unsigned depth, const char *const *srcs,
				       size_t n, struct strbuf *why)
{
	struct strbuf tips = STRBUF_INIT;
	const char *ev = NULL;

	if (git_capture(real_git, dir, depth, &tips, "for-each-ref",
			"--format=%(objectname)", "refs/agentic-git/", NULL) ||
	    !tips.len) {
		strbuf_release(&tips);
		return NULL;
	}
	for (size_t i = 0; i < n && !ev; i++) {
		struct strbuf sha = STRBUF_INIT, spec = STRBUF_INIT;
		strbuf_addf(&spec, "%s^{commit}", srcs[i]);
		if (!git_capture(real_git, dir, depth, &sha, "rev-parse",
				 "--verify", "-q", spec.buf, NULL)) {
			strbuf_trim(&sha);
			if (sha.len && strstr(tips.buf, sha.buf)) {
				strbuf_addf(why, "SNAPSHOT_REF_PUSH: '%s' is an agentic-git snapshot, which never leaves this machine",
					    srcs[i]);
				ev = "deny_snapshot_ref_push";
			}
		}
		strbuf_release(&sha);
		strbuf_release(&spec);
	}
	strbuf_release(&tips);
	return ev;
}

/*
 * Where a refspec-less push lands, from one config listing: NULL when it is
 * the current branch's own name (or nothing), else the reason.
 */
static const char *implicit_push_target(const char *real_git, const char *dir,
					unsigned depth, const char *current)
{
	struct strbuf cfg = STRBUF_INIT, merge_key = STRBUF_INIT;
	const char *mode = "simple", *merge = NULL, *bad = NULL;
	bool remote_push = false;
	int rc;

	rc = git_capture(real_git, dir, depth, &cfg, "config", "-z",
			 "--get-regexp",
			 "^(push\\.default|remote\\..*\\.push|branch\\..*\\.merge)$",
			 NULL);
	if (rc != 0 && rc != 1) /* 1: none of these keys is set */
		return "cannot read the push configuration — name your branch: git push <remote> HEAD:<your branch>";
	strbuf_addf(&merge_key, "branch.%s.merge", current ? current : "");
	for (size_t off = 0; off < cfg.len;) {
		const char *key = cfg.buf + off, *nl = strchr(key, '\n');
		const char *val = nl ? nl + 1 : "";

		off += strlen(key) + 1;
		if (nl)
			cfg.buf[nl - cfg.buf] = '\0';
		if (!strcmp(key, "push.default"))
			mode = val;
		else if (starts_with(key, "remote."))
			remote_push = true;
		else if (!strcmp(key, merge_key.buf))
			merge = val;
	}
	if (remote_push)
		bad = "a remote.<name>.push refspec in the configuration decides where a bare git push goes — name your branch: git push <remote> HEAD:<your branch>";
	else if (!strcmp(mode, "matching"))
		bad = "push.default=matching would push every matching branch — name your branch: git push <remote> <branch>";
	else if (!strcmp(mode, "upstream") || !strcmp(mode, "tracking")) {
		if (!current || !merge || !starts_with(merge, "refs/heads/") ||
		    strcmp(merge + strlen("refs/heads/"), current))
			bad = "push.default=upstream would push to this branch's upstream, which is not your branch — name it: git push <remote> HEAD:<your branch>";
	} else if (strcmp(mode, "simple") && strcmp(mode, "current") &&
		   strcmp(mode, "nothing")) {
		bad = "push.default has a value this shim does not know — name your branch: git push <remote> HEAD:<your branch>";
	}
	strbuf_release(&cfg);
	strbuf_release(&merge_key);
	return bad;
}

const char *push_guards_run(const char *real_git, const char *dir,
			    const struct push_spec *ps, const char *current,
			    unsigned depth, struct strbuf *why)
{
	const char **specs;
	size_t n = push_sources(ps, current, &specs);
	struct strvec srcs = STRVEC_INIT;
	struct strbuf remote_opt = STRBUF_INIT;
	const char *ev = NULL;

	for (size_t i = 0; i < n; i++) {
		const char *colon = strchr(specs[i], ':');
		size_t len = colon ? (size_t)(colon - specs[i]) : strlen(specs[i]);
		if (len) {
			char *s = xstrndup(specs[i], len);
			strvec_push(&srcs, s);
			free(s);
		}
	}
	free(specs);
	if (!ps->nrefspecs && !ps->tags) {
		const char *bad = implicit_push_target(real_git, dir, depth,
						       current);
		if (bad) {
			strbuf_addstr(why, bad);
			ev = "deny_protected_ref";
		}
	}
	if (ps->remote && is_remote_name(real_git, dir, depth, ps->remote))
		strbuf_addf(&remote_opt, "--remotes=%s", ps->remote);
	else if (!ps->remote && is_remote_name(real_git, dir, depth, "origin"))
		strbuf_addstr(&remote_opt, "--remotes=origin");
	else
		strbuf_addstr(&remote_opt, "--remotes");
	for (size_t i = 0; i < srcs.nr && !ev; i++)
		ev = scan_range(real_git, dir, depth, srcs.v[i], remote_opt.buf,
				why);
	if (!ev)
		ev = check_snapshot_tips(real_git, dir, depth, srcs.v, srcs.nr,
					 why);
	strvec_clear(&srcs);
	strbuf_release(&remote_opt);
	return ev;
}
