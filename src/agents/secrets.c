/* SPDX-License-Identifier: Apache-2.0 */
/* Placeholders and the proxy's table of secrets; see secrets.h. Pure. */
#include "base/common.h"
#include <string.h>
#include "agents/secrets.h"
#include "base/xalloc.h"

void secret_placeholder(const char *name, const unsigned char random16[16],
			struct strbuf *out)
{
	strbuf_addf(out, SECRET_PREFIX "%s-", name);
	for (size_t i = 0; i < 16; i++)
		strbuf_addf(out, "%02x", random16[i]);
}

bool secret_value_ok(const char *v, size_t len)
{
	if (!len || len > SECRET_VALUE_MAX)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)v[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return false;
	}
	return true;
}

int secret_table_add(struct secret_table *t, const char *name,
		     const char *placeholder, const char *value,
		     const char *const *hosts, size_t nr_hosts)
{
	struct secret_entry *e;

	if (t->nr >= SECRET_TABLE_MAX || !*name || !*placeholder ||
	    !secret_value_ok(value, strlen(value)) || !nr_hosts)
		return -1;
	t->v = xrealloc(t->v, (t->nr + 1) * sizeof(*t->v));
	e = &t->v[t->nr++];
	e->name = xstrdup(name);
	e->placeholder = xstrdup(placeholder);
	e->value = xstrdup(value);
	e->preset = false;
	strvec_init(&e->hosts);
	strvec_pushn(&e->hosts, hosts, nr_hosts);
	return 0;
}

void secret_table_encode(const struct secret_table *t, struct strbuf *out)
{
	for (size_t i = 0; i < t->nr; i++) {
		const struct secret_entry *e = &t->v[i];

		strbuf_add(out, e->name, strlen(e->name) + 1);
		strbuf_add(out, e->placeholder, strlen(e->placeholder) + 1);
		for (size_t j = 0; j < e->hosts.nr; j++) {
			if (j)
				strbuf_addch(out, ',');
			strbuf_addstr(out, e->hosts.v[j]);
		}
		strbuf_addch(out, '\0');
		strbuf_add(out, e->value, strlen(e->value) + 1);
	}
}

/* The next NUL-terminated field of [*p, end), or NULL. */
static const char *field(const char **p, const char *end)
{
	const char *s = *p, *nul = memchr(s, '\0', (size_t)(end - s));

	if (!nul)
		return NULL;
	*p = nul + 1;
	return s;
}

static int decode_one(struct secret_table *t, const char **p, const char *end,
		      struct strbuf *err)
{
	const char *name = field(p, end), *ph = field(p, end),
		   *hosts = field(p, end), *value = field(p, end);
	struct strvec hv = STRVEC_INIT;
	int rc = -1;

	if (!name || !ph || !hosts || !value) {
		strbuf_addstr(err, "a truncated entry");
		return -1;
	}
	while (*hosts) {
		size_t n = strcspn(hosts, ",");
		char *h = xstrndup(hosts, n);

		if (allowhost_check(h, NULL) < 0) {
			strbuf_addf(err, "secret '%s': a bad host '%s'", name,
				    h);
			free(h);
			goto out;
		}
		strvec_push(&hv, h);
		free(h);
		hosts += n + (hosts[n] == ',');
	}
	if (!starts_with(ph, SECRET_PREFIX) ||
	    secret_table_add(t, name, ph, value, hv.v, hv.nr) < 0)
		strbuf_addf(err, "secret '%s': a bad entry", name);
	else
		rc = 0;
out:
	strvec_clear(&hv);
	return rc;
}

int secret_table_decode(const char *buf, size_t len, struct secret_table *t,
			struct strbuf *err)
{
	const char *p = buf, *end = buf + len;

	if (len > SECRET_BLOB_MAX) {
		strbuf_addstr(err, "too large");
		return -1;
	}
	while (p < end)
		if (decode_one(t, &p, end, err) < 0)
			return -1;
	return 0;
}

static bool entry_for(const struct secret_entry *e,
		      const struct allowhost_target *target)
{
	return allowhosts_match((const char *const *)e->hosts.v, e->hosts.nr,
				target);
}

bool secret_table_for(const struct secret_table *t,
		      const struct allowhost_target *target)
{
	for (size_t i = 0; i < t->nr; i++)
		if (entry_for(&t->v[i], target))
			return true;
	return false;
}

static void note_used(struct strvec *used, const char *name)
{
	if (!used)
		return;
	for (size_t i = 0; i < used->nr; i++)
		if (!strcmp(used->v[i], name))
			return;
	strvec_push(used, name);
}

/* One header value [s, end): every placeholder of the applicable entries
 * replaced. */
static size_t rewrite_value(const struct secret_table *t,
			    const struct allowhost_target *target,
			    const char *s, const char *end, struct strbuf *out,
			    struct strvec *used)
{
	size_t n = 0;

	while (s < end) {
		const char *hit = NULL;
		const struct secret_entry *best = NULL;

		for (size_t i = 0; i < t->nr; i++) {
			const struct secret_entry *e = &t->v[i];
			const char *h =
				memmem(s, (size_t)(end - s), e->placeholder,
				       strlen(e->placeholder));
			if (h && entry_for(e, target) && (!hit || h < hit)) {
				hit = h;
				best = e;
			}
		}
		if (!hit) {
			strbuf_add(out, s, (size_t)(end - s));
			break;
		}
		strbuf_add(out, s, (size_t)(hit - s));
		strbuf_addstr(out, best->value);
		note_used(used, best->name);
		s = hit + strlen(best->placeholder);
		n++;
	}
	return n;
}

size_t secret_rewrite_head(const struct secret_table *t,
			   const struct allowhost_target *target,
			   const char *head, size_t len, struct strbuf *out,
			   struct strvec *used)
{
	const char *p = head, *end = head + len;
	size_t n = 0;
	bool first = true;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl + 1 : end;
		const char *colon = memchr(p, ':', (size_t)(eol - p));

		/* invariant 2: the request line and names as they are */
		if (first || !colon || !secret_table_for(t, target)) {
			strbuf_add(out, p, (size_t)(eol - p));
		} else {
			strbuf_add(out, p, (size_t)(colon + 1 - p));
			n += rewrite_value(t, target, colon + 1, eol, out,
					   used);
		}
		first = false;
		p = eol;
	}
	return n;
}

void secret_table_wipe(struct secret_table *t)
{
	for (size_t i = 0; i < t->nr; i++) {
		struct secret_entry *e = &t->v[i];

		explicit_bzero(e->value, strlen(e->value));
		free(e->value);
		free(e->name);
		free(e->placeholder);
		strvec_clear(&e->hosts);
	}
	free(t->v);
	t->v = NULL;
	t->nr = 0;
}

void strbuf_wipe(struct strbuf *sb)
{
	if (sb->alloc)
		explicit_bzero(sb->buf, sb->alloc);
	strbuf_release(sb);
}
