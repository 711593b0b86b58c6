/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_AUDIT_H
#define AG_AUDIT_H

/**
 * Reading the audit log (fleet_events.jsonl, reference §2.6): parsing one
 * line, filtering, and the times --since/--until accept. Pure: no I/O.
 *
 * A record is a JSON object with at least a string `event`; everything
 * else is optional and read leniently, because the log is shared with other
 * writers (the original agentic-git, agend). audit_record_parse() returns
 * -1 for anything else (not JSON, not an object, no event) and the caller
 * skips the line.
 *
 * Ownership: a record owns its parsed JSON (audit_record_release()); its
 * string fields point into it. Filter strings are not owned.
 */
#include "base/common.h"
#include <time.h>
#include "base/strbuf.h"

struct audit_filter {
	const char *agent;	 /* exact, or NULL */
	const char *event;	 /* comma-separated names, or NULL */
	const char *disposition; /* comma-separated, or NULL */
	bool has_since, has_until;
	struct timespec since, until;
};

struct audit_record {
	void *root; /* json_t *, owned */
	const char *event, *disposition, *agent, *subcommand, *timestamp;
	struct timespec ts;
	bool ts_ok;
};

/*
 * RFC 3339 (as time_parse_rfc3339 accepts) or a relative age before `now`:
 * <N>s, <N>m, <N>h, <N>d, <N>w. 0 or -1.
 */
int audit_parse_time(const char *s, time_t now, struct timespec *out);
int audit_record_parse(const char *line, size_t len, struct audit_record *r);
void audit_record_release(struct audit_record *r);
bool audit_match(const struct audit_filter *f, const struct audit_record *r);
/* A one-line human summary of the record's extra fields. */
void audit_detail(const struct audit_record *r, struct strbuf *out);

#endif
