/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_EVENTLOG_ROTATE_H
#define AG_EVENTLOG_ROTATE_H

/**
 * The audit log kept bounded (issue 37 point 3; docs/audit.md,
 * "Rotation"), and read back in order across its rotations.
 *
 * Writers (base/eventlog.c) call journal_after_append() under the log's
 * flock after each line. Every JOURNAL_MARK_EVERY bytes it appends a mark,
 * "<offset> <bound>\n", to <log>.marks: every line before <offset> was
 * written before the UTC second <bound>, so a `--since` at or after
 * <bound> starts reading at <offset>. At the same boundaries, once the log
 * reaches the limit, it is renamed (still under the lock) to
 * fleet_events.jsonl.<YYYYmmddTHHMMSSZ>[-N], the stamp being such a bound
 * for the whole file, its marks with it, and the oldest rotated files
 * beyond the number kept are removed. A writer that opened the log before
 * the rename finds, once it holds the lock, that the path names another
 * file (journal_rotated_away()) and opens it again: no line lands in a
 * rotated file after its bound was taken.
 *
 * The limits come from <home>/fleet_events.limits ("max_mib N\nkeep N\n"),
 * which the operator's commands write from config.yaml (`journal:`; the
 * writer, in the shim, reads no YAML); missing, or not a regular file of
 * ours that only we may write, the defaults below apply.
 *
 * Every time bound assumes a record's timestamp is taken before it is
 * written, which holds for everything agentic-git writes (a spool's
 * records included: rendered in the cage, imported later).
 */
#include "base/common.h"
#include <sys/types.h>
#include <time.h>

#define JOURNAL_NAME "fleet_events.jsonl"
#define JOURNAL_LIMITS_FILE "fleet_events.limits"
#define JOURNAL_MARK_EVERY (64 * 1024)
#define JOURNAL_MAX_MIB_DEFAULT 64
#define JOURNAL_KEEP_DEFAULT 8

struct journal_limits {
	unsigned long max_mib, keep;
};

/* The limits in force for `home` (the defaults when unset or untrusted). */
void journal_limits_read(const char *home, struct journal_limits *out);

/* Writes <home>/fleet_events.limits when it would change (0: a value not
 * set, its default). 0, or -1 with errno set. */
int journal_limits_write(const char *home, unsigned long max_mib,
			 unsigned long keep);

/* Whether the locked log `fd` is no longer <home>/fleet_events.jsonl (it
 * was rotated while this writer waited for the lock). */
bool journal_rotated_away(const char *home, int fd);

/* Under the log's lock, after one line took it from `old_size` to
 * `new_size` bytes: marks, rotation and pruning as above. Best effort. */
void journal_after_append(const char *home, off_t old_size, off_t new_size);

struct journal_file {
	char *path;   /* owned */
	time_t bound; /* every line before it; 0 for the live log */
	off_t start;  /* where a reader from `since` begins */
};

struct journal_files {
	struct journal_file *v;
	size_t nr, alloc;
};

#define JOURNAL_FILES_INIT \
	{                  \
		NULL, 0, 0 \
	}

/*
 * The files to read for the records at or after `since` (0: all), oldest
 * first, the live log last: rotated files whose bound is at or before
 * `since` are left out unread, and each file's start is taken from its
 * marks.
 */
void journal_files_list(const char *home, time_t since,
			struct journal_files *out);
void journal_files_release(struct journal_files *f);

#endif
