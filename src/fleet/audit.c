/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <jansson.h>
#include <string.h>
#include "base/envvar.h"
#include "base/timefmt.h"
#include "fleet/audit.h"

int audit_parse_time(const char *s, time_t now, struct timespec *out)
{
	static const struct {
		char unit;
		long secs;
	} units[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 },
		      { 'd', 86400 }, { 'w', 604800 } };
	size_t n = strlen(s);
	char num[24];
	unsigned long v;

	if (!time_parse_rfc3339(s, out))
		return 0;
	if (n < 2 || n >= sizeof(num))
		return -1;
	memcpy(num, s, n - 1);
	num[n - 1] = '\0';
	if (parse_ulong(num, 100UL * 365 * 86400, &v) < 0)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (s[n - 1] == units[i].unit) {
			out->tv_sec = now - (time_t)(v * (unsigned long)units[i].secs);
			out->tv_nsec = 0;
			return 0;
		}
	}
	return -1;
}

static const char *str_field(json_t *root, const char *key)
{
	json_t *v = json_object_get(root, key);
	return json_is_string(v) ? json_string_value(v) : "";
}

int audit_record_parse(const char *line, size_t len, struct audit_record *r)
{
	json_t *root;

	memset(r, 0, sizeof(*r));
	root = json_loadb(line, len, JSON_REJECT_DUPLICATES, NULL);
	if (!root)
		return -1;
	if (!json_is_object(root) ||
	    !json_is_string(json_object_get(root, "event"))) {
		json_decref(root);
		return -1;
	}
	r->root = root;
	r->event = str_field(root, "event");
	r->disposition = str_field(root, "disposition");
	r->agent = str_field(root, "agent");
	r->subcommand = str_field(root, "subcommand");
	r->timestamp = str_field(root, "timestamp");
	r->ts_ok = *r->timestamp && !time_parse_rfc3339(r->timestamp, &r->ts);
	return 0;
}

void audit_record_release(struct audit_record *r)
{
	json_decref(r->root);
	memset(r, 0, sizeof(*r));
}

/* `value` is one of the comma-separated names in `list`. */
static bool in_list(const char *list, const char *value)
{
	size_t n = strlen(value);

	for (const char *p = list; *p;) {
		const char *comma = strchrnul(p, ',');
		if ((size_t)(comma - p) == n && !strncmp(p, value, n))
			return true;
		p = *comma ? comma + 1 : comma;
	}
	return false;
}

static int ts_cmp(const struct timespec *a, const struct timespec *b)
{
	if (a->tv_sec != b->tv_sec)
		return a->tv_sec < b->tv_sec ? -1 : 1;
	if (a->tv_nsec != b->tv_nsec)
		return a->tv_nsec < b->tv_nsec ? -1 : 1;
	return 0;
}

bool audit_match(const struct audit_filter *f, const struct audit_record *r)
{
	if (f->agent && strcmp(f->agent, r->agent))
		return false;
	if (f->event && !in_list(f->event, r->event))
		return false;
	if (f->disposition && !in_list(f->disposition, r->disposition))
		return false;
	if ((f->has_since || f->has_until) && !r->ts_ok)
		return false;
	if (f->has_since && ts_cmp(&r->ts, &f->since) < 0)
		return false;
	if (f->has_until && ts_cmp(&r->ts, &f->until) > 0)
		return false;
	return true;
}

void audit_detail(const struct audit_record *r, struct strbuf *out)
{
	json_t *root = r->root;
	const char *reason = str_field(root, "reason");
	const char *ref = str_field(root, "ref");

	if (*ref && *str_field(root, "new")) {
		strbuf_addf(out, "%s %.10s -> %.10s", ref,
			    str_field(root, "old"), str_field(root, "new"));
	} else if (*ref) {
		strbuf_addstr(out, ref);
	} else if (*reason) {
		strbuf_addstr(out, reason);
	} else if (*str_field(root, "cwd")) {
		strbuf_addf(out, "cwd=%s", str_field(root, "cwd"));
	}
	for (size_t i = 0; i < out->len; i++)
		if (out->buf[i] == '\n' || out->buf[i] == '\t')
			out->buf[i] = ' ';
}
