/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include "base/eventlog.h"
#include "base/fileio.h"
#include "base/timefmt.h"

static const char *const warn_events[] = {
	"cwd_worktree_drift", "git_conflict", "snapshot_failed",
	"bypass_mutating_op", "canonical_passthrough_checkout",
	"sandbox_downgraded", "quarantine_failed", "timeout",
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
 * missing and there is no spool.
 */
static int open_log(const char *path)
{
	const char *spool = getenv(EVENTS_SPOOL_ENV);
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
	int err = errno;

	if (fd >= 0)
		return fd;
	if (spool && spool[0] == '/' &&
	    (err == ENOENT || err == EACCES || err == EROFS || err == EPERM)) {
		fd = open(spool, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
		if (fd >= 0)
			return fd;
	}
	if (err != ENOENT)
		return -1;
	return open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
		    0600);
}

int event_log_open(const char *home)
{
	struct strbuf path = STRBUF_INIT;
	int fd;

	if (!home || !*home)
		return -1;
	strbuf_addf(&path, "%s/fleet_events.jsonl", home);
	fd = open_log(path.buf);
	strbuf_release(&path);
	return fd;
}

int event_log_append(int fd, const char *line, size_t len)
{
	int ret;

	/* flock serialises writers that share the file over NFS-less local
	 * disks; O_APPEND + one write keeps each line whole. */
	while (flock(fd, LOCK_EX) < 0 && errno == EINTR)
		;
	ret = write_all(fd, line, len);
	flock(fd, LOCK_UN);
	return ret;
}

int event_append_line(const char *home, const char *line, size_t len)
{
	int fd, ret = -1;

	if (!home || !*home)
		return 0;
	fd = event_log_open(home);
	if (fd >= 0) {
		ret = event_log_append(fd, line, len);
		close(fd);
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
