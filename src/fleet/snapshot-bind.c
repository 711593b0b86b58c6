/* SPDX-License-Identifier: Apache-2.0 */
/* Imported snapshots bound to their session; see snapshot-bind.h. */
#include "base/common.h"
#include <string.h>
#include "base/die.h"
#include "base/envvar.h"
#include "base/refname.h"
#include "base/spawn.h"
#include "base/strvec.h"
#include "base/xalloc.h"
#include "fleet/snapshot-bind.h"
#include "git/gitcmd.h"
#include "git/snapshot-name.h"

#define BIND_IDENT "agentic-git <agentic-git@localhost>"

static bool oid_ok(const struct snapshot_bind *b, const char *s)
{
	return s && strlen(s) == b->hexlen && is_lower_hex(s, b->hexlen);
}

static char *ref_or_null(char *s)
{
	if (s && starts_with(s, "refs/") && refname_valid(s, 0))
		return s;
	free(s);
	return NULL;
}

/* Invariants 1, 2: the message from the session's facts. */
static void bound_meta(const struct snapshot_bind *b,
		       const struct snapshot_name *n, const char *msg,
		       struct strbuf *out)
{
	struct snapshot_meta m = SNAPSHOT_META_INIT, k = SNAPSHOT_META_INIT;

	snapshot_meta_parse(msg, &m);
	k.op = xstrdup(m.op && snapshot_slug_valid(m.op) ? m.op : n->slug);
	k.agent = xstrdup(b->agent);
	k.worktree = xstrdup(b->worktree);
	k.head = oid_ok(b, m.head) ? xstrdup(m.head) : NULL;
	k.index = oid_ok(b, m.index) ? xstrdup(m.index) : NULL;
	k.quarantine = m.quarantine && m.quarantine[0] == '/'
			       ? xstrdup(m.quarantine)
			       : NULL;
	k.branch = ref_or_null(m.branch);
	k.kept = ref_or_null(m.kept);
	m.branch = m.kept = NULL;
	for (size_t i = 0; i < m.stashes.nr; i++)
		if (oid_ok(b, m.stashes.v[i]))
			strvec_push(&k.stashes, m.stashes.v[i]);
	snapshot_meta_render(&k, out);
	snapshot_meta_release(&m);
	snapshot_meta_release(&k);
}

/* The committer time of a commit's header (digits), or 0. */
static long long header_time(const char *line, size_t n)
{
	const char *gt = NULL;
	long long t = 0;

	for (size_t i = 0; i < n; i++)
		if (line[i] == '>')
			gt = line + i;
	if (!gt || gt + 2 > line + n || gt[1] != ' ')
		return 0;
	for (const char *p = gt + 2; p < line + n && *p >= '0' && *p <= '9';
	     p++)
		if (t < 100000000000LL)
			t = t * 10 + (*p - '0');
	return t;
}

int snapshot_bind_commit(const struct snapshot_bind *b, const char *ref,
			 const char *obj, size_t len, struct strbuf *out)
{
	struct snapshot_name n;
	struct strbuf head = STRBUF_INIT, msg = STRBUF_INIT;
	const char *p = obj, *end = obj + len, *v;
	long long when = 0;
	bool tree = false;
	int rc = -1;

	if (snapshot_ref_parse(ref, &n) < 0)
		return -1;
	if (strcmp(n.agent, b->agent))
		goto out;
	if (b->now > 0) { /* invariant 4 */
		time_t t = snapshot_stamp_time(n.stamp);

		if (t < 0 || t > b->now + SNAPSHOT_BIND_SKEW) {
			rc = -2;
			goto out;
		}
	}
	/* headers: tree, parents, committer time; the rest is dropped */
	while (p < end && *p != '\n') {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t l;

		if (!eol)
			goto out;
		l = (size_t)(eol - p);
		if (l == 5 + b->hexlen && skip_prefix(p, "tree ", &v) &&
		    is_lower_hex(v, b->hexlen) && !tree) {
			strbuf_add(&head, p, l + 1);
			tree = true;
		} else if (l == 7 + b->hexlen &&
			   skip_prefix(p, "parent ", &v) &&
			   is_lower_hex(v, b->hexlen) && tree) {
			strbuf_add(&head, p, l + 1);
		} else if (skip_prefix(p, "committer ", &v)) {
			when = header_time(v, (size_t)(eol - v));
		}
		p = eol + 1;
	}
	if (!tree || p >= end)
		goto out;
	strbuf_add(&msg, p + 1, (size_t)(end - p - 1));
	strbuf_addbuf(out, &head);
	strbuf_addf(out, "author " BIND_IDENT " %lld +0000\n", when);
	strbuf_addf(out, "committer " BIND_IDENT " %lld +0000\n\n", when);
	bound_meta(b, &n, msg.buf, out);
	rc = 0;
out:
	snapshot_name_release(&n);
	strbuf_release(&head);
	strbuf_release(&msg);
	return rc;
}

/* One `git cat-file --batch` over the oids of `lines`, into out. */
static int read_commits(const struct snapshot_bind *b, const char *lines,
			struct strbuf *out)
{
	struct strbuf in = STRBUF_INIT, err = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int rc;

	for (const char *l = lines; *l;) {
		const char *e = strchrnul(l, '\n');
		strbuf_addf(&in, "%.*s\n", (int)b->hexlen, l);
		l = *e ? e + 1 : e;
	}
	gitcmd_init(&c, b->git, b->repo);
	strvec_pushl(&c.args, "cat-file", "--batch", NULL);
	c.in = in.buf;
	c.in_len = in.len;
	rc = gitcmd_run(&c, out, &err);
	child_release(&c);
	if (rc)
		error("%s: git cat-file failed in '%s': %s", b->who, b->repo,
		      err.len ? err.buf : "no message");
	strbuf_release(&in);
	strbuf_release(&err);
	return rc ? -1 : 0;
}

/* Writes `obj` as a commit of the clone; its oid into oid. */
static int write_commit(const struct snapshot_bind *b, const struct strbuf *obj,
			struct strbuf *oid)
{
	struct strbuf err = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int rc;

	gitcmd_init(&c, b->git, b->repo);
	strvec_pushl(&c.args, "hash-object", "-t", "commit", "-w", "--stdin",
		     NULL);
	c.in = obj->buf;
	c.in_len = obj->len;
	rc = gitcmd_run(&c, oid, &err);
	child_release(&c);
	gitcmd_chomp(oid);
	if (rc || oid->len != b->hexlen)
		rc = error("%s: cannot write a snapshot commit in '%s': %s",
			   b->who, b->repo, err.len ? err.buf : "no message");
	strbuf_release(&err);
	return rc ? -1 : 0;
}

int snapshot_bind_import(const struct snapshot_bind *b, const char *lines,
			 struct strbuf *tx)
{
	struct strbuf batch = STRBUF_INIT, obj = STRBUF_INIT, oid = STRBUF_INIT,
		      ref = STRBUF_INIT;
	const char *p, *end;
	int rc = 0;

	if (!*lines)
		return 0;
	if (read_commits(b, lines, &batch) < 0)
		return -1;
	p = batch.buf;
	end = batch.buf + batch.len;
	for (const char *l = lines; *l && !rc;) {
		const char *e = strchrnul(l, '\n'), *hdr_end, *type;
		unsigned long size = 0;
		bool commit, present;
		int bound;

		strbuf_reset(&ref);
		strbuf_add(&ref, l + b->hexlen + 1,
			   (size_t)(e - l) - b->hexlen - 1);
		l = *e ? e + 1 : e;
		/* "<oid> <type> <size>\n<body>\n" or "<oid> missing\n" */
		hdr_end = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
		if (!hdr_end) {
			rc = error("%s: short output of git cat-file", b->who);
			break;
		}
		type = p + b->hexlen + 1;
		commit = type + 7 <= hdr_end && !strncmp(type, "commit ", 7);
		present = type < hdr_end && strncmp(type, "missing", 7);
		if (present) {
			const char *sp =
				memchr(type, ' ', (size_t)(hdr_end - type));
			char *num = sp ? xstrndup(sp + 1,
						  (size_t)(hdr_end - sp - 1))
				       : NULL;
			if (!num ||
			    parse_ulong(num, (unsigned long)(end - hdr_end - 1),
					&size) < 0) {
				free(num);
				rc = error(
					"%s: unreadable output of git cat-file",
					b->who);
				break;
			}
			free(num);
		}
		strbuf_reset(&obj);
		bound = commit ? snapshot_bind_commit(b, ref.buf, hdr_end + 1,
						      size, &obj)
			       : -1;
		if (bound == -2) {
			warning("%s: snapshot ref '%s' of the private workspace is stamped in the future: not imported",
				b->who, ref.buf);
		} else if (bound < 0) {
			warning("%s: snapshot ref '%s' of the private workspace is not a snapshot of agent '%s': not imported",
				b->who, ref.buf, b->agent);
		} else {
			strbuf_reset(&oid);
			rc = write_commit(b, &obj, &oid);
			if (!rc)
				strbuf_addf(tx, "create %s %s\n", ref.buf,
					    oid.buf);
		}
		p = hdr_end + 1 + (present ? size + 1 : 0);
	}
	strbuf_release(&batch);
	strbuf_release(&obj);
	strbuf_release(&oid);
	strbuf_release(&ref);
	return rc;
}
