/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "agentic-git/core.h"
#include "base/timefmt.h"
#include "base/xalloc.h"
#include "git/snapshot-name.h"

const char *snapshot_who(const char *agent)
{
	return agent && *agent ? agent : SNAPSHOT_NOAGENT;
}

bool snapshot_who_valid(const char *who)
{
	const char *why;

	return !strcmp(who, SNAPSHOT_NOAGENT) || ag_agent_name_valid(who, &why);
}

bool snapshot_slug_valid(const char *slug)
{
	size_t n = strlen(slug);

	if (!n || n > 32 || !islower((unsigned char)slug[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char)slug[i]) &&
		    !isdigit((unsigned char)slug[i]) && slug[i] != '-')
			return false;
	return true;
}

int snapshot_ref_build(struct strbuf *out, const char *who, time_t t,
		       unsigned long seq, const char *slug)
{
	if (!snapshot_who_valid(who) || !snapshot_slug_valid(slug) ||
	    seq > SNAPSHOT_SEQ_MAX)
		return -1;
	strbuf_addf(out, "%s%s/", SNAPSHOT_REF_PREFIX, who);
	time_compact_utc(t, out);
	strbuf_addf(out, "-%lu-%s", seq, slug);
	return 0;
}

static bool stamp_valid(const char *s)
{
	for (int i = 0; i < SNAPSHOT_STAMP_LEN; i++) {
		if (i == 8) {
			if (s[i] != 'T')
				return false;
		} else if (i == 15) {
			if (s[i] != 'Z')
				return false;
		} else if (!isdigit((unsigned char)s[i])) {
			return false;
		}
	}
	return true;
}

/* Parses "<stamp>-<seq>-<slug>" into n (agent already set). */
static int parse_tail(const char *tail, struct snapshot_name *n)
{
	const char *p;
	unsigned long seq = 0;

	if (strlen(tail) < SNAPSHOT_STAMP_LEN + 4 || !stamp_valid(tail) ||
	    tail[SNAPSHOT_STAMP_LEN] != '-')
		return -1;
	p = tail + SNAPSHOT_STAMP_LEN + 1;
	if (!isdigit((unsigned char)*p) || (*p == '0' && p[1] != '-'))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		seq = seq * 10 + (unsigned long)(*p - '0');
		if (seq > SNAPSHOT_SEQ_MAX)
			return -1;
	}
	if (*p != '-' || !snapshot_slug_valid(p + 1))
		return -1;
	memcpy(n->stamp, tail, SNAPSHOT_STAMP_LEN);
	n->stamp[SNAPSHOT_STAMP_LEN] = '\0';
	n->seq = seq;
	n->slug = xstrdup(p + 1);
	return 0;
}

int snapshot_ref_parse(const char *ref, struct snapshot_name *n)
{
	const char *rest, *slash;

	memset(n, 0, sizeof(*n));
	if (!skip_prefix(ref, SNAPSHOT_REF_PREFIX, &rest))
		return -1;
	slash = strchr(rest, '/');
	if (!slash || strchr(slash + 1, '/'))
		return -1;
	n->agent = xstrndup(rest, (size_t)(slash - rest));
	if (!snapshot_who_valid(n->agent) || parse_tail(slash + 1, n) < 0) {
		snapshot_name_release(n);
		return -1;
	}
	return 0;
}

void snapshot_name_release(struct snapshot_name *n)
{
	free(n->agent);
	free(n->slug);
	n->agent = n->slug = NULL;
}

int snapshot_name_cmp_newest(const struct snapshot_name *a,
			     const struct snapshot_name *b)
{
	int c = strcmp(b->stamp, a->stamp);

	if (c)
		return c;
	if (a->seq != b->seq)
		return a->seq > b->seq ? -1 : 1;
	return strcmp(a->slug, b->slug);
}

time_t snapshot_stamp_time(const char *stamp)
{
	struct timespec ts;
	char buf[32];

	if (strlen(stamp) != SNAPSHOT_STAMP_LEN || !stamp_valid(stamp))
		return -1;
	/* YYYYMMDDTHHMMSSZ -> YYYY-MM-DDTHH:MM:SSZ */
	snprintf(buf, sizeof(buf), "%.4s-%.2s-%.2sT%.2s:%.2s:%.2sZ", stamp,
		 stamp + 4, stamp + 6, stamp + 9, stamp + 11, stamp + 13);
	if (time_parse_rfc3339(buf, &ts) < 0)
		return -1;
	return ts.tv_sec;
}

unsigned long snapshot_next_seq(const char *const *refs, size_t nr,
				const char *who, const char *stamp)
{
	unsigned long next = 0;

	for (size_t i = 0; i < nr; i++) {
		struct snapshot_name n;

		if (snapshot_ref_parse(refs[i], &n) < 0)
			continue;
		if (!strcmp(n.agent, who) && !strcmp(n.stamp, stamp) &&
		    n.seq + 1 > next)
			next = n.seq + 1;
		snapshot_name_release(&n);
	}
	return next;
}

static void add_line(struct strbuf *out, const char *key, const char *val)
{
	if (!val)
		return;
	strbuf_addf(out, "Agentic-Snapshot-%s: ", key);
	for (const char *p = val; *p; p++) {
		if (*p == '\\')
			strbuf_addstr(out, "\\\\");
		else if (*p == '\n')
			strbuf_addstr(out, "\\n");
		else
			strbuf_addch(out, *p);
	}
	strbuf_addch(out, '\n');
}

void snapshot_meta_render(const struct snapshot_meta *m, struct strbuf *out)
{
	strbuf_addf(out, "%s snapshot\n\n", m->op);
	add_line(out, "Op", m->op);
	add_line(out, "Agent", m->agent);
	add_line(out, "Worktree", m->worktree);
	add_line(out, "Head", m->head);
	add_line(out, "Index", m->index);
	add_line(out, "Quarantine", m->quarantine);
	add_line(out, "Branch", m->branch);
	add_line(out, "Kept", m->kept);
	for (size_t i = 0; i < m->stashes.nr; i++)
		add_line(out, "Stash", m->stashes.v[i]);
}

static char *unescape(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n) {
			i++;
			strbuf_addch(&sb, s[i] == 'n' ? '\n' : s[i]);
		} else {
			strbuf_addch(&sb, s[i]);
		}
	}
	return strbuf_detach(&sb, NULL);
}

static void set_field(struct snapshot_meta *m, const char *key, size_t klen,
		      char *val)
{
	static const char *const keys[] = { "Op",     "Agent", "Worktree",
					    "Head",   "Index", "Quarantine",
					    "Branch", "Kept" };
	char **slots[] = { &m->op,    &m->agent,      &m->worktree, &m->head,
			   &m->index, &m->quarantine, &m->branch,   &m->kept };

	if (klen == 5 && !strncmp(key, "Stash", 5)) {
		strvec_push(&m->stashes, val);
		free(val);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		if (strlen(keys[i]) == klen && !strncmp(key, keys[i], klen)) {
			free(*slots[i]);
			*slots[i] = val;
			return;
		}
	}
	free(val);
}

int snapshot_meta_parse(const char *msg, struct snapshot_meta *m)
{
	const char *p = msg;

	while (*p) {
		const char *eol = strchrnul(p, '\n'), *key, *colon;

		if (skip_prefix(p, "Agentic-Snapshot-", &key) && key < eol &&
		    (colon = memchr(key, ':', (size_t)(eol - key))) &&
		    colon[1] == ' ') {
			set_field(m, key, (size_t)(colon - key),
				  unescape(colon + 2,
					   (size_t)(eol - colon - 2)));
		}
		p = *eol ? eol + 1 : eol;
	}
	return m->op ? 0 : -1;
}

void snapshot_meta_release(struct snapshot_meta *m)
{
	free(m->op);
	free(m->agent);
	free(m->worktree);
	free(m->head);
	free(m->index);
	free(m->quarantine);
	free(m->branch);
	free(m->kept);
	strvec_clear(&m->stashes);
	memset(m, 0, sizeof(*m));
	strvec_init(&m->stashes);
}
