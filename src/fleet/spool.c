/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <string.h>
#include <unistd.h>
#include "base/eventlog.h"
#include "base/fileio.h"
#include "base/strbuf.h"
#include "fleet/spool.h"

int spool_create(const char *path)
{
	int fd;

	if (unlink(path) < 0 && errno != ENOENT)
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* One spool line → one log line in out, or -1 (invariants 1, 2). */
static int vet(const char *line, size_t len, const char *agent,
	       const char *worktree, struct strbuf *out)
{
	json_t *o = json_loadb(line, len, JSON_REJECT_DUPLICATES, NULL);
	const char *ev, *claimed;
	char *dump = NULL;

	if (!json_is_object(o) || !json_is_string(json_object_get(o, "event")) ||
	    !json_is_string(json_object_get(o, "timestamp")))
		goto bad;
	ev = json_string_value(json_object_get(o, "event"));
	if (!*ev || strlen(ev) > 64)
		goto bad;
	claimed = json_string_value(json_object_get(o, "agent"));
	if (claimed && strcmp(claimed, agent))
		json_object_set_new(o, "claimed_agent", json_string(claimed));
	json_object_set_new(o, "kind", json_string("git_event"));
	json_object_set_new(o, "agent", json_string(agent));
	/* invariant 5: the session's worktree, whatever the record says */
	claimed = json_string_value(json_object_get(o, "worktree"));
	if (worktree && json_object_get(o, "worktree")) {
		if (!claimed || strcmp(claimed, worktree))
			json_object_set(o, "claimed_worktree",
					json_object_get(o, "worktree"));
		json_object_set_new(o, "worktree", json_string(worktree));
	}
	json_object_set_new(o, "disposition", json_string(event_disposition(ev)));
	json_object_set_new(o, "via", json_string("sandbox"));
	dump = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (!dump)
		return -1;
	strbuf_addstr(out, dump);
	strbuf_addch(out, '\n');
	free(dump);
	return 0;
bad:
	json_decref(o);
	return -1;
}

int spool_import(const char *home, const char *path, const char *agent,
		 const char *worktree, size_t *rejected)
{
	struct strbuf buf = STRBUF_INIT, line = STRBUF_INIT;
	int imported = 0;
	size_t off = 0;

	*rejected = 0;
	if (read_file_bounded(path, SPOOL_MAX, RF_REGULAR, &buf) < 0) {
		int err = errno;
		bool missing = err == ENOENT;

		if (err == EFBIG)
			*rejected = 1;
		unlink(path);
		strbuf_release(&buf);
		errno = err;
		return missing ? 0 : -1;
	}
	while (off < buf.len) {
		const char *s = buf.buf + off, *nl = memchr(s, '\n', buf.len - off);
		size_t len = nl ? (size_t)(nl - s) : buf.len - off;

		off += len + 1;
		if (!len)
			continue;
		strbuf_reset(&line);
		if (vet(s, len, agent, worktree, &line) < 0 ||
		    event_append_line(home, line.buf, line.len) < 0)
			(*rejected)++;
		else
			imported++;
	}
	unlink(path);
	strbuf_release(&buf);
	strbuf_release(&line);
	return imported;
}
