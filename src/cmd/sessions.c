/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git sessions [--json | --watch]: one row per session under
 * <home>/runtime/ (agent, branch, worktree, state, snapshots, last event).
 */
#include "base/envvar.h"
#include "base/common.h"
#include <stdio.h>
#include <string.h>
#include "base/die.h"
#include "base/strbuf.h"
#include "cmd/argtable.h"
#include "cmd/cmd.h"
#include "cmd/optsets.h"
#include "cmd/sessions-int.h"
#include "git/gitcmd.h"
#include "git/realgit.h"
#include "fleet/session.h"
#include "fleet/session-state.h"

static const char sessions_usage[] =
	"usage: agentic-git sessions [--json | --watch]\n"
	"\n"
	"List the guarded sessions of this home: agent, branch, state, snapshot\n"
	"count, last audit event and worktree. State is running (pid N) while a\n"
	"run holds the session's lock, else clean, dirty (uncommitted or\n"
	"untracked work), missing (the worktree is gone), forged (the binding's\n"
	"signature does not verify; nothing in it is trusted) or invalid.\n"
	"\n"
	"  --json   one JSON array of objects instead of the table; \"state\" is\n"
	"           the worktree's state, \"running\" and \"pid\" say whether an\n"
	"           agent runs in it\n"
	"  --watch  on a terminal, a live view redrawn every second: running or\n"
	"           idle, commits ahead of every other branch, their diffstat,\n"
	"           the last deny and the last event of each session; q quits.\n"
	"           Off a terminal it refuses (exit 2)\n"
	"\n"
	"Sessions are read AGENTIC_GIT_SESSIONS_JOBS at a time (1-64; default:\n"
	"the online CPUs, at most 8), every git caged, none taking index.lock.\n";

static void json_row(const struct session_info *si, bool first)
{
	struct strbuf sb = STRBUF_INIT;
	const struct {
		const char *key, *val;
	} strs[] = {
		{ "agent", si->agent },	      { "branch", si->branch },
		{ "worktree", si->worktree }, { "source_repo", si->source_repo },
		{ "state", session_state_str(si->state) },
		{ "last_event", si->last_event },
		{ "last_event_time", si->last_time },
	};

	strbuf_addstr(&sb, first ? "\n  {" : ",\n  {");
	for (size_t i = 0; i < ARRAY_SIZE(strs); i++) {
		strbuf_addf(&sb, "%s\"%s\": ", i ? ", " : "", strs[i].key);
		if (strs[i].val)
			strbuf_add_json_str(&sb, strs[i].val);
		else
			strbuf_addstr(&sb, "null");
	}
	strbuf_addf(&sb, ", \"changed\": %d, \"untracked\": %d, \"snapshots\": %d",
		    si->changed, si->untracked, si->snapshots);
	if (si->unpushed >= 0)
		strbuf_addf(&sb, ", \"unpushed\": %d", si->unpushed);
	else
		strbuf_addstr(&sb, ", \"unpushed\": null");
	strbuf_addf(&sb, ", \"running\": %s", si->running ? "true" : "false");
	if (si->pid)
		strbuf_addf(&sb, ", \"pid\": %ld}", si->pid);
	else
		strbuf_addstr(&sb, ", \"pid\": null}");
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
}

/* The STATE column: a running session shows that, not its worktree. */
static void state_label(const struct session_info *si, struct strbuf *out)
{
	strbuf_reset(out);
	if (!si->running)
		strbuf_addstr(out, session_state_str(si->state));
	else if (si->pid)
		strbuf_addf(out, "running (pid %ld)", si->pid);
	else
		strbuf_addstr(out, "running");
}

static void table(const struct session_list *l)
{
	struct strbuf st = STRBUF_INIT;
	int w = 8;

	if (!l->nr) {
		puts("(no sessions)");
		return;
	}
	for (size_t i = 0; i < l->nr; i++) {
		state_label(&l->v[i], &st);
		if (st.len > (size_t)w)
			w = (int)st.len;
	}
	printf("%-20s %-28s %-*s %-9s %-45s %s\n", "AGENT", "BRANCH", w,
	       "STATE", "SNAPSHOTS", "LAST EVENT", "WORKTREE");
	for (size_t i = 0; i < l->nr; i++) {
		const struct session_info *si = &l->v[i];
		struct strbuf ev = STRBUF_INIT;

		if (si->last_event)
			strbuf_addf(&ev, "%.19sZ %s", si->last_time, si->last_event);
		else
			strbuf_addstr(&ev, "-");
		state_label(si, &st);
		printf("%-20s %-28s %-*s %-9d %-45s %s\n", si->agent,
		       si->branch ? si->branch : "-", w, st.buf, si->snapshots,
		       ev.buf, si->worktree ? si->worktree : "-");
		strbuf_release(&ev);
	}
	strbuf_release(&st);
}

struct sessions_cli {
	bool json, watch;
};

#define ARGT_STRUCT struct sessions_cli
static const struct argspec sessions_specs[] = {
	OPT_FLAG(json),
	OPT_FLAG(watch),
	ARGSPEC_END,
};
#undef ARGT_STRUCT

const struct cmd_optset sessions_optsets[] = {
	{ NULL, sessions_specs, 0 },
	{ NULL, NULL, 0 },
};

static const struct argtable sessions_table = { .cmd = "sessions",
						.specs = sessions_specs,
						.flags = ARGT_NO_REST };

int cmd_sessions(int argc, const char **argv)
{
	struct session_list l = { 0 };
	struct sessions_cli o = { false, false };
	struct argres r;
	char *home, *git;

	if (cmd_wants_help(argc, argv, sessions_usage))
		return 0;
	if (argtable_parse_table(&sessions_table, argc, argv, &o, &r) < 0)
		return AG_EXIT_USAGE;
	if (o.json && o.watch) {
		error("sessions: --json and --watch do not go together");
		return AG_EXIT_USAGE;
	}
	gitcmd_trust_set(GIT_AGENT_REPO); /* git status in agents' worktrees */
	home = ag_home_dir();
	if (!home)
		die("sessions: cannot find the home: set AGENTIC_GIT_HOME");
	git = realgit_locate(home);
	if (!git)
		die("sessions: cannot find the real git; set AGENTIC_GIT_REAL_GIT");
	if (o.watch) {
		int rc = sessions_watch(home, git);

		free(home);
		free(git);
		return rc;
	}
	if (session_list_read(home, git, &l) < 0)
		die_errno("sessions: cannot read '%s/runtime'", home);
	session_list_last_events(home, l.v, l.nr);
	if (o.json) {
		fputs("[", stdout);
		for (size_t i = 0; i < l.nr; i++)
			json_row(&l.v[i], !i);
		fputs(l.nr ? "\n]\n" : "]\n", stdout);
	} else {
		table(&l);
	}
	session_list_release(&l);
	free(home);
	free(git);
	return 0;
}
