/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git review --agent NAME [--patch] [--json]: a session's branch
 * against its base, with what the guard saw (fleet/review.h). Every
 * string in it is the agent's: printed as inert text, or as JSON.
 */
#include "base/common.h"
#include <stdio.h>
#include <string.h>
#include "agentic-git/core.h"
#include "base/die.h"
#include "base/envvar.h"
#include "base/inert.h"
#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "cmd/argtable.h"
#include "cmd/optsets.h"
#include "cmd/cmd.h"
#include "fleet/review.h"
#include "fleet/session-state.h"
#include "git/gitcmd.h"
#include "git/realgit.h"

static const char review_usage[] =
	"usage: agentic-git review --agent NAME [--patch] [--json]\n"
	"\n"
	"Show what a session's agent did: its branch against the base it started\n"
	"from (the commits ahead with their trailers, a diffstat and, with\n"
	"--patch, the diff), what the guard denied it and the snapshots it took\n"
	"since the session began, and the files another live session of the same\n"
	"repository also changed. Read from the operator's repository (refs and\n"
	"objects only: no hook, driver, textconv or external diff runs); nothing\n"
	"is written. Agent-written text is shown with control characters escaped.\n"
	"\n"
	"  --agent NAME   the session's agent (see agentic-git sessions)\n"
	"  --patch        also the diff of the branch against its base\n"
	"  --json         one JSON object with the same (exact strings)\n"
	"\n"
	"Exits 0, 1 when there is no such session or it cannot be read, 2 on bad\n"
	"usage.\n";

struct review_opts {
	const char *agent;
	bool patch, json;
};

#define ARGT_STRUCT struct review_opts
static const struct argspec review_specs[] = {
	OPT_VALUE(agent),
	OPT_FLAG(patch),
	OPT_FLAG(json),
	ARGSPEC_END,
};
#undef ARGT_STRUCT

const struct cmd_optset review_optsets[] = { { NULL, review_specs, 0 },
					     { NULL, NULL, 0 } };

static const struct argtable review_table = { .cmd = "review",
					      .specs = review_specs,
					      .flags = ARGT_NO_REST };

/* ---- JSON ---- */

static void json_kv(struct strbuf *sb, const char *sep, const char *key,
		    const char *val)
{
	strbuf_addf(sb, "%s\"%s\": ", sep, key);
	if (val)
		strbuf_add_json_str(sb, val);
	else
		strbuf_addstr(sb, "null");
}

static void json_trailers(struct strbuf *sb, const char *t)
{
	const char *sep = "";

	strbuf_addstr(sb, ", \"trailers\": [");
	while (*t) {
		const char *nl = strchrnul(t, '\n');
		const char *colon = memchr(t, ':', (size_t)(nl - t));
		char *key = colon ? xstrndup(t, (size_t)(colon - t)) : NULL;
		char *val =
			colon ? xstrndup(colon + 1, (size_t)(nl - colon - 1))
			      : NULL;

		if (key) {
			char *v = val;
			while (*v == ' ')
				v++;
			strbuf_addf(sb, "%s{\"key\": ", sep);
			strbuf_add_json_str(sb, key);
			strbuf_addstr(sb, ", \"value\": ");
			strbuf_add_json_str(sb, v);
			strbuf_addch(sb, '}');
			sep = ", ";
		}
		free(key);
		free(val);
		t = *nl ? nl + 1 : nl;
	}
	strbuf_addch(sb, ']');
}

static void json_events(struct strbuf *sb, const char *name,
			const struct review_event *v, size_t nr, bool snap)
{
	strbuf_addf(sb, ",\n  \"%s\": [", name);
	for (size_t i = 0; i < nr; i++) {
		strbuf_addstr(sb, i ? ", {" : "{");
		json_kv(sb, "", "timestamp", v[i].timestamp);
		json_kv(sb, ", ", "event", v[i].event);
		json_kv(sb, ", ", "subcommand", v[i].subcommand);
		json_kv(sb, ", ", snap ? "ref" : "reason", v[i].detail);
		if (snap)
			json_kv(sb, ", ", "kept", v[i].kept);
		strbuf_addch(sb, '}');
	}
	strbuf_addch(sb, ']');
}

static void print_json(const struct session_info *si, const struct review *r,
		       bool patch)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "{");
	json_kv(&sb, "", "agent", si->agent);
	json_kv(&sb, ", ", "branch", si->branch);
	json_kv(&sb, ", ", "base", r->base);
	json_kv(&sb, ", ", "base_oid", r->base_oid);
	json_kv(&sb, ", ", "head_oid", r->head_oid);
	json_kv(&sb, ",\n  ", "worktree", si->worktree);
	json_kv(&sb, ", ", "source_repo", si->source_repo);
	strbuf_addf(&sb, ", \"running\": %s, \"ahead\": %d, \"behind\": %d",
		    si->running ? "true" : "false", r->ahead, r->behind);
	strbuf_addstr(&sb, ",\n  \"commits\": [");
	for (size_t i = 0; i < r->commits_nr; i++) {
		const struct review_commit *c = &r->commits[i];
		strbuf_addstr(&sb, i ? ",\n    {" : "\n    {");
		json_kv(&sb, "", "oid", c->oid);
		json_kv(&sb, ", ", "author", c->author);
		json_kv(&sb, ", ", "date", c->date);
		json_kv(&sb, ", ", "subject", c->subject);
		json_trailers(&sb, c->trailers);
		strbuf_addch(&sb, '}');
	}
	strbuf_addf(
		&sb,
		"],\n  \"diffstat\": {\"files_changed\": %zu, \"insertions\": %ld, \"deletions\": %ld, \"files\": [",
		r->files_nr, r->insertions, r->deletions);
	for (size_t i = 0; i < r->files_nr; i++) {
		const struct review_file *f = &r->files[i];
		strbuf_addstr(&sb, i ? ", {" : "{");
		json_kv(&sb, "", "path", f->path);
		if (f->added < 0)
			strbuf_addstr(
				&sb,
				", \"added\": null, \"deleted\": null, \"binary\": true}");
		else
			strbuf_addf(
				&sb,
				", \"added\": %ld, \"deleted\": %ld, \"binary\": false}",
				f->added, f->deleted);
	}
	strbuf_addstr(&sb, "]}");
	json_events(&sb, "denies", r->denies, r->denies_nr, false);
	json_events(&sb, "snapshots", r->snapshots, r->snapshots_nr, true);
	strbuf_addstr(&sb, ",\n  \"overlap\": [");
	for (size_t i = 0; i < r->overlap_nr; i++) {
		strbuf_addstr(&sb, i ? ", {" : "{");
		json_kv(&sb, "", "path", r->overlap[i].path);
		strbuf_addstr(&sb, ", \"agents\": [");
		for (size_t j = 0; j < r->overlap[i].agents.nr; j++) {
			if (j)
				strbuf_addstr(&sb, ", ");
			strbuf_add_json_str(&sb, r->overlap[i].agents.v[j]);
		}
		strbuf_addstr(&sb, "]}");
	}
	strbuf_addstr(&sb, "]");
	if (patch)
		json_kv(&sb, ",\n  ", "patch", r->patch.buf);
	strbuf_addstr(&sb, "\n}\n");
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_release(&sb);
}

/* ---- text ---- */

/* The first line of a multi-line text (a deny's reason), for a table. */
static void first_line(const char *s, struct strbuf *out)
{
	strbuf_reset(out);
	strbuf_add(out, s, strcspn(s, "\n"));
}

static void print_commits(const struct review *r)
{
	printf("commits (%zu):\n", r->commits_nr);
	for (size_t i = 0; i < r->commits_nr; i++) {
		const struct review_commit *c = &r->commits[i];
		const char *t = c->trailers;

		printf_inert("  %.12s  %s  %s\n", c->oid, c->date, c->subject);
		while (*t) {
			size_t n = strcspn(t, "\n");
			printf_inert("                %.*s\n", (int)n, t);
			t += n + (t[n] == '\n');
		}
	}
}

static void print_files(const struct review *r)
{
	printf("diffstat: %zu file(s) changed, %ld insertion(s)(+), %ld deletion(s)(-)\n",
	       r->files_nr, r->insertions, r->deletions);
	for (size_t i = 0; i < r->files_nr; i++) {
		const struct review_file *f = &r->files[i];
		if (f->added < 0)
			printf_inert("  %-14s %s\n", "binary", f->path);
		else
			printf_inert("  +%-6ld -%-6ld %s\n", f->added,
				     f->deleted, f->path);
	}
}

static void print_guard(const struct session_info *si, const struct review *r)
{
	struct strbuf line = STRBUF_INIT, wt = STRBUF_INIT;

	printf("denies (%zu):\n", r->denies_nr);
	for (size_t i = 0; i < r->denies_nr; i++) {
		const struct review_event *e = &r->denies[i];
		first_line(e->detail, &line);
		printf_inert("  %.19sZ  git %s: %s\n", e->timestamp,
			     e->subcommand, line.buf);
	}
	strbuf_add_shell_quoted(&wt, si->worktree);
	printf("snapshots (%zu):\n", r->snapshots_nr);
	for (size_t i = 0; i < r->snapshots_nr; i++) {
		const struct review_event *e = &r->snapshots[i];
		printf_inert("  %.19sZ  git %s: %s\n", e->timestamp,
			     e->subcommand, e->detail);
		strbuf_reset(&line);
		strbuf_add_shell_quoted(&line, e->detail);
		printf_inert(
			"      restore: agentic-git snapshots restore --repo %s %s\n",
			wt.buf, line.buf);
	}
	strbuf_release(&line);
	strbuf_release(&wt);
}

static void print_text(const struct session_info *si, const struct review *r,
		       bool patch)
{
	printf_inert("review of session '%s'%s\n", si->agent,
		     si->running ? " (running)" : "");
	printf_inert("  branch:    %s (%.12s)\n", si->branch, r->head_oid);
	printf_inert("  base:      %s (%.12s): %d ahead, %d behind\n", r->base,
		     r->base_oid, r->ahead, r->behind);
	printf_inert("  worktree:  %s\n", si->worktree);
	print_commits(r);
	print_files(r);
	print_guard(si, r);
	if (r->overlap_nr) {
		printf("also changed by another live session (%zu):\n",
		       r->overlap_nr);
		for (size_t i = 0; i < r->overlap_nr; i++) {
			struct strbuf who = STRBUF_INIT;
			for (size_t j = 0; j < r->overlap[i].agents.nr; j++)
				strbuf_addf(&who, "%s%s", j ? ", " : "",
					    r->overlap[i].agents.v[j]);
			printf_inert("  %s  (%s)\n", r->overlap[i].path,
				     who.buf);
			strbuf_release(&who);
		}
	}
	if (patch && r->patch.len) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_add_inert(&sb, r->patch.buf,
				 INERT_KEEP_NL | INERT_KEEP_TAB);
		fputs("patch:\n", stdout);
		fwrite(sb.buf, 1, sb.len, stdout);
		strbuf_release(&sb);
	}
}

/* The session, read and checked: 0, or the exit code with the error said. */
static int find_session(const char *home, const char *git, const char *agent,
			struct session_info *si)
{
	char *rt = xstrfmt("%s/runtime/%s", home, agent);
	bool there = is_dir(rt);

	free(rt);
	if (!there) {
		error("review: no session for agent '%s' under %s/runtime (see agentic-git sessions)",
		      agent, home);
		return 1;
	}
	session_info_read(home, git, agent, si);
	if (si->state == SESSION_FORGED || si->state == SESSION_INVALID ||
	    !si->branch || !si->source_repo) {
		error("review: the binding of agent '%s' is %s; nothing in it is trusted",
		      agent,
		      si->state == SESSION_FORGED ? "forged" : "not usable");
		return 1;
	}
	return 0;
}

int cmd_review(int argc, const char **argv)
{
	struct review_opts o = { 0 };
	struct session_info si = { 0 };
	struct session_list l = { 0 };
	struct review r = REVIEW_INIT;
	struct strbuf err = STRBUF_INIT;
	const char *why;
	char *home, *git;
	struct argres res;
	int rc;

	if (cmd_wants_help(argc, argv, review_usage))
		return 0;
	if (argtable_parse_table(&review_table, argc, argv, &o, &res) < 0)
		return AG_EXIT_USAGE;
	if (!o.agent) {
		error("review: --agent NAME is required (see agentic-git sessions)");
		return AG_EXIT_USAGE;
	}
	if (!ag_agent_name_valid(o.agent, &why)) {
		error("review: invalid agent name '%s': %s", o.agent, why);
		return AG_EXIT_USAGE;
	}
	gitcmd_trust_set(GIT_AGENT_REPO);
	home = ag_home_dir();
	if (!home)
		die("review: cannot find the home: set AGENTIC_GIT_HOME");
	git = realgit_locate(home);
	if (!git)
		die("review: cannot find the real git; set AGENTIC_GIT_REAL_GIT");
	rc = find_session(home, git, o.agent, &si);
	if (!rc && session_list_read(home, git, &l) < 0)
		memset(&l, 0, sizeof(l)); /* no overlap then */
	if (!rc && review_read(home, git, &si, &l, o.patch, &r, &err) < 0) {
		error("review: %s", err.buf);
		rc = 1;
	}
	if (!rc && o.json)
		print_json(&si, &r, o.patch);
	else if (!rc)
		print_text(&si, &r, o.patch);
	review_release(&r);
	session_list_release(&l);
	session_info_release(&si);
	strbuf_release(&err);
	free(home);
	free(git);
	return rc;
}
