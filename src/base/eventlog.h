/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_EVENTLOG_H
#define AG_EVENTLOG_H

/**
 * The fleet_events.jsonl writer (reference §2.6).
 *
 * Every record is one JSON object on one line with the six envelope fields
 * kind, event, disposition, agent, subcommand, timestamp; extra fields can
 * never overwrite them. A record is written with one write(2) on an
 * O_APPEND descriptor while holding an exclusive flock(2), so concurrent
 * writers never interleave or tear a line; a short write (a full disk) is
 * cut back off the file. The log rotates by size under that same lock
 * (base/eventlog-rotate.h). Writing is best-effort: failures return -1 and
 * never stop the git operation that is being logged, but each is said on
 * stderr and counted in <home>/fleet_events.lost, and the next record
 * written is preceded by an `events_lost` event with the count.
 *
 *   struct event ev = EVENT_INIT("deny", agent, "checkout");
 *   event_add_str(&ev, "reason", reason);
 *   event_add_null(&ev, "target_branch");
 *   event_write(home, &ev);
 *   event_release(&ev);
 */
#include "base/common.h"
#include "base/strbuf.h"

struct event {
	const char *event;	/* not owned */
	const char *agent;	/* not owned; NULL means "" */
	const char *subcommand; /* not owned; NULL means "" */
	struct strbuf extra;	/* ,"k":v pairs */
};

#define EVENT_INIT(e, a, s) { (e), (a), (s), STRBUF_INIT }

/* "deny", "warn" or "info"; unknown events are "deny" (fail closed). */
const char *event_disposition(const char *event);
/* Whether agentic-git writes events of that name (the info, warn and
 * deny tables); `events --event` takes only these. */
bool event_name_known(const char *name);
/* Appends every known name to out, `sep` between them. */
void event_names_list(struct strbuf *out, const char *sep);
void event_add_str(struct event *ev, const char *key, const char *val);
void event_add_null(struct event *ev, const char *key);
void event_add_int(struct event *ev, const char *key, long long val);
void event_add_bool(struct event *ev, const char *key, bool val);
/* Adds an array of strings. */
void event_add_strv(struct event *ev, const char *key, const char *const *v,
		    size_t n);
/* Renders the record (with trailing newline) into out. */
void event_render(const struct event *ev, struct strbuf *out);
/* Appends the record to <home>/fleet_events.jsonl. No-op when home is "". */
int event_write(const char *home, const struct event *ev);
/* Appends one rendered line (with its newline) the same way. */
int event_append_line(const char *home, const char *line, size_t len);
/*
 * For a writer of many records (the fs+api proxy): the log (or the spool)
 * opened once, -1 when home is "" or it cannot be opened (errno set); the
 * fd is the caller's to close. event_log_append() writes one rendered line
 * to it under the same lock as event_append_line(), replacing *fd with the
 * new log when the log was rotated (base/eventlog-rotate.h) and opening it
 * when *fd is -1.
 */
int event_log_open(const char *home);
int event_log_append(int *fd, const char *home, const char *line, size_t len);

/*
 * Inside a sandbox the log is absent (bwrap) or read-only (Landlock). When
 * it cannot be opened and this variable names an absolute path, records go
 * to that spool instead, which the launcher creates before the agent starts
 * and imports afterwards (fleet/spool.h). The log itself is never created
 * while a spool is named, and a writable log always wins.
 */
#define EVENTS_SPOOL_ENV "AGENTIC_GIT_EVENTS_SPOOL"
/* the count of records lost, in the home (see above) */
#define EVENTS_LOST_FILE "fleet_events.lost"
void event_release(struct event *ev);

#endif
