/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include "base/inert.h"
#include "base/strbuf.h"
#include "base/timefmt.h"
#include "cmd/run-report.h"

bool run_progress_on(void)
{
	return !isatty(STDOUT_FILENO);
}

void run_progress(const struct session *s, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!run_progress_on())
		return;
	strbuf_addstr(&sb, "agentic-git: run: ");
	strbuf_add_inert(&sb, s->agent, 0);
	strbuf_addstr(&sb, ": ");
	va_start(ap, fmt);
	strbuf_vaddf_inert(&sb, fmt, ap);
	va_end(ap);
	strbuf_addch(&sb, '\n');
	fputs(sb.buf, stderr);
	fflush(stderr);
	strbuf_release(&sb);
}

static void kv(struct strbuf *sb, const char *key, const char *val)
{
	strbuf_addf(sb, ",\"%s\":", key);
	if (val)
		strbuf_add_json_str(sb, val);
	else
		strbuf_addstr(sb, "null");
}

void run_end_json(const struct run_outcome *o)
{
	const struct session *s = o->s;
	struct strbuf sb = STRBUF_INIT, t = STRBUF_INIT;
	double secs = (double)(o->ended.tv_sec - o->started.tv_sec) +
		      (double)(o->ended.tv_nsec - o->started.tv_nsec) / 1e9;

	strbuf_addstr(&sb, "{\"record\":\"run_end\"");
	kv(&sb, "agent", s->agent);
	kv(&sb, "branch", s->branch);
	kv(&sb, "base", s->base);
	kv(&sb, "worktree", s->worktree);
	kv(&sb, "source_repo", s->source_repo);
	kv(&sb, "session",
	   s->adopt_oid ? "resumed"
	   : s->reused	? "reused"
			: "new");
	kv(&sb, o->profile ? "profile" : "command", o->command);
	strbuf_addf(&sb, ",\"exit_code\":%d,\"timed_out\":%s,\"snapshots\":%s",
		    o->exit_code, o->timed_out ? "true" : "false",
		    o->snapshots ? "true" : "false");
	time_rfc3339_nanos(&o->started, &t);
	kv(&sb, "started_at", t.buf);
	strbuf_reset(&t);
	time_rfc3339_nanos(&o->ended, &t);
	kv(&sb, "ended_at", t.buf);
	strbuf_addf(&sb, ",\"duration_seconds\":%.3f}\n", secs);
	fflush(stdout);
	fputs(sb.buf, stdout);
	fflush(stdout);
	strbuf_release(&sb);
	strbuf_release(&t);
}
