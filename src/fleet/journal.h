/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_JOURNAL_H
#define AG_FLEET_JOURNAL_H

/**
 * Walking the audit log, <home>/fleet_events.jsonl, record by record, for
 * the commands that summarise a session from it (review, merge), its
 * rotated files first, oldest first (base/eventlog-rotate.h).
 *
 * The file is opened with O_NOFOLLOW and must be a regular file; it is
 * read in bounded chunks, a line longer than JOURNAL_LINE_MAX is skipped,
 * and so is a line that is not an audit record (fleet/audit.h). With
 * `agent` set, only the records of that agent reach `fn` (a cheap byte
 * test first, then the parsed field). The records handed to `fn` are
 * borrowed for the call. A missing log is no records.
 *
 * journal_each() returns 0, the first non-zero value `fn` returned (the
 * walk stops there), or -1 with errno set when the log cannot be read.
 */
#include "base/common.h"
#include "fleet/audit.h"

#define JOURNAL_LINE_MAX (1u << 20)

typedef int (*journal_fn)(const struct audit_record *r, void *data);

int journal_each(const char *home, const char *agent, journal_fn fn,
		 void *data);

/* A string field of a record, or NULL. */
const char *journal_str(const struct audit_record *r, const char *key);

#endif
