/* SPDX-License-Identifier: Apache-2.0 */
/* The fs+api allow-list matcher; see allowhosts.h. Pure. */
#include "base/common.h"
#include <arpa/inet.h>
#include <ctype.h>
#include <string.h>
#include "agents/allowhosts.h"

static void why(struct strbuf *err, const char *msg)
{
	if (err)
		strbuf_addstr(err, msg);
}

static bool name_char(unsigned char c)
{
	return isascii(c) && (isalnum(c) || c == '-' || c == '_' || c == '.');
}

/* Invariant 3: a name only an address can have ("10.1", "0x7f.1"). */
static bool looks_numeric(const char *s)
{
	const char *label = s, *last = s;

	for (const char *p = s;; p++) {
		if (*p != '.' && *p)
			continue;
		if (p - label >= 2 && label[0] == '0' &&
		    (label[1] == 'x' || label[1] == 'X'))
			return true;
		last = label;
		if (!*p)
			break;
		label = p + 1;
	}
	if (!*last)
		return false;
	for (; *last; last++)
		if (!isdigit((unsigned char)*last))
			return false;
	return true;
}

/* Invariant 4: letters, digits, - _ . and no empty label. */
static int check_name(const char *s, struct strbuf *err)
{
	size_t n = strlen(s);

	if (!n || n > ALLOWHOST_NAME_MAX)
		return why(err,
			   "the host name is empty or longer than 253 bytes"),
		       -1;
	for (size_t i = 0; i < n; i++)
		if (!name_char((unsigned char)s[i]))
			return why(err,
				   "the host name holds a character other than letters, digits, '-', '_' and '.'"),
			       -1;
	if (s[0] == '.' || s[n - 1] == '.' || strstr(s, ".."))
		return why(err, "the host name has an empty label"), -1;
	return 0;
}

int allowhost_target(const char *host, size_t len, unsigned port,
		     struct allowhost_target *out, struct strbuf *err)
{
	char buf[ALLOWHOST_NAME_MAX + 2];
	bool bracketed = len >= 2 && host[0] == '[' && host[len - 1] == ']';

	memset(out, 0, sizeof(*out));
	if (port < 1 || port > 65535)
		return why(err, "the port must be between 1 and 65535"), -1;
	out->port = port;
	if (bracketed) {
		host++;
		len -= 2;
	}
	if (!len || len > ALLOWHOST_NAME_MAX || memchr(host, '\0', len))
		return why(err,
			   "the host is empty, too long or holds a NUL byte"),
		       -1;
	memcpy(buf, host, len);
	buf[len] = '\0';
	if (bracketed || strchr(buf, ':')) {
		if (inet_pton(AF_INET6, buf, out->addr) != 1)
			return why(err, "the host is not a valid IPv6 address"),
			       -1;
		out->kind = AH_IPV6;
		inet_ntop(AF_INET6, out->addr, out->host, sizeof(out->host));
		return 0;
	}
	for (size_t i = 0; i < len; i++)
		buf[i] = (char)tolower((unsigned char)buf[i]);
	if (len > 1 && buf[len - 1] == '.')
		buf[--len] = '\0';
	if (check_name(buf, err) < 0)
		return -1;
	if (looks_numeric(buf)) {
		if (inet_pton(AF_INET, buf, out->addr) != 1)
			return why(err,
				   "the host looks like an address but is not a dotted-quad IPv4 address"),
			       -1;
		out->kind = AH_IPV4;
	} else {
		out->kind = AH_NAME;
	}
	memcpy(out->host, buf, len + 1);
	return 0;
}

static int parse_port(const char *s, size_t n, unsigned *out)
{
	unsigned long v = 0;

	if (!n || n > 5)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (v < 1 || v > 65535)
		return -1;
	*out = (unsigned)v;
	return 0;
}

int allowhost_authority(const char *s, size_t len, bool need_port,
			unsigned default_port, struct allowhost_target *out,
			struct strbuf *err)
{
	size_t host_len = len;
	unsigned port = default_port;
	const char *colon;

	if (len && s[0] == '[') {
		const char *close = memchr(s, ']', len);
		if (!close)
			return why(err, "an IPv6 address has no closing ']'"),
			       -1;
		host_len = (size_t)(close - s) + 1;
		if (host_len < len && s[host_len] != ':')
			return why(err, "junk after the IPv6 address"), -1;
	} else if ((colon = memchr(s, ':', len))) {
		host_len = (size_t)(colon - s);
	}
	if (host_len < len) {
		if (parse_port(s + host_len + 1, len - host_len - 1, &port) < 0)
			return why(err,
				   "bad port: it must be a number from 1 to 65535"),
			       -1;
	} else if (need_port) {
		return why(err, "bad port: the authority has none (host:port)"),
		       -1;
	}
	return allowhost_target(s, host_len, port, out, err);
}

int allowhost_check(const char *entry, struct strbuf *err)
{
	struct allowhost_target t;
	const char *rest = entry;
	size_t n = strlen(entry);

	if (skip_prefix(entry, "*.", &rest)) {
		if (allowhost_authority(rest, strlen(rest), false,
					ALLOWHOST_DEFAULT_PORT, &t, err) < 0)
			return -1;
		if (t.kind != AH_NAME)
			return why(err,
				   "a wildcard must be followed by a domain name, not an address"),
			       -1;
		return 0;
	}
	if (strchr(entry, '*'))
		return why(err,
			   "'*' is only allowed as a leading '*.' (*.example.com)"),
		       -1;
	return allowhost_authority(entry, n, false, ALLOWHOST_DEFAULT_PORT, &t,
				   err);
}

static bool entry_matches(const char *entry, const struct allowhost_target *t)
{
	struct allowhost_target e;
	const char *rest;
	size_t hn, en;

	if (skip_prefix(entry, "*.", &rest)) {
		if (t->kind != AH_NAME || /* invariant 2 */
		    allowhost_authority(rest, strlen(rest), false,
					ALLOWHOST_DEFAULT_PORT, &e, NULL) < 0 ||
		    e.kind != AH_NAME || e.port != t->port)
			return false;
		hn = strlen(t->host);
		en = strlen(e.host);
		return hn > en + 1 && t->host[hn - en - 1] == '.' &&
		       !strcmp(t->host + hn - en, e.host);
	}
	if (strchr(entry, '*') ||
	    allowhost_authority(entry, strlen(entry), false,
				ALLOWHOST_DEFAULT_PORT, &e, NULL) < 0)
		return false;
	if (e.kind != t->kind || e.port != t->port)
		return false;
	if (e.kind == AH_NAME)
		return !strcmp(e.host, t->host);
	return !memcmp(e.addr, t->addr, e.kind == AH_IPV4 ? 4 : 16);
}

bool allowhosts_match(const char *const *entries, size_t nr,
		      const struct allowhost_target *t)
{
	for (size_t i = 0; i < nr; i++)
		if (entries[i] && entry_matches(entries[i], t))
			return true;
	return false;
}

void allowhost_format(const struct allowhost_target *t, struct strbuf *out)
{
	if (t->kind == AH_IPV6)
		strbuf_addf(out, "[%s]:%u", t->host, t->port);
	else
		strbuf_addf(out, "%s:%u", t->host, t->port);
}
