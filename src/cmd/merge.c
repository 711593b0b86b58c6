/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git merge --agent NAME [--rebase|--squash] [--keep]: the
 * session's branch into its base in the operator's checkout, then the
 * session ends (PRODUCT.md §13).
 *
 * Invariants (tests in tests/e2e/t0903-merge.bats):
 *  1. Every refusal changes nothing: the checkout must be on the base
 *     branch, with no tracked change and no operation in progress; the
 *     session must not be running and its worktree must hold no
 *     uncommitted work (both unless --keep); a conflict is found by
 *     `git merge-tree` before the checkout is touched, and its files named.
 *  2. A merge that fails once started is aborted (merge --abort,
 *     reset --merge, cherry-pick --abort): the checkout is as before.
 *  3. git runs in the operator's checkout as the operator's own (its
 *     config, no hook, no background gc: GIT_OPERATOR, git/gitcmd.h).
 *  4. Agent-written names in messages are inert (base/inert.h).
 */
#include "base/common.h"
#include <stdio.h>
#include <string.h>
#include "agentic-git/core.h"
#include "base/die.h"
#include "base/envvar.h"
#include "base/eventlog.h"
#include "base/fileio.h"
#include "base/inert.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "cmd/argtable.h"
#include "cmd/optsets.h"
#include "cmd/cmd.h"
#include "cmd/end.h"
#include "cmd/optsets.h"
#include "fleet/session-state.h"
#include "git/gitcmd.h"
#include "git/realgit.h"

static const char merge_usage[] =
	"usage: agentic-git merge --agent NAME [--rebase|--squash] [--keep]\n"
	"\n"
	"Merge a session's branch into its base (the branch the session started\n"
	"from) in the operator's checkout, then end the session. Refuses and\n"
	"changes nothing when that checkout is on another branch, has uncommitted\n"
	"changes or an operation in progress, when the merge would conflict (the\n"
	"files are named), when the agent is still running or its worktree holds\n"
	"uncommitted work.\n"
	"\n"
	"  --agent NAME   the session's agent (see agentic-git sessions, review)\n"
	"  (default)      a merge commit, never a fast-forward\n"
	"  --rebase       the branch's commits replayed on the base, linear\n"
	"  --squash       one commit with the branch's changes\n"
	"  --keep         leave the session running (do not end it)\n"
	"\n"
	"Exits 0 merged (and ended unless --keep), 1 refused, conflicting or\n"
	"failed (nothing changed), or merged but the session could not be ended\n"
	"(the message says so), 2 on bad usage.\n";

struct merge_opts {
	const char *agent;
	bool rebase, squash, keep;
};

#define ARGT_STRUCT struct merge_opts
static const struct argspec merge_specs[] = {
	OPT_VALUE(agent), OPT_FLAG(rebase), OPT_FLAG(squash),
	OPT_FLAG(keep),	  ARGSPEC_END,
};
#undef ARGT_STRUCT

const struct cmd_optset merge_optsets[] = { { NULL, merge_specs, 0 },
					    { NULL, NULL, 0 } };

static const struct argtable merge_table = { .cmd = "merge",
					     .specs = merge_specs,
					     .flags = ARGT_NO_REST };

struct merge_ctx {
	const char *home, *git, *mode;
	struct merge_opts o;
	struct session_info si;
	char *repo;	  /* the operator's checkout (borrowed from si) */
	char *base_ref;	  /* refs/heads/<base> */
	char *branch_ref; /* refs/heads/<branch> */
	char *before;	  /* the base's commit before the merge */
	char *orig_head;  /* ORIG_HEAD before, or NULL: put back on abort */
};

/* git in the operator's checkout (invariant 3); args NULL-terminated. */
static int op_git(const struct merge_ctx *m, struct strbuf *out,
		  struct strbuf *err, const char *const *args)
{
	struct child c = CHILD_INIT;
	int rc;

	gitcmd_prepare(&c, GIT_OPERATOR, m->git, m->repo);
	strvec_pushv(&c.args, args);
	rc = gitcmd_run(&c, out, err);
	child_release(&c);
	return rc;
}

#define OP_GIT(m, out, err, ...) \
	op_git((m), (out), (err), (const char *const[]){ __VA_ARGS__, NULL })

static int refuse(const struct merge_ctx *m, const char *why)
{
	fprintf_inert(stderr, "agentic-git: merge: %s; nothing was changed\n",
		      why);
	(void)m;
	return 1;
}

/* Invariant 1, the session's side. */
static int check_session(struct merge_ctx *m)
{
	const struct session_info *si = &m->si;
	struct strbuf msg = STRBUF_INIT;
	int rc = 0;

	if (si->state == SESSION_FORGED || si->state == SESSION_INVALID ||
	    !si->branch || !si->source_repo) {
		strbuf_addf(
			&msg,
			"the binding of agent '%s' is %s; nothing in it is trusted",
			si->agent,
			si->state == SESSION_FORGED ? "forged" : "not usable");
	} else if (!si->base) {
		strbuf_addf(
			&msg,
			"the session of '%s' records no base branch (it started from a tag or a commit, or before agentic-git recorded bases); merge '%s' by hand",
			si->agent, si->branch);
	} else if (si->running && !m->o.keep) {
		strbuf_addf(
			&msg,
			"agent '%s' is still running in its session (pid %ld); wait for it, or merge what it committed so far with --keep",
			si->agent, si->pid);
	} else if (si->state == SESSION_DIRTY && !m->o.keep) {
		strbuf_addf(
			&msg,
			"the session of '%s' has uncommitted work in %s that the merge would not carry (%d changed, %d untracked); let the agent commit it, or merge the commits with --keep",
			si->agent, si->worktree, si->changed, si->untracked);
	} else if (!is_dir(si->source_repo)) {
		strbuf_addf(&msg, "the operator's checkout '%s' is gone",
			    si->source_repo);
	}
	if (msg.len)
		rc = refuse(m, msg.buf);
	strbuf_release(&msg);
	return rc;
}

static bool in_progress(const struct merge_ctx *m, const char *what)
{
	struct strbuf out = STRBUF_INIT;
	bool there;

	if (OP_GIT(m, &out, NULL, "rev-parse", "--git-path", what)) {
		strbuf_release(&out);
		return true; /* cannot tell: as if it were */
	}
	gitcmd_chomp(&out);
	if (out.buf[0] != '/') {
		char *abs = xstrfmt("%s/%s", m->repo, out.buf);
		there = path_exists(abs);
		free(abs);
	} else {
		there = path_exists(out.buf);
	}
	strbuf_release(&out);
	return there;
}

/* Invariant 1, the checkout's side. */
static int check_checkout(struct merge_ctx *m)
{
	static const char *const ops[] = { "MERGE_HEAD",   "CHERRY_PICK_HEAD",
					   "REVERT_HEAD",  "rebase-merge",
					   "rebase-apply", NULL };
	struct strbuf out = STRBUF_INIT, msg = STRBUF_INIT;
	int rc = 0;

	if (OP_GIT(m, &out, NULL, "symbolic-ref", "-q", "HEAD"))
		strbuf_reset(&out);
	gitcmd_chomp(&out);
	if (strcmp(out.buf, m->base_ref)) {
		strbuf_addf(
			&msg,
			"the checkout %s is on %s%s, not on the session's base '%s'; switch to it first (git -C %s switch %s)",
			m->repo, out.len ? "branch " : "a detached HEAD",
			out.len ? out.buf + strlen("refs/heads/") : "",
			m->si.base, m->repo, m->si.base);
		goto out;
	}
	for (size_t i = 0; ops[i]; i++)
		if (in_progress(m, ops[i])) {
			strbuf_addf(
				&msg,
				"the checkout %s has an operation in progress (%s); finish or abort it first",
				m->repo, ops[i]);
			goto out;
		}
	strbuf_reset(&out);
	if (OP_GIT(m, &out, NULL, "status", "--porcelain", "-z",
		   "--untracked-files=no") ||
	    out.len) {
		strbuf_addf(
			&msg,
			"the checkout %s has uncommitted changes; commit or stash them first",
			m->repo);
		goto out;
	}
	strbuf_reset(&out);
	if (OP_GIT(m, &out, NULL, "rev-parse", "--verify", "HEAD")) {
		strbuf_addf(&msg, "cannot read HEAD in %s", m->repo);
		goto out;
	}
	gitcmd_chomp(&out);
	m->before = strbuf_detach(&out, NULL);
	if (!OP_GIT(m, &out, NULL, "rev-parse", "-q", "--verify",
		    "ORIG_HEAD")) {
		gitcmd_chomp(&out);
		m->orig_head = strbuf_detach(&out, NULL);
	}
out:
	if (msg.len)
		rc = refuse(m, msg.buf);
	strbuf_release(&out);
	strbuf_release(&msg);
	return rc;
}

/*
 * Invariant 1: the merge computed in memory (git merge-tree, nothing
 * written but objects); a conflict names its files.
 */
static int check_conflicts(struct merge_ctx *m)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, msg = STRBUF_INIT;
	int rc = OP_GIT(m, &out, &err, "merge-tree", "--write-tree",
			"--name-only", "--no-messages", m->base_ref,
			m->branch_ref);

	if (rc == 1) {
		const char *p = strchrnul(out.buf, '\n');
		strbuf_addf(&msg, "merging '%s' into '%s' conflicts in:",
			    m->si.branch, m->si.base);
		while (*p == '\n' && p[1]) {
			const char *nl = strchrnul(p + 1, '\n');
			strbuf_addf(&msg, " %.*s", (int)(nl - p - 1), p + 1);
			p = nl;
		}
		strbuf_addf(
			&msg,
			"; let the agent rebase it on '%s' (agentic-git review --agent %s shows both)",
			m->si.base, m->si.agent);
		rc = refuse(m, msg.buf);
	} else if (rc) {
		strbuf_addf(&msg, "git merge-tree failed: %s", err.buf);
		rc = refuse(m, msg.buf);
	}
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&msg);
	return rc;
}

/* Invariant 2: back to where the checkout was. */
static void abort_merge(const struct merge_ctx *m)
{
	if (m->o.rebase)
		OP_GIT(m, NULL, NULL, "cherry-pick", "--abort");
	else if (m->o.squash)
		OP_GIT(m, NULL, NULL, "reset", "-q", "--merge");
	else
		OP_GIT(m, NULL, NULL, "merge", "--abort");
	OP_GIT(m, NULL, NULL, "reset", "-q", "--keep", m->before);
	/* git's own note of the attempt goes too */
	if (m->orig_head)
		OP_GIT(m, NULL, NULL, "update-ref", "--no-deref", "ORIG_HEAD",
		       m->orig_head);
	else
		OP_GIT(m, NULL, NULL, "update-ref", "--no-deref", "-d",
		       "ORIG_HEAD");
}

static int do_merge(struct merge_ctx *m)
{
	struct strbuf err = STRBUF_INIT, msg = STRBUF_INIT, range = STRBUF_INIT;
	int rc;

	strbuf_addf(&msg, "Merge branch '%s' of agent %s", m->si.branch,
		    m->si.agent);
	strbuf_addf(&range, "%s..%s", m->before, m->branch_ref);
	if (m->o.rebase)
		rc = OP_GIT(m, NULL, &err, "cherry-pick", "--allow-empty",
			    "--no-rerere-autoupdate", range.buf);
	else if (m->o.squash)
		rc = OP_GIT(m, NULL, &err, "merge", "-q", "--squash",
			    "--no-rerere-autoupdate", m->branch_ref) ||
		     OP_GIT(m, NULL, &err, "commit", "-q", "--no-edit",
			    "--no-verify");
	else
		rc = OP_GIT(m, NULL, &err, "merge", "-q", "--no-ff",
			    "--no-edit", "--no-rerere-autoupdate", "-m",
			    msg.buf, m->branch_ref);
	if (rc) {
		abort_merge(m);
		strbuf_reset(&msg);
		strbuf_addf(&msg, "git %s failed and was aborted: %s",
			    m->o.rebase ? "cherry-pick" : "merge", err.buf);
		refuse(m, msg.buf);
	}
	strbuf_release(&err);
	strbuf_release(&msg);
	strbuf_release(&range);
	return rc ? 1 : 0;
}

static void log_merge(const struct merge_ctx *m, const char *after)
{
	struct event ev = EVENT_INIT("session_merged", m->si.agent, "merge");

	event_add_str(&ev, "branch", m->si.branch);
	event_add_str(&ev, "base", m->si.base);
	event_add_str(&ev, "mode", m->mode);
	event_add_str(&ev, "source_repo", m->repo);
	event_add_str(&ev, "old", m->before);
	event_add_str(&ev, "new", after);
	event_write(m->home, &ev);
	event_release(&ev);
}

static int merge_session(struct merge_ctx *m)
{
	struct strbuf after = STRBUF_INIT;
	int rc;

	m->repo = m->si.source_repo;
	if (check_session(m))
		return 1;
	m->base_ref = xstrfmt("refs/heads/%s", m->si.base);
	m->branch_ref = xstrfmt("refs/heads/%s", m->si.branch);
	if (check_checkout(m) || check_conflicts(m) || do_merge(m))
		return 1;
	if (OP_GIT(m, &after, NULL, "rev-parse", "HEAD"))
		strbuf_addstr(&after, "?");
	gitcmd_chomp(&after);
	log_merge(m, after.buf);
	printf_inert("merged session '%s' (%s): branch '%s' into '%s' in %s\n",
		     m->si.agent, m->mode, m->si.branch, m->si.base, m->repo);
	printf_inert("  %s:  %.12s -> %.12s\n", m->si.base, m->before,
		     after.buf);
	strbuf_release(&after);
	if (m->o.keep) {
		printf("  kept:      the session (--keep)\n");
		return 0;
	}
	fflush(stdout);
	rc = end_agent(m->home, m->git, m->si.agent, END_MERGED);
	if (rc)
		error("merge: the branch was merged, but the session was not ended (above); end it with agentic-git end --agent %s",
		      m->si.agent);
	return rc;
}

int cmd_merge(int argc, const char **argv)
{
	struct merge_ctx m = { 0 };
	const char *why;
	char *home, *git;
	struct argres r;
	int rc;

	if (cmd_wants_help(argc, argv, merge_usage))
		return 0;
	if (argtable_parse_table(&merge_table, argc, argv, &m.o, &r) < 0)
		return AG_EXIT_USAGE;
	if (!m.o.agent) {
		error("merge: --agent NAME is required (see agentic-git sessions)");
		return AG_EXIT_USAGE;
	}
	if (m.o.rebase && m.o.squash) {
		error("merge: give --rebase or --squash, not both");
		return AG_EXIT_USAGE;
	}
	if (!ag_agent_name_valid(m.o.agent, &why)) {
		error("merge: invalid agent name '%s': %s", m.o.agent, why);
		return AG_EXIT_USAGE;
	}
	m.mode = m.o.rebase ? "rebase" : m.o.squash ? "squash" : "merge";
	/* reading the session meets the agent's worktree: neutralised */
	gitcmd_trust_set(GIT_AGENT_REPO);
	home = ag_home_dir();
	if (!home)
		die("merge: cannot find the home: set AGENTIC_GIT_HOME");
	git = realgit_locate(home);
	if (!git)
		die("merge: cannot find the real git; set AGENTIC_GIT_REAL_GIT");
	m.home = home;
	m.git = git;
	{
		char *rt = xstrfmt("%s/runtime/%s", home, m.o.agent);
		bool there = is_dir(rt);
		free(rt);
		if (!there) {
			error("merge: no session for agent '%s' under %s/runtime (see agentic-git sessions)",
			      m.o.agent, home);
			free(home);
			free(git);
			return 1;
		}
	}
	session_info_read(home, git, m.o.agent, &m.si);
	rc = merge_session(&m);
	session_info_release(&m.si);
	free(m.base_ref);
	free(m.branch_ref);
	free(m.before);
	free(m.orig_head);
	free(home);
	free(git);
	return rc;
}
