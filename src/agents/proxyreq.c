/* SPDX-License-Identifier: Apache-2.0 */
/* The fs+api proxy's request parser; see proxyreq.h. Pure. */
#include "base/common.h"
#include <ctype.h>
#include <string.h>
#include "agents/proxyreq.h"

static enum proxyreq_result bad(struct proxyreq *rq, int status,
				const char *why)
{
	rq->status = status;
	strbuf_reset(&rq->why);
	strbuf_addstr(&rq->why, why);
	return PROXYREQ_BAD;
}

static bool is_tchar(unsigned char c)
{
	return isascii(c) && (isalnum(c) || strchr("!#$%&'*+-.^_`|~", c));
}

static bool is_token(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_tchar((unsigned char)s[i]))
			return false;
	return n > 0;
}

size_t proxyreq_head_end(const char *buf, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++) {
		if (buf[i] != '\n')
			continue;
		if (buf[i + 1] == '\n')
			return i + 2;
		if (buf[i + 1] == '\r' && i + 2 < len && buf[i + 2] == '\n')
			return i + 3;
	}
	return 0;
}

/* One line without its CR LF; *next moves past it. */
static size_t line_len(const char *p, const char *end, const char **next)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	size_t n = (size_t)(nl - p);

	*next = nl + 1;
	return n && p[n - 1] == '\r' ? n - 1 : n;
}

static bool header_is(const char *line, size_t n, const char *name)
{
	size_t k = strlen(name);
	return n > k && line[k] == ':' && !strncasecmp(line, name, k);
}

static bool drop_header(const char *line, size_t n)
{
	return header_is(line, n, "host") || header_is(line, n, "connection") ||
	       header_is(line, n, "keep-alive") ||
	       (n > 6 && !strncasecmp(line, "proxy-", 6));
}

static enum proxyreq_result authority(struct proxyreq *rq, const char *s,
				      size_t n, bool need_port,
				      unsigned default_port)
{
	strbuf_reset(&rq->why);
	if (allowhost_authority(s, n, need_port, default_port, &rq->target,
				&rq->why) < 0) {
		rq->status = 400;
		return PROXYREQ_BAD;
	}
	return PROXYREQ_OK;
}

static enum proxyreq_result parse_target(struct proxyreq *rq, const char *t,
					 size_t n, const char **path,
					 size_t *path_len)
{
	const char *rest;
	size_t auth;

	if (rq->connect)
		return authority(rq, t, n, true, 0);
	if (n >= 8 && !strncasecmp(t, "https://", 8))
		return bad(rq, 400,
			   "an https:// URL must be fetched through CONNECT");
	if (n < 7 || strncasecmp(t, "http://", 7))
		return bad(
			rq, 400,
			"not a proxy request: the target must be an absolute http:// URL or CONNECT host:port");
	rest = t + 7;
	auth = strcspn(rest, "/?#");
	if (auth > n - 7)
		auth = n - 7;
	if (memchr(rest, '@', auth))
		return bad(rq, 400, "a URL with user information is refused");
	*path = rest + auth;
	*path_len = n - 7 - auth;
	return authority(rq, rest, auth, false, 80);
}

static enum proxyreq_result parse_request_line(struct proxyreq *rq,
					       const char *l, size_t n,
					       const char **path,
					       size_t *path_len)
{
	const char *sp1 = memchr(l, ' ', n), *sp2;
	size_t mlen;

	if (!sp1)
		return bad(rq, 400, "malformed request line");
	sp2 = memchr(sp1 + 1, ' ', n - (size_t)(sp1 + 1 - l));
	mlen = (size_t)(sp1 - l);
	if (!sp2 || !is_token(l, mlen) || mlen >= sizeof(rq->method))
		return bad(rq, 400, "malformed request line");
	if ((size_t)(l + n - (sp2 + 1)) != 8 ||
	    strncmp(sp2 + 1, "HTTP/1.", 7) || (sp2[8] != '0' && sp2[8] != '1'))
		return bad(rq, 400, "only HTTP/1.0 and HTTP/1.1 are spoken");
	memcpy(rq->method, l, mlen);
	rq->method[mlen] = '\0';
	rq->connect = !strcmp(rq->method, "CONNECT");
	return parse_target(rq, sp1 + 1, (size_t)(sp2 - sp1 - 1), path,
			    path_len);
}

static enum proxyreq_result check_header(struct proxyreq *rq, const char *l,
					 size_t n)
{
	const char *colon = memchr(l, ':', n);

	if (!colon || !is_token(l, (size_t)(colon - l)))
		return bad(rq, 400, "malformed header line");
	for (size_t i = 0; i < n; i++)
		if ((iscntrl((unsigned char)l[i]) && l[i] != '\t'))
			return bad(rq, 400, "a control character in a header");
	return PROXYREQ_OK;
}

static void add_forward_line(struct proxyreq *rq, const char *path,
			     size_t path_len)
{
	strbuf_addf(&rq->fwd, "%s ", rq->method);
	if (path_len && *path == '/')
		strbuf_add(&rq->fwd, path, path_len);
	else /* "http://h?q" is "/?q" */
		strbuf_addch(&rq->fwd, '/'),
			strbuf_add(&rq->fwd, path, path_len);
	strbuf_addstr(&rq->fwd, " HTTP/1.1\r\n");
}

enum proxyreq_result proxyreq_parse(const char *buf, size_t len,
				    struct proxyreq *rq)
{
	size_t end = proxyreq_head_end(buf, len), n, path_len = 0;
	const char *p = buf, *next, *path = NULL, *stop;
	bool has_host = false, http11;

	if (memchr(buf, '\0', end ? end : len))
		return bad(rq, 400, "a NUL byte in the request");
	if (!end) {
		const char *nl = memchr(buf, '\n', len);
		if ((size_t)((nl ? nl : buf + len) - buf) > PROXYREQ_LINE_MAX)
			return bad(rq, 431,
				   "a request line longer than 8192 bytes");
		if (len >= PROXYREQ_HEAD_MAX)
			return bad(rq, 431,
				   "a request head longer than 16384 bytes");
		return PROXYREQ_MORE;
	}
	if (end > PROXYREQ_HEAD_MAX)
		return bad(rq, 431, "a request head longer than 16384 bytes");
	stop = buf + end;
	n = line_len(p, stop, &next);
	if (n > PROXYREQ_LINE_MAX)
		return bad(rq, 431, "a request line longer than 8192 bytes");
	if (parse_request_line(rq, p, n, &path, &path_len) != PROXYREQ_OK)
		return PROXYREQ_BAD;
	http11 = p[n - 1] == '1';
	strbuf_reset(&rq->fwd);
	if (!rq->connect)
		add_forward_line(rq, path, path_len);
	for (p = next; p < stop; p = next) {
		n = line_len(p, stop, &next);
		if (!n)
			break;
		if (n > PROXYREQ_LINE_MAX)
			return bad(rq, 431,
				   "a header line longer than 8192 bytes");
		if (check_header(rq, p, n) != PROXYREQ_OK)
			return PROXYREQ_BAD;
		has_host |= header_is(p, n, "host");
		if (!rq->connect && !drop_header(p, n)) {
			strbuf_add(&rq->fwd, p, n);
			strbuf_addstr(&rq->fwd, "\r\n");
		}
	}
	if (http11 && !has_host)
		return bad(rq, 400,
			   "an HTTP/1.1 request without a Host header");
	if (!rq->connect) {
		strbuf_addstr(&rq->fwd, "Host: ");
		if (rq->target.kind == AH_IPV6)
			strbuf_addf(&rq->fwd, "[%s]", rq->target.host);
		else
			strbuf_addstr(&rq->fwd, rq->target.host);
		if (rq->target.port != 80)
			strbuf_addf(&rq->fwd, ":%u", rq->target.port);
		strbuf_addstr(&rq->fwd, "\r\nConnection: close\r\n\r\n");
	}
	rq->head_len = end;
	return PROXYREQ_OK;
}

void proxyreq_release(struct proxyreq *rq)
{
	strbuf_release(&rq->fwd);
	strbuf_release(&rq->why);
}
