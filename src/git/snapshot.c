/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NEEDSWORK: placeholder until the snapshot engine lands (issue 3): it
 * reports the failure through the fail-open path so the shim's contract
 * (warn, record snapshot_failed, run the operation) already holds.
 */
#include "base/common.h"
#include "base/eventlog.h"
#include "git/snapshot.h"

int snapshot_take(const struct snapshot_opts *o, struct strbuf *ref_out,
		  struct strbuf *err)
{
	strbuf_addstr(err, "snapshot engine not built");
	return -1;
}

void snapshot_guard(const struct snapshot_opts *o)
{
	struct strbuf ref = STRBUF_INIT, err = STRBUF_INIT;

	if (snapshot_take(o, &ref, &err) < 0) {
		struct event ev = EVENT_INIT("snapshot_failed", o->agent, o->slug);
		fprintf(stderr,
			"agentic-git: warning — pre-op snapshot FAILED (%s); proceeding without a safety net\n",
			err.buf);
		event_add_null(&ev, "target_branch");
		event_add_str(&ev, "reason", err.buf);
		event_write(o->home, &ev);
		event_release(&ev);
	}
	strbuf_release(&ref);
	strbuf_release(&err);
}
