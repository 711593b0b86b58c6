/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Checks before `run` creates anything (invariants 1 and 2 of session.h):
 * the repository, the base, and whether an existing session may be reused.
 * Nothing in this file writes to disk.
 */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "agentic-git/core.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "git/gitcmd.h"
#include "fleet/workspace.h"
#include "git/ended-branches.h"
#include "git/refs-files.h"
#include "git/realgit.h"
#include "git/repo.h"
#include "fleet/session.h"

/*
 * The default base, HEAD on a branch, read from the ref files without
 * git (the session-start budget); NULL when that needs git (a symref, a
 * sha256 name, an odd file: refs-files.h invariant 1).
 */
static char *head_commit_from_files(const struct repo_loc *loc)
{
	struct strbuf out = STRBUF_INIT;
	const char *why;
	char *ref, *oid = NULL;

	if (!loc->head_branch || !ag_branch_name_valid(loc->head_branch, &why))
		return NULL;
	ref = xstrfmt("refs/heads/%s", loc->head_branch);
	if (!refs_files_lookup(loc->commondir, 40, (const char *const *)&ref, 1,
			       &out) && out.len > 40 && out.buf[40] == ' ')
		oid = xstrndup(out.buf, 40);
	free(ref);
	strbuf_release(&out);
	return oid;
}

/*
 * s->base_branch: the local branch the base names, HEAD's branch for
 * HEAD; NULL for a tag, an id or a detached HEAD (recorded in the
 * binding for review and merge).
 */
static void base_branch_of(struct session *s, const struct repo_loc *loc)
{
	struct strbuf ref = STRBUF_INIT, out = STRBUF_INIT;
	const char *why, *name = s->base;

	if (!strcmp(name, "HEAD"))
		name = loc->head_branch;
	else if (starts_with(name, "refs/heads/"))
		name += strlen("refs/heads/");
	if (!name || !ag_branch_name_valid(name, &why))
		return;
	strbuf_addf(&ref, "refs/heads/%s", name);
	if (name == loc->head_branch ||
	    !gitcmd_capture(s->real_git, loc->top, &out, NULL, "show-ref",
			    "--verify", "--quiet", ref.buf, NULL))
		s->base_branch = xstrdup(name);
	strbuf_release(&ref);
	strbuf_release(&out);
}

/*
 * s->base_oid: the base resolved to a commit once, so that a worktree and
 * a private workspace start from the same one (any commit-ish: a branch,
 * a tag, an id, HEAD).
 */
static int resolve_base(struct session *s, const struct repo_loc *loc,
			struct strbuf *err)
{
	struct strbuf spec = STRBUF_INIT, out = STRBUF_INIT;
	int rc = 0;

	if (!strcmp(s->base, "HEAD"))
		s->base_oid = head_commit_from_files(loc);
	if (s->base_oid)
		return 0;
	strbuf_addf(&spec, "%s^{commit}", s->base);
	if (gitcmd_capture(s->real_git, loc->top, &out, NULL, "rev-parse",
			   "--verify", "--quiet", "--end-of-options", spec.buf,
			   NULL))
		strbuf_reset(&out);
	gitcmd_chomp(&out);
	if (!out.len) {
		strbuf_addf(err, "base '%s' does not name a commit in '%s'; pass --base with a branch, tag or commit",
			    s->base, loc->top);
		rc = 1;
	} else {
		s->base_oid = strbuf_detach(&out, NULL);
	}
	strbuf_release(&spec);
	strbuf_release(&out);
	return rc;
}

int session_inspect_repo(struct session *s, struct strbuf *err)
{
	struct repo_loc loc = { 0 };
	enum repo_found found;
	char cwd[4096];
	int rc = 0;

	s->real_git = realgit_locate(s->home);
	if (!s->real_git) {
		strbuf_addstr(err, "cannot find the real git (only the shim is on PATH); set AGENTIC_GIT_REAL_GIT to git's absolute path");
		return 1;
	}
	if (!getcwd(cwd, sizeof(cwd))) {
		strbuf_addf(err, "cannot read the current directory: %s", strerror(errno));
		return 1;
	}
	/* Read from the .git files: no subprocess (the session-start budget). */
	found = repo_discover(cwd, &loc);
	if (found != REPO_FOUND) {
		struct strbuf out = STRBUF_INIT;
		/* error path only: is it a bare repository rather than none? */
		bool bare = !gitcmd_capture(s->real_git, cwd, &out, NULL,
					    "rev-parse", "--is-bare-repository",
					    NULL) && !strcmp(out.buf, "true\n");
		strbuf_release(&out);
		if (bare)
			loc.top = NULL, found = REPO_FOUND;
	}
	if (found != REPO_FOUND) {
		strbuf_addstr(err, "the current directory is not inside a git repository; cd into the checkout the agent should work on (run requires a non-bare git repo)");
		rc = 1;
	} else if (!loc.top) {
		strbuf_addstr(err, "the current directory is a bare repository; run from a checkout (run requires a non-bare git repo)");
		rc = 1;
	} else {
		rc = resolve_base(s, &loc, err);
		if (!rc)
			base_branch_of(s, &loc);
		s->source_repo = steal_pointer(&loc.top);
		s->common_dir = steal_pointer(&loc.commondir);
	}
	repo_loc_release(&loc);
	return rc;
}

char *session_common_dir_of(const char *dir)
{
	struct repo_loc loc = { 0 };
	char *common = NULL;

	if (repo_discover(dir, &loc) == REPO_FOUND)
		common = steal_pointer(&loc.commondir);
	repo_loc_release(&loc);
	return common;
}

/*
 * The session's directory is the kind this run needs: a linked worktree
 * of this repository for a plain command, a private workspace borrowing
 * this repository's objects (fleet/workspace.h) for a sandboxed profile.
 */
static int check_kind(const struct session *s, struct strbuf *err)
{
	char *wt_common = session_common_dir_of(s->worktree);
	bool linked = wt_common && !strcmp(wt_common, s->common_dir);
	bool private_ws = !linked &&
			  workspace_is_private_of(s->worktree, s->common_dir);

	free(wt_common);
	if (linked && s->private_ws)
		strbuf_addf(err, "the session of agent '%s' is a plain worktree, and a sandboxed profile needs a private workspace; nothing was changed. End it first: agentic-git end --agent %s",
			    s->agent, s->agent);
	else if (private_ws && !s->private_ws)
		strbuf_addf(err, "the session of agent '%s' is a sandboxed one (a private workspace); nothing was changed. Re-enter it with its sandboxed --profile, or end it first: agentic-git end --agent %s",
			    s->agent, s->agent);
	else if (!linked && !private_ws)
		strbuf_addf(err, "the worktree '%s' of agent '%s' no longer belongs to this repository; end it: agentic-git end --agent %s",
			    s->worktree, s->agent, s->agent);
	else
		return 0;
	return 1;
}

/* The binding verified: does it describe this very session? */
static int check_match(struct session *s, const struct ag_binding *b,
		       struct strbuf *err)
{
	if (!b->branch || strcmp(b->branch, s->branch)) {
		strbuf_addf(err, "agent '%s' already has a session on branch '%s' (runtime %s/runtime/%s); re-enter it with --branch '%s', or end it first: agentic-git end --agent %s",
			    s->agent, b->branch ? b->branch : "?", s->home,
			    s->agent, b->branch ? b->branch : "?", s->agent);
		return 1;
	}
	if (!b->worktree || strcmp(b->worktree, s->worktree) ||
	    !same_real_path(b->source_repo, s->source_repo)) {
		strbuf_addf(err, "agent '%s' already has a session for branch '%s' in another repository or worktree (source_repo '%s'); run from that repository, or end it first: agentic-git end --agent %s",
			    s->agent, s->branch,
			    b->source_repo ? b->source_repo : "?", s->agent);
		return 1;
	}
	return check_kind(s, err);
}

/*
 * The live session (a binding that verifies) of another agent on the
 * same branch of the same repository, malloc'd, or NULL.
 */
static char *live_holder(const struct session *s)
{
	char *dir = xstrfmt("%s/runtime", s->home);
	DIR *d = opendir(dir);
	struct dirent *de;
	char *who = NULL;
	const char *why;

	free(dir);
	while (d && !who && (de = readdir(d))) {
		struct ag_binding b;

		if (!ag_agent_name_valid(de->d_name, &why) ||
		    !strcmp(de->d_name, s->agent))
			continue;
		if (ag_binding_load(s->home, de->d_name, &b) !=
		    AG_BINDING_BOUND)
			continue;
		if (b.branch && !strcmp(b.branch, s->branch) &&
		    same_real_path(b.source_repo, s->source_repo))
			who = xstrdup(de->d_name);
		ag_binding_release(&b);
	}
	if (d)
		closedir(d);
	return who;
}

/* The agent whose ended session left the branch, when not this one. */
static char *ended_by_other(const struct session *s)
{
	struct strvec br = STRVEC_INIT, ag = STRVEC_INIT;
	char *who = NULL;

	if (!ended_branches_read(s->home, s->common_dir, &br, &ag))
		for (size_t i = 0; !who && i < br.nr; i++)
			if (!strcmp(br.v[i], s->branch) &&
			    strcmp(ag.v[i], s->agent))
				who = xstrdup(ag.v[i]);
	strvec_clear(&br);
	strvec_clear(&ag);
	return who;
}

/*
 * Resume (PRODUCT.md §6): an existing branch no live session holds is
 * adopted by a new worktree at its tip. Another agent's live session, or
 * the branch an ended session of another agent left (kept from every
 * other agent, git/ended-branches.h), is refused.
 */
static int check_adopt(struct session *s, const struct repo_loc *loc,
		       const char *ref, struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;
	char *who = live_holder(s);

	if (who) {
		strbuf_addf(
			err,
			"branch '%s' is held by the live session of agent '%s'; review or end it first (agentic-git end --agent %s), or pick a new --branch",
			s->branch, who, who);
		free(who);
		return 1;
	}
	who = ended_by_other(s);
	if (who) {
		strbuf_addf(
			err,
			"branch '%s' was left by agent '%s' and stays that agent's; resume it with --agent %s, or pick a new --branch",
			s->branch, who, who);
		free(who);
		return 1;
	}
	if (refs_files_lookup(loc->commondir, 40, &ref, 1, &out) ||
	    out.len <= 40 || out.buf[40] != ' ') {
		strbuf_reset(&out);
		if (gitcmd_capture(s->real_git, loc->top, &out, NULL,
				   "rev-parse", "--verify", "--quiet", ref,
				   NULL))
			strbuf_reset(&out);
	}
	if (out.len < 40) {
		strbuf_addf(err, "branch '%s' cannot be read in '%s'",
			    s->branch, s->source_repo);
		strbuf_release(&out);
		return 1;
	}
	s->adopt_oid = xstrndup(out.buf, 40);
	strbuf_release(&out);
	return 0;
}

static int check_fresh(struct session *s, struct strbuf *err)
{
	struct strbuf ref = STRBUF_INIT;
	struct repo_loc loc = { 0 };
	bool exists;
	int rc = 0;

	strbuf_addf(&ref, "refs/heads/%s", s->branch);
	exists = repo_discover(s->source_repo, &loc) == REPO_FOUND &&
		 repo_ref_exists(&loc, ref.buf);
	if (exists)
		rc = check_adopt(s, &loc, ref.buf, err);
	repo_loc_release(&loc);
	strbuf_release(&ref);
	if (rc)
		return rc;
	if (path_exists(s->worktree)) {
		strbuf_addf(err, "worktree path '%s' already exists but no session owns it; remove it (git worktree remove) or pick another --agent/--branch",
			    s->worktree);
		return 1;
	}
	return 0;
}

int session_check_existing(struct session *s, struct strbuf *err)
{
	struct ag_binding b;
	enum ag_binding_state st;
	int rc;

	s->reused = false;
	/* decided again under the repository lock (provisioning) */
	free(s->adopt_oid);
	s->adopt_oid = NULL;
	st = ag_binding_load(s->home, s->agent, &b);
	switch (st) {
	case AG_BINDING_NONE:
		return check_fresh(s, err);
	case AG_BINDING_BOUND:
		rc = check_match(s, &b, err);
		s->bypass_stale = !b.bypass ||
				  strcmp(b.bypass, s->allow_bypass ? AG_BYPASS_ALLOWED
								   : AG_BYPASS_DENIED);
		ag_binding_release(&b);
		s->reused = !rc;
		return rc;
	case AG_BINDING_ORPHAN:
		strbuf_addf(err, "agent '%s' has a stale session: the worktree in %s/runtime/%s/binding.json is gone; clear it with: agentic-git end --agent %s",
			    s->agent, s->home, s->agent, s->agent);
		return 1;
	default:
		ag_binding_release(&b);
		strbuf_addf(err, "refusing to reuse the session of agent '%s': %s/runtime/%s/binding.json is %s; nothing was changed. Inspect it, then remove that runtime directory by hand or use another --agent",
			    s->agent, s->home, s->agent, ag_binding_state_str(st));
		return 1;
	}
}
