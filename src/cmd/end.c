/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git end --agent NAME [--force]: tear a session down safely.
 *
 * Refuses (exit 1) while the worktree holds uncommitted or untracked work
 * or commits no remote-tracking ref has; --force takes a snapshot first.
 * The branch and the snapshots are always kept. A binding that does not
 * verify is never acted on. The session's run lock is held for the whole
 * teardown: a running session is refused, and --force stops its agent's
 * process group first (fleet/session-lock.h).
 */
#include "base/envvar.h"
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "agentic-git/core.h"
#include "base/die.h"
#include "base/eventlog.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "cmd/argtable.h"
#include "cmd/cmd.h"
#include "cmd/optsets.h"
#include "cmd/end.h"
#include "fleet/retention.h"
#include "fleet/workspace.h"
#include "git/ended-branches.h"
#include "git/gitcmd.h"
#include "fleet/session.h"
#include "fleet/session-lock.h"
#include "fleet/session-state.h"
#include "fleet/session-sync.h"
#include "git/quarantine.h"
#include "git/realgit.h"
#include "git/snapshot.h"
#include "git/stash-map.h"

static const char end_usage[] =
	"usage: agentic-git end --agent NAME [--force] [--json]\n"
	"\n"
	"End a guarded session: remove its worktree and its runtime directory.\n"
	"The branch and the snapshots are kept. Refuses while the worktree has\n"
	"uncommitted changes, untracked files or unpushed commits, and while an\n"
	"agent runs in the session (agentic-git sessions shows it running).\n"
	"\n"
	"  --agent NAME   the session's agent\n"
	"  --force        stop a running agent (SIGTERM to its process group, then\n"
	"                 SIGKILL after a grace), snapshot the unsaved work, then\n"
	"                 end anyway\n"
	"  --json         one JSON object on stdout instead of the text: agent,\n"
	"                 ended (false when refused), branch, worktree, forced,\n"
	"                 stopped_pid, snapshot, get_back (the command that\n"
	"                 resumes the branch); the reason for a refusal stays on\n"
	"                 stderr\n"
	"\n"
	"Exits 0 when the session was ended, 1 when it was refused or failed (the\n"
	"session is kept), 2 on bad usage.\n";

struct end_ctx {
	const char *home, *git;
	unsigned flags; /* enum end_flags */
	struct session_info si;
	struct strbuf snap;
	struct session_lock lock; /* held from the checks to the removal */
	long stopped;		  /* the agent --force stopped, or 0 */
};

static void describe_unsaved(const struct session_info *si, struct strbuf *sb)
{
	const char *sep = "";

	if (si->changed) {
		strbuf_addf(sb, "%d uncommitted change(s)", si->changed);
		sep = ", ";
	}
	if (si->untracked) {
		strbuf_addf(sb, "%s%d untracked file(s)", sep, si->untracked);
		sep = ", ";
	}
	if (si->unpushed > 0)
		strbuf_addf(
			sb,
			"%s%d commit(s) on '%s' in no remote, base or protected branch",
			sep, si->unpushed, si->branch);
	else if (si->unpushed < 0)
		strbuf_addf(sb, "%scommits whose push state is unknown", sep);
}

static int take_snapshot(struct end_ctx *c)
{
	/* removing the worktree deletes what `clean -ffdx` would (nested
	 * repositories too): quarantine it */
	static const char *const fdx[] = { "-f", "-f", "-d", "-x", NULL };
	struct strbuf err = STRBUF_INIT;
	struct snapshot_opts o = {
		.real_git = c->git,
		.dir = c->si.worktree,
		.agent = c->si.agent,
		.home = c->home,
		.slug = "end",
		.clean_args = fdx,
		.quarantine_ignored = true,
		/* the session's stash goes with its worktree: kept */
		.stash_ref = STASH_SESSION_REF,
	};
	int rc = snapshot_take(&o, &c->snap, &err);

	if (rc < 0)
		error("end: snapshot of '%s' failed: %s; nothing was removed",
		      c->si.worktree, err.buf);
	strbuf_release(&err);
	return rc;
}

/* rmdir the now-empty parents of the worktree up to <home>/worktrees. */
static void prune_parents(const char *home, const char *wt)
{
	char *stop = xstrfmt("%s/worktrees", home);
	char *dir = path_dirname(wt);

	while (strlen(dir) > strlen(stop) && starts_with(dir, stop) &&
	       !rmdir(dir)) {
		char *up = path_dirname(dir);
		free(dir);
		dir = up;
	}
	free(dir);
	free(stop);
}

/*
 * A sandboxed profile's private workspace is a repository of its own: the
 * session branch and the agent's snapshots are first brought into the
 * source repository by session_ws_sync() (no git runs in the workspace,
 * a diverged branch is never overwritten), then the directory is removed.
 */
static bool is_private_workspace(const char *wt)
{
	char *g = xstrfmt("%s/.git", wt);
	bool dir = is_dir(g);
	free(g);
	return dir;
}

static int remove_private(struct end_ctx *c, const char *from)
{
	const struct session_info *si = &c->si;
	struct session_ws w = { .home = c->home, .git = c->git,
				.agent = si->agent, .branch = si->branch,
				.workspace = si->worktree, .repo = from };

	if (session_ws_sync(&w, "end") < 0) {
		error("end: cannot bring branch '%s' back from the private workspace; the session was kept",
		      si->branch ? si->branch : "?");
		return 1;
	}
	if (workspace_remove(si->worktree) < 0)
		return 1;
	prune_parents(c->home, si->worktree);
	return 0;
}

/*
 * Branches outlive sessions: the branch stays protected from other
 * agents' sessions after this one ends (git/ended-branches.h).
 */
static void keep_branch(const struct end_ctx *c)
{
	const struct session_info *si = &c->si;
	const char *from = si->source_repo && is_dir(si->source_repo)
				   ? si->source_repo
				   : si->worktree;
	struct strbuf out = STRBUF_INIT;
	char *common = NULL;

	if (!si->branch || !from ||
	    gitcmd_capture(c->git, from, &out, NULL, "rev-parse",
			   "--path-format=absolute", "--git-common-dir",
			   NULL) != 0)
		goto out;
	gitcmd_chomp(&out);
	common = real_path(out.buf);
	if (common &&
	    ended_branch_record(c->home, si->agent, common, si->branch) == 0)
		goto out;
	warning("end: cannot record '%s' as an ended session's branch (%s): other agents are not kept from it",
		si->branch, strerror(errno));
out:
	free(common);
	strbuf_release(&out);
}

/*
 * The runtime directory goes at once: renamed out of the way first (a
 * name no agent can have), then removed. An `end` killed midway leaves
 * either the whole binding (the next `end` finishes) or a `.removing`
 * directory no session reads — never half a binding that every later
 * `end` refuses to act on.
 */
static void sweep_removing(const char *dir, const char *agent)
{
	char *prefix = xstrfmt(".%s.removing-", agent);
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		if (starts_with(de->d_name, prefix)) {
			char *p = path_join(dir, de->d_name);
			remove_tree(p); /* what a killed `end` left */
			free(p);
		}
	}
	if (d)
		closedir(d);
	free(prefix);
}

static int remove_runtime(const char *rt)
{
	char *dir = path_dirname(rt);
	char *gone = xstrfmt("%s/.%s.removing-%ld", dir, path_basename(rt),
			     (long)getpid());
	int ret;

	ret = rename(rt, gone) == 0 ? remove_tree(gone) : remove_tree(rt);
	sweep_removing(dir, path_basename(rt));
	free(gone);
	free(dir);
	return ret;
}

static int remove_session(struct end_ctx *c)
{
	struct strbuf err = STRBUF_INIT;
	const struct session_info *si = &c->si;
	const char *from = si->source_repo && is_dir(si->source_repo)
				   ? si->source_repo : si->worktree;
	char *rt = xstrfmt("%s/runtime/%s", c->home, si->agent);
	int rc = 0;

	if (si->worktree && is_dir(si->worktree) && from != si->worktree &&
	    is_private_workspace(si->worktree)) {
		rc = remove_private(c, from);
	} else if (si->worktree && is_dir(si->worktree)) {
		struct child wc = CHILD_INIT;
		char *parent = path_dirname(si->worktree);
		int st;

		/* the worktree the signed binding names (and so its parent,
		 * where its name is removed) writable in the cage */
		gitcmd_init_also(&wc, c->git, from, parent);
		free(parent);
		strvec_pushl(&wc.args, "worktree", "remove", "--force",
			     si->worktree, NULL);
		st = gitcmd_run(&wc, NULL, &err);
		child_release(&wc);
		if (st) {
			error("end: git worktree remove failed: %s; the session was kept",
			      err.buf);
			rc = 1;
		} else {
			prune_parents(c->home, si->worktree);
		}
	}
	if (!rc && from && is_dir(from))
		gitcmd_capture(c->git, from, NULL, NULL, "worktree", "prune", NULL);
	if (!rc && remove_runtime(rt) < 0) {
		error_errno("end: cannot remove '%s'", rt);
		rc = 1;
	}
	free(rt);
	strbuf_release(&err);
	return rc;
}

/*
 * How to get the session back, as commands that work as printed: resume
 * the branch (run --agent --branch adopts it, a new worktree at the
 * session's own path, where the snapshot was taken, so the restore needs
 * no --any-worktree).
 */
static void report_get_back(const struct end_ctx *c)
{
	const struct session_info *si = &c->si;
	struct strbuf src = STRBUF_INIT, wt = STRBUF_INIT, br = STRBUF_INIT;

	strbuf_add_shell_quoted(&src, si->source_repo ? si->source_repo : ".");
	strbuf_add_shell_quoted(&wt, si->worktree);
	strbuf_add_shell_quoted(&br, si->branch);
	printf("  kept:      branch '%s' and its snapshots (agentic-git snapshots list --repo %s --all --agent %s)\n",
	       si->branch, src.buf, si->agent);
	printf("  get back:  cd %s && agentic-git run --agent %s --branch %s -- <cmd>\n",
	       src.buf, si->agent, br.buf);
	if (c->snap.len)
		printf("             then: agentic-git snapshots restore --repo %s %s\n",
		       wt.buf, c->snap.buf);
	strbuf_release(&src);
	strbuf_release(&wt);
	strbuf_release(&br);
}

static void json_kv(struct strbuf *sb, const char *key, const char *val)
{
	strbuf_addf(sb, ",\"%s\":", key);
	if (val)
		strbuf_add_json_str(sb, val);
	else
		strbuf_addstr(sb, "null");
}

/* end --json: what was done, or {"ended": false} after a refusal. */
static void report_json(const struct end_ctx *c, const char *agent, bool ended,
			bool forced)
{
	const struct session_info *si = &c->si;
	struct strbuf sb = STRBUF_INIT, br = STRBUF_INIT, src = STRBUF_INIT;
	char *back = NULL;

	strbuf_addstr(&sb, "{\"agent\":");
	strbuf_add_json_str(&sb, agent);
	strbuf_addf(&sb, ",\"ended\":%s", ended ? "true" : "false");
	if (ended) {
		json_kv(&sb, "branch", si->branch);
		json_kv(&sb, "worktree", si->worktree);
		strbuf_addf(&sb, ",\"forced\":%s", forced ? "true" : "false");
		if (c->stopped)
			strbuf_addf(&sb, ",\"stopped_pid\":%ld", c->stopped);
		else
			strbuf_addstr(&sb, ",\"stopped_pid\":null");
		json_kv(&sb, "snapshot", c->snap.len ? c->snap.buf : NULL);
		if (si->branch) {
			strbuf_add_shell_quoted(&br, si->branch);
			strbuf_add_shell_quoted(
				&src, si->source_repo ? si->source_repo : ".");
			back = xstrfmt(
				"cd %s && agentic-git run --agent %s --branch %s -- <cmd>",
				src.buf, si->agent, br.buf);
		}
		json_kv(&sb, "get_back", back);
	}
	strbuf_addstr(&sb, "}\n");
	fputs(sb.buf, stdout);
	free(back);
	strbuf_release(&sb);
	strbuf_release(&br);
	strbuf_release(&src);
}

static void report(const struct end_ctx *c, bool forced)
{
	const struct session_info *si = &c->si;
	struct event ev = EVENT_INIT("session_end", si->agent, "end");

	event_add_str(&ev, "branch", si->branch);
	event_add_str(&ev, "worktree", si->worktree);
	event_add_bool(&ev, "forced", forced);
	event_add_str(&ev, "snapshot", c->snap.len ? c->snap.buf : NULL);
	event_write(c->home, &ev);
	event_release(&ev);

	if (c->flags & END_JSON) {
		report_json(c, si->agent, true, forced);
		return;
	}
	printf("ended session '%s'\n", si->agent);
	if (c->stopped)
		printf("  stopped:   agent (pid %ld) and its process group\n",
		       c->stopped);
	if (c->snap.len)
		printf("  snapshot:  %s (the unsaved work)\n", c->snap.buf);
	if (si->state != SESSION_MISSING)
		printf("  removed:   worktree %s\n", si->worktree);
	printf("  removed:   %s/runtime/%s\n", c->home, si->agent);
	if (!si->branch)
		return;
	report_get_back(c);
}

static int refuse_untrusted(const struct end_ctx *c)
{
	error("end: the binding of agent '%s' is %s; refusing to act on it. Nothing was changed: inspect %s/runtime/%s and remove it by hand",
	      c->si.agent,
	      c->si.state == SESSION_FORGED ? "forged (its signature does not verify)"
					    : "not a usable session binding",
	      c->home, c->si.agent);
	return 1;
}

static bool trusted(const struct session_info *si)
{
	return si->state != SESSION_FORGED && si->state != SESSION_INVALID;
}

static void refuse_stuck(const struct end_ctx *c, const struct session_holder *h)
{
	struct strbuf path = STRBUF_INIT;

	session_lock_file(c->home, c->si.agent, &path);
	if (h->pid)
		error("end: agent '%s' (pid %ld) did not stop within %d s and still holds '%s'; the session was kept. Stop it by hand (kill -KILL -- -%ld), then run end again",
		      c->si.agent, h->pid, SESSION_STOP_WAIT_MS / 1000,
		      path.buf, h->pgid);
	else
		error("end: '%s' is still held after %d s and names no agent to stop; the session was kept. Stop the process holding it (fuser '%s'), then run end again",
		      path.buf, SESSION_STOP_WAIT_MS / 1000, path.buf);
	strbuf_release(&path);
}

/*
 * Takes the run lock for the teardown. A running session is refused;
 * with --force its agent is stopped and the session read again, as the
 * agent may have changed it until it stopped.
 */
static int hold_session(struct end_ctx *c, bool force)
{
	struct session_holder h;
	struct strbuf msg = STRBUF_INIT;
	bool stopped = false;
	char *agent;
	int rc = session_lock_take(&c->lock, c->home, c->si.agent, &h);

	if (rc > 0 && !force) {
		session_lock_busy_msg(c->si.agent, &h, &msg);
		error("end: %s", msg.buf);
		strbuf_release(&msg);
		return 1;
	}
	if (rc > 0) {
		rc = session_lock_stop(&c->lock, c->home, c->si.agent, &h);
		stopped = true;
	}
	if (rc < 0) {
		session_lock_file(c->home, c->si.agent, &msg);
		error_errno("end: cannot take the session's lock '%s'; the session was kept",
			    msg.buf);
		strbuf_release(&msg);
		return 1;
	}
	if (rc > 0) {
		refuse_stuck(c, &h);
		return 1;
	}
	if (!stopped)
		return 0;
	c->stopped = h.pid;
	agent = xstrdup(c->si.agent);
	/* the stopped agent may have planted config again: ours first */
	if (session_ws_disarm_bound(c->home, c->git, agent, "end") < 0) {
		free(agent);
		return 1;
	}
	session_info_release(&c->si);
	session_info_read(c->home, c->git, agent, &c->si);
	free(agent);
	return 0;
}

static int end_session(struct end_ctx *c)
{
	struct session_info *si = &c->si;
	bool force = c->flags & END_FORCE;
	bool unsaved;

	if (!trusted(si))
		return refuse_untrusted(c);
	if (hold_session(c, force))
		return 1;
	if (!trusted(si)) /* read again after stopping the agent */
		return refuse_untrusted(c);
	unsaved = si->state == SESSION_DIRTY ||
		  (si->unpushed != 0 && !(c->flags & END_MERGED));
	if (si->state == SESSION_MISSING)
		unsaved = false; /* the worktree is already gone */
	if (unsaved && !force) {
		struct strbuf what = STRBUF_INIT;
		describe_unsaved(si, &what);
		error("end: session '%s' has unsaved work (%s) in %s; commit and push it, or run 'agentic-git end --agent %s --force' to snapshot it and end anyway (the branch is kept)",
		      si->agent, what.buf, si->worktree, si->agent);
		strbuf_release(&what);
		return 1;
	}
	/*
	 * Always: the snapshot is skipped when there is nothing to lose, and
	 * it is what keeps ignored files (.env) that removal would delete.
	 */
	if (si->state != SESSION_MISSING) {
		/* the marker is ours, not work: do not snapshot it */
		char *marker = xstrfmt("%s/%s", si->worktree, SESSION_MARKER);
		unlink(marker);
		free(marker);
		if (take_snapshot(c) < 0)
			return 1;
	}
	keep_branch(c);
	if (remove_session(c))
		return 1;
	/* no longer live: its snapshots fall under the fleet's policy */
	retention_after_session(c->home, c->git, si->source_repo, "end");
	report(c, force);
	return 0;
}

struct end_opts {
	const char *agent;
	bool force, json;
};

#define ARGT_STRUCT struct end_opts
static const struct argspec end_specs[] = {
	OPT_VALUE(agent),
	OPT_FLAG(force),
	OPT_FLAG(json),
	ARGSPEC_END,
};
#undef ARGT_STRUCT

const struct cmd_optset end_optsets[] = { { NULL, end_specs, 0 },
					  { NULL, NULL, 0 } };

static const struct argtable end_table = { .cmd = "end",
					   .specs = end_specs,
					   .flags = ARGT_NO_REST };

int end_agent(const char *home, const char *git, const char *agent,
	      unsigned flags)
{
	struct end_ctx c = { .home = home,
			     .git = git,
			     .flags = flags,
			     .snap = STRBUF_INIT,
			     .lock = SESSION_LOCK_INIT };
	char *rt = xstrfmt("%s/runtime/%s", home, agent);
	int rc;

	if (!is_dir(rt)) {
		error("end: no session for agent '%s' under %s/runtime (see agentic-git sessions)",
		      agent, home);
		rc = 1;
	} else if (session_ws_disarm_bound(home, git, agent, "end") < 0) {
		/* before git runs in a private workspace: our config */
		error("end: nothing was changed; remove %s/runtime/%s and the workspace by hand if it is to go",
		      home, agent);
		rc = 1;
	} else {
		session_info_read(home, git, agent, &c.si);
		rc = end_session(&c);
		session_lock_release(&c.lock);
		session_info_release(&c.si);
	}
	if (rc && (flags & END_JSON))
		report_json(&c, agent, false, flags & END_FORCE);
	strbuf_release(&c.snap);
	free(rt);
	return rc;
}

int cmd_end(int argc, const char **argv)
{
	struct end_opts o = { NULL, false, false };
	const char *why;
	char *home, *git;
	struct argres r;
	int rc;

	if (cmd_wants_help(argc, argv, end_usage))
		return 0;
	if (argtable_parse_table(&end_table, argc, argv, &o, &r) < 0)
		return AG_EXIT_USAGE;
	if (!o.agent) {
		error("end: --agent NAME is required (see agentic-git sessions)");
		return AG_EXIT_USAGE;
	}
	if (!ag_agent_name_valid(o.agent, &why)) {
		error("end: invalid agent name '%s': %s", o.agent, why);
		return AG_EXIT_USAGE;
	}
	/* every git of ours here may meet the agent's config: neutralised */
	gitcmd_trust_set(GIT_AGENT_REPO);
	home = ag_home_dir();
	if (!home)
		die("end: cannot find the home: set AGENTIC_GIT_HOME");
	git = realgit_locate(home);
	if (!git)
		die("end: cannot find the real git; set AGENTIC_GIT_REAL_GIT");
	rc = end_agent(home, git, o.agent,
		       (o.force ? END_FORCE : 0) | (o.json ? END_JSON : 0));
	free(home);
	free(git);
	return rc;
}
