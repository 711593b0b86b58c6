/* SPDX-License-Identifier: Apache-2.0 */
/* Writing a session: binding, signature, marker, exclude (session-write.h). */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <jansson.h>
#include "agentic-git/core.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "fleet/session-write.h"
#include "git/repo.h" /* SESSION_MARKER_NAME */

/* The base keys, signed with the rest (review and merge read them). */
static char *base_json(const struct session_record *r)
{
	json_t *o;
	char *s;

	if (!r->base && !r->base_oid)
		return NULL;
	o = json_object();
	if (r->base)
		json_object_set_new(o, "base", json_string(r->base));
	if (r->base_oid)
		json_object_set_new(o, "base_oid", json_string(r->base_oid));
	s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	return s;
}

int session_write_binding(const struct session_record *r, struct strbuf *err)
{
	struct ag_binding b = { 0 };
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;
	char sig[AG_MAC_HEX_LEN + 1];
	char *json = NULL;
	size_t len = 0;
	int ret = -1;

	b.version = 1;
	b.agent = (char *)r->agent;
	b.task_id = (char *)r->task_id;
	b.branch = (char *)r->branch;
	b.worktree = (char *)r->worktree;
	b.source_repo = (char *)r->source_repo;
	b.issued_at = (char *)r->issued_at;
	b.bypass = (char *)(r->allow_bypass ? AG_BYPASS_ALLOWED
					    : AG_BYPASS_DENIED);
	b.extra_json = base_json(r);
	strbuf_addf(&dir, "%s/runtime/%s", r->home, r->agent);
	strbuf_addf(&path, "%s/binding.json", dir.buf);
	/* invariant 1: the signature is over the very bytes written */
	if (mkdir_p(dir.buf, 0700) < 0 ||
	    ag_binding_encode(&b, &json, &len) < 0 ||
	    ag_sign_with_home(r->home, json, len, sig) < 0 ||
	    write_file_atomic(path.buf, json, len, 0600) < 0)
		goto out;
	strbuf_addstr(&path, ".sig");
	if (write_file_atomic(path.buf, sig, AG_MAC_HEX_LEN, 0600) < 0)
		goto out;
	ret = 0;
out:
	if (ret)
		strbuf_addf(err, "cannot write the session binding in '%s': %s",
			    dir.buf, strerror(errno));
	free(json);
	free(b.extra_json);
	strbuf_release(&dir);
	strbuf_release(&path);
	return ret;
}

/* Appends `add` to the existing file at `path` in place (invariant 3). */
static int append_in_place(const char *path, const struct strbuf *add)
{
	cleanup_fd int fd =
		open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);

	return fd < 0 || write_all(fd, add->buf, add->len) < 0 ? -1 : 0;
}

/* Whether `data` has the line "/<name>" or "<name>". */
static bool has_line(const char *data, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = data; *p;) {
		const char *nl = strchrnul(p, '\n');
		const char *l = *p == '/' ? p + 1 : p;
		if ((size_t)(nl - l) == len && !strncmp(l, name, len))
			return true;
		p = *nl ? nl + 1 : nl;
	}
	return false;
}

/* Invariant 3: "/<name>" lines for the marker and more_excludes. */
static int write_excludes(const struct session_record *r)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT, add = STRBUF_INIT;
	bool missing = false;
	size_t nl;
	int ret = -1;

	strbuf_addf(&path, "%s/info", r->exclude_git_dir);
	if (mkdir_p(path.buf, 0755) < 0)
		goto out;
	strbuf_addstr(&path, "/exclude");
	if (read_file_bounded(path.buf, 1 << 20, RF_REGULAR, &data) < 0) {
		if (errno != ENOENT)
			goto out;
		missing = true;
	}
	if (data.len && data.buf[data.len - 1] != '\n')
		strbuf_addch(&add, '\n'); /* end the last line first */
	nl = add.len;
	if (!has_line(data.buf, SESSION_MARKER_NAME))
		strbuf_addf(&add, "/%s\n", SESSION_MARKER_NAME);
	for (size_t i = 0; r->more_excludes && r->more_excludes[i]; i++)
		if (!has_line(data.buf, r->more_excludes[i]))
			strbuf_addf(&add, "/%s\n", r->more_excludes[i]);
	if (add.len == nl)
		ret = 0; /* all there already */
	else if (missing)
		ret = write_file_atomic(path.buf, add.buf, add.len, 0644);
	else
		ret = append_in_place(path.buf, &add);
out:
	strbuf_release(&path);
	strbuf_release(&data);
	strbuf_release(&add);
	return ret;
}

int session_write(const struct session_record *r, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, marker = STRBUF_INIT;
	int ret;

	strbuf_addf(&marker, "agent=%s\nleased_at=%s\n", r->agent,
		    r->issued_at);
	strbuf_addf(&path, "%s/%s", r->worktree, SESSION_MARKER_NAME);
	ret = write_file_atomic(path.buf, marker.buf, marker.len, 0600);
	if (!ret)
		ret = write_excludes(r);
	if (ret)
		strbuf_addf(err, "cannot write the session marker in '%s': %s",
			    r->worktree, strerror(errno));
	strbuf_release(&path);
	strbuf_release(&marker);
	return ret ? -1 : session_write_binding(r, err);
}
