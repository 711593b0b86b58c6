/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "base/eventlog-rotate.h"
#include "fleet/journal.h"

#define CHUNK (64u << 10)

struct walk {
	const char *agent;
	char *needle; /* "<agent>", in any record of the agent */
	journal_fn fn;
	void *data;
};

static int one_line(struct walk *w, const char *line, size_t len)
{
	struct audit_record r;
	int rc = 0;

	if (!len ||
	    (w->needle && !memmem(line, len, w->needle, strlen(w->needle))))
		return 0;
	if (audit_record_parse(line, len, &r))
		return 0;
	if (!w->agent || !strcmp(r.agent, w->agent))
		rc = w->fn(&r, w->data);
	audit_record_release(&r);
	return rc;
}

static int walk_fd(struct walk *w, int fd)
{
	struct strbuf line = STRBUF_INIT;
	char *buf = xmalloc(CHUNK);
	bool overlong = false;
	int rc = 0;

	for (;;) {
		ssize_t n = read(fd, buf, CHUNK);
		const char *p = buf, *end = buf + (n > 0 ? n : 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -1;
			break;
		}
		if (!n)
			break;
		while (p < end && !rc) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t take = (size_t)((nl ? nl : end) - p);

			if (!overlong && line.len + take <= JOURNAL_LINE_MAX)
				strbuf_add(&line, p, take);
			else
				overlong = true;
			p += take;
			if (!nl)
				break;
			p++;
			if (!overlong)
				rc = one_line(w, line.buf, line.len);
			strbuf_reset(&line);
			overlong = false;
		}
		if (rc)
			break;
	}
	if (!rc && !overlong && line.len)
		rc = one_line(w, line.buf, line.len);
	free(buf);
	strbuf_release(&line);
	return rc;
}

static int walk_path(struct walk *w, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	struct stat st;
	int rc;

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	rc = walk_fd(w, fd);
	close(fd);
	return rc;
}

int journal_each(const char *home, const char *agent, journal_fn fn, void *data)
{
	struct journal_files files = JOURNAL_FILES_INIT;
	struct walk w = { agent, NULL, fn, data };
	int rc = 0;

	if (agent)
		w.needle = xstrfmt("\"%s\"", agent);
	/* the rotated logs first, oldest first (base/eventlog-rotate.h) */
	journal_files_list(home, 0, &files);
	for (size_t i = 0; i < files.nr && !rc; i++)
		rc = walk_path(&w, files.v[i].path);
	journal_files_release(&files);
	free(w.needle);
	return rc;
}

const char *journal_str(const struct audit_record *r, const char *key)
{
	return json_string_value(json_object_get(r->root, key));
}
