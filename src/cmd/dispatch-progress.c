/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "base/inert.h"
#include "base/strbuf.h"
#include "cmd/dispatch-progress.h"
#include "fleet/rundir.h"

static bool use_colour(void)
{
	const char *nc = getenv("NO_COLOR");

	return isatty(1) && !(nc && *nc);
}

static void put_json(struct strbuf *sb)
{
	strbuf_addch(sb, '\n');
	fputs(sb->buf, stdout);
	fflush(stdout);
}

static void on_start(struct dispatch_run *run, size_t i)
{
	struct dispatch_progress *p = run->data;
	const char *key = run->v[i].t->key;

	if (p->tty) {
		printf("  running   %s\n", key);
		fflush(stdout);
	}
	if (p->lines)
		fprintf_inert(stderr, "agentic-git: dispatch: %s: running\n",
			      key);
	if (p->json_lines) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, "{\"record\":\"target_start\",\"key\":");
		strbuf_add_json_str(&sb, key);
		strbuf_addch(&sb, '}');
		put_json(&sb);
		strbuf_release(&sb);
	}
}

static void on_finish(struct dispatch_run *run, size_t i)
{
	struct dispatch_progress *p = run->data;
	const struct run_record *r = &run->v[i].rec;

	p->done++;
	if (p->tty) {
		int sev = run_status_severity(r->status);
		const char *on = "", *off = "";

		if (use_colour()) {
			on = sev == 0	? "\033[32m"
			     : sev == 3 ? "\033[33m"
					: "\033[31m";
			off = "\033[0m";
		}
		/* the colour codes are ours: raw; the key may be the agent's */
		fputs("  ", stdout);
		fputs(on, stdout);
		printf("%-13s", run_status_str(r->status));
		fputs(off, stdout);
		printf(" %s\n", r->key);
		fflush(stdout);
	}
	if (p->lines)
		fprintf_inert(
			stderr,
			"agentic-git: dispatch: %s: %s (%zu of %zu done)\n",
			r->key, run_status_str(r->status), p->done, run->nr);
	if (p->json_lines) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, "{\"record\":\"target_end\",\"target\":");
		run_record_json(r, &sb);
		strbuf_addf(&sb, ",\"done\":%zu,\"of\":%zu}", p->done, run->nr);
		put_json(&sb);
		strbuf_release(&sb);
	}
}

void dispatch_progress_setup(struct dispatch_run *run,
			     struct dispatch_progress *p, bool json,
			     bool json_lines)
{
	bool term = isatty(STDOUT_FILENO);

	p->tty = term && !json && !json_lines;
	p->lines = !term;
	p->json_lines = json_lines;
	p->done = 0;
	run->data = p;
	run->on_start = on_start;
	run->on_finish = on_finish;
}

void dispatch_progress_begin(struct dispatch_run *run)
{
	struct dispatch_progress *p = run->data;

	if (p->lines)
		fprintf_inert(stderr,
			      "agentic-git: dispatch: run %s: %zu target%s\n",
			      run->rd.id, run->nr, run->nr == 1 ? "" : "s");
	if (p->json_lines) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, "{\"record\":\"run_start\",\"run_id\":");
		strbuf_add_json_str(&sb, run->rd.id);
		strbuf_addstr(&sb, ",\"run_dir\":");
		strbuf_add_json_str(&sb, run->rd.path);
		strbuf_addf(&sb, ",\"targets\":%zu}", run->nr);
		put_json(&sb);
		strbuf_release(&sb);
	}
}

void dispatch_progress_end(struct dispatch_run *run, int exit_code)
{
	struct dispatch_progress *p = run->data;

	if (p->lines)
		fprintf_inert(stderr,
			      "agentic-git: dispatch: run %s: done (exit %d)\n",
			      run->rd.id, exit_code);
	if (p->json_lines) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, "{\"record\":\"run_end\",\"run_id\":");
		strbuf_add_json_str(&sb, run->rd.id);
		strbuf_addstr(&sb, ",\"run_dir\":");
		strbuf_add_json_str(&sb, run->rd.path);
		strbuf_addf(&sb, ",\"exit_code\":%d}", exit_code);
		put_json(&sb);
		strbuf_release(&sb);
	}
}
