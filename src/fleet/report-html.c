/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fleet page: struct report -> one self-contained HTML document
 * (fleet/report.h invariants 1 and 2). Pure. Every string from the report
 * goes through H() (base/html.h); the markup around it is ours.
 */
#include "base/common.h"
#include <string.h>
#include "base/html.h"
#include "base/timefmt.h"
#include "fleet/report.h"

#define H(sb, s) strbuf_add_html((sb), (s), 0)

static const char style[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}"
	"table{border-collapse:collapse;margin:.5em 0 1.5em}"
	"th,td{border:1px solid #ccc;padding:2px 6px;text-align:left;"
	"vertical-align:top}"
	"th{background:#eee}td.n{text-align:right}td.t{white-space:nowrap}"
	"code,pre{font:12px/1.3 ui-monospace,monospace}"
	"code.cmd{user-select:all;background:#f4f4f4;padding:1px 3px}"
	"tr.deny td{background:#fde8e8}tr.warn td{background:#fff6dc}"
	"span.add{color:#176f2c}span.del{color:#b3261e}"
	"p.note{color:#8a4b00}section.agent{margin-left:1em}";

static void when(struct strbuf *sb, long long t)
{
	struct strbuf ts = STRBUF_INIT;

	time_rfc3339_seconds(t, &ts);
	H(sb, ts.buf);
	strbuf_release(&ts);
}

/* `s` as one shell word ('…', a quote as '\''). */
static void shell_word(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '\'');
}

/* A journal timestamp: short on the page, whole in the markup. */
static void td_time(struct strbuf *sb, const char *ts)
{
	strbuf_addstr(sb, "<td class=\"t\"><time datetime=\"");
	H(sb, ts);
	strbuf_addstr(sb, "\">");
	strbuf_add_html_mem(sb, ts, strnlen(ts, 19), 0);
	strbuf_addstr(sb, "</time></td>");
}

static void td(struct strbuf *sb, const char *s)
{
	strbuf_addstr(sb, "<td>");
	H(sb, s ? s : "-");
	strbuf_addstr(sb, "</td>");
}

static void td_num(struct strbuf *sb, unsigned long long n)
{
	strbuf_addf(sb, "<td class=\"n\">%llu</td>", n);
}

static void diffstat(struct strbuf *sb, const struct report_agent *ag)
{
	strbuf_addf(sb,
		    "%zu file%s, <span class=\"add\">+%ld</span> "
		    "<span class=\"del\">&#8722;%ld</span>",
		    ag->files_total, ag->files_total == 1 ? "" : "s", ag->added,
		    ag->deleted);
}

static void state(struct strbuf *sb, const struct session_info *si)
{
	if (si->running && si->pid)
		strbuf_addf(sb, "running (pid %ld)", si->pid);
	else if (si->running)
		strbuf_addstr(sb, "running");
	else
		H(sb, session_state_str(si->state));
}

static void sessions_table(struct strbuf *sb, const struct report *r)
{
	strbuf_addf(sb, "<h2 id=\"sessions\">Sessions (%zu)</h2>\n",
		    r->agents_nr);
	if (!r->agents_nr) {
		strbuf_addstr(sb, "<p>(no sessions)</p>\n");
		return;
	}
	strbuf_addstr(
		sb, "<table class=\"sessions\"><tr><th>agent</th><th>state</th>"
		    "<th>branch</th><th>commits ahead</th><th>diffstat</th>"
		    "<th>denies</th><th>snapshots</th><th>restores</th>"
		    "<th>last event</th><th>worktree</th></tr>\n");
	for (size_t i = 0; i < r->agents_nr; i++) {
		const struct report_agent *ag = &r->agents[i];
		struct strbuf last = STRBUF_INIT;

		strbuf_addf(
			sb,
			"<tr class=\"session\" id=\"s%zu\"><td><a href=\"#a%zu\">",
			i, i);
		H(sb, ag->si.agent);
		strbuf_addstr(sb, "</a></td><td class=\"state\">");
		state(sb, &ag->si);
		strbuf_addstr(sb, "</td>");
		td(sb, ag->si.branch);
		strbuf_addf(sb, "<td class=\"n ahead\">%zu%s</td><td>",
			    ag->commits_nr, ag->commits_more ? "+" : "");
		diffstat(sb, ag);
		strbuf_addstr(sb, "</td>");
		td_num(sb, ag->denies);
		td_num(sb, ag->snaps_total);
		td_num(sb, ag->restores);
		if (ag->si.last_event)
			strbuf_addf(&last, "%.19s %s", ag->si.last_time,
				    ag->si.last_event);
		td(sb, ag->si.last_event ? last.buf : NULL);
		td(sb, ag->si.worktree);
		strbuf_addstr(sb, "</tr>\n");
		strbuf_release(&last);
	}
	strbuf_addstr(sb, "</table>\n");
}

static void agent_section(struct strbuf *sb, const struct report_agent *ag,
			  size_t i)
{
	strbuf_addf(sb, "<section class=\"agent\" id=\"a%zu\"><h3>", i);
	H(sb, ag->si.agent);
	strbuf_addstr(sb, " &#8212; <code class=\"branch\">");
	H(sb, ag->si.branch ? ag->si.branch : "(no branch)");
	strbuf_addstr(sb, "</code></h3>\n");
	if (ag->git_error) {
		strbuf_addstr(sb, "<p class=\"note\">cannot read the branch: ");
		H(sb, ag->git_error);
		strbuf_addstr(sb, "</p>\n");
	}
	strbuf_addf(sb, "<p>%zu%s commit%s on no other branch; ",
		    ag->commits_nr, ag->commits_more ? "+" : "",
		    ag->commits_nr == 1 ? "" : "s");
	diffstat(sb, ag);
	strbuf_addstr(sb, "</p>\n");
	if (ag->commits_nr) {
		strbuf_addstr(
			sb,
			"<table class=\"commits\"><tr><th>commit</th>"
			"<th>date</th><th>author</th><th>subject</th></tr>\n");
		for (size_t k = 0; k < ag->commits_nr; k++) {
			const struct report_commit *c = &ag->commits[k];

			strbuf_addstr(sb, "<tr class=\"commit\"><td><code>");
			strbuf_add_html_mem(sb, c->oid, strnlen(c->oid, 12), 0);
			strbuf_addstr(sb, "</code></td><td class=\"t\">");
			when(sb, c->when);
			strbuf_addstr(sb, "</td>");
			td(sb, c->author);
			td(sb, c->subject);
			strbuf_addstr(sb, "</tr>\n");
		}
		strbuf_addstr(sb, "</table>\n");
	}
	if (ag->files_nr) {
		strbuf_addstr(
			sb,
			"<table class=\"files\"><tr><th>+</th><th>&#8722;</th>"
			"<th>file</th></tr>\n");
		for (size_t k = 0; k < ag->files_nr; k++) {
			strbuf_addstr(sb,
				      "<tr class=\"file\"><td class=\"n\">");
			H(sb, ag->files[k].added);
			strbuf_addstr(sb, "</td><td class=\"n\">");
			H(sb, ag->files[k].deleted);
			strbuf_addstr(sb, "</td>");
			td(sb, ag->files[k].path);
			strbuf_addstr(sb, "</tr>\n");
		}
		strbuf_addstr(sb, "</table>\n");
		if (ag->files_total > ag->files_nr)
			strbuf_addf(
				sb,
				"<p class=\"note\">%zu more files not shown</p>\n",
				ag->files_total - ag->files_nr);
	}
	strbuf_addstr(sb, "</section>\n");
}

static void event_row(struct strbuf *sb, const struct report_event *e,
		      const char *cls)
{
	strbuf_addf(sb, "<tr class=\"%s ", cls);
	/* a class from a fixed set only, never the record's own text */
	strbuf_addstr(sb, !strcmp(e->disposition, "deny")   ? "deny"
			  : !strcmp(e->disposition, "warn") ? "warn"
							    : "info");
	strbuf_addstr(sb, "\">");
	td_time(sb, e->time);
	td(sb, e->agent);
	td(sb, e->sub);
	td(sb, e->event);
	td(sb, e->detail);
	strbuf_addstr(sb, "</tr>\n");
}

static void events_table(struct strbuf *sb, const struct report_ring *rg,
			 const char *id, const char *title, const char *cls,
			 const char *what)
{
	strbuf_addf(sb, "<h2 id=\"%s\">%s (%lu)</h2>\n", id, title, rg->seen);
	if (!rg->nr) {
		strbuf_addf(sb, "<p>(no %s)</p>\n", what);
		return;
	}
	if (rg->seen > rg->nr)
		strbuf_addf(sb,
			    "<p class=\"note\">the newest %zu of %lu %s</p>\n",
			    rg->nr, rg->seen, what);
	strbuf_addf(sb,
		    "<table class=\"%s\"><tr><th>time</th><th>agent</th>"
		    "<th>command</th><th>event</th><th>%s</th></tr>\n",
		    id, !strcmp(id, "denies") ? "reason" : "detail");
	for (size_t i = rg->nr; i-- > 0;) /* newest first */
		event_row(sb, report_ring_at(rg, i), cls);
	strbuf_addstr(sb, "</table>\n");
}

static void snapshots_table(struct strbuf *sb, const struct report *r)
{
	strbuf_addf(sb, "<h2 id=\"snapshots\">Snapshots (%zu)</h2>\n",
		    r->snaps_total);
	if (!r->snaps_nr) {
		strbuf_addstr(sb, "<p>(no snapshots)</p>\n");
		return;
	}
	if (r->snaps_total > r->snaps_nr)
		strbuf_addf(
			sb,
			"<p class=\"note\">the newest %zu of %zu snapshots</p>\n",
			r->snaps_nr, r->snaps_total);
	strbuf_addstr(
		sb, "<table class=\"snapshots\"><tr><th>time</th><th>agent</th>"
		    "<th>before</th><th>restore it with</th></tr>\n");
	for (size_t i = 0; i < r->snaps_nr; i++) {
		const struct report_snapshot *s = &r->snaps[i];
		struct strbuf cmd = STRBUF_INIT;

		strbuf_addstr(sb, "<tr class=\"snapshot\"><td class=\"t\">");
		when(sb, s->when);
		strbuf_addstr(sb, "</td>");
		td(sb, s->agent);
		td(sb, s->op);
		strbuf_addstr(&cmd, "agentic-git snapshots restore ");
		shell_word(&cmd, s->ref);
		strbuf_addstr(&cmd, " --repo ");
		shell_word(&cmd, s->worktree);
		if (s->tip_only)
			strbuf_addstr(&cmd, " --head");
		strbuf_addstr(sb, "<td><code class=\"cmd\">");
		H(sb, cmd.buf);
		strbuf_addstr(sb, "</code></td></tr>\n");
		strbuf_release(&cmd);
	}
	strbuf_addstr(sb, "</table>\n");
}

static void runs_table(struct strbuf *sb, const struct report *r)
{
	strbuf_addf(sb, "<h2 id=\"runs\">Dispatch runs (%zu)</h2>\n",
		    r->runs_total);
	if (!r->runs_nr) {
		strbuf_addstr(sb, "<p>(no dispatch runs)</p>\n");
		return;
	}
	if (r->runs_total > r->runs_nr)
		strbuf_addf(
			sb,
			"<p class=\"note\">the newest %zu of %zu runs</p>\n",
			r->runs_nr, r->runs_total);
	for (size_t i = 0; i < r->runs_nr; i++) {
		const struct report_run *run = &r->runs[i];

		strbuf_addstr(sb, "<h3 class=\"run\">run ");
		H(sb, run->id);
		strbuf_addf(sb, " (%zu target%s)</h3>\n", run->nr,
			    run->nr == 1 ? "" : "s");
		if (run->error) {
			strbuf_addstr(sb, "<p class=\"note\">");
			H(sb, run->error);
			strbuf_addstr(sb, "</p>\n");
		}
		if (!run->nr)
			continue;
		strbuf_addstr(
			sb,
			"<table class=\"targets\"><tr><th>key</th><th>repo</th>"
			"<th>head</th><th>base</th><th>status</th>"
			"<th>verdict</th><th>push</th><th>exit</th>"
			"<th>seconds</th></tr>\n");
		for (size_t k = 0; k < run->nr; k++) {
			const struct report_target *t = &run->t[k];

			strbuf_addstr(sb, "<tr class=\"target\">");
			td(sb, t->key);
			td(sb, t->repo);
			td(sb, t->head);
			td(sb, t->base);
			td(sb, t->status);
			td(sb, t->verdict);
			td(sb, t->push);
			td(sb, t->exit_code);
			td(sb, t->duration);
			strbuf_addstr(sb, "</tr>\n");
		}
		strbuf_addstr(sb, "</table>\n");
	}
}

static void header(struct strbuf *sb, const struct report *r)
{
	strbuf_addstr(
		sb, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
		    "<meta charset=\"utf-8\">"
		    "<meta http-equiv=\"Content-Security-Policy\" "
		    "content=\"default-src 'none'; style-src 'unsafe-inline'\">"
		    "<title>agentic-git fleet report</title><style>");
	strbuf_addstr(sb, style);
	strbuf_addstr(
		sb, "</style></head><body>\n<h1>agentic-git fleet report</h1>\n"
		    "<p>generated <span id=\"generated\">");
	H(sb, r->generated);
	strbuf_addstr(sb, "</span> from <code id=\"home\">");
	H(sb, r->home);
	strbuf_addf(sb, "</code>; audit log: %lu line%s read", r->journal_lines,
		    r->journal_lines == 1 ? "" : "s");
	if (r->journal_bad)
		strbuf_addf(sb, ", %lu unreadable", r->journal_bad);
	if (r->journal_cut)
		strbuf_addstr(sb, " (its older part was not read)");
	strbuf_addstr(sb, "</p>\n<p><a href=\"#sessions\">sessions</a> &#183; "
			  "<a href=\"#denies\">denies</a> &#183; "
			  "<a href=\"#snapshots\">snapshots</a> &#183; "
			  "<a href=\"#runs\">dispatch runs</a> &#183; "
			  "<a href=\"#timeline\">timeline</a></p>\n");
	for (size_t i = 0; i < r->notes.nr; i++) {
		strbuf_addstr(sb, "<p class=\"note\">");
		H(sb, r->notes.v[i]);
		strbuf_addstr(sb, "</p>\n");
	}
}

void report_render_html(const struct report *r, struct strbuf *sb)
{
	header(sb, r);
	sessions_table(sb, r);
	for (size_t i = 0; i < r->agents_nr; i++)
		agent_section(sb, &r->agents[i], i);
	events_table(sb, &r->denies, "denies", "Denies", "deny-row", "denies");
	snapshots_table(sb, r);
	runs_table(sb, r);
	events_table(sb, &r->timeline, "timeline", "Timeline", "ev", "events");
	strbuf_addstr(sb, "</body></html>\n");
}
