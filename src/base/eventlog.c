/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/eventlog.h"
#include "base/eventlog-rotate.h"
#include "base/fileio.h"
#include "base/timefmt.h"

static const char *const warn_events[] = {
	"cwd_worktree_drift",
	"git_conflict",
	"snapshot_failed",
	"bypass_mutating_op",
	"canonical_passthrough_checkout",
	"sandbox_downgraded",
	"quarantine_failed",
	"timeout",
	"events_lost",
};

static const char *const info_events[] = {
	"post_merge_cleanup_exempt",
	"init_heartbeat_forensics",
	"ref_update",
	"snapshot_taken",
	"snapshot_restored",
	"session_start",
	"session_end",
	"agent_launch",
	"dispatch_push",
	"net_allow",
	"session_merged",
};

/* Every deny agentic-git writes (a deny is any name not listed above). */
static const char *const deny_events[] = {
	"deny",
	"deny_cross_agent_sibling",
	"deny_cross_branch_push",
	"deny_force_no_lease",
	"deny_protected_ref",
	"deny_snapshot_ref_push",
	"deny_trust_root",
	"net_deny",
};

static const struct {
	const char *const *v;
	size_t n;
} known[] = {
	{ info_events, ARRAY_SIZE(info_events) },
	{ warn_events, ARRAY_SIZE(warn_events) },
	{ deny_events, ARRAY_SIZE(deny_events) },
};

bool event_name_known(const char *name)
{
	for (size_t k = 0; k < ARRAY_SIZE(known); k++)
		for (size_t i = 0; i < known[k].n; i++)
			if (!strcmp(name, known[k].v[i]))
				return true;
	return false;
}

void event_names_list(struct strbuf *out, const char *sep)
{
	const char *s = "";

	for (size_t k = 0; k < ARRAY_SIZE(known); k++)
		for (size_t i = 0; i < known[k].n; i++) {
			strbuf_addf(out, "%s%s", s, known[k].v[i]);
			s = sep;
		}
}

static const char *const envelope[] = {
	"kind", "event", "disposition", "agent", "subcommand", "timestamp",
};

const char *event_disposition(const char *event)
{
	for (size_t i = 0; i < ARRAY_SIZE(warn_events); i++)
		if (!strcmp(event, warn_events[i]))
			return "warn";
	for (size_t i = 0; i < ARRAY_SIZE(info_events); i++)
		if (!strcmp(event, info_events[i]))
			return "info";
	return "deny";
}

static bool add_key(struct event *ev, const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(envelope); i++)
		if (!strcmp(key, envelope[i]))
			return false; /* the envelope is authoritative */
	strbuf_addch(&ev->extra, ',');
	strbuf_add_json_str(&ev->extra, key);
	strbuf_addch(&ev->extra, ':');
	return true;
}

void event_add_str(struct event *ev, const char *key, const char *val)
{
	if (!add_key(ev, key))
		return;
	if (val)
		strbuf_add_json_str(&ev->extra, val);
	else
		strbuf_addstr(&ev->extra, "null");
}

void event_add_null(struct event *ev, const char *key)
{
	if (add_key(ev, key))
		strbuf_addstr(&ev->extra, "null");
}

void event_add_int(struct event *ev, const char *key, long long val)
{
	if (add_key(ev, key))
		strbuf_addf(&ev->extra, "%lld", val);
}

void event_add_bool(struct event *ev, const char *key, bool val)
{
	if (add_key(ev, key))
		strbuf_addstr(&ev->extra, val ? "true" : "false");
}

void event_add_strv(struct event *ev, const char *key, const char *const *v,
		    size_t n)
{
	if (!add_key(ev, key))
		return;
	strbuf_addch(&ev->extra, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addch(&ev->extra, ',');
		strbuf_add_json_str(&ev->extra, v[i]);
	}
	strbuf_addch(&ev->extra, ']');
}

void event_render(const struct event *ev, struct strbuf *out)
{
	strbuf_addstr(out, "{\"kind\":\"git_event\",\"event\":");
	strbuf_add_json_str(out, ev->event);
	strbuf_addstr(out, ",\"disposition\":");
	strbuf_add_json_str(out, event_disposition(ev->event));
	strbuf_addstr(out, ",\"agent\":");
	strbuf_add_json_str(out, ev->agent ? ev->agent : "");
	strbuf_addstr(out, ",\"subcommand\":");
	strbuf_add_json_str(out, ev->subcommand ? ev->subcommand : "");
	strbuf_addstr(out, ",\"timestamp\":\"");
	time_now_rfc3339(out);
	strbuf_addch(out, '"');
	strbuf_addbuf(out, &ev->extra);
	strbuf_addstr(out, "}\n");
}

/*
 * The log, or inside a sandbox (where it is absent or read-only) the spool
 * the launcher created and will import; the log is created only when it is
 * missing and there is no spool. *spool says which it is.
 */
static int open_log(const char *path, bool *spool_used)
{
	const char *spool = getenv(EVENTS_SPOOL_ENV);
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
	int err = errno;

	*spool_used = false;
	if (fd >= 0)
		return fd;
	if (spool && spool[0] == '/' &&
	    (err == ENOENT || err == EACCES || err == EROFS || err == EPERM)) {
		fd = open(spool, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
		if (fd >= 0) {
			*spool_used = true;
			return fd;
		}
	}
	if (err != ENOENT) {
		errno = err;
		return -1;
	}
	return open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
		    0600);
}

int event_log_open(const char *home)
{
	struct strbuf path = STRBUF_INIT;
	bool spool;
	int fd;

	if (!home || !*home)
		return -1;
	strbuf_addf(&path, "%s/fleet_events.jsonl", home);
	fd = open_log(path.buf, &spool);
	strbuf_release(&path);
	return fd;
}

/* One line appended whole or not at all: a short write (a full disk) is
 * cut back, so no torn line stays. Under the caller's lock. */
static int append_whole(int fd, const char *line, size_t len)
{
	struct stat st;
	bool sized = fstat(fd, &st) == 0;
	int err;

	if (write_all(fd, line, len) == 0)
		return 0;
	err = errno;
	if (sized && ftruncate(fd, st.st_size) < 0) {
		/* leave it as it is: nothing better can be done */
	}
	errno = err;
	return -1;
}

static void lock_fd(int fd)
{
	while (flock(fd, LOCK_EX) < 0 && errno == EINTR)
		;
}

/*
 * The log opened and locked, opened again when it was rotated while this
 * writer waited for the lock (base/eventlog-rotate.h); a spool is never
 * rotated.
 */
static int open_locked(const char *home, const char *path, int fd, bool *spool)
{
	for (int tries = 0;; tries++) {
		if (fd < 0)
			fd = open_log(path, spool);
		if (fd < 0)
			return -1;
		lock_fd(fd);
		if (*spool || tries >= 3 || !journal_rotated_away(home, fd))
			return fd;
		flock(fd, LOCK_UN);
		close(fd);
		fd = -1;
	}
}

/* One line, then the log's marks and rotation (under the lock). */
static int append_rotating(const char *home, int fd, bool spool,
			   const char *line, size_t len)
{
	struct stat st;
	bool sized = !spool && fstat(fd, &st) == 0;
	int ret = append_whole(fd, line, len);

	if (!ret && sized)
		journal_after_append(home, st.st_size, st.st_size + (off_t)len);
	return ret;
}

int event_log_append(int *fd, const char *home, const char *line, size_t len)
{
	struct strbuf path = STRBUF_INIT;
	bool spool = false;
	int ret = -1;

	/* flock serialises writers that share the file over NFS-less local
	 * disks; O_APPEND + one write keeps each line whole. */
	strbuf_addf(&path, "%s/" JOURNAL_NAME, home);
	*fd = open_locked(home, path.buf, *fd, &spool);
	if (*fd >= 0) {
		ret = append_rotating(home, *fd, spool, line, len);
		flock(*fd, LOCK_UN);
	}
	strbuf_release(&path);
	return ret;
}

/*
 * The count of records that could not be written: <home>/fleet_events.lost,
 * a fixed-width decimal (LOST_WIDTH bytes with its newline) made while
 * there is space, so that counting rewrites bytes in place and needs no
 * new block on a full disk. Read-modify-write under its own flock, taken
 * after the log's (never the other way round).
 */
#define LOST_WIDTH 20

static int lost_open(const char *home, bool create)
{
	struct strbuf path = STRBUF_INIT;
	int fd;

	strbuf_addf(&path, "%s/" EVENTS_LOST_FILE, home);
	fd = open(path.buf, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 && errno == ENOENT && create) {
		char zeros[LOST_WIDTH];

		memset(zeros, '0', sizeof(zeros) - 1);
		zeros[sizeof(zeros) - 1] = '\n';
		fd = open(path.buf,
			  O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
			  0600);
		if (fd >= 0 && write_all(fd, zeros, sizeof(zeros)) < 0) {
			close(fd);
			unlink(path.buf);
			fd = -1;
		}
	}
	if (fd >= 0)
		while (flock(fd, LOCK_EX) < 0 && errno == EINTR)
			;
	strbuf_release(&path);
	return fd;
}

static unsigned long lost_read(int fd)
{
	char buf[LOST_WIDTH + 1];
	ssize_t n = pread(fd, buf, LOST_WIDTH, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtoul(buf, NULL, 10);
}

static int lost_write(int fd, unsigned long n)
{
	char buf[LOST_WIDTH + 1];

	snprintf(buf, sizeof(buf), "%0*lu\n", LOST_WIDTH - 1, n);
	return pwrite(fd, buf, LOST_WIDTH, 0) == LOST_WIDTH ? 0 : -1;
}

/* The records lost before this one are recorded first (an `events_lost`
 * event with their count), then the count goes back to 0. Under the
 * log's lock. */
static void lost_flush(const char *home, int log)
{
	int fd = lost_open(home, true);
	unsigned long n = fd >= 0 ? lost_read(fd) : 0;

	if (n) {
		struct event ev = EVENT_INIT("events_lost", "", "");
		struct strbuf line = STRBUF_INIT;

		event_add_int(&ev, "lost", (long long)n);
		event_add_str(
			&ev, "reason",
			"audit records could not be written (see the warnings they printed)");
		event_render(&ev, &line);
		if (append_whole(log, line.buf, line.len) == 0)
			lost_write(fd, 0);
		strbuf_release(&line);
		event_release(&ev);
	}
	if (fd >= 0)
		close(fd);
}

/* One more record lost: counted, and said on stderr. */
static void lost_count(const char *home, const char *why)
{
	static unsigned long here;
	int fd = lost_open(home, true);
	unsigned long n = 0;

	here++;
	if (fd >= 0) {
		n = lost_read(fd) + 1;
		if (lost_write(fd, n) < 0)
			n = 0;
		close(fd);
	}
	if (n)
		fprintf(stderr,
			"agentic-git: warning — an audit record could not be written to %s/fleet_events.jsonl (%s); %lu lost so far, counted in %s/" EVENTS_LOST_FILE
			" and recorded by the next record written\n",
			home, why, n, home);
	else
		fprintf(stderr,
			"agentic-git: warning — an audit record could not be written to %s/fleet_events.jsonl (%s), nor counted there; %lu lost by this process\n",
			home, why, here);
}

int event_append_line(const char *home, const char *line, size_t len)
{
	struct strbuf path = STRBUF_INIT;
	bool spool = false;
	int fd, ret = -1, err;

	if (!home || !*home)
		return 0;
	strbuf_addf(&path, "%s/fleet_events.jsonl", home);
	fd = open_locked(home, path.buf, -1, &spool);
	err = errno;
	strbuf_release(&path);
	if (fd >= 0) {
		if (!spool)
			lost_flush(home, fd);
		ret = append_rotating(home, fd, spool, line, len);
		err = errno;
		/* counted while the log is locked: the next writer sees it */
		if (ret < 0 && !spool)
			lost_count(home, strerror(err));
		flock(fd, LOCK_UN);
		close(fd);
	} else if (!spool) {
		lost_count(home, strerror(err));
	}
	return ret;
}

int event_write(const char *home, const struct event *ev)
{
	struct strbuf line = STRBUF_INIT;
	int ret;

	event_render(ev, &line);
	ret = event_append_line(home, line.buf, line.len);
	strbuf_release(&line);
	return ret;
}

void event_release(struct event *ev)
{
	strbuf_release(&ev->extra);
}
